//! The round loop of retrograde analysis, written once for every way of keeping the cells: a
//! byte each in memory ([`State`](super::State), all the indices or a rank's share), half a byte
//! ([`Nibbles`](super::nibbles::Nibbles)), or on disk a slice at a time (the engine's).
//!
//! Two traits split the work. [`Cells`] is what a round reads and changes while its threads
//! expand the frontier (the hot path, monomorphised): the frontier's positions a bitset word at
//! a time, and the compare-and-swap that settles a predecessor. [`Storage`] is what lies
//! between rounds: the parts of the cells a round goes through (all at once, or slice by slice),
//! how the decided positions become the next frontier, and what is counted. [`run`] is the
//! loop: the rounds, the exchanges between ranks, the progress, and the one stop check (time,
//! interruption, saving) that every build shares.

use super::{CHUNK, Progress, Traffic, code, in_parallel, index_len, shares};
use crate::error::Error;
use crate::game::Indexed;
use crate::limits::{Instant, Limits};
use crate::search::ranks::{Ranks, Reduce};
use std::ops::Range;
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// The cells as one round reads and changes them, shared by the threads that expand the
/// frontier. The frontier is seen as bitset words of 64 indices, bit 0 of word 0 being index
/// [`frontier_first`](Cells::frontier_first), whatever form it is kept in.
pub(crate) trait Cells: Sync {
    /// What a chunk of the expansion ([`CHUNK`] indices) gathers for the storage while it runs:
    /// the positions it expanded, for a build that lists them; `()` for most.
    type Chunk;
    /// The index of bit 0 of the frontier.
    fn frontier_first(&self) -> u64;
    /// The number of frontier words.
    fn frontier_words(&self) -> u64;
    /// The positions of frontier word `w`, as bits, changing nothing (a rank sizes its batches
    /// by them).
    fn frontier(&self, w: u64) -> u64;
    /// The chunk of the expansion that starts at frontier word `first_word` begins.
    fn begin_chunk(&self, first_word: u64) -> Self::Chunk;
    /// The positions of frontier word `w` that the chunk expands: [`frontier`](Cells::frontier)
    /// unless the storage takes them out of the cells as they are expanded.
    #[inline(always)]
    fn take_frontier(&self, _chunk: &mut Self::Chunk, w: u64) -> u64 {
        self.frontier(w)
    }
    /// The chunk is done.
    fn end_chunk(&self, chunk: Self::Chunk);
    /// Whether the cell of `index` is at hand: in this rank's share, in the slice in memory.
    fn holds(&self, index: u64) -> bool;
    /// Tells the cell of `index` (at hand) that one of its position's successors is decided at
    /// distance `round`: lost for its side to move when `round` is even (so this position is
    /// won), won when odd (one successor fewer to refute). Returns whether that decided it, at
    /// `round + 1`: it is then in the next frontier. Threads settle cells at once: by
    /// compare-and-swap, so that a counter never loses a decrement.
    fn settle(&self, index: u64, round: u32) -> bool;
}

