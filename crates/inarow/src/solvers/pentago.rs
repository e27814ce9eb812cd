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

use crate::game::pentago::{BOARD, QUADRANT, ROTATION_ONLY, base, gather, lines, turn};
use crate::game::{Game, MoveList, Pentago, Player, Status};
use crate::limits::{Started, Stop, count_nodes};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};

/// A set of rotation states: bit `r` for the state in which quadrant `q` has made
/// `(r >> 2q) & 3` quarter turns clockwise.
pub type States = [u64; 4];

const NONE: States = [0; 4];
const ALL: States = [!0; 4];

#[inline(always)]
fn and(a: States, b: States) -> States {
    std::array::from_fn(|i| a[i] & b[i])
}

#[inline(always)]
fn or(a: States, b: States) -> States {
    std::array::from_fn(|i| a[i] | b[i])
}

#[inline(always)]
fn has(s: &States, r: usize) -> bool {
    s[r >> 6] >> (r & 63) & 1 == 1
}

/// Where each player has five, state by state.
struct Fives {
    /// `by_orientation[q][m]`: the states in which quadrant `q` has made a number of turns
    /// in the 4-bit set `m`.
    by_orientation: [[States; 16]; 4],
    /// For each line: the quadrants it crosses, with, for each of their 512 nine-cell patterns,
    /// the turns after which the pattern covers the line's cells there.
    lines: Vec<Vec<(u32, [u8; 512])>>,
}

impl Fives {
    fn get() -> &'static Fives {
        static FIVES: OnceLock<Fives> = OnceLock::new();
        FIVES.get_or_init(|| {
            let by_orientation = std::array::from_fn(|q| {
                std::array::from_fn(|m| {
                    let mut s = NONE;
                    for r in 0..256 {
                        if m >> ((r >> (2 * q)) & 3) & 1 == 1 {
                            s[r >> 6] |= 1 << (r & 63);
                        }
                    }
                    s
                })
            });
            // Nine-cell patterns turned clockwise o times.
            let mut turned = [[0u16; 512]; 4];
            for p in 0..512 {
                let mut b = (p & 7 | (p >> 3 & 7) << 6 | (p >> 6 & 7) << 12) as u64;
                for t in turned.iter_mut() {
                    t[p] = gather(b, 0) as u16;
                    b = turn(b, 1);
                }
            }
            let lines = lines()
                .iter()
                .map(|&line| {
                    (0..4u32)
                        .filter(|&q| line & QUADRANT << base(q) != 0)
                        .map(|q| {
                            let need = gather(line, q) as u16;
                            let masks = std::array::from_fn(|p| {
                                (0..4).fold(0u8, |m, o| {
                                    m | (((turned[o][p] & need == need) as u8) << o)
                                })
                            });
                            (q, masks)
                        })
                        .collect()
                })
                .collect();
            Fives {
                by_orientation,
                lines,
            }
        })
    }

    /// The states in which the stones `side` (board cells, unturned) make five.
    fn of(&self, side: u64) -> States {
        let patterns = [0, 1, 2, 3].map(|q| gather(side, q));
        let mut out = NONE;
        'lines: for line in &self.lines {
            let mut s = ALL;
            for &(q, ref masks) in line {
                let m = masks[patterns[q as usize]];
                if m == 0 {
                    continue 'lines;
                }
                s = and(s, self.by_orientation[q as usize][m as usize]);
            }
            out = or(out, s);
        }
        out
    }
}

/// A set of the 128 rotation states of one turn parity (the parity of the total number of
/// quarter turns): bit `i` for the state `2i` or `2i + 1` of that parity. So bit 0 of `i` is
/// the high bit of quadrant 0's count (its low bit follows from the parity), and bits 1-2, 3-4
/// and 5-6 are the counts of quadrants 1, 2 and 3.
pub type Half = u128;

/// The parity of state `r`: that of its total number of quarter turns.
#[inline(always)]
fn parity_of(r: usize) -> usize {
    (r ^ r >> 2 ^ r >> 4 ^ r >> 6) & 1
}

/// The states of odd number selected by parity `p`: the state `2i + 1` where it has parity `p`.
fn odd_selected(p: usize) -> &'static States {
    static TABLE: OnceLock<[States; 2]> = OnceLock::new();
    &TABLE.get_or_init(|| {
        std::array::from_fn(|p| {
            let mut s = NONE;
            for r in (1..256).step_by(2).filter(|&r| parity_of(r) == p) {
                s[r >> 6] |= 1 << (r & 63);
            }
            s
        })
    })[p]
}

