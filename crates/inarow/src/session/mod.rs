//! One session for every front: a game named by its spec, positions read from move strings,
//! and engines that solve, analyze and play them, all behind three object-safe traits, so that
//! the command line, the server, Python and WebAssembly hold one type whatever the game.
//!
//! [`game`] reads a spec into a [`Game`]; [`Game::read`] a move string (or a board) into a
//! [`Line`], the line of play that reached a position; an [`Agent`] (made by [`Game::agent`],
//! or taken warm from a [`Session`]) solves, analyzes and plays, and answers with plain data: a [`Solution`], a [`PositionAnalysis`], an [`EngineMove`]. The
//! erasure of the game's type happens here once, with the [`crate::with_game`] dispatch;
//! nothing here names a game.
//!
//! ```
//! use inarow::session::{Session, Settings, game};
//! use inarow::limits::Limits;
//!
//! let game = game("connect4:5x4")?;
//! let pos = game.read("33")?;
//! let session = Session::new(2, 1);
//! let analysis = session.with_agent(game.as_ref(), &Settings::default(), |agent| {
//!     agent.analyze(pos.as_ref(), &Limits::default())
//! })??;
//! assert_eq!(analysis.moves.len(), 5);
//! assert!(analysis.moves.iter().all(|m| m.value.is_exact()));
//! # Ok::<(), inarow::Error>(())
//! ```
//!
//! Here: the traits and the settings; the plain answers are `answers`, the typed game and
//! line behind [`Game`] and [`Line`] are `typed` (`GameOf`, `LineOf`), the agent behind
//! [`Agent`] is `agent` (`AgentOf`), and the warm solvers kept between requests are the [`Session`] (`pool`).

mod agent;
mod answers;
mod bench;
mod matches;
mod pool;
mod typed;

pub use crate::certificate::{MAGIC as CERTIFICATE_MAGIC, VerifySummary};
use crate::engine::agent::TypedAgent;
pub use crate::engine::agent::Valuation;
pub use crate::engine::distributed::journal::Journal;
pub use crate::engine::distributed::workers::{JobReport, release as release_workers};
pub use crate::engine::knowledge::book::BuildStats as BookStats;
pub use crate::engine::knowledge::database::{
    BuildOptions as DatabaseOptions, BuildReport as DatabaseReport, Ranks,
};
pub use crate::engine::knowledge::strategy::Strategy;
pub use crate::engine::knowledge::strategy::WalkStats;
use crate::engine::knowledge::{book::Book, book_check, database};
/// The types of [`Settings`]' fields, so that a front names them from here.
pub use crate::engine::{Algorithm, Driver, agent::Level};
pub use crate::engine::{Census, Checkpoint, Handicap, Progress, Scheme, ThreatBudget};
use crate::engine::{Config, Engine, Options, Report};
use crate::error::Error;
pub use crate::game::CountByFormula;
use crate::game::view::{MoveView, PositionView};
use crate::game::{
    Board, GameLine, GameSpec, Kind, MoveError, MoveList, Notation, Player, Repetition, Status,
    Tactics, read_line, read_position,
};
use crate::limits::Limits;
/// The seeded generator behind every random choice the library makes, for fronts that draw
/// positions or moves of their own reproducibly.
pub use crate::search::rng::SplitMix;
use crate::search::score::end_ply;
use crate::with_game;
use agent::AgentOf;
pub use answers::{Ask, EngineMove, MoveAnalysis, MoveValue, PositionAnalysis, Solution};
pub use bench::{Tally, bench};
pub use matches::{GameResult, Record, play_game};
pub use pool::Session;
use std::any::Any;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use typed::{GameOf, line_of, to_solve};

/// What a front needs of a game: its rules, notation and board as data.
pub trait Playable: Tactics + Board {}
impl<G: Tactics + Board> Playable for G {}

