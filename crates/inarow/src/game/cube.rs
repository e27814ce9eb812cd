//! The 4x4x4 games: Connect Four 3D (`cube`: stones fall down one of 16 columns) and Qubic
//! (`qubic`: a stone goes on any empty cell of 64). Four in a row along any of the 76 lines wins;
//! a full board without a line is a draw. The board is the cube of
//! [`Geometry::cube`](super::Geometry::cube); this module evaluates it by shifts.
//!
//! Bitboard layout (the seed's, connect-four-3d): one `u64` per player, cell `x + 4y + 16z`,
//! `z` the level (0 at the bottom), so a column `x + 4y` holds the cells `c, c + 16, c + 32,
//! c + 48` and gravity is a shift by 16:
//!
//! ```text
//!   level 3: 48 49 50 51   level 2: 32 .. 35   level 1: 16 .. 19   level 0:  0  1  2  3
//!            52 53 54 55            36 .. 39            20 .. 23             4  5  6  7
//!            56 57 58 59            40 .. 43            24 .. 27             8  9 10 11
//!            60 61 62 63            44 .. 47            28 .. 31            12 13 14 15
//! ```
//!
//! The 76 lines fall into 13 directions; every direction is one family of lines `c, c + s,
//! c + 2s, c + 3s` for a step `s > 0` and a mask of the first cells `c`, so a line test is four
//! shifts per direction. A threat (a line with three of a player's stones and an empty cell)
//! is found the same way.
//!
//! Notation: `cube` moves are hex column digits `0`-`f`, column = x + 4*y (the seed's and
//! `shared/data/cube`), one character a move (`0fc3`) or comma-separated. `qubic` moves are cells:
//! a column letter `a`-`d` (x), a row digit `1`-`4` (y) and a level digit `1`-`4` (z): `a11` is
//! cell 0, `d44` the top corner 63; three characters a move (`a11d44`) or comma-separated.
//!
//! Keys: `cube` uses the seed's compact 80-bit encoding (the first player's stones plus a marker
//! on the lowest empty cell of each column, and one bit per full column above them), the smallest
//! over the 8 symmetries of the floor; `qubic` the two boards side by side (128 bits), the
//! smallest over the 192 line-preserving permutations of the cube while the board holds at most
//! [`QUBIC_SYMMETRY_STONES`] stones (where symmetric positions are common and the table pays for
//! the 192 images), the position itself beyond.

use super::geometry::{self, Geometry};
use super::gravity::GravityGeometry;
use super::view::{Axis, Block, Board, CellId, CellName, CellSet, Effect, Layout, WinningLine};
use super::{
    Bounded, Finite, MoveList, Notation, Player, RankedMove, Rules, SafeChoice, Status, Tactics,
};
use crate::error::Error;
use arrayvec::ArrayVec;
use std::fmt::Write;
use std::fmt::{self, Debug};
use std::sync::OnceLock;

/// The bottom level.
const LEVEL0: u64 = 0xffff;

/// The 13 directions as (step, first cells): the line from `c` holds `c + i * step`, i < 4.
const FAMILIES: [(u32, u64); 13] = families();

/// The 76 lines.
pub const LINES: [u64; 76] = lines();

/// The lines through each cell (at most 7), as indices into [`LINES`]; 255 ends a list.
const LINES_THROUGH: [[u8; 7]; 64] = lines_through();

const fn coord(c: i32) -> [i32; 3] {
    [c % 4, c / 4 % 4, c / 16]
}

const fn lines() -> [u64; 76] {
    let mut out = [0u64; 76];
    let mut n = 0;
    let mut f = 0;
    let fam = families();
    while f < 13 {
        let (step, starts) = fam[f];
        let mut c = 0u32;
        while c < 64 {
            if starts >> c & 1 == 1 {
                let mut line = 0u64;
                let mut i = 0u32;
                while i < 4 {
                    line |= 1 << (c + i * step);
                    i += 1;
                }
                out[n] = line;
                n += 1;
            }
            c += 1;
        }
        f += 1;
    }
    assert!(n == 76);
    out
}

/// For each of the 13 directions (first nonzero component positive), its step and the cells a
/// line of four starts from, re-anchored at the line's lowest cell so that every step is
/// positive.
const fn families() -> [(u32, u64); 13] {
    let mut out = [(0u32, 0u64); 13];
    let mut n = 0;
    let mut d = 0;
    while d < 27 {
        let dir = [d % 3 - 1, d / 3 % 3 - 1, d / 9 - 1];
        // One of each pair of opposite directions: the first nonzero component positive.
        let first = if dir[0] != 0 {
            dir[0]
        } else if dir[1] != 0 {
            dir[1]
        } else {
            dir[2]
        };
        if first > 0 {
            let step = dir[0] + 4 * dir[1] + 16 * dir[2];
            let mut starts = 0u64;
            let mut c = 0;
            while c < 64 {
                let p = coord(c);
                let end = [p[0] + 3 * dir[0], p[1] + 3 * dir[1], p[2] + 3 * dir[2]];
                let inside = end[0] >= 0
                    && end[0] < 4
                    && end[1] >= 0
                    && end[1] < 4
                    && end[2] >= 0
                    && end[2] < 4;
                if inside {
                    // Anchor at the lowest cell of the line.
                    let low = if step > 0 { c } else { c + 3 * step };
                    starts |= 1 << low;
                }
                c += 1;
            }
            let step = if step > 0 { step } else { -step };
            out[n] = (step as u32, starts);
            n += 1;
        }
        d += 1;
    }
    assert!(n == 13);
    out
}

