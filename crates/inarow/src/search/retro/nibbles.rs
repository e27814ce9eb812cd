//! Retrograde analysis in half a byte per index, for games whose bytes do not fit in memory:
//! the same rounds as [`State`](super::State), but a cell holds only what the rounds still need,
//! and the distance of each decided position leaves memory as it is decided, in the round's
//! list ([`Nibbles::round_cells`]'s `record`), to be joined with the cells when the database is
//! written.
//!
//! A cell is [`SETTLED`] (the game is over there, no position has the index, or it was decided
//! in an earlier round), a counter (`1..=`[`MAX_COUNT`]) or a frontier: decided at the distance
//! the current round expands, or at the next. The two frontier codes swap roles each round, and
//! the round clears each frontier cell to [`SETTLED`] as it expands it, so no pass is needed
//! between rounds and no bitset besides the cells.

use super::rounds::Cells;
use super::{CHUNK, RetroValue, Start, Summary, allocate, in_parallel, too_many_successors};
use crate::error::Error;
use crate::game::Indexed;
use std::sync::atomic::{AtomicU32, AtomicU64, Ordering::Relaxed};

/// Decided earlier, over, or no position.
const SETTLED: u64 = 0;
/// The most successors a cell counts.
const MAX_COUNT: u64 = 13;
/// Cells per word.
const PER_WORD: u64 = 16;
/// The lowest bit of each cell of a word.
const LOW: u64 = 0x1111_1111_1111_1111;

/// The code of the cells decided at distance `round`.
#[inline(always)]
fn frontier_code(round: u32) -> u64 {
    14 + u64::from(round.is_multiple_of(2))
}

/// The cells of a build in progress, 16 to a word, and the round (the distance) it expands next.
pub(crate) struct Nibbles {
    pub(crate) words: Vec<AtomicU64>,
    pub(crate) round: u32,
}

/// Bytes of memory the cells of `len` indices take.
pub(crate) fn memory_needed(len: u64) -> u64 {
    len.div_ceil(PER_WORD) * 8
}

/// A bit at `4k` for each cell `k` of `word` that is zero.
#[inline(always)]
fn zero_cells(word: u64) -> u64 {
    let t = word | (word >> 1);
    !(t | (t >> 2)) & LOW
}

impl Nibbles {
    /// The cells before the first round, with what is known of the summary already: the
    /// positions where the game is over, counted as won, lost or drawn, and `open` (returned
    /// second) the positions still to decide.
    pub(crate) fn new<G: Indexed>(
        game: &G,
        len: u64,
        threads: usize,
        on_chunk: &(dyn Fn(u64) + Sync),
    ) -> Result<(Nibbles, Summary, u64), Error> {
        let words: Vec<AtomicU64> = allocate(len.div_ceil(PER_WORD), "cells")?;
        let most_successors = AtomicU32::new(0);
        // Over: won, lost, drawn; then open.
        let counts: [AtomicU64; 4] = Default::default();
        in_parallel(threads, len.div_ceil(CHUNK), |chunk| {
            let end = ((chunk + 1) * CHUNK).min(len);
            let mut tally = [0u64; 4];
            for w in chunk * CHUNK / PER_WORD..end.div_ceil(PER_WORD) {
                let mut word = 0;
                for k in 0..PER_WORD {
                    let index = w * PER_WORD + k;
                    if index >= len {
                        break;
                    }
                    let cell = match Start::of(game, index) {
                        None => SETTLED,
                        Some(Start::Over(byte)) => {
                            tally[match byte {
                                super::code::WON => 0,
                                super::code::LOST => 1,
                                _ => 2,
                            }] += 1;
                            SETTLED
                        }
                        Some(Start::Decided(_)) => {
                            tally[3] += 1;
                            frontier_code(1)
                        }
                        Some(Start::Open(n)) if u64::from(n) <= MAX_COUNT => {
                            tally[3] += 1;
                            u64::from(n)
                        }
                        Some(Start::Open(n)) => {
                            most_successors.fetch_max(n, Relaxed);
                            SETTLED
                        }
                    };
                    word |= cell << (4 * k);
                }
                words[w as usize].store(word, Relaxed);
            }
            for (c, t) in counts.iter().zip(tally) {
                c.fetch_add(t, Relaxed);
            }
            on_chunk(end - chunk * CHUNK);
        });
        too_many_successors(game, most_successors.into_inner(), MAX_COUNT as u32)?;
        let [wins, losses, draws, open] = counts.map(AtomicU64::into_inner);
        let summary = Summary {
            wins,
            losses,
            draws,
            longest: 0,
        };
        Ok((Nibbles { words, round: 1 }, summary, open))
    }

