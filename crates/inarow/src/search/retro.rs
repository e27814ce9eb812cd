//! Retrograde analysis: the value of every position of a game, and the number of plies to the
//! end under perfect play, computed backwards from the positions where the game is over
//! (popout-thesis §5.4; Gasser). Generic over [`Indexed`]: one byte per index, no position
//! stored. [`solve`] solves a game in memory; the engine's `retro` module builds databases on
//! disk, within a memory budget, resumable.
//!
//! Every index starts as a counter of its distinct successors (or as its value, when the game is
//! over there). Round `d` takes the positions decided at distance `d` (a bitset, the frontier):
//! each predecessor of a lost position is won in `d + 1`; each predecessor of a won position
//! loses one on its counter, and is lost in `d + 1` when the counter reaches zero (all its moves
//! lead to won positions, the last of them decided latest, so the loser's longest resistance).
//! Rounds run in increasing distance, so the first decision is the shortest win. What is never
//! decided is a draw: the side to move can avoid losing for ever (repetitions, claims). Cycles
//! need nothing else, which is why the graph of PopOut, where pops undo drops, is no harder
//! than Connect Four's.
//!
//! Two threads (or more) share the cells: a cell changes by compare-and-swap only, so a counter
//! never loses a decrement; a round ends when every thread has finished it.
//!
//! Ranks (processes, on one machine or many: [`Ranks`](crate::search::ranks::Ranks)) share the
//! indices instead: each owns a range of them (`shares`) with its cells and frontier, expands
//! its own frontier, and sends each predecessor it finds to the rank that owns it, in batched
//! all-to-all exchanges. The decrements of a round commute, so the cells come out the same,
//! byte for byte, on any number of ranks and threads.
//!
//! The round is written once (`rounds`), over a trait for the cells' storage: a byte per index
//! (`bytes`), half a byte (`nibbles`), or (in the engine) a byte per index on disk, a slice at a
//! time.

mod bytes;
pub(crate) mod nibbles;
pub(crate) mod rounds;

pub(crate) use bytes::{ByteCells, Frontier, State, finished, init_cells, memory_needed};

use crate::error::Error;
use crate::game::{Indexed, Outlook, Status};
use crate::memory::{Zeroable, zeroed_huge};
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};

/// The value of a position for the side to move, with the plies to the end of the game under
/// perfect play (the winner wins as soon as it can, the loser holds out as long as it can).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum RetroValue {
    /// The side to move wins, the game ending this many plies from here (0: it has won).
    Win(u32),
    /// The side to move loses, the game ending this many plies from here (0: it has lost).
    Loss(u32),
    /// Neither side can force a win.
    Draw,
}

/// The byte of each index. Counters only exist while building; a finished database holds
/// [`NONE`](code::NONE), [`DRAW`](code::DRAW) and decided values.
pub(crate) mod code {
    /// No position has this index.
    pub const NONE: u8 = 0;
    /// Undecided, with up to this many successors not yet known to be won (1 and up).
    pub const MAX_COUNT: u8 = 31;
    pub const DRAW: u8 = 32;
    /// The game is over and the side to move has lost.
    pub const LOST: u8 = 33;
    /// The game is over and the side to move has won (a PopOut pop can make its line).
    pub const WON: u8 = 34;
    /// `WON + d` for `d >= 1`: the side to move wins in `d` plies when `d` is odd, loses in `d`
    /// when it is even.
    pub const MAX_DISTANCE: u32 = 255 - WON as u32;
}

/// The byte of a value.
pub(crate) fn encode(value: RetroValue) -> u8 {
    match value {
        RetroValue::Draw => code::DRAW,
        RetroValue::Loss(0) => code::LOST,
        RetroValue::Win(0) => code::WON,
        RetroValue::Win(d) | RetroValue::Loss(d) => {
            debug_assert!(d <= code::MAX_DISTANCE);
            code::WON + d as u8
        }
    }
}

/// The value of a byte of a finished database (`None` for [`code::NONE`] and counters).
pub(crate) fn decode(byte: u8) -> Option<RetroValue> {
    match byte {
        code::DRAW => Some(RetroValue::Draw),
        code::LOST => Some(RetroValue::Loss(0)),
        code::WON => Some(RetroValue::Win(0)),
        b if b > code::WON => {
            let d = (b - code::WON) as u32;
            Some(if d % 2 == 1 {
                RetroValue::Win(d)
            } else {
                RetroValue::Loss(d)
            })
        }
        _ => None,
    }
}

