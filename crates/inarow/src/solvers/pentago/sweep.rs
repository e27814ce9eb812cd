//! The sweep: every level settled from the one below it, from the full board to the root
//! ([`Run::sweep`]), row by row in a kernel ([`settle_rows`]) compiled twice on x86-64 (with
//! BMI2 and AVX2 where the processor has them, `bits`), and the buffer the levels share.

use super::layout::{Child, FiveTable, Frame, Level, children_by_column};
use super::ranks::{Ranks, members, next_set, unrank};
use super::states::{Fives, Half, Lanes};
use super::{buffer_len, bytes_for};
use crate::limits::{Started, Stop, count_nodes};
#[cfg(target_arch = "x86_64")]
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// Which bit a sweep keeps: for the level-0 mover, whether it wins (`Win`) or does not lose
/// (`NotLose`); the other side's bit is the other one.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum Sweep {
    Win,
    NotLose,
}

/// What a sweep needs to settle the fillings of one level.
struct LevelWork<'a, const N: usize> {
    level: Level,
    ranks: &'static Ranks,
    /// The fives of the level-0 mover's and of the other side's stones at this level.
    fives_first: &'a FiveTable,
    fives_second: &'a FiveTable,
    /// The children of each column ([`children_by_column`]).
    children: &'a [Child],
    /// The turn parity of the level's states.
    parity: usize,
    /// For each bit a filling keeps, all ones where the side to move's bit is "wins" (a tie
    /// then counts as not winning), none where it is "does not lose".
    tie_loses: [Half; N],
    /// For each bit, the mover's value before the children: on the full board, where no five
    /// ends the game, a draw.
    start: [Half; N],
}

/// Settles the rows of `work.level` from `first_row` on into `out` (whole rows), from `next`,
/// the level below; `keep`, when given, gets the mover's own values (before the parent's
/// turn). Stops early, leaving `stopped` set, once the deadline has passed or the interrupt
/// flag is set.
fn settle<const N: usize>(
    work: &LevelWork<N>,
    first_row: u64,
    out: &mut [[Half; N]],
    keep: Option<&mut [[Half; N]]>,
    next: &[[Half; N]],
    limits: &Started,
    stopped: &AtomicBool,
) {
    let second_places = work.level.k % 2 == 1;
    #[cfg(target_arch = "x86_64")]
    if bits::fast() {
        // SAFETY: the processor has the features these versions are compiled for (checked).
        unsafe {
            if second_places {
                bits::settle_fast::<N, true>(work, first_row, out, keep, next, limits, stopped);
            } else {
                bits::settle_fast::<N, false>(work, first_row, out, keep, next, limits, stopped);
            }
        }
        return;
    }
    if second_places {
        settle_rows::<N, true, false>(work, first_row, out, keep, next, limits, stopped);
    } else {
        settle_rows::<N, false, false>(work, first_row, out, keep, next, limits, stopped);
    }
}

/// The kernel compiled for processors with fast bit deposit (BMI2), popcount and AVX2.
#[cfg(target_arch = "x86_64")]
mod bits {
    use super::*;

    /// Whether the processor has BMI2, POPCNT and AVX2, with a fast bit deposit (not the
    /// microcoded one of AMD's families before 0x19).
    pub(super) fn fast() -> bool {
        static FAST: OnceLock<bool> = OnceLock::new();
        *FAST.get_or_init(|| {
            use std::arch::x86_64::__cpuid;
            let has = is_x86_feature_detected!("bmi2")
                && is_x86_feature_detected!("popcnt")
                && is_x86_feature_detected!("avx2");
            let vendor = __cpuid(0);
            let amd =
                (vendor.ebx, vendor.edx, vendor.ecx) == (0x6874_7541, 0x6974_6e65, 0x444d_4163);
            let info = __cpuid(1).eax;
            let family = (info >> 8 & 0xf)
                + if info >> 8 & 0xf == 0xf {
                    info >> 20 & 0xff
                } else {
                    0
                };
            has && !(amd && family < 0x19)
        })
    }

    /// [`Lanes::any_turn`] as [`settle_fast`] compiles it.
    #[cfg(test)]
    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt,avx2")]
    pub(super) fn any_turn_fast(x: Half) -> Half {
        Lanes::of(x).any_turn::<true>().get()
    }

    #[target_feature(enable = "bmi1,bmi2,popcnt,lzcnt,avx2")]
    pub(super) fn settle_fast<const N: usize, const SECOND_PLACES: bool>(
        work: &LevelWork<N>,
        first_row: u64,
        out: &mut [[Half; N]],
        keep: Option<&mut [[Half; N]]>,
        next: &[[Half; N]],
        limits: &Started,
        stopped: &AtomicBool,
    ) {
        settle_rows::<N, SECOND_PLACES, true>(work, first_row, out, keep, next, limits, stopped);
    }
}

