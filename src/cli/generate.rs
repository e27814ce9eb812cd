//! `inarow gen`: random reasonable positions with their values, in `bench`'s `MOVES RESULT`
//! format: `win` / `nowin` when the first player moves (the two-valued question, as in
//! `shared/data/cube`), the exact score of the side to move otherwise. What solving them took
//! goes to standard error as a `bench` summary line with the total seconds.

use super::args::{GameArg, LimitArgs};
use super::io::{Outcome, progress_bar};
use super::positions::reasonable_positions;
use clap::Args;
use inarow::game::Player;
use inarow::session::{self, Ask, BookSource, Settings, Tally};
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
    let limits = args.limits.limits()?;
    let rules = session::game(&args.game.game)?;
    let positions = reasonable_positions(rules.as_ref(), args.stones, args.count, args.seed)?;
    let settings = Settings {
        table_mb: args.tt_mb,
        book: BookSource::Off,
        ..Settings::default()
    };
    let mut solver = rules.agent(&settings, 1)?;
    solver.ready();
    let bar = progress_bar(
        positions.len(),
        &format!("{} {} stones", rules.name(), args.stones),
    );
    let mut out = std::io::stdout().lock();
    let mut outcome = Outcome::Done;
    let mut tally = Tally::default();
    for pos in &positions {
        solver.reset();
        // The first player's positions ask the two-valued question, as the cube's sets do.
        let win_only = pos.to_move() == Player::First;
        let ask = Ask {
            limits: limits.clone(),
            win_only,
            ..Ask::default()
        };
        let solution = solver.solve(pos.as_ref(), &ask)?;
        tally.record_solve(
            solution.score,
            solution.nodes,
            solution.seconds,
            solution.score.unwrap_or(i32::MIN),
        );
        let result = solution.score.map(|s| match (win_only, s) {
            (true, 0) => "nowin".to_string(),
            (true, _) => "win".to_string(),
            (false, s) => s.to_string(),
        });
        let result = result.unwrap_or_else(|| {
            outcome = Outcome::Incomplete;
            "?".to_string()
        });
        bar.inc(1);
        bar.suspend(|| writeln!(out, "{} {result}", pos.moves()))
            .map_err(|e| format!("cannot write: {e}"))?;
    }
    bar.finish_and_clear();
    // What solving them took, as `bench` would print it (on standard error: standard output
    // is the benchmark file).
    let name = format!("gen:{}:{}", rules.name(), args.stones);
    eprintln!(
        "{} seconds={:.1}",
        tally.summary(&name),
        tally.total_us / 1e6
    );
    Ok(outcome)
}
