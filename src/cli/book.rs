//! `inarow book build`: an opening book of every position up to a depth (see
//! `inarow::engine::knowledge::book` for the file format); `inarow book verify`: a book checked
//! against itself and a sample of searches; `inarow book strategy`: a strategy book read
//! out of a winning proof (`inarow::engine::knowledge::strategy`).

use super::args::{GameArg, LimitArgs, threads};
use super::io::{Outcome, ctrl_c, progress_bar};
use clap::{Args, Subcommand};
use inarow::session::{self, BookSource, Settings};
use std::path::Path;

#[derive(Subcommand)]
pub enum BookCommand {
    /// Solve every position up to DEPTH plies (one per mirror pair) and write the book;
    /// resumes an interrupted build of the same book.
    Build(BuildArgs),
    /// Check a book: every position to its depth is in it, each of fewer plies holds the best
    /// of its children's scores, and a random sample of its entries gets the same score from
    /// another search (MTD(f), no book, no symmetry). Exit status 1 on any disagreement.
    Verify(VerifyArgs),
    /// Verify a proof that a player wins from the start (`solve --proof`) and write its
    /// strategy as a book: the proven move at each of the winner's positions.
    Strategy(StrategyArgs),
}

#[derive(Args)]
pub struct StrategyArgs {
    #[command(flatten)]
    game: GameArg,
    /// The proof certificate (`inarow solve --proof FILE -`).
    #[arg(long, value_name = "FILE")]
    proof: String,
    /// The strategy book to write.
    #[arg(long, value_name = "FILE")]
    out: String,
}

#[derive(Args)]
pub struct VerifyArgs {
    #[command(flatten)]
    game: GameArg,
    /// Limits on the search of each sampled entry.
    #[command(flatten)]
    limits: LimitArgs,
    /// The book to check (default: the one that ships for the game).
    #[arg(long, value_name = "FILE")]
    book: Option<String>,
    /// Entries solved again, drawn at random (all of them if the book has fewer).
    #[arg(long, default_value_t = 10_000)]
    sample: usize,
    /// The draw of the sample.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also write the sample, `MOVES SCORE` a line (the public test sets' format, which
    /// `inarow bench FILE` and other solvers' drivers read).
    #[arg(long, value_name = "FILE")]
    sample_out: Option<String>,
    /// Transposition table size in MiB of the sample's searches.
    #[arg(long, default_value_t = 64)]
    tt_mb: usize,
}

#[derive(Args)]
pub struct BuildArgs {
    #[command(flatten)]
    game: GameArg,
    /// Limits on the search of each position at the book's depth.
    #[command(flatten)]
    limits: LimitArgs,
    /// Transposition table size in MiB, kept from one position to the next.
    #[arg(long, default_value_t = 64)]
    tt_mb: usize,
    /// Search threads sharing one table, for each search.
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// Positions at the book's depth solved at once, each by its own engine and table
    /// (default: one per core). Searches this small gain more from this than from --threads.
    #[arg(long)]
    jobs: Option<usize>,
    /// Positions with at most this many plies go into the book.
    #[arg(long)]
    depth: u32,
    /// Past the depth, to this many plies, the positions a perfect player meets against any
    /// replies: on the lines where one side plays only moves that keep the value, each of its
    /// positions and the children its keeping moves reach, so that a perfect move there needs
    /// no search.
    #[arg(long, value_name = "PLIES")]
    perfect_to: Option<u32>,
    /// The book file to write. A book of the same game and at least the depth already there
    /// gives its scores: extending it solves only what is new, and a deeper one is cut to
    /// the depth without a search.
    #[arg(long, value_name = "FILE")]
    out: String,
}

pub fn run(command: BookCommand) -> Result<Outcome, String> {
    match command {
        BookCommand::Build(args) => build(args),
        BookCommand::Strategy(args) => strategy(args),
        BookCommand::Verify(args) => verify(args),
    }
}

