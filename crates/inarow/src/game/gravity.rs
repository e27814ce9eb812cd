//! A gravity board as the threat rules see it: its columns, its lines, and the tables of lines
//! by cell and by column that let the rules' view of a position be kept move by move
//! ([`crate::search::cover::CoverView`]).

use super::geometry::Geometry;
use crate::error::Error;

/// A gravity board as the threat rules see it ([`crate::search::cover`]): its columns, each the
/// list of its cells (bits of a word) from the bottom up, and its lines as cell masks. A stone
/// dropped into a column lands on its lowest empty cell. Any number of columns (at most 64),
/// any heights, any lines: Connect Four's grids, the cube, and the small boxes the tests
/// enumerate are all such descriptions.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GravityGeometry {
    columns: Vec<Vec<u32>>,
    lines: Vec<u128>,
    board: u128,
    /// The columns each line crosses, a bit per column.
    line_columns: Vec<u64>,
    /// Each cell's column and index in it (cells off the board: 0, 0).
    places: Vec<(u8, u8)>,
    /// The cells of each cell's column above it.
    above: Vec<u128>,
    /// The lines by cell and by column, when there are at most [`LineSet::CAPACITY`] lines.
    line_tables: Option<LineTables>,
}

/// A set of a geometry's lines, a bit per line index: fixed-size, so that the rules' view of a
/// position is copied and combined without allocation.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub(crate) struct LineSet([u64; LineSet::WORDS]);

impl LineSet {
    const WORDS: usize = 4;
    /// The most lines a set holds: more than any Connect Four board of at most 128 cells with
    /// lines of four but the tallest few, and the cube's 76.
    pub(crate) const CAPACITY: usize = 64 * LineSet::WORDS;
    pub(crate) const EMPTY: LineSet = LineSet([0; LineSet::WORDS]);

    pub(crate) fn insert(&mut self, line: usize) {
        self.0[line / 64] |= 1 << (line % 64);
    }

    /// The lines in both.
    #[inline(always)]
    pub(crate) fn and(self, other: LineSet) -> LineSet {
        LineSet(std::array::from_fn(|i| self.0[i] & other.0[i]))
    }

    /// The lines in either.
    #[inline(always)]
    pub(crate) fn or(self, other: LineSet) -> LineSet {
        LineSet(std::array::from_fn(|i| self.0[i] | other.0[i]))
    }

    /// The lines in `self` and not in `other`.
    #[inline(always)]
    pub(crate) fn without(self, other: LineSet) -> LineSet {
        LineSet(std::array::from_fn(|i| self.0[i] & !other.0[i]))
    }

    /// The line indices, lowest first.
    pub(crate) fn iter(self) -> impl Iterator<Item = usize> {
        self.0.into_iter().enumerate().flat_map(|(i, mut word)| {
            std::iter::from_fn(move || {
                (word != 0).then(|| {
                    let bit = word.trailing_zeros() as usize;
                    word &= word - 1;
                    64 * i + bit
                })
            })
        })
    }
}

/// A set of lines as the rules' search combines them: a [`LineSet`], or one or two words when
/// the board has at most 64 or 128 lines (most boards), so that each operation is one or two
/// instructions.
pub(crate) trait Lines: Copy + Eq {
    const NONE: Self;
    /// The first lines of `set`, as many as this type holds.
    fn narrow(set: &LineSet) -> Self;
    fn and(self, other: Self) -> Self;
    fn or(self, other: Self) -> Self;
    fn without(self, other: Self) -> Self;
    fn is_empty(self) -> bool {
        self == Self::NONE
    }
    /// The line indices, lowest first.
    fn each(self, f: impl FnMut(usize));
}

macro_rules! word_lines {
    ($word:ty, $words:expr) => {
        impl Lines for $word {
            const NONE: Self = 0;
            #[inline(always)]
            fn narrow(set: &LineSet) -> Self {
                let mut word: $word = 0;
                for i in 0..$words {
                    word |= (set.0[i] as $word) << (64 * i);
                }
                word
            }
            #[inline(always)]
            fn and(self, other: Self) -> Self {
                self & other
            }
            #[inline(always)]
            fn or(self, other: Self) -> Self {
                self | other
            }
            #[inline(always)]
            fn without(self, other: Self) -> Self {
                self & !other
            }
            #[inline(always)]
            fn each(mut self, mut f: impl FnMut(usize)) {
                while self != 0 {
                    f(self.trailing_zeros() as usize);
                    self &= self - 1;
                }
            }
        }
    };
}
word_lines!(u64, 1);
word_lines!(u128, 2);

