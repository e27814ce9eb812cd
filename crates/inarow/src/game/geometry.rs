//! Board geometry as data: the cells a board uses (bits of a word), its lines (the sets of cells
//! that win when one player holds them all) as cell masks, and its symmetries as permutations of
//! cells. Connect Four and PopOut ([`Geometry::grid`]), the 4x4x4 cube with and without gravity
//! ([`Geometry::cube`]) and Pentago's 6x6 board ([`Geometry::pentago`]) are all such
//! descriptions, and every question about lines is answered from one.
//!
//! Evaluation goes by shifts: lines whose cells are equally spaced in the bit numbering (every
//! line of the boards above) are grouped into families of one step and length, each with the mask
//! of its lines' first cells, so a family of any number of lines costs `len` shifts. Lines that are
//! not equally spaced are tested one mask at a time.

use crate::error::Error;
use std::collections::HashSet;

/// A zero-sum evaluation by lines, for the playing engines ([`crate::game::Tactics::evaluate`]):
/// every line of `k` cells that holds stones of one side only is worth more the more it holds
/// (1, 4, 16, ... by stone; a line one stone short, a threat, 64), for that side. With
/// `rows_of = Some((col_bits, first))` (gravity boards), a threat on a row of the right parity for
/// its owner (odd rows, 1-based, for the first player, even for the second: Allis' zugzwang
/// rule) counts double. `first` says whether `mine` belongs to the first player. Positive
/// favours `mine`.
pub fn line_score(
    lines: &[u128],
    mine: u128,
    theirs: u128,
    k: u32,
    rows_of: Option<(u32, bool)>,
) -> i32 {
    let mut score = 0;
    for &line in lines {
        let (m, t) = (line & mine, line & theirs);
        let (held, sign, first) = match (m != 0, t != 0) {
            (true, false) => (m, 1, rows_of.is_some_and(|r| r.1)),
            (false, true) => (t, -1, rows_of.is_some_and(|r| !r.1)),
            _ => continue,
        };
        let n = held.count_ones();
        let mut worth = if n + 1 >= k { 64 } else { 1 << (2 * (n - 1)) };
        if n + 1 == k
            && let Some((col_bits, _)) = rows_of
        {
            let row = (line & !held).trailing_zeros() % col_bits;
            if (row % 2 == 0) == first {
                worth *= 2;
            }
        }
        score += sign * worth;
    }
    score
}

/// A permutation of cells: `image[cell]` for every bit of the word (cells off the board map to
/// themselves).
pub type Permutation = [u8; 128];

/// Lines of one length whose consecutive cells are `step` bits apart: the line starting at cell
/// `c` (a bit of `starts`) holds `c, c + step, ..., c + (len - 1) * step`.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Family {
    /// The distance in bits between consecutive cells of a line.
    pub step: u32,
    /// The number of cells of each line.
    pub len: u32,
    /// The first cell of every line of the family, as a cell mask.
    pub starts: u128,
}

/// A board's cells, lines and symmetries. See the module documentation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Geometry {
    board: u128,
    lines: Vec<u128>,
    families: Vec<Family>,
    irregular: Vec<u128>,
    symmetries: Vec<Permutation>,
}

/// The cells of a set, lowest first.
fn cells_of(mut set: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros();
            set &= set - 1;
            c
        })
    })
}

impl Geometry {
    /// A geometry from its description; checks that every line lies on the board and that every
    /// symmetry is a permutation of the board's cells that maps each line onto a line (the
    /// identity among them).
    ///
    /// # Errors
    /// [`Error::Input`] naming the first fault: a line of fewer than two cells or off the board, a
    /// symmetry that is no permutation of the board's cells or maps a line onto no line, or no
    /// identity among the symmetries.
    pub fn new(
        board: u128,
        mut lines: Vec<u128>,
        symmetries: Vec<Permutation>,
    ) -> Result<Geometry, Error> {
        lines.sort_unstable();
        lines.dedup();
        if let Some(bad) = lines
            .iter()
            .find(|&&l| l.count_ones() < 2 || l & !board != 0)
        {
            return Err(Error::Input(format!(
                "line {bad:#x}: a line needs two cells or more, all on the board"
            )));
        }
        let known: HashSet<u128> = lines.iter().copied().collect();
        for (i, sym) in symmetries.iter().enumerate() {
            let image = cells_of(board).fold(0u128, |m, c| m | 1 << sym[c as usize]);
            if image != board || (0..128).any(|c| board >> c & 1 == 0 && sym[c] as usize != c) {
                return Err(Error::Input(format!(
                    "symmetry {i} is not a permutation of the board's cells"
                )));
            }
            if let Some(l) = lines
                .iter()
                .find(|&&l| !known.contains(&Self::apply(sym, l)))
            {
                return Err(Error::Input(format!(
                    "symmetry {i} maps line {l:#x} onto no line"
                )));
            }
        }
        if !symmetries
            .iter()
            .any(|s| (0..128).all(|c| s[c] as usize == c))
        {
            return Err(Error::Input(
                "the symmetries must include the identity".to_string(),
            ));
        }
        let mut families: Vec<Family> = Vec::new();
        let mut irregular = Vec::new();
        for &line in &lines {
            let cells: Vec<u32> = cells_of(line).collect();
            let step = cells[1] - cells[0];
            if cells.windows(2).any(|w| w[1] - w[0] != step) {
                irregular.push(line);
                continue;
            }
            let len = cells.len() as u32;
            match families.iter_mut().find(|f| f.step == step && f.len == len) {
                Some(f) => f.starts |= 1 << cells[0],
                None => families.push(Family {
                    step,
                    len,
                    starts: 1 << cells[0],
                }),
            }
        }
        Ok(Geometry {
            board,
            lines,
            families,
            irregular,
            symmetries,
        })
    }

