//! Sets of cells by rank: binomial coefficients, the colex rank of a set ([`Ranks`]) and back,
//! the next set of as many elements, and the cells of a mask at given positions.

use std::sync::OnceLock;

/// Binomial coefficients up to 40 (0 where `k > n`).
pub(super) fn choose(n: usize, k: usize) -> u64 {
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
pub(super) struct Ranks {
    /// `chunks[c][t][v]`: the part of the rank from the elements `v` of positions `10c` to
    /// `10c + 9`, after `t` smaller elements (64 rows, so that a masked count needs no check).
    chunks: Box<[[[u64; 1024]; 64]; 4]>,
}

impl Ranks {
    pub(super) fn get() -> &'static Ranks {
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
    pub(super) fn rank(&self, set: u64) -> u64 {
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
pub(super) fn unrank(mut r: u64, k: usize, n: usize) -> u64 {
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
pub(super) fn next_set(set: u64) -> u64 {
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
pub(super) fn members(set: u64, within: u64) -> u64 {
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

#[cfg(test)]
mod tests {
    use super::*;

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
