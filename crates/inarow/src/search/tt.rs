//! The transposition table: packed 64-bit entries, a prime number of buckets, and a key check
//! that can never accept another position's entry. One table may be shared by several search
//! threads: every access is atomic, so no entry is ever torn.
//!
//! Entry layout (one `u64`; an all-zero word is an empty slot):
//!
//! ```text
//!  63     59 58      50 49 48 47      40 39                     0
//! +---------+----------+-----+----------+------------------------+
//! | work (5)| move (9) |bound| value (8)| key mod 2^40 (40)      |
//! +---------+----------+-----+----------+------------------------+
//! ```
//!
//! The bucket is `key mod P` with `P` prime, and the entry keeps `key mod 2^40`: by the Chinese
//! remainder theorem the pair identifies the key whenever `P * 2^40 >= 2^key_bits`
//! (connect-four-3d). A single atomic word then answers only for its own position. For longer
//! keys the table also keeps each full key beside the entry, and the words of a slot (entry,
//! sequence number, key) lie together, a two-slot bucket in one 64-byte cache line, guarded by
//! the sequence number (a seqlock whose writers never wait: a writer that finds the slot busy
//! drops its store, and a reader that sees it change reports a miss).
//! `work` is log2 of the subtree's node count (at most 31), for the Big and TwoBig replacement
//! schemes; `move` is the move code plus one (0 = none), so any code below
//! [`MAX_MOVES`](crate::game::MAX_MOVES) fits.

use crate::error::Error;
use crate::game::bits::Divisor;
use crate::memory::{HUGE_PAGE, zeroed, zeroed_huge};
use std::fmt;
use std::io::{self, Read, Write};
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering, fence};

/// How a full bucket chooses what to overwrite (Breuker; connect-four-3d).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Scheme {
    /// One slot per bucket; the newest entry always wins.
    New,
    /// One slot per bucket; the entry with the larger subtree wins.
    Big,
    /// Two slots: the first keeps the larger subtree, the second the newest.
    TwoBig,
}

impl FromStr for Scheme {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "new" => Ok(Scheme::New),
            "big" => Ok(Scheme::Big),
            "twobig" => Ok(Scheme::TwoBig),
            _ => Err(Error::Input(format!(
                "unknown table scheme '{s}': expected new, big or twobig"
            ))),
        }
    }
}

impl fmt::Display for Scheme {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Scheme::New => "new",
            Scheme::Big => "big",
            Scheme::TwoBig => "twobig",
        })
    }
}

/// What a stored value says about the position's true value.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The true value is at least the stored one.
    Lower = 1,
    /// The true value is at most the stored one.
    Upper = 2,
    /// The stored value is the true value.
    Exact = 3,
}

/// A table hit.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The stored score, for the side to move.
    pub value: i32,
    /// What the stored score says of the true one.
    pub bound: Bound,
    /// The code of the best or refuting move, when known.
    pub best: Option<u16>,
}

const CHECK_BITS: u32 = 40;
const CHECK_MASK: u64 = (1 << CHECK_BITS) - 1;
const VALUE_SHIFT: u32 = 40;
const BOUND_SHIFT: u32 = 48;
const MOVE_SHIFT: u32 = 50;
const MOVE_MASK: u64 = 0x1ff;
const WORK_SHIFT: u32 = 59;
const MAX_WORK: u32 = 31;
const _: () = assert!(crate::game::MAX_MOVES < MOVE_MASK as usize);
/// Clearing forgets logged slots one by one up to this share of the table (1 / N), and sweeps
/// the whole table beyond it (a sweep costs about as much as N random writes per slot).
const TOUCH_SHARE: usize = 32;

/// The words of a slot of a wide table, after the entry: a sequence number that is odd while a
/// writer holds the slot, and the full key.
const SEQ: usize = 1;
const KEY_LOW: usize = 2;
const KEY_HIGH: usize = 3;
/// Words a slot of a wide table takes.
const WIDE_STRIDE: usize = 4;

/// The slots one searcher wrote since the table was last cleared, so that clearing a large
/// table after a small search costs little.
#[derive(Clone, Debug, Default)]
pub struct WriteLog {
    slots: Vec<u32>,
    overflow: bool,
}

impl WriteLog {
    #[inline(always)]
    fn push(&mut self, slot: usize) {
        if !self.overflow {
            if self.slots.len() < self.slots.capacity() {
                self.slots.push(slot as u32);
            } else {
                self.overflow = true;
            }
        }
    }
}