const fn lines_through() -> [[u8; 7]; 64] {
    let mut out = [[255u8; 7]; 64];
    let all = lines();
    let mut l = 0;
    while l < 76 {
        let mut c = 0;
        while c < 64 {
            if all[l] >> c & 1 == 1 {
                let mut k = 0;
                while out[c][k] != 255 {
                    k += 1;
                }
                out[c][k] = l as u8;
            }
            c += 1;
        }
        l += 1;
    }
    out
}

/// The lowest cells of the lines of a family `(shift, starts)` that `p` holds whole.
#[inline(always)]
fn whole_lines(p: u64, (s, starts): (u32, u64)) -> u64 {
    let pairs = p & (p >> s);
    pairs & (pairs >> (2 * s)) & starts
}

/// Whether the stones hold a line of four.
#[inline(always)]
pub fn has_line(p: u64) -> bool {
    FAMILIES.iter().fold(0, |any, &f| any | whole_lines(p, f)) != 0
}

/// The cells of every line of four that `p` holds whole.
#[inline(always)]
pub fn line_cells(p: u64) -> u64 {
    FAMILIES.iter().fold(0, |cells, &(s, starts)| {
        let whole = whole_lines(p, (s, starts));
        cells | whole | whole << s | whole << (2 * s) | whole << (3 * s)
    })
}

/// Whether a leader (see `strategy_bounds`) cannot make a line when it gets at most `cells`, and
/// of the `bottoms` in them only one of each pair, the follower choosing the pairs. The follower
/// may also pair two `bases` (the lowest empty cells of columns with an even number of them, on
/// levels 1 and 3: the leader's), Allis' baseinverse: the leader gets one of them, and then one
/// of the two cells above them, which the follower would otherwise have had.
fn leader_cannot_win(cells: u64, bottoms: u64, bases: u64) -> bool {
    if !has_line(cells) {
        return true;
    }
    // Only lines through two paired cells or more can be blocked.
    let special = bottoms | bases;
    let plain = cells & !special;
    if special.count_ones() < 2 || has_line(plain) {
        return false;
    }
    let mut rest = special;
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        rest &= rest - 1;
        if has_line(plain | cell) {
            return false;
        }
    }
    let mut pairs = ArrayVec::new();
    pairing_blocks(cells, bottoms, bases, &mut pairs, &mut 64)
}

/// Whether the `free` bottoms and bases can be paired so that every line within `cells` holds a
/// whole pair. The first line left open chooses its pair among its own cells, so the search is
/// small; `budget` bounds it.
fn pairing_blocks(
    cells: u64,
    bottoms: u64,
    bases: u64,
    pairs: &mut ArrayVec<u64, 32>,
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let open = LINES
        .iter()
        .find(|&&line| line & !cells == 0 && pairs.iter().all(|&pair| line & pair != pair));
    let Some(&line) = open else {
        return true;
    };
    for (free, inverse) in [(line & bottoms, false), (line & bases, true)] {
        let mut a = free;
        while a != 0 {
            let first = a & a.wrapping_neg();
            a &= a - 1;
            let mut b = a;
            while b != 0 {
                let pair = first | (b & b.wrapping_neg());
                b &= b - 1;
                if pairs.remaining_capacity() < 2 {
                    return false;
                }
                let blocked = if inverse {
                    pairs.push(pair);
                    pairs.push(pair << 16);
                    let blocked =
                        pairing_blocks(cells | pair << 16, bottoms, bases & !pair, pairs, budget);
                    pairs.pop();
                    blocked
                } else {
                    pairs.push(pair);
                    pairing_blocks(cells, bottoms & !pair, bases, pairs, budget)
                };
                pairs.pop();
                if blocked {
                    return true;
                }
            }
        }
    }
    false
}

/// The empty cells that would complete a line of four for the stones `p`.
#[inline(always)]
pub fn winning_cells(p: u64, empty: u64) -> u64 {
    let mut cells = 0;
    let mut f = 0;
    while f < 13 {
        let (s, starts) = FAMILIES[f];
        let (a, b, c, d) = (p, p >> s, p >> (2 * s), p >> (3 * s));
        // The line from each start with its j-th cell missing.
        cells |= starts & b & c & d;
        cells |= (starts & a & c & d) << s;
        cells |= (starts & a & b & d) << (2 * s);
        cells |= (starts & a & b & c) << (3 * s);
        f += 1;
    }
    cells & empty
}

/// The empty cells where a stone of `p` would make a line of three with the fourth cell empty:
/// the empty cells of the lines that hold two of `p`'s stones and none of `theirs`.
#[inline(always)]
pub fn threat_cells(p: u64, theirs: u64) -> u64 {
    let mut cells = 0;
    let mut f = 0;
    while f < 13 {
        let (s, starts) = FAMILIES[f];
        let m = [p, p >> s, p >> (2 * s), p >> (3 * s)];
        let t = theirs | theirs >> s | theirs >> (2 * s) | theirs >> (3 * s);
        let open = starts & !t;
        // Cell j is empty and the other three hold exactly two of `p`'s stones.
        let exactly_two = |x: u64, y: u64, z: u64| (x & y | x & z | y & z) & !(x & y & z);
        cells |= open & !m[0] & exactly_two(m[1], m[2], m[3]);
        cells |= (open & !m[1] & exactly_two(m[0], m[2], m[3])) << s;
        cells |= (open & !m[2] & exactly_two(m[0], m[1], m[3])) << (2 * s);
        cells |= (open & !m[3] & exactly_two(m[0], m[1], m[2])) << (3 * s);
        f += 1;
    }
    cells
}

/// Qubic's canonical keys cover the 192 symmetries up to this many stones.
pub const QUBIC_SYMMETRY_STONES: u32 = 12;

