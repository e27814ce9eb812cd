//! Retrograde analysis: the value of every position of a game, and the number of plies to the
//! end under perfect play, computed backwards from the positions where the game is over
//! (popout-thesis §5.4; Gasser). Generic over [`Indexed`]: one byte per index, no position
//! stored.
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
//! Ranks (processes, on one machine or many: [`Ranks`]) share the indices instead: each owns a
//! range of them ([`shares`]) with its cells and frontier, expands its own frontier, and sends
//! each predecessor it finds to the rank that owns it, in batched all-to-all exchanges. The
//! decrements of a round commute, so the cells come out the same, byte for byte, on any number
//! of ranks and threads.

pub mod nibbles;

use super::memory::{Zeroable, zeroed_huge};
use super::ranks::{Ranks, Reduce, Solo};
use crate::game::{Indexed, Outlook, Status};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU8, AtomicU32, AtomicU64, Ordering::Relaxed};
use std::time::Instant;

/// The value of a position for the side to move, with the plies to the end of the game under
/// perfect play (the winner wins as soon as it can, the loser holds out as long as it can).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Value {
    Win(u32),
    Loss(u32),
    Draw,
}

/// The byte of each index. Counters only exist while building; a finished database holds
/// [`NONE`](code::NONE), [`DRAW`](code::DRAW) and decided values.
pub mod code {
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
pub fn encode(value: Value) -> u8 {
    match value {
        Value::Draw => code::DRAW,
        Value::Loss(0) => code::LOST,
        Value::Win(0) => code::WON,
        Value::Win(d) | Value::Loss(d) => {
            debug_assert!(d <= code::MAX_DISTANCE);
            code::WON + d as u8
        }
    }
}

/// The value of a byte of a finished database (`None` for [`code::NONE`] and counters).
pub fn decode(byte: u8) -> Option<Value> {
    match byte {
        code::DRAW => Some(Value::Draw),
        code::LOST => Some(Value::Loss(0)),
        code::WON => Some(Value::Win(0)),
        b if b > code::WON => {
            let d = (b - code::WON) as u32;
            Some(if d % 2 == 1 {
                Value::Win(d)
            } else {
                Value::Loss(d)
            })
        }
        _ => None,
    }
}

/// How far a build has come, for progress displays.
#[derive(Copy, Clone, Debug)]
pub enum Progress {
    /// Setting the counters: `done` of `total` indices.
    Init { done: u64, total: u64 },
    /// Round `round` (the distance it decides) finished with `decided` positions decided in all.
    Round { round: u32, decided: u64 },
    /// Writing the database: `done` of `total` indices.
    Write { done: u64, total: u64 },
}

/// A build in progress: the cells of the indices `first..first + cells.len()` (all of them, or
/// a rank's share) and those of them decided at distance `round` (1 and up), which the next
/// round expands. It can be saved between rounds and resumed.
pub struct State {
    pub first: u64,
    pub cells: Vec<AtomicU8>,
    pub frontier: Vec<AtomicU64>,
    pub round: u32,
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
pub fn shares(len: u64, size: usize) -> Vec<u64> {
    let words = len.div_ceil(64);
    (0..=size as u64)
        .map(|r| (words * r / size as u64 * 64).min(len))
        .collect()
}

/// What a finished analysis found, over every index that is a position.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    pub wins: u64,
    pub losses: u64,
    pub draws: u64,
    /// The longest distance to the end of a won or lost position.
    pub longest: u32,
}

/// The number of indices of `game`'s numbering.
pub(crate) fn index_len<G: Indexed>(game: &G) -> Result<u64, String> {
    game.index_len()
        .ok_or_else(|| format!("{} has too many positions to number", game.name()))
}

/// Positions of the frontier a rank expands before an exchange: this bounds the messages
/// (a position has a few dozen predecessors at most) and the memory they take.
const BATCH: u64 = 1 << 18;

/// The end of the batch of `frontier`'s words that starts at `word`: [`BATCH`] positions or
/// the rest.
fn batch_end(frontier: &[AtomicU64], word: usize) -> usize {
    let mut positions = 0;
    for (i, w) in frontier[word..].iter().enumerate() {
        positions += w.load(Relaxed).count_ones() as u64;
        if positions >= BATCH {
            return word + i + 1;
        }
    }
    frontier.len()
}

/// Bytes of memory a build of `len` indices holds: the cells and two frontier bitsets.
pub fn memory_needed(len: u64) -> u64 {
    len + 2 * len.div_ceil(64) * 8
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

/// `len` zeroed cells, or an error naming what could not be allocated.
pub(crate) fn allocate<T: Zeroable>(len: u64, what: &str) -> Result<Vec<T>, String> {
    zeroed_huge(len as usize).ok_or_else(|| {
        format!(
            "cannot allocate {} MiB for the {what}",
            (len as usize * std::mem::size_of::<T>()) >> 20
        )
    })
}

/// A zeroed bitset of `len` bits.
pub fn bitset(len: u64) -> Result<Vec<AtomicU64>, String> {
    allocate(len.div_ceil(64), "frontier")
}

/// Adds `index` to a bitset.
#[inline(always)]
pub fn mark(set: &[AtomicU64], index: u64) {
    set[(index / 64) as usize].fetch_or(1 << (index % 64), Relaxed);
}

/// Sets the cells of the indices `first..first + cells.len()` to their positions' values where
/// the game is over or is decided by the next move (distance 1, marked in `frontier`, whose bit
/// 0 is index `frontier_first`), else to the number of successors not lost at once. So the positions where
/// the game is over, most of them never reached in play, are never expanded. `on_chunk(n)` is
/// called as each `n` indices are done. A position with more successors than a cell can count
/// is an error (its counter would reach zero too early).
pub fn init_cells<G: Indexed>(
    game: &G,
    first: u64,
    cells: &[AtomicU8],
    frontier: &[AtomicU64],
    frontier_first: u64,
    threads: usize,
    on_chunk: &(dyn Fn(u64) + Sync),
) -> Result<(), String> {
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

/// The error of a game with a position of `most` successors, when a cell counts `max` at most
/// (its counter would reach zero too early); `most` is 0 when there was none.
pub(crate) fn too_many_successors<G: Indexed>(game: &G, most: u32, max: u32) -> Result<(), String> {
    match most {
        0 => Ok(()),
        n => Err(format!(
            "{}: a position with {n} successors, more than the {max} a database cell can count",
            game.name(),
        )),
    }
}

/// What an index holds before the first round.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Start {
    /// The game is over: [`code::DRAW`], [`code::LOST`] or [`code::WON`].
    Over(u8),
    /// Decided by the next move (distance 1).
    Decided(Value),
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
                Outlook::WinNow => Start::Decided(Value::Win(1)),
                Outlook::LoseNow => Start::Decided(Value::Loss(1)),
                Outlook::Open(n) => Start::Open(n),
            },
            Status::Draw => Start::Over(code::DRAW),
            Status::Win(p) if p == pos.side_to_move() => Start::Over(code::WON),
            Status::Win(_) => Start::Over(code::LOST),
        })
    }
}