/// The cells of `mask` at the positions `x` (bit deposit), with BMI2's instruction when
/// `BMI2` (only inside [`bits::settle_fast`]).
#[inline(always)]
fn deposit<const BMI2: bool>(x: u64, mask: u64) -> u64 {
    #[cfg(target_arch = "x86_64")]
    if BMI2 {
        // SAFETY: instantiated with BMI2 only in a function compiled for it, called after
        // checking that the processor has it.
        return unsafe { std::arch::x86_64::_pdep_u64(x, mask) };
    }
    members(x, mask)
}

/// Bit deposit into one mask by byte tables, where the processor has no instruction for it (the
/// web build; x86-64 without BMI2): every column of a row deposits its set into the same free
/// cells, so a table built once a row replaces a loop over the cells in each of them (Irving's
/// 18-stone root: 1.35x faster in the web build, 1.17x on x86-64 without BMI2).
struct DepositTable {
    bytes: [[u64; 256]; 8],
    chunks: usize,
}

impl DepositTable {
    fn new() -> Box<DepositTable> {
        Box::new(DepositTable {
            bytes: [[0; 256]; 8],
            chunks: 0,
        })
    }

    /// Deposits into `mask` from now on, for sets of its lowest `positions` positions.
    fn fill(&mut self, mut mask: u64, positions: usize) {
        self.chunks = positions.div_ceil(8);
        for table in &mut self.bytes[..self.chunks] {
            // The next eight cells of the mask, lowest first (zero past its last).
            let cells: [u64; 8] = std::array::from_fn(|_| {
                let low = mask & mask.wrapping_neg();
                mask ^= low;
                low
            });
            for v in 1..256usize {
                table[v] = table[v & (v - 1)] | cells[v.trailing_zeros() as usize];
            }
        }
    }

    /// [`deposit`] of `x` into the mask of the last [`DepositTable::fill`].
    #[inline(always)]
    fn deposit(&self, x: u64) -> u64 {
        let mut out = 0;
        for (c, table) in self.bytes[..self.chunks].iter().enumerate() {
            out |= table[(x >> (8 * c)) as usize & 255];
        }
        out
    }
}

/// [`settle`] for one kind of level: `SECOND_PLACES` when its mover is the second side (odd
/// `k`: the children of a row are in the same row of the level below), else the first (the
/// children of a row are in one row for each empty cell).
#[inline(always)]
fn settle_rows<const N: usize, const SECOND_PLACES: bool, const BMI2: bool>(
    work: &LevelWork<N>,
    first_row: u64,
    out: &mut [[Half; N]],
    mut keep: Option<&mut [[Half; N]]>,
    next: &[[Half; N]],
    limits: &Started,
    stopped: &AtomicBool,
) {
    let Level { k, a, b, m } = work.level;
    let cols = work.level.cols() as usize;
    let child_cols = Level::new(m, k + 1).cols();
    let per = m - k;
    let frame = (1u64 << m) - 1;
    let ranks = work.ranks;
    let p = work.parity;
    let start: [Lanes; N] = work.start.map(Lanes::of);
    let tie_loses: [Lanes; N] = work.tie_loses.map(Lanes::of);
    let [now_first, before_first] = [
        &work.fives_first.by_parity[p],
        &work.fives_first.by_parity[p ^ 1],
    ];
    let [now_second, before_second] = [
        &work.fives_second.by_parity[p],
        &work.fives_second.by_parity[p ^ 1],
    ];
    let mut row_cells = unrank(first_row, a, m);
    // Only where there is no deposit instruction: the fast kernel needs no table.
    let mut spread = (!BMI2).then(DepositTable::new);
    let mut unchecked = 0;
    for (r, out_row) in out.chunks_exact_mut(cols).enumerate() {
        unchecked += cols;
        if unchecked >= 4096 {
            // What the progress display counts.
            count_nodes((unchecked * N) as u64);
            unchecked = 0;
            // The node limit is checked between levels: here, the clock and the interrupt.
            if limits.stop(0).is_some() {
                stopped.store(true, Ordering::Relaxed);
            }
            if stopped.load(Ordering::Relaxed) {
                return;
            }
        }
        let row = first_row + r as u64;
        let free = frame & !row_cells;
        if let Some(table) = spread.as_mut() {
            table.fill(free, m - a);
        }
        let place = |set: u64| match &spread {
            Some(table) => table.deposit(set),
            None => deposit::<BMI2>(set, free),
        };
        let first = [now_first[row as usize], before_first[row as usize]].map(Lanes::of);
        // Where each child's row starts in the level below.
        let mut bases = [0u64; 64];
        if SECOND_PLACES {
            bases[0] = row * child_cols;
        } else {
            for (j, base) in bases.iter_mut().enumerate().take(m - a) {
                let cell = place(1 << j);
                *base = ranks.rank(row_cells | cell) * child_cols;
            }
        }
        let mut set = (1u64 << b) - 1;
        for (t, slot) in out_row.iter_mut().enumerate() {
            let at = ranks.rank(place(set)) as usize;
            let second = [now_second[at], before_second[at]].map(Lanes::of);
            set = next_set(set);
            let mut us = start;
            for child in &work.children[t * per..(t + 1) * per] {
                let base = if SECOND_PLACES {
                    bases[0]
                } else {
                    debug_assert!((child.at as usize) < m - a);
                    // SAFETY: `at` is a position among the `m - a` cells the first side leaves.
                    unsafe { *bases.get_unchecked(child.at as usize) }
                };
                let index = (base + child.col as u64) as usize;
                debug_assert!(index < next.len());
                // SAFETY: the child's row and column are within the level below, which `next`
                // holds whole.
                let values = unsafe { next.get_unchecked(index) };
                for c in 0..N {
                    us[c] = us[c].or(Lanes::of(values[c]));
                }
            }
            let (mover, placer) = if SECOND_PLACES {
                (second, first)
            } else {
                (first, second)
            };
            let [mover_now, _] = mover;
            let [placer_now, placer_before] = placer;
            let ended = mover_now.or(placer_now);
            for c in 0..N {
                // Fives for both: a win only where the bit means "does not lose".
                us[c] = us[c]
                    .and_not(ended)
                    .or(mover_now.and_not(placer_now.and(tie_loses[c])));
            }
            if let Some(keep) = keep.as_deref_mut() {
                keep[r * cols + t] = us.map(Lanes::get);
            }
            // As the placer sees it before its turn: a five by placing wins at once.
            for c in 0..N {
                slot[c] = us[c].not().any_turn::<BMI2>().or(placer_before).get();
            }
        }
        row_cells = next_set(row_cells);
    }
    count_nodes((unchecked * N) as u64);
}

