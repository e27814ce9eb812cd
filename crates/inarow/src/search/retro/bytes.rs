//! A byte per index ([`code`]): the cells of a build in memory ([`State`], all the indices or a
//! rank's share) or a slice of them (a build whose cells are on disk), with the frontiers as
//! bitsets ([`Frontier`]); [`ByteCells`] is how a round sees them.

use super::rounds::{Cells, Storage};
use super::{CHUNK, Progress, RetroValue, Start, Summary, allocate, code, encode, in_parallel};
use super::{index_len, too_many_successors};
use crate::error::Error;
use crate::game::Indexed;
use std::ops::Range;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};

/// Bytes of memory a build of `len` indices holds: the cells and two frontier bitsets.
pub(crate) fn memory_needed(len: u64) -> u64 {
    len + 2 * len.div_ceil(64) * 8
}

/// A zeroed bitset of `len` bits.
pub(crate) fn bitset(len: u64) -> Result<Vec<AtomicU64>, Error> {
    allocate(len.div_ceil(64), "frontier")
}

/// Adds `index` to a bitset.
#[inline(always)]
fn mark(set: &[AtomicU64], index: u64) {
    set[(index / 64) as usize].fetch_or(1 << (index % 64), Relaxed);
}

/// The positions decided at the distance the next round expands (`now`), and those the round
/// decides (`next`, empty between rounds): bitsets over a range of indices.
pub(crate) struct Frontier {
    pub(crate) now: Vec<AtomicU64>,
    next: Vec<AtomicU64>,
}

impl Frontier {
    /// Empty frontiers of `len` indices.
    pub(crate) fn new(len: u64) -> Result<Frontier, Error> {
        Frontier::resume(bitset(len)?)
    }

    /// The frontier `now`, saved, and an empty next one.
    pub(crate) fn resume(now: Vec<AtomicU64>) -> Result<Frontier, Error> {
        let next = allocate(now.len() as u64, "frontier")?;
        Ok(Frontier { now, next })
    }

    pub(crate) fn is_empty(&self) -> bool {
        self.now.iter().all(|w| w.load(Relaxed) == 0)
    }

    /// After a round: the positions it decided are the frontier.
    pub(crate) fn advance(&mut self) {
        self.now.iter().for_each(|w| w.store(0, Relaxed));
        std::mem::swap(&mut self.now, &mut self.next);
    }

    /// How a round sees `cells`, the cells of the indices from `first`, with these frontiers
    /// (bit 0 being index `frontier_first`).
    pub(crate) fn cells<'a>(
        &'a self,
        first: u64,
        cells: &'a [AtomicU8],
        frontier_first: u64,
    ) -> ByteCells<'a> {
        ByteCells {
            first,
            cells,
            frontier_first,
            now: &self.now,
            next: &self.next,
        }
    }
}

/// Byte cells and their frontiers as a round sees them ([`Frontier::cells`]).
pub(crate) struct ByteCells<'a> {
    first: u64,
    cells: &'a [AtomicU8],
    frontier_first: u64,
    now: &'a [AtomicU64],
    next: &'a [AtomicU64],
}

impl Cells for ByteCells<'_> {
    type Chunk = ();

    fn frontier_first(&self) -> u64 {
        self.frontier_first
    }

    fn frontier_words(&self) -> u64 {
        self.now.len() as u64
    }

    #[inline(always)]
    fn frontier(&self, w: u64) -> u64 {
        self.now[w as usize].load(Relaxed)
    }

    #[inline(always)]
    fn begin_chunk(&self, _: u64) {}

    #[inline(always)]
    fn end_chunk(&self, _: ()) {}

    #[inline(always)]
    fn holds(&self, index: u64) -> bool {
        index.wrapping_sub(self.first) < self.cells.len() as u64
    }

    #[inline(always)]
    fn settle(&self, index: u64, round: u32) -> bool {
        let decided = apply(&self.cells[(index - self.first) as usize], round);
        if decided {
            mark(self.next, index - self.frontier_first);
        }
        decided
    }
}

/// Tells a cell that one of its position's successors is decided at distance `round`
/// ([`Cells::settle`]). Returns whether the cell is now decided, at `round + 1`.
#[inline]
fn apply(cell: &AtomicU8, round: u32) -> bool {
    let successor_lost = round.is_multiple_of(2);
    let mut old = cell.load(Relaxed);
    loop {
        if old == code::NONE || old > code::MAX_COUNT {
            return false;
        }
        let new = if successor_lost {
            encode(RetroValue::Win(round + 1))
        } else if old == 1 {
            encode(RetroValue::Loss(round + 1))
        } else {
            old - 1
        };
        match cell.compare_exchange_weak(old, new, Relaxed, Relaxed) {
            Ok(_) => return new > code::MAX_COUNT,
            Err(now) => old = now,
        }
    }
}