/// A 4x4x4 position: with gravity (`GRAVITY`, Connect Four 3D) or without (Qubic).
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Cube<const GRAVITY: bool> {
    /// The stones of the first and of the second player.
    stones: [u64; 2],
    /// The empty cells that would complete a line for each player (kept as stones are added,
    /// as in the seed: cheaper than finding them again at every node).
    threats: [u64; 2],
    ply: u8,
    /// The last move made a line.
    won: bool,
}

/// Connect Four 3D.
pub type Gravity = Cube<true>;
/// Qubic.
pub type Qubic = Cube<false>;

impl<const GRAVITY: bool> Debug for Cube<GRAVITY> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}({:#x}, {:#x})",
            self.name(),
            self.stones[0],
            self.stones[1]
        )
    }
}

impl<const GRAVITY: bool> Default for Cube<GRAVITY> {
    fn default() -> Self {
        Self::new()
    }
}

impl<const GRAVITY: bool> Cube<GRAVITY> {
    /// The empty board.
    pub fn new() -> Self {
        Cube {
            stones: [0, 0],
            threats: [0, 0],
            ply: 0,
            won: false,
        }
    }

    /// The stones of the first player and of the second.
    pub fn stones(&self) -> (u64, u64) {
        (self.stones[0], self.stones[1])
    }

    #[inline(always)]
    fn filled(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    #[inline(always)]
    fn mine(&self) -> u64 {
        self.stones[(self.ply & 1) as usize]
    }

    #[inline(always)]
    fn theirs(&self) -> u64 {
        self.stones[(!self.ply & 1) as usize]
    }

    /// The cells a stone may go on now: the lowest empty cell of each column, or every empty
    /// cell.
    #[inline(always)]
    fn playable(&self) -> u64 {
        let empty = !self.filled();
        if GRAVITY {
            empty & ((self.filled() << 16) | LEVEL0)
        } else {
            empty
        }
    }

    /// The cell a move puts a stone on.
    #[inline(always)]
    fn cell_of(&self, m: u8) -> u32 {
        if GRAVITY {
            let column = 0x0001_0001_0001_0001u64 << m;
            (self.playable() & column).trailing_zeros()
        } else {
            m as u32
        }
    }

    /// The threats (cells completing a line of four) that a stone of the side to move on `cell`
    /// adds to `before`, its threats now: on the lines through the cell that hold two of its
    /// stones and none of the opponent's. With gravity, only those that can be played at once.
    #[inline(always)]
    fn new_threats(&self, cell: u32, before: u64) -> u64 {
        let (mine, theirs) = (self.mine(), self.theirs());
        let stone = 1u64 << cell;
        let mut new = 0;
        for &l in LINES_THROUGH[cell as usize]
            .iter()
            .take_while(|&&l| l != 255)
        {
            let line = LINES[l as usize];
            if line & theirs == 0 && (line & mine).count_ones() == 2 {
                new |= line & !mine & !stone;
            }
        }
        new &= !before;
        if GRAVITY {
            new &= (self.filled() | stone) << 16 | LEVEL0;
        }
        new
    }

    /// The cells of the safe moves (see [`Tactics::safe_moves`]).
    #[inline(always)]
    fn safe_cells(&self) -> u64 {
        let threats = self.threats[(!self.ply & 1) as usize];
        let playable = self.playable();
        let forced = playable & threats;
        let mut candidates = match forced {
            0 => playable,
            f if f & (f - 1) != 0 => return 0,
            f => f,
        };
        if GRAVITY {
            candidates &= !(threats >> 16);
        }
        candidates
    }

    /// The move that puts a stone on `cell`.
    #[inline(always)]
    fn move_of(cell: u32) -> u8 {
        if GRAVITY {
            (cell % 16) as u8
        } else {
            cell as u8
        }
    }

    /// The board mapped by symmetry `i` (see [`symmetries`]).
    #[inline]
    fn image_stones(&self, i: usize) -> [u64; 2] {
        let t = &symmetries::<GRAVITY>()[i];
        [t.apply(self.stones[0]), t.apply(self.stones[1])]
    }

    /// The key of the boards `[first, second]`.
    #[inline(always)]
    fn key_of(stones: [u64; 2]) -> u128 {
        if GRAVITY {
            // The seed's compact board: the first player's stones, a marker on each column's
            // lowest empty cell, and above them one bit per full column.
            let filled = stones[0] | stones[1];
            let empty = !filled;
            let lowest_empty = empty & !(empty << 16);
            let cover = (filled >> 48) as u128;
            (stones[0] | lowest_empty) as u128 | cover << 64
        } else {
            stones[0] as u128 | (stones[1] as u128) << 64
        }
    }
}

/// The symmetries of the board as byte tables (`table[byte][value]` is the image of that byte's
/// cells): the 8 of the floor with gravity, the 192 of Qubic without. Built once.
fn symmetries<const GRAVITY: bool>() -> &'static [ByteTables] {
    static FLOOR: OnceLock<Vec<ByteTables>> = OnceLock::new();
    static CUBE: OnceLock<Vec<ByteTables>> = OnceLock::new();
    let cell = if GRAVITY { &FLOOR } else { &CUBE };
    cell.get_or_init(|| {
        Geometry::cube(GRAVITY)
            .symmetries()
            .iter()
            .map(ByteTables::new)
            .collect()
    })
}

/// A permutation of 64 cells.
type ByteTables = geometry::ByteTables<8>;

impl<const GRAVITY: bool> Rules for Cube<GRAVITY> {
    type Move = u8;
    type Kind = Finite;

    fn name(&self) -> String {
        if GRAVITY { "cube" } else { "qubic" }.to_string()
    }

    #[inline(always)]
    fn ply(&self) -> u32 {
        self.ply as u32
    }