    /// Every cell of the board.
    pub fn board(&self) -> u128 {
        self.board
    }

    /// The lines, as cell masks, in increasing order.
    pub fn lines(&self) -> &[u128] {
        &self.lines
    }

    /// The lines grouped by step and length.
    pub fn families(&self) -> &[Family] {
        &self.families
    }

    /// The symmetries, as permutations of cells.
    pub fn symmetries(&self) -> &[Permutation] {
        &self.symmetries
    }

    fn apply(sym: &Permutation, set: u128) -> u128 {
        cells_of(set).fold(0, |m, c| m | 1 << sym[c as usize])
    }

    /// The image of a set of cells under symmetry `i`.
    pub fn transform(&self, i: usize, set: u128) -> u128 {
        Self::apply(&self.symmetries[i], set)
    }

    /// Whether the stones hold a whole line.
    pub fn has_line(&self, stones: u128) -> bool {
        self.families.iter().any(|f| {
            let mut run = stones & f.starts;
            for i in 1..f.len {
                run &= stones >> (i * f.step);
            }
            run != 0
        }) || self.irregular.iter().any(|&l| l & !stones == 0)
    }

    /// The cells of `empty` that would complete a line for the stones.
    pub fn winning_cells(&self, stones: u128, empty: u128) -> u128 {
        let mut cells = 0;
        for f in &self.families {
            for j in 0..f.len {
                let mut run = f.starts & (empty >> (j * f.step));
                for i in (0..f.len).filter(|&i| i != j) {
                    run &= stones >> (i * f.step);
                }
                cells |= run << (j * f.step);
            }
        }
        for &l in &self.irregular {
            let missing = l & !stones;
            if missing.count_ones() == 1 {
                cells |= missing & empty;
            }
        }
        cells
    }

    /// A gravity board of `width` columns and `height` rows with lines of `k` (Connect Four,
    /// PopOut), in the column-major layout with a sentinel bit on top of each column (bit
    /// `column * (height + 1) + row`); its symmetry is the left-right mirror.
    ///
    /// # Errors
    /// [`Error::Spec`] for a board past 128 bits: `(height + 1) * width > 128`.
    pub fn grid(width: u32, height: u32, k: u32) -> Result<Geometry, Error> {
        let col_bits = height + 1;
        if col_bits * width > 128 {
            return Err(Error::Spec(format!(
                "board {width}x{height} does not fit 128 bits"
            )));
        }
        let bit = |c: i32, r: i32| (c * col_bits as i32 + r) as u32;
        let inside =
            |c: i32, r: i32| (0..width as i32).contains(&c) && (0..height as i32).contains(&r);
        let mut board = 0u128;
        let mut lines = Vec::new();
        for c in 0..width as i32 {
            for r in 0..height as i32 {
                board |= 1 << bit(c, r);
                for (dc, dr) in [(0, 1), (1, 0), (1, 1), (1, -1)] {
                    let cells: Vec<(i32, i32)> =
                        (0..k as i32).map(|i| (c + i * dc, r + i * dr)).collect();
                    if cells.iter().all(|&(c, r)| inside(c, r)) {
                        lines.push(cells.iter().fold(0u128, |m, &(c, r)| m | 1 << bit(c, r)));
                    }
                }
            }
        }
        let mut mirror = identity();
        for c in 0..width as i32 {
            for r in 0..height as i32 {
                mirror[bit(c, r) as usize] = bit(width as i32 - 1 - c, r) as u8;
            }
        }
        Geometry::new(board, lines, vec![identity(), mirror])
    }

