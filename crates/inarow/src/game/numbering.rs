//! A dense numbering of column-major boards, for retrograde analysis: every board maps to an
//! index below [`Grid::index_len`], mirror images to the same one, and the numbering can be
//! inverted. No position is stored.
//!
//! A column holding `h` discs is coded `2^h - 1 + b`, where bit `j` of `b` says whether the disc
//! in row `j` belongs to the side to move: exactly the column's field of Pons' key
//! `current + mask`. There are `R = 2^(height+1) - 1` codes. The left half of the board (columns
//! `0..W/2`, column `j` as digit `j` in base `R`) makes a number `a`, the right half read from
//! the edge inwards a number `b`; a mirror image swaps them. A board is numbered by the
//! unordered pair `lo <= hi` of `{a, b}` and, on an odd width, the middle column's code above
//! that. The pairs form a triangle of rows `hi = 0..S` (`S = R^(W/2)`) of `hi + 1` pairs each;
//! rows `hi` and `S - 1 - hi` together hold `S + 1` pairs, so the triangle folds into a
//! rectangle `S + 1` wide, and a pair's number is its row and column there (decoding needs one
//! division, no square root). The side to move is not part of the number: the key is relative
//! to it.

use super::bits::{Bits, Divisor};
use super::grid::Grid;

/// The numbering's constants for one board size.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) struct Numbering {
    /// `R`: codes a column can take.
    radix: Divisor,
    /// `S = R^(W/2)`: the numbers a half can make.
    span: u64,
    /// `S + 1`: the width of the folded triangle of pairs.
    row: Divisor,
    /// Unordered pairs of halves: `S * (S + 1) / 2`.
    pairs: Divisor,
    /// The number of indices.
    len: u64,
}

impl Numbering {
    /// `None` when the indices do not fit 64 bits.
    pub(crate) const fn new(width: u32, col_bits: u32) -> Option<Numbering> {
        if col_bits >= 64 {
            return None;
        }
        let radix = (1u64 << col_bits) - 1;
        let Some(span) = radix.checked_pow(width / 2) else {
            return None;
        };
        let Some(square) = (span as u128).checked_mul(span as u128 + 1) else {
            return None;
        };
        let pairs = square / 2;
        let Some(len) = pairs.checked_mul(if width % 2 == 1 { radix as u128 } else { 1 }) else {
            return None;
        };
        if len > u64::MAX as u128 {
            return None;
        }
        Some(Numbering {
            radix: Divisor::new(radix),
            span,
            row: Divisor::new(span + 1),
            pairs: Divisor::new(pairs as u64),
            len: len as u64,
        })
    }
}

impl Grid {
    #[inline(always)]
    fn numbers(&self) -> &Numbering {
        self.numbering
            .as_ref()
            .expect("numbered only when index_len is some")
    }

    /// Codes a column can take.
    #[inline(always)]
    fn radix(&self) -> u64 {
        (1u64 << self.col_bits()) - 1
    }

    /// The number of indices, or `None` when they do not fit 64 bits.
    pub fn index_len(&self) -> Option<u64> {
        self.numbering.map(|n| n.len)
    }

    /// The code of column `col` in a board key.
    #[inline(always)]
    fn column_code<B: Bits>(&self, key: B, col: u32) -> u64 {
        ((key >> (col * self.col_bits())).to_u128() as u64) & self.radix()
    }

    /// The index of a board key (`current + mask`, relative to the side to move); a board and
    /// its mirror image have the same. Only for boards whose [`Grid::index_len`] exists.
    #[inline]
    pub(crate) fn board_index<B: Bits>(&self, key: B) -> u64 {
        let (w, r) = (self.width, self.radix());
        let (mut a, mut b) = (0u64, 0u64);
        for j in (0..w / 2).rev() {
            a = a * r + self.column_code(key, j);
            b = b * r + self.column_code(key, w - 1 - j);
        }
        let (lo, hi) = if a <= b { (a, b) } else { (b, a) };
        let span = self.numbers().span;
        // The long rows (hi >= (S - 1) / 2) start the folded rows, the short ones end them.
        let index = if 2 * hi + 1 >= span {
            (span - 1 - hi) * (span + 1) + lo
        } else {
            hi * (span + 1) + span - hi + lo
        };
        if w % 2 == 1 {
            index + self.column_code(key, w / 2) * self.numbers().pairs.divisor()
        } else {
            index
        }
    }

    /// The board key of an index below [`Grid::index_len`] (of the two mirror images, the one
    /// whose left half makes the smaller number).
    pub(crate) fn board_at<B: Bits>(&self, index: u64) -> B {
        let (w, cb) = (self.width, self.col_bits());
        let numbers = self.numbers();
        let (middle, pair) = numbers.pairs.div_rem(index);
        let (row, column) = numbers.row.div_rem(pair);
        let span = numbers.span;
        let (mut a, mut b) = if column < span - row {
            (column, span - 1 - row)
        } else {
            (column - (span - row), row)
        };
        let mut key = B::ZERO;
        for j in 0..w / 2 {
            let (a_rest, a_digit) = numbers.radix.div_rem(a);
            let (b_rest, b_digit) = numbers.radix.div_rem(b);
            key |= B::from_u128(a_digit as u128) << (j * cb);
            key |= B::from_u128(b_digit as u128) << ((w - 1 - j) * cb);
            (a, b) = (a_rest, b_rest);
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
            let d = Grid::new(w, h, 2).unwrap();
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
        let d = Grid::new(3, 4, 2).unwrap();
        // Column 0 holds 2 discs, column 1 none, column 2 four (full).
        let mask: u64 = 0b11 | (0b1111 << 10);
        assert_eq!(d.tops(mask), 0b10 | (0b1000 << 10));
    }
}
