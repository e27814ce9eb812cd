//! The rotation states: a set of them as bits ([`States`], all 256; [`Half`], the 128 of one
//! turn parity), where each player's stones make five ([`Fives`]), and the states a turn leads
//! from, in a vector register where the processor has one ([`Lanes::any_turn`]).

use crate::game::pentago::{QUADRANT, base, gather, lines, turn};
use std::sync::OnceLock;

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
pub(super) fn has(s: &States, r: usize) -> bool {
    s[r >> 6] >> (r & 63) & 1 == 1
}

/// Where each player has five, state by state.
pub(super) struct Fives {
    /// `by_orientation[q][m]`: the states in which quadrant `q` has made a number of turns
    /// in the 4-bit set `m`.
    by_orientation: [[States; 16]; 4],
    /// For each line: the quadrants it crosses, with, for each of their 512 nine-cell patterns,
    /// the turns after which the pattern covers the line's cells there.
    lines: Vec<Vec<(u32, [u8; 512])>>,
}

impl Fives {
    pub(super) fn get() -> &'static Fives {
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
    pub(super) fn of(&self, side: u64) -> States {
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
pub(super) fn pack(x: &States, p: usize) -> Half {
    let odd = odd_selected(p);
    (0..4).fold(0, |h, w| {
        let evens = x[w] & !(odd[w] >> 1) | (x[w] & odd[w]) >> 1;
        h | (compact(evens) as u128) << (32 * w)
    })
}

/// Whether the half `h` holds the state `r` (of the half's parity).
#[inline(always)]
pub(super) fn half_has(h: Half, r: usize) -> bool {
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
pub(super) fn any_turn(x: Half) -> Half {
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
pub(super) struct Lanes(Wide);

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
    pub(super) fn of(h: Half) -> Lanes {
        // SAFETY: both are 16 bytes of plain bits.
        Lanes(unsafe { std::mem::transmute::<Half, Wide>(h) })
    }

    #[inline(always)]
    pub(super) fn get(self) -> Half {
        // SAFETY: both are 16 bytes of plain bits.
        unsafe { std::mem::transmute::<Wide, Half>(self.0) }
    }

    #[inline(always)]
    pub(super) fn or(self, o: Lanes) -> Lanes {
        use std::arch::x86_64::_mm_or_si128;
        // SAFETY: SSE2 is part of x86-64.
        Lanes(unsafe { _mm_or_si128(self.0, o.0) })
    }

    #[inline(always)]
    pub(super) fn and(self, o: Lanes) -> Lanes {
        use std::arch::x86_64::_mm_and_si128;
        // SAFETY: SSE2 is part of x86-64.
        Lanes(unsafe { _mm_and_si128(self.0, o.0) })
    }

    /// `self & !o`.
    #[inline(always)]
    pub(super) fn and_not(self, o: Lanes) -> Lanes {
        use std::arch::x86_64::_mm_andnot_si128;
        // SAFETY: SSE2 is part of x86-64.
        Lanes(unsafe { _mm_andnot_si128(o.0, self.0) })
    }

    #[inline(always)]
    pub(super) fn not(self) -> Lanes {
        use std::arch::x86_64::{_mm_set1_epi32, _mm_xor_si128};
        // SAFETY: SSE2 is part of x86-64.
        Lanes(unsafe { _mm_xor_si128(self.0, _mm_set1_epi32(-1)) })
    }

    /// [`any_turn`] with lane operations: each quadrant's turns move bits within a byte
    /// (quadrants 0 and 1), within a 32-bit word (2) or between the words (3). With `FAST`
    /// (only inside `sweep::bits::settle_fast`, compiled for AVX2), byte shuffles: quadrants 0
    /// and 1 act on each byte alone, by a map that takes unions to unions, so a table for each
    /// half byte gives it; quadrants 2 and 3 move whole bytes.
    #[inline(always)]
    pub(super) fn any_turn<const FAST: bool>(self) -> Lanes {
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
    pub(super) fn of(h: Half) -> Lanes {
        Lanes(std::arch::wasm32::u64x2(h as u64, (h >> 64) as u64))
    }

    #[inline(always)]
    pub(super) fn get(self) -> Half {
        use std::arch::wasm32::u64x2_extract_lane;
        u64x2_extract_lane::<0>(self.0) as Half | (u64x2_extract_lane::<1>(self.0) as Half) << 64
    }

    #[inline(always)]
    pub(super) fn or(self, o: Lanes) -> Lanes {
        Lanes(std::arch::wasm32::v128_or(self.0, o.0))
    }

    #[inline(always)]
    pub(super) fn and(self, o: Lanes) -> Lanes {
        Lanes(std::arch::wasm32::v128_and(self.0, o.0))
    }

    /// `self & !o`.
    #[inline(always)]
    pub(super) fn and_not(self, o: Lanes) -> Lanes {
        Lanes(std::arch::wasm32::v128_andnot(self.0, o.0))
    }

    #[inline(always)]
    pub(super) fn not(self) -> Lanes {
        Lanes(std::arch::wasm32::v128_not(self.0))
    }

    /// [`any_turn`] with lane operations, as the SSE2 path (quadrants 0 and 1 within a byte,
    /// 2 within a 32-bit word, 3 between the words).
    #[inline(always)]
    pub(super) fn any_turn<const FAST: bool>(self) -> Lanes {
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
    pub(super) fn of(h: Half) -> Lanes {
        Lanes(h)
    }
    #[inline(always)]
    pub(super) fn get(self) -> Half {
        self.0
    }
    #[inline(always)]
    pub(super) fn or(self, o: Lanes) -> Lanes {
        Lanes(self.0 | o.0)
    }
    #[inline(always)]
    pub(super) fn and(self, o: Lanes) -> Lanes {
        Lanes(self.0 & o.0)
    }
    #[inline(always)]
    pub(super) fn and_not(self, o: Lanes) -> Lanes {
        Lanes(self.0 & !o.0)
    }
    #[inline(always)]
    pub(super) fn not(self) -> Lanes {
        Lanes(!self.0)
    }
    #[inline(always)]
    pub(super) fn any_turn<const FAST: bool>(self) -> Lanes {
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

/// The rotation state `r` with quadrant `q` turned once more.
#[inline]
pub(super) fn turn_state(r: usize, q: u32, clockwise: bool) -> usize {
    let shift = 2 * q;
    let o = (r >> shift) & 3;
    let o = if clockwise { (o + 1) & 3 } else { (o + 3) & 3 };
    r & !(3 << shift) | o << shift
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::pentago::BOARD;
    use crate::solvers::pentago::random;

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
}