    /// The 4x4x4 cube (cell `x + 4y + 16z`, `z` the level) with its 76 lines of four. With
    /// gravity (Connect Four 3D) its symmetries are the 8 of the square floor; without (Qubic)
    /// they are the 192 permutations of cells that map lines onto lines, found here by trying
    /// every axis permutation with every relabelling of the coordinates 0..4 on each axis.
    pub fn cube(gravity: bool) -> Geometry {
        let bit = |p: [i32; 3]| (p[0] + 4 * p[1] + 16 * p[2]) as u32;
        let mut lines = Vec::new();
        for start in 0..64 {
            let p = [start % 4, start / 4 % 4, start / 16];
            for d in 1..27 {
                let d = [d % 3 - 1, d / 3 % 3 - 1, d / 9 - 1];
                if d == [0, 0, 0] {
                    continue;
                }
                let cells: Vec<[i32; 3]> = (0..4)
                    .map(|i| [p[0] + i * d[0], p[1] + i * d[1], p[2] + i * d[2]])
                    .collect();
                if cells.iter().all(|c| c.iter().all(|v| (0..4).contains(v))) {
                    lines.push(cells.iter().fold(0u128, |m, &c| m | 1 << bit(c)));
                }
            }
        }
        lines.sort_unstable();
        lines.dedup();
        let board = (1u128 << 64) - 1;
        let known: HashSet<u128> = lines.iter().copied().collect();
        let relabellings = permutations4();
        let mut symmetries = Vec::new();
        for axes in permutations3() {
            if gravity && axes[2] != 2 {
                continue;
            }
            for px in &relabellings {
                for py in &relabellings {
                    for pz in &relabellings {
                        if gravity && *pz != [0, 1, 2, 3] {
                            continue;
                        }
                        let labels = [px, py, pz];
                        let mut sym = identity();
                        for cell in 0..64 {
                            let p = [cell % 4, cell / 4 % 4, cell / 16];
                            let mut q = [0; 3];
                            for (axis, &from) in axes.iter().enumerate() {
                                q[axis] = labels[axis][p[from] as usize];
                            }
                            sym[cell as usize] = bit(q) as u8;
                        }
                        if lines.iter().all(|&l| known.contains(&Self::apply(&sym, l))) {
                            symmetries.push(sym);
                        }
                    }
                }
            }
        }
        symmetries.sort_unstable();
        symmetries.dedup();
        Geometry::new(board, lines, symmetries).expect("the cube's description is valid")
    }

    /// Pentago's 6x6 board (cell `x + 6y`) with its 32 lines of five and the 8 symmetries of
    /// the square. (A quadrant's rotation is a move, not a symmetry.)
    pub fn pentago() -> Geometry {
        let bit = |x: i32, y: i32| (x + 6 * y) as u32;
        let mut lines = Vec::new();
        for x in 0..6 {
            for y in 0..6 {
                for (dx, dy) in [(1, 0), (0, 1), (1, 1), (1, -1)] {
                    let end = (x + 4 * dx, y + 4 * dy);
                    if (0..6).contains(&end.0) && (0..6).contains(&end.1) {
                        lines.push((0..5).fold(0u128, |m, i| m | 1 << bit(x + i * dx, y + i * dy)));
                    }
                }
            }
        }
        let board = (1u128 << 36) - 1;
        let mut symmetries = Vec::new();
        for transpose in [false, true] {
            for flip_x in [false, true] {
                for flip_y in [false, true] {
                    let mut sym = identity();
                    for x in 0..6 {
                        for y in 0..6 {
                            let (mut u, mut v) = if transpose { (y, x) } else { (x, y) };
                            if flip_x {
                                u = 5 - u;
                            }
                            if flip_y {
                                v = 5 - v;
                            }
                            sym[bit(x, y) as usize] = bit(u, v) as u8;
                        }
                    }
                    symmetries.push(sym);
                }
            }
        }
        Geometry::new(board, lines, symmetries).expect("Pentago's description is valid")
    }
}

/// A permutation of the cells of a 64-bit board as byte tables (`table[byte][value]` is the
/// image of that byte's cells), so that a board maps by one look-up per byte; the board's cells
/// lie in its first `BYTES` bytes.
pub(crate) struct ByteTables<const BYTES: usize>([[u64; 256]; BYTES]);

