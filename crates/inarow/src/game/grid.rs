//! The board of Connect Four and PopOut: `width` columns of `height` cells with gravity, lines
//! of `k`, and the masks and shift formulas derived from them once.
//!
//! Bitboard layout (Pons): column-major, each column `height + 1` bits, the top one a sentinel
//! that is never set. 7x6 example, bit numbers:
//!
//! ```text
//!   6 13 20 27 34 41 48   <- sentinel row
//!   5 12 19 26 33 40 47
//!   4 11 18 25 32 39 46
//!   3 10 17 24 31 38 45
//!   2  9 16 23 30 37 44
//!   1  8 15 22 29 36 43
//!   0  7 14 21 28 35 42   <- bottom row
//! ```
//!
//! Lines are found by shifts: 1 = vertical, `height + 1` = horizontal, `height` and
//! `height + 2` = the two diagonals; the sentinel row stops a line from wrapping from one column
//! into the next. These formulas are the fast form of the board's description as data,
//! [`Grid::geometry`] (every line as a cell mask, the mirror as a permutation of cells); the tests
//! check that both agree on every size.
//!
//! A geometry is either the compile-time [`Standard`] 7x6 board or a [`Runtime`] one chosen at
//! run time: one body of code, monomorphised so that 7x6 runs with every mask a constant.

use super::Player;
use super::bits::{Bits, cells};
use super::geometry::Geometry;
use super::gravity::GravityGeometry;
use super::numbering::Numbering;
use super::view::{Axis, CellId, CellSet, Layout, WinningLine};
use crate::error::Error;
use std::fmt::{self, Debug};

/// A gravity board's size, line length and the masks derived from them, computed once.
#[derive(Clone, PartialEq, Eq)]
pub struct Grid {
    /// Columns.
    pub width: u32,
    /// Cells in a column (the sentinel bit above them not counted).
    pub height: u32,
    /// The length of a winning line.
    pub k: u32,
    /// Bits per column: `height + 1`.
    col_bits: u32,
    /// One bit at the bottom of every column.
    bottom: u128,
    /// Every playable cell.
    board: u128,
    /// Shifts of the horizontal and diagonal directions in which a line of `k` fits.
    lateral: [u32; 3],
    lateral_count: usize,
    /// Whether a vertical line of `k` fits.
    vertical: bool,
    /// Columns, centre first.
    order: [u8; 64],
    /// The dense numbering of boards, when it fits 64 bits (see [`numbering`](super::numbering)).
    pub(crate) numbering: Option<Numbering>,
}

impl Debug for Grid {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}:k{}", self.width, self.height, self.k)
    }
}

impl Grid {
    /// The largest number of bits a board may use.
    pub const MAX_BITS: u32 = 128;

    /// Checks a size and derives its masks.
    ///
    /// # Errors
    /// [`Error::Spec`] for a board without cells, a `k` outside `2..=max(width, height)`, or a board
    /// past [`Grid::MAX_BITS`] bits (`(height + 1) * width`).
    pub fn new(width: u32, height: u32, k: u32) -> Result<Grid, Error> {
        if width == 0 || height == 0 {
            return Err(Error::Spec(format!(
                "board {width}x{height}: width and height must be at least 1"
            )));
        }
        if k < 2 {
            return Err(Error::Spec(format!(
                "k = {k}: a line needs at least 2 stones"
            )));
        }
        if k > width.max(height) {
            // Say what would fit rather than an empty range like "between 2 and 1".
            let fits = if width.max(height) >= 2 {
                format!(", and k from 2 to {} fits this board", width.max(height))
            } else {
                String::new()
            };
            return Err(Error::Spec(format!(
                "k = {k} does not fit a {width}x{height} board: a line of {k} needs a width or a \
                 height of at least {k}{fits}"
            )));
        }
        if (height as u64 + 1) * width as u64 > Self::MAX_BITS as u64 {
            return Err(Error::Spec(format!(
                "board {width}x{height} is too large: (height + 1) * width = {} bits, at most {}",
                (height as u64 + 1) * width as u64,
                Self::MAX_BITS
            )));
        }
        Ok(Self::derive(width, height, k))
    }