/// Bit `2j` of `x` to bit `j` (the odd bits are ignored).
fn compact(x: u64) -> u64 {
    let mut x = x & 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    (x | x >> 16) & 0xffff_ffff
}

/// The states of parity `p` in `x`, as a [`Half`]: each state of parity `p` moved to the even
/// slot of its pair, then the even slots gathered.
fn pack(x: &States, p: usize) -> Half {
    let odd = odd_selected(p);
    (0..4).fold(0, |h, w| {
        let evens = x[w] & !(odd[w] >> 1) | (x[w] & odd[w]) >> 1;
        h | (compact(evens) as u128) << (32 * w)
    })
}

/// Whether the half `h` holds the state `r` (of the half's parity).
#[inline(always)]
fn half_has(h: Half, r: usize) -> bool {
    h >> (r >> 1) & 1 == 1
}

/// Bits `i` of a 128-bit half where the two-bit field at `shift` of `i` is in `values` (a
/// 4-bit set).
const fn field_mask(shift: u32, values: u32) -> u128 {
    let mut m = 0u128;
    let mut i = 0;
    while i < 128 {
        if values >> ((i >> shift) & 3) & 1 == 1 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// `y[i] = x[i'] | x[i'']`, where `i'` and `i''` are `i` with the two-bit field at `SHIFT` one
/// up and one down (mod 4).
#[cfg(any(
    test,
    not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))
))]
#[inline(always)]
fn either_way<const SHIFT: u32>(x: Half) -> Half {
    let step = 1u32 << SHIFT;
    let up = (x >> step) & const { field_mask(SHIFT, 0b0111) }
        | (x << (3 * step)) & const { field_mask(SHIFT, 0b1000) };
    let down = (x << step) & const { field_mask(SHIFT, 0b1110) }
        | (x >> (3 * step)) & const { field_mask(SHIFT, 0b0001) };
    up | down
}

/// The states (of the other parity) from which one of the eight turns leads into `x`: what
/// the side that turns reaches with its best turn, if `x` is where it would be happy (the
/// reference for [`Lanes::any_turn`]).
#[cfg(any(
    test,
    not(any(
        target_arch = "x86_64",
        all(target_arch = "wasm32", target_feature = "simd128")
    ))
))]
#[inline(always)]
fn any_turn(x: Half) -> Half {
    // A quarter turn of quadrant 0 flips the low bit of its count, so either way it reaches
    // both values of the high bit, bit 0 of the index. The parity fixes the low bits of the
    // others.
    const LOW: u128 = field_mask(0, 0b0101);
    let q0 = x & LOW | (x >> 1) & LOW;
    (q0 | q0 << 1) | either_way::<1>(x) | either_way::<3>(x) | either_way::<5>(x)
}

/// A [`Half`] in a vector register where the processor has them (SSE2, every x86-64), so that
/// its operations are single instructions; else the integer itself.
#[derive(Copy, Clone)]
struct Lanes(Wide);

#[cfg(target_arch = "x86_64")]
type Wide = std::arch::x86_64::__m128i;
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
type Wide = std::arch::wasm32::v128;
#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
type Wide = Half;

#[cfg(target_arch = "x86_64")]
impl Lanes {
    #[inline(always)]
    fn of(h: Half) -> Lanes {
        // SAFETY: both are 16 bytes of plain bits.
        Lanes(unsafe { std::mem::transmute::<Half, Wide>(h) })
    }

    #[inline(always)]
    fn get(self) -> Half {
        // SAFETY: both are 16 bytes of plain bits.
        unsafe { std::mem::transmute::<Wide, Half>(self.0) }
    }

    #[inline(always)]
    fn or(self, o: Lanes) -> Lanes {
        use std::arch::x86_64::_mm_or_si128;
        // SAFETY: SSE2 is part of x86-64.
        Lanes(unsafe { _mm_or_si128(self.0, o.0) })
    }

    #[inline(always)]
    fn and(self, o: Lanes) -> Lanes {
        use std::arch::x86_64::_mm_and_si128;
        // SAFETY: SSE2 is part of x86-64.
        Lanes(unsafe { _mm_and_si128(self.0, o.0) })
    }