impl<const BYTES: usize> ByteTables<BYTES> {
    /// The tables of the permutation `p`.
    pub fn new(p: &Permutation) -> Self {
        let mut t = [[0u64; 256]; BYTES];
        for (byte, table) in t.iter_mut().enumerate() {
            for (value, image) in table.iter_mut().enumerate() {
                for bit in (0..8).filter(|bit| value >> bit & 1 == 1) {
                    *image |= 1 << p[byte * 8 + bit];
                }
            }
        }
        ByteTables(t)
    }

    /// The image of the board `b`.
    #[inline(always)]
    pub fn apply(&self, b: u64) -> u64 {
        let mut out = 0;
        for (i, table) in self.0.iter().enumerate() {
            out |= table[(b >> (8 * i)) as usize & 0xff];
        }
        out
    }
}

/// The permutation that maps every cell to itself.
pub fn identity() -> Permutation {
    std::array::from_fn(|i| i as u8)
}

fn permutations3() -> Vec<[usize; 3]> {
    let mut all = Vec::new();
    for a in 0..3 {
        for b in 0..3 {
            for c in 0..3 {
                if a != b && b != c && a != c {
                    all.push([a, b, c]);
                }
            }
        }
    }
    all
}

fn permutations4() -> Vec<[i32; 4]> {
    let mut all = Vec::new();
    for n in 0..256 {
        let p = [n % 4, n / 4 % 4, n / 16 % 4, n / 64];
        let mut seen = [false; 4];
        if p.iter()
            .all(|&v| !std::mem::replace(&mut seen[v as usize], true))
        {
            all.push(p);
        }
    }
    all
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every subset of the lines' evaluation against the masks, on pseudo-random sets.
    fn check_evaluation(g: &Geometry) {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for round in 0..3000 {
            let dense = round % 3;
            let mut stones = (next() as u128 | (next() as u128) << 64) & g.board();
            for _ in 0..dense {
                stones |= (next() as u128 | (next() as u128) << 64) & g.board();
            }
            let empty = !stones & (next() as u128 | (next() as u128) << 64) & g.board();
            let by_masks = g.lines().iter().any(|&l| l & !stones == 0);
            assert_eq!(g.has_line(stones), by_masks);
            let mut winning = 0;
            for &l in g.lines() {
                let missing = l & !stones;
                if missing.count_ones() == 1 && missing & empty != 0 {
                    winning |= missing;
                }
            }
            assert_eq!(g.winning_cells(stones, empty), winning);
        }
    }

    #[test]
    fn the_cube_has_76_lines_and_192_or_8_symmetries() {
        let qubic = Geometry::cube(false);
        assert_eq!(qubic.lines().len(), 76);
        assert_eq!(qubic.symmetries().len(), 192);
        let gravity = Geometry::cube(true);
        assert_eq!(gravity.lines().len(), 76);
        assert_eq!(gravity.symmetries().len(), 8);
        // 13 directions, each one family of lines of four.
        assert_eq!(qubic.families().len(), 13);
        check_evaluation(&qubic);
    }

    #[test]
    fn pentago_has_32_lines_and_8_symmetries() {
        let g = Geometry::pentago();
        assert_eq!(g.lines().len(), 32);
        assert_eq!(g.symmetries().len(), 8);
        check_evaluation(&g);
    }

    #[test]
    fn grids_have_the_known_line_counts() {
        // 7x6, k = 4: 24 horizontal, 21 vertical, 12 + 12 diagonal.
        let g = Geometry::grid(7, 6, 4).unwrap();
        assert_eq!(g.lines().len(), 69);
        assert_eq!(g.symmetries().len(), 2);
        check_evaluation(&g);
        check_evaluation(&Geometry::grid(9, 5, 5).unwrap());
    }

    #[test]
    fn descriptions_are_checked() {
        let board = 0b1111;
        assert!(Geometry::new(board, vec![0b11, 0b1100], vec![identity()]).is_ok());
        assert!(Geometry::new(board, vec![0b1, 0b1100], vec![identity()]).is_err());
        assert!(Geometry::new(board, vec![0b11_0000], vec![identity()]).is_err());
        let mut swap = identity();
        swap[0] = 1;
        swap[1] = 0;
        assert!(Geometry::new(board, vec![0b11], vec![identity(), swap]).is_ok());
        let mut bad = identity();
        bad[1] = 2;
        bad[2] = 1;
        assert!(Geometry::new(board, vec![0b11], vec![identity(), bad]).is_err());
        assert!(Geometry::new(board, vec![0b11], vec![swap]).is_err());
        // Not equally spaced: tested mask by mask.
        let g = Geometry::new(board, vec![0b1011], vec![identity()]).unwrap();
        assert!(g.has_line(0b1011) && !g.has_line(0b0011));
        assert_eq!(g.winning_cells(0b0011, 0b1000), 0b1000);
    }
}
