//! One session for every front: a game named by its spec, positions read from move strings,
//! and engines that solve, analyse and play them, all behind three object-safe traits, so that
//! the command line, the server, Python and WebAssembly hold one type whatever the game.
//!
//! [`rules`] reads a spec into a [`Rules`]; [`Rules::read`] a move string (or a board) into a
//! [`Position`]; a [`Solver`] (made by [`Rules::solver`], or taken warm from a [`Session`])
//! answers with plain data: a [`Solution`], a [`PositionAnalysis`], an [`EngineMove`]. The
//! erasure of the game's type happens here once, with the [`crate::with_game`] dispatch;
//! nothing here names a game.
//!
//! ```
//! use inarow::session::{Session, Settings, rules};
//! use inarow::limits::Limits;
//!
//! let game = rules("connect4:5x4")?;
//! let pos = game.read("33")?;
//! let session = Session::new(2, 1);
//! let analysis = session.with_solver(game.as_ref(), &Settings::default(), |solver| {
//!     solver.analyze(pos.as_ref(), &Limits::default())
//! })??;
//! assert_eq!(analysis.moves.len(), 5);
//! assert!(analysis.moves.iter().all(|m| m.value.is_exact()));
//! # Ok::<(), inarow::Error>(())
//! ```

pub use crate::engine::agent::Valuation;
use crate::engine::agent::{Agent, Level};
use crate::engine::{Algorithm, Config, Driver, Engine, Options, Report};
use crate::error::Error;
use crate::game::view::{MoveView, PositionView};
use crate::game::{
    Board, GameLine, GameSpec, Kind, MoveError, MoveList, Notation, Player, Repetition, Status,
    Tactics, read_line, read_position,
};
use crate::limits::Limits;
use crate::search::score::end_ply;
use crate::with_game;
use std::any::Any;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a front needs of a game: its rules, notation and board as data.
pub trait Playable: Tactics + Board {}
impl<G: Tactics + Board> Playable for G {}

/// How a solver is made: its level and its tables. Two solvers of equal settings are
/// interchangeable, so a [`Session`] hands a warm one to whoever asks with the same settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How it plays; [`Level::Best`] (the default) is the exact solver first.
    pub level: Level,
    /// Win / draw / loss only.
    pub weak: bool,
    /// The transposition table, in MiB.
    pub table_mb: usize,
    /// The memory budget of the proof-number searches and of the heuristic search, in MiB.
    pub memory_mb: usize,
    /// Search threads sharing the table (alpha-beta only; one in games whose positions repeat).
    pub threads: usize,
    /// Answer from the game's built-in opening book and strategy.
    pub book: bool,
    /// The exact method (`None`: the game's fastest) and alpha-beta's root driver.
    pub algorithm: Option<Algorithm>,
    /// Alpha-beta's root driver.
    pub driver: Driver,
}

impl Default for Settings {
    fn default() -> Settings {
        let options = Options::default();
        Settings {
            level: Level::Best,
            weak: false,
            table_mb: options.config.tt_mb,
            memory_mb: options.mem_mb,
            threads: 1,
            book: true,
            algorithm: None,
            driver: options.config.driver,
        }
    }
}

/// What a solve asks for.
#[derive(Clone, Debug, Default)]
pub struct Ask {
    /// Limits of the search.
    pub limits: Limits,
    /// Every move that keeps the value.
    pub best_moves: bool,
    /// A line of perfect play (with the best moves).
    pub pv: bool,
}

/// The value of a position for the side to move, as a solve found it.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The score for the side to move (positive: it wins, larger: sooner; 0: a draw; negative:
    /// it loses), or 1 / 0 / -1 where only win / draw / loss is known; `None` when a limit
    /// stopped the search.
    pub score: Option<i32>,
    /// For a win or a loss where the distance is known: plies to the end under perfect play.
    pub plies: Option<u32>,
    /// Every move that keeps the value (`None` when not asked for).
    pub best_moves: Option<Vec<String>>,
    /// A line of perfect play (`None` when not asked for).
    pub pv: Option<Vec<String>>,
    /// Whether `score` is the exact score rather than only win / draw / loss.
    pub exact: bool,
    /// Why the search stopped early, if it did.
    pub stopped: Option<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds the solver spent.
    pub seconds: f64,
}

/// A move and its value for the side that plays it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// The move in the game's notation.
    pub mv: String,
    /// What it is worth.
    pub value: Valuation,
    /// The exact score, where the engine gives exact scores (not only win / draw / loss).
    pub score: Option<i32>,
    /// The ply on which the game ends with best play, for an exact score of a bounded game.
    pub end_ply: Option<u32>,
}

