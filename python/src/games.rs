//! Every game behind a few object-safe traits, so that the Python classes hold one type whatever
//! the game: [`Rules`] (a game: reads positions, makes solvers, solves batches), [`Line`] (a
//! position as played) and [`Solve`] (a solver with its table). Each is implemented once,
//! generically, for every game the catalog dispatches to ([`rules`]); nothing here knows a game.

use crate::values::{BoardView, MoveValue, Solution, Value};
use inarow::Error;
use inarow::engine::play::{Level, Player, Valuation};
use inarow::engine::{Config, Limits, Options, Report};
use inarow::game::{
    Board, GameLine, GameSpec, Kind, Method, MoveError, Notation, Player as Side, PositionView,
    Repetition, Status, Tactics, read_line, read_position, show_moves,
};
use inarow::with_game;
use std::any::Any;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

/// What the binding needs of a game: its rules, notation and board as data.
pub trait Playable: Tactics + Board {}
impl<G: Tactics + Board> Playable for G {}

/// How a solver is made.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// Win / draw / loss only.
    pub weak: bool,
    /// The transposition table, in MiB.
    pub table_mb: usize,
    /// Search threads sharing the table (alpha-beta only).
    pub threads: usize,
    /// Answer from the game's built-in opening book.
    pub book: bool,
}

/// What a solve asks for.
#[derive(Copy, Clone, Debug)]
pub struct Ask {
    pub limits: Limits,
    /// Every move that keeps the value.
    pub best_moves: bool,
    /// A line of perfect play (with the best moves).
    pub pv: bool,
}

/// A game: the start of every position of it.
pub trait Rules: Send + Sync {
    /// The game's spec, as `GameSpec` writes it back (`connect4:7x6:k4`, `popout:7x6`, ...).
    fn name(&self) -> String;
    /// The position a move string (or a board, in a game that has a notation for one) reaches.
    fn read(&self, text: &str) -> Result<Arc<dyn Line>, Error>;
    /// The position reached by these moves, one token each.
    fn read_tokens(&self, tokens: &[String]) -> Result<Arc<dyn Line>, Error>;
    /// A solver of this game.
    fn solver(&self, settings: &Settings) -> Result<Box<dyn Solve>, Error>;
    /// Solves every position, each from a cleared table, on the `solvers` (of this game, made
    /// by [`Rules::solver`]) at once; a set interrupt flag stops what has not started. An error
    /// names the index of the position.
    fn solve_many(
        &self,
        positions: &[Source],
        ask: &Ask,
        solvers: &mut [Box<dyn Solve>],
    ) -> Result<Vec<Option<Solution>>, (usize, Error)>;
}

/// A position given to a batch: a move string, or a position already read.
pub enum Source {
    Text(String),
    Line(Arc<dyn Line>),
}

/// A position as played: where it started, the moves, and the positions passed.
pub trait Line: Send + Sync {
    fn as_any(&self) -> &dyn Any;
    /// The move string from the start of the line.
    fn moves(&self) -> String;
    /// The moves from the start of the line, one token each.
    fn move_list(&self) -> Vec<String>;
    /// The board the line started from, as given, if it did not start at the game's start.
    fn origin(&self) -> Option<&str>;
    /// Moves played since the game's start (for a board given whole, as counted from it).
    fn ply(&self) -> u32;
    fn to_move(&self) -> Side;
    /// The status, with a repetition's draw in games that repeat.
    fn status(&self) -> Status;
    /// The legal moves, none once the game is over.
    fn legal_moves(&self) -> Vec<String>;
    /// The line with one more move.
    fn play(&self, token: &str) -> Result<Arc<dyn Line>, Error>;
    /// The position as data.
    fn view(&self) -> BoardView;
    /// The board drawn for a terminal.
    fn render(&self) -> String;
    /// A key unique among the game's positions (board and side to move).
    fn key(&self) -> u128;
}

/// A solver with its table, and the playing engine around it (one table for both).
pub trait Solve: Send {
    /// The value of a position of this solver's game.
    fn solve(&mut self, line: &dyn Line, ask: &Ask) -> Result<Solution, Error>;
    /// Every move with its value, best first: exact where the solver settles it, else the
    /// evaluation search's estimate.
    fn analyze(&mut self, line: &dyn Line, limits: Limits) -> Result<Vec<MoveValue>, Error>;
    /// The engine's move and what it is worth.
    fn best_move(&mut self, line: &dyn Line, limits: Limits) -> Result<MoveValue, Error>;
    /// Forgets what the table holds.
    fn reset(&mut self);
    /// The solver as its concrete type, for its game's own code.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// The game a spec names.
pub fn rules(spec: &str) -> Result<Arc<dyn Rules>, Error> {
    let spec: GameSpec = spec.parse()?;
    Ok(with_game!(spec.start(), start => Arc::new(Typed { start }) as Arc<dyn Rules>))
}

/// A game, by its start position.
struct Typed<G> {
    start: G,
}

/// A position of a game, as played.
struct LineOf<G: Playable> {
    start: G,
    line: GameLine<G>,
    /// The board the line started from, as given.
    origin: Option<String>,
}

impl<G: Playable> LineOf<G> {
    fn read(start: G, text: &str) -> Result<Self, MoveError> {
        let line = read_line(start, text)?;
        let origin = (*line.start() != start).then(|| text.trim().to_string());
        Ok(LineOf {
            start,
            line,
            origin,
        })
    }

