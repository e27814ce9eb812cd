//! The command line: parses and validates flags into plain values, then calls the library: the
//! session (`inarow::session`) for a game, its positions and every search, the wire format
//! (`inarow::wire`) for `--json`, the drawer (`inarow::draw`), the rules (`inarow::game`) for
//! their plain types, and of the engine only its knowledge files, Victor's rules' audit and
//! Pentago's midgame solver, which the benchmarks time; the server crate only to start it
//! (`serve`). tests/suite/layout.rs keeps it to these. Nothing below this module knows about
//! flags.
//!
//! One file per command; [`args`] holds the flags several commands share, [`io`] what they
//! share to read and print (positions, progress, exit codes, Ctrl-C).

mod analyze;
mod args;
mod bench;
mod book;
mod count;
mod draw;
mod games;
mod generate;
pub(crate) mod io;
mod matches;
mod play;
mod positions;
#[cfg(feature = "report")]
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
    about = "Solve, analyze and play k-in-a-row games"
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
    /// A web page to play and analyze every game, with its JSON API (`/api/...`).
    Serve(server::ServeArgs),
    /// Every game spec, and how its moves are written.
    Games(games::GamesArgs),
    /// A position as an SVG picture on standard output (`--values`: each move's value on it).
    Draw(draw::DrawArgs),
    /// Runs the benchmarks behind docs/results.md, draws its plots (SVG) and rewrites its
    /// generated blocks.
    #[cfg(feature = "report")]
    Report(report::ReportArgs),
}

pub fn run() -> Result<Outcome, String> {
    let cli = Cli::try_parse().unwrap_or_else(|error| usage_error(error));
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
        Command::Draw(args) => draw::run(args),
        #[cfg(feature = "report")]
        Command::Report(args) => report::run(args),
    }
}

/// Ends the command on a command-line error: help and the version as clap prints them, anything
/// else as one line `inarow: ...` (clap's message, its suggestions and the help to read), exit 2.
fn usage_error(error: clap::Error) -> ! {
    use clap::error::ErrorKind;
    if matches!(
        error.kind(),
        ErrorKind::DisplayHelp
            | ErrorKind::DisplayVersion
            | ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        error.exit();
    }
    let command = command_named(std::env::args().skip(1));
    eprintln!(
        "inarow: {}; see '{command} --help'",
        one_line(&error.render().to_string())
    );
    std::process::exit(error.exit_code());
}

/// clap's several-line message (`error: ...`, `tip: ...`, usage, `For more information ...`) as
/// one line: the error and its tips.
fn one_line(rendered: &str) -> String {
    let mut message = String::new();
    for line in rendered.lines().map(str::trim) {
        if let Some(error) = line.strip_prefix("error: ") {
            message.push_str(error);
        } else if let Some(tip) = line.strip_prefix("tip: ") {
            message.push_str(&format!(" ({tip})"));
        }
    }
    message
}

/// The (sub)command the arguments name, as its help is asked for: `inarow`, `inarow solve`,
/// `inarow book build`.
fn command_named(args: impl Iterator<Item = String>) -> String {
    use clap::CommandFactory;
    let mut command = Cli::command();
    let mut name = "inarow".to_string();
    for arg in args {
        let Some(sub) = command.find_subcommand(&arg).cloned() else {
            if arg.starts_with('-') {
                continue;
            }
            break;
        };
        name = format!("{name} {arg}");
        command = sub;
    }
    name
}

/// Runs `f` on this process's ranks: MPI's when built with the feature and started by an MPI
/// launcher (MPI is finalised after `f`), else one process alone.
pub(crate) fn with_ranks<T>(
    f: impl FnOnce(&dyn inarow::engine::knowledge::database::Ranks) -> T,
) -> T {
    #[cfg(feature = "mpi")]
    if let Some(mpi) = inarow::engine::distributed::mpi::Mpi::init() {
        return f(&mpi);
    }
    f(&inarow::engine::knowledge::database::Solo)
}