/// How a solver is made, completely: its level, its knowledge (book, database), its method and
/// the method's techniques, its tables and threads. Two solvers of equal settings are
/// interchangeable, so a [`Session`] hands a warm one to whoever asks with the same settings.
/// The repetition rule is the game's ([`game_under`]), not the solver's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How it plays; [`Level::Best`] (the default) is the exact solver first.
    pub level: Level,
    /// Win / draw / loss only.
    pub weak: bool,
    /// Also the number of plies to the end where it costs a second search (games whose
    /// positions repeat); where an exact score carries it, it comes anyway.
    pub distance: bool,
    /// The transposition table, in MiB.
    pub table_mb: usize,
    /// The memory budget of the proof-number searches and of the heuristic search, in MiB.
    pub memory_mb: usize,
    /// Search threads sharing the table (alpha-beta only; one in games whose positions repeat).
    pub threads: usize,
    /// The opening book answered from before any search (alpha-beta's scores: with another
    /// method, only a book from a file is used).
    pub book: BookSource,
    /// A strong solution (`inarow retro build`'s file) answered from before any search.
    pub database: Option<PathBuf>,
    /// The exact method (`None`: the game's fastest) and alpha-beta's root driver.
    pub algorithm: Option<Algorithm>,
    /// Alpha-beta's root driver.
    pub driver: Driver,
    /// The exact searches' techniques.
    pub techniques: Techniques,
}

impl Default for Settings {
    fn default() -> Settings {
        let options = Options::default();
        Settings {
            level: Level::Best,
            weak: false,
            distance: false,
            table_mb: options.config.tt_mb,
            memory_mb: options.mem_mb,
            threads: 1,
            book: BookSource::Builtin,
            database: None,
            algorithm: None,
            driver: options.config.driver,
            techniques: Techniques::default(),
        }
    }
}

/// What a book's check found ([`Tools::check_book`]); positions as move strings.
#[derive(Clone, Debug)]
pub struct BookCheckSummary {
    /// The game the book is for.
    pub game: String,
    /// Its depth: every position of at most this many plies.
    pub depth: u32,
    /// Its entries.
    pub entries: usize,
    /// Positions to its depth (one per symmetry class, unfinished) looked up.
    pub positions: usize,
    /// Of them, those the book does not hold.
    pub missing: usize,
    /// Positions of fewer plies than the depth compared with the best over their children.
    pub derived: usize,
    /// Of them, those whose entry is not that best.
    pub inconsistent: usize,
    /// The entries solved again: a move string to each, and the book's score (the format of
    /// the public test sets, `-` for the empty board).
    pub sample: Vec<(String, i32)>,
    /// Of them, those whose search found another score.
    pub disagreements: usize,
    /// Nodes of those searches.
    pub nodes: u64,
    /// The first failing positions, each as a move string with what fails.
    pub problems: Vec<(String, String)>,
}

impl BookCheckSummary {
    /// Whether nothing failed.
    pub fn passed(&self) -> bool {
        self.missing == 0 && self.inconsistent == 0 && self.disagreements == 0
    }
}

/// A strategy read from a certificate: whose it is, its size, what was checked and walked.
#[derive(Clone, Debug)]
pub struct StrategyStats {
    /// The side the strategy wins for.
    pub prover: Player,
    /// Positions it holds a move for.
    pub entries: usize,
    /// The certificate's check.
    pub verified: VerifySummary,
    /// The walk of the strategy over the certificate's tree.
    pub walk: WalkStats,
}

/// Where a solver's opening book comes from.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum BookSource {
    /// The book that ships for the game, if there is one ([`Game::has_builtin_book`]).
    #[default]
    Builtin,
    /// No book.
    Off,
    /// A book file (`inarow book build`'s).
    File(PathBuf),
}