fn verify(args: VerifyArgs) -> Result<Outcome, String> {
    let rules = session::game(&args.game.game)?;
    // Another search than the build's: another root driver, keyed without symmetry.
    let mut settings = Settings {
        table_mb: args.tt_mb,
        book: BookSource::Off,
        driver: session::Driver::Mtdf,
        ..Settings::default()
    };
    settings.techniques.symmetry = false;
    let limits = inarow::limits::Limits {
        interrupt: Some(ctrl_c()),
        ..args.limits.limits()?
    };
    let started = std::time::Instant::now();
    let bar = progress_bar(0, "sample");
    let found = session::tools(rules.as_ref())?.check_book(
        args.book.as_deref().map(Path::new),
        &settings,
        args.sample,
        args.seed,
        &limits,
        &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    let found = found?;
    if let Some(out) = &args.sample_out {
        let text: String = found
            .sample
            .iter()
            .map(|(moves, score)| format!("{moves} {score}\n"))
            .collect();
        std::fs::write(out, text).map_err(|e| format!("cannot write '{out}': {e}"))?;
    }
    for (moves, why) in &found.problems {
        eprintln!("{moves}: {why}");
    }
    println!(
        "verify {} game={} depth={} entries={} positions={} missing={} derived={} \
         inconsistent={} sampled={} disagreements={} nodes={} seconds={:.1}",
        args.book.as_deref().unwrap_or("builtin"),
        found.game,
        found.depth,
        found.entries,
        found.positions,
        found.missing,
        found.derived,
        found.inconsistent,
        found.sample.len(),
        found.disagreements,
        found.nodes,
        started.elapsed().as_secs_f64()
    );
    Ok(if found.passed() {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}

fn strategy(args: StrategyArgs) -> Result<Outcome, String> {
    let text = std::fs::read_to_string(&args.proof)
        .map_err(|e| format!("cannot read '{}': {e}", args.proof))?;
    let rules = session::game(&args.game.game)?;
    let stats =
        session::tools(rules.as_ref())?.strategy_from_certificate(&text, Path::new(&args.out))?;
    println!(
        "strategy {} game={} prover={} entries={} verified_positions={} walked={} \
         forced={} chosen={} won_at_once={}",
        args.out,
        rules.name(),
        stats.prover.name(),
        stats.entries,
        stats.verified.positions,
        stats.walk.positions,
        stats.walk.forced,
        stats.walk.chosen,
        stats.walk.won_at_once
    );
    Ok(Outcome::Done)
}

fn build(args: BuildArgs) -> Result<Outcome, String> {
    let settings = Settings {
        table_mb: args.tt_mb,
        threads: threads(args.threads)?,
        book: BookSource::Off,
        ..Settings::default()
    };
    // Ctrl-C stops the search in hand; what was solved is kept (the partial file, the
    // journal) for the same command to resume. A second Ctrl-C ends the process.
    let limits = inarow::limits::Limits {
        interrupt: Some(ctrl_c()),
        ..args.limits.limits()?
    };
    let rules = session::game(&args.game.game)?;
    let perfect_to = args.perfect_to.unwrap_or(args.depth);
    let bar = progress_bar(0, &format!("ply {}", args.depth));
    let stats = session::tools(rules.as_ref())?.build_book(
        &settings,
        args.depth,
        perfect_to,
        Path::new(&args.out),
        match args.jobs {
            Some(jobs @ 1..=256) => jobs,
            Some(jobs) => return Err(format!("--jobs {jobs}: must be between 1 and 256")),
            None => std::thread::available_parallelism().map_or(1, |n| n.get()),
        },
        &limits,
        &mut |done, total| {
            bar.set_length(total as u64);
            bar.set_position(done as u64);
        },
    );
    bar.finish_and_clear();
    let stats = stats?;
    let extended = if perfect_to > args.depth {
        format!(" perfect_to={perfect_to} perfect={}", stats.perfect)
    } else {
        String::new()
    };
    println!(
        "book {} game={} depth={}{extended} entries={} solved={} resumed={} nodes={}",
        args.out,
        rules.name(),
        args.depth,
        stats.entries,
        stats.solved,
        stats.resumed,
        stats.nodes
    );
    Ok(Outcome::Done)
}