/// The cells of a build in progress as the round loop ([`run`]) keeps them between rounds.
pub(crate) trait Storage {
    /// The cells as a round reads and changes them.
    type Cells<'a>: Cells
    where
        Self: 'a;
    /// The distance the next round expands (1 and up).
    fn round(&self) -> u32;
    /// Whether the next round has positions to expand (`true` when only the round can tell).
    fn has_frontier(&self) -> bool;
    /// Positions decided so far, as the progress display counts them.
    fn decided(&self) -> u64;
    /// Runs round [`round`](Storage::round): calls `expand` with each part of the cells it
    /// holds in memory in turn (all at once, or a slice at a time), which returns how many
    /// positions it decided; then makes them the next frontier and goes on to the next round.
    /// Returns whether the round expanded anything (`false`: the analysis is complete).
    fn run_round(&mut self, expand: impl FnMut(&Self::Cells<'_>) -> u64) -> Result<bool, Error>;
    /// Whether the state is due to be saved, `since` the last save (or the start), which took
    /// `cost`: when `every` has passed.
    fn save_due(&self, since: Duration, every: Duration, _cost: Duration) -> bool {
        since >= every
    }
}

/// When the rounds stop before the end, and how often the state is saved.
#[derive(Clone, Debug)]
pub(crate) struct Checkpoints {
    /// When to stop, checked after each round: after the first round that ends `time` after
    /// the start, or during which the interrupt token was cancelled. (The rounds count no
    /// nodes: a node limit does not apply.)
    pub limits: Limits,
    /// Save the state after a round when this long has passed since the last save.
    pub save_every: Duration,
}

impl Checkpoints {
    /// Run to the end, never saving.
    pub(crate) const NEVER: Checkpoints = Checkpoints {
        limits: Limits {
            time: None,
            nodes: None,
            interrupt: None,
        },
        save_every: Duration::MAX,
    };
}

/// How the rounds went.
#[derive(Clone, Debug)]
pub(crate) struct Rounds {
    /// Rounds run (not counting a last one that found nothing to expand).
    pub rounds: u32,
    /// Why the rounds stopped before the end (the state saved), or `None`: the analysis is
    /// complete.
    pub stopped: Option<&'static str>,
    /// What each round exchanged between ranks.
    pub traffic: Vec<Traffic>,
}

/// Fails ([`Error::Unsupported`]) when round `round` would decide a distance the format cannot
/// store.
fn check_distance(round: u32) -> Result<(), Error> {
    if round >= code::MAX_DISTANCE {
        Err(Error::Unsupported(format!(
            "a distance beyond {} plies: the database format cannot store it",
            code::MAX_DISTANCE
        )))
    } else {
        Ok(())
    }
}

/// Positions of the frontier a rank expands before an exchange: this bounds the messages
/// (a position has a few dozen predecessors at most) and the memory they take.
const BATCH: u64 = 1 << 18;

/// Runs the rounds of `storage` to the end, or until `checkpoints` stop them (on every rank
/// alike), saving the state with `save` when it is due and when they stop. On several ranks
/// (`ranks`), each runs this with its share ([`shares`]) as its storage: each round, the ranks
/// expand their frontiers a batch at a time and exchange the predecessors that fall in other
/// ranks' shares.
pub(crate) fn run<G: Indexed, S: Storage>(
    game: &G,
    storage: &mut S,
    ranks: &dyn Ranks,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
    checkpoints: &Checkpoints,
    mut save: impl FnMut(&S) -> Result<(), Error>,
) -> Result<Rounds, Error> {
    let size = ranks.size();
    let bounds = shares(index_len(game)?, size);
    let began = Instant::now();
    let (mut saved_at, mut save_cost) = (began, Duration::ZERO);
    let mut done = Rounds {
        rounds: 0,
        stopped: None,
        traffic: Vec::new(),
    };
    loop {
        let round_began = Instant::now();
        let mut exchanged = Exchanged::default();
        let mut more = [u64::from(storage.has_frontier())];
        exchanged.collective(|| ranks.reduce(&mut more, Reduce::Max));
        if more[0] == 0 {
            return Ok(done);
        }
        let round = storage.round();
        check_distance(round)?;
        let expanded = storage.run_round(|cells| {
            expand_round(game, cells, round, ranks, &bounds, threads, &mut exchanged)
        })?;
        let compute = round_began.elapsed().as_secs_f64() - exchanged.waiting;
        let nanos = |s: f64| (s * 1e9) as u64;
        let mut totals = [
            storage.decided(),
            exchanged.bytes,
            nanos(compute),
            nanos(exchanged.waiting),
            exchanged.predecessors,
            u64::from(expanded),
        ];
        ranks.reduce(&mut totals, Reduce::Sum);
        if totals[5] == 0 {
            return Ok(done);
        }
        done.rounds += 1;
        let per_rank = |n: u64| n as f64 / 1e9 / size as f64;
        done.traffic.push(Traffic {
            round,
            predecessors: totals[4],
            bytes: totals[1],
            exchanges: exchanged.exchanges,
            compute: per_rank(totals[2]),
            communicate: per_rank(totals[3]),
        });
        progress(Progress::Round {
            round,
            decided: totals[0],
        });
        // One decision for all ranks: stop if any rank's clock or Ctrl-C says so.
        let limits = &checkpoints.limits;
        let mut decide = [
            u64::from(limits.time.is_some_and(|t| began.elapsed() >= t)),
            u64::from(limits.is_interrupted()),
            u64::from(storage.save_due(saved_at.elapsed(), checkpoints.save_every, save_cost)),
        ];
        ranks.reduce(&mut decide, Reduce::Max);
        done.stopped = match decide {
            [1, _, _] => Some("the time limit"),
            [_, 1, _] => Some("an interruption"),
            _ => None,
        };
        if done.stopped.is_some() || decide[2] == 1 {
            let t = Instant::now();
            save(storage)?;
            (saved_at, save_cost) = (Instant::now(), t.elapsed());
        }
        if done.stopped.is_some() {
            return Ok(done);
        }
    }
}

/// What a rank sent in a round, and the time it spent in collective calls.
#[derive(Default)]
struct Exchanged {
    predecessors: u64,
    bytes: u64,
    exchanges: u64,
    waiting: f64,
}

impl Exchanged {
    /// Runs the collective call `f`, its time counted as waiting.
    fn collective(&mut self, f: impl FnOnce()) {
        let t = Instant::now();
        f();
        self.waiting += t.elapsed().as_secs_f64();
    }
}

/// Expands the frontier of `cells` and settles the predecessors it finds, at distance `round`:
/// alone, those at hand as they are found; on several ranks (`bounds`, their shares), a batch
/// at a time, sending the others to the ranks that own them and settling what the others send.
/// Returns how many positions this decided.
fn expand_round<G: Indexed, C: Cells>(
    game: &G,
    cells: &C,
    round: u32,
    ranks: &dyn Ranks,
    bounds: &[u64],
    threads: usize,
    exchanged: &mut Exchanged,
) -> u64 {
    let newly = AtomicU64::new(0);
    let words = cells.frontier_words();
    let size = ranks.size();
    if size == 1 {
        expand(
            game,
            cells,
            0..words,
            threads,
            || 0,
            |decided: &mut u64, parent| {
                if cells.holds(parent) && cells.settle(parent, round) {
                    *decided += 1;
                }
            },
            |decided| {
                newly.fetch_add(decided, Relaxed);
            },
        );
        return newly.into_inner();
    }
    let owner = |index: u64| bounds.partition_point(|&b| b <= index) - 1;
    let found = AtomicU64::new(0);
    let mut word = 0;
    loop {
        let end = batch_end(cells, word);
        let away = Mutex::new(vec![Vec::new(); size]);
        // Per chunk: the predecessors found, those decided, and those for each other rank.
        expand(
            game,
            cells,
            word..end,
            threads,
            || (0, 0, vec![Vec::new(); size]),
            |(found, decided, away): &mut (u64, u64, Vec<Vec<u64>>), parent| {
                *found += 1;
                if cells.holds(parent) {
                    if cells.settle(parent, round) {
                        *decided += 1;
                    }
                } else {
                    away[owner(parent)].push(parent);
                }
            },
            |(chunk_found, decided, chunk_away)| {
                found.fetch_add(chunk_found, Relaxed);
                newly.fetch_add(decided, Relaxed);
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
        exchanged.bytes += away.iter().map(|v| v.len() as u64 * 8).sum::<u64>();
        let mut arrived = Vec::new();
        let mut more = [u64::from(word < words)];
        exchanged.collective(|| {
            arrived = ranks.exchange(&away);
            ranks.reduce(&mut more, Reduce::Max);
        });
        exchanged.exchanges += 1;
        in_parallel(threads, (arrived.len() as u64).div_ceil(CHUNK), |c| {
            let end = ((c + 1) * CHUNK).min(arrived.len() as u64);
            let decided = arrived[(c * CHUNK) as usize..end as usize]
                .iter()
                .filter(|&&parent| cells.settle(parent, round))
                .count();
            newly.fetch_add(decided as u64, Relaxed);
        });
        if more[0] == 0 {
            break;
        }
    }
    exchanged.predecessors += found.into_inner();
    newly.into_inner()
}

/// The end of the batch of frontier words that starts at `word`: [`BATCH`] positions or the
/// rest.
fn batch_end<C: Cells>(cells: &C, word: u64) -> u64 {
    let mut positions = 0;
    for w in word..cells.frontier_words() {
        positions += cells.frontier(w).count_ones() as u64;
        if positions >= BATCH {
            return w + 1;
        }
    }
    cells.frontier_words()
}

/// Expands the frontier words `words` of `cells` a chunk of [`CHUNK`] indices at a time, each
/// on some thread: calls `each` with the index of every predecessor of every position in them,
/// and the chunk's accumulator (`start` makes it, `end` takes it when the chunk is done).
fn expand<G: Indexed, C: Cells, T>(
    game: &G,
    cells: &C,
    words: Range<u64>,
    threads: usize,
    start: impl Fn() -> T + Sync,
    each: impl Fn(&mut T, u64) + Sync,
    end: impl Fn(T) + Sync,
) {
    let first = cells.frontier_first();
    let per_chunk = CHUNK / 64;
    in_parallel(
        threads,
        (words.end - words.start).div_ceil(per_chunk),
        |c| {
            let from = words.start + c * per_chunk;
            let mut chunk = cells.begin_chunk(from);
            let mut acc = start();
            for w in from..(from + per_chunk).min(words.end) {
                let mut bits = cells.take_frontier(&mut chunk, w);
                while bits != 0 {
                    let index = first + w * 64 + bits.trailing_zeros() as u64;
                    bits &= bits - 1;
                    let pos = game.at_index(index).expect("decided indices are positions");
                    pos.for_each_predecessor(|parent| each(&mut acc, parent));
                }
            }
            cells.end_chunk(chunk);
            end(acc);
        },
    );
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Connect, Grid, PopOut, Runtime};
    use crate::search::ranks::{Local, Solo};
    use crate::search::retro::nibbles::{NibbleCells, Nibbles, decided_byte};
    use crate::search::retro::{ByteCells, Frontier, State, allocate, code, finished, init_cells};
    use std::sync::atomic::AtomicU8;

    fn quiet(_: Progress) {}

    /// The finished cells of the byte build, on one process.
    fn bytes<G: Indexed>(game: &G, threads: usize) -> Vec<u8> {
        let mut state = State::new(game, threads, &quiet).unwrap();
        let done = run(
            game,
            &mut state,
            &Solo,
            threads,
            &quiet,
            &Checkpoints::NEVER,
            |_| Ok(()),
        );
        assert!(done.unwrap().stopped.is_none());
        state.finish().0
    }

    /// The byte build on `size` ranks (threads), each with its share: the shares' cells joined.
    fn on_ranks<G: Indexed>(game: &G, size: usize) -> Vec<u8> {
        let bounds = shares(index_len(game).unwrap(), size);
        Local::run(size, |ranks| {
            let me = ranks.rank();
            let mut state = State::share(game, bounds[me]..bounds[me + 1], 1, &quiet).unwrap();
            run(
                game,
                &mut state,
                ranks,
                1,
                &quiet,
                &Checkpoints::NEVER,
                |_| Ok(()),
            )
            .unwrap();
            state.finish().0
        })
        .concat()
    }

    /// Byte cells in memory, gone through a slice at a time as a build with its cells on disk
    /// goes through them: every slice expands the whole frontier and keeps what falls in it.
    struct Slices {
        cells: Vec<AtomicU8>,
        slice: usize,
        frontier: Frontier,
        round: u32,
        decided: u64,
    }

    impl Storage for Slices {
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
        fn run_round(
            &mut self,
            mut expand: impl FnMut(&ByteCells<'_>) -> u64,
        ) -> Result<bool, Error> {
            for (i, part) in self.cells.chunks(self.slice).enumerate() {
                let first = (i * self.slice) as u64;
                self.decided += expand(&self.frontier.cells(first, part, 0));
            }
            self.frontier.advance();
            self.round += 1;
            Ok(true)
        }
    }

    fn sliced<G: Indexed>(game: &G, slice: usize, threads: usize) -> Vec<u8> {
        let len = index_len(game).unwrap();
        let cells: Vec<AtomicU8> = allocate(len, "cells").unwrap();
        let frontier = Frontier::new(len).unwrap();
        for (i, part) in cells.chunks(slice).enumerate() {
            let first = (i * slice) as u64;
            init_cells(game, first, part, &frontier.now, 0, threads, &|_| {}).unwrap();
        }
        let mut slices = Slices {
            cells,
            slice,
            frontier,
            round: 1,
            decided: 0,
        };
        let done = run(
            game,
            &mut slices,
            &Solo,
            threads,
            &quiet,
            &Checkpoints::NEVER,
            |_| Ok(()),
        );
        assert!(done.unwrap().stopped.is_none());
        slices
            .cells
            .iter()
            .map(|c| finished(c.load(Relaxed)))
            .collect()
    }

    /// Half-byte cells, with the byte of each position the rounds decide kept aside as a compact
    /// build lists them; each round also checks that the frontier seen without changing it
    /// ([`Cells::frontier`]) is the one expanded.
    struct Halves {
        cells: Nibbles,
        len: u64,
        decided: Vec<AtomicU8>,
    }

    impl Storage for Halves {
        type Cells<'a> = NibbleCells<'a>;
        fn round(&self) -> u32 {
            self.cells.round
        }
        fn has_frontier(&self) -> bool {
            true
        }
        fn decided(&self) -> u64 {
            0
        }
        fn run_round(
            &mut self,
            mut expand: impl FnMut(&NibbleCells<'_>) -> u64,
        ) -> Result<bool, Error> {
            let round = self.cells.round;
            let expanded: Vec<AtomicU64> = allocate(self.len.div_ceil(64), "frontier")?;
            let record = |chunk: u64, offsets: &[u16]| {
                for &o in offsets {
                    let index = chunk * CHUNK + u64::from(o);
                    self.decided[index as usize].store(decided_byte(round), Relaxed);
                    expanded[(index / 64) as usize].fetch_or(1 << (index % 64), Relaxed);
                }
            };
            let cells = self.cells.round_cells(self.len, &record);
            let seen: Vec<u64> = (0..cells.frontier_words())
                .map(|w| cells.frontier(w))
                .collect();
            expand(&cells);
            let expanded: Vec<u64> = expanded.into_iter().map(AtomicU64::into_inner).collect();
            assert_eq!(seen, expanded, "round {round}");
            self.cells.advance();
            Ok(expanded.iter().any(|&w| w != 0))
        }
    }

    fn halves<G: Indexed>(game: &G, threads: usize) -> Vec<u8> {
        let len = index_len(game).unwrap();
        let (cells, _, _) = Nibbles::new(game, len, threads, &|_| {}).unwrap();
        let mut halves = Halves {
            cells,
            len,
            decided: allocate(len, "cells").unwrap(),
        };
        let done = run(
            game,
            &mut halves,
            &Solo,
            threads,
            &quiet,
            &Checkpoints::NEVER,
            |_| Ok(()),
        );
        assert!(done.unwrap().stopped.is_none());
        let mut out: Vec<u8> = halves.decided.iter().map(|b| b.load(Relaxed)).collect();
        halves.cells.finish_bytes(game, 0, &mut out).unwrap();
        out
    }

    fn every_storage_gives_the_byte_cells<G: Indexed>(game: &G) {
        let want = bytes(game, 1);
        assert!(want.iter().any(|&b| b > code::WON), "{}", game.name());
        assert!(bytes(game, 2) == want, "{}: two threads", game.name());
        for size in [2, 3] {
            assert!(
                on_ranks(game, size) == want,
                "{}: {size} ranks",
                game.name()
            );
        }
        // Slices of a length that is no whole number of bitset words.
        for threads in [1, 2] {
            assert!(
                sliced(game, 10_007, threads) == want,
                "{}: sliced",
                game.name()
            );
            assert!(halves(game, threads) == want, "{}: half bytes", game.name());
        }
    }

    #[test]
    fn every_storage_and_number_of_ranks_gives_the_cells_of_the_byte_build() {
        let grid = |w, h, k| Runtime::new(Grid::new(w, h, k).unwrap());
        every_storage_gives_the_byte_cells(&Connect::<u64, Runtime>::new(grid(4, 4, 4)));
        every_storage_gives_the_byte_cells(&Connect::<u64, Runtime>::new(grid(4, 4, 3)));
        every_storage_gives_the_byte_cells(&PopOut::<u64, Runtime>::new(grid(4, 3, 4)));
        every_storage_gives_the_byte_cells(&PopOut::<u64, Runtime>::new(grid(3, 4, 4)));
    }
}
