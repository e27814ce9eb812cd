//! Pentago's midgame solver: the exact value of a position and of each of its moves, by
//! enumerating every position below it stone by stone, with the quadrant turns abstracted (the
//! idea of Irving's midgame solver; this is its own design).
//!
//! # The frame
//! The root's empty cells are the frame. Any position below the root is a filling of some frame
//! cells (which, and by whom) together with a rotation state: how many quarter turns clockwise
//! each quadrant has made since the root, 4^4 = 256 states. The board itself is the filling
//! with each quadrant turned by its state; a placement on an empty cell of the board is a
//! placement on the frame cell under it, and a turn changes only the state. So each filling is
//! stored once, with one bit for each state ([`States`]).
//!
//! # One bit, two sweeps
//! Every turn is one quarter turn, so the states a game reaches at a level all have the same
//! turn parity: a level keeps 128 bits a filling ([`Half`]). A filling keeps one bit a state,
//! and the sweep runs twice: once where the bit of the side that places first says "wins" and
//! the other side's "does not lose", once the reverse. Together they give win, draw or loss.
//!
//! # The sweep
//! Fillings of `k` stones form level `k`; the side that places first (the level-0 mover)
//! places the stones of even levels. Level `k` follows from level `k + 1`, and the last level,
//! a full board, is a draw wherever no five ends the game first. A filling stores its value as
//! the side that placed its last stone sees it before turning: a five made by that placement
//! wins, and otherwise the best of the eight turns (`any_turn`) of the mover's value negated.
//! The mover's value is then the union of its children's, overridden where a five already ends
//! the game. The fives of each player's stones are looked up by the rank of the set of frame
//! cells they fill (`FiveTable`). Only two levels are in memory at once, at the two ends of
//! one buffer.
//!
//! # The layout of a level
//! A level is a table (`Level`): a row for each set of cells of the first side (colex rank
//! among the frame's cells), a column for each set of the second side among the cells the
//! first leaves (colex rank of their positions there). Rows are settled in turn, a row's
//! columns in order, and written in place, so the writes stream. A column's children sit at
//! the same columns in every row, so they come from one small table per level
//! (`children_by_column`): where the second side places, all the children of a row lie in
//! one row of the level below (a few kilobytes, read from the cache); where the first side
//! places, in one row for each empty cell, each row read from left to right. The first side's
//! fives are looked up once a row; the second side's by the rank of its cells, which grows
//! along the row. A filling's work is a few table reads, one 16-byte read for each child,
//! and the turns as shifts of the 128-bit set in a vector register.
//!
//! # The files
//! Four layers, the lower first: `states` (sets of rotation states, the fives by state
//! and the turns), `ranks` (sets of cells by colex rank), `layout` (the frame and the table of
//! a level) and `sweep` (the levels settled one from the next). This file holds the solver's
//! entry points and what it costs in memory.

mod layout;
mod ranks;
mod states;
mod sweep;

pub use states::{Half, States};

use crate::game::pentago::{BOARD, ROTATION_ONLY};
use crate::game::{MoveList, Pentago, Player, Rules, Status};
use crate::limits::{Started, Stop};
use layout::{Child, Frame, Level};
use ranks::choose;
use states::{Fives, half_has, has, turn_state};
use sweep::{Run, Sweep, buffer};

/// The answer for a root: its value for the side to move and each move's (1 win, 0 draw, -1
/// loss).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MidAnswer {
    /// The root's value for its side to move.
    pub value: i32,
    /// Every legal move of the root with its value for the root's side to move.
    pub moves: Vec<(u16, i32)>,
    /// The fillings settled (a filling stands for its 256 rotation states): the solver's nodes.
    pub nodes: u64,
    /// The most memory the solve held at once, in bytes: the buffer of two levels, the fives
    /// tables and the children of the columns (what the budget chose).
    pub bytes: u64,
}

/// The fewest empty cells for which the midgame solver beats forward alpha-beta (0.05 s at 10,
/// where alpha-beta takes about as long).
pub const FROM_EMPTY: u32 = 10;

/// Whether the solver is the fastest exact method for `root`: the game goes on, with at least
/// [`FROM_EMPTY`] empty cells.
pub fn applies(root: &Pentago) -> bool {
    let [first, second] = root.stones();
    root.status() == Status::Ongoing && (!(first | second) & BOARD).count_ones() >= FROM_EMPTY
}

/// The halves of the buffer: the most that two adjacent levels hold together.
fn buffer_len(empty: usize) -> u64 {
    (0..=empty)
        .map(|k| Level::new(empty, k).len() + Level::new(empty, k + 1).len())
        .max()
        .unwrap_or(1)
}

/// The bytes the solver holds at most for a root with `empty` empty cells, keeping `bits` bits
/// a state (one sweep a bit, or both in one): the buffer of two adjacent levels, the fives
/// tables of one level (each is dropped after the last level that reads it) and the children
/// of the levels' columns.
fn bytes_for(empty: usize, bits: u64) -> u64 {
    let entry = size_of::<[Half; 2]>() as u64;
    let tables = (0..=empty)
        .map(|k| choose(empty, k.div_ceil(2)) + choose(empty, k / 2))
        .max()
        .unwrap_or(0);
    let children: u64 = (0..empty)
        .map(|k| Level::new(empty, k).cols() * (empty - k) as u64)
        .sum();
    bits * buffer_len(empty) * size_of::<Half>() as u64
        + tables * entry
        + children * size_of::<Child>() as u64
}

