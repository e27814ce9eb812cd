//! The command line: parses and validates flags into plain values, then calls the engine.
//! Nothing below this module knows about flags.

mod analyze;
mod bench;
mod book;
mod count;
mod play;
mod retro;
mod solve;
mod table;
mod verify;

use clap::{Args, Parser, Subcommand};
use inarow::engine::book::Book;
use inarow::engine::retro::Database;
use inarow::engine::{Algorithm, Engine, Options};
use inarow::game::{Game, GameSpec, Indexed, MoveError, play_moves};
use inarow::search::alphabeta::Limits;
use inarow::search::winner::Handicap;
use inarow::search::{Config, Driver, Scheme};
use indicatif::{ProgressBar, ProgressStyle};
use std::path::Path;
use std::sync::Arc;
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
    /// Solve benchmark files of `MOVES EXPECTED` lines and compare.
    Bench(bench::BenchArgs),
    /// Play in the terminal against the solver, or two humans.
    Play(play::PlayArgs),
    /// Check a proof certificate (written by `solve --proof`) with nothing but the rules.
    Verify(verify::VerifyArgs),
    /// The exact number of legal positions, per number of discs; the last line is `total N`.
    Count(count::CountArgs),
    /// Opening books: `book build` solves every position up to a depth.
    #[command(subcommand)]
    Book(book::BookCommand),
    /// Strong solutions by retrograde analysis: `retro build`, `retro query`.
    #[command(subcommand)]
    Retro(retro::RetroCommand),
    /// Solve the empty board of every size in turn: the size table.
    Table(table::TableArgs),
}

/// The game and the solver's settings, shared by every command.
#[derive(Args, Clone, Debug)]
pub struct SolverArgs {
    /// Game: connect4 (7x6, k=4), connect4:WxH, connect4:WxH:kK, popout (7x6), popout:WxH.
    #[arg(long, short, default_value = "connect4")]
    game: String,
    /// Only win / draw / loss (1 / 0 / -1), not the exact score.
    #[arg(long)]
    weak: bool,
    /// Algorithm. Alpha-beta with its root driver: gallop (from the extremes, then bisection),
    /// bisect, mtdf, deepening or ab (one full window); or a proof-number search, which gives
    /// win / draw / loss only: pns, pn2 or dfpn.
    #[arg(long, default_value = "gallop")]
    algo: String,
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
    /// Answer positions from this opening book (`inarow book build`); alpha-beta only.
    #[arg(long, value_name = "FILE")]
    book: Option<String>,
    /// Answer positions from this strong solution (`inarow retro build`) before searching. In
    /// games that repeat it gives the value of the position itself: earlier positions of the
    /// move string do not count as repetitions.
    #[arg(long, value_name = "FILE")]
    db: Option<String>,
    /// Search threads sharing the table (alpha-beta only).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Games that repeat (PopOut): the occurrence of a position that ends the game as a draw,
    /// 2 (the PopOut thesis) or 3 (the official rule).
    #[arg(long, default_value_t = 2)]
    repetition: u32,
    /// Games that repeat: the side to move must win by this ply (counted from the empty board).
    /// A win under a handicap is a win; anything else proves nothing (exit 3).
    #[arg(long, value_name = "PLY")]
    handicap_depth: Option<u32>,
    /// Games that repeat: the side to move may make at most this many pops that do not win at
    /// once.
    #[arg(long, value_name = "N")]
    handicap_pops: Option<u32>,
    /// Stop each search after this many seconds.
    #[arg(long)]
    time: Option<f64>,
    /// Stop each search after this many nodes.
    #[arg(long)]
    nodes: Option<u64>,
}

impl SolverArgs {
    /// The game, checked (a bad spec is one line naming it, not a usage screen).
    fn spec(&self) -> Result<GameSpec, String> {
        self.game.parse()
    }

    /// The engine for `start`'s game, with the book and the database if they were given.
    fn engine<G: Indexed>(&self, start: &G, options: Options) -> Result<Engine<G>, String> {
        let mut engine = Engine::try_new(start, options)?;
        if let Some(path) = &self.book {
            let book = Book::load(Path::new(path), &start.name())?;
            engine.set_book(start, Arc::new(book))?;
        }
        if let Some(path) = &self.db {
            engine.set_database(Arc::new(Database::load(Path::new(path), start)?));
        }
        Ok(engine)
    }

    fn options(&self) -> Result<Options, String> {
        let time = match self.time {
            Some(t) if !(t.is_finite() && t > 0.0) => {
                return Err(format!("--time {t}: must be a positive number of seconds"));
            }
            t => t.map(Duration::from_secs_f64),
        };
        let (algorithm, driver) = match self.algo.parse::<Driver>() {
            Ok(driver) => (Algorithm::AlphaBeta, driver),
            Err(_) => match self.algo.parse::<Algorithm>() {
                Ok(algorithm) => (algorithm, Driver::Gallop),
                Err(_) => {
                    return Err(format!(
                        "unknown algorithm '{}': expected gallop, bisect, mtdf, deepening, ab, \
                         pns, pn2 or dfpn",
                        self.algo
                    ));
                }
            },
        };
        if self.threads == 0 || self.threads > 256 {
            return Err(format!(
                "--threads {}: must be between 1 and 256",
                self.threads
            ));
        }
        if self.threads > 1 && algorithm != Algorithm::AlphaBeta {
            return Err(format!(
                "--threads {}: only the alpha-beta algorithms run on several threads",
                self.threads
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
                threads: self.threads,
                ..Config::default()
            },
            weak: self.weak,
            repetition: self.repetition,
            handicap: Handicap {
                max_plies: self.handicap_depth,
                backward_moves: self.handicap_pops,
            },
            limits: Limits {
                time,
                nodes: self.nodes,
            },
        })
    }
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

/// A move string from the command line or a file (`-` and the empty string are the empty board):
/// the position, and the exact keys of the positions before it (oldest first), which count for
/// the repetition rule of games that repeat (empty for the others).
fn parse_with_history<G: Game>(start: G, text: &str) -> Result<(G, Vec<u128>), MoveError> {
    let text = text.trim();
    let text = if text == "-" { "" } else { text };
    let (pos, moves) = play_moves(start, text)?;
    let mut history = Vec::new();
    if start.may_repeat() {
        let mut at = start;
        for m in moves {
            history.push(at.key());
            at = at.play(m);
        }
    }
    Ok((pos, history))
}

/// How a position's moves are printed: `-` for the empty board.
fn show_moves(text: &str) -> &str {
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
        Command::Retro(command) => retro::run(command),
    }
}