/// Calls `f` with the index of every predecessor of every position in `frontier` (whose bit 0
/// is index `first`; it is left as it is), on `threads` threads.
pub fn expand<G: Indexed>(
    game: &G,
    frontier: &[AtomicU64],
    first: u64,
    threads: usize,
    f: &(dyn Fn(u64) + Sync),
) {
    expand_with(
        game,
        frontier.len() as u64,
        first,
        threads,
        |_| (),
        |_, w| frontier[w as usize].load(Relaxed),
        |_, parent| f(parent),
        |_| (),
    );
}

/// Expands a frontier of `words` bitset words (bit 0 of word 0 is index `first`) a chunk of
/// [`CHUNK`] indices at a time, each on some thread: `start(chunk)` makes the chunk's
/// accumulator, `word` gives the bits of each of its words in turn (the frontier may be kept
/// in any form), `each` takes the predecessors one by one, and `end` the accumulator when the
/// chunk is done.
#[allow(clippy::too_many_arguments)]
pub(crate) fn expand_with<G: Indexed, T>(
    game: &G,
    words: u64,
    first: u64,
    threads: usize,
    start: impl Fn(u64) -> T + Sync,
    word: impl Fn(&mut T, u64) -> u64 + Sync,
    each: impl Fn(&mut T, u64) + Sync,
    end: impl Fn(T) + Sync,
) {
    in_parallel(threads, words.div_ceil(CHUNK / 64), |c| {
        let mut acc = start(c);
        for w in c * (CHUNK / 64)..((c + 1) * (CHUNK / 64)).min(words) {
            let mut bits = word(&mut acc, w);
            while bits != 0 {
                let index = first + w * 64 + bits.trailing_zeros() as u64;
                bits &= bits - 1;
                let pos = game.at_index(index).expect("decided indices are positions");
                pos.for_each_predecessor(|parent| each(&mut acc, parent));
            }
        }
        end(acc);
    });
}

