//! The rules' view of a position, kept move by move: the lines each side can still make and
//! the cells that would complete one, which every call of the rules reads. Made once from the
//! stones ([`CoverView::new`]), then from the parent's view by one move ([`CoverView::after`],
//! in time proportional to the lines through the cell played), so that a search that keeps one
//! view a ply ([`CoverPath`]) never rebuilds it.

use crate::game::gravity::{LineSet, LineTables};
use crate::game::{GravityGeometry, Rules};

/// The rules' view of one gravity position, from the side to move (the *mover*) and the other
/// side (the *follower*).
#[derive(Clone, Debug)]
pub struct CoverView<'g> {
    pub(super) geometry: &'g GravityGeometry,
    pub(super) tables: &'g LineTables,
    pub(super) mover: u128,
    pub(super) follower: u128,
    pub(super) empty: u128,
    /// Each column's lowest empty cell, as its index in the column (its height when full).
    pub(super) base: [u8; 64],
    /// The lines without a follower stone: those the mover can still make.
    pub(super) mover_open: LineSet,
    /// The lines without a mover stone.
    pub(super) follower_open: LineSet,
    /// The empty cells that complete a line of the mover, and of the follower.
    mover_wins: u128,
    pub(super) follower_wins: u128,
    /// Whether the game is over: a line made or the board full.
    over: bool,
    /// The columns with an odd number of empty cells.
    pub(super) odd_columns: u64,
}

impl<'g> CoverView<'g> {
    /// The view of the position where `mover` (to move) and `follower` hold these stones.
    /// `None` when the stones are no gravity position of the board, or the board has more
    /// lines than the view keeps (`LineSet::CAPACITY`: then the rules claim nothing).
    pub fn new(geometry: &'g GravityGeometry, mover: u128, follower: u128) -> Option<Self> {
        let tables = geometry.line_tables()?;
        let filled = mover | follower;
        if mover & follower != 0 || filled & !geometry.board() != 0 {
            return None;
        }
        let mut base = [0u8; 64];
        let mut odd_columns = 0u64;
        for (c, column) in geometry.columns().iter().enumerate() {
            let f = column.iter().take_while(|&&x| filled >> x & 1 == 1).count();
            if column[f..].iter().any(|&x| filled >> x & 1 == 1) {
                return None;
            }
            base[c] = f as u8;
            odd_columns |= (((column.len() - f) & 1) as u64) << c;
        }
        let closed_by = |stones: u128| {
            super::cells_of(stones)
                .fold(LineSet::EMPTY, |set, x| set.or(tables.through[x as usize]))
        };
        let mover_open = tables.all.without(closed_by(follower));
        let follower_open = tables.all.without(closed_by(mover));
        let empty = geometry.board() & !filled;
        let mut over = empty == 0;
        let mut wins = |open: LineSet, stones: u128| {
            let mut cells = 0u128;
            for i in open.iter() {
                let missing = geometry.lines()[i] & !stones;
                over |= missing == 0;
                if missing.count_ones() == 1 {
                    cells |= missing;
                }
            }
            cells
        };
        let mover_wins = wins(mover_open, mover);
        let follower_wins = wins(follower_open, follower);
        Some(CoverView {
            geometry,
            tables,
            mover,
            follower,
            empty,
            base,
            mover_open,
            follower_open,
            mover_wins,
            follower_wins,
            over,
            odd_columns,
        })
    }

    /// The view after the side to move takes `cell`, the lowest empty cell of its column: only
    /// the lines through it change.
    pub fn after(&self, cell: u32) -> CoverView<'g> {
        let bit = 1u128 << cell;
        debug_assert!(self.empty & bit != 0);
        let (column, index) = self.geometry.place(cell);
        debug_assert_eq!(self.base[column] as usize, index);
        let through = self.tables.through[cell as usize];
        let stones = self.mover | bit;
        let mut wins = self.mover_wins & !bit;
        for i in self.mover_open.and(through).iter() {
            let missing = self.geometry.lines()[i] & !stones;
            if missing.count_ones() == 1 {
                wins |= missing;
            }
        }
        let mut base = self.base;
        base[column] += 1;
        CoverView {
            geometry: self.geometry,
            tables: self.tables,
            mover: self.follower,
            follower: stones,
            empty: self.empty & !bit,
            base,
            mover_open: self.follower_open.without(through),
            follower_open: self.mover_open,
            mover_wins: self.follower_wins & !bit,
            follower_wins: wins,
            over: self.over || self.mover_wins & bit != 0 || self.empty == bit,
            odd_columns: self.odd_columns ^ 1 << column,
        }
    }

    /// The view of a later position of the same game, where the side to move holds `mover`
    /// and the other side `follower`: the moves between, each side's in turn from the side to
    /// move here, made one by one. `None` when no such moves lead there (then make it anew).
    pub fn toward(&self, mover: u128, follower: u128) -> Option<CoverView<'g>> {
        let (here, there) = (self.mover | self.follower, mover | follower);
        if here & !there != 0 {
            return None;
        }
        let moves = (there & !here).count_ones();
        // Whose stones the side to move here holds there.
        let (first, second) = if moves % 2 == 0 {
            (mover, follower)
        } else {
            (follower, mover)
        };
        if self.mover & !first != 0 || self.follower & !second != 0 {
            return None;
        }
        let mut sides = [first & !self.mover, second & !self.follower];
        let mut view = self.clone();
        for turn in 0..moves as usize {
            let side = &mut sides[turn % 2];
            let cell = super::cells_of(*side).find(|&x| {
                let (c, i) = view.geometry.place(x);
                view.base(c) == i
            })?;
            *side &= !(1 << cell);
            view = view.after(cell);
        }
        Some(view)
    }

    /// Whether the game is over: a line made or the board full.
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// The empty cells.
    pub fn empty(&self) -> u128 {
        self.empty
    }

    /// The board's description.
    pub fn geometry(&self) -> &'g GravityGeometry {
        self.geometry
    }

    /// The side to move's stones and the other side's.
    pub fn stones(&self) -> (u128, u128) {
        (self.mover, self.follower)
    }

    pub(super) fn column(&self, c: usize) -> &'g [u32] {
        &self.geometry.columns()[c]
    }

    pub(super) fn base(&self, c: usize) -> usize {
        self.base[c] as usize
    }

    pub(super) fn empties(&self, c: usize) -> usize {
        self.column(c).len() - self.base(c)
    }

    /// Whether the cell at index `i` of column `c` is even: an even number of cells above it.
    pub(super) fn is_even(&self, c: usize, i: usize) -> bool {
        (self.column(c).len() - 1 - i).is_multiple_of(2)
    }
}