impl MoveValue {
    /// Whether the value is the game-theoretic one.
    pub fn exact(&self) -> bool {
        self.value.is_exact()
    }

    /// `"win"`, `"draw"` or `"loss"` for the mover where the value is exact.
    pub fn outcome(&self) -> Option<&'static str> {
        self.value.outcome()
    }
}

/// Every move of a position with its value, best first, and what the engine expects.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionAnalysis {
    /// Every legal move, best first.
    pub moves: Vec<MoveValue>,
    /// The expected line from the position.
    pub pv: Vec<String>,
    /// What answered ("exact", "alphabeta depth N", ...).
    pub source: String,
    /// Whether exact values are win / draw / loss only.
    pub weak: bool,
}

/// One move valued alone ([`Solver::analyze_move`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// The move and its value.
    pub value: MoveValue,
    /// The move and the expected replies.
    pub line: Vec<String>,
    /// Whether exact values are win / draw / loss only.
    pub weak: bool,
}

/// The engine's move in a position.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineMove {
    /// The move.
    pub mv: String,
    /// The position after it as a move string ([`Position::text`]).
    pub moves: Option<String>,
    /// What it is worth.
    pub value: Valuation,
}

/// A game: the start of every position of it.
pub trait Rules: Send + Sync {
    /// The game's spec, as [`GameSpec`] writes it back (`connect4:7x6:k4`, `popout:7x6`, ...).
    fn name(&self) -> String;
    /// The occurrence of a position that draws, in a game whose positions repeat.
    fn repetition(&self) -> Repetition;
    /// How a move is written, for people ("a column 1-7", ...).
    fn describe_moves(&self) -> String;
    /// The position a move string (or a board, in a game that has a notation for one) reaches.
    fn read(&self, text: &str) -> Result<Arc<dyn Position>, Error>;
    /// The position reached by these moves, one token each.
    fn read_tokens(&self, tokens: &[String]) -> Result<Arc<dyn Position>, Error>;
    /// The settings as this game takes them: one thread in a game whose positions repeat (a
    /// front that serves every game with one thread count fits it to each); a solver made with
    /// more is refused.
    fn fitted(&self, settings: Settings) -> Settings;
    /// A solver of this game.
    fn solver(&self, settings: &Settings, seed: u64) -> Result<Box<dyn Solver>, Error>;
    /// Solves every position, each from a cleared table, on the `solvers` (of this game, made
    /// by [`Rules::solver`]) at once; a cancelled limit stops what has not started. An error
    /// names the index of the position.
    fn solve_many(
        &self,
        positions: &[Source],
        ask: &Ask,
        solvers: &mut [Box<dyn Solver>],
    ) -> Result<Vec<Option<Solution>>, (usize, Error)>;
}

/// A position given to a batch: a move string, or a position already read.
pub enum Source {
    /// A move string (or a board).
    Text(String),
    /// A position read before.
    Position(Arc<dyn Position>),
}

/// A position as played: where it started, the moves, and the positions passed.
pub trait Position: Send + Sync {
    /// The position as its concrete type, for its game's own code.
    fn as_any(&self) -> &dyn Any;
    /// The game's spec.
    fn game(&self) -> String;
    /// The move string from the start of the line.
    fn moves(&self) -> String;
    /// The position as text the game reads back: the move string, or `BOARD/MOVES` for a line
    /// that started from a board given whole (the board alone when no move follows it); `None`
    /// where the game cannot write its board.
    fn text(&self) -> Option<String>;
    /// The moves from the start of the line, one token each.
    fn move_list(&self) -> Vec<String>;
    /// The board the line started from, as given, if it did not start at the game's start.
    fn origin(&self) -> Option<&str>;
    /// Moves played since the game's start (for a board given whole, as counted from it).
    fn ply(&self) -> u32;
    /// The player to move.
    fn to_move(&self) -> Player;
    /// The status, with a repetition's draw in games that repeat.
    fn status(&self) -> Status;
    /// The legal moves in the game's order of move codes, none once the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// The line with one more move.
    fn play(&self, token: &str) -> Result<Arc<dyn Position>, Error>;
    /// The position as data, its moves in the game's order (none once the game is over),
    /// each move as its code ([`Game::move_code`](crate::game::Game::move_code)).
    fn view(&self) -> PositionView<u16>;
    /// The position as data with its moves in the order the game generates them (as the web
    /// page has always listed them), none once the game is over.
    fn view_in_play_order(&self) -> PositionView<u16>;
    /// The board drawn for a terminal.
    fn render(&self) -> String;
    /// A key unique among the game's positions (board and side to move).
    fn key(&self) -> u128;
    /// The error of asking for a move in a finished game, or `None` while it goes on.
    fn over(&self) -> Option<Error> {
        (self.status() != Status::Ongoing).then(|| game_over(&self.given()))
    }
    /// The text the position was read from (or its move string, for one made by moves).
    fn given(&self) -> String;
    /// What differs between games in how the engine answers, for fronts that adapt to it.
    fn policy(&self) -> Policy;
    /// A rough guess of the seconds one core takes to solve the position with the game's
    /// default method ([`crate::game::Variant::rough_solve_seconds`]).
    fn rough_solve_seconds(&self) -> Option<f64>;
}