/// What one sweep leaves of the top two levels: the level-0 mover's own value at the root,
/// and the other side's own value after each of the level-0 mover's placements (by frame
/// position).
pub(super) struct Top {
    pub(super) level0: Half,
    pub(super) level1: Vec<Half>,
}

/// The buffer of two adjacent levels for a frame of `m` cells, `N` bits a state, on ordinary
/// pages: the levels are read and written in streams, so huge pages save no page walks, and
/// asking for them made the kernel compact memory at the first touch (0.3-1.4 s of system
/// time at 18 stones, against 0.25 s without).
pub(super) fn buffer<const N: usize>(m: usize) -> Result<Vec<[Half; N]>, Stop> {
    let width = buffer_len(m) as usize;
    crate::memory::zeroed(width)
        .ok_or_else(|| Stop::MemoryNeeded(bytes_for(m, N as u64).div_ceil(1 << 20)))
}

/// One solve: the frame, its limits, the fives tables (built as the levels need them, kept for
/// every sweep) and the progress so far.
pub(super) struct Run<'p, P: FnMut(u64, u64)> {
    pub(super) frame: Frame,
    pub(super) pending: usize,
    pub(super) threads: usize,
    pub(super) limits: Started,
    pub(super) first_tables: Vec<Option<FiveTable>>,
    pub(super) second_tables: Vec<Option<FiveTable>>,
    /// The children of each level's columns, by `k` (built as the levels need them).
    pub(super) children: Vec<Option<Vec<Child>>>,
    pub(super) done: u64,
    pub(super) total: u64,
    pub(super) progress: &'p mut P,
}