    fn legal_moves(&self, out: &mut MoveList<u8>) {
        if self.status() != Status::Ongoing {
            return;
        }
        // Centre and corners first: they lie on 7 lines, the others on 4.
        for cell in in_cell_order(self.playable()) {
            out.push(Self::move_of(cell));
        }
    }

    #[inline(always)]
    fn play(&self, m: u8) -> Self {
        let cell = self.cell_of(m);
        let stone = 1u64 << cell;
        let me = (self.ply & 1) as usize;
        let mut stones = self.stones;
        stones[me] |= stone;
        let theirs = stones[me ^ 1];
        // Over the lines through the new stone: a full line wins, a line missing one cell and
        // free of the opponent's stones makes that cell a threat.
        let (mut won, mut new) = (false, 0);
        for &l in LINES_THROUGH[cell as usize]
            .iter()
            .take_while(|&&l| l != 255)
        {
            let line = LINES[l as usize];
            let missing = line & !stones[me];
            if missing == 0 {
                won = true;
            } else if line & theirs == 0 && missing & (missing - 1) == 0 {
                new |= missing;
            }
        }
        let mut threats = self.threats;
        threats[me] |= new;
        threats[0] &= !stone;
        threats[1] &= !stone;
        Cube {
            stones,
            threats,
            ply: self.ply + 1,
            won,
        }
    }

