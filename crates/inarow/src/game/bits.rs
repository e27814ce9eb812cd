//! Bitboard words shared by the games: one trait over `u64` (the fast path) and `u128`.

use std::fmt::Debug;
use std::hash::Hash;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, Not, Shl, Shr};

/// An unsigned machine word used as a set of board cells.
pub trait Bits:
    Copy
    + Eq
    + Ord
    + Hash
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitAndAssign
    + BitOr<Output = Self>
    + BitOrAssign
    + BitXor<Output = Self>
    + Not<Output = Self>
    + Shl<u32, Output = Self>
    + Shr<u32, Output = Self>
{
    /// The empty set.
    const ZERO: Self;
    /// The set with only cell 0.
    const ONE: Self;
    /// The number of cells the word holds: 64 or 128.
    const BITS: u32;
    /// The number of cells in the set.
    fn count_ones(self) -> u32;
    /// The lowest cell of the set (`BITS` for the empty set).
    fn trailing_zeros(self) -> u32;
    /// Addition modulo `2^BITS`, the word read as an integer.
    fn wrapping_add(self, other: Self) -> Self;
    /// Subtraction modulo `2^BITS`, the word read as an integer.
    fn wrapping_sub(self, other: Self) -> Self;
    /// The same cells in a 128-bit word.
    fn to_u128(self) -> u128;
    /// Keeps the low `Self::BITS` bits.
    fn from_u128(v: u128) -> Self;

    /// The set with only `cell`.
    #[inline(always)]
    fn bit(cell: u32) -> Self {
        Self::ONE << cell
    }

    /// Whether the set holds two cells or more.
    #[inline(always)]
    fn has_several(self) -> bool {
        self & self.wrapping_sub(Self::ONE) != Self::ZERO
    }
}

macro_rules! impl_bits {
    ($t:ty) => {
        impl Bits for $t {
            const ZERO: Self = 0;
            const ONE: Self = 1;
            const BITS: u32 = <$t>::BITS;
            #[inline(always)]
            fn count_ones(self) -> u32 {
                <$t>::count_ones(self)
            }
            #[inline(always)]
            fn trailing_zeros(self) -> u32 {
                <$t>::trailing_zeros(self)
            }
            #[inline(always)]
            fn wrapping_add(self, other: Self) -> Self {
                <$t>::wrapping_add(self, other)
            }
            #[inline(always)]
            fn wrapping_sub(self, other: Self) -> Self {
                <$t>::wrapping_sub(self, other)
            }
            #[inline(always)]
            fn to_u128(self) -> u128 {
                self as u128
            }
            #[inline(always)]
            fn from_u128(v: u128) -> Self {
                v as $t
            }
        }
    };
}

impl_bits!(u64);
impl_bits!(u128);

/// Iterates over the cells of a set, lowest first.
pub fn cells<B: Bits>(mut set: B) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        if set == B::ZERO {
            None
        } else {
            let cell = set.trailing_zeros();
            set = set & set.wrapping_sub(B::ONE);
            Some(cell)
        }
    })
}

/// Division by a number chosen at run time, by multiplication (Lemire, Kaser & Kurz 2019,
/// with 128 bits of fraction): quotients exact for every 64-bit numerator.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Divisor {
    divisor: u64,
    /// ceil(2^128 / divisor); unused for 1.
    magic: u128,
}

impl Divisor {
    /// Division by `divisor` (0 is taken as 1).
    pub const fn new(divisor: u64) -> Divisor {
        Divisor {
            divisor,
            magic: if divisor < 2 {
                0
            } else {
                u128::MAX / divisor as u128 + 1
            },
        }
    }

    /// `(a / divisor, a % divisor)`.
    #[inline(always)]
    pub fn div_rem(&self, a: u64) -> (u64, u64) {
        if self.divisor < 2 {
            return (a, 0);
        }
        // WebAssembly has no 64x64->128 multiply: each u128 product is a library call, and its
        // own 64-bit division is the cheaper route there.
        if cfg!(target_arch = "wasm32") {
            return (a / self.divisor, a % self.divisor);
        }
        let (high, low) = (self.magic >> 64, self.magic & u64::MAX as u128);
        let q = ((a as u128 * high + ((a as u128 * low) >> 64)) >> 64) as u64;
        (q, a - q * self.divisor)
    }

    /// `a % divisor` directly from the fraction (Lemire et al.): exact when the divisor is
    /// below 2^32, and cheaper than [`Divisor::div_rem`].
    #[inline(always)]
    pub fn remainder(&self, a: u64) -> u64 {
        debug_assert!(self.divisor < 1 << 32);
        if self.divisor < 2 {
            return 0;
        }
        if cfg!(target_arch = "wasm32") {
            return a % self.divisor;
        }
        let low = self.magic.wrapping_mul(a as u128);
        let d = self.divisor as u128;
        (((((low & u64::MAX as u128) * d) >> 64) + (low >> 64) * d) >> 64) as u64
    }

    /// The number this divides by.
    pub fn divisor(&self) -> u64 {
        self.divisor
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn division_by_multiplication_is_exact() {
        for d in [
            1u64,
            2,
            3,
            7,
            63,
            127,
            3969,
            7_878_465,
            130_080_385,
            (1 << 33) + 17,
            u64::MAX,
        ] {
            let div = Divisor::new(d);
            for a in [
                0u64,
                1,
                d - 1,
                d,
                d + 1,
                12345678901234,
                u64::MAX - 1,
                u64::MAX,
            ] {
                assert_eq!(div.div_rem(a), (a / d, a % d), "{a} / {d}");
            }
        }
    }

    #[test]
    fn fast_remainder_is_exact() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for d in [2u64, 3, 7, 8388593, 4194301, 2147483647, 4294967291] {
            let r = Divisor::new(d);
            for a in [0, 1, d - 1, d, d + 1, u64::MAX, u64::MAX - 1, 1 << 49] {
                assert_eq!(r.remainder(a), a % d, "{a} mod {d}");
            }
            for _ in 0..10_000 {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                assert_eq!(r.remainder(x), x % d, "{x} mod {d}");
            }
        }
    }
}
