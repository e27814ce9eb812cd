//! Threat-space search (Allis' threat sequences, in their simplest form): does the side to move
//! win by a sequence of threats, each of which leaves the opponent exactly one move that does not
//! lose at once? Every defence in such a line is forced, so a win found is a win; a line the
//! search does not find proves nothing. The moves come from [`Tactics::threat_moves`] (a game
//! without threats has none, and the search finds nothing), the defences from
//! [`Tactics::safe_moves`], so no game is named.
//!
//! Threats played in another order often reach the same position, so a search remembers the
//! positions it has seen fail (with the depth they failed at) and does not search them again.
//! A line found can be kept and played again elsewhere ([`replays`]): after a defence that
//! leaves it intact it still wins, which settles most defences of a position at once.
//!
//! Used by df-pn as a win detector at every node (a forced win by threats settles the node for
//! the side to move), by alpha-beta where a win would cut, and as a method of its own.

use crate::game::{MoveList, Player, Status, Tactics};
use crate::search::pn::KeyBuild;
use arrayvec::ArrayVec;
use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::BuildHasher;

/// Positions (exact keys) with the most threats they were searched with.
type Failed = HashMap<u128, u32, KeyBuild>;

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

thread_local! {
    /// Positions (exact keys) where the attacker was seen not to win by threats, with the most
    /// threats that were allowed there; emptied by every search.
    static FAILED: RefCell<Failed> = RefCell::new(Failed::default());
}

/// Whether the side to move, which has no winning move, wins by a sequence of threats within
/// the budget; `visited` counts the positions it looked at.
pub fn wins_by_threats<G: Tactics>(pos: &G, budget: ThreatBudget, visited: &mut u64) -> bool {
    threat_line(pos, budget, visited, &mut Vec::new())
}

/// [`wins_by_threats`], and the attacker's moves of the line found in `line` (emptied first).
pub fn threat_line<G: Tactics>(
    pos: &G,
    budget: ThreatBudget,
    visited: &mut u64,
    line: &mut Vec<G::Move>,
) -> bool {
    line.clear();
    if !G::THREATS {
        return false;
    }
    FAILED.with(|failed| {
        let mut failed = failed.borrow_mut();
        failed.clear();
        let mut left = budget.nodes;
        let found = search(pos, budget.depth, &mut left, &mut failed, line);
        *visited += budget.nodes - left;
        line.reverse();
        found
    })
}

/// The defender's single safe reply to a threat `m`, or `None` when `m` does not force one;
/// `Some(None)` when every defence loses within a ply.
#[inline]
fn forced_reply<G: Tactics>(pos: &G, m: G::Move) -> Option<(G, Option<G::Move>)> {
    let defender = pos.play(m);
    if defender.status() != Status::Ongoing || defender.has_winning_move() {
        return None;
    }
    let mut replies = MoveList::new();
    defender.safe_moves(&mut replies);
    match replies.len() {
        0 => Some((defender, None)),
        1 => Some((defender, Some(replies[0].mv))),
        _ => None,
    }
}

/// Searches with the attacker to move; on success `line` holds the line's moves, last first.
fn search<G: Tactics>(
    pos: &G,
    depth: u32,
    left: &mut u64,
    failed: &mut Failed,
    line: &mut Vec<G::Move>,
) -> bool {
    if depth == 0 {
        return false;
    }
    let key = pos.key();
    if failed.get(&key).is_some_and(|&d| d >= depth) {
        return false;
    }
    let mut threats = MoveList::new();
    pos.threat_moves(&mut threats);
    // A double threat wins at once: look for one before going deeper, keeping each forcing
    // threat with its reply for then.
    let mut forcing = MoveList::<(G::Move, G::Move)>::new();
    for &m in &threats {
        if *left == 0 {
            return false;
        }
        *left -= 1;
        match forced_reply(pos, m) {
            Some((_, None)) => {
                line.push(m);
                return true;
            }
            Some((defender, Some(reply))) => {
                let next = defender.play(reply);
                if next.status() == Status::Ongoing {
                    if next.has_winning_move() {
                        line.push(m);
                        return true;
                    }
                    forcing.push((m, reply));
                }
            }
            None => {}
        }
    }
    for &(m, reply) in &forcing {
        if *left == 0 {
            return false;
        }
        if search(&pos.play(m).play(reply), depth - 1, left, failed, line) {
            line.push(m);
            return true;
        }
    }
    if *left > 0 {
        // A complete search: a fact about this position and depth.
        failed.insert(key, depth);
    }
    false
}