/// The least memory the solver needs for a root with `empty` empty cells: one sweep a bit.
pub fn bytes_needed(empty: usize) -> u64 {
    bytes_for(empty, 1)
}

/// The fewest stones from which a root's solve fits in `bytes` (37 if none does).
pub fn fewest_stones_within(bytes: u64) -> u32 {
    (0..=36u32)
        .find(|&stones| bytes_needed(36 - stones as usize) <= bytes)
        .unwrap_or(37)
}

/// The value of a state from two bits: whether the side wins and whether it does not lose.
fn value_of(wins: bool, not_lose: bool) -> i32 {
    if wins {
        1
    } else if not_lose {
        0
    } else {
        -1
    }
}

/// Solves `root` within `mem_bytes` on `threads` threads, under `limits` (the node limit
/// counts fillings, checked between levels; the clock and the interrupt token within them);
/// `progress(done, total)` counts the fillings settled. A budget smaller than
/// [`bytes_needed`] is refused at once ([`Stop::MemoryNeeded`]).
///
/// # Errors
/// The [`Stop`] that ended the solve: [`Stop::MemoryNeeded`] for a budget below
/// [`bytes_needed`] or a buffer that cannot be allocated, else a limit.
///
/// # Panics
/// If the game is over at `root`.
pub fn solve(
    root: &Pentago,
    mem_bytes: u64,
    threads: usize,
    limits: Started,
    mut progress: impl FnMut(u64, u64),
) -> Result<MidAnswer, Stop> {
    assert_eq!(
        root.status(),
        Status::Ongoing,
        "the midgame solver needs an open position"
    );
    let [first, second] = root.stones();
    let cells = !(first | second) & BOARD;
    let m = cells.count_ones() as usize;
    let need = bytes_needed(m);
    if need > mem_bytes {
        return Err(Stop::MemoryNeeded(need.div_ceil(1 << 20)));
    }
    let placer = root.side_to_move();
    let stones_of = |p: Player| if p == Player::First { first } else { second };
    // After a pending root's turn, the other side places first.
    let level_mover = if root.pending() {
        placer.opponent()
    } else {
        placer
    };
    let frame = Frame {
        cells,
        m,
        first: stones_of(level_mover),
        second: stones_of(level_mover.opponent()),
    };
    let mut run = Run {
        frame,
        pending: root.pending() as usize,
        threads,
        limits,
        first_tables: (0..=m).map(|_| None).collect(),
        second_tables: (0..=m).map(|_| None).collect(),
        children: (0..=m).map(|_| None).collect(),
        done: 0,
        total: 2 * (0..=m).map(|k| Level::new(m, k).len()).sum::<u64>(),
        progress: &mut progress,
    };
    let total = run.total;
    // The budget chooses the mode: both bits in one sweep where it allows twice the buffer
    // (each filling's children are then read once, not twice); else one sweep for each.
    let (bytes, [win, not_lose]) = if bytes_for(m, 2) <= mem_bytes {
        let tops = run.sweep([Sweep::Win, Sweep::NotLose], &mut buffer::<2>(m)?)?;
        (bytes_for(m, 2), tops)
    } else {
        // One buffer for both sweeps: new pages would be zeroed again.
        let mut buffer = buffer::<1>(m)?;
        let [win] = run.sweep([Sweep::Win], &mut buffer)?;
        let [not_lose] = run.sweep([Sweep::NotLose], &mut buffer)?;
        (bytes_for(m, 1), [win, not_lose])
    };
    let fives = Fives::get();
    let mine = stones_of(placer);
    let mut list = MoveList::new();
    root.legal_moves(&mut list);
    let mut moves = Vec::new();
    for mv in list {
        let v = if root.pending() {
            // Level 0 belongs to the other side: the root mover wins where the other does
            // not even draw, and does not lose where the other does not win.
            let r = (mv - ROTATION_ONLY) as u32;
            let t = turn_state(0, r / 2, r % 2 == 1);
            value_of(!half_has(not_lose.level0, t), !half_has(win.level0, t))
        } else {
            let cell = 1u64 << (mv / 8);
            if has(&fives.of(mine | cell), 0) {
                1
            } else {
                let at = (cells & (cell - 1)).count_ones() as usize;
                let r = (mv % 8) as u32;
                let t = turn_state(0, r / 2, r % 2 == 1);
                value_of(
                    !half_has(win.level1[at], t),
                    !half_has(not_lose.level1[at], t),
                )
            }
        };
        moves.push((mv, v));
    }
    let value = if root.pending() {
        moves.iter().map(|&(_, v)| v).max().unwrap_or(-1)
    } else {
        value_of(half_has(win.level0, 0), half_has(not_lose.level0, 0))
    };
    Ok(MidAnswer {
        value,
        moves,
        nodes: total,
        bytes,
    })
}

/// Pseudo-random numbers for the layers' tests (xorshift).
#[cfg(test)]
fn random(seed: &mut u64) -> u64 {
    *seed ^= *seed << 13;
    *seed ^= *seed >> 7;
    *seed ^= *seed << 17;
    *seed
}