/// What differs between games in how the engine answers ([`crate::game::Variant`]), so that a
/// front adapts to it without naming a game.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Policy {
    /// An analysis values every move with the position at once (the game's own solver): ask
    /// for the whole analysis, not move by move.
    pub values_all_moves_at_once: bool,
    /// Exact scores carry the distance to the end (a bounded game's alpha-beta scores).
    pub scores_carry_distance: bool,
}

/// A solver with its table, and the playing engine around it (one table for both).
pub trait Solver: Send {
    /// The settings it was made with.
    fn settings(&self) -> &Settings;
    /// Whether its exact values are win / draw / loss only.
    fn is_weak(&self) -> bool;
    /// The value of a position of this solver's game (level best only).
    fn solve(&mut self, pos: &dyn Position, ask: &Ask) -> Result<Solution, Error>;
    /// Every move with its value, best first: exact where the solver settles it, else the
    /// evaluation search's estimate.
    fn analyze(&mut self, pos: &dyn Position, limits: &Limits) -> Result<PositionAnalysis, Error>;
    /// One move valued alone, as [`Solver::analyze`] values each within `limits` (its own).
    fn analyze_move(
        &mut self,
        pos: &dyn Position,
        mv: &str,
        limits: &Limits,
    ) -> Result<MoveAnalysis, Error>;
    /// The engine's move and what it is worth. Where the exact value is known in time, the
    /// move is the first, in a random order, that keeps it.
    fn best_move(&mut self, pos: &dyn Position, limits: &Limits) -> Result<EngineMove, Error>;
    /// Starts the random choices of [`Solver::best_move`] anew from `seed` (a perfect move
    /// among equals, the random level's move), for a caller that replays its games.
    fn reseed(&mut self, seed: u64);
    /// The bytes the exact solver needs to answer `pos` (`None`: it needs no more than it
    /// has), and the fewest stones from which its answers fit in `bytes`.
    fn memory_needed(&self, pos: &dyn Position, bytes: u64) -> (Option<u64>, Option<u32>);
    /// Solves the `MOVES EXPECTED` lines of a benchmark text, as `inarow bench` does.
    fn bench(
        &mut self,
        name: &str,
        text: &str,
    ) -> Result<(crate::engine::bench::Tally, Vec<String>), Error>;
    /// The limits of the next solves and benchmarks ([`Solver::solve`] sets its own).
    fn set_limits(&mut self, limits: Limits);
    /// Forgets what the table holds.
    fn reset(&mut self);
    /// The solver as its concrete type, for its game's own code.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// How a front shows a move string: `-` for none (the start).
pub fn show_moves(text: &str) -> &str {
    let text = text.trim();
    if text.is_empty() { "-" } else { text }
}

/// The error of asking for moves in a finished game, given as `given`.
pub fn game_over(given: &str) -> Error {
    Error::Input(format!(
        "{}: the game is over; no moves to analyse",
        show_moves(given)
    ))
}

/// A number of seconds a user gave (a think time, a time limit), checked the one way for every
/// front: finite and above 0, and at most `max` where the front caps it.
pub fn seconds(name: &str, value: f64, max: Option<f64>) -> Result<Duration, Error> {
    let cap = max.map_or(String::new(), |m| format!(", at most {m}"));
    if !(value.is_finite() && value > 0.0) || max.is_some_and(|m| value > m) {
        return Err(Error::Input(format!(
            "{name} {value}: must be a positive number of seconds{cap}"
        )));
    }
    Ok(Duration::from_secs_f64(value))
}

/// A solver around an agent the caller made, for a front whose options go beyond [`Settings`]
/// (the command line's books from files, databases and search flags); `settings` describes it
/// to a [`Session`] and builds nothing.
pub fn solver_around<G: Playable>(
    start: G,
    settings: Settings,
    agent: Agent<G>,
) -> Box<dyn Solver> {
    Box::new(SolverOf::around(start, settings, agent))
}

/// The game a spec names (the empty spec: Connect Four 7x6), with the default repetition rule.
pub fn rules(spec: &str) -> Result<Arc<dyn Rules>, Error> {
    rules_under(spec, Repetition::default())
}

/// The game a spec names under a repetition rule (the positions' status and the solvers'
/// searches; it matters only in games whose positions repeat).
pub fn rules_under(spec: &str, repetition: Repetition) -> Result<Arc<dyn Rules>, Error> {
    let spec = if spec.trim().is_empty() {
        "connect4"
    } else {
        spec
    };
    let spec: GameSpec = spec.parse()?;
    Ok(with_game!(spec.start(), start => Arc::new(Typed { start, repetition }) as Arc<dyn Rules>))
}

/// Warm solvers kept between requests, by game and settings, most recently used first and at
/// most `capacity` of them: the positions of one game asked in turn reuse what the earlier
/// searches learnt.
pub struct Session {
    idle: Mutex<Vec<(String, Box<dyn Solver>)>>,
    capacity: usize,
    seed: AtomicU64,
}

impl Session {
    /// A session keeping at most `capacity` idle solvers; new ones are seeded from `seed` on.
    pub const fn new(capacity: usize, seed: u64) -> Session {
        Session {
            idle: Mutex::new(Vec::new()),
            capacity,
            seed: AtomicU64::new(seed),
        }
    }