/// Whether the attacker (the side to move in `pos`) wins by playing the threats of `line` in
/// order, each answered by the defender's only safe reply (whichever it is now), or wins at once
/// on the way. Every step is checked against the rules, so a line found in another position
/// proves a win here only where it still forces.
pub fn replays<G: Tactics>(pos: &G, line: &[G::Move]) -> bool {
    let mut pos = *pos;
    for &m in line {
        if pos.status() != Status::Ongoing {
            return false;
        }
        if pos.has_winning_move() {
            return true;
        }
        if !pos.is_safe_move(m) {
            return false;
        }
        match forced_reply(&pos, m) {
            Some((_, None)) => return true,
            Some((defender, Some(reply))) => pos = defender.play(reply),
            None => return false,
        }
    }
    pos.status() == Status::Ongoing && pos.has_winning_move()
}

/// The longest line a [`ThreatMemo`] keeps (longer ones are found again when asked).
const MEMO_LINE: usize = 24;

/// One remembered answer.
#[derive(Clone)]
struct Slot<M> {
    key: u128,
    side: Option<Player>,
    wins: bool,
    line: ArrayVec<M, MEMO_LINE>,
}

/// Threat-space searches with their answers remembered in a fixed number of slots (the last
/// answer for each slot wins it), for searches that ask about the same positions again and again
/// (df-pn expands a node anew each time it returns to it). The side to move is part of the
/// question: a position and its [`Tactics::pass`] share their stones.
pub struct ThreatMemo<M> {
    slots: Vec<Slot<M>>,
    size: usize,
    budget: ThreatBudget,
}

impl<M: Copy> ThreatMemo<M> {
    /// A memo of `slots` answers (rounded up to a power of two) of searches within `budget`.
    /// The slots are allocated on first use (never in a game without threats).
    pub fn new(slots: usize, budget: ThreatBudget) -> Self {
        ThreatMemo {
            slots: Vec::new(),
            size: slots.next_power_of_two(),
            budget,
        }
    }

    /// The bytes of one slot.
    pub fn slot_bytes() -> usize {
        std::mem::size_of::<Slot<M>>()
    }

    /// The memory it holds.
    pub fn bytes(&self) -> usize {
        self.slots.len() * std::mem::size_of::<Slot<M>>()
    }

    /// [`threat_line`], answered from the memo when it was asked before.
    pub fn line<G: Tactics<Move = M>>(
        &mut self,
        pos: &G,
        visited: &mut u64,
        line: &mut Vec<M>,
    ) -> bool {
        if !G::THREATS {
            line.clear();
            return false;
        }
        if self.slots.is_empty() {
            let empty = Slot {
                key: 0,
                side: None,
                wins: false,
                line: ArrayVec::new(),
            };
            self.slots = vec![empty; self.size];
        }
        let key = pos.key();
        let side = Some(pos.side_to_move());
        let h = KeyBuild::default().hash_one((key, side));
        let mask = self.slots.len() - 1;
        let slot = &mut self.slots[h as usize & mask];
        if slot.key == key && slot.side == side {
            line.clear();
            line.extend_from_slice(&slot.line);
            return slot.wins;
        }
        let wins = threat_line(pos, self.budget, visited, line);
        if line.len() <= MEMO_LINE {
            slot.key = key;
            slot.side = side;
            slot.wins = wins;
            slot.line.clear();
            slot.line.extend(line.iter().copied());
        }
        wins
    }
}