    #[inline(always)]
    fn status(&self) -> Status {
        if self.won {
            Status::Win(Player::at_ply(self.ply as u32 - 1))
        } else if self.ply == 64 {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    #[inline(always)]
    fn key(&self) -> u128 {
        Self::key_of(self.stones)
    }

    fn key_bits(&self) -> u32 {
        if GRAVITY { 80 } else { 128 }
    }

    #[inline]
    fn canonical_key(&self) -> u128 {
        if GRAVITY {
            // The 8 symmetries of the floor by flips within each level (the seed's).
            let mut best = u128::MAX;
            let [a, b] = self.stones;
            for [a, b] in [[a, b], [flip_diagonal(a), flip_diagonal(b)]] {
                for [a, b] in [[a, b], [flip_rows(a), flip_rows(b)]] {
                    for [a, b] in [[a, b], [flip_columns(a), flip_columns(b)]] {
                        best = best.min(Self::key_of([a, b]));
                    }
                }
            }
            return best;
        }
        if self.ply as u32 > QUBIC_SYMMETRY_STONES {
            return self.key();
        }
        // The key orders by the second player's board first: map the first player's stones only
        // for the images whose second board ties for the least.
        let [a, b] = self.stones;
        let (mut least_b, mut least_a) = (u64::MAX, u64::MAX);
        for t in symmetries::<GRAVITY>() {
            let image_b = t.apply(b);
            if image_b <= least_b {
                let image_a = t.apply(a);
                if image_b < least_b || image_a < least_a {
                    least_a = image_a;
                }
                least_b = image_b;
            }
        }
        Self::key_of([least_a, least_b])
    }

    fn symmetry_count(&self) -> usize {
        symmetries::<GRAVITY>().len()
    }

    fn image_key(&self, i: usize) -> u128 {
        Self::key_of(self.image_stones(i))
    }

    fn image(&self, i: usize) -> Self {
        let stones = self.image_stones(i);
        let empty = !(stones[0] | stones[1]);
        Cube {
            stones,
            threats: [
                winning_cells(stones[0], empty),
                winning_cells(stones[1], empty),
            ],
            ..*self
        }
    }

    fn image_move(&self, m: u8, i: usize) -> u8 {
        // A column's image is the image of its floor cell's column.
        let cell = symmetries::<GRAVITY>()[i].apply(1 << m).trailing_zeros();
        Self::move_of(cell)
    }

    /// Stones are only added: some other symmetry must map the stones onto cells free of the
    /// other player's (for Qubic, only while its canonical keys cover the symmetries).
    fn images_may_meet(&self) -> bool {
        if !GRAVITY && self.ply as u32 > QUBIC_SYMMETRY_STONES {
            return false;
        }
        let [a, b] = self.stones;
        // Symmetry 0 is the identity (the permutations are sorted).
        (1..symmetries::<GRAVITY>().len()).any(|i| {
            let [ia, ib] = self.image_stones(i);
            ia & b == 0 && ib & a == 0
        })
    }

    #[inline(always)]
    fn move_code(&self, m: u8) -> u16 {
        m as u16
    }

    /// Stones are only added, and lines are made by stones alone: the other side may as well
    /// move now.
    fn gravity_position(&self) -> Option<(&'static GravityGeometry, u128, u128)> {
        static CUBE: OnceLock<GravityGeometry> = OnceLock::new();
        GRAVITY.then(|| {
            (
                CUBE.get_or_init(GravityGeometry::cube),
                self.mine() as u128,
                self.theirs() as u128,
            )
        })
    }
}

/// Each level mirrored left to right (x -> 3 - x).
#[inline(always)]
fn flip_columns(b: u64) -> u64 {
    ((b & 0x8888_8888_8888_8888) >> 3)
        | ((b & 0x4444_4444_4444_4444) >> 1)
        | ((b & 0x2222_2222_2222_2222) << 1)
        | ((b & 0x1111_1111_1111_1111) << 3)
}

/// Each level mirrored front to back (y -> 3 - y).
#[inline(always)]
fn flip_rows(b: u64) -> u64 {
    ((b & 0xf000_f000_f000_f000) >> 12)
        | ((b & 0x0f00_0f00_0f00_0f00) >> 4)
        | ((b & 0x00f0_00f0_00f0_00f0) << 4)
        | ((b & 0x000f_000f_000f_000f) << 12)
}

/// Each level transposed (x <-> y).
#[inline(always)]
fn flip_diagonal(b: u64) -> u64 {
    ((b & 0x8000_8000_8000_8000) >> 15)
        | ((b & 0x4800_4800_4800_4800) >> 10)
        | ((b & 0x2480_2480_2480_2480) >> 5)
        | (b & 0x1248_1248_1248_1248)
        | ((b & 0x0124_0124_0124_0124) << 5)
        | ((b & 0x0012_0012_0012_0012) << 10)
        | ((b & 0x0001_0001_0001_0001) << 15)
}

/// Every cell, those on 7 lines (the 8 corners and the 8 centre cells) first.
const CELL_ORDER: [u8; 64] = cell_order();

/// The cells on 7 lines.
const SEVEN_LINES: u64 = seven_lines();

const fn seven_lines() -> u64 {
    let mut mask = 0;
    let mut i = 0;
    while i < 16 {
        mask |= 1 << CELL_ORDER[i];
        i += 1;
    }
    mask
}

/// The cells of `set` in [`CELL_ORDER`]: its bits, walked instead of the 64 cells.
#[inline(always)]
fn in_cell_order(set: u64) -> impl Iterator<Item = u32> {
    let mut parts = [set & SEVEN_LINES, set & !SEVEN_LINES];
    let mut part = 0;
    std::iter::from_fn(move || {
        while part < 2 {
            let bits = &mut parts[part];
            if *bits != 0 {
                let cell = bits.trailing_zeros();
                *bits &= *bits - 1;
                return Some(cell);
            }
            part += 1;
        }
        None
    })
}

const fn cell_order() -> [u8; 64] {
    let mut out = [0u8; 64];
    let through = lines_through();
    let mut n = 0;
    let mut pass = 0;
    while pass < 2 {
        let mut c = 0;
        while c < 64 {
            let seven = through[c][6] != 255;
            if seven == (pass == 0) {
                out[n] = c as u8;
                n += 1;
            }
            c += 1;
        }
        pass += 1;
    }
    out
}

impl<const GRAVITY: bool> Bounded for Cube<GRAVITY> {
    #[inline(always)]
    fn max_plies(&self) -> u32 {
        64
    }
}

impl<const GRAVITY: bool> Tactics for Cube<GRAVITY> {
    /// A stone makes lines only for its mover, and the board fills on the last ply.
    const ONLY_MOVER_WINS: bool = true;

    /// Open lines and threats ([`geometry::line_score`]; no row parity in three dimensions).
    fn evaluate(&self) -> Option<i32> {
        static LINES: [OnceLock<Vec<u128>>; 2] = [OnceLock::new(), OnceLock::new()];
        let lines =
            LINES[GRAVITY as usize].get_or_init(|| Geometry::cube(GRAVITY).lines().to_vec());
        Some(geometry::line_score(
            lines,
            self.mine() as u128,
            self.theirs() as u128,
            4,
            None,
        ))
    }
    const THREATS: bool = true;

    #[inline(always)]
    fn has_winning_move(&self) -> bool {
        self.threats[(self.ply & 1) as usize] & self.playable() != 0
    }

    /// Not losing to the opponent's next move: a single opponent threat must be blocked, two
    /// lose; with gravity, never play under an opponent's threat (it would become playable).
    #[inline(always)]
    fn safe_moves(&self, out: &mut MoveList<RankedMove<u8>>) {
        let candidates = self.safe_cells();
        if candidates & candidates.wrapping_sub(1) == 0 {
            if candidates != 0 {
                out.push(RankedMove {
                    mv: Self::move_of(candidates.trailing_zeros()),
                    rank: 0,
                });
            }
            return;
        }
        for cell in in_cell_order(candidates) {
            out.push(RankedMove {
                mv: Self::move_of(cell),
                rank: 0,
            });
        }
    }

    /// Counted from the safe cells: the default plays every move to count them, and the
    /// searches ask this of every position they reach (38% of gravity_28's time).
    #[inline(always)]
    fn safe_choice(&self) -> SafeChoice<u8> {
        match self.safe_cells() {
            0 => SafeChoice::None,
            cells if cells & (cells - 1) != 0 => SafeChoice::Several,
            cell => SafeChoice::Forced(Self::move_of(cell.trailing_zeros())),
        }
    }

    #[inline(always)]
    fn is_safe_move(&self, m: u8) -> bool {
        let column_or_cell = if GRAVITY {
            0x0001_0001_0001_0001u64 << m
        } else {
            1u64 << m
        };
        self.safe_cells() & column_or_cell != 0
    }

    /// Safe moves that make a new threat the opponent must answer (with gravity: a threat on a
    /// cell that can be played at once).
    #[inline]
    fn threat_moves(&self, out: &mut MoveList<u8>) {
        let mut safe = MoveList::new();
        self.safe_moves(&mut safe);
        let before = self.threats[(self.ply & 1) as usize];
        if GRAVITY {
            for rm in &safe {
                if self.new_threats(self.cell_of(rm.mv), before) != 0 {
                    out.push(rm.mv);
                }
            }
        } else {
            // Any cell of a line with two stones and two empty cells makes a threat on the
            // other (not one already there: the side to move would have won).
            let cells = threat_cells(self.mine(), self.theirs());
            out.extend(safe.iter().map(|rm| rm.mv).filter(|&m| cells >> m & 1 == 1));
        }
    }

    /// The seed's line count: over the lines through the cell without an opponent stone, 1, 10
    /// or 100 for 0, 1 or 2 of the mover's stones there, and 1000 for each threat the move makes
    /// that can be played at once (with gravity: not above an empty cell).
    #[inline(always)]
    fn rank_moves(&self, moves: &mut [RankedMove<u8>]) {
        let (mine, theirs) = (self.mine(), self.theirs());
        let filled = self.filled();
        let before = self.threats[(self.ply & 1) as usize];
        for rm in moves {
            let cell = self.cell_of(rm.mv);
            let stone = 1u64 << cell;
            let (mut rank, mut threats) = (0, 0);
            for &l in LINES_THROUGH[cell as usize]
                .iter()
                .take_while(|&&l| l != 255)
            {
                let line = LINES[l as usize];
                if line & theirs == 0 {
                    let count = (line & mine).count_ones();
                    rank += [1, 10, 100, 0][count as usize];
                    if count == 2 {
                        threats |= line & !mine & !stone;
                    }
                }
            }
            threats &= !before;
            if GRAVITY {
                threats &= (filled | stone) << 16 | LEVEL0;
            }
            rm.rank = rank + 1000 * threats.count_ones() as i32;
        }
    }

    fn pass(&self) -> Option<Self> {
        (self.ply < 63 && !self.won).then_some(Cube {
            ply: self.ply + 1,
            ..*self
        })
    }

    /// Bounds on the score of the side to move:
    /// - if every line holds an opponent stone, it cannot win; if every line holds one of its
    ///   stones, it cannot lose;
    /// - with gravity, strategies that follow up (Allis' claimeven, generalised). Call a column
    ///   odd when it has an odd number of empty cells, and its lowest empty cell its bottom. A
    ///   follower answers every move in the same column, and a move at the bottom of an odd
    ///   column at the bottom of another odd column it has paired with it. Then the leader gets
    ///   at most the empty cells on levels 1 and 3 and, of each pair of bottoms, one (which one
    ///   is its choice), and a column it must not enter it is never made to enter until every
    ///   other column is full. So:
    ///   - the first player to move (an even number of empty cells) cannot win if it cannot make
    ///     a line with those, the second player following. If the second player can then make
    ///     one with its stones and the cells on levels 2 and 4 that are no bottom, it wins;
    ///   - the second player to move cannot lose if, after it enters some column, the first
    ///     player cannot make such a line;
    ///   - the second player to move loses (zugzwang) if an odd column holds one stone under a
    ///     first-player threat on level 3, and it cannot make a line with the cell under the
    ///     threat and what it gets as the leader in the other columns: the first player follows
    ///     and wins when that cell is played at last.
    #[inline(always)]
    fn strategy_bounds(&self, _alpha: i32, _beta: i32) -> (i32, i32) {
        let (mine, theirs) = (self.mine(), self.theirs());
        if !has_line(!theirs) {
            return (i32::MIN, 0);
        }
        if !has_line(!mine) {
            return (0, i32::MAX);
        }
        if !GRAVITY {
            return (i32::MIN, i32::MAX);
        }
        const ODD_LEVELS: u64 = 0x0000_ffff_0000_ffff;
        const COLUMN: u64 = 0x0001_0001_0001_0001;
        let filled = self.filled();
        let empty = !filled;
        let odd_columns = (filled ^ filled >> 16 ^ filled >> 32 ^ filled >> 48) & LEVEL0;
        let lowest = empty & (filled << 16 | LEVEL0);
        let bottoms = lowest & (odd_columns * COLUMN);
        let bases = lowest & !bottoms;
        let led = empty & ODD_LEVELS;
        if self.ply & 1 == 0 {
            // Without baseinverse the second player keeps every cell on levels 2 and 4 that is
            // no bottom, so it wins if it makes a line with them.
            let cells = mine | led | bottoms;
            return if leader_cannot_win(cells, bottoms, 0) {
                if has_line(theirs | (empty & !ODD_LEVELS & !bottoms)) {
                    (i32::MIN, -1)
                } else {
                    (i32::MIN, 0)
                }
            } else if leader_cannot_win(cells, bottoms, bases) {
                (i32::MIN, 0)
            } else {
                (i32::MIN, i32::MAX)
            };
        }
        // Odd columns with one stone under a first-player threat on level 3: the second player
        // must enter one kept (the others pair like any odd column), or, with an odd number of
        // them, all.
        let their_threats = self.threats[(!self.ply & 1) as usize];
        let traps = their_threats >> 32 & filled & !(filled >> 16) & LEVEL0;
        let zugzwang = |kept: u64| {
            let columns = kept * COLUMN;
            let others = bottoms & !columns;
            leader_cannot_win(
                mine | (led & !columns) | others | (columns & 0xffff_0000),
                others,
                bases,
            )
        };
        let several = traps.count_ones() > 1 && traps.count_ones() % 2 == 1;
        let mut lost = several && zugzwang(traps);
        let mut single = traps;
        while !lost && single != 0 {
            lost = zugzwang(single & single.wrapping_neg());
            single &= single - 1;
        }
        if lost {
            return (i32::MIN, -1);
        }
        let at_most = theirs | led;
        let open = line_cells(at_most | bottoms);
        if open == 0 {
            return (0, i32::MAX);
        }
        // The second player enters a column, then follows. A column whose lowest empty cell
        // no possible line of the first player crosses gains nothing.
        let mut entries = open & empty & (filled << 16 | LEVEL0);
        while entries != 0 {
            let entry = entries & entries.wrapping_neg();
            entries &= entries - 1;
            let column = COLUMN << (entry.trailing_zeros() & 15);
            let (bottoms, bases) = if bottoms & column != 0 {
                (bottoms & !column, bases | (entry << 16 & column))
            } else {
                (bottoms | (entry << 16 & column), bases & !column)
            };
            if leader_cannot_win(theirs | (led & !entry) | bottoms, bottoms, bases) {
                return (0, i32::MAX);
            }
        }
        (i32::MIN, i32::MAX)
    }
}

impl<const GRAVITY: bool> Notation for Cube<GRAVITY> {
    fn parse_move(&self, token: &str) -> Result<u8, Error> {
        if GRAVITY {
            let column = u8::from_str_radix(token, 16)
                .ok()
                .filter(|c| token.len() == 1 && *c < 16)
                .ok_or_else(|| {
                    Error::Input(format!(
                        "'{token}' is not a column: expected a hex digit 0-f"
                    ))
                })?;
            if self.filled() >> (48 + column as u32) & 1 == 1 {
                return Err(Error::Input(format!("column {token} is full")));
            }
            Ok(column)
        } else {
            let b = token.as_bytes();
            let bad = || {
                Error::Input(format!(
                    "'{token}' is not a cell: expected a column a-d, a row 1-4 and a level 1-4, like b23"
                ))
            };
            if b.len() != 3 {
                return Err(bad());
            }
            let x = b[0].to_ascii_lowercase().wrapping_sub(b'a');
            let (y, z) = (b[1].wrapping_sub(b'1'), b[2].wrapping_sub(b'1'));
            if x > 3 || y > 3 || z > 3 {
                return Err(bad());
            }
            let cell = x + 4 * y + 16 * z;
            if self.filled() >> cell & 1 == 1 {
                return Err(Error::Input(format!("cell {token} is taken")));
            }
            Ok(cell)
        }
    }

    fn describe_moves(&self) -> String {
        if GRAVITY {
            "a hex digit 0-f: the column of the 4x4 floor, numbered row by row (0-3 the first \
             row, c-f the last); a disc falls to its lowest empty cell; like 05af"
                .to_string()
        } else {
            "a cell: column a-d, row 1-4, level 1-4 (b23 is column b, row 2, level 3); like a11b23"
                .to_string()
        }
    }

    fn format_move(&self, m: u8) -> String {
        if GRAVITY {
            format!("{m:x}")
        } else {
            let (x, y, z) = (m % 4, m / 4 % 4, m / 16);
            format!("{}{}{}", (b'a' + x) as char, y + 1, z + 1)
        }
    }

    /// One character a move (`cube`) or three (`qubic`), or comma-separated.
    fn split_moves<'a>(&self, text: &'a str) -> Vec<&'a str> {
        if text.contains(',') {
            return text.split(',').map(str::trim).collect();
        }
        let width = if GRAVITY { 1 } else { 3 };
        let mut tokens = Vec::new();
        let mut start = 0;
        let bounds: Vec<usize> = text
            .char_indices()
            .map(|(i, _)| i)
            .chain([text.len()])
            .collect();
        while start + 1 < bounds.len() {
            let end = (start + width).min(bounds.len() - 1);
            tokens.push(&text[bounds[start]..bounds[end]]);
            start = end;
        }
        tokens
    }