impl Lines for LineSet {
    const NONE: Self = LineSet::EMPTY;
    #[inline(always)]
    fn narrow(set: &LineSet) -> Self {
        *set
    }
    #[inline(always)]
    fn and(self, other: Self) -> Self {
        LineSet::and(self, other)
    }
    #[inline(always)]
    fn or(self, other: Self) -> Self {
        LineSet::or(self, other)
    }
    #[inline(always)]
    fn without(self, other: Self) -> Self {
        LineSet::without(self, other)
    }
    fn each(self, f: impl FnMut(usize)) {
        self.iter().for_each(f);
    }
}

/// The lines through each cell, above each cell and across each column.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct LineTables {
    /// Every line.
    pub(crate) all: LineSet,
    /// The lines through each cell (by bit index; cells off the board: none).
    pub(crate) through: Vec<LineSet>,
    /// The lines through some cell above each cell, in its column.
    pub(crate) through_above: Vec<LineSet>,
    /// The lines that cross each column.
    pub(crate) across: Vec<LineSet>,
    /// The lines that cross each column or one after it (by index).
    pub(crate) across_from: Vec<LineSet>,
    /// The cells one, three, five... above each cell, in its column (the upper cells of the
    /// pairs of cells from it up), and the lines through them.
    pub(crate) odd_above: Vec<u128>,
    pub(crate) through_odd_above: Vec<LineSet>,
}

impl LineTables {
    fn new(columns: &[Vec<u32>], lines: &[u128]) -> Option<LineTables> {
        if lines.len() > LineSet::CAPACITY {
            return None;
        }
        let mut all = LineSet::EMPTY;
        let mut through = vec![LineSet::EMPTY; 128];
        for (i, &line) in lines.iter().enumerate() {
            all.insert(i);
            for (cell, set) in through.iter_mut().enumerate() {
                if line >> cell & 1 == 1 {
                    set.insert(i);
                }
            }
        }
        let mut through_above = vec![LineSet::EMPTY; 128];
        let mut odd_above = vec![0u128; 128];
        let mut through_odd_above = vec![LineSet::EMPTY; 128];
        let mut across = Vec::with_capacity(columns.len());
        for column in columns {
            let mut above = LineSet::EMPTY;
            for (i, &cell) in column.iter().enumerate().rev() {
                let x = cell as usize;
                through_above[x] = above;
                above = above.or(through[x]);
                if let Some(&up) = column.get(i + 1) {
                    let beyond = column.get(i + 2).map_or(0, |&y| odd_above[y as usize]);
                    let lines_beyond = column
                        .get(i + 2)
                        .map_or(LineSet::EMPTY, |&y| through_odd_above[y as usize]);
                    odd_above[x] = 1 << up | beyond;
                    through_odd_above[x] = through[up as usize].or(lines_beyond);
                }
            }
            across.push(above);
        }
        let mut across_from = across.clone();
        for c in (0..columns.len().saturating_sub(1)).rev() {
            across_from[c] = across_from[c].or(across_from[c + 1]);
        }
        Some(LineTables {
            all,
            through,
            through_above,
            across,
            across_from,
            odd_above,
            through_odd_above,
        })
    }
}