/// Tells a cell that one of its position's successors is decided at distance `round`: lost
/// for its side to move when `round` is even (so this position is won), won when odd (one
/// successor fewer to refute). Returns whether the cell is now decided, at `round + 1`.
#[inline]
pub fn apply(cell: &AtomicU8, round: u32) -> bool {
    let successor_lost = round.is_multiple_of(2);
    let mut old = cell.load(Relaxed);
    loop {
        if old == code::NONE || old > code::MAX_COUNT {
            return false;
        }
        let new = if successor_lost {
            encode(Value::Win(round + 1))
        } else if old == 1 {
            encode(Value::Loss(round + 1))
        } else {
            old - 1
        };
        match cell.compare_exchange_weak(old, new, Relaxed, Relaxed) {
            Ok(_) => return new > code::MAX_COUNT,
            Err(now) => old = now,
        }
    }
}

/// Fails when round `round` would decide a distance the format cannot store.
pub fn check_distance(round: u32) -> Result<(), String> {
    if round >= code::MAX_DISTANCE {
        Err(format!(
            "a distance beyond {} plies: the database format cannot store it",
            code::MAX_DISTANCE
        ))
    } else {
        Ok(())
    }
}

/// Whether a bitset is empty.
pub fn is_empty(set: &[AtomicU64]) -> bool {
    set.iter().all(|w| w.load(Relaxed) == 0)
}

/// Empties a bitset.
pub fn clear(set: &[AtomicU64]) {
    set.iter().for_each(|w| w.store(0, Relaxed));
}

