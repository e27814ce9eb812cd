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
    const ZERO: Self;
    const ONE: Self;
    const BITS: u32;
    fn count_ones(self) -> u32;
    fn trailing_zeros(self) -> u32;
    fn wrapping_add(self, other: Self) -> Self;
    fn wrapping_sub(self, other: Self) -> Self;
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