    /// `n` solvers of the game with these settings: idle ones first, new ones for the rest.
    /// Where new ones are needed, the oldest idle solvers go first to make room for them.
    pub fn take(
        &self,
        rules: &dyn Rules,
        settings: &Settings,
        n: usize,
    ) -> Result<Vec<Box<dyn Solver>>, Error> {
        let name = key(rules);
        let mut taken = Vec::with_capacity(n);
        let dropped = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            let mut i = 0;
            while i < idle.len() && taken.len() < n {
                if idle[i].0 == name && idle[i].1.settings() == settings {
                    taken.push(idle.remove(i).1);
                } else {
                    i += 1;
                }
            }
            let room = self
                .capacity
                .saturating_sub(n - taken.len())
                .min(idle.len());
            idle.split_off(room)
        };
        drop(dropped);
        while taken.len() < n {
            let seed = self.seed.fetch_add(1, Ordering::Relaxed);
            taken.push(rules.solver(settings, seed)?);
        }
        Ok(taken)
    }

    /// Keeps solvers of `rules`' game for later calls (the least recently used beyond the
    /// capacity go).
    pub fn give_back(&self, rules: &dyn Rules, solvers: Vec<Box<dyn Solver>>) {
        let name = key(rules);
        let dropped = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            for solver in solvers {
                idle.insert(0, (name.clone(), solver));
            }
            let keep = idle.len().min(self.capacity);
            idle.split_off(keep)
        };
        drop(dropped);
    }

    /// Runs `f` with a solver of the game with these settings, kept warm for later calls.
    pub fn with_solver<R>(
        &self,
        rules: &dyn Rules,
        settings: &Settings,
        f: impl FnOnce(&mut dyn Solver) -> R,
    ) -> Result<R, Error> {
        let mut solvers = self.take(rules, settings, 1)?;
        let result = f(solvers[0].as_mut());
        self.give_back(rules, solvers);
        Ok(result)
    }

    /// Drops every idle solver (and its tables).
    pub fn clear(&self) -> usize {
        let idle = std::mem::take(&mut *self.idle.lock().unwrap_or_else(|e| e.into_inner()));
        idle.len()
    }
}

/// What the idle solvers of a game are kept by: the game and its repetition rule.
fn key(rules: &dyn Rules) -> String {
    format!("{} {}", rules.name(), rules.repetition().occurrence())
}

/// A game, by its start position.
struct Typed<G> {
    start: G,
    repetition: Repetition,
}

/// A position of a game, as played.
struct LineOf<G: Playable> {
    start: G,
    repetition: Repetition,
    line: GameLine<G>,
    /// The board the line started from, as given.
    origin: Option<String>,
    /// The text it was read from.
    given: Option<String>,
}

