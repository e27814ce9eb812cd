//! Random "reasonable" positions for benchmarks (connect-four-3d's difficulty benchmark): each
//! move is drawn uniformly from the moves that do not lose within a ply (a forced block is
//! played, nobody plays under an opponent's threat or lets the opponent win at once), and a
//! line of play in which a player could win at once is dropped (a reasonable player would have
//! ended the game). `inarow gen`, the analysis benchmark's midgames and the report's cube
//! curve draw them.

use inarow::Error;
use inarow::game::Status;
use inarow::session::{Game, Line, SplitMix};
use std::collections::HashSet;
use std::sync::Arc;

/// One reasonable line of `plies` moves from the game's start, or `None` when this attempt
/// ended early (a player could win at once, or had no move that does not lose).
fn reasonable_line(game: &dyn Game, plies: u32, rng: &mut SplitMix) -> Option<Arc<dyn Line>> {
    let mut line = game.read("").ok()?;
    loop {
        if line.status() != Status::Ongoing || line.has_winning_move() {
            return None;
        }
        if line.ply() == plies {
            return Some(line);
        }
        let safe = line.safe_moves();
        if safe.is_empty() {
            return None;
        }
        line = line.play(&safe[rng.below(safe.len())]).ok()?;
    }
}

/// `count` reasonable positions of `plies` moves from the game's start (distinct, in the order
/// drawn) from `seed`, or an error when too many attempts fail (such positions are rare or do
/// not exist).
///
/// # Errors
/// [`Error::Search`] when `1000 * count + 100_000` attempts give fewer than `count` distinct
/// positions.
pub fn reasonable_positions(
    game: &dyn Game,
    plies: u32,
    count: usize,
    seed: u64,
) -> Result<Vec<Arc<dyn Line>>, Error> {
    let mut rng = SplitMix(seed);
    let mut seen = HashSet::new();
    let mut lines = Vec::with_capacity(count);
    let mut attempts = 0u64;
    let most = 1000 * count as u64 + 100_000;
    while lines.len() < count {
        attempts += 1;
        if attempts > most {
            return Err(Error::Search(format!(
                "{} reasonable positions of {plies} plies found in {most} attempts: too rare",
                lines.len()
            )));
        }
        if let Some(line) = reasonable_line(game, plies, &mut rng)
            && seen.insert(line.key())
        {
            lines.push(line);
        }
    }
    Ok(lines)
}