    /// `self & !o`.
    #[inline(always)]
    fn and_not(self, o: Lanes) -> Lanes {
        use std::arch::x86_64::_mm_andnot_si128;
        // SAFETY: SSE2 is part of x86-64.
        Lanes(unsafe { _mm_andnot_si128(o.0, self.0) })
    }

    #[inline(always)]
    fn not(self) -> Lanes {
        use std::arch::x86_64::{_mm_set1_epi32, _mm_xor_si128};
        // SAFETY: SSE2 is part of x86-64.
        Lanes(unsafe { _mm_xor_si128(self.0, _mm_set1_epi32(-1)) })
    }

    /// [`any_turn`] with lane operations: each quadrant's turns move bits within a byte
    /// (quadrants 0 and 1), within a 32-bit word (2) or between the words (3). With `FAST`
    /// (only inside [`bits::settle_fast`], compiled for AVX2), byte shuffles: quadrants 0 and 1
    /// act on each byte alone, by a map that takes unions to unions, so a table for each half
    /// byte gives it; quadrants 2 and 3 move whole bytes.
    #[inline(always)]
    fn any_turn<const FAST: bool>(self) -> Lanes {
        use std::arch::x86_64::*;
        let x = self.0;
        if FAST {
            const fn table(shift: u32) -> u128 {
                let mut t = 0u128;
                let mut n = 0;
                while n < 16 {
                    t |= (byte_turns(n << shift) as u128) << (8 * n);
                    n += 1;
                }
                t
            }
            /// Byte `j` of each 32-bit word from byte `j + step` (mod 4).
            const fn rotation(step: u32) -> u128 {
                let mut t = 0u128;
                let mut j = 0;
                while j < 16 {
                    t |= ((j & !3 | (j + step) & 3) as u128) << (8 * j);
                    j += 1;
                }
                t
            }
            let v = |m: u128| Lanes::of(m).0;
            // SAFETY: `FAST` is set only in code compiled for AVX2 (which has SSSE3's byte
            // shuffle), run after checking that the processor has it.
            return unsafe {
                let nibbles = _mm_set1_epi8(0x0f);
                let low = _mm_shuffle_epi8(v(const { table(0) }), _mm_and_si128(x, nibbles));
                let high = _mm_shuffle_epi8(
                    v(const { table(4) }),
                    _mm_and_si128(_mm_srli_epi16::<4>(x), nibbles),
                );
                let q2 = _mm_or_si128(
                    _mm_shuffle_epi8(x, v(const { rotation(1) })),
                    _mm_shuffle_epi8(x, v(const { rotation(3) })),
                );
                let q3 = _mm_or_si128(
                    _mm_shuffle_epi32::<0b00_11_10_01>(x),
                    _mm_shuffle_epi32::<0b10_01_00_11>(x),
                );
                Lanes(_mm_or_si128(_mm_or_si128(low, high), _mm_or_si128(q2, q3)))
            };
        }
        let mask = |m: u128| Lanes::of(m).0;
        // SAFETY: SSE2 is part of x86-64.
        unsafe {
            // Quadrant 0: both values of bit 0.
            let q0 = _mm_and_si128(
                _mm_or_si128(x, _mm_srli_epi64::<1>(x)),
                mask(const { field_mask(0, 0b0101) }),
            );
            let q0 = _mm_or_si128(q0, _mm_slli_epi64::<1>(q0));
            // Quadrant 1: the two-bit fields at bit 1 of each byte, rotated both ways.
            let q1 = _mm_or_si128(
                _mm_or_si128(
                    _mm_and_si128(
                        _mm_srli_epi16::<2>(x),
                        mask(const { field_mask(1, 0b0111) }),
                    ),
                    _mm_and_si128(
                        _mm_slli_epi16::<6>(x),
                        mask(const { field_mask(1, 0b1000) }),
                    ),
                ),
                _mm_or_si128(
                    _mm_and_si128(
                        _mm_slli_epi16::<2>(x),
                        mask(const { field_mask(1, 0b1110) }),
                    ),
                    _mm_and_si128(
                        _mm_srli_epi16::<6>(x),
                        mask(const { field_mask(1, 0b0001) }),
                    ),
                ),
            );
            // Quadrant 2: the bytes of each 32-bit word, rotated both ways.
            let q2 = _mm_or_si128(
                _mm_or_si128(_mm_srli_epi32::<8>(x), _mm_slli_epi32::<24>(x)),
                _mm_or_si128(_mm_slli_epi32::<8>(x), _mm_srli_epi32::<24>(x)),
            );
            // Quadrant 3: the 32-bit words, rotated both ways.
            let q3 = _mm_or_si128(
                _mm_shuffle_epi32::<0b00_11_10_01>(x),
                _mm_shuffle_epi32::<0b10_01_00_11>(x),
            );
            Lanes(_mm_or_si128(_mm_or_si128(q0, q1), _mm_or_si128(q2, q3)))
        }
    }
}