impl<G: Playable> LineOf<G> {
    fn read(start: G, repetition: Repetition, text: &str) -> Result<Self, MoveError> {
        let line = read_line(start, text)?;
        let origin = (*line.start() != start).then(|| text.trim().to_string());
        Ok(LineOf {
            start,
            repetition,
            line,
            origin,
            given: Some(text.to_string()),
        })
    }

    fn status(&self) -> Status {
        self.line.status(self.repetition)
    }

    /// `line` with `token` played, or the message the command line gives for the move string
    /// that ends with it.
    fn played(&self, token: &str) -> Result<LineOf<G>, Error> {
        let pos = *self.line.position();
        let fail = |reason: String| {
            let mut tokens = Position::move_list(self);
            tokens.push(token.to_string());
            Error::Move(MoveError {
                text: self.start.join_moves(&tokens),
                index: tokens.len(),
                token: token.to_string(),
                reason,
            })
        };
        if self.status() != Status::Ongoing {
            return Err(fail(format!("'{token}' comes after the game is over")));
        }
        let mv = pos
            .parse_move(token.trim())
            .map_err(|e| fail(e.to_string()))?;
        Ok(LineOf {
            start: self.start,
            repetition: self.repetition,
            line: self.line.played(mv),
            origin: self.origin.clone(),
            given: None,
        })
    }

    /// A line as text the game reads back (see [`Position::text`]).
    fn text_of(&self, line: &GameLine<G>) -> Option<String> {
        if *line.start() == self.start {
            return Some(line.move_string());
        }
        let board = line.start().format_board()?;
        Some(match line.move_string() {
            moves if moves.is_empty() => board,
            moves => format!("{board}/{moves}"),
        })
    }

    /// The view with its moves as codes, sorted by code or in the order the game generates
    /// them; none once the game is over.
    fn view_sorted(&self, by_code: bool) -> PositionView<u16> {
        let pos = self.line.position();
        let view = PositionView::of(pos);
        let mut moves: Vec<_> = view
            .moves
            .into_iter()
            .map(|m| MoveView {
                mv: pos.move_code(m.mv),
                text: m.text,
                effect: m.effect,
                changed: m.changed,
            })
            .collect();
        if self.status() != Status::Ongoing {
            moves.clear();
        }
        if by_code {
            moves.sort_by_key(|m| m.mv);
        }
        PositionView {
            layout: view.layout,
            cells: view.cells,
            to_move: view.to_move,
            status: view.status,
            lines: view.lines,
            moves,
        }
    }
}

/// The line a search starts from: in a bounded game the position alone (the positions before
/// it count for nothing, and a line of one position costs no allocation).
fn to_solve<G: Playable>(line: &GameLine<G>) -> GameLine<G> {
    if G::Kind::REPEATS {
        line.clone()
    } else {
        GameLine::new(*line.position())
    }
}

/// [`to_solve`] of a move string (or a board).
fn read_to_solve<G: Playable>(start: G, text: &str) -> Result<GameLine<G>, MoveError> {
    if G::Kind::REPEATS {
        read_line(start, text)
    } else {
        read_position(start, text).map(|(_, pos, _)| GameLine::new(pos))
    }
}

/// The position as this game's line.
fn typed<'a, G: Playable>(pos: &'a dyn Position, start: &G) -> Result<&'a LineOf<G>, Error> {
    match pos.as_any().downcast_ref::<LineOf<G>>() {
        Some(l) if l.start == *start => Ok(l),
        _ => Err(Error::Unsupported(format!(
            "the position is not of this solver's game, {}",
            start.name()
        ))),
    }
}

impl<G: Playable> Rules for Typed<G> {
    fn name(&self) -> String {
        self.start.name()
    }

    fn repetition(&self) -> Repetition {
        self.repetition
    }

    fn describe_moves(&self) -> String {
        self.start.describe_moves()
    }

    fn read(&self, text: &str) -> Result<Arc<dyn Position>, Error> {
        Ok(Arc::new(LineOf::read(self.start, self.repetition, text)?))
    }

    fn read_tokens(&self, tokens: &[String]) -> Result<Arc<dyn Position>, Error> {
        let mut line = LineOf {
            start: self.start,
            repetition: self.repetition,
            line: GameLine::new(self.start),
            origin: None,
            given: None,
        };
        for token in tokens {
            line = line.played(token)?;
        }
        Ok(Arc::new(line))
    }

