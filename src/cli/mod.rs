//! The command line: parses and validates flags into plain values, then calls the engine. It
//! imports nothing but `inarow::engine` (the facade) and `inarow::game` (the rules and the
//! notation); nothing below this module knows about flags.

mod analyze;
mod bench;
mod book;
mod count;
mod generate;
mod matches;
mod play;
mod retro;
mod server;
mod solve;
mod table;
mod verify;

use clap::{Args, Parser, Subcommand};
use inarow::engine::book::Book;
use inarow::engine::{
    Algorithm, Config, Driver, Engine, Handicap, Limits, Options, Scheme, ThreatBudget,
    retro as database,
};
use inarow::game::{AnyGame, GameSpec, MoveError, Notation, Tactics, path_keys, read_position};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Parser)]
#[command(
    name = "inarow",
    version,
    about = "Solve, analyse and play k-in-a-row games"
)]
pub struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Solve positions: prints `MOVES SCORE` per position.
    Solve(solve::SolveArgs),
    /// The exact score of every legal move of a position, best first.
    Analyze(analyze::AnalyzeArgs),
    /// Solve benchmark files of `MOVES EXPECTED` lines and compare, or run a built-in suite.
    Bench(bench::BenchArgs),
    /// Play in the terminal against the solver, or two humans.
    Play(play::PlayArgs),
    /// Check a proof certificate (written by `solve --proof`) with nothing but the rules.
    Verify(verify::VerifyArgs),
    /// The exact number of legal positions, per number of discs; the last line is `total N`.
    Count(count::CountArgs),
    /// Random reasonable positions with their values, as benchmark lines (`MOVES RESULT`).
    Gen(generate::GenArgs),
    /// Opening books: `book build` solves every position up to a depth.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Strong solutions by retrograde analysis: `retro build`, `retro query`.
    #[command(subcommand)]
    Retro(retro::RetroCommand),
    /// Solve the empty board of every size in turn: the size table.
    Table(table::TableArgs),
    /// Two engines play each other: wins, draws, losses and the Elo difference.
    #[command(name = "match")]
    Match(matches::MatchArgs),
    /// A web page to play and analyse every game, with its JSON API (`/api/...`).
    Serve(server::ServeArgs),
}

/// The game, for every command that plays one.
#[derive(Args, Clone, Debug)]
pub struct GameArg {
    /// Game: connect4 (7x6, k=4), connect4:WxH, connect4:WxH:kK, popout (7x6), popout:WxH, cube
    /// (Connect Four 3D), qubic or pentago.
    #[arg(long, short, default_value = "connect4")]
    game: String,
}

impl GameArg {
    /// The start position (a bad spec is one line naming it, not a usage screen).
    fn start(&self) -> Result<AnyGame, String> {
        Ok(self.game.parse::<GameSpec>()?.start())
    }
}

/// Limits on each search.
#[derive(Args, Clone, Debug, Default)]
pub struct LimitArgs {
    /// Stop each search after this many seconds (`analyze`: one limit for all its moves).
    #[arg(long)]
    time: Option<f64>,
    /// Stop each search after this many nodes (`analyze`: one limit for all its moves;
    /// proof-number searches count the positions they expand).
    #[arg(long)]
    nodes: Option<u64>,
}

impl LimitArgs {
    fn limits(&self) -> Result<Limits, String> {
        Ok(Limits {
            time: seconds("--time", self.time)?,
            nodes: self.nodes,
            ..Limits::default()
        })
    }
}

/// A positive number of seconds, checked.
fn seconds(flag: &str, value: Option<f64>) -> Result<Option<Duration>, String> {
    match value {
        Some(t) if !(t.is_finite() && t > 0.0) => {
            Err(format!("{flag} {t}: must be a positive number of seconds"))
        }
        t => Ok(t.map(Duration::from_secs_f64)),
    }
}

/// Answers from a book or a strong solution, before any search.
#[derive(Args, Clone, Debug, Default)]
pub struct KnowledgeArgs {
    /// Answer positions from this opening book (`inarow book build`), or `builtin`: the book
    /// that ships for the game (Connect Four 7x6, 4 plies), which `analyze`, `play`, `match`
    /// and `serve` use by default; alpha-beta only.
    #[arg(long, value_name = "FILE")]
    book: Option<String>,
    /// No book, not even the built-in one.
    #[arg(long, conflicts_with = "book")]
    no_book: bool,
    /// Answer positions from this strong solution (`inarow retro build`) before searching. In
    /// games that repeat it gives the value of the position itself: earlier positions of the
    /// move string do not count as repetitions.
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
}