/// The lanes in a wasm simd128 register (the web build): the SSE2 path's operations, one
/// for one.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
impl Lanes {
    #[inline(always)]
    fn of(h: Half) -> Lanes {
        Lanes(std::arch::wasm32::u64x2(h as u64, (h >> 64) as u64))
    }

    #[inline(always)]
    fn get(self) -> Half {
        use std::arch::wasm32::u64x2_extract_lane;
        u64x2_extract_lane::<0>(self.0) as Half | (u64x2_extract_lane::<1>(self.0) as Half) << 64
    }

    #[inline(always)]
    fn or(self, o: Lanes) -> Lanes {
        Lanes(std::arch::wasm32::v128_or(self.0, o.0))
    }

    #[inline(always)]
    fn and(self, o: Lanes) -> Lanes {
        Lanes(std::arch::wasm32::v128_and(self.0, o.0))
    }

    /// `self & !o`.
    #[inline(always)]
    fn and_not(self, o: Lanes) -> Lanes {
        Lanes(std::arch::wasm32::v128_andnot(self.0, o.0))
    }

    #[inline(always)]
    fn not(self) -> Lanes {
        Lanes(std::arch::wasm32::v128_not(self.0))
    }

    /// [`any_turn`] with lane operations, as the SSE2 path (quadrants 0 and 1 within a byte,
    /// 2 within a 32-bit word, 3 between the words).
    #[inline(always)]
    fn any_turn<const FAST: bool>(self) -> Lanes {
        use std::arch::wasm32::*;
        let x = self.0;
        let mask = |m: u128| Lanes::of(m).0;
        // Quadrant 0: both values of bit 0.
        let q0 = v128_and(
            v128_or(x, u64x2_shr(x, 1)),
            mask(const { field_mask(0, 0b0101) }),
        );
        let q0 = v128_or(q0, i64x2_shl(q0, 1));
        // Quadrant 1: the two-bit fields at bit 1 of each byte, rotated both ways.
        let q1 = v128_or(
            v128_or(
                v128_and(u16x8_shr(x, 2), mask(const { field_mask(1, 0b0111) })),
                v128_and(i16x8_shl(x, 6), mask(const { field_mask(1, 0b1000) })),
            ),
            v128_or(
                v128_and(i16x8_shl(x, 2), mask(const { field_mask(1, 0b1110) })),
                v128_and(u16x8_shr(x, 6), mask(const { field_mask(1, 0b0001) })),
            ),
        );
        // Quadrant 2: the bytes of each 32-bit word, rotated both ways.
        let q2 = v128_or(
            v128_or(u32x4_shr(x, 8), i32x4_shl(x, 24)),
            v128_or(i32x4_shl(x, 8), u32x4_shr(x, 24)),
        );
        // Quadrant 3: the 32-bit words, rotated both ways.
        let q3 = v128_or(
            i32x4_shuffle::<1, 2, 3, 0>(x, x),
            i32x4_shuffle::<3, 0, 1, 2>(x, x),
        );
        Lanes(v128_or(v128_or(q0, q1), v128_or(q2, q3)))
    }
}

#[cfg(not(any(
    target_arch = "x86_64",
    all(target_arch = "wasm32", target_feature = "simd128")
)))]
impl Lanes {
    #[inline(always)]
    fn of(h: Half) -> Lanes {
        Lanes(h)
    }
    #[inline(always)]
    fn get(self) -> Half {
        self.0
    }
    #[inline(always)]
    fn or(self, o: Lanes) -> Lanes {
        Lanes(self.0 | o.0)
    }
    #[inline(always)]
    fn and(self, o: Lanes) -> Lanes {
        Lanes(self.0 & o.0)
    }
    #[inline(always)]
    fn and_not(self, o: Lanes) -> Lanes {
        Lanes(self.0 & !o.0)
    }
    #[inline(always)]
    fn not(self) -> Lanes {
        Lanes(!self.0)
    }
    #[inline(always)]
    fn any_turn<const FAST: bool>(self) -> Lanes {
        Lanes(any_turn(self.0))
    }
}