    /// How round [`round`](Nibbles::round) sees the cells of the indices `0..len`:
    /// `record(chunk, offsets)` gets, for every chunk of [`CHUNK`] indices in turn (in any
    /// order, from any thread), the offsets in it of the positions the round expanded, each
    /// settled as it is taken out of the frontier.
    pub(crate) fn round_cells<'a>(
        &'a self,
        len: u64,
        record: &'a (dyn Fn(u64, &[u16]) + Sync),
    ) -> NibbleCells<'a> {
        NibbleCells {
            words: &self.words,
            len,
            now: frontier_code(self.round) * LOW,
            next: frontier_code(self.round + 1),
            successor_lost: self.round.is_multiple_of(2),
            record,
        }
    }

    /// After a round: the positions it decided are the frontier (their code is the next
    /// round's), and those it expanded are settled.
    pub(crate) fn advance(&mut self) {
        self.round += 1;
    }

    /// The finished byte ([`super::code`]) of index `first + i` for each cell `i` of `out`,
    /// except for decided positions, left as they are: a counter (never decided) is a draw;
    /// a settled cell not decided (`out[i]` zero) is where the game is over, from the rules.
    /// Fails if a settled cell holds an open position, undecided and not over.
    pub(crate) fn finish_bytes<G: Indexed>(
        &self,
        game: &G,
        first: u64,
        out: &mut [u8],
    ) -> Result<(), u64> {
        for (i, byte) in out.iter_mut().enumerate() {
            let index = first + i as u64;
            let cell =
                (self.words[(index / PER_WORD) as usize].load(Relaxed) >> (4 * (index % 16))) & 15;
            if cell != SETTLED {
                if cell > MAX_COUNT || *byte != 0 {
                    return Err(index);
                }
                *byte = super::code::DRAW;
            } else if *byte == 0 {
                *byte = match Start::of(game, index) {
                    None => super::code::NONE,
                    Some(Start::Over(b)) => b,
                    Some(_) => return Err(index),
                };
            }
        }
        Ok(())
    }
}

/// Half-byte cells as a round sees them ([`Nibbles::round_cells`]): the frontier is the cells
/// that hold the round's frontier code.
pub(crate) struct NibbleCells<'a> {
    words: &'a [AtomicU64],
    len: u64,
    /// The round's frontier code in every cell of a word.
    now: u64,
    /// The code of the positions the round decides.
    next: u64,
    successor_lost: bool,
    record: &'a (dyn Fn(u64, &[u16]) + Sync),
}

impl Cells for NibbleCells<'_> {
    /// The chunk's number and the offsets in it of the positions it expanded.
    type Chunk = (u64, Vec<u16>);

    fn frontier_first(&self) -> u64 {
        0
    }

    fn frontier_words(&self) -> u64 {
        self.len.div_ceil(64)
    }

    fn frontier(&self, w: u64) -> u64 {
        let mut bits = 0;
        for k in 0..4 {
            let Some(cells) = self.words.get((w * 4 + k) as usize) else {
                break;
            };
            let mut found = zero_cells(cells.load(Relaxed) ^ self.now);
            while found != 0 {
                bits |= 1 << (k * PER_WORD + u64::from(found.trailing_zeros() / 4));
                found &= found - 1;
            }
        }
        bits
    }

    fn begin_chunk(&self, first_word: u64) -> Self::Chunk {
        (first_word / (CHUNK / 64), Vec::new())
    }

    /// The frontier cells of the four words of cells of these 64 indices, settled: only the
    /// round clears frontier cells, and no one else changes them.
    #[inline(always)]
    fn take_frontier(&self, (chunk, offsets): &mut Self::Chunk, w: u64) -> u64 {
        let mut bits = 0;
        for k in 0..4 {
            let Some(cells) = self.words.get((w * 4 + k) as usize) else {
                break;
            };
            let mut found = zero_cells(cells.load(Relaxed) ^ self.now);
            if found == 0 {
                continue;
            }
            cells.fetch_and(!(found * 15), Relaxed);
            while found != 0 {
                let i = w * 64 + k * PER_WORD + u64::from(found.trailing_zeros() / 4);
                found &= found - 1;
                bits |= 1 << (i % 64);
                offsets.push((i - *chunk * CHUNK) as u16);
            }
        }
        bits
    }

    fn end_chunk(&self, (chunk, offsets): Self::Chunk) {
        (self.record)(chunk, &offsets);
    }

    #[inline(always)]
    fn holds(&self, _: u64) -> bool {
        true
    }

    #[inline(always)]
    fn settle(&self, index: u64, _: u32) -> bool {
        let (cells, shift) = (&self.words[(index / PER_WORD) as usize], 4 * (index % 16));
        let mut old = cells.load(Relaxed);
        loop {
            let count = (old >> shift) & 15;
            if count == SETTLED || count > MAX_COUNT {
                return false;
            }
            let new = if self.successor_lost || count == 1 {
                self.next
            } else {
                count - 1
            };
            match cells.compare_exchange_weak(
                old,
                old & !(15 << shift) | new << shift,
                Relaxed,
                Relaxed,
            ) {
                Ok(_) => return new == self.next,
                Err(now) => old = now,
            }
        }
    }
}

/// The byte of a position decided at distance `round`.
pub(crate) fn decided_byte(round: u32) -> u8 {
    super::encode(if round % 2 == 1 {
        RetroValue::Win(round)
    } else {
        RetroValue::Loss(round)
    })
}
