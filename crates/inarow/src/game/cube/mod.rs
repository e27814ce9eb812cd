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
use super::{Bounded, Finite, MoveList, Player, RankedMove, Rules, SafeChoice, Status, Tactics};
use std::fmt::{self, Debug};
use std::sync::OnceLock;

mod lines;
mod notation;
#[cfg(test)]
mod tests;

use lines::{LEVEL0, LINES_THROUGH, leader_cannot_win, lines_through};
pub use lines::{LINES, has_line, line_cells, threat_cells, winning_cells};

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
