//! The layout of the fillings: the frame, a level as a table of rows and columns ([`Level`]),
//! the children of each column ([`children_by_column`]) and each player's fives by the rank of
//! the cells it fills ([`FiveTable`]).

use super::ranks::{Ranks, choose, members, next_set};
use super::states::{Fives, Half, pack};

/// The fillings of one level: `k` of the frame's `m` cells, `a = ceil(k / 2)` of them the
/// level-0 mover's (the first side) and `b = floor(k / 2)` the other side's. They form a table:
/// a row for each set of cells of the first side (its colex rank among the frame's cells), a
/// column for each set of the second side among the `m - a` cells the first side leaves (the
/// colex rank of their positions there).
#[derive(Copy, Clone)]
pub(super) struct Level {
    pub(super) k: usize,
    pub(super) a: usize,
    pub(super) b: usize,
    pub(super) m: usize,
}

impl Level {
    pub(super) fn new(m: usize, k: usize) -> Level {
        Level {
            k,
            a: k.div_ceil(2),
            b: k / 2,
            m,
        }
    }

    pub(super) fn rows(&self) -> u64 {
        choose(self.m, self.a)
    }

    pub(super) fn cols(&self) -> u64 {
        choose(self.m.saturating_sub(self.a), self.b)
    }

    pub(super) fn len(&self) -> u64 {
        self.rows() * self.cols()
    }
}

/// A child of a filling: its column in the level below, and the position of its cell among
/// the cells the first side leaves (where the first side places, the child's row follows from
/// it).
#[derive(Copy, Clone, Default)]
pub(super) struct Child {
    pub(super) col: u32,
    pub(super) at: u32,
}

/// The children of every column of `level`: for column `t`, the `m - k` children at
/// `t * (m - k)..`, by increasing cell. A column's children are the same in every row: where
/// the first side places (`k` even) the second side's cells lose the position of the new
/// stone, where the second side places they gain it.
pub(super) fn children_by_column(level: Level, ranks: &Ranks) -> Vec<Child> {
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
pub(super) struct FiveTable {
    /// `by_parity[p][rank]`: the states of parity `p` in which the stones make five.
    pub(super) by_parity: [Vec<Half>; 2],
}

impl FiveTable {
    pub(super) fn new(fives: &Fives, frame: &Frame, stones: u64, size: usize) -> FiveTable {
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
pub(super) struct Frame {
    pub(super) cells: u64,
    pub(super) m: usize,
    pub(super) first: u64,
    pub(super) second: u64,
}