    fn join_moves(&self, moves: &[String]) -> String {
        moves.concat()
    }

    /// The four levels side by side, bottom level on the left; `X` first player, `O` second.
    /// The four levels side by side, bottom first, each named above its block. Qubic's rows
    /// are numbered on the left and its columns lettered below (`b23`: column b, row 2, level
    /// 3); the cube's columns are keyed on the right by the hex digit that drops a disc there.
    fn render(&self) -> String {
        let margin = if GRAVITY { "" } else { "   " };
        let mut s = String::new();
        s.push_str(margin);
        s.push_str("level 1   level 2   level 3   level 4");
        s.push_str(if GRAVITY { "   columns\n" } else { "\n" });
        for y in (0..4).rev() {
            if !GRAVITY {
                s.push_str(&format!("{}  ", y + 1));
            }
            for z in 0..4 {
                for x in 0..4 {
                    let cell = x + 4 * y + 16 * z;
                    s.push(if self.stones[0] >> cell & 1 == 1 {
                        'X'
                    } else if self.stones[1] >> cell & 1 == 1 {
                        'O'
                    } else {
                        '.'
                    });
                    s.push_str(if x < 3 { " " } else { "" });
                }
                s.push_str(if z < 3 { "   " } else { "" });
            }
            if GRAVITY {
                let key: Vec<String> = (0..4).map(|x| format!("{:x}", x + 4 * y)).collect();
                s.push_str(&format!("   {}", key.join(" ")));
            }
            s.push('\n');
        }
        if !GRAVITY {
            s.push_str(margin);
            s.push_str(&["a b c d"; 4].join("   "));
            s.push('\n');
        }
        s
    }
}