/// The turns of quadrants 0 and 1 on one byte of a [`Half`] (its bits are the states with
/// the same counts of quadrants 2 and 3): bit `i` gets bit `i` with bit 0 either way (quadrant
/// 0) and bits `i` with the count in bits 1-2 one up and one down (quadrant 1).
#[cfg(any(test, target_arch = "x86_64"))]
const fn byte_turns(x: u32) -> u8 {
    let mut y = 0;
    let mut i = 0;
    while i < 8 {
        let from = [i & 6, i | 1, i & 1 | (i + 2) & 6, i & 1 | (i + 6) & 6];
        let mut f = 0;
        while f < 4 {
            if x >> from[f] & 1 == 1 {
                y |= 1 << i;
            }
            f += 1;
        }
        i += 1;
    }
    y
}

/// Binomial coefficients up to 40 (0 where `k > n`).
fn choose(n: usize, k: usize) -> u64 {
    static TABLE: OnceLock<[[u64; 41]; 41]> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = [[0u64; 41]; 41];
        for n in 0..41 {
            t[n][0] = 1;
            for k in 1..=n {
                t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            }
        }
        t
    });
    if k > n { 0 } else { t[n][k] }
}

/// Colex ranks of sets of up to 40 positions, ten bits at a time: the rank is
/// `sum of choose(e_i, i + 1)` over the elements `e_0 < e_1 < ...`.
struct Ranks {
    /// `chunks[c][t][v]`: the part of the rank from the elements `v` of positions `10c` to
    /// `10c + 9`, after `t` smaller elements (64 rows, so that a masked count needs no check).
    chunks: Box<[[[u64; 1024]; 64]; 4]>,
}

impl Ranks {
    fn get() -> &'static Ranks {
        static RANKS: OnceLock<Ranks> = OnceLock::new();
        RANKS.get_or_init(|| {
            let mut chunks: Box<[[[u64; 1024]; 64]; 4]> = vec![[[0; 1024]; 64]; 4]
                .into_boxed_slice()
                .try_into()
                .unwrap();
            for (c, chunk) in chunks.iter_mut().enumerate() {
                // At most 10c elements lie below chunk c; the other rows are never read.
                for (t, row) in chunk.iter_mut().enumerate().take(10 * c + 1) {
                    for v in 1..1024usize {
                        // The highest element is the last in increasing order.
                        let top = 63 - (v as u64).leading_zeros() as usize;
                        let rest = v & !(1 << top);
                        row[v] = row[rest] + choose(10 * c + top, t + v.count_ones() as usize);
                    }
                }
            }
            Ranks { chunks }
        })
    }

    /// The colex rank of `set` (of at most 40 positions) among the sets of as many positions.
    #[inline(always)]
    fn rank(&self, set: u64) -> u64 {
        let below = |bits: u32| (set & ((1 << bits) - 1)).count_ones() as usize & 63;
        let part = |c: u32| (set >> (10 * c) & 1023) as usize;
        let mut r = self.chunks[0][0][part(0)];
        if set >> 10 != 0 {
            r += self.chunks[1][below(10)][part(1)];
            if set >> 20 != 0 {
                r += self.chunks[2][below(20)][part(2)] + self.chunks[3][below(30)][part(3)];
            }
        }
        r
    }
}

/// The set of `k` positions of colex rank `r` among `n`.
fn unrank(mut r: u64, k: usize, n: usize) -> u64 {
    let mut set = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        let mut c = top - 1;
        while choose(c, i) > r {
            c -= 1;
        }
        set |= 1 << c;
        r -= choose(c, i);
        top = c;
    }
    set
}

/// The next set of as many elements in colex order (the next larger number with as many bits:
/// Gosper's hack, with a shift for the division); the empty set stays empty.
#[inline(always)]
fn next_set(set: u64) -> u64 {
    if set == 0 {
        return 0;
    }
    let low = set & set.wrapping_neg();
    let ripple = set + low;
    (((ripple ^ set) >> 2) >> low.trailing_zeros()) | ripple
}