    fn fitted(&self, settings: Settings) -> Settings {
        let mut options = Options::default();
        options.config.threads = settings.threads;
        Settings {
            threads: options.fitted_to(&self.start).config.threads,
            ..settings
        }
    }

    fn solver(&self, settings: &Settings, seed: u64) -> Result<Box<dyn Solver>, Error> {
        Ok(Box::new(SolverOf::new(
            self.start,
            self.repetition,
            settings,
            seed,
        )?))
    }

    fn solve_many(
        &self,
        positions: &[Source],
        ask: &Ask,
        solvers: &mut [Box<dyn Solver>],
    ) -> Result<Vec<Option<Solution>>, (usize, Error)> {
        let lines = positions
            .iter()
            .enumerate()
            .map(|(i, source)| match source {
                Source::Text(text) => read_to_solve(self.start, text).map_err(|e| (i, e.into())),
                Source::Position(pos) => typed(pos.as_ref(), &self.start)
                    .map(|l| to_solve(&l.line))
                    .map_err(|e| (i, e)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut solvers = solvers
            .iter_mut()
            .take(lines.len().max(1))
            .map(|s| {
                s.as_any_mut()
                    .downcast_mut::<SolverOf<G>>()
                    .filter(|s| s.start == self.start)
                    .ok_or_else(|| {
                        (
                            0,
                            Error::Unsupported(format!(
                                "the solvers are not of this game, {}",
                                self.start.name()
                            )),
                        )
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let next = AtomicUsize::new(0);
        let solve_share = |solver: &mut SolverOf<G>| {
            let mut solved = Vec::new();
            solver.set_limits(ask.limits.clone());
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= lines.len() || ask.limits.is_interrupted() {
                    return solved;
                }
                solver.reset();
                solved.push((i, solver.solve_line(&lines[i], ask)));
            }
        };
        let mut results: Vec<Option<Solution>> = (0..lines.len()).map(|_| None).collect();
        if let [solver] = &mut solvers[..] {
            // One solver: each answer straight into its place (no second list of them, which
            // for thousands of short positions costs as much as a tenth of their solving).
            solver.set_limits(ask.limits.clone());
            for (line, result) in lines.iter().zip(&mut results) {
                if ask.limits.is_interrupted() {
                    break;
                }
                solver.reset();
                *result = Some(solver.solve_line(line, ask));
            }
        } else {
            let share = &solve_share;
            let mut failed = None;
            std::thread::scope(|scope| {
                let handles: Vec<_> = solvers
                    .iter_mut()
                    .map(|solver| scope.spawn(move || share(solver)))
                    .collect();
                for handle in handles {
                    match handle.join() {
                        Ok(solved) => {
                            for (i, s) in solved {
                                results[i] = Some(s);
                            }
                        }
                        Err(_) => failed = Some(Error::Search("a solving thread failed".into())),
                    }
                }
            });
            if let Some(e) = failed {
                return Err((0, e));
            }
        }
        Ok(results)
    }
}

impl<G: Playable> Position for LineOf<G> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn game(&self) -> String {
        self.start.name()
    }

    fn moves(&self) -> String {
        self.line.move_string()
    }

    fn text(&self) -> Option<String> {
        self.text_of(&self.line)
    }

    fn move_list(&self) -> Vec<String> {
        let mut pos = *self.line.start();
        self.line
            .moves()
            .iter()
            .map(|&m| {
                let text = pos.format_move(m);
                pos = pos.play(m);
                text
            })
            .collect()
    }

    fn origin(&self) -> Option<&str> {
        self.origin.as_deref()
    }

    fn ply(&self) -> u32 {
        self.line.position().ply()
    }

    fn to_move(&self) -> Player {
        self.line.position().side_to_move()
    }

    fn status(&self) -> Status {
        LineOf::status(self)
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.status() != Status::Ongoing {
            return Vec::new();
        }
        let pos = self.line.position();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        moves.sort_by_key(|&m| pos.move_code(m));
        moves.iter().map(|&m| pos.format_move(m)).collect()
    }

    fn play(&self, token: &str) -> Result<Arc<dyn Position>, Error> {
        Ok(Arc::new(self.played(token)?))
    }

    fn view(&self) -> PositionView<u16> {
        self.view_sorted(true)
    }

    fn view_in_play_order(&self) -> PositionView<u16> {
        self.view_sorted(false)
    }

    fn render(&self) -> String {
        self.line.position().render()
    }

    fn key(&self) -> u128 {
        self.line.position().key()
    }

    fn policy(&self) -> Policy {
        Policy {
            values_all_moves_at_once: G::VALUES_ALL_MOVES_AT_ONCE,
            scores_carry_distance: G::SCORES_CARRY_DISTANCE,
        }
    }

    fn rough_solve_seconds(&self) -> Option<f64> {
        self.line.position().rough_solve_seconds()
    }

    fn given(&self) -> String {
        self.given
            .clone()
            .or_else(|| self.origin.clone())
            .unwrap_or_else(|| self.line.move_string())
    }
}

/// The solver of one game: the playing engine at its level, whose exact solver (level best)
/// answers values.
struct SolverOf<G: Playable> {
    start: G,
    settings: Settings,
    player: Agent<G>,
    /// Whether its scores are exact (not only win / draw / loss).
    exact: bool,
    /// Whether its exact values are win / draw / loss only: a weak solver, or a method that
    /// proves no more (the proof-number searches).
    weak: bool,
}

impl<G: Playable> SolverOf<G> {
    fn new(
        start: G,
        repetition: Repetition,
        settings: &Settings,
        seed: u64,
    ) -> Result<Self, Error> {
        // The distance to the end comes free with an exact score of a bounded game; elsewhere
        // it would take another search (or change the method), so it is not asked for.
        let exact_method = G::SCORES_CARRY_DISTANCE && settings.algorithm.is_none();
        let options = Options {
            weak: settings.weak,
            distance: exact_method && !settings.weak,
            algorithm: settings.algorithm,
            mem_mb: settings.memory_mb,
            repetition: repetition.occurrence(),
            config: Config {
                tt_mb: settings.table_mb,
                threads: settings.threads,
                driver: settings.driver,
                ..Config::default()
            },
            ..Options::default()
        };
        let player = if settings.level == Level::Best {
            let mut engine = Engine::try_new(&start, options.clone())?;
            // A solver is reused: its table is touched once now, not inside its first searches.
            engine.ready();
            // Books hold alpha-beta's scores.
            if settings.book && settings.algorithm.is_none_or(|a| a == Algorithm::AlphaBeta) {
                engine.use_builtin_book(&start);
            }
            Agent::with_engine(engine, &options, seed)?
        } else {
            Agent::new(settings.level, &start, options, seed)?
        };
        Ok(SolverOf::around(start, settings.clone(), player))
    }

    fn around(start: G, settings: Settings, player: Agent<G>) -> Self {
        let weak = player
            .engine()
            .is_some_and(|e| e.is_weak() || e.method().is_weak_only());
        let exact = player.engine().is_some() && !weak;
        SolverOf {
            start,
            settings,
            player,
            exact,
            weak,
        }
    }

    fn engine(&mut self) -> Result<&mut Engine<G>, Error> {
        self.player.engine_mut().ok_or_else(|| {
            Error::Unsupported(format!(
                "engine {}: only the exact solver (engine best) solves",
                self.settings.level
            ))
        })
    }

    fn set_limits(&mut self, limits: Limits) {
        if let Ok(engine) = self.engine() {
            engine.set_limits(limits);
        }
    }

    /// Solves under the limits already set.
    fn solve_line(&mut self, line: &GameLine<G>, ask: &Ask) -> Solution {
        let exact = self.exact;
        let Ok(engine) = self.engine() else {
            return Solution {
                score: None,
                plies: None,
                best_moves: None,
                pv: None,
                exact: false,
                stopped: Some("no exact solver".into()),
                nodes: 0,
                seconds: 0.0,
            };
        };
        let report = if ask.pv {
            engine.solve_detailed(line)
        } else if ask.best_moves {
            engine.solve_moves(line)
        } else {
            engine.solve(line)
        };
        solution(line.position(), &report, exact, ask)
    }

    /// A move's value as the fronts give it: with its exact score and the ply the game ends
    /// on where the engine gives exact scores.
    fn move_value(&self, pos: &G, mv: G::Move, value: Valuation) -> MoveValue {
        let weak = self.weak;
        let (score, end) = match (value, G::Kind::max_plies(pos)) {
            (Valuation::Exact(s), Some(max)) if !weak => (Some(s), end_ply(max, pos.ply(), s)),
            _ => (None, None),
        };
        MoveValue {
            mv: pos.format_move(mv),
            value,
            score,
            end_ply: end,
        }
    }
}

/// The moves of a line from `pos`, each written in the position it is played in.
fn format_line<G: Notation>(mut pos: G, line: &[G::Move]) -> Vec<String> {
    line.iter()
        .map(|&m| {
            let text = pos.format_move(m);
            pos = pos.play(m);
            text
        })
        .collect()
}

/// A report as the fronts give it.
fn solution<G: Notation>(pos: &G, report: &Report<G::Move>, exact: bool, ask: &Ask) -> Solution {
    Solution {
        score: report.score,
        plies: report.plies,
        best_moves: (ask.best_moves || ask.pv).then(|| {
            report
                .best_moves
                .iter()
                .map(|&m| pos.format_move(m))
                .collect()
        }),
        pv: ask.pv.then(|| format_line(*pos, &report.pv)),
        exact: exact && report.score.is_some(),
        stopped: report.stopped.map(|s| s.to_string()),
        nodes: report.nodes,
        seconds: report.elapsed.as_secs_f64(),
    }
}

impl<G: Playable> Solver for SolverOf<G> {
    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn is_weak(&self) -> bool {
        self.weak
    }

    fn solve(&mut self, pos: &dyn Position, ask: &Ask) -> Result<Solution, Error> {
        let line = to_solve(&typed(pos, &self.start)?.line);
        self.engine()?;
        self.set_limits(ask.limits.clone());
        Ok(self.solve_line(&line, ask))
    }

    fn analyze(&mut self, pos: &dyn Position, limits: &Limits) -> Result<PositionAnalysis, Error> {
        if let Some(over) = pos.over() {
            return Err(over);
        }
        // The whole line: a winning strategy answers only where its side's moves were its own.
        let game = typed(pos, &self.start)?.line.clone();
        let at = *game.position();
        let analysis = self.player.analyse(&game, limits);
        Ok(PositionAnalysis {
            moves: analysis
                .moves
                .iter()
                .map(|&(m, v)| self.move_value(&at, m, v))
                .collect(),
            pv: format_line(at, &analysis.pv),
            source: analysis.source,
            weak: self.weak,
        })
    }

    fn analyze_move(
        &mut self,
        pos: &dyn Position,
        mv: &str,
        limits: &Limits,
    ) -> Result<MoveAnalysis, Error> {
        if let Some(over) = pos.over() {
            return Err(over);
        }
        let game = typed(pos, &self.start)?.line.clone();
        let at = *game.position();
        let parsed = at
            .parse_move(mv.trim())
            .map_err(|e| Error::Input(format!("move '{mv}': {e}")))?;
        let mut legal = MoveList::new();
        at.legal_moves(&mut legal);
        if !legal.contains(&parsed) {
            return Err(Error::Input(format!("move '{mv}': not legal here")));
        }
        let valued = self.player.analyse_move(&game, parsed, limits);
        let value = valued.moves.first().map_or(Valuation::Unknown, |m| m.1);
        Ok(MoveAnalysis {
            value: self.move_value(&at, parsed, value),
            line: format_line(at, &valued.pv),
            weak: self.weak,
        })
    }

    fn best_move(&mut self, pos: &dyn Position, limits: &Limits) -> Result<EngineMove, Error> {
        if let Some(over) = pos.over() {
            return Err(over);
        }
        let line = typed(pos, &self.start)?;
        let game = &line.line;
        let at = *game.position();
        let (mv, value) = self
            .player
            .choose_within(game, limits)
            .ok_or_else(|| Error::Search("the engine found no move".into()))?;
        Ok(EngineMove {
            mv: at.format_move(mv),
            moves: line.text_of(&line.line.played(mv)),
            value,
        })
    }

    fn reseed(&mut self, seed: u64) {
        self.player.reseed(seed);
    }

    fn memory_needed(&self, pos: &dyn Position, bytes: u64) -> (Option<u64>, Option<u32>) {
        let (Ok(line), Some(engine)) = (typed(pos, &self.start), self.player.engine()) else {
            return (None, None);
        };
        (
            engine.bytes_needed(line.line.position()),
            engine.fits_from(bytes),
        )
    }

    fn bench(
        &mut self,
        name: &str,
        text: &str,
    ) -> Result<(crate::engine::bench::Tally, Vec<String>), Error> {
        let start = self.start;
        let engine = self.engine()?;
        Ok(crate::engine::bench::bench_text(
            start,
            engine,
            name,
            text,
            None,
            || {},
        ))
    }

    fn set_limits(&mut self, limits: Limits) {
        SolverOf::set_limits(self, limits);
    }

    fn reset(&mut self) {
        if let Ok(engine) = self.engine() {
            engine.reset();
        }
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