/// Sets the cells of the indices `first..first + cells.len()` to their positions' values where
/// the game is over or is decided by the next move (distance 1, marked in `frontier`, whose bit
/// 0 is index `frontier_first`), else to the number of successors not lost at once. So the
/// positions where the game is over, most of them never reached in play, are never expanded.
/// `on_chunk(n)` is called as each `n` indices are done. A position with more successors than
/// a cell can count is an error (its counter would reach zero too early).
pub(crate) fn init_cells<G: Indexed>(
    game: &G,
    first: u64,
    cells: &[AtomicU8],
    frontier: &[AtomicU64],
    frontier_first: u64,
    threads: usize,
    on_chunk: &(dyn Fn(u64) + Sync),
) -> Result<(), Error> {
    let len = cells.len() as u64;
    let most_successors = AtomicU32::new(0);
    in_parallel(threads, len.div_ceil(CHUNK), |chunk| {
        let end = ((chunk + 1) * CHUNK).min(len);
        for offset in chunk * CHUNK..end {
            let index = first + offset;
            let byte = match Start::of(game, index) {
                None => code::NONE,
                Some(Start::Over(byte)) => byte,
                Some(Start::Decided(value)) => {
                    mark(frontier, index - frontier_first);
                    encode(value)
                }
                Some(Start::Open(n)) if n <= code::MAX_COUNT as u32 => n as u8,
                Some(Start::Open(n)) => {
                    most_successors.fetch_max(n, Relaxed);
                    code::NONE
                }
            };
            cells[offset as usize].store(byte, Relaxed);
        }
        on_chunk(end - chunk * CHUNK);
    });
    too_many_successors(game, most_successors.into_inner(), code::MAX_COUNT as u32)
}

/// A cell's byte in the finished database: a counter (never decided) becomes a draw.
#[inline]
pub(crate) fn finished(byte: u8) -> u8 {
    if byte != code::NONE && byte <= code::MAX_COUNT {
        code::DRAW
    } else {
        byte
    }
}

/// A build in memory, a byte per index: the cells of the indices `first..first + cells.len()`
/// (all of them, or a rank's share), their frontiers, and the round (the distance, 1 and up)
/// the next round expands. It can be saved between rounds and resumed.
pub(crate) struct State {
    pub(crate) first: u64,
    pub(crate) cells: Vec<AtomicU8>,
    pub(crate) frontier: Frontier,
    pub(crate) round: u32,
    /// Positions decided (the game over there, or decided at some distance).
    decided: u64,
}

impl State {
    /// Every cell set by [`init_cells`]; the frontier holds distance 1.
    pub(crate) fn new<G: Indexed>(
        game: &G,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<State, Error> {
        let len = index_len(game)?;
        State::share(game, 0..len, threads, progress)
    }

    /// The cells of the indices `share` (a rank's share, [`shares`](super::shares)) set by
    /// [`init_cells`]; the frontier holds distance 1. `progress` counts this share's indices.
    pub(crate) fn share<G: Indexed>(
        game: &G,
        share: Range<u64>,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<State, Error> {
        let len = share.end - share.start;
        let cells: Vec<AtomicU8> = allocate(len, "cells")?;
        let now = bitset(len)?;
        let done = AtomicU64::new(0);
        init_cells(
            game,
            share.start,
            &cells,
            &now,
            share.start,
            threads,
            &|n| {
                progress(Progress::Init {
                    done: done.fetch_add(n, Relaxed) + n,
                    total: len,
                })
            },
        )?;
        State::resume(share.start, cells, now, 1)
    }

    /// A state saved after round `round - 1`: the cells from index `first` and the frontier.
    pub(crate) fn resume(
        first: u64,
        cells: Vec<AtomicU8>,
        frontier: Vec<AtomicU64>,
        round: u32,
    ) -> Result<State, Error> {
        let decided = cells
            .iter()
            .filter(|c| c.load(Relaxed) > code::DRAW)
            .count() as u64;
        Ok(State {
            first,
            cells,
            frontier: Frontier::resume(frontier)?,
            round,
            decided,
        })
    }

    /// The finished cells, every undecided index a draw, and what they hold.
    pub(crate) fn finish(self) -> (Vec<u8>, Summary) {
        let mut summary = Summary::default();
        let cells: Vec<u8> = self
            .cells
            .into_iter()
            .map(|c| {
                let byte = finished(c.into_inner());
                summary.add(byte);
                byte
            })
            .collect();
        (cells, summary)
    }
}

impl Storage for State {
    type Cells<'a> = ByteCells<'a>;

    fn round(&self) -> u32 {
        self.round
    }

    fn has_frontier(&self) -> bool {
        !self.frontier.is_empty()
    }

    fn decided(&self) -> u64 {
        self.decided
    }

    fn run_round(&mut self, mut expand: impl FnMut(&ByteCells<'_>) -> u64) -> Result<bool, Error> {
        self.decided += expand(&self.frontier.cells(self.first, &self.cells, self.first));
        self.frontier.advance();
        self.round += 1;
        Ok(true)
    }
}