/// The members of `within` at the positions `set` (the lowest set bit of `within` is
/// position 0).
#[inline]
fn members(set: u64, within: u64) -> u64 {
    let mut out = 0;
    let mut w = within;
    let mut i = 0;
    while w != 0 {
        let low = w & w.wrapping_neg();
        if set >> i & 1 == 1 {
            out |= low;
        }
        w ^= low;
        i += 1;
    }
    out
}

/// The fillings of one level: `k` of the frame's `m` cells, `a = ceil(k / 2)` of them the
/// level-0 mover's (the first side) and `b = floor(k / 2)` the other side's. They form a table:
/// a row for each set of cells of the first side (its colex rank among the frame's cells), a
/// column for each set of the second side among the `m - a` cells the first side leaves (the
/// colex rank of their positions there).
#[derive(Copy, Clone)]
struct Level {
    k: usize,
    a: usize,
    b: usize,
    m: usize,
}

impl Level {
    fn new(m: usize, k: usize) -> Level {
        Level {
            k,
            a: k.div_ceil(2),
            b: k / 2,
            m,
        }
    }

    fn rows(&self) -> u64 {
        choose(self.m, self.a)
    }

    fn cols(&self) -> u64 {
        choose(self.m.saturating_sub(self.a), self.b)
    }

    fn len(&self) -> u64 {
        self.rows() * self.cols()
    }
}

/// A child of a filling: its column in the level below, and the position of its cell among
/// the cells the first side leaves (where the first side places, the child's row follows from
/// it).
#[derive(Copy, Clone, Default)]
struct Child {
    col: u32,
    at: u32,
}

/// The children of every column of `level`: for column `t`, the `m - k` children at
/// `t * (m - k)..`, by increasing cell. A column's children are the same in every row: where
/// the first side places (`k` even) the second side's cells lose the position of the new
/// stone, where the second side places they gain it.
fn children_by_column(level: Level, ranks: &Ranks) -> Vec<Child> {
    let Level { k, a, b, m } = level;
    if k == m {
        return Vec::new();
    }
    let child = Level::new(m, k + 1);
    assert!(child.cols() <= u32::MAX as u64, "columns beyond 32 bits");
    let width = m - a;
    let mut out = Vec::with_capacity(level.cols() as usize * (m - k));
    let mut set = (1u64 << b) - 1;
    for _ in 0..level.cols() {
        for j in (0..width).filter(|&j| set >> j & 1 == 0) {
            let below = set & ((1 << j) - 1);
            let cells = if k.is_multiple_of(2) {
                below | (set >> (j + 1)) << j
            } else {
                set | 1 << j
            };
            out.push(Child {
                col: ranks.rank(cells) as u32,
                at: j as u32,
            });
        }
        set = next_set(set);
    }
    out
}

/// The fives of one player's stones over the fillings of `size` frame cells, by the rank of
/// the set of cells, in both parities.
struct FiveTable {
    /// `by_parity[p][rank]`: the states of parity `p` in which the stones make five.
    by_parity: [Vec<Half>; 2],
}

impl FiveTable {
    fn new(fives: &Fives, frame: &Frame, stones: u64, size: usize) -> FiveTable {
        let count = choose(frame.m, size) as usize;
        let mut by_parity = [Vec::with_capacity(count), Vec::with_capacity(count)];
        let mut set = (1u64 << size) - 1;
        for _ in 0..count {
            let all = fives.of(stones | members(set, frame.cells));
            by_parity[0].push(pack(&all, 0));
            by_parity[1].push(pack(&all, 1));
            set = next_set(set);
        }
        FiveTable { by_parity }
    }
}

/// The frame: the root's empty cells, and the root's stones of the level-0 mover and of the
/// other side.
struct Frame {
    cells: u64,
    m: usize,
    first: u64,
    second: u64,
}