impl GravityGeometry {
    /// A description from its columns and lines.
    ///
    /// # Errors
    /// [`Error::Input`] for no column or more than 64, an empty column, a cell in two columns or past
    /// bit 127, or a line of fewer than two cells or off the columns.
    pub fn new(columns: Vec<Vec<u32>>, lines: Vec<u128>) -> Result<GravityGeometry, Error> {
        if columns.is_empty() || columns.len() > 64 {
            return Err(Error::Input(format!(
                "{} columns: a gravity board has 1 to 64",
                columns.len()
            )));
        }
        let mut board = 0u128;
        for (i, column) in columns.iter().enumerate() {
            if column.is_empty() {
                return Err(Error::Input(format!("column {i} has no cell")));
            }
            for &cell in column {
                if cell >= 128 || board >> cell & 1 == 1 {
                    return Err(Error::Input(format!(
                        "cell {cell} of column {i}: past bit 127 or in two columns"
                    )));
                }
                board |= 1 << cell;
            }
        }
        if let Some(bad) = lines
            .iter()
            .find(|&&l| l.count_ones() < 2 || l & !board != 0)
        {
            return Err(Error::Input(format!(
                "line {bad:#x}: two cells or more, all in the columns"
            )));
        }
        let mut places = vec![(0u8, 0u8); 128];
        let mut above = vec![0u128; 128];
        for (c, column) in columns.iter().enumerate() {
            for (i, &cell) in column.iter().enumerate() {
                places[cell as usize] = (c as u8, i as u8);
                above[cell as usize] = column[i + 1..].iter().fold(0, |m, &x| m | 1 << x);
            }
        }
        let line_columns = lines
            .iter()
            .map(|&l| {
                let mut mask = 0u64;
                let mut rest = l;
                while rest != 0 {
                    mask |= 1 << places[rest.trailing_zeros() as usize].0;
                    rest &= rest - 1;
                }
                mask
            })
            .collect();
        let line_tables = LineTables::new(&columns, &lines);
        Ok(GravityGeometry {
            line_tables,
            columns,
            lines,
            board,
            line_columns,
            places,
            above,
        })
    }

    /// Connect Four's `width` x `height` board with lines of `k`, in the layout of
    /// [`Geometry::grid`] (bit `column * (height + 1) + row`).
    ///
    /// # Errors
    /// As [`Geometry::grid`].
    pub fn grid(width: u32, height: u32, k: u32) -> Result<GravityGeometry, Error> {
        let lines = Geometry::grid(width, height, k)?.lines().to_vec();
        let columns = (0..width)
            .map(|c| (0..height).map(|r| c * (height + 1) + r).collect())
            .collect();
        GravityGeometry::new(columns, lines)
    }

    /// The 4x4x4 cube of Connect Four 3D, in the layout of [`Geometry::cube`] (cell
    /// `x + 4y + 16z`, column `x + 4y`).
    pub fn cube() -> GravityGeometry {
        let lines = Geometry::cube(true).lines().to_vec();
        let columns = (0..16)
            .map(|c| (0..4).map(|z| c + 16 * z).collect())
            .collect();
        GravityGeometry::new(columns, lines).expect("the cube's description is valid")
    }

    /// A box of `nx` x `ny` columns of `nz` cells (cell `x + nx * (y + ny * z)`) with every
    /// straight line of `k` cells in the 13 directions of space: [`GravityGeometry::cube`]'s
    /// lines on `(4, 4, 4, 4)`, Connect Four's on `(width, 1, height, k)`, and small
    /// three-dimensional boards that can be enumerated.
    ///
    /// # Errors
    /// [`Error::Spec`] for more than 128 cells or 64 columns, or no line.
    pub fn cuboid(nx: u32, ny: u32, nz: u32, k: u32) -> Result<GravityGeometry, Error> {
        if nx * ny * nz > 128 || k < 2 {
            return Err(Error::Spec(format!(
                "box {nx}x{ny}x{nz}, k = {k}: at most 128 cells, k >= 2"
            )));
        }
        let size = [nx as i32, ny as i32, nz as i32];
        let bit = |p: [i32; 3]| (p[0] + size[0] * (p[1] + size[1] * p[2])) as u32;
        let mut lines = Vec::new();
        for d in 0..27 {
            let d = [d % 3 - 1, d / 3 % 3 - 1, d / 9 - 1];
            // One of each pair of opposite directions.
            if d.iter().find(|&&v| v != 0).is_none_or(|&v| v < 0) {
                continue;
            }
            for start in 0..nx * ny * nz {
                let s = start as i32;
                let p = [s % size[0], s / size[0] % size[1], s / (size[0] * size[1])];
                let cells: Vec<[i32; 3]> = (0..k as i32)
                    .map(|i| [p[0] + i * d[0], p[1] + i * d[1], p[2] + i * d[2]])
                    .collect();
                if cells
                    .iter()
                    .all(|c| (0..3).all(|a| (0..size[a]).contains(&c[a])))
                {
                    lines.push(cells.iter().fold(0u128, |m, &c| m | 1 << bit(c)));
                }
            }
        }
        if lines.is_empty() {
            return Err(Error::Spec(format!(
                "box {nx}x{ny}x{nz} has no line of {k}"
            )));
        }
        lines.sort_unstable();
        let columns = (0..nx * ny)
            .map(|c| (0..nz).map(|z| c + nx * ny * z).collect())
            .collect();
        GravityGeometry::new(columns, lines)
    }