/// The exact searches' techniques, each switchable so that they can be compared; the default
/// is the fastest measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Techniques {
    /// How the table chooses which entry of a bucket to replace.
    pub scheme: Scheme,
    /// Key the table by the smallest key over the board's symmetries.
    pub symmetry: bool,
    /// Order moves by threats (else the game's base order, centre first).
    pub threat_order: bool,
    /// Try the table's best move first.
    pub tt_move: bool,
    /// Break ordering ties with the history heuristic.
    pub history: bool,
    /// Enhanced transposition cutoffs.
    pub etc: bool,
    /// Threat-space search inside alpha-beta (`None`: off).
    pub threat_search: Option<ThreatBudget>,
    /// Threat-space search inside df-pn (`None`: off).
    pub dfpn_threats: Option<ThreatBudget>,
    /// Victor's rules at positions with at least this many plies left (`None`: off).
    pub victor_plies: Option<u32>,
    /// Start PNS / PN² leaves from the number of moves that do not lose at once (else 1 / 1).
    pub pn_heuristic: bool,
    /// Games that repeat: restrictions on the side to move that prove wins faster.
    pub handicap: Handicap,
}

impl Default for Techniques {
    fn default() -> Techniques {
        let options = Options::default();
        let config = options.config;
        Techniques {
            scheme: config.scheme,
            symmetry: config.symmetry,
            threat_order: config.threat_order,
            tt_move: config.tt_move,
            history: config.history,
            etc: config.etc,
            threat_search: config.threat_search,
            dfpn_threats: options.dfpn_threats,
            victor_plies: config.victor_plies,
            pn_heuristic: options.heuristic_init,
            handicap: options.handicap,
        }
    }
}

impl Settings {
    /// The engine's options these settings describe, under the game's repetition rule: what the
    /// session's agents and tools build their engines with.
    pub fn engine_options(&self, repetition: Repetition) -> Options {
        let t = &self.techniques;
        Options {
            algorithm: self.algorithm,
            weak: self.weak,
            distance: self.distance,
            mem_mb: self.memory_mb,
            heuristic_init: t.pn_heuristic,
            repetition: repetition.occurrence(),
            handicap: t.handicap,
            dfpn_threats: t.dfpn_threats,
            config: Config {
                driver: self.driver,
                tt_mb: self.table_mb,
                scheme: t.scheme,
                symmetry: t.symmetry,
                threat_order: t.threat_order,
                tt_move: t.tt_move,
                history: t.history,
                etc: t.etc,
                threads: self.threads,
                threat_search: t.threat_search,
                victor_plies: t.victor_plies,
                ..Config::default()
            },
        }
    }

    /// The exact engine these settings describe for `start`'s game, with its book and
    /// database (an agent's exact solver, a tool's engine).
    pub fn engine<G: Tactics>(
        &self,
        start: &G,
        repetition: Repetition,
    ) -> Result<Engine<G>, Error> {
        let mut engine = Engine::try_new(start, self.engine_options(repetition))?;
        match &self.book {
            // Books hold alpha-beta's scores.
            BookSource::Builtin if self.algorithm.is_none_or(|a| a == Algorithm::AlphaBeta) => {
                engine.use_builtin_book(start);
            }
            BookSource::Builtin | BookSource::Off => {}
            BookSource::File(path) => {
                let book = Book::load(path, &start.name())?;
                engine.set_book(start, Arc::new(book))?;
            }
        }
        if let Some(path) = &self.database {
            engine.set_database(database::open(path, start)?);
        }
        Ok(engine)
    }
}

/// A game: the start of every position of it.
pub trait Game: Send + Sync {
    /// The game's spec, as [`GameSpec`] writes it back (`connect4:7x6:k4`, `popout:7x6`, ...).
    fn name(&self) -> String;
    /// The occurrence of a position that draws, in a game whose positions repeat.
    fn repetition(&self) -> Repetition;
    /// How a move is written, for people ("a column 1-7", ...).
    fn describe_moves(&self) -> String;
    /// Whether a book ships for this game ([`BookSource::Builtin`] finds one).
    fn has_builtin_book(&self) -> bool;
    /// Whether a winning strategy ships for this game, in this build ([`BookSource::Builtin`]
    /// reads it too): a proof, which answers the positions on its line.
    fn has_builtin_strategy(&self) -> bool;
    /// The ply by which every game has ended (`None`: a game whose positions repeat).
    fn max_plies(&self) -> Option<u32>;
    /// The position a move string (or a board, in a game that has a notation for one) reaches.
    fn read(&self, text: &str) -> Result<Arc<dyn Line>, Error>;
    /// The position reached by these moves, one token each.
    fn read_tokens(&self, tokens: &[String]) -> Result<Arc<dyn Line>, Error>;
    /// The settings as this game takes them: one thread in a game whose positions repeat (a
    /// front that serves every game with one thread count fits it to each); a solver made with
    /// more is refused.
    fn fitted(&self, settings: Settings) -> Settings;
    /// An agent of this game: its solver and its playing engine, with one table.
    fn agent(&self, settings: &Settings, seed: u64) -> Result<Box<dyn Agent>, Error>;
    /// Moves (one token each) written as one move string of the game.
    fn join_moves(&self, moves: &[String]) -> String;
    /// Solves every position, each from a cleared table, on the `solvers` (of this game, made
    /// by [`Game::agent`]) at once; a cancelled limit stops what has not started. An error
    /// names the index of the position.
    fn solve_many(
        &self,
        positions: &[Source],
        ask: &Ask,
        solvers: &mut [Box<dyn Agent>],
    ) -> Result<Vec<Option<Solution>>, (usize, Error)>;
}