/// Which bit a sweep keeps: for the level-0 mover, whether it wins (`Win`) or does not lose
/// (`NotLose`); the other side's bit is the other one.
#[derive(Copy, Clone, PartialEq, Eq)]
enum Sweep {
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

/// The rotation state `r` with quadrant `q` turned once more.
#[inline]
fn turn_state(r: usize, q: u32, clockwise: bool) -> usize {
    let shift = 2 * q;
    let o = (r >> shift) & 3;
    let o = if clockwise { (o + 1) & 3 } else { (o + 3) & 3 };
    r & !(3 << shift) | o << shift
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

/// What one sweep leaves of the top two levels: the level-0 mover's own value at the root,
/// and the other side's own value after each of the level-0 mover's placements (by frame
/// position).
struct Top {
    level0: Half,
    level1: Vec<Half>,
}

/// The buffer of two adjacent levels for a frame of `m` cells, `N` bits a state, on ordinary
/// pages: the levels are read and written in streams, so huge pages save no page walks, and
/// asking for them made the kernel compact memory at the first touch (0.3-1.4 s of system
/// time at 18 stones, against 0.25 s without).
fn buffer<const N: usize>(m: usize) -> Result<Vec<[Half; N]>, Stop> {
    let width = buffer_len(m) as usize;
    crate::memory::zeroed(width)
        .ok_or_else(|| Stop::MemoryNeeded(bytes_for(m, N as u64).div_ceil(1 << 20)))
}

/// One solve: the frame, its limits, the fives tables (built as the levels need them, kept for
/// every sweep) and the progress so far.
struct Run<'p, P: FnMut(u64, u64)> {
    frame: Frame,
    pending: usize,
    threads: usize,
    limits: Started,
    first_tables: Vec<Option<FiveTable>>,
    second_tables: Vec<Option<FiveTable>>,
    /// The children of each level's columns, by `k` (built as the levels need them).
    children: Vec<Option<Vec<Child>>>,
    done: u64,
    total: u64,
    progress: &'p mut P,
}

impl<P: FnMut(u64, u64)> Run<'_, P> {
    /// Settles every level, from the full board to the root, keeping one bit a state for each
    /// of `sweeps`; stops between levels once a limit is reached.
    fn sweep<const N: usize>(
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

#[cfg(test)]
mod tests {
    use super::*;

    fn random(seed: &mut u64) -> u64 {
        *seed ^= *seed << 13;
        *seed ^= *seed >> 7;
        *seed ^= *seed << 17;
        *seed
    }

    #[test]
    fn fives_by_state_are_the_turned_boards() {
        let fives = Fives::get();
        let mut seed = 99u64;
        for _ in 0..300 {
            let x = random(&mut seed);
            let side = (x | x >> 17) & BOARD;
            let by_state = fives.of(side);
            for r in 0..256 {
                let mut b = side;
                for q in 0..4 {
                    for _ in 0..(r >> (2 * q)) & 3 {
                        b = turn(b, 2 * q as u32 + 1);
                    }
                }
                assert_eq!(
                    has(&by_state, r),
                    crate::game::pentago::five(b),
                    "{side:x} {r}"
                );
            }
        }
    }

    #[test]
    fn halves_keep_the_states_of_their_parity() {
        let mut seed = 5u64;
        for _ in 0..200 {
            let x: States = std::array::from_fn(|_| random(&mut seed));
            for p in 0..2 {
                let h = pack(&x, p);
                for r in (0..256).filter(|&r| parity_of(r) == p) {
                    assert_eq!(half_has(h, r), has(&x, r), "{r} {p}");
                }
            }
        }
    }

    #[test]
    fn any_turn_reaches_back_from_every_turn() {
        let mut seed = 17u64;
        for _ in 0..200 {
            // Sparse sets, so that a wrong bit shows.
            let x = (random(&mut seed) & random(&mut seed)) as u128
                | ((random(&mut seed) & random(&mut seed)) as u128) << 64;
            let y = any_turn(x);
            for p in 0..2 {
                for r in (0..256).filter(|&r| parity_of(r) == 1 - p) {
                    let reaches = (0..4).any(|q| {
                        [false, true]
                            .into_iter()
                            .any(|c| half_has(x, turn_state(r, q, c)))
                    });
                    assert_eq!(half_has(y, r), reaches, "{x:x} {r}");
                }
            }
        }
    }

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

    #[test]
    fn ranks_count_the_sets_before() {
        let ranks = Ranks::get();
        for (n, k) in [(10, 4), (7, 7), (12, 5), (5, 0), (22, 11), (36, 3)] {
            let mut set = (1u64 << k) - 1;
            for r in 0..choose(n, k).min(5000) {
                assert_eq!(ranks.rank(set), r, "{n} {k}");
                assert_eq!(unrank(r, k, n), set, "{n} {k}");
                if set != 0 {
                    set = next_set(set);
                }
            }
        }
    }
}