    const fn derive(width: u32, height: u32, k: u32) -> Grid {
        let col_bits = height + 1;
        let mut bottom = 0u128;
        let mut c = 0;
        while c < width {
            bottom |= 1u128 << (c * col_bits);
            c += 1;
        }
        let board = bottom * ((1u128 << height) - 1);
        let mut lateral = [0u32; 3];
        let mut lateral_count = 0;
        if k <= width {
            lateral[lateral_count] = col_bits;
            lateral_count += 1;
        }
        if k <= width && k <= height {
            lateral[lateral_count] = height;
            lateral[lateral_count + 1] = height + 2;
            lateral_count += 2;
        }
        let mut order = [0u8; 64];
        let mut i = 0;
        while i < width {
            // width/2, then alternately left and right of it.
            let offset = i.div_ceil(2);
            order[i as usize] = if i % 2 == 1 {
                (width / 2 - offset) as u8
            } else {
                (width / 2 + offset) as u8
            };
            i += 1;
        }
        Grid {
            width,
            height,
            k,
            col_bits,
            bottom,
            board,
            lateral,
            lateral_count,
            vertical: k <= height,
            order,
            numbering: Numbering::new(width, col_bits),
        }
    }

    /// Every line of this board as a cell mask, made once per board size and kept for the
    /// process (the playing engines' evaluation reads them).
    pub fn lines(&self) -> &'static [u128] {
        type Known = Vec<((u32, u32, u32), &'static [u128])>;
        static KNOWN: std::sync::Mutex<Known> = std::sync::Mutex::new(Vec::new());
        let size = (self.width, self.height, self.k);
        let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, lines)) = known.iter().find(|(s, _)| *s == size) {
            return lines;
        }
        let lines: &'static [u128] = Vec::leak(self.geometry().lines().to_vec());
        known.push((size, lines));
        lines
    }

    /// This board as the threat rules see it (columns and lines), made once per board size and
    /// kept for the process.
    pub fn gravity_geometry(&self) -> &'static GravityGeometry {
        type Known = Vec<((u32, u32, u32), &'static GravityGeometry)>;
        static KNOWN: std::sync::Mutex<Known> = std::sync::Mutex::new(Vec::new());
        let size = (self.width, self.height, self.k);
        let mut known = KNOWN.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&(_, g)) = known.iter().find(|(s, _)| *s == size) {
            return g;
        }
        let g: &'static GravityGeometry = Box::leak(Box::new(
            GravityGeometry::grid(self.width, self.height, self.k).expect("a grid fits 128 bits"),
        ));
        known.push((size, g));
        g
    }

    /// This board as data: every line a cell mask, the mirror a permutation of cells. The shift
    /// formulas below are its fast form (the tests hold them to it).
    pub fn geometry(&self) -> Geometry {
        Geometry::grid(self.width, self.height, self.k).expect("a grid fits 128 bits")
    }

    /// The number of playable cells: `width * height`.
    pub fn cells(&self) -> u32 {
        self.width * self.height
    }

    /// Whether this board fits the 64-bit fast path.
    pub fn fits_u64(&self) -> bool {
        self.col_bits * self.width <= 64
    }

    /// Bits per column, the sentinel included: `height + 1`.
    #[inline(always)]
    pub fn col_bits(&self) -> u32 {
        self.col_bits
    }

    /// The number of bits a board uses: `(height + 1) * width`.
    #[inline(always)]
    pub fn board_bit_count(&self) -> u32 {
        self.col_bits * self.width
    }

    /// The columns (0-based), centre first.
    #[inline(always)]
    pub(crate) fn column_order(&self) -> &[u8] {
        &self.order[..self.width as usize]
    }

    /// Every playable cell.
    #[inline(always)]
    pub(crate) fn board_bits<B: Bits>(&self) -> B {
        B::from_u128(self.board)
    }

    /// One bit at the bottom of every column.
    #[inline(always)]
    pub(crate) fn bottom_bits<B: Bits>(&self) -> B {
        B::from_u128(self.bottom)
    }

    /// The playable cells of column `col`.
    #[inline(always)]
    pub(crate) fn column_mask<B: Bits>(&self, col: u32) -> B {
        B::from_u128(((1u128 << self.height) - 1) << (col * self.col_bits))
    }

    /// Empty cells (outside `mask`) that would complete a line of `k` for the stones `p`,
    /// assuming gravity: nothing stands above an empty cell.
    #[inline(always)]
    pub(crate) fn winning_cells<B: Bits>(&self, p: B, mask: B) -> B {
        // The common k get their own copies, with every loop unrolled.
        match self.k {
            3 => self.winning_cells_k(p, mask, 3),
            4 => self.winning_cells_k(p, mask, 4),
            5 => self.winning_cells_k(p, mask, 5),
            k => self.winning_cells_k(p, mask, k),
        }
    }

    #[inline(always)]
    fn winning_cells_k<B: Bits>(&self, p: B, mask: B, k: u32) -> B {
        let mut r = B::ZERO;
        if self.vertical {
            // Only runs below an empty cell matter: nothing stands above it.
            let mut below = p << 1;
            for i in 2..k {
                below &= p << i;
            }
            r |= below;
        }
        for &s in &self.lateral[..self.lateral_count] {
            // The empty cell is the (j+1)-th of the line: j own stones before it, k-1-j after.
            // Written plainly; with k known at compile time the shared shifts fold together.
            for j in 0..k {
                let mut t = !B::ZERO;
                for i in 1..=j {
                    t &= p << (i * s);
                }
                for i in 1..k - j {
                    t &= p >> (i * s);
                }
                r |= t;
            }
        }
        r & (self.board_bits::<B>() ^ mask)
    }

    /// Whether the stones `p` hold a line of `k`.
    #[inline(always)]
    pub(crate) fn has_line<B: Bits>(&self, p: B) -> bool {
        match self.k {
            3 => self.has_line_k(p, 3),
            4 => self.has_line_k(p, 4),
            5 => self.has_line_k(p, 5),
            k => self.has_line_k(p, k),
        }
    }

    #[inline(always)]
    fn has_line_k<B: Bits>(&self, p: B, k: u32) -> bool {
        if self.vertical && self.line_starts(p, 1, k) != B::ZERO {
            return true;
        }
        for i in 0..self.lateral_count {
            if self.line_starts(p, self.lateral[i], k) != B::ZERO {
                return true;
            }
        }
        false
    }

    /// Whether every line of k in `upper` lies directly above a line of k in `lower` in the same
    /// direction: the same cells moved up in their columns. Columns fill from the bottom, so if
    /// each player fills only its own cells, every such line of `upper` is completed after its
    /// line of `lower`.
    #[inline(always)]
    pub(crate) fn lines_lie_above<B: Bits>(&self, upper: B, lower: B) -> bool {
        let lie_above = |s: u32| {
            let starts = self.line_starts(upper, s, self.k);
            starts == B::ZERO
                || starts & !self.above_lowest(self.line_starts(lower, s, self.k)) == B::ZERO
        };
        if self.vertical && !lie_above(1) {
            return false;
        }
        for i in 0..self.lateral_count {
            if !lie_above(self.lateral[i]) {
                return false;
            }
        }
        true
    }

    /// The first cell (the lowest bit) of every line of `k` in `p` in the direction of shift `s`.
    #[inline(always)]
    fn line_starts<B: Bits>(&self, p: B, s: u32, k: u32) -> B {
        let mut m = p;
        let mut len = 1;
        while len < k {
            let step = len.min(k - len);
            m = m & (m >> (step * s));
            len += step;
        }
        m
    }

    /// In every column, the cells above the lowest one of `set` (none in a column without one).
    #[inline(always)]
    fn above_lowest<B: Bits>(&self, set: B) -> B {
        // Each column's spare top bit stops the borrow: `x ^ (x - 1)` is a column's cells up to
        // its lowest bit.
        let bottom = self.bottom_bits::<B>();
        let x = set | (bottom << self.height);
        self.board_bits::<B>() & !(x ^ x.wrapping_sub(bottom))
    }

    /// The set mirrored left to right.
    #[inline(always)]
    pub(crate) fn mirror<B: Bits>(&self, set: B) -> B {
        let col = B::from_u128((1u128 << self.col_bits) - 1);
        let mut m = B::ZERO;
        for c in 0..self.width {
            m |= ((set >> (c * self.col_bits)) & col) << ((self.width - 1 - c) * self.col_bits);
        }
        m
    }

    /// Draws a board for a terminal: top row first, `X` for the first player's stones, `O` for
    /// the second's, `.` empty, then the column labels mod 10.
    pub(crate) fn render<B: Bits>(&self, first: B, second: B) -> String {
        let mut s = String::new();
        for row in (0..self.height).rev() {
            for col in 0..self.width {
                let cell = B::bit(col * self.col_bits + row);
                let c = if first & cell != B::ZERO {
                    'X'
                } else if second & cell != B::ZERO {
                    'O'
                } else {
                    '.'
                };
                s.push(c);
                s.push(' ');
            }
            s.pop();
            s.push('\n');
        }
        let labels: Vec<String> = (1..=self.width).map(|c| (c % 10).to_string()).collect();
        s.push_str(&labels.join(" "));
        s.push('\n');
        s
    }

    /// The board's shape for a [view](super::view): one block, stones falling down `y`.
    pub(crate) fn layout(&self) -> Layout {
        Layout::flat(
            self.width as u8,
            self.height as u8,
            self.k as u8,
            Some(Axis::Y),
        )
    }

    /// The bit of a view's cell (`x + width * y`).
    fn bit_of(&self, cell: CellId) -> u32 {
        let (x, y) = (cell as u32 % self.width, cell as u32 / self.width);
        x * self.col_bits + y
    }

    /// The view's cells of a set of bits.
    fn view_cells(&self, set: u128) -> CellSet {
        cells(set)
            .map(|bit| (bit % self.col_bits * self.width + bit / self.col_bits) as CellId)
            .collect()
    }

    /// The column (`x`) of a view's cell.
    pub(crate) fn column_of_cell(&self, cell: CellId) -> u8 {
        (cell as u32 % self.width) as u8
    }

    /// Whose stone is on a view's cell, given the stones of the first player and the second.
    pub(crate) fn owner<B: Bits>(&self, first: B, second: B, cell: CellId) -> Option<Player> {
        let bit = B::bit(self.bit_of(cell));
        if first & bit != B::ZERO {
            Some(Player::First)
        } else if second & bit != B::ZERO {
            Some(Player::Second)
        } else {
            None
        }
    }

    /// Every line of `k` that the first player's stones or the second's hold, as a view's cells.
    pub(crate) fn lines_held<B: Bits>(&self, first: B, second: B, out: &mut Vec<WinningLine>) {
        for (owner, stones) in [(Player::First, first), (Player::Second, second)] {
            let stones = stones.to_u128();
            for &line in self.lines() {
                if line & stones == line {
                    let cells = self.view_cells(line);
                    out.push(WinningLine { owner, cells });
                }
            }
        }
    }

    /// The view's cell where a stone dropped into column `col` lands, given every stone.
    pub(crate) fn landing_cell<B: Bits>(&self, mask: B, col: u32) -> CellId {
        let height = (mask & self.column_mask::<B>(col)).count_ones();
        (col + self.width * height) as CellId
    }

    /// Joins move tokens: concatenated up to 9 columns, comma-separated beyond.
    pub(crate) fn join_moves(&self, moves: &[String]) -> String {
        if self.width <= 9 {
            moves.concat()
        } else {
            moves.join(",")
        }
    }
}