    fn status(&self) -> Status {
        self.line.status(Repetition::default())
    }

    /// `line` with `token` played, or the message the command line gives for the move string
    /// that ends with it.
    fn played(&self, token: &str) -> Result<LineOf<G>, Error> {
        let pos = *self.line.position();
        let fail = |reason: String| {
            let mut tokens = self.move_list();
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
            line: self.line.played(mv),
            origin: self.origin.clone(),
        })
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

/// The line of a position of this game, to solve.
fn downcast<G: Playable>(line: &dyn Line, start: &G) -> Result<GameLine<G>, Error> {
    match line.as_any().downcast_ref::<LineOf<G>>() {
        Some(l) if l.start == *start => Ok(to_solve(&l.line)),
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

    fn read(&self, text: &str) -> Result<Arc<dyn Line>, Error> {
        Ok(Arc::new(LineOf::read(self.start, text)?))
    }

    fn read_tokens(&self, tokens: &[String]) -> Result<Arc<dyn Line>, Error> {
        let mut line = LineOf {
            start: self.start,
            line: GameLine::new(self.start),
            origin: None,
        };
        for token in tokens {
            line = line.played(token)?;
        }
        Ok(Arc::new(line))
    }

    fn solver(&self, settings: &Settings) -> Result<Box<dyn Solve>, Error> {
        Ok(Box::new(SolverOf::new(self.start, settings)?))
    }

    fn solve_many(
        &self,
        positions: &[Source],
        ask: &Ask,
        solvers: &mut [Box<dyn Solve>],
    ) -> Result<Vec<Option<Solution>>, (usize, Error)> {
        let lines = positions
            .iter()
            .enumerate()
            .map(|(i, source)| match source {
                Source::Text(text) => read_to_solve(self.start, text).map_err(|e| (i, e.into())),
                Source::Line(line) => downcast(line.as_ref(), &self.start).map_err(|e| (i, e)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut solvers = solvers
            .iter_mut()
            .take(lines.len().max(1))
            .map(|s| {
                s.as_any_mut()
                    .downcast_mut::<SolverOf<G>>()
                    .filter(|s| s.start == self.start)
                    .expect("the solvers are of this game")
            })
            .collect::<Vec<_>>();
        let next = AtomicUsize::new(0);
        let solve_share = |solver: &mut SolverOf<G>| {
            let mut solved = Vec::new();
            solver.set_limits(ask.limits);
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
            solver.set_limits(ask.limits);
            for (line, result) in lines.iter().zip(&mut results) {
                if ask.limits.is_interrupted() {
                    break;
                }
                solver.reset();
                *result = Some(solver.solve_line(line, ask));
            }
        } else {
            let share = &solve_share;
            std::thread::scope(|scope| {
                let handles: Vec<_> = solvers
                    .iter_mut()
                    .map(|solver| scope.spawn(move || share(solver)))
                    .collect();
                for handle in handles {
                    for (i, s) in handle.join().expect("a solving thread does not panic") {
                        results[i] = Some(s);
                    }
                }
            });
        }
        Ok(results)
    }
}

impl<G: Playable> Line for LineOf<G> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn moves(&self) -> String {
        self.line.move_string()
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

    fn to_move(&self) -> Side {
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
        let mut moves = inarow::game::MoveList::new();
        pos.legal_moves(&mut moves);
        moves.sort_by_key(|&m| pos.move_code(m));
        moves.iter().map(|&m| pos.format_move(m)).collect()
    }

    fn play(&self, token: &str) -> Result<Arc<dyn Line>, Error> {
        Ok(Arc::new(self.played(token)?))
    }

    fn view(&self) -> BoardView {
        let pos = self.line.position();
        let mut view = PositionView::of(pos);
        if self.status() != Status::Ongoing {
            view.moves.clear();
        }
        view.moves.sort_by_key(|m| pos.move_code(m.mv));
        BoardView::new(&view)
    }

    fn render(&self) -> String {
        self.line.position().render()
    }

    fn key(&self) -> u128 {
        self.line.position().key()
    }
}

/// The solver of one game: the playing engine at its strongest level, whose exact solver
/// answers values.
struct SolverOf<G: Playable> {
    start: G,
    player: Player<G>,
    /// Whether its scores are exact (not only win / draw / loss).
    exact: bool,
}

impl<G: Playable> SolverOf<G> {
    fn new(start: G, settings: &Settings) -> Result<Self, Error> {
        // The distance to the end comes free with an exact score of a bounded game; elsewhere
        // it would take another search (or change the method), so it is not asked for.
        let exact_method =
            !G::WEAK_BY_DEFAULT && !G::Kind::REPEATS && G::METHOD == Method::AlphaBeta;
        let options = Options {
            weak: settings.weak,
            distance: exact_method && !settings.weak,
            config: Config {
                tt_mb: settings.table_mb,
                threads: settings.threads,
                ..Config::default()
            },
            ..Options::default()
        };
        let mut engine = inarow::engine::Engine::try_new(&start, options.clone())?;
        // A solver is reused: its table is touched once now, not inside its first searches.
        engine.ready();
        if settings.book {
            engine.use_builtin_book(&start);
        }
        let exact = !engine.is_weak() && !engine.method().is_weak_only();
        Ok(SolverOf {
            start,
            player: Player::with_engine(engine, &options, 1)?,
            exact,
        })
    }

    fn engine(&mut self) -> &mut inarow::engine::Engine<G> {
        debug_assert_eq!(self.player.level(), Level::Best);
        self.player
            .engine_mut()
            .expect("the solver's player is of level best")
    }

    fn set_limits(&mut self, limits: Limits) {
        self.engine().set_limits(limits);
    }

    fn reset(&mut self) {
        self.engine().reset();
    }

    /// Solves under the limits already set.
    fn solve_line(&mut self, line: &GameLine<G>, ask: &Ask) -> Solution {
        let exact = self.exact;
        let engine = self.engine();
        let report = if ask.pv {
            engine.solve_detailed(line)
        } else if ask.best_moves {
            engine.solve_moves(line)
        } else {
            engine.solve(line)
        };
        solution(line.position(), &report, exact, ask)
    }
}

/// A report as the binding gives it.
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
        pv: ask.pv.then(|| {
            let mut at = *pos;
            report
                .pv
                .iter()
                .map(|&m| {
                    let text = at.format_move(m);
                    at = at.play(m);
                    text
                })
                .collect()
        }),
        exact: exact && report.score.is_some(),
        stopped: report.stopped.map(|s| s.to_string()),
        nodes: report.nodes,
        seconds: report.elapsed.as_secs_f64(),
    }
}

fn valuation(v: Valuation) -> Value {
    match v {
        Valuation::Exact(v) => Value::Exact(v),
        Valuation::Proven(v) => Value::Proven(v),
        Valuation::Heuristic(v) => Value::Heuristic(v),
        Valuation::WinRate(r) => Value::WinRate(r),
        Valuation::Unknown => Value::Unknown,
    }
}

/// The command line's refusal to analyse a finished game.
fn over(line: &dyn Line) -> Error {
    Error::Input(format!(
        "{}: the game is over; no moves to analyse",
        show_moves(line.origin().unwrap_or(&line.moves()))
    ))
}

impl<G: Playable> Solve for SolverOf<G> {
    fn solve(&mut self, line: &dyn Line, ask: &Ask) -> Result<Solution, Error> {
        let line = downcast(line, &self.start)?;
        self.set_limits(ask.limits);
        Ok(self.solve_line(&line, ask))
    }

    fn analyze(&mut self, line: &dyn Line, limits: Limits) -> Result<Vec<MoveValue>, Error> {
        if line.status() != Status::Ongoing {
            return Err(over(line));
        }
        let game = downcast(line, &self.start)?;
        let pos = *game.position();
        let analysis = self.player.analyse(&game, limits);
        Ok(analysis
            .moves
            .iter()
            .map(|&(m, v)| MoveValue::new(pos.format_move(m), valuation(v)))
            .collect())
    }

    fn best_move(&mut self, line: &dyn Line, limits: Limits) -> Result<MoveValue, Error> {
        if line.status() != Status::Ongoing {
            return Err(over(line));
        }
        let game = downcast(line, &self.start)?;
        let pos = *game.position();
        let (mv, value) = self
            .player
            .choose_within(&game, limits)
            .ok_or_else(|| Error::Search("the engine found no move".into()))?;
        Ok(MoveValue::new(pos.format_move(mv), valuation(value)))
    }

    fn reset(&mut self) {
        SolverOf::reset(self);
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}