/// The four levels side by side, bottom first, as the terminal draws them; a cube cell is
/// named by its column (`0`-`f`), a Qubic cell by itself (`b23`).
impl<const GRAVITY: bool> Board for Cube<GRAVITY> {
    fn layout(&self) -> Layout {
        const LEVELS: [&str; 4] = ["level 1", "level 2", "level 3", "level 4"];
        Layout {
            size: [4, 4, 4],
            k: 4,
            gravity: GRAVITY.then_some(Axis::Z),
            blocks: (0..4u8)
                .map(|z| Block {
                    name: LEVELS[z as usize],
                    from: [0, 0, z],
                    size: [4, 4, 1],
                    place: [0, z],
                })
                .collect(),
        }
    }

    fn owner(&self, cell: CellId) -> Option<Player> {
        if self.stones[0] >> cell & 1 == 1 {
            Some(Player::First)
        } else if self.stones[1] >> cell & 1 == 1 {
            Some(Player::Second)
        } else {
            None
        }
    }

    fn cell_name(&self, cell: CellId) -> CellName {
        let mut name = CellName::new();
        let (x, y, z) = (cell % 4, cell / 4 % 4, cell / 16);
        let _ = if GRAVITY {
            write!(name, "{:x}", cell % 16)
        } else {
            write!(name, "{}{}{}", (b'a' + x as u8) as char, y + 1, z + 1)
        };
        name
    }