/// A transposition table of a fixed size in memory, shareable between threads.
pub struct Table {
    /// The slots, from `base` on (the start is aligned for huge pages).
    storage: Vec<AtomicU64>,
    base: usize,
    /// Words a slot takes: 1 (the entry), or [`WIDE_STRIDE`] when the full key is kept
    /// because the packed check cannot tell keys apart.
    stride: usize,
    buckets: u64,
    reduce: Divisor,
    /// `2^64 mod buckets`, for the bucket of a key longer than 64 bits.
    pow64: u64,
    ways: usize,
    scheme: Scheme,
    /// Entries were loaded from a file ([`Table::restore`]): no write log knows them, so the
    /// next clear sweeps the whole table.
    restored: AtomicBool,
    /// Every page of the table is backed by memory. The allocator hands out lazily mapped
    /// zero pages, whose first touch (a huge page: 2 MiB zeroed; on a virtual machine up to
    /// milliseconds) lands inside whichever search first writes there: [`Table::ready`] takes
    /// that cost at once, for a table that is reused and timed.
    touched: AtomicBool,
}

impl Table {
    /// A table of at most `mb` MiB for keys of `key_bits` bits; `mb = 0` gives a table that
    /// stores nothing.
    ///
    /// # Panics
    /// Where [`Table::try_new`] returns an error.
    pub fn new(mb: usize, scheme: Scheme, key_bits: u32) -> Table {
        Self::try_new(mb, scheme, key_bits).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Table::new`], but a table the machine cannot hold is an error, not an abort.
    ///
    /// # Errors
    /// [`Error::Memory`] when a table of `mb` MiB cannot be allocated.
    pub fn try_new(mb: usize, scheme: Scheme, key_bits: u32) -> Result<Table, Error> {
        let too_big =
            || Error::Memory(format!("cannot allocate a transposition table of {mb} MiB"));
        let bytes = mb.checked_mul(1 << 20).ok_or_else(too_big)?;
        Self::with_bytes(bytes, scheme, key_bits, true).ok_or_else(too_big)
    }

    /// A table of at most `bytes`, on huge pages if `huge` and the system has them, or `None`
    /// when it cannot be allocated.
    fn with_bytes(bytes: usize, scheme: Scheme, key_bits: u32, huge: bool) -> Option<Table> {
        let ways = if scheme == Scheme::TwoBig { 2 } else { 1 };
        // Fewer than 2^32 buckets keep the fast remainder exact.
        let most = |slot_bytes: usize| ((bytes / (slot_bytes * ways)) as u64).min(u32::MAX as u64);
        let mut buckets = prev_prime(most(8));
        let wide = buckets > 0 && key_bits > CHECK_BITS + (63 - buckets.leading_zeros());
        let stride = if wide { WIDE_STRIDE } else { 1 };
        if wide {
            buckets = prev_prime(most(8 * WIDE_STRIDE));
        }
        let (storage, base) = allocate(buckets as usize * ways * stride, huge)?;
        let table = Table {
            storage,
            base,
            stride,
            buckets,
            reduce: Divisor::new(buckets),
            pow64: if buckets > 1 {
                (u64::MAX % buckets + 1) % buckets
            } else {
                0
            },
            ways,
            scheme,
            restored: AtomicBool::new(false),
            // Not touched here: a table takes memory only as searches write to it, and none
            // where another solver (Pentago's midgame solver) answers every position.
            touched: AtomicBool::new(false),
        };
        Some(table)
    }

    /// Copies every entry into `dest` (under its own replacement scheme); the slots written
    /// go to `log`. Call it while no search runs on either table.
    pub fn copy_into(&self, dest: &Table, log: &mut WriteLog) {
        if self.buckets == 0 {
            return;
        }
        // A packed entry keeps the key modulo 2^40 and its bucket the key modulo P: the key is
        // found again by the Chinese remainder theorem, k = c + 2^40 t, t = (b - c) / 2^40 mod P.
        let p = self.buckets as u128;
        let inverse = pow_mod((1u128 << CHECK_BITS) % p, p - 2, p);
        for slot in 0..self.slots() {
            let (word, key) = if self.is_wide() {
                match self.read_wide(slot) {
                    Some(read) => read,
                    None => continue,
                }
            } else {
                let word = self.word(slot);
                let (bucket, check) = ((slot / self.ways) as u128, (word & CHECK_MASK) as u128);
                let t = (bucket + p - check % p) % p * inverse % p;
                (word, check + (t << CHECK_BITS))
            };
            if word == 0 {
                continue;
            }
            let entry = unpack(word);
            let work = (word >> WORK_SHIFT) as u32;
            let nodes = if work == 0 { 0 } else { 1u64 << (work - 1) };
            dest.store(log, key, entry.value, entry.bound, entry.best, nodes);
        }
    }

    /// Backs every page of the table with memory now, so that no later search meets a page
    /// fault in it: for a table that is reused and timed (benchmarks, a server's engines).
    pub fn ready(&self) {
        if TOUCH_PAGES && !self.touched.swap(true, Ordering::AcqRel) {
            let words = &self.storage[self.base..];
            // SAFETY: the words are the table's own, alive for the call.
            unsafe { populate(words.as_ptr(), words.len()) };
        }
    }

    /// Whether every page of the table has been backed with memory ([`Table::ready`]).
    pub fn is_ready(&self) -> bool {
        !TOUCH_PAGES || self.touched.load(Ordering::Acquire)
    }

    /// Memory held by the table, in bytes.
    pub fn bytes(&self) -> usize {
        self.storage.len() * 8
    }

    /// Bytes of the table's slots (without the padding that aligns them).
    fn slot_bytes(&self) -> usize {
        (self.storage.len() - self.base) * 8
    }

    /// The number of entries the table can hold.
    pub fn slots(&self) -> usize {
        (self.storage.len() - self.base) / self.stride
    }

    /// What a saved table must match to load into this one: buckets, slots per bucket, and
    /// words per slot.
    pub fn geometry(&self) -> [u64; 3] {
        [self.buckets, self.ways as u64, self.stride as u64]
    }

    /// Bytes [`Table::save`] writes.
    pub fn saved_bytes(&self) -> u64 {
        (self.storage.len() - self.base) as u64 * 8
    }

    /// Writes every slot (little-endian words), adding them to `crc`. Searches may run
    /// meanwhile: each entry written is one that was in the table (a wide slot that a writer
    /// holds is written empty), and any mix of entries is a valid table.
    ///
    /// # Errors
    /// The first error of `out`.
    pub fn save(&self, out: &mut dyn Write, crc: &mut crc32fast::Hasher) -> io::Result<()> {
        const CHUNK: usize = 1 << 16;
        let mut bytes = Vec::with_capacity(CHUNK * 8);
        let slots = self.slots();
        for first in (0..slots).step_by(CHUNK / self.stride) {
            bytes.clear();
            for slot in first..slots.min(first + CHUNK / self.stride) {
                let words = if !self.is_wide() {
                    [self.word(slot), 0, 0, 0]
                } else {
                    match self.read_wide(slot) {
                        Some((word, key)) => [word, 0, key as u64, (key >> 64) as u64],
                        None => [0; 4],
                    }
                };
                for word in &words[..self.stride] {
                    bytes.extend_from_slice(&word.to_le_bytes());
                }
            }
            crc.update(&bytes);
            out.write_all(&bytes)?;
        }
        Ok(())
    }

    /// Fills the table from what [`Table::save`] wrote for a table of the same geometry,
    /// adding the bytes to `crc`; call it while no search runs.
    ///
    /// # Errors
    /// The first error of `input`, an end of input before the table is full among them.
    pub fn restore(&self, input: &mut dyn Read, crc: &mut crc32fast::Hasher) -> io::Result<()> {
        self.ready();
        let mut bytes = vec![0u8; 1 << 19];
        self.restored.store(true, Ordering::Relaxed);
        for chunk in self.storage[self.base..].chunks(bytes.len() / 8) {
            let bytes = &mut bytes[..chunk.len() * 8];
            input.read_exact(bytes)?;
            crc.update(bytes);
            for (word, b) in chunk.iter().zip(bytes.chunks_exact(8)) {
                word.store(
                    u64::from_le_bytes(b.try_into().expect("8 bytes")),
                    Ordering::Relaxed,
                );
            }
        }
        if self.is_wide() {
            // No writer holds a slot of a table just loaded.
            for slot in 0..self.slots() {
                self.at(slot, SEQ).store(0, Ordering::Relaxed);
            }
        }
        Ok(())
    }

    /// Empties every slot; call it while no search runs.
    pub fn forget_all(&self) {
        for word in &self.storage {
            word.store(0, Ordering::Relaxed);
        }
    }

    /// Word `field` of `slot` (0 is the entry).
    #[inline(always)]
    fn at(&self, slot: usize, field: usize) -> &AtomicU64 {
        &self.storage[self.base + slot * self.stride + field]
    }

    #[inline(always)]
    fn is_wide(&self) -> bool {
        self.stride != 1
    }

    /// A log for one searcher's writes, sized so that clearing by log beats a sweep.
    pub fn write_log(&self) -> WriteLog {
        WriteLog {
            slots: Vec::with_capacity((self.slots() / TOUCH_SHARE).max(1024)),
            overflow: false,
        }
    }

    /// Forgets the entries written under `log` (every entry, if the log overflowed) and empties
    /// the log. Clearing with every searcher's log forgets the whole table. Call it only while
    /// no search runs on the table.
    pub fn clear(&self, log: &mut WriteLog) {
        if log.overflow || self.restored.swap(false, Ordering::Relaxed) {
            self.forget_all();
        } else {
            for &i in &log.slots {
                self.at(i as usize, 0).store(0, Ordering::Relaxed);
            }
        }
        log.slots.clear();
        log.overflow = false;
    }

    #[inline(always)]
    fn bucket(&self, key: u128) -> usize {
        let b = if key >> 64 == 0 {
            self.reduce.remainder(key as u64)
        } else {
            // (high * 2^64 + low) mod P from three remainders below 2^32 (P < 2^32): no
            // 128-bit division.
            let high = self.reduce.remainder((key >> 64) as u64);
            let low = self.reduce.remainder(key as u64);
            self.reduce.remainder(high * self.pow64 + low)
        };
        b as usize * self.ways
    }

    #[inline(always)]
    fn word(&self, slot: usize) -> u64 {
        self.at(slot, 0).load(Ordering::Relaxed)
    }

    /// The entry word of `slot` if it holds `key`, else 0.
    #[inline(always)]
    fn read(&self, slot: usize, key: u128) -> u64 {
        if !self.is_wide() {
            let word = self.word(slot);
            return if word & CHECK_MASK == key as u64 & CHECK_MASK {
                word
            } else {
                0
            };
        }
        match self.read_wide(slot) {
            Some((word, full)) if full == key && word & CHECK_MASK == key as u64 & CHECK_MASK => {
                word
            }
            _ => 0,
        }
    }

    /// The word and full key of a wide slot, or `None` if a writer held or changed the slot
    /// meanwhile.
    #[inline]
    fn read_wide(&self, slot: usize) -> Option<(u64, u128)> {
        let seq = self.at(slot, SEQ).load(Ordering::Acquire);
        if seq & 1 != 0 {
            return None;
        }
        let word = self.word(slot);
        let full = self.at(slot, KEY_LOW).load(Ordering::Relaxed) as u128
            | (self.at(slot, KEY_HIGH).load(Ordering::Relaxed) as u128) << 64;
        fence(Ordering::Acquire);
        (self.at(slot, SEQ).load(Ordering::Relaxed) == seq).then_some((word, full))
    }

    /// Starts loading the bucket of `key` into the cache, ahead of a probe.
    #[inline(always)]
    pub fn prefetch(&self, key: u128) {
        // Elsewhere (the web) there is no prefetch instruction to give.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
        #[cfg(target_arch = "x86_64")]
        if self.buckets != 0 {
            let slot = self.bucket(key);
            // SAFETY: prefetching is a hint; the address is inside our own vector.
            unsafe {
                use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                _mm_prefetch::<_MM_HINT_T0>(
                    self.storage.as_ptr().add(self.base + slot * self.stride) as *const i8,
                );
            }
        }
    }

    /// The entry stored for `key`, if any.
    #[inline(always)]
    pub fn probe(&self, key: u128) -> Option<Entry> {
        if self.buckets == 0 {
            return None;
        }
        let first = self.bucket(key);
        let mut word = self.read(first, key);
        if word == 0 && self.ways == 2 {
            word = self.read(first + 1, key);
        }
        (word != 0).then(|| unpack(word))
    }

    /// Stores a result; `nodes` is the size of the subtree that produced it. The slots written
    /// go to `log`.
    #[inline]
    pub fn store(
        &self,
        log: &mut WriteLog,
        key: u128,
        value: i32,
        bound: Bound,
        best: Option<u16>,
        nodes: u64,
    ) {
        if self.buckets == 0 {
            return;
        }
        debug_assert!((-128..128).contains(&value));
        let work = (64 - nodes.leading_zeros()).min(MAX_WORK) as u64;
        debug_assert!(best.is_none_or(|c| (c as u64) < MOVE_MASK));
        let code = best.map_or(0, |c| c as u64 + 1);
        let word = (key as u64 & CHECK_MASK)
            | ((value as i8 as u8 as u64) << VALUE_SHIFT)
            | ((bound as u64) << BOUND_SHIFT)
            | (code << MOVE_SHIFT)
            | (work << WORK_SHIFT);
        let first = self.bucket(key);
        let slot = match self.scheme {
            Scheme::New => first,
            Scheme::Big => {
                let old = self.word(first);
                if old != 0 && self.read(first, key) == 0 && old >> WORK_SHIFT > work {
                    return;
                }
                first
            }
            Scheme::TwoBig => {
                let old = self.word(first);
                if old == 0 || self.read(first, key) != 0 {
                    first
                } else if old >> WORK_SHIFT <= work {
                    // The displaced entry moves to the second slot, which always takes the newest.
                    if !self.is_wide() {
                        self.write(log, first + 1, old, 0);
                    } else if let Some((old, old_key)) = self.read_wide(first) {
                        self.write(log, first + 1, old, old_key);
                    }
                    first
                } else {
                    first + 1
                }
            }
        };
        self.write(log, slot, word, key);
    }

    #[inline(always)]
    fn write(&self, log: &mut WriteLog, slot: usize, word: u64, key: u128) {
        let entry = self.at(slot, 0);
        if !self.is_wide() {
            entry.store(word, Ordering::Relaxed);
        } else {
            let seq = self.at(slot, SEQ);
            let n = seq.load(Ordering::Relaxed);
            if n & 1 != 0
                || seq
                    .compare_exchange(n, n + 1, Ordering::Acquire, Ordering::Relaxed)
                    .is_err()
            {
                return; // another thread is writing this slot: keep its entry
            }
            entry.store(word, Ordering::Relaxed);
            self.at(slot, KEY_LOW).store(key as u64, Ordering::Relaxed);
            self.at(slot, KEY_HIGH)
                .store((key >> 64) as u64, Ordering::Relaxed);
            seq.store(n + 2, Ordering::Release);
        }
        log.push(slot);
    }
}

/// Bytes of the table a search starts on ([`GrowingTable`]).
pub const FIRST_TABLE_BYTES: usize = 4 << 20;
/// How much bigger each table of a [`GrowingTable`] is than the one before.
const GROWTH: usize = 4;
/// Nodes a search runs on a table of [`GrowingTable`] for each byte of it before it moves to
/// the next: a quarter, so 4 MiB lasts 2^20 nodes (a tenth of a second).
const NODES_PER_BYTE_SHIFT: u32 = 2;

/// A transposition table that grows with the search, so that a search costs the memory it
/// uses, not the memory it may use. The first touch of a table's pages is costly (a page
/// fault, the page zeroed), and a search's writes are spread over the whole table: a search of
/// 3 M nodes on a 1 GiB table touched all of it (8x4: 6.0 s against 2.0 s with 64 MiB). So a
/// search starts on a small table and, after a quarter of a node per byte of it, moves to one
/// 4x bigger, its entries copied over, up to the full table. The moves come at
/// node counts, not times: node counts are the same on every run and, until the full table is
/// reached, whatever its size. A table readied at once ([`GrowingTable::ready`]) starts full.
pub struct GrowingTable {
    /// The table searches use now.
    pub current: Arc<Table>,
    /// The full table while the searches are still on a smaller one.
    pending: Option<Arc<Table>>,
    /// Bytes asked for the table in use (a table rounds its size down to a prime count).
    current_bytes: usize,
    /// Nodes searched on the table in use, over every search since it was made.
    nodes: u64,
    key_bits: u32,
}

impl GrowingTable {
    /// The full `table`, with a small one in front of it if it is more than twice that.
    pub fn new(table: Table, key_bits: u32) -> GrowingTable {
        let first = (!table.is_ready() && table.slot_bytes() > 2 * FIRST_TABLE_BYTES)
            .then(|| Table::with_bytes(FIRST_TABLE_BYTES, table.scheme, key_bits, false))
            .flatten();
        match first {
            Some(first) => GrowingTable {
                current: Arc::new(first),
                pending: Some(Arc::new(table)),
                current_bytes: FIRST_TABLE_BYTES,
                nodes: 0,
                key_bits,
            },
            None => GrowingTable {
                current_bytes: table.slot_bytes(),
                current: Arc::new(table),
                pending: None,
                nodes: 0,
                key_bits,
            },
        }
    }

    /// The full table (the one saved and restored, whose size is reported).
    pub fn full(&self) -> &Arc<Table> {
        self.pending.as_ref().unwrap_or(&self.current)
    }

    /// Counts `nodes` more searched (every few thousand) and says when to move to a bigger
    /// table ([`GrowingTable::grow`]). The count runs over every search since the table was
    /// made, so a solver reused for many small searches grows too.
    #[inline]
    pub fn should_grow(&mut self, nodes: u64) -> bool {
        if self.pending.is_none() {
            return false;
        }
        self.nodes += nodes;
        self.nodes >= (self.current_bytes as u64) >> NODES_PER_BYTE_SHIFT
    }

    /// Moves to the next table, its entries copied over: one 4x bigger, or the
    /// full table when that one would be more than half of it. `log` is replaced by
    /// one for the new table. Call it while no search runs on either table.
    pub fn grow(&mut self, log: &mut WriteLog) {
        let Some(full) = &self.pending else {
            return;
        };
        let bytes = self.current_bytes * GROWTH;
        let next = if bytes * 2 > full.slot_bytes() {
            self.pending.take()
        } else {
            let scheme = self.current.scheme;
            Table::with_bytes(bytes, scheme, self.key_bits, true).map(Arc::new)
        };
        // A table the machine refuses now: the full one, allocated already.
        let next = next.unwrap_or_else(|| self.pending.take().expect("checked above"));
        self.move_to(next, bytes, log);
    }

    /// Moves to the full table at once: for a search on several threads, which cannot move
    /// while they run.
    pub fn grow_full(&mut self, log: &mut WriteLog) {
        if let Some(full) = self.pending.take() {
            let bytes = full.slot_bytes();
            self.move_to(full, bytes, log);
        }
    }

    fn move_to(&mut self, next: Arc<Table>, bytes: usize, log: &mut WriteLog) {
        *log = next.write_log();
        self.current.copy_into(&next, log);
        self.current = next;
        self.current_bytes = bytes;
        self.nodes = 0;
    }

    /// Backs the full table's pages with memory now and uses it from now on: for a table that
    /// is reused and timed.
    pub fn ready(&mut self, log: &mut WriteLog) {
        self.grow_full(log);
        self.current.ready();
    }
}

/// `base^exp mod m` (m below 2^64).
fn pow_mod(mut base: u128, mut exp: u128, m: u128) -> u128 {
    let mut result = 1 % m;
    base %= m;
    while exp > 0 {
        if exp & 1 == 1 {
            result = result * base % m;
        }
        base = base * base % m;
        exp >>= 1;
    }
    result
}

/// Whether [`Table::ready`] backs pages ahead of the searches: on the web the memory is the
/// module's own, already committed.
const TOUCH_PAGES: bool = !cfg!(target_family = "wasm");

/// Backs `len` words from `start` with writable memory, changing none: the kernel's populate
/// call, or else an atomic add of zero to a word of each page.
///
/// # Safety
/// The words must be inside one live allocation.
unsafe fn populate(start: *const AtomicU64, len: usize) {
    #[cfg(target_os = "linux")]
    {
        let (page, addr) = (4096, start as usize);
        let (first, last) = (addr.next_multiple_of(page), (addr + len * 8) / page * page);
        // SAFETY: the range lies inside the caller's allocation; populating changes no data.
        if last <= first
            || unsafe {
                libc::madvise(
                    first as *mut libc::c_void,
                    last - first,
                    libc::MADV_POPULATE_WRITE,
                )
            } == 0
        {
            // The partial pages at either end are touched below.
            for i in [0, len.saturating_sub(1)] {
                // SAFETY: inside the range.
                unsafe { (*start.add(i)).fetch_add(0, Ordering::Relaxed) };
            }
            return;
        }
    }
    const PAGE_WORDS: usize = 4096 / 8;
    for i in (0..len).step_by(PAGE_WORDS) {
        // SAFETY: inside the range.
        unsafe { (*start.add(i)).fetch_add(0, Ordering::Relaxed) };
    }
}

/// `key` mixed and mapped onto `0..n` (a multiply-shift range reduction): the slot of a key in
/// the tables that index by hash rather than by remainder.
#[inline(always)]
pub(crate) fn spread(key: u128, n: usize) -> usize {
    let mut h = (key as u64) ^ ((key >> 64) as u64).rotate_left(29);
    h = h.wrapping_mul(0x9e37_79b9_7f4a_7c15);
    h ^= h >> 29;
    h = h.wrapping_mul(0xbf58_476d_1ce4_e5b9);
    (((h as u128) * (n as u128)) >> 64) as usize
}

/// A zeroed vector of at least `words` entries and the offset at which an aligned run of them
/// starts. With `huge`, on Linux, the run is marked for transparent huge pages: a probe then
/// costs one cache miss instead of a cache miss and a page walk.
fn allocate(words: usize, huge: bool) -> Option<(Vec<AtomicU64>, usize)> {
    if words * 8 < HUGE_PAGE || !huge {
        return Some((zeroed(words)?, 0));
    }
    let storage = zeroed_huge::<AtomicU64>(words + HUGE_PAGE / 8)?;
    let misalignment = storage.as_ptr() as usize % HUGE_PAGE;
    let base = (HUGE_PAGE - misalignment) % HUGE_PAGE / 8;
    let mut storage = storage;
    storage.truncate(base + words);
    Some((storage, base))
}

#[inline(always)]
fn unpack(word: u64) -> Entry {
    let code = ((word >> MOVE_SHIFT) & MOVE_MASK) as u16;
    Entry {
        value: (word >> VALUE_SHIFT) as u8 as i8 as i32,
        bound: match (word >> BOUND_SHIFT) & 3 {
            1 => Bound::Lower,
            2 => Bound::Upper,
            _ => Bound::Exact,
        },
        best: code.checked_sub(1),
    }
}

/// The largest prime not above `n` (0 when there is none).
fn prev_prime(n: u64) -> u64 {
    let is_prime = |p: u64| {
        p >= 2
            && (2..)
                .take_while(|d| d * d <= p)
                .all(|d| !p.is_multiple_of(d))
    };
    (2..=n).rev().find(|&p| is_prime(p)).unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Minor page faults of the calling thread so far.
    #[cfg(target_os = "linux")]
    fn minor_faults() -> i64 {
        // SAFETY: getrusage writes the struct it is given.
        unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            assert_eq!(libc::getrusage(libc::RUSAGE_THREAD, &mut usage), 0);
            usage.ru_minflt
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_readied_table_takes_no_page_fault() {
        let t = Table::new(16, Scheme::TwoBig, 49);
        t.ready();
        assert!(t.is_ready());
        // A log with no room: it keeps nothing, and takes no memory.
        let mut log = WriteLog::default();
        let before = minor_faults();
        let mut key = 1u128;
        for _ in 0..(1 << 18) {
            key = (key * 6364136223846793005 + 1442695040888963407) % (1 << 49);
            t.store(&mut log, key, 1, Bound::Exact, None, 1);
            assert!(t.probe(key).is_some());
        }
        // 16 MiB of table, every part of it written: 4096 small pages or 8 huge ones had they
        // not been touched before. (The test's own stack may take a page or two.)
        let faults = minor_faults() - before;
        assert!(faults <= 4, "{faults} faults");
    }

    #[test]
    fn a_growing_table_grows_with_the_search_into_the_full_one() {
        let mib = |t: &Table| (t.slot_bytes() + (1 << 19)) >> 20;
        // The sizes it passes through, and the nodes searched before each move.
        let steps = |full_mb: usize| {
            let mut tables = GrowingTable::new(Table::new(full_mb, Scheme::TwoBig, 49), 49);
            let mut log = tables.current.write_log();
            let key = 0x1234_5678_9abc;
            tables
                .current
                .store(&mut log, key, 3, Bound::Exact, Some(2), 100);
            let (mut steps, mut nodes) = (vec![(mib(&tables.current), 0)], 0u64);
            while !Arc::ptr_eq(&tables.current, tables.full()) {
                nodes += 4096;
                if tables.should_grow(4096) {
                    tables.grow(&mut log);
                    steps.push((mib(&tables.current), nodes));
                    let entry = tables.current.probe(key).expect("the entry moves along");
                    assert_eq!((entry.value, entry.best), (3, Some(2)));
                }
            }
            steps
        };
        let m = 1 << 20;
        assert_eq!(
            steps(1024),
            [(4, 0), (16, m), (64, 5 * m), (256, 21 * m), (1024, 85 * m)]
        );
        // The same moves whatever the full size, until it is reached: the same node counts.
        assert_eq!(steps(64), [(4, 0), (16, m), (64, 5 * m)]);
        assert_eq!(steps(100), [(4, 0), (16, m), (100, 5 * m)]);
        assert_eq!(steps(16), [(4, 0), (16, m)]);
        // A small table is used whole from the start.
        assert_eq!(steps(8), [(8, 0)]);
    }

    #[test]
    fn a_copy_keeps_every_entry() {
        // Packed keys (found again from bucket and check bits) and wide ones (kept whole).
        for key_bits in [49, 100] {
            let small = Table::new(1, Scheme::TwoBig, key_bits);
            let large = Table::new(8, Scheme::TwoBig, key_bits);
            let (mut log, mut large_log) = (small.write_log(), large.write_log());
            let mut kept = Vec::new();
            let mut key = 7u128;
            for i in 0..20_000 {
                key = (key * 6364136223846793005 + 1442695040888963407) % (1 << key_bits.min(64));
                let key = key | (((i as u128) << 64) % (1u128 << key_bits));
                let bound = [Bound::Lower, Bound::Upper, Bound::Exact][i % 3];
                small.store(
                    &mut log,
                    key,
                    (i % 41) as i32 - 20,
                    bound,
                    Some((i % 7) as u16),
                    i as u64,
                );
                kept.push(key);
            }
            small.copy_into(&large, &mut large_log);
            // The large table may drop an entry where its own buckets collide, but never
            // answers another key's.
            let (mut found, mut copied) = (0, 0);
            for &key in &kept {
                if let Some(e) = small.probe(key) {
                    found += 1;
                    if let Some(copy) = large.probe(key) {
                        assert_eq!(copy, e, "key {key:#x}");
                        copied += 1;
                    }
                }
            }
            assert!(found > 10_000, "{found} entries");
            assert!(copied * 100 > found * 99, "{copied} of {found} copied");
        }
    }

    #[test]
    fn primes() {
        assert_eq!(prev_prime(1), 0);
        assert_eq!(prev_prime(10), 7);
        assert_eq!(prev_prime(1 << 23), 8388593);
    }

    #[test]
    fn never_answers_for_another_key() {
        for scheme in [Scheme::New, Scheme::Big, Scheme::TwoBig] {
            // A tiny table: many keys share a bucket and their low 40 bits.
            let t = Table::new(1, scheme, 49);
            let mut log = t.write_log();
            let p = t.buckets as u128;
            let a = 12345u128;
            let b = a + p * (1 << 40); // same bucket, same check bits: only CRT range keeps them apart
            assert!(b >= 1 << 49, "the colliding key lies outside the key space");
            t.store(&mut log, a, 3, Bound::Exact, Some(2), 10);
            assert_eq!(
                t.probe(a),
                Some(Entry {
                    value: 3,
                    bound: Bound::Exact,
                    best: Some(2)
                })
            );
            let c = a + p; // same bucket, other check bits
            assert_eq!(t.probe(c), None);
            t.clear(&mut log);
            assert_eq!(t.probe(a), None);
        }
    }

    #[test]
    fn every_move_code_and_score_round_trips() {
        let t = Table::new(1, Scheme::New, 49);
        let mut log = t.write_log();
        for code in [
            0u16,
            1,
            127,
            128,
            255,
            287,
            crate::game::MAX_MOVES as u16 - 1,
        ] {
            for value in [-128, -1, 0, 64, 127] {
                t.store(&mut log, 99, value, Bound::Upper, Some(code), u64::MAX);
                let e = t.probe(99).expect("stored");
                assert_eq!(
                    (e.value, e.bound, e.best),
                    (value, Bound::Upper, Some(code))
                );
            }
        }
    }

    #[test]
    fn wide_keys_are_checked_in_full() {
        let t = Table::new(1, Scheme::New, 128);
        let mut log = t.write_log();
        assert!(t.is_wide());
        let p = t.buckets as u128;
        let a = 77u128;
        let b = a + p * (1u128 << 40);
        t.store(&mut log, a, -5, Bound::Lower, None, 1);
        assert_eq!(t.probe(b), None);
        assert_eq!(t.probe(a).map(|e| e.value), Some(-5));
    }

    #[test]
    fn twobig_keeps_the_big_entry() {
        let t = Table::new(1, Scheme::TwoBig, 49);
        let mut log = t.write_log();
        let p = t.buckets as u128;
        t.store(&mut log, 1, 1, Bound::Exact, None, 1 << 20);
        t.store(&mut log, 1 + p, 2, Bound::Exact, None, 4);
        t.store(&mut log, 1 + 2 * p, 3, Bound::Exact, None, 4);
        assert_eq!(t.probe(1).map(|e| e.value), Some(1));
        assert_eq!(t.probe(1 + p), None);
        assert_eq!(t.probe(1 + 2 * p).map(|e| e.value), Some(3));
    }

    /// Threads hammer a small table with stores and probes of keys whose stored value is a
    /// function of the key: a hit with any other value would be a torn or foreign entry.
    #[test]
    fn shared_between_threads_never_torn() {
        for key_bits in [49, 128] {
            let t = Table::new(1, Scheme::TwoBig, key_bits);
            let value = |k: u128| (k % 251) as i32 - 125;
            std::thread::scope(|s| {
                for seed in 1..=4u64 {
                    let t = &t;
                    s.spawn(move || {
                        let mut log = t.write_log();
                        let mut x = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15);
                        for _ in 0..200_000 {
                            x ^= x << 13;
                            x ^= x >> 7;
                            x ^= x << 17;
                            // Few distinct keys, all colliding in few buckets, some wide.
                            let k = (x % 4096) as u128 * t.buckets as u128 / 7
                                + if key_bits > 64 {
                                    ((x % 3) as u128) << 90
                                } else {
                                    0
                                };
                            if x & 1 == 0 {
                                t.store(&mut log, k, value(k), Bound::Exact, Some(1), x % 1000);
                            } else if let Some(e) = t.probe(k) {
                                assert_eq!(e.value, value(k), "key {k}");
                                assert_eq!(e.best, Some(1));
                            }
                        }
                    });
                }
            });
        }
    }
}