/// The views along a search's path, one a ply: the view of a position at ply `n` is made from
/// the nearest one below it whose stones it holds (its parent's, or an ancestor's a forced line
/// back), by the moves between, else from the stones. A search asks it at every node where it
/// may call the rules, so that each view costs a move's update or a few.
#[derive(Default)]
pub struct CoverPath {
    views: Vec<Option<CoverView<'static>>>,
}

/// How far down the path a view is looked for (a forced line's length, at most).
const REACH: usize = 8;

impl CoverPath {
    /// An empty path.
    pub fn new() -> Self {
        CoverPath::default()
    }

    /// The view of `pos`, kept at its ply for the positions below it; `None` when `pos` is no
    /// gravity position the rules can read or has fewer than `min_empty` empty cells (the
    /// rules are then not asked, nor below it).
    pub fn at<G: Rules>(&mut self, pos: &G, min_empty: u32) -> Option<&CoverView<'static>> {
        let ply = pos.ply() as usize;
        if self.views.len() <= ply {
            self.views.resize(ply + 1, None);
        }
        let Some((geometry, mover, follower)) = pos.gravity_position() else {
            self.views[ply] = None;
            return None;
        };
        if (geometry.board() & !(mover | follower)).count_ones() < min_empty {
            self.views[ply] = None;
            return None;
        }
        let (below, here) = self.views.split_at_mut(ply);
        let same = |v: &CoverView| std::ptr::eq(v.geometry, geometry);
        if here[0]
            .as_ref()
            .is_some_and(|v| same(v) && v.stones() == (mover, follower))
        {
            return here[0].as_ref();
        }
        here[0] = below
            .iter()
            .rev()
            .take(REACH)
            .flatten()
            .filter(|v| same(v))
            .find_map(|v| v.toward(mover, follower))
            .or_else(|| CoverView::new(geometry, mover, follower));
        here[0].as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Bounded, Connect, Gravity, Grid, MoveList, Runtime, Status};

    fn same(a: &CoverView, b: &CoverView) -> bool {
        (
            a.mover,
            a.follower,
            a.empty,
            a.base,
            a.mover_open,
            a.follower_open,
        ) == (
            b.mover,
            b.follower,
            b.empty,
            b.base,
            b.mover_open,
            b.follower_open,
        ) && (a.mover_wins, a.follower_wins, a.over) == (b.mover_wins, b.follower_wins, b.over)
    }

    /// Random games: the view kept move by move (and by the path) is the view made from the
    /// stones at every ply, to the end of the game.
    fn kept_views_are_made_views<G: Bounded>(start: G) {
        let mut seed = 0x0077_u64;
        let mut reached = 0;
        for _ in 0..200 {
            let (geometry, _, _) = start.gravity_position().unwrap();
            let mut view = CoverView::new(geometry, 0, 0).unwrap();
            let mut path = CoverPath::new();
            let mut pos = start;
            for ply in 0.. {
                let (_, mover, follower) = pos.gravity_position().unwrap();
                let made = CoverView::new(geometry, mover, follower).unwrap();
                assert!(same(&view, &made), "ply {ply}");
                assert!(same(path.at(&pos, 0).unwrap(), &made));
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                if pos.status() != Status::Ongoing {
                    assert!(view.is_over());
                    break;
                }
                assert!(!view.is_over());
                seed = seed
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                let next = pos.play(moves[(seed >> 33) as usize % moves.len()]);
                let (_, _, moved) = next.gravity_position().unwrap();
                view = view.after((moved & !mover).trailing_zeros());
                pos = next;
                // Every move on from the empty board's view, where an order is found.
                let (_, m, f) = pos.gravity_position().unwrap();
                if let Some(v) = CoverView::new(geometry, 0, 0).unwrap().toward(m, f) {
                    assert!(same(&v, &view));
                    reached += 1;
                }
            }
        }
        // Most positions are reached by moves from the empty board's view.
        assert!(reached > 1000, "{reached}");
    }

    #[test]
    fn a_view_kept_move_by_move_is_the_view_of_the_stones() {
        kept_views_are_made_views(Connect::<u64, Runtime>::new(Runtime::new(
            Grid::new(7, 6, 4).unwrap(),
        )));
        kept_views_are_made_views(Connect::<u64, Runtime>::new(Runtime::new(
            Grid::new(8, 4, 4).unwrap(),
        )));
        kept_views_are_made_views(Gravity::new());
    }
}
