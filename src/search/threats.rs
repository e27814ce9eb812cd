//! Threat-space search (Allis' threat sequences, in their simplest form): does the side to move
//! win by a sequence of threats, each of which leaves the opponent exactly one move that does not
//! lose at once? Every defence in such a line is forced, so a win found is a win; a line the
//! search does not find proves nothing. The moves come from [`Tactics::threat_moves`] (a game
//! without threats has none, and the search finds nothing), the defences from
//! [`Tactics::safe_moves`], so no game is named.
//!
//! Used by df-pn as a win detector at every node (a forced win by threats settles the node for
//! the side to move), and as a method of its own.

use crate::game::{MoveList, Status, Tactics};

/// What one threat-space search may spend.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct ThreatBudget {
    /// The most threats (moves of the attacker) in a line.
    pub depth: u32,
    /// The most positions visited.
    pub nodes: u64,
}

impl Default for ThreatBudget {
    fn default() -> Self {
        ThreatBudget {
            depth: 12,
            nodes: 2000,
        }
    }
}

/// Whether the side to move, which has no winning move, wins by a sequence of threats within
/// the budget; `visited` counts the positions it looked at.
pub fn wins_by_threats<G: Tactics>(pos: &G, budget: ThreatBudget, visited: &mut u64) -> bool {
    let mut left = budget.nodes;
    let found = search(pos, budget.depth, &mut left);
    *visited += budget.nodes - left;
    found
}

fn search<G: Tactics>(pos: &G, depth: u32, left: &mut u64) -> bool {
    if depth == 0 {
        return false;
    }
    let mut threats = MoveList::new();
    pos.threat_moves(&mut threats);
    for &m in &threats {
        if *left == 0 {
            return false;
        }
        *left -= 1;
        let defender = pos.play(m);
        if defender.status() != Status::Ongoing || defender.has_winning_move() {
            continue;
        }
        let mut replies = MoveList::new();
        defender.safe_moves(&mut replies);
        let reply = match replies.len() {
            // Every defence loses within a ply: a double threat.
            0 => return true,
            1 => replies[0].mv,
            // The threat does not force.
            _ => continue,
        };
        let next = defender.play(reply);
        if next.status() != Status::Ongoing {
            continue;
        }
        if next.has_winning_move() || search(&next, depth - 1, left) {
            return true;
        }
    }
    false
}
