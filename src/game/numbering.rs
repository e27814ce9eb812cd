//! A dense numbering of column-major boards, for retrograde analysis: every board maps to an
//! index below [`Dims::index_len`], mirror images to the same one, and the numbering can be
//! inverted. No position is stored.
//!
//! A column holding `h` discs is coded `2^h - 1 + b`, where bit `j` of `b` says whether the disc
//! in row `j` belongs to the side to move: exactly the column's field of Pons' key
//! `current + mask`. There are `R = 2^(height+1) - 1` codes. The left half of the board (columns
//! `0..W/2`, column `j` as digit `j` in base `R`) makes a number `a`, the right half read from
//! the edge inwards a number `b`; a mirror image swaps them. A board is numbered by the
//! unordered pair `{a, b}` (`hi * (hi + 1) / 2 + lo`) and, on an odd width, the middle column's
//! code above that. The side to move is not part of the number: the key is relative to it.

use super::bits::Bits;
use super::connect::Dims;

impl Dims {
    /// Codes a column can take.
    #[inline(always)]
    fn radix(&self) -> u64 {
        (1u64 << self.col_bits()) - 1
    }

    /// `R^(W/2)`: the numbers one half of the board can make.
    #[inline(always)]
    fn half_span(&self) -> u64 {
        self.radix().pow(self.width / 2)
    }

    /// Unordered pairs of halves.
    #[inline(always)]
    fn pairs(&self) -> u64 {
        let span = self.half_span();
        span * (span + 1) / 2
    }

    /// The number of indices, or `None` when they do not fit 64 bits.
    pub fn index_len(&self) -> Option<u64> {
        let radix = self.radix() as u128;
        let span = radix.checked_pow(self.width / 2)?;
        let pairs = span.checked_mul(span + 1)? / 2;
        let len = pairs.checked_mul(if self.width % 2 == 1 { radix } else { 1 })?;
        u64::try_from(len).ok()
    }

    /// The code of column `col` in a board key.
    #[inline(always)]
    fn column_code<B: Bits>(&self, key: B, col: u32) -> u64 {
        ((key >> (col * self.col_bits())).to_u128() as u64) & self.radix()
    }

    /// The index of a board key (`current + mask`, relative to the side to move); a board and
    /// its mirror image have the same. Only for boards whose [`Dims::index_len`] exists.
    #[inline]
    pub(crate) fn board_index<B: Bits>(&self, key: B) -> u64 {
        let (w, r) = (self.width, self.radix());
        let (mut a, mut b) = (0u64, 0u64);
        for j in (0..w / 2).rev() {
            a = a * r + self.column_code(key, j);
            b = b * r + self.column_code(key, w - 1 - j);
        }
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let index = hi * (hi + 1) / 2 + lo;
        if w % 2 == 1 {
            index + self.column_code(key, w / 2) * self.pairs()
        } else {
            index
        }
    }

    /// The board key of an index below [`Dims::index_len`] (of the two mirror images, the one
    /// whose left half makes the smaller number).
    pub(crate) fn board_at<B: Bits>(&self, index: u64) -> B {
        let (w, r, cb) = (self.width, self.radix(), self.col_bits());
        let pairs = self.pairs();
        let (middle, pair) = (index / pairs, index % pairs);
        let mut hi = (((8 * pair + 1) as f64).sqrt() as u64).saturating_sub(1) / 2;
        while hi * (hi + 1) / 2 > pair {
            hi -= 1;
        }
        while (hi + 1) * (hi + 2) / 2 <= pair {
            hi += 1;
        }
        let (mut a, mut b) = (pair - hi * (hi + 1) / 2, hi);
        let mut key = B::ZERO;
        for j in 0..w / 2 {
            key |= B::from_u128((a % r) as u128) << (j * cb);
            key |= B::from_u128((b % r) as u128) << ((w - 1 - j) * cb);
            a /= r;
            b /= r;
        }
        if w % 2 == 1 {
            key |= B::from_u128(middle as u128) << (w / 2 * cb);
        }
        key
    }

    /// Splits a board key into `(current, mask)`: the discs of the side to move and all discs.
    pub(crate) fn split_key<B: Bits>(&self, key: B) -> (B, B) {
        let cb = self.col_bits();
        let (mut current, mut mask) = (B::ZERO, B::ZERO);
        for c in 0..self.width {
            let code = self.column_code(key, c);
            let height = 63 - (code + 1).leading_zeros();
            let filled = (1u64 << height) - 1;
            mask |= B::from_u128(filled as u128) << (c * cb);
            current |= B::from_u128((code - filled) as u128) << (c * cb);
        }
        (current, mask)
    }

    /// Whether a board key is its own mirror image.
    #[inline(always)]
    pub(crate) fn is_symmetric<B: Bits>(&self, key: B) -> bool {
        self.mirror(key) == key
    }

    /// The columns a retrograde analysis tells apart: on a symmetric board, the left half and
    /// the middle (a move on the right leads to the mirror image of one on the left); else all.
    #[inline(always)]
    pub(crate) fn distinct_columns<B: Bits>(&self, key: B) -> B {
        if self.is_symmetric(key) {
            let columns = self.width.div_ceil(2);
            B::from_u128((1u128 << (columns * self.col_bits())) - 1) & self.board_bits()
        } else {
            self.board_bits()
        }
    }

    /// The highest disc of each column in `mask` that has one.
    #[inline(always)]
    pub(crate) fn tops<B: Bits>(&self, mask: B) -> B {
        // A column's empty cells (and its sentinel) above its discs: adding the bottom bit to
        // the discs gives the lowest empty cell; the top disc is the one just below it.
        (mask.wrapping_add(self.bottom_bits()) >> 1) & mask
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbering_is_a_bijection_up_to_mirror_images() {
        for (w, h) in [(3, 3), (4, 3), (3, 2), (5, 2), (1, 3)] {
            let d = Dims::new(w, h, 2).unwrap();
            let len = d.index_len().unwrap();
            let mut seen = vec![false; len as usize];
            // Every key of this size: every combination of column codes.
            let r = (1u64 << (h + 1)) - 1;
            for n in 0..r.pow(w) {
                let mut key = 0u64;
                let mut rest = n;
                for c in 0..w {
                    key |= (rest % r) << (c * (h + 1));
                    rest /= r;
                }
                let i = d.board_index(key);
                assert!(i < len, "{w}x{h}: index {i} of {len}");
                assert_eq!(i, d.board_index(d.mirror(key)));
                let back: u64 = d.board_at(i);
                assert!(back == key || back == d.mirror(key), "{w}x{h}: {key:#x}");
                seen[i as usize] = true;
                let (current, mask) = d.split_key(key);
                assert_eq!(current & !mask, 0);
                assert_eq!(current + mask, key);
            }
            assert!(seen.iter().all(|&s| s), "{w}x{h}: every index is used");
        }
    }

    #[test]
    fn tops_are_the_highest_discs() {
        let d = Dims::new(3, 4, 2).unwrap();
        // Column 0 holds 2 discs, column 1 none, column 2 four (full).
        let mask: u64 = 0b11 | (0b1111 << 10);
        assert_eq!(d.tops(mask), 0b10 | (0b1000 << 10));
    }
}