impl KnowledgeArgs {
    /// The engine for `start`'s game, with the book and the database if they were given, and
    /// with the game's built-in book if `builtin` and no other was asked for.
    fn engine<G: Tactics>(
        &self,
        start: &G,
        options: Options,
        builtin: bool,
    ) -> Result<Engine<G>, String> {
        let mut engine = Engine::try_new(start, options)?;
        match self.book.as_deref() {
            Some("builtin") => {
                let book = Book::builtin(&start.name()).ok_or_else(|| {
                    format!(
                        "--book builtin: there is no built-in book for {} (only for connect4)",
                        start.name()
                    )
                })?;
                engine.set_book(start, book)?;
            }
            Some(path) => {
                let book = Book::load(Path::new(path), &start.name())?;
                engine.set_book(start, Arc::new(book))?;
            }
            None if builtin && !self.no_book => {
                engine.use_builtin_book(start);
            }
            None => {}
        }
        if let Some(path) = &self.db {
            engine.set_database(database::open(Path::new(path), start)?);
        }
        Ok(engine)
    }
}

/// The solver's method and techniques: for `solve`, `analyze`, `bench` and `table`.
#[derive(Args, Clone, Debug)]
pub struct SolverArgs {
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    limits: LimitArgs,
    #[command(flatten)]
    knowledge: KnowledgeArgs,
    /// Only win / draw / loss (1 / 0 / -1), not the exact score.
    #[arg(long)]
    weak: bool,
    /// Also the number of plies to the end of the game under perfect play, for a win or a loss
    /// (`plies=N`). In games that repeat, found after the value by a second search.
    #[arg(long)]
    distance: bool,
    /// Algorithm (default: the game's fastest exact method: gallop for connect4 and cube, dfpn
    /// for popout and qubic). Alpha-beta with its root driver: gallop (from the extremes, then
    /// outward from 0, then bisection), bisect, mtdf, deepening or ab (one full window); a
    /// proof-number search, which gives win / draw / loss only: pns, pn2 or dfpn; minimax, the
    /// exhaustive reference; or tss, threat-space search alone (a win by threats, or `?`).
    #[arg(long)]
    algo: Option<String>,
    /// Memory budget of the proof-number searches, in MiB.
    #[arg(long, default_value_t = 1024)]
    mem_mb: usize,
    /// Start PNS / PN² leaves at 1 / 1 instead of from the number of moves that do not lose at
    /// once (df-pn always uses that number).
    #[arg(long)]
    no_pn_heuristic: bool,
    /// Transposition table size in MiB (0 = none).
    #[arg(long, default_value_t = 64)]
    tt_mb: usize,
    /// Table replacement scheme: new, big or twobig.
    #[arg(long, default_value = "twobig")]
    tt_scheme: Scheme,
    /// Key the table by position only, not by the smallest key over the mirror symmetry.
    #[arg(long)]
    no_symmetry: bool,
    /// Order moves by the game's base order only (centre first), not by threats.
    #[arg(long)]
    no_threat_order: bool,
    /// Do not try the table's best move first.
    #[arg(long)]
    no_tt_move: bool,
    /// Break ordering ties with the history heuristic.
    #[arg(long)]
    history: bool,
    /// No enhanced transposition cutoffs.
    #[arg(long)]
    no_etc: bool,
    /// Threat-space search inside alpha-beta and df-pn: the most threats in a line (0 = off;
    /// default: 6 in alpha-beta, 12 in df-pn). Games without threats pay nothing.
    #[arg(long, value_name = "N")]
    threat_depth: Option<u32>,
    /// Threat-space search inside alpha-beta and df-pn: the most positions one search visits
    /// (default: 200 in alpha-beta, 2000 in df-pn).
    #[arg(long, value_name = "N")]
    threat_nodes: Option<u64>,
    /// Search threads sharing the table (alpha-beta only).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    #[command(flatten)]
    rules: RuleArgs,
    /// Games that repeat: the side to move must win by this ply (counted from the empty board).
    /// A win under a handicap is a win; anything else proves nothing (exit 3).
    #[arg(long, value_name = "PLY")]
    handicap_depth: Option<u32>,
    /// Games that repeat: the side to move may make at most this many pops that do not win at
    /// once.
    #[arg(long, value_name = "N")]
    handicap_pops: Option<u32>,
}

