//! The command line: parses and validates flags into plain values, then calls the engine. It
//! imports nothing but `inarow::engine` (the facade) and `inarow::game` (the rules and the
//! notation); nothing below this module knows about flags.
//!
//! One file per command; [`args`] holds the flags several commands share, [`io`] what they
//! share to read and print (positions, progress, exit codes, Ctrl-C).

mod analyze;
mod args;
mod bench;
mod book;
mod count;
mod games;
mod generate;
pub(crate) mod io;
mod matches;
mod play;
mod report;
mod retro;
mod server;
mod solve;
mod table;
mod verify;

use clap::{Parser, Subcommand};
use io::Outcome;

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
    /// The value of every legal move of a position, best first: exact where the search
    /// settles it (without --time or --nodes, every value), estimates marked ~ where a limit
    /// stops it.
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
    /// Every game spec, and how its moves are written.
    Games(games::GamesArgs),
    /// Runs the benchmarks behind docs/results.md, draws its plots (SVG) and rewrites its
    /// generated blocks.
    Report(report::ReportArgs),
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
        Command::Games(args) => games::run(args),
        Command::Report(args) => report::run(args),
    }
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