impl State {
    /// Every cell set by [`init_cells`]; the frontier holds distance 1.
    pub fn new<G: Indexed>(
        game: &G,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<State, String> {
        let len = index_len(game)?;
        State::share(game, 0..len, threads, progress)
    }

    /// The cells of the indices `share` (a rank's share, [`shares`]) set by [`init_cells`];
    /// the frontier holds distance 1. `progress` counts this share's indices.
    pub fn share<G: Indexed>(
        game: &G,
        share: std::ops::Range<u64>,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<State, String> {
        let len = share.end - share.start;
        let cells: Vec<AtomicU8> = allocate(len, "cells")?;
        let frontier = bitset(len)?;
        let done = AtomicU64::new(0);
        init_cells(
            game,
            share.start,
            &cells,
            &frontier,
            share.start,
            threads,
            &|n| {
                progress(Progress::Init {
                    done: done.fetch_add(n, Relaxed) + n,
                    total: len,
                })
            },
        )?;
        Ok(State {
            first: share.start,
            cells,
            frontier,
            round: 1,
        })
    }

    /// Runs the rounds to the end, calling `between_rounds` after each (to save the state);
    /// it answers whether to go on. Returns whether the analysis is complete.
    pub fn run<G: Indexed>(
        &mut self,
        game: &G,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
        mut between_rounds: impl FnMut(&mut State) -> Result<bool, String>,
    ) -> Result<bool, String> {
        self.run_ranked(game, &Solo, threads, progress, |state, _| {
            between_rounds(state)
        })
    }

    /// [`run`](State::run) on every rank of `ranks` at once, each with its share ([`shares`]):
    /// each round, the ranks expand their frontiers a batch at a time and exchange the
    /// predecessors that fall in other ranks' shares. `between_rounds` also gets the round's
    /// [`Traffic`]; its answer must be the same on every rank.
    pub fn run_ranked<G: Indexed>(
        &mut self,
        game: &G,
        ranks: &dyn Ranks,
        threads: usize,
        progress: &(dyn Fn(Progress) + Sync),
        mut between_rounds: impl FnMut(&mut State, Traffic) -> Result<bool, String>,
    ) -> Result<bool, String> {
        let (me, size) = (ranks.rank(), ranks.size());
        let bounds = shares(index_len(game)?, size);
        let mine = self.first..self.first + self.cells.len() as u64;
        assert_eq!(
            mine,
            bounds[me]..bounds[me + 1],
            "a rank's state is its share"
        );
        let owner = |index: u64| bounds.partition_point(|&b| b <= index) - 1;
        let mut next = bitset(mine.end - mine.start)?;
        let mut decided = [self
            .cells
            .iter()
            .filter(|c| c.load(Relaxed) > code::DRAW)
            .count() as u64];
        ranks.reduce(&mut decided, Reduce::Sum);
        let mut decided = decided[0];
        loop {
            let began = Instant::now();
            let mut waiting = 0.0;
            let mut collective = |f: &mut dyn FnMut()| {
                let t = Instant::now();
                f();
                waiting += t.elapsed().as_secs_f64();
            };
            let mut more = [u64::from(!is_empty(&self.frontier))];
            collective(&mut || ranks.reduce(&mut more, Reduce::Max));
            if more[0] == 0 {
                return Ok(true);
            }
            let round = self.round;
            check_distance(round)?;
            let (newly, found) = (AtomicU64::new(0), AtomicU64::new(0));
            let (cells, next_ref) = (&self.cells, &next);
            let settle = |parent: u64| {
                let offset = parent - mine.start;
                if apply(&cells[offset as usize], round) {
                    mark(next_ref, offset);
                    newly.fetch_add(1, Relaxed);
                }
            };
            let (mut bytes, mut exchanges) = (0u64, 0u64);
            // Alone, the whole frontier is one batch, settled as it is found.
            if size == 1 {
                let each = |_: &mut (), parent| settle(parent);
                let frontier = &self.frontier;
                expand_with(
                    game,
                    frontier.len() as u64,
                    mine.start,
                    threads,
                    |_| (),
                    |_, w| frontier[w as usize].load(Relaxed),
                    each,
                    |_| (),
                );
            } else {
                let mut word = 0;
                loop {
                    let end = batch_end(&self.frontier, word);
                    let away = Mutex::new(vec![Vec::new(); size]);
                    let first = mine.start + word as u64 * 64;
                    // Per chunk: the predecessors found, and those for each other rank.
                    let batch = &self.frontier[word..end];
                    expand_with(
                        game,
                        batch.len() as u64,
                        first,
                        threads,
                        |_| (0, vec![Vec::new(); size]),
                        |_, w| batch[w as usize].load(Relaxed),
                        |(found, away): &mut (u64, Vec<Vec<u64>>), parent| {
                            *found += 1;
                            if mine.contains(&parent) {
                                settle(parent);
                            } else {
                                away[owner(parent)].push(parent);
                            }
                        },
                        |(chunk_found, chunk_away)| {
                            found.fetch_add(chunk_found, Relaxed);
                            if chunk_away.iter().any(|v| !v.is_empty()) {
                                let mut away = away.lock().expect("no thread panics holding it");
                                for (to, v) in chunk_away.into_iter().enumerate() {
                                    away[to].extend(v);
                                }
                            }
                        },
                    );
                    word = end;
                    let away = away.into_inner().expect("no thread panics holding it");
                    bytes += away.iter().map(|v| v.len() as u64 * 8).sum::<u64>();
                    let mut arrived = Vec::new();
                    let mut more = [u64::from(word < self.frontier.len())];
                    collective(&mut || {
                        arrived = ranks.exchange(&away);
                        ranks.reduce(&mut more, Reduce::Max);
                    });
                    exchanges += 1;
                    in_parallel(threads, (arrived.len() as u64).div_ceil(CHUNK), |c| {
                        let end = ((c + 1) * CHUNK).min(arrived.len() as u64);
                        arrived[(c * CHUNK) as usize..end as usize]
                            .iter()
                            .for_each(|&parent| settle(parent));
                    });
                    if more[0] == 0 {
                        break;
                    }
                }
            }
            clear(&self.frontier);
            std::mem::swap(&mut self.frontier, &mut next);
            self.round += 1;
            let compute = began.elapsed().as_secs_f64() - waiting;
            let nanos = |s: f64| (s * 1e9) as u64;
            let mut totals = [
                newly.into_inner(),
                bytes,
                nanos(compute),
                nanos(waiting),
                found.into_inner(),
            ];
            ranks.reduce(&mut totals, Reduce::Sum);
            decided += totals[0];
            let per_rank = |n: u64| n as f64 / 1e9 / size as f64;
            let traffic = Traffic {
                round,
                predecessors: totals[4],
                bytes: totals[1],
                exchanges,
                compute: per_rank(totals[2]),
                communicate: per_rank(totals[3]),
            };
            progress(Progress::Round { round, decided });
            if !between_rounds(self, traffic)? {
                return Ok(false);
            }
        }
    }

    /// The finished database: every undecided index a draw.
    pub fn finish(self) -> (Vec<u8>, Summary) {
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

/// A cell's byte in the finished database: a counter (never decided) becomes a draw.
#[inline]
pub fn finished(byte: u8) -> u8 {
    if byte != code::NONE && byte <= code::MAX_COUNT {
        code::DRAW
    } else {
        byte
    }
}

impl Summary {
    /// Indices that are positions.
    pub fn positions(&self) -> u64 {
        self.wins + self.losses + self.draws
    }

    /// Adds the counts of another part of the indices.
    pub fn merge(&mut self, other: &Summary) {
        self.wins += other.wins;
        self.losses += other.losses;
        self.draws += other.draws;
        self.longest = self.longest.max(other.longest);
    }

    /// Counts one finished cell.
    pub fn add(&mut self, byte: u8) {
        match decode(byte) {
            None => {}
            Some(Value::Draw) => self.draws += 1,
            Some(Value::Win(d)) => {
                self.wins += 1;
                self.longest = self.longest.max(d);
            }
            Some(Value::Loss(d)) => {
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
    fn lookup(&self, pos: &G) -> Option<Value>;
}

/// A strong solution in memory: one byte per index.
pub struct Solution {
    cells: Vec<u8>,
}

impl Solution {
    pub fn new(cells: Vec<u8>) -> Solution {
        Solution { cells }
    }

    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// The value of `pos`: from the rules if the game is over, else from its index (`None` if
    /// the index is out of range or holds no position: not a position of this game).
    pub fn value<G: Indexed>(&self, pos: &G) -> Option<Value> {
        value_with(pos, |i| self.cells.get(i as usize).copied())
    }
}

/// The value of `pos`: from the rules if the game is over, else from the byte `cell` gives for
/// its index.
pub fn value_with<G: Indexed>(pos: &G, cell: impl FnOnce(u64) -> Option<u8>) -> Option<Value> {
    match pos.status() {
        Status::Ongoing => decode(cell(pos.index())?),
        Status::Draw => Some(Value::Draw),
        Status::Win(p) if p == pos.side_to_move() => Some(Value::Win(0)),
        Status::Win(_) => Some(Value::Loss(0)),
    }
}

impl<G: Indexed> Lookup<G> for Solution {
    fn lookup(&self, pos: &G) -> Option<Value> {
        self.value(pos)
    }
}

/// Solves every position of `game` in memory (no saving, no resuming): for tests and small
/// boards.
pub fn solve<G: Indexed>(game: &G, threads: usize) -> Result<(Solution, Summary), String> {
    let quiet = |_: Progress| {};
    let mut state = State::new(game, threads, &quiet)?;
    state.run(game, threads, &quiet, |_| Ok(true))?;
    let (cells, summary) = state.finish();
    Ok((Solution::new(cells), summary))
}