/// What the command line does with a game beyond playing and solving it: counting, books,
/// databases, certificates, job-level search. Apart from [`Game`], so that a front that only
/// plays (WebAssembly) carries none of its code; [`tools`] gives it for a game.
pub trait Tools: Send + Sync {
    /// Builds an opening book of every position to `depth` plies, and past it to `perfect_to`
    /// the positions a perfect player's lines reach, by the exact engine of `settings`, into
    /// `out` (resuming a partial file), the positions at the depth solved by `jobs` such
    /// engines at once; `progress(done, total)` as positions are solved.
    #[allow(clippy::too_many_arguments)]
    fn build_book(
        &self,
        settings: &Settings,
        depth: u32,
        perfect_to: u32,
        out: &Path,
        jobs: usize,
        limits: &Limits,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<BookStats, Error>;
    /// Checks the book at `path` (`None`: the one that ships for the game): every position to
    /// its depth is in it, each of fewer plies holds the best over its children, and `sample`
    /// entries drawn with `seed` give the same score to a search by `settings` (whose book is
    /// not read); `progress(done, total)` follows the sample.
    #[allow(clippy::too_many_arguments)]
    fn check_book(
        &self,
        path: Option<&Path>,
        settings: &Settings,
        sample: usize,
        seed: u64,
        limits: &Limits,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<BookCheckSummary, Error>;
    /// A winning strategy from a proof certificate of the win (checked first), written to
    /// `out`.
    fn strategy_from_certificate(&self, text: &str, out: &Path) -> Result<StrategyStats, Error>;
    /// Checks a proof certificate of this game (`inarow-proof`, one section) with nothing but
    /// the rules.
    fn verify_certificate(&self, text: &str) -> Result<VerifySummary, Error>;
    /// The game's positions counted by a formula, where it has one (Pentago's).
    fn count_by_formula(&self) -> Option<CountByFormula>;
    /// Every legal position counted by enumeration within `mem_bytes`, by number of discs;
    /// `progress(total)` after each layer.
    fn count(&self, mem_bytes: usize, progress: &mut dyn FnMut(u64)) -> Result<Census, Error>;
    /// A checkpoint of `solver`'s table (a solver of this game) in `file`, saved from time to
    /// time by its caller, and whether the table was loaded from it; alpha-beta only.
    fn checkpoint(&self, solver: &mut dyn Agent, file: &Path) -> Result<(Checkpoint, bool), Error>;
    /// A strong solution of the game by retrograde analysis, written to `out` (resuming a
    /// saved state of the same file), the work shared among `ranks`; `progress` as it goes.
    fn build_database(
        &self,
        out: &Path,
        options: &DatabaseOptions,
        progress: &(dyn Fn(Progress) + Sync),
        ranks: &dyn Ranks,
    ) -> Result<DatabaseReport, Error>;
    /// `pos`'s win / draw / loss by job-level search (the tree to `ask.depth` plies kept as a
    /// DAG, its leaves solved as jobs by engines of `settings` on one thread each, on this
    /// rank's threads and the other ranks'), as rank 0 leads it; a game whose positions
    /// repeat is refused (the DAG merges positions reached by different histories).
    fn solve_by_jobs(
        &self,
        settings: &Settings,
        pos: &dyn Line,
        ask: JobAsk<'_>,
    ) -> Result<JobReport, Error>;
    /// Serves rank 0's jobs with engines of `settings` on `threads` threads of this rank
    /// (another rank than 0), until rank 0 says the search is over.
    fn serve_jobs(
        &self,
        settings: &Settings,
        ranks: &dyn Ranks,
        threads: usize,
        limits: &Limits,
        job_nodes: Option<u64>,
    ) -> Result<(), Error>;
    /// Proves `pos`'s value with `solver` (a solver of this game) by df-pn, the position as
    /// moves from the game's start, and gives it with the proof's certificates.
    fn certify(
        &self,
        solver: &mut dyn Agent,
        pos: &dyn Line,
        limits: &Limits,
    ) -> Result<Certificates, Error>;
}

/// What a job-level search ([`Tools::solve_by_jobs`]) is asked.
pub struct JobAsk<'a> {
    /// The search's number among those of one run (each its own on the workers).
    pub serial: u32,
    /// The plies of the tree kept as a DAG above the jobs.
    pub depth: u32,
    /// Workers on this rank.
    pub threads: usize,
    /// The ranks that share the jobs (one: this process).
    pub ranks: &'a dyn Ranks,
    /// The limits of the whole search.
    pub limits: &'a Limits,
    /// The jobs' answers on disk: those it holds are not searched again, and each new one is
    /// added as it comes.
    pub journal: Option<&'a mut Journal>,
    /// Called when the jobs settle a move of the root: the move, and what it does for the
    /// root's side to move (`wins`, `does not win`, `loses`, `does not lose`).
    pub settled: &'a mut dyn FnMut(String, &'static str),
    /// Each job's own node budget (`None`: every job runs to its end or the limits).
    pub job_nodes: Option<u64>,
}