impl<P: FnMut(u64, u64)> Run<'_, P> {
    /// Settles every level, from the full board to the root, keeping one bit a state for each
    /// of `sweeps`; stops between levels once a limit is reached.
    pub(super) fn sweep<const N: usize>(
        &mut self,
        sweeps: [Sweep; N],
        buffer: &mut [[Half; N]],
    ) -> Result<[Top; N], Stop> {
        let (m, fives, ranks) = (self.frame.m, Fives::get(), Ranks::get());
        let width = buffer.len();
        let mut tops: [Top; N] = std::array::from_fn(|_| Top {
            level0: 0,
            level1: vec![0; m],
        });
        let mut level0 = [[0; N]; 1];
        let mut level1 = vec![[0; N]; m];
        let stopped = AtomicBool::new(false);
        for k in (0..=m).rev() {
            let level = Level::new(m, k);
            let (a, b) = (level.a, level.b);
            let frame = &self.frame;
            let first_table = self.first_tables[a]
                .get_or_insert_with(|| FiveTable::new(fives, frame, frame.first, a));
            let second_table = self.second_tables[b]
                .get_or_insert_with(|| FiveTable::new(fives, frame, frame.second, b));
            let children = self.children[k].get_or_insert_with(|| children_by_column(level, ranks));
            let work = LevelWork {
                level,
                ranks,
                fives_first: first_table,
                fives_second: second_table,
                children,
                // Every turn is a quarter turn: the states of level k have k turns' parity
                // (one more after a pending root's turn).
                parity: (k + self.pending) & 1,
                tie_loses: sweeps.map(|w| {
                    if k.is_multiple_of(2) == (w == Sweep::Win) {
                        !0
                    } else {
                        0
                    }
                }),
                start: sweeps.map(|w| {
                    let keeps_win = k.is_multiple_of(2) == (w == Sweep::Win);
                    if k == m && !keeps_win { !0 } else { 0 }
                }),
            };
            let len = level.len() as usize;
            let next_len = Level::new(m, k + 1).len() as usize;
            // Even levels at the front of the buffer, odd ones at the back.
            let (out, next) = if k.is_multiple_of(2) {
                let (out, rest) = buffer.split_at_mut(len);
                (out, &rest[rest.len() - next_len..])
            } else {
                let (rest, out) = buffer.split_at_mut(width - len);
                (out, &rest[..next_len])
            };
            let next = if k == m { &next[..0] } else { next };
            let limits = &self.limits;
            if k <= 1 {
                let keep = if k == 0 {
                    &mut level0[..]
                } else {
                    &mut level1[..]
                };
                settle(&work, 0, out, Some(keep), next, limits, &stopped);
            } else if self.threads <= 1 {
                // One thread: here (the web has no threads to start).
                settle(&work, 0, out, None, next, limits, &stopped);
            } else {
                // Whole rows to each thread.
                let rows = level.rows().div_ceil(self.threads.max(1) as u64).max(1);
                let chunk = rows as usize * level.cols() as usize;
                std::thread::scope(|s| {
                    for (c, part) in out.chunks_mut(chunk).enumerate() {
                        let (work, stopped) = (&work, &stopped);
                        let first_row = c as u64 * rows;
                        s.spawn(move || settle(work, first_row, part, None, next, limits, stopped));
                    }
                });
            }
            self.done += N as u64 * level.len();
            // Each fives table is dropped after the last level that reads it (the first
            // side's `a` cells at level `2a - 1`, the second side's `b` at level `2b`), and
            // built again if a sweep follows: that costs too little to measure, and the
            // solver then holds the tables of one level at a time.
            if k % 2 == 1 {
                self.first_tables[k.div_ceil(2)] = None;
            } else {
                self.second_tables[k / 2] = None;
            }
            if stopped.load(Ordering::Relaxed) {
                return Err(self.limits.stop(0).unwrap_or(Stop::Time));
            }
            if let Some(stop) = self.limits.stop(self.done) {
                return Err(stop);
            }
            (self.progress)(self.done, self.total);
        }
        for (c, top) in tops.iter_mut().enumerate() {
            top.level0 = level0[0][c];
            top.level1 = level1.iter().map(|v| v[c]).collect();
        }
        Ok(tops)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::solvers::pentago::random;
    use crate::solvers::pentago::states::any_turn;

    // The lanes are checked here, beside `bits`, which compiles their fast turns.
    #[test]
    fn lanes_turn_as_the_integer_does() {
        let mut seed = 23u64;
        for _ in 0..1000 {
            let x = (random(&mut seed) as u128) << 64 | random(&mut seed) as u128;
            assert_eq!(Lanes::of(x).any_turn::<false>().get(), any_turn(x), "{x:x}");
            #[cfg(target_arch = "x86_64")]
            if bits::fast() {
                // SAFETY: the processor has what the fast version needs (checked).
                assert_eq!(unsafe { bits::any_turn_fast(x) }, any_turn(x), "{x:x}");
            }
        }
    }

    #[test]
    fn deposit_tables_place_as_the_loop_does() {
        let mut seed = 31u64;
        let mut table = DepositTable::new();
        for _ in 0..300 {
            let mask = random(&mut seed) & random(&mut seed) >> (random(&mut seed) % 40);
            let positions = mask.count_ones() as usize;
            table.fill(mask, positions);
            for _ in 0..50 {
                let x = random(&mut seed) & ((1u128 << positions) - 1) as u64;
                assert_eq!(table.deposit(x), members(x, mask), "{mask:x} {x:x}");
            }
        }
    }
}