/// The rules a game leaves open.
#[derive(Args, Clone, Debug)]
pub struct RuleArgs {
    /// Games that repeat (PopOut): the occurrence of a position that ends the game as a draw,
    /// 2 (the PopOut thesis) or 3 (the official rule).
    #[arg(long, default_value_t = 2)]
    repetition: u32,
}

impl SolverArgs {
    fn options(&self) -> Result<Options, String> {
        let algorithm = self
            .algo
            .as_deref()
            .map(str::parse::<Algorithm>)
            .transpose()?;
        let driver = self
            .algo
            .as_deref()
            .and_then(|a| a.parse::<Driver>().ok())
            .unwrap_or(Driver::Gallop);
        let threads = threads(self.threads)?;
        if threads > 1 && algorithm.is_some_and(|a| a != Algorithm::AlphaBeta) {
            return Err(format!(
                "--threads {threads}: only the alpha-beta algorithms run on several threads"
            ));
        }
        Ok(Options {
            algorithm,
            mem_mb: self.mem_mb,
            heuristic_init: !self.no_pn_heuristic,
            config: Config {
                driver,
                tt_mb: self.tt_mb,
                scheme: self.tt_scheme,
                symmetry: !self.no_symmetry,
                threat_order: !self.no_threat_order,
                tt_move: !self.no_tt_move,
                history: self.history,
                etc: !self.no_etc,
                threads,
                threat_search: threat_budget(Config::default().threat_search, self),
                ..Config::default()
            },
            dfpn_threats: threat_budget(Some(ThreatBudget::default()), self),
            weak: self.weak,
            distance: self.distance,
            repetition: self.rules.repetition,
            handicap: Handicap {
                max_plies: self.handicap_depth,
                backward_moves: self.handicap_pops,
            },
            limits: self.limits.limits()?,
        })
    }

    /// The engine for `start`'s game; with its built-in book, if `builtin` and not told
    /// otherwise.
    fn engine<G: Tactics>(&self, start: &G, builtin: bool) -> Result<Engine<G>, String> {
        self.knowledge.engine(start, self.options()?, builtin)
    }

    /// `--time`, `--nodes` and Ctrl-C.
    fn limits(&self) -> Result<Limits, String> {
        self.limits.limits()
    }

    /// `--threads`, checked.
    fn thread_count(&self) -> Result<usize, String> {
        threads(self.threads)
    }

    /// The engine of one worker of a job-level search: one thread (the workers are the
    /// threads), no built-in book.
    fn worker_engine<G: Tactics>(&self, start: &G) -> Result<Engine<G>, String> {
        let mut options = self.options()?;
        options.config.threads = 1;
        self.knowledge.engine(start, options, false)
    }
}

/// The default budget with the options' changes (`None`: threat-space search off).
fn threat_budget(default: Option<ThreatBudget>, args: &SolverArgs) -> Option<ThreatBudget> {
    let base = default.unwrap_or_default();
    match args.threat_depth.unwrap_or(base.depth) {
        0 => None,
        depth => Some(ThreatBudget {
            depth,
            nodes: args.threat_nodes.unwrap_or(base.nodes),
        }),
    }
}

/// A thread count, checked.
fn threads(n: usize) -> Result<usize, String> {
    if n == 0 || n > 256 {
        return Err(format!("--threads {n}: must be between 1 and 256"));
    }
    Ok(n)
}