    /// The columns, each its cells from the bottom up.
    pub fn columns(&self) -> &[Vec<u32>] {
        &self.columns
    }

    /// The lines, as cell masks.
    pub fn lines(&self) -> &[u128] {
        &self.lines
    }

    /// Every cell.
    pub fn board(&self) -> u128 {
        self.board
    }

    /// The columns line `i` crosses, a bit per column.
    pub fn line_columns(&self, i: usize) -> u64 {
        self.line_columns[i]
    }

    /// The column of a cell of the board and its index there (0 at the bottom).
    pub fn place(&self, cell: u32) -> (usize, usize) {
        let (c, i) = self.places[cell as usize];
        (c as usize, i as usize)
    }

    /// The cells above a cell of the board, in its column.
    pub fn above(&self, cell: u32) -> u128 {
        self.above[cell as usize]
    }

    /// The lines by cell and by column, when the lines fit a [`LineSet`].
    pub(crate) fn line_tables(&self) -> Option<&LineTables> {
        self.line_tables.as_ref()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn gravity_boxes_have_the_lines_of_the_grids_and_the_cube() {
        let cube = GravityGeometry::cube();
        let mut lines = GravityGeometry::cuboid(4, 4, 4, 4)
            .unwrap()
            .lines()
            .to_vec();
        let mut want = cube.lines().to_vec();
        lines.sort_unstable();
        want.sort_unstable();
        assert_eq!(lines, want);
        // A 2D board as a box one cell deep: the same lines, in another numbering.
        let grid = GravityGeometry::grid(7, 6, 4).unwrap();
        let flat = GravityGeometry::cuboid(7, 1, 6, 4).unwrap();
        assert_eq!(grid.lines().len(), 69);
        assert_eq!(flat.lines().len(), 69);
        assert_eq!(grid.columns()[1], vec![7, 8, 9, 10, 11, 12]);
        assert_eq!(flat.columns()[1], vec![1, 8, 15, 22, 29, 36]);
    }

    #[test]
    fn the_line_tables_list_each_line_at_its_cells_and_columns() {
        for g in [
            GravityGeometry::grid(7, 6, 4).unwrap(),
            GravityGeometry::cube(),
            GravityGeometry::cuboid(3, 2, 3, 3).unwrap(),
        ] {
            let t = g.line_tables().expect("few lines");
            for (i, &line) in g.lines().iter().enumerate() {
                for cell in 0..128u32 {
                    assert_eq!(
                        t.through[cell as usize].iter().any(|j| j == i),
                        line >> cell & 1 == 1
                    );
                    let above = g.board() >> cell & 1 == 1 && line & g.above(cell) != 0;
                    assert_eq!(t.through_above[cell as usize].iter().any(|j| j == i), above);
                }
                for c in 0..g.columns().len() {
                    assert_eq!(
                        t.across[c].iter().any(|j| j == i),
                        g.line_columns(i) >> c & 1 == 1
                    );
                }
            }
            assert_eq!(t.all.iter().count(), g.lines().len());
            for column in g.columns() {
                for (i, &x) in column.iter().enumerate() {
                    let odd: u128 = column
                        .iter()
                        .skip(i + 1)
                        .step_by(2)
                        .fold(0, |m, &y| m | 1 << y);
                    assert_eq!(t.odd_above[x as usize], odd);
                    let lines = (0..g.lines().len()).filter(|&j| g.lines()[j] & odd != 0);
                    assert!(t.through_odd_above[x as usize].iter().eq(lines));
                }
            }
            for c in 0..g.columns().len() {
                let lines = (0..g.lines().len()).filter(|&j| g.line_columns(j) >> c != 0);
                assert!(t.across_from[c].iter().eq(lines));
            }
        }
        // More lines than a set holds: no tables, and the rules claim nothing there.
        let wide = GravityGeometry::grid(16, 7, 4).unwrap();
        assert!(wide.lines().len() > LineSet::CAPACITY && wide.line_tables().is_none());
    }
}