/// The tools of `rules`' game, under its repetition rule.
pub fn tools(rules: &dyn Game) -> Result<Arc<dyn Tools>, Error> {
    let spec: GameSpec = rules.name().parse()?;
    let repetition = rules.repetition();
    Ok(with_game!(spec.start(), start => Arc::new(GameOf { start, repetition }) as Arc<dyn Tools>))
}

/// A position given to a batch: a move string, or a position already read.
pub enum Source {
    /// A move string (or a board).
    Text(String),
    /// A position read before.
    Line(Arc<dyn Line>),
}

/// A position as played: where it started, the moves, and the positions passed.
pub trait Line: Send + Sync {
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
    /// The moves that do not lose within a ply (a forced block is played; nothing under an
    /// opponent's threat), in the order the game generates them; none once the game is over.
    fn safe_moves(&self) -> Vec<String>;
    /// Whether the side to move can win at once.
    fn has_winning_move(&self) -> bool;
    /// The line with one more move.
    fn play(&self, token: &str) -> Result<Arc<dyn Line>, Error>;
    /// The position as data, its moves in the game's order (none once the game is over),
    /// each move as its code ([`Game::move_code`](crate::game::Rules::move_code)).
    fn view(&self) -> PositionView<u16>;
    /// The position as data with its moves in the order the game generates them (as the web
    /// page has always listed them), none once the game is over.
    fn view_in_play_order(&self) -> PositionView<u16>;
    /// The board drawn for a terminal.
    fn render(&self) -> String;
    /// A key unique among the game's positions (board and side to move).
    fn key(&self) -> u128;
    /// The smallest key over the board's symmetries ([`crate::game::Rules::canonical_key`]):
    /// equal for positions that are images of each other, whose values are equal.
    fn canonical_key(&self) -> u128;
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

/// An agent: a solver with its table, and the playing engine around it (one table for both).
/// It solves at level best; at other levels it plays and estimates, and may not solve.
pub trait Agent: Send {
    /// The settings it was made with.
    fn settings(&self) -> &Settings;
    /// Whether its exact values are win / draw / loss only.
    fn is_weak(&self) -> bool;
    /// The value of a position of this solver's game (level best only).
    fn solve(&mut self, pos: &dyn Line, ask: &Ask) -> Result<Solution, Error>;
    /// Every move with its value, best first: exact where the solver settles it, else the
    /// evaluation search's estimate.
    fn analyze(&mut self, pos: &dyn Line, limits: &Limits) -> Result<PositionAnalysis, Error>;
    /// [`Agent::analyze`] without the line of play (`pv` empty): the values alone, for a
    /// caller that shows no line (training data, Python's values), which spares the line's
    /// search past what the book knows.
    fn analyze_values(
        &mut self,
        pos: &dyn Line,
        limits: &Limits,
    ) -> Result<PositionAnalysis, Error>;
    /// One move valued alone, as [`Agent::analyze`] values each within `limits` (its own).
    fn analyze_move(
        &mut self,
        pos: &dyn Line,
        mv: &str,
        limits: &Limits,
    ) -> Result<MoveAnalysis, Error>;
    /// The engine's move and what it is worth. Where the exact value is known in time, the
    /// move is the first, in a random order, that keeps it.
    fn best_move(&mut self, pos: &dyn Line, limits: &Limits) -> Result<EngineMove, Error>;
    /// Starts the random choices of [`Agent::best_move`] anew from `seed` (a perfect move
    /// among equals, the random level's move), for a caller that replays its games.
    fn reseed(&mut self, seed: u64);
    /// The bytes the exact solver needs to answer `pos` (`None`: it needs no more than it
    /// has), and the fewest stones from which its answers fit in `bytes`.
    fn memory_needed(&self, pos: &dyn Line, bytes: u64) -> (Option<u64>, Option<u32>);
    /// Forgets what the table holds.
    fn reset(&mut self);
    /// Touches the memory of its tables now, for a solver that will be reused or timed: no
    /// later search pays for the first touch of their pages. Without it a search touches its
    /// table as it runs, so that a one-off quick answer costs neither the time nor the memory.
    fn ready(&mut self);
    /// The exact solver's method (`None`: a playing level without one).
    fn algorithm(&self) -> Option<Algorithm>;
    /// The search's counters as a table, where the build keeps them (feature `profile`).
    fn profile_table(&self) -> Option<String>;
    /// The solver as its concrete type, for its game's own code.
    fn as_any_mut(&mut self) -> &mut dyn Any;
}

/// A proven value and its certificates ([`Tools::certify`]).
#[derive(Clone, Debug)]
pub struct Certificates {
    /// The value, win / draw / loss (1 / 0 / -1), and what the proof cost.
    pub solution: Solution,
    /// The certificate file's text: one certificate for a win or a loss, two for a draw.
    pub text: String,
}

/// How a front shows a move string: `-` for none (the start).
pub fn show_moves(text: &str) -> &str {
    let text = text.trim();
    if text.is_empty() { "-" } else { text }
}

/// The error of asking for moves in a finished game, given as `given`.
pub fn game_over(given: &str) -> Error {
    Error::Input(format!(
        "{}: the game is over; no moves to analyze",
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
pub fn agent_around<G: Playable>(
    start: G,
    settings: Settings,
    agent: TypedAgent<G>,
) -> Box<dyn Agent> {
    Box::new(AgentOf::around(start, settings, agent))
}

/// The game a spec names (the empty spec: Connect Four 7x6), with the default repetition rule.
pub fn game(spec: &str) -> Result<Arc<dyn Game>, Error> {
    game_under(spec, Repetition::default())
}

/// The game a spec names under a repetition rule (the positions' status and the solvers'
/// searches; it matters only in games whose positions repeat).
pub fn game_under(spec: &str, repetition: Repetition) -> Result<Arc<dyn Game>, Error> {
    let spec = if spec.trim().is_empty() {
        "connect4"
    } else {
        spec
    };
    let spec: GameSpec = spec.parse()?;
    Ok(with_game!(spec.start(), start => Arc::new(GameOf { start, repetition }) as Arc<dyn Game>))
}