/// How far a build has come, for progress displays.
#[derive(Copy, Clone, Debug)]
pub enum Progress {
    /// Setting the counters: `done` of `total` indices.
    Init {
        /// Indices set so far.
        done: u64,
        /// Indices in all.
        total: u64,
    },
    /// Round `round` (the distance it decides) finished with `decided` positions decided in all.
    Round {
        /// The round just finished: the distance to the end it decides.
        round: u32,
        /// Positions decided so far, over every round.
        decided: u64,
    },
    /// Writing the database: `done` of `total` indices.
    Write {
        /// Indices written so far.
        done: u64,
        /// Indices in all.
        total: u64,
    },
}

/// What one round of a build exchanged between ranks, and where their time went.
#[derive(Copy, Clone, Debug, Default, PartialEq)]
pub struct Traffic {
    /// The distance the round decided.
    pub round: u32,
    /// Predecessors the ranks found, kept or sent (all ranks together).
    pub predecessors: u64,
    /// Bytes the ranks sent each other (all ranks together; what a rank keeps is not counted).
    pub bytes: u64,
    /// Batched all-to-all exchanges.
    pub exchanges: u64,
    /// Seconds a rank spent, on average, expanding and applying.
    pub compute: f64,
    /// Seconds a rank spent, on average, in exchanges and reductions (waiting for the slowest
    /// rank included).
    pub communicate: f64,
}

/// The first index of each rank's share of `len` indices, and `len` at the end (`size + 1`
/// numbers): whole bitset words, as even as they come.
pub(crate) fn shares(len: u64, size: usize) -> Vec<u64> {
    let words = len.div_ceil(64);
    (0..=size as u64)
        .map(|r| (words * r / size as u64 * 64).min(len))
        .collect()
}

/// What a finished analysis found, over every index that is a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Positions won for the side to move.
    pub wins: u64,
    /// Positions lost for the side to move.
    pub losses: u64,
    /// Positions drawn.
    pub draws: u64,
    /// The longest distance to the end of a won or lost position.
    pub longest: u32,
}

/// The number of indices of `game`'s numbering, or an [`Error::Unsupported`] for a game with too
/// many positions to number.
pub(crate) fn index_len<G: Indexed>(game: &G) -> Result<u64, Error> {
    game.index_len().ok_or_else(|| {
        Error::Unsupported(format!("{} has too many positions to number", game.name()))
    })
}

/// Indices per unit of work handed to a thread (a whole number of bitset words).
pub(crate) const CHUNK: u64 = 1 << 16;

/// Runs `work(chunk)` for every chunk `0..chunks` on `threads` threads.
pub(crate) fn in_parallel(threads: usize, chunks: u64, work: impl Fn(u64) + Sync) {
    let cursor = AtomicU64::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                loop {
                    let chunk = cursor.fetch_add(1, Relaxed);
                    if chunk >= chunks {
                        break;
                    }
                    work(chunk);
                }
            });
        }
    });
}

/// `len` zeroed cells, or an [`Error::Memory`] naming what could not be allocated.
pub(crate) fn allocate<T: Zeroable>(len: u64, what: &str) -> Result<Vec<T>, Error> {
    zeroed_huge(len as usize).ok_or_else(|| {
        Error::Memory(format!(
            "cannot allocate {} MiB for the {what}",
            (len as usize * std::mem::size_of::<T>()) >> 20
        ))
    })
}

/// The error of a game with a position of `most` successors, when a cell counts `max` at most
/// (its counter would reach zero too early), an [`Error::Unsupported`]; `most` is 0 when there
/// was none.
pub(crate) fn too_many_successors<G: Indexed>(game: &G, most: u32, max: u32) -> Result<(), Error> {
    match most {
        0 => Ok(()),
        n => Err(Error::Unsupported(format!(
            "{}: a position with {n} successors, more than the {max} a database cell can count",
            game.name(),
        ))),
    }
}