/// Runs `work` with a spinner on standard error (drawn only on a terminal, and only once the
/// work has taken a second): what it is doing, the nodes searched so far and their rate.
pub fn with_progress<T>(label: &str, work: impl FnOnce() -> T) -> T {
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    let done = AtomicBool::new(false);
    std::thread::scope(|scope| {
        scope.spawn(|| {
            let start = Instant::now();
            let first = inarow::engine::nodes_searched();
            let mut bar = None;
            while !done.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(100));
                if start.elapsed() < Duration::from_secs(1) {
                    continue;
                }
                let bar = bar.get_or_insert_with(|| {
                    let template =
                        "{spinner} {msg}: {human_pos} nodes, {per_sec:0} {elapsed_precise}";
                    let bar = ProgressBar::new_spinner().with_message(label.to_string());
                    bar.set_style(
                        ProgressStyle::with_template(template).expect("template is valid"),
                    );
                    bar
                });
                bar.set_position(inarow::engine::nodes_searched() - first);
                bar.tick();
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        let result = work();
        done.store(true, Ordering::Relaxed);
        result
    })
}

/// A progress bar on standard error (drawn only on a terminal).
pub fn progress_bar(len: usize, name: &str) -> ProgressBar {
    let bar = ProgressBar::new(len as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {elapsed_precise} eta {eta}")
            .expect("template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(name.to_string());
    bar
}

/// A position read from a move string.
pub(crate) struct Position<G: Notation> {
    /// Where the moves start: the game's start, or a board given whole (Pentago's grids and
    /// names).
    pub root: G,
    pub pos: G,
    /// The moves from the root.
    pub moves: Vec<G::Move>,
    /// The exact keys of the positions before it (oldest first), which count for the
    /// repetition rule of games that repeat.
    pub history: Vec<u128>,
}

impl<G: Notation> Position<G> {
    /// The moves from the game's start, for what must replay them (certificates): an error
    /// for a board given whole.
    fn moves_from(&self, start: &G) -> Result<&[G::Move], String> {
        if self.root == *start {
            Ok(&self.moves)
        } else {
            Err("a certificate needs the position as moves from the start".to_string())
        }
    }
}

/// A position from the command line or a file: a move string (`-` and the empty string are the
/// empty board), or a whole board where the game has a notation for one.
pub(crate) fn parse_position<G: Notation>(start: G, text: &str) -> Result<Position<G>, MoveError> {
    let text = text.trim();
    let text = if text == "-" { "" } else { text };
    let (root, pos, moves) = read_position(start, text)?;
    let history = path_keys(root, &moves);
    Ok(Position {
        root,
        pos,
        moves,
        history,
    })
}

/// How a position's moves are printed: `-` for the empty board.
pub(crate) fn show_moves(text: &str) -> &str {
    let text = text.trim();
    if text.is_empty() { "-" } else { text }
}

/// Exit codes: 0 done; 1 bad input or a wrong benchmark answer; 3 a limit stopped a search.
pub enum Outcome {
    Done,
    Failed,
    Incomplete,
}

pub fn run() -> Result<Outcome, String> {
    let cli = Cli::parse();
    match cli.command {
        Command::Solve(args) => solve::run(args),
        Command::Analyze(args) => analyze::run(args),
        Command::Bench(args) => bench::run(args),
        Command::Play(args) => play::run(args),
        Command::Verify(args) => verify::run(args),
        Command::Table(args) => table::run(args),
        Command::Book(command) => book::run(command),
        Command::Count(args) => count::run(args),
        Command::Gen(args) => generate::run(args),
        Command::Match(args) => matches::run(args),
        Command::Retro(command) => retro::run(command),
        Command::Serve(args) => server::run(args),
    }
}

/// A flag that Ctrl-C sets (instead of ending the process), so that a long run can save its
/// state and stop: a build between rounds, a search at its next check of the limits.
pub fn interrupt_flag() -> &'static AtomicBool {
    static INTERRUPTED: AtomicBool = AtomicBool::new(false);
    // A second Ctrl-C ends the process at once.
    extern "C" fn on_interrupt(_: libc::c_int) {
        if INTERRUPTED.swap(true, Ordering::Relaxed) {
            // SAFETY: _exit is async-signal-safe.
            unsafe { libc::_exit(130) };
        }
    }
    #[cfg(unix)]
    // SAFETY: the handler only uses an atomic and _exit, which are async-signal-safe.
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as *const () as libc::sighandler_t,
        );
    }
    &INTERRUPTED
}

/// Runs `f` on this process's ranks: MPI's when built with the feature and started by an MPI
/// launcher (MPI is finalised after `f`), else one process alone.
pub(crate) fn with_ranks<T>(f: impl FnOnce(&dyn inarow::engine::retro::Ranks) -> T) -> T {
    #[cfg(feature = "mpi")]
    if let Some(mpi) = inarow::engine::mpi::Mpi::init() {
        return f(&mpi);
    }
    f(&inarow::engine::retro::Solo)
}