/// Where a board's geometry comes from.
pub trait Shape: Copy + Eq + Debug + Send + Sync + 'static {
    /// The board's size, line length and masks.
    fn grid(self) -> &'static Grid;
}

/// The standard 7x6 board with k = 4, known at compile time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Standard;

const STANDARD_GRID: Grid = Grid::derive(7, 6, 4);

impl Shape for Standard {
    #[inline(always)]
    fn grid(self) -> &'static Grid {
        &STANDARD_GRID
    }
}

/// A geometry chosen at run time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Runtime(pub &'static Grid);

impl Runtime {
    /// Positions are `Copy` and carry a `&'static Grid`: each distinct grid is leaked once and
    /// shared, so that a process that makes boards again and again (a server, a fuzzer) does
    /// not grow.
    pub fn new(grid: Grid) -> Runtime {
        static GRIDS: std::sync::Mutex<Vec<&'static Grid>> = std::sync::Mutex::new(Vec::new());
        let mut grids = GRIDS.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&known) = grids.iter().find(|&&known| *known == grid) {
            return Runtime(known);
        }
        let leaked: &'static Grid = Box::leak(Box::new(grid));
        grids.push(leaked);
        Runtime(leaked)
    }
}

impl Shape for Runtime {
    #[inline(always)]
    fn grid(self) -> &'static Grid {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_grid_is_made_once_however_often_it_is_asked_for() {
        let a = Runtime::new(Grid::new(5, 4, 4).unwrap());
        let b = Runtime::new(Grid::new(5, 4, 4).unwrap());
        let c = Runtime::new(Grid::new(5, 4, 3).unwrap());
        assert!(std::ptr::eq(a.0, b.0));
        assert!(!std::ptr::eq(a.0, c.0));
        assert_eq!(c.0.k, 3);
    }

    /// Random positions reached by dropping stones, as (first player's, second's, all).
    fn positions(grid: &Grid, count: usize, seed: u64) -> Vec<(u128, u128, u128)> {
        let mut x = seed | 1;
        let mut out = Vec::new();
        for _ in 0..count {
            let (mut sets, mut mask) = ([0u128; 2], 0u128);
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let stones = x as u32 % (grid.cells() + 1);
            for n in 0..stones {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let col = (x % grid.width as u64) as u32;
                let bottom = 1u128 << (col * grid.col_bits());
                let cell = (mask + bottom) & grid.column_mask::<u128>(col);
                if cell != 0 {
                    sets[n as usize % 2] |= cell;
                    mask |= cell;
                }
            }
            out.push((sets[0], sets[1], mask));
        }
        out
    }

    fn agree<B: Bits>(grid: &Grid) {
        let geometry = grid.geometry();
        let board = grid.board_bits::<u128>();
        assert_eq!(geometry.board(), board);
        for (first, second, mask) in positions(grid, 400, 0x1234_5678 ^ grid.cells() as u64) {
            for p in [first, second] {
                let (pb, mb) = (B::from_u128(p), B::from_u128(mask));
                assert_eq!(grid.has_line(pb), geometry.has_line(p), "{grid:?}");
                assert_eq!(
                    grid.winning_cells(pb, mb).to_u128(),
                    geometry.winning_cells(p, board & !mask),
                    "{grid:?}"
                );
                assert_eq!(grid.mirror(pb).to_u128(), geometry.transform(1, p));
            }
        }
    }

    #[test]
    fn shift_formulas_agree_with_the_description() {
        agree::<u64>(Standard.grid());
        for (w, h, k) in [
            (4, 4, 3),
            (5, 4, 4),
            (6, 7, 4),
            (9, 5, 5),
            (3, 3, 2),
            (8, 6, 6),
            (1, 5, 4),
            (5, 1, 3),
        ] {
            agree::<u64>(&Grid::new(w, h, k).unwrap());
        }
        for (w, h, k) in [(10, 10, 5), (16, 7, 4), (12, 9, 4)] {
            agree::<u128>(&Grid::new(w, h, k).unwrap());
        }
    }

    #[test]
    fn the_standard_grid_is_the_runtime_one() {
        assert_eq!(*Standard.grid(), Grid::new(7, 6, 4).unwrap());
    }
}