/// What an index holds before the first round.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// The game is over: [`code::DRAW`], [`code::LOST`] or [`code::WON`].
    Over(u8),
    /// Decided by the next move (distance 1).
    Decided(RetroValue),
    /// Open, with this many successors not lost at once.
    Open(u32),
}

impl Start {
    /// What `index` holds before the first round (`None`: no position has it).
    #[inline]
    pub(crate) fn of<G: Indexed>(game: &G, index: u64) -> Option<Start> {
        let pos = game.at_index(index)?;
        Some(match pos.status() {
            Status::Ongoing => match pos.outlook() {
                Outlook::WinNow => Start::Decided(RetroValue::Win(1)),
                Outlook::LoseNow => Start::Decided(RetroValue::Loss(1)),
                Outlook::Open(n) => Start::Open(n),
            },
            Status::Draw => Start::Over(code::DRAW),
            Status::Win(p) if p == pos.side_to_move() => Start::Over(code::WON),
            Status::Win(_) => Start::Over(code::LOST),
        })
    }
}

impl Summary {
    /// Indices that are positions.
    pub fn positions(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Adds the counts of another part of the indices.
    pub(crate) fn merge(&mut self, other: &Summary) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        self.longest = self.longest.max(other.longest);
    }

    /// Counts one finished cell.
    pub(crate) fn add(&mut self, byte: u8) {
        match decode(byte) {
            None => {}
            Some(RetroValue::Draw) => self.draws += 1,
            Some(RetroValue::Win(d)) => {
                self.wins += 1;
                self.longest = self.longest.max(d);
            }
            Some(RetroValue::Loss(d)) => {
                self.losses += 1;
                self.longest = self.longest.max(d);
            }
        }
    }
}

/// Exact values looked up rather than searched (a strong solution): what an engine consults
/// before it searches.
pub trait Lookup<G>: Send + Sync {
    /// The value of `pos`, if known.
    fn lookup(&self, pos: &G) -> Option<RetroValue>;
}

/// A strong solution in memory: one byte per index.
pub struct StrongSolution {
    cells: Vec<u8>,
}

impl StrongSolution {
    /// The solution whose byte of each index is `cells` (a database file's cells).
    pub(crate) fn new(cells: Vec<u8>) -> StrongSolution {
        StrongSolution { cells }
    }

    /// The value of `pos`: from the rules if the game is over, else from its index (`None` if
    /// the index is out of range or holds no position: not a position of this game).
    pub fn value<G: Indexed>(&self, pos: &G) -> Option<RetroValue> {
        value_with(pos, |i| self.cells.get(i as usize).copied())
    }
}

/// The value of `pos`: from the rules if the game is over, else from the byte `cell` gives for
/// its index.
pub(crate) fn value_with<G: Indexed>(
    pos: &G,
    cell: impl FnOnce(u64) -> Option<u8>,
) -> Option<RetroValue> {
    match pos.status() {
        Status::Ongoing => decode(cell(pos.index())?),
        Status::Draw => Some(RetroValue::Draw),
        Status::Win(p) if p == pos.side_to_move() => Some(RetroValue::Win(0)),
        Status::Win(_) => Some(RetroValue::Loss(0)),
    }
}

impl<G: Indexed> Lookup<G> for StrongSolution {
    fn lookup(&self, pos: &G) -> Option<RetroValue> {
        self.value(pos)
    }
}

/// Solves every position of `game` in memory (no saving, no resuming): for tests and small
/// boards.
///
/// # Errors
/// [`Error::Unsupported`] when the game has too many positions to number (or a position with
/// more successors than a cell counts, or a distance beyond the format's), [`Error::Memory`]
/// when its cells cannot be allocated.
pub fn solve<G: Indexed>(game: &G, threads: usize) -> Result<(StrongSolution, Summary), Error> {
    let quiet = |_: Progress| {};
    let mut state = State::new(game, threads, &quiet)?;
    rounds::run(
        game,
        &mut state,
        &crate::search::ranks::Solo,
        threads,
        &quiet,
        &rounds::Checkpoints::NEVER,
        |_| Ok(()),
    )?;
    let (cells, summary) = state.finish();
    Ok((StrongSolution::new(cells), summary))
}