    fn lines_held(&self, out: &mut Vec<WinningLine>) {
        for (owner, stones) in [
            (Player::First, self.stones[0]),
            (Player::Second, self.stones[1]),
        ] {
            for &line in &LINES {
                if line & stones == line {
                    let cells = CellSet(line as u128);
                    out.push(WinningLine { owner, cells });
                }
            }
        }
    }

    /// A cube move is a column, and its stone lands on the lowest empty cell; a Qubic move is
    /// the cell.
    fn effect(&self, m: u8) -> Effect {
        let cell = if GRAVITY {
            const COLUMN: u64 = 0x0001_0001_0001_0001;
            m as CellId + 16 * (self.filled() & COLUMN << m).count_ones() as CellId
        } else {
            m as CellId
        };
        Effect {
            placed: Some(cell),
            ..Effect::default()
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shift_families_are_the_geometry() {
        let geometry = Geometry::cube(false);
        let mut ours: Vec<u128> = LINES.iter().map(|&l| l as u128).collect();
        ours.sort_unstable();
        assert_eq!(ours, geometry.lines());
        let mut x = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..20_000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (p, empty) = (x & x.rotate_left(17), !x & x.rotate_left(29));
            assert_eq!(has_line(p), geometry.has_line(p as u128));
            assert_eq!(
                winning_cells(p, empty) as u128,
                geometry.winning_cells(p as u128, empty as u128)
            );
        }
        assert_eq!(symmetries::<true>().len(), 8);
        assert_eq!(symmetries::<false>().len(), 192);
        // Walking a set's bits gives its cells in the order of every cell.
        for set in [0, u64::MAX, 0x8000_0000_0000_0001, 0x2545_f491_4f6c_dd1d] {
            let walked: Vec<u32> = in_cell_order(set).collect();
            let ordered: Vec<u32> = CELL_ORDER
                .iter()
                .map(|&c| c as u32)
                .filter(|&c| set >> c & 1 == 1)
                .collect();
            assert_eq!(walked, ordered);
        }
        // Cells on 7 lines come first: the 8 corners and the 8 inner cells.
        assert!(
            CELL_ORDER[..16]
                .iter()
                .all(|&c| LINES_THROUGH[c as usize][6] != 255)
        );
    }

    #[test]
    fn the_flips_are_the_floor_symmetries() {
        let b: u64 = 0x0123_4567_89ab_cdef;
        let mut flips = Vec::new();
        for a in [b, flip_diagonal(b)] {
            for a in [a, flip_rows(a)] {
                for a in [a, flip_columns(a)] {
                    flips.push(a);
                }
            }
        }
        flips.sort_unstable();
        let mut images: Vec<u64> = symmetries::<true>().iter().map(|t| t.apply(b)).collect();
        images.sort_unstable();
        assert_eq!(flips, images);
    }

    /// A position's image under each symmetry is the position its moves' images reach, and the
    /// canonical key is the least image key where it covers the symmetries.
    #[test]
    fn images_are_the_games_of_the_moved_images() {
        fn check<const GRAVITY: bool>() {
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..200 {
                let mut pos = Cube::<GRAVITY>::new();
                let mut moves = Vec::new();
                while pos.status() == Status::Ongoing && moves.len() < 20 {
                    let mut legal = MoveList::new();
                    pos.legal_moves(&mut legal);
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    let m = legal[(seed % legal.len() as u64) as usize];
                    moves.push(m);
                    pos = pos.play(m);
                }
                for i in 0..pos.symmetry_count() {
                    let mut image = Cube::<GRAVITY>::new();
                    let mut before = Cube::<GRAVITY>::new();
                    for &m in &moves {
                        image = image.play(before.image_move(m, i));
                        before = before.play(m);
                    }
                    assert_eq!(image.key(), pos.image_key(i), "{pos:?} under {i}");
                    assert_eq!(image, pos.image(i), "{pos:?} under {i}");
                }
                let least = (0..pos.symmetry_count()).map(|i| pos.image_key(i)).min();
                if GRAVITY || pos.ply() <= QUBIC_SYMMETRY_STONES {
                    assert_eq!(Some(pos.canonical_key()), least, "{pos:?}");
                }
            }
        }
        check::<true>();
        check::<false>();
    }

    /// The threats kept move by move are those found from the stones, on random games of both
    /// variants.
    #[test]
    fn threat_cells_are_the_cells_of_open_twos() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..2000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let (a, b) = (seed & seed.rotate_left(23), !seed & seed.rotate_left(41));
            let want = LINES
                .iter()
                .filter(|&&l| l & b == 0 && (l & a).count_ones() == 2)
                .fold(0, |cells, &l| cells | (l & !a));
            assert_eq!(threat_cells(a, b), want, "{a:#x} {b:#x}");
        }
    }

    #[test]
    fn kept_threats_are_the_threats() {
        fn check<const GRAVITY: bool>() {
            let mut seed = 0x9e37_79b9_7f4a_7c15u64;
            for _ in 0..200 {
                let mut pos = Cube::<GRAVITY>::new();
                while pos.status() == Status::Ongoing {
                    for p in 0..2 {
                        let empty = !pos.filled();
                        assert_eq!(pos.threats[p], winning_cells(pos.stones[p], empty));
                    }
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    seed ^= seed << 13;
                    seed ^= seed >> 7;
                    seed ^= seed << 17;
                    pos = pos.play(moves[(seed % moves.len() as u64) as usize]);
                }
            }
        }
        check::<true>();
        check::<false>();
    }
}
