//! `inarow gen`: random reasonable positions with their values, in `bench`'s `MOVES RESULT`
//! format: `win` / `nowin` when the first player moves (the two-valued question, as in
//! `shared/data/cube`), the exact score of the side to move otherwise. What solving them took
//! goes to standard error as a `bench` summary line with the total seconds.

use super::args::{GameArg, LimitArgs};
use super::io::{Outcome, progress_bar};
use clap::Args;
use inarow::engine::bench::Tally;
use inarow::engine::bench::positions::reasonable_lines;
use inarow::engine::{Config, Engine, Limits, Options};
use inarow::game::{Notation, Player, Tactics, format_moves};
use inarow::with_game;
use std::io::Write;

#[derive(Args)]
pub struct GenArgs {
    #[command(flatten)]
    game: GameArg,
    /// Stones on the board (plies from the start).
    #[arg(long)]
    stones: u32,
    /// How many positions.
    #[arg(long, default_value_t = 100)]
    count: usize,
    /// The random seed: the same seed gives the same positions.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Transposition table size in MiB for solving them.
    #[arg(long, default_value_t = 1024)]
    tt_mb: usize,
    /// Limits on solving each position (a position not solved in time is written with `?`).
    #[command(flatten)]
    limits: LimitArgs,
}

pub fn run(args: GenArgs) -> Result<Outcome, String> {
    let options = Options {
        config: Config {
            tt_mb: args.tt_mb,
            ..Config::default()
        },
        ..Options::default()
    };
    let limits = args.limits.limits()?;
    with_game!(args.game.start()?, start => generate(start, &args, options, &limits))
}

fn generate<G: Tactics + Notation>(
    start: G,
    args: &GenArgs,
    options: Options,
    limits: &Limits,
) -> Result<Outcome, String> {
    let lines = reasonable_lines(start, args.stones, args.count, args.seed)?;
    let mut engine = Engine::try_new(&start, options)?;
    engine.ready();
    let bar = progress_bar(
        lines.len(),
        &format!("{} {} stones", start.name(), args.stones),
    );
    let mut out = std::io::stdout().lock();
    let mut outcome = Outcome::Done;
    let mut tally = Tally::default();
    for line in &lines {
        let pos = line.iter().fold(start, |p, &m| p.play(m));
        engine.reset();
        let (report, two_valued) = if pos.side_to_move() == Player::First {
            (engine.wins(&pos, limits), true)
        } else {
            (engine.solve(&pos, limits), false)
        };
        tally.record(&report, report.score.unwrap_or(i32::MIN));
        let result = report.score.map(|s| match (two_valued, s) {
            (true, 0) => "nowin".to_string(),
            (true, _) => "win".to_string(),
            (false, s) => s.to_string(),
        });
        let result = result.unwrap_or_else(|| {
            outcome = Outcome::Incomplete;
            "?".to_string()
        });
        bar.inc(1);
        bar.suspend(|| writeln!(out, "{} {result}", format_moves(start, line)))
            .map_err(|e| format!("cannot write: {e}"))?;
    }
    bar.finish_and_clear();
    // What solving them took, as `bench` would print it (on standard error: standard output
    // is the benchmark file).
    let name = format!("gen:{}:{}", start.name(), args.stones);
    eprintln!(
        "{} seconds={:.1}",
        tally.summary(&name),
        tally.total_us / 1e6
    );
    Ok(outcome)
}
