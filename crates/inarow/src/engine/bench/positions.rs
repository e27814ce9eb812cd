//! Random "reasonable" positions for benchmarks (connect-four-3d's difficulty benchmark): each
//! move is drawn uniformly from the moves that do not lose within a ply (a forced block is
//! played, nobody plays under an opponent's threat or lets the opponent win at once), and a
//! line of play in which a player could win at once is dropped (a reasonable player would have
//! ended the game).

use crate::error::Error;
use crate::game::{MoveList, Status, Tactics};
use crate::search::rng::SplitMix;

/// One reasonable line of `plies` moves from `start`, or `None` when this attempt ended early
/// (a player could win at once, or had no move that does not lose).
pub fn reasonable_line<G: Tactics>(
    start: G,
    plies: u32,
    rng: &mut SplitMix,
) -> Option<Vec<G::Move>> {
    let mut pos = start;
    let mut line = Vec::with_capacity(plies as usize);
    loop {
        if pos.status() != Status::Ongoing || pos.has_winning_move() {
            return None;
        }
        if line.len() as u32 == plies {
            return Some(line);
        }
        let mut safe = MoveList::new();
        pos.safe_moves(&mut safe);
        if safe.is_empty() {
            return None;
        }
        let m = safe[rng.below(safe.len())].mv;
        line.push(m);
        pos = pos.play(m);
    }
}

/// `count` reasonable lines of `plies` moves from `start` (distinct, in the order drawn), or an
/// error when too many attempts fail (such positions are rare or do not exist).
///
/// # Errors
/// [`Error::Search`] when `1000 * count + 100_000` attempts give fewer than `count` distinct
/// lines.
pub fn reasonable_lines<G: Tactics>(
    start: G,
    plies: u32,
    count: usize,
    seed: u64,
) -> Result<Vec<Vec<G::Move>>, Error> {
    let mut rng = SplitMix(seed);
    let mut seen = std::collections::HashSet::new();
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
        if let Some(line) = reasonable_line(start, plies, &mut rng) {
            let pos = line.iter().fold(start, |p, &m| p.play(m));
            if seen.insert(pos.key()) {
                lines.push(line);
            }
        }
    }
    Ok(lines)
}
