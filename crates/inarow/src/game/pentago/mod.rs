//! Pentago: a 6x6 board of four 3x3 quadrants ([`Geometry::pentago`]). A move places a stone on
//! an empty cell and then turns one quadrant by 90 degrees; five in a row wins. The rules are
//! Irving's (`shared/data/README.md`, pentago): a five made by placing wins at once, with no
//! rotation; otherwise the rotation is compulsory, and after it a five for both players is a
//! tie and a five for one player is that player's win, even when it is the mover's opponent; a
//! full board with no five is a tie.
//!
//! Layout: one `u64` per player, cell `x + 6y` (`x` the column from the left, `y` the row from
//! the bottom), as in the geometry. Quadrant `q` (Irving's numbering) holds the cells with
//! `x / 3 == q / 2` and `y / 3 == q % 2`: 0 lower left, 1 upper left, 2 lower right, 3 upper
//! right. A turn of a quadrant is a table look-up on its nine cells.
//!
//! A position may wait for its rotation (Irving's `m`: the stone placed, the turn not
//! finished): its moves are then the eight rotations alone. Positions reached by moves never
//! wait; positions written as boards may.
//!
//! # Notation
//! - A move: the cell (column `a`-`f`, row `1`-`6` from the bottom), the quadrant `0`-`3` and
//!   the direction, `r` clockwise or `l` anticlockwise (seen with row 6 at the top): `d53r`
//!   places on d5 and turns the upper right quadrant clockwise. A placement that makes five ends
//!   the game: it is written as the cell alone (`d5`; a rotation written after it is ignored).
//!   Where the rotation is pending, a move is the rotation alone (`3r`). Moves follow each other
//!   without separators (`d53ra10l`) or with commas.
//! - A whole position, instead of moves from the empty board: a grid of 36 characters (`x` the
//!   first player, `o` the second, `.` empty; row-major from the top row, as in
//!   `shared/data/pentago`), or Irving's decimal board name; either with a trailing `m` when the
//!   rotation is pending. Text of 36 characters from `xo.` is a grid, digits are a name, anything
//!   else is moves.
//!
//! Moves that give the same position (turning an empty quadrant, or one that a half turn
//! maps onto itself either way) are listed once: [`Rules::legal_moves`] keeps the first.

use super::geometry::{ByteTables, Geometry};
use super::view::{Block, Board, CellId, CellName, CellSet, Effect, Layout, Turn, WinningLine};
use super::{
    Bounded, Finite, MoveList, Notation, Player, RankedMove, Rules, Status, Tactics, plays_safe,
};
use crate::error::Error;
use std::fmt::{self, Debug};
use std::sync::OnceLock;

// The board's layout is public for the solvers written for Pentago (`src/solvers`), which
// work on it directly.

/// The cells of the board.
pub const BOARD: u64 = (1 << 36) - 1;
/// The first move code of a rotation alone (a pending position's moves): `ROTATION_ONLY + r`.
pub const ROTATION_ONLY: u16 = 288;
/// The nine cells of the lower left quadrant; quadrant `q` is this shifted by [`base`]`(q)`.
pub const QUADRANT: u64 = 7 | 7 << 6 | 7 << 12;

/// The lowest cell of quadrant `q`.
pub const fn base(q: u32) -> u32 {
    3 * (q / 2) + 18 * (q % 2)
}

/// `TURN[d][p]`: the nine cells `p` of a quadrant (bit `lx + 3ly`) turned anticlockwise
/// (`d = 0`) or clockwise (`d = 1`), laid out as on the board (bit `lx + 6ly`).
static TURN: [[u64; 512]; 2] = turns();

const fn turns() -> [[u64; 512]; 2] {
    let mut t = [[0u64; 512]; 2];
    let mut p = 0;
    while p < 512 {
        let mut i = 0;
        while i < 9 {
            if p >> i & 1 == 1 {
                let (x, y) = (i % 3, i / 3);
                // Anticlockwise (x, y) -> (2 - y, x); clockwise (x, y) -> (y, 2 - x).
                t[0][p] |= 1 << ((2 - y) + 6 * x);
                t[1][p] |= 1 << (y + 6 * (2 - x));
            }
            i += 1;
        }
        p += 1;
    }
    t
}

/// The nine cells of quadrant `q` of `b`, as an index into the table of turned quadrants.
#[inline(always)]
pub fn gather(b: u64, q: u32) -> usize {
    let s = b >> base(q);
    (s & 7 | (s >> 3) & 0o70 | (s >> 6) & 0o700) as usize
}

/// `b` with quadrant `rotation / 2` turned (clockwise when `rotation` is odd).
#[inline(always)]
pub fn turn(b: u64, rotation: u32) -> u64 {
    let q = rotation / 2;
    let turned = TURN[(rotation & 1) as usize][gather(b, q)];
    b & !(QUADRANT << base(q)) | turned << base(q)
}

/// Cells `(x, y)` from which `k` cells in direction `(dx, dy)` stay on the board.
const fn run_starts(dx: i32, dy: i32, k: i32) -> u64 {
    let mut m = 0;
    let mut i = 0;
    while i < 36 {
        let (x, y) = (i % 6, i / 6);
        let (ex, ey) = (x + (k - 1) * dx, y + (k - 1) * dy);
        if ex >= 0 && ex < 6 && ey >= 0 && ey < 6 {
            m |= 1 << i;
        }
        i += 1;
    }
    m
}

/// The directions of lines: the cell step and `(dx, dy)`: along a row, a column, a diagonal
/// and an antidiagonal (up and to the left).
const DIRECTIONS: [(u32, i32, i32); 4] = [(1, 1, 0), (6, 0, 1), (7, 1, 1), (5, -1, 1)];

/// For each direction, the cells that start a run of three, four and five.
const RUN_STARTS: [[u64; 3]; 4] = {
    let mut t = [[0; 3]; 4];
    let mut d = 0;
    while d < 4 {
        let mut j = 0;
        while j < 3 {
            t[d][j] = run_starts(DIRECTIONS[d].1, DIRECTIONS[d].2, 3 + j as i32);
            j += 1;
        }
        d += 1;
    }
    t
};

/// Whether `b` holds five in a row.
#[inline(always)]
pub fn five(b: u64) -> bool {
    DIRECTIONS
        .iter()
        .zip(&RUN_STARTS)
        .any(|(&(s, _, _), starts)| {
            b & b >> s & b >> (2 * s) & b >> (3 * s) & b >> (4 * s) & starts[2] != 0
        })
}

/// The thesis' evaluation weights (its Table 6.1): a run of three, four and five stones in a
/// line, and a stone off the board's edge ("in the centre"; a stone on the edge scores 0).
const RUN_WEIGHTS: [i32; 3] = [100, 1_000, 100_000];
const CENTRE_WEIGHT: i32 = 5;
/// The 16 cells off the board's edge.
const CENTRE: u64 = 0o36363636 << 6;

/// The thesis' linear evaluation of one player's stones: each run of three, four or five in a
/// row, column or diagonal (overlapping runs all count, as the thesis' shifted bit masks do),
/// plus each stone in the centre.
fn evaluation(b: u64) -> i32 {
    let mut sum = CENTRE_WEIGHT * (b & CENTRE).count_ones() as i32;
    for (&(step, _, _), starts) in DIRECTIONS.iter().zip(&RUN_STARTS) {
        let mut run = b & b >> step;
        for (k, (&weight, &start)) in RUN_WEIGHTS.iter().zip(starts).enumerate() {
            run &= b >> ((k as u32 + 2) * step);
            sum += weight * (run & start).count_ones() as i32;
        }
    }
    sum
}

/// The 32 lines of five.
pub fn lines() -> &'static [u64] {
    static LINES: OnceLock<Vec<u64>> = OnceLock::new();
    LINES.get_or_init(|| {
        Geometry::pentago()
            .lines()
            .iter()
            .map(|&l| l as u64)
            .collect()
    })
}

/// Whether `mine` would hold five after one more stone on a cell free of `theirs`.
#[inline]
fn five_after_one(mine: u64, theirs: u64) -> bool {
    lines()
        .iter()
        .any(|&l| l & theirs == 0 && (l & mine).count_ones() >= 4)
}

/// A Pentago position: the stones, the turns played and whether a rotation is pending.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Pentago {
    /// The first and the second player's stones.
    stones: [u64; 2],
    /// Turns finished (a placement and its rotation each).
    ply: u8,
    /// The side to move has placed its stone and must now turn a quadrant.
    pending: bool,
    status: Status,
}

impl Debug for Pentago {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Pentago({})", self.grid())
    }
}

impl Default for Pentago {
    fn default() -> Self {
        Self::new()
    }
}

impl Pentago {
    /// The empty board.
    pub fn new() -> Self {
        Pentago {
            stones: [0, 0],
            ply: 0,
            pending: false,
            status: Status::Ongoing,
        }
    }

    /// A position from its stones (first player's, second's) and whether its rotation is
    /// pending; the side to move follows from the counts.
    ///
    /// # Errors
    /// [`Error::Input`] naming what is impossible: two stones on one cell, a stone off the board, or
    /// counts of stones that no game reaches with this `pending`.
    pub fn from_stones(stones: [u64; 2], pending: bool) -> Result<Self, Error> {
        if stones[0] & stones[1] != 0 || (stones[0] | stones[1]) & !BOARD != 0 {
            return Err(Error::Input(
                "two stones on one cell, or a cell off the board".to_string(),
            ));
        }
        let (first, second) = (stones[0].count_ones(), stones[1].count_ones());
        let ply = match (pending, first.checked_sub(second)) {
            (false, Some(0)) => 2 * first,
            (false, Some(1)) => 2 * second + 1,
            (true, Some(1)) => 2 * second,
            (true, Some(0)) if second > 0 => 2 * second - 1,
            _ => {
                return Err(Error::Input(format!(
                    "impossible position: {first} first-player and {second} second-player stones{}",
                    if pending {
                        " with a rotation pending (the placer has one stone more, or as many as \
                         the first player when the second placed)"
                    } else {
                        " (the first player has as many stones as the second, or one more)"
                    }
                )));
            }
        };
        let mut pos = Pentago {
            stones,
            ply: ply as u8,
            pending,
            status: Status::Ongoing,
        };
        pos.status = match judge(stones) {
            // A full board waits for its rotation.
            Status::Draw if pending && !five(stones[0]) => Status::Ongoing,
            status => status,
        };
        Ok(pos)
    }

    /// The stones of the first and of the second player (cell `x + 6y`).
    pub fn stones(&self) -> [u64; 2] {
        self.stones
    }

    /// Whether the side to move has placed its stone and must turn a quadrant (Irving's `m`).
    pub fn pending(&self) -> bool {
        self.pending
    }

    /// Irving's board name: four quadrants of 16 bits, each the base-3 number of its nine
    /// cells (digit `3 * (x % 3) + y % 3`; 0 empty, 1 first player, 2 second), with a trailing
    /// `m` when the rotation is pending.
    pub fn board_name(&self) -> String {
        let mut name = 0u64;
        for q in 0..4u32 {
            let mut value = 0u64;
            for digit in (0..9u32).rev() {
                let cell = base(q) + digit / 3 + 6 * (digit % 3);
                let v = if self.stones[0] >> cell & 1 == 1 {
                    1
                } else if self.stones[1] >> cell & 1 == 1 {
                    2
                } else {
                    0
                };
                value = value * 3 + v;
            }
            name |= value << (16 * q);
        }
        format!("{name}{}", if self.pending { "m" } else { "" })
    }

    /// The 36-character grid (`x`, `o`, `.`, row-major from the top row), with a trailing `m`
    /// when the rotation is pending.
    pub fn grid(&self) -> String {
        let mut s: String = (0..36)
            .map(|i| {
                let cell = i % 6 + 6 * (5 - i / 6);
                self.cell_char(cell)
            })
            .collect();
        if self.pending {
            s.push('m');
        }
        s
    }

    fn cell_char(&self, cell: u32) -> char {
        if self.stones[0] >> cell & 1 == 1 {
            'x'
        } else if self.stones[1] >> cell & 1 == 1 {
            'o'
        } else {
            '.'
        }
    }

    fn filled(&self) -> u64 {
        self.stones[0] | self.stones[1]
    }

    /// The stones after turn `rotation` of both boards.
    #[inline(always)]
    fn turned(stones: [u64; 2], rotation: u32) -> [u64; 2] {
        [turn(stones[0], rotation), turn(stones[1], rotation)]
    }

    /// Pushes the rotations of `stones` worth trying: one of those that change nothing (the
    /// first), and one direction of a quadrant that a half turn maps onto itself.
    fn push_rotations(stones: [u64; 2], cell: u16, out: &mut MoveList<u16>) {
        let both = stones[0] | stones[1];
        let mut still = false;
        for q in 0..4u32 {
            let quadrant = QUADRANT << base(q);
            if both & quadrant == 0 || Self::turned(stones, 2 * q) == stones {
                if !still {
                    still = true;
                    out.push(cell + 2 * q as u16);
                }
                continue;
            }
            let half = Self::turned(Self::turned(stones, 2 * q), 2 * q);
            out.push(cell + 2 * q as u16);
            if half != stones {
                out.push(cell + 2 * q as u16 + 1);
            }
        }
    }
}

/// A set of boards, for the few hundred children of one position.
struct Seen {
    slots: [[u64; 2]; 512],
}

impl Seen {
    fn new() -> Self {
        Seen {
            slots: [[0; 2]; 512],
        }
    }

    /// Adds `stones` (never empty: a child holds a stone); whether it was new.
    #[inline]
    fn insert(&mut self, stones: [u64; 2]) -> bool {
        let mut i = (stones[0].wrapping_mul(0x9e37_79b9_7f4a_7c15) ^ stones[1])
            .wrapping_mul(0xbf58_476d_1ce4_e5b9)
            >> 55;
        loop {
            let slot = &mut self.slots[i as usize];
            if *slot == stones {
                return false;
            }
            if *slot == [0, 0] {
                *slot = stones;
                return true;
            }
            i = (i + 1) & 511;
        }
    }
}

/// The status of a board whose turn is over.
fn judge(stones: [u64; 2]) -> Status {
    match (five(stones[0]), five(stones[1])) {
        (true, true) => Status::Draw,
        (true, false) => Status::Win(Player::First),
        (false, true) => Status::Win(Player::Second),
        (false, false) if stones[0] | stones[1] == BOARD => Status::Draw,
        _ => Status::Ongoing,
    }
}

/// The board's 8 symmetries (cells below 40: five bytes). Built once.
fn symmetries() -> &'static [ByteTables<5>] {
    static TABLES: OnceLock<Vec<ByteTables<5>>> = OnceLock::new();
    TABLES.get_or_init(|| {
        Geometry::pentago()
            .symmetries()
            .iter()
            .map(ByteTables::new)
            .collect()
    })
}

fn key_of(stones: [u64; 2], pending: bool) -> u128 {
    stones[0] as u128 | (stones[1] as u128) << 36 | (pending as u128) << 72
}

impl Rules for Pentago {
    /// `cell * 8 + rotation` (rotation `2 * quadrant + clockwise`), or
    /// `288 + rotation` for a rotation alone.
    type Move = u16;
    type Kind = Finite;

    fn name(&self) -> String {
        "pentago".to_string()
    }

    #[inline(always)]
    fn ply(&self) -> u32 {
        self.ply as u32
    }

    fn legal_moves(&self, out: &mut MoveList<u16>) {
        if self.status != Status::Ongoing {
            return;
        }
        if self.pending {
            Self::push_rotations(self.stones, ROTATION_ONLY, out);
            return;
        }
        let me = self.side_to_move() as usize;
        let mut empty = !self.filled() & BOARD;
        let mut seen = Seen::new();
        while empty != 0 {
            let cell = empty.trailing_zeros();
            empty &= empty - 1;
            let mut placed = self.stones;
            placed[me] |= 1 << cell;
            let code = cell as u16 * 8;
            if five(placed[me]) {
                out.push(code);
                continue;
            }
            let mut turns = MoveList::new();
            Self::push_rotations(placed, code, &mut turns);
            // A placement and a turn can reach what another placement and turn reach (a
            // stone placed, then carried by its quadrant's turn onto a cell where it could
            // have been placed): kept once.
            for m in turns {
                if seen.insert(Self::turned(placed, (m % 8) as u32)) {
                    out.push(m);
                }
            }
        }
    }

    #[inline]
    fn play(&self, m: u16) -> Self {
        let me = self.side_to_move();
        let mut stones = self.stones;
        let rotation = if m >= ROTATION_ONLY {
            (m - ROTATION_ONLY) as u32
        } else {
            stones[me as usize] |= 1 << (m / 8);
            if five(stones[me as usize]) {
                return Pentago {
                    stones,
                    ply: self.ply + 1,
                    pending: false,
                    status: Status::Win(me),
                };
            }
            (m % 8) as u32
        };
        let stones = Self::turned(stones, rotation);
        Pentago {
            stones,
            ply: self.ply + 1,
            pending: false,
            status: judge(stones),
        }
    }

    #[inline(always)]
    fn status(&self) -> Status {
        self.status
    }

    #[inline(always)]
    fn key(&self) -> u128 {
        key_of(self.stones, self.pending)
    }

    fn key_bits(&self) -> u32 {
        73
    }

    fn canonical_key(&self) -> u128 {
        symmetries()
            .iter()
            .map(|t| {
                key_of(
                    [t.apply(self.stones[0]), t.apply(self.stones[1])],
                    self.pending,
                )
            })
            .min()
            .expect("the identity is a symmetry")
    }

    #[inline(always)]
    fn move_code(&self, m: u16) -> u16 {
        m
    }
}

impl Bounded for Pentago {
    fn max_plies(&self) -> u32 {
        36
    }
}

impl Tactics for Pentago {
    /// The thesis' Table 6.1: the side to move's evaluation less the other's.
    fn evaluate(&self) -> Option<i32> {
        let me = self.side_to_move() as usize;
        Some(evaluation(self.stones[me]) - evaluation(self.stones[me ^ 1]))
    }

    fn has_winning_move(&self) -> bool {
        if self.status != Status::Ongoing {
            return false;
        }
        let me = self.side_to_move() as usize;
        let [mine, theirs] = [self.stones[me], self.stones[me ^ 1]];
        // Five needs five stones: with the one still to place, four must be on the board
        // already (all five once placed). This makes the opening's many safe-move checks cheap.
        if mine.count_ones() < if self.pending { 5 } else { 4 } {
            return false;
        }
        if self.pending {
            return (0..8).any(|r| five(turn(mine, r)) && !five(turn(theirs, r)));
        }
        // A five by placing, or one that a rotation makes after some placement (the placed
        // stone may be anywhere: a turn maps the empty cells onto the empty cells).
        five_after_one(mine, theirs)
            || (0..8).any(|r| {
                let (m, t) = (turn(mine, r), turn(theirs, r));
                !five(t) && five_after_one(m, t)
            })
    }

    fn safe_moves(&self, out: &mut MoveList<RankedMove<u16>>) {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        let me = self.side_to_move();
        for m in moves {
            let next = self.play(m);
            if plays_safe(&next, me) {
                // Rotation-aware: the thesis' evaluation of the board after the turn, for the
                // mover (the side to move there is the opponent).
                let rank = next.evaluate().map_or(0, |v| -v);
                out.push(RankedMove { mv: m, rank });
            }
        }
    }
}

impl Notation for Pentago {
    fn parse_move(&self, token: &str) -> Result<u16, Error> {
        let b = token.as_bytes();
        let rotation = |b: &[u8]| -> Option<u16> {
            match b {
                [q @ b'0'..=b'3', d] => {
                    let clockwise = match d.to_ascii_lowercase() {
                        b'l' => 0,
                        b'r' => 1,
                        _ => return None,
                    };
                    Some(2 * (q - b'0') as u16 + clockwise)
                }
                _ => None,
            }
        };
        if self.pending {
            return rotation(b).map(|r| ROTATION_ONLY + r).ok_or_else(|| {
                Error::Input(format!(
                    "'{token}' is not a rotation: the stone is placed, so a move is a quadrant \
                     0-3 and a direction l or r, like 3r"
                ))
            });
        }
        let bad = || {
            Error::Input(format!(
                "'{token}' is not a move: expected a cell a1-f6, a quadrant 0-3 and a direction \
                 l or r, like d53r"
            ))
        };
        if b.len() != 2 && b.len() != 4 {
            return Err(bad());
        }
        let x = b[0].to_ascii_lowercase().wrapping_sub(b'a');
        let y = b[1].wrapping_sub(b'1');
        if x > 5 || y > 5 {
            return Err(bad());
        }
        let cell = x as u32 + 6 * y as u32;
        if self.filled() >> cell & 1 == 1 {
            return Err(Error::Input(format!("cell {} is taken", &token[..2])));
        }
        let me = self.side_to_move() as usize;
        let wins_by_placing = five(self.stones[me] | 1 << cell);
        if b.len() == 2 {
            return if wins_by_placing {
                Ok(cell as u16 * 8)
            } else {
                Err(Error::Input(format!(
                    "'{token}' lacks its rotation: a quadrant 0-3 and a direction l or r, like \
                     {token}3r"
                )))
            };
        }
        let r = rotation(&b[2..]).ok_or_else(bad)?;
        // A five by placing ends the game before any rotation.
        Ok(cell as u16 * 8 + if wins_by_placing { 0 } else { r })
    }

    fn format_move(&self, m: u16) -> String {
        let rotation = |r: u16| format!("{}{}", r / 2, if r % 2 == 1 { 'r' } else { 'l' });
        if m >= ROTATION_ONLY {
            return rotation(m - ROTATION_ONLY);
        }
        let cell = (m / 8) as u32;
        let name = format!("{}{}", (b'a' + (cell % 6) as u8) as char, cell / 6 + 1);
        let me = self.side_to_move() as usize;
        if five(self.stones[me] | 1 << cell) {
            name
        } else {
            name + &rotation(m % 8)
        }
    }

    /// Moves of four characters (two for a winning placement or a rotation alone), or
    /// comma-separated.
    fn split_moves<'a>(&self, text: &'a str) -> Vec<&'a str> {
        if text.contains(',') {
            return text
                .split(',')
                .map(str::trim)
                .filter(|t| !t.is_empty())
                .collect();
        }
        let mut tokens = Vec::new();
        let mut rest = text;
        while !rest.is_empty() {
            let b = rest.as_bytes();
            // A cell is a letter and a digit; its rotation, a digit and a letter, follows.
            let len = if b[0].is_ascii_alphabetic() && b.len() >= 4 && b[2].is_ascii_digit() {
                4
            } else {
                2.min(b.len())
            };
            let len = (len..=rest.len())
                .find(|&l| rest.is_char_boundary(l))
                .unwrap_or(rest.len());
            tokens.push(&rest[..len]);
            rest = &rest[len..];
        }
        tokens
    }

    fn join_moves(&self, moves: &[String]) -> String {
        moves.concat()
    }

    fn describe_moves(&self) -> String {
        "a cell a1-f6, then the quadrant 0-3 to turn (0 lower left, 1 upper left, 2 lower right, \
         3 upper right) and l (anticlockwise) or r (clockwise): d53r places at d5 and turns \
         quadrant 3 clockwise; like d53ra11l"
            .to_string()
    }

    fn render(&self) -> String {
        let mut s = String::new();
        for y in (0..6).rev() {
            if y == 2 {
                // Irving's quadrant numbers, which a move names, where a newcomer looks.
                s.push_str("  ------+------   quadrants: 1 | 3 above, 0 | 2 below\n");
            }
            s.push_str(&format!("{} ", y + 1));
            for x in 0..6 {
                if x == 3 {
                    s.push('|');
                } else if x > 0 {
                    s.push(' ');
                }
                s.push(self.cell_char(x + 6 * y));
            }
            s.push('\n');
        }
        s.push_str("  a b c d e f\n");
        if self.pending {
            s.push_str("(stone placed: a quadrant must turn)\n");
        }
        s
    }

    fn format_board(&self) -> Option<String> {
        Some(self.board_name())
    }

    fn parse_board(&self, text: &str) -> Option<Result<Self, Error>> {
        let (body, pending) = match text.strip_suffix('m') {
            Some(body) => (body, true),
            None => (text, false),
        };
        if body.len() == 36 && body.bytes().all(|c| matches!(c, b'x' | b'o' | b'.')) {
            let mut stones = [0u64; 2];
            for (i, c) in body.bytes().enumerate() {
                let cell = i % 6 + 6 * (5 - i / 6);
                match c {
                    b'x' => stones[0] |= 1 << cell,
                    b'o' => stones[1] |= 1 << cell,
                    _ => {}
                }
            }
            return Some(Self::from_stones(stones, pending));
        }
        if !body.is_empty() && body.bytes().all(|c| c.is_ascii_digit()) {
            return Some(from_name(body, pending));
        }
        None
    }
}

/// The four quadrants, Irving's numbering, drawn as the terminal draws them (1 and 3 above 0
/// and 2); a cell is named `a1`-`f6`; a move places and then turns, or turns alone.
impl Board for Pentago {
    fn layout(&self) -> Layout {
        const QUADRANTS: [&str; 4] = ["quadrant 0", "quadrant 1", "quadrant 2", "quadrant 3"];
        Layout {
            size: [6, 6, 1],
            k: 5,
            gravity: None,
            blocks: (0..4u8)
                .map(|q| Block {
                    name: QUADRANTS[q as usize],
                    from: [3 * (q / 2), 3 * (q % 2), 0],
                    size: [3, 3, 1],
                    place: [1 - q % 2, q / 2],
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
        name.push((b'a' + (cell % 6) as u8) as char);
        name.push((b'1' + (cell / 6) as u8) as char);
        name
    }

    fn lines_held(&self, out: &mut Vec<WinningLine>) {
        for (owner, stones) in [
            (Player::First, self.stones[0]),
            (Player::Second, self.stones[1]),
        ] {
            for &line in lines() {
                if line & stones == line {
                    let cells = CellSet(line as u128);
                    out.push(WinningLine { owner, cells });
                }
            }
        }
    }

    fn effect(&self, m: u16) -> Effect {
        let turn = |r: u16| {
            Some(Turn {
                block: (r / 2) as u8,
                clockwise: r % 2 == 1,
            })
        };
        if m >= ROTATION_ONLY {
            return Effect {
                turned: turn(m - ROTATION_ONLY),
                ..Effect::default()
            };
        }
        let cell = m / 8;
        let me = self.side_to_move() as usize;
        Effect {
            placed: Some(cell),
            popped: None,
            // A five by placing ends the game before any turn.
            turned: if five(self.stones[me] | 1 << cell) {
                None
            } else {
                turn(m % 8)
            },
        }
    }
}

/// The position of Irving's board name `digits` (its `m` already removed).
fn from_name(digits: &str, pending: bool) -> Result<Pentago, Error> {
    let name: u64 = digits
        .parse()
        .map_err(|_| Error::Input(format!("board name {digits} does not fit 64 bits")))?;
    let mut stones = [0u64; 2];
    for q in 0..4u32 {
        let mut value = name >> (16 * q) & 0xffff;
        if value >= 19683 {
            return Err(Error::Input(format!(
                "board name {digits}: quadrant {q} is {value}, beyond the 3^9 = 19683 boards of \
                 nine cells"
            )));
        }
        for digit in 0..9u32 {
            let cell = base(q) + digit / 3 + 6 * (digit % 3);
            match value % 3 {
                1 => stones[0] |= 1 << cell,
                2 => stones[1] |= 1 << cell,
                _ => {}
            }
            value /= 3;
        }
    }
    Pentago::from_stones(stones, pending)
}

/// The boards of `stones` stones (the first player's half rounded up), as Irving counts them
/// (`shared/data/pentago/position_counts_and_edison_wlt.tsv`): all of them, whether a game
/// reaches them or not; their classes under the board's 8 symmetries; and under the 2048 maps
/// that also turn quadrants. By Burnside's lemma: the mean over a group of the boards each map
/// leaves unchanged, which are those constant on its cycles.
pub fn board_counts(stones: u32) -> [u128; 3] {
    let (first, second) = (stones.div_ceil(2) as usize, (stones / 2) as usize);
    if stones > 36 {
        return [0; 3];
    }
    let fixed = |p: &[u8; 36]| -> u128 {
        // Colourings constant on cycles with `first` and `second` stones: one cycle at a time.
        let mut ways = vec![vec![0u128; second + 1]; first + 1];
        ways[0][0] = 1;
        let mut seen = 0u64;
        for start in 0..36 {
            if seen >> start & 1 == 1 {
                continue;
            }
            let mut len = 0;
            let mut c = start;
            while seen >> c & 1 == 0 {
                seen |= 1 << c;
                len += 1;
                c = p[c] as usize;
            }
            for a in (0..=first).rev() {
                for b in (0..=second).rev() {
                    let mut w = ways[a][b];
                    if a >= len {
                        w += ways[a - len][b];
                    }
                    if b >= len {
                        w += ways[a][b - len];
                    }
                    ways[a][b] = w;
                }
            }
        }
        ways[first][second]
    };
    let symmetries: Vec<[u8; 36]> = Geometry::pentago()
        .symmetries()
        .iter()
        .map(|s| std::array::from_fn(|c| s[c]))
        .collect();
    // The quadrant turns of each of the 256 rotation states, as permutations of cells.
    let turn_cell = |c: usize, q: u32, k: u32| -> usize {
        let mut b = 1u64 << c;
        for _ in 0..k {
            b = turn(b, 2 * q + 1);
        }
        b.trailing_zeros() as usize
    };
    let mut all = 0;
    let mut sym8 = 0;
    let mut sym2048 = 0;
    for state in 0..256u32 {
        let turned: [u8; 36] = std::array::from_fn(|c| {
            let q = (0..4).find(|&q| QUADRANT << base(q) >> c & 1 == 1).unwrap();
            turn_cell(c, q, state >> (2 * q) & 3) as u8
        });
        for (i, s) in symmetries.iter().enumerate() {
            let map: [u8; 36] = std::array::from_fn(|c| s[turned[c] as usize]);
            let n = fixed(&map);
            if state == 0 {
                if i == 0 {
                    all = n;
                }
                sym8 += n;
            }
            sym2048 += n;
        }
    }
    [all, sym8 / 8, sym2048 / 2048]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_five_test_is_the_geometry() {
        let mut seed = 7u64;
        for _ in 0..20000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let b = seed & seed >> 20 & BOARD | (seed >> 3 & seed >> 40 & BOARD);
            let by_lines = lines().iter().any(|&l| l & !b == 0);
            assert_eq!(five(b), by_lines, "{b:036b}");
        }
        assert_eq!(lines().len(), 32);
    }

    #[test]
    fn four_turns_are_the_identity_and_turns_are_inverse() {
        let b = 0x9_5a3c_71e2u64 & BOARD;
        for q in 0..4 {
            let left = turn(b, 2 * q);
            let right = turn(b, 2 * q + 1);
            assert_eq!(turn(left, 2 * q + 1), b);
            assert_eq!(turn(turn(left, 2 * q), 2 * q), right);
            assert_eq!(left & !(QUADRANT << base(q)), b & !(QUADRANT << base(q)));
        }
        // The upper left corner of the lower left quadrant goes to its upper right corner when
        // turned clockwise.
        assert_eq!(turn(1 << 12, 1), 1 << 14);
        assert_eq!(turn(1 << 12, 0), 1);
    }

    #[test]
    fn board_counts_are_irvings() {
        // shared/data/pentago/position_counts_and_edison_wlt.tsv, stones 0-5 and 18.
        assert_eq!(board_counts(0), [1, 1, 1]);
        assert_eq!(board_counts(1), [36, 6, 3]);
        assert_eq!(board_counts(2), [1260, 165, 30]);
        assert_eq!(board_counts(5), [3769920, 471870, 13065]);
        assert_eq!(
            board_counts(18),
            [441233078286000, 55154145646600, 232731509411]
        );
    }

    #[test]
    fn names_and_grids_round_trip() {
        let p = Pentago::new();
        let pos = p.parse_board("1248904484550082560m").unwrap().unwrap();
        assert_eq!(pos.board_name(), "1248904484550082560m");
        let grid = pos.grid();
        assert_eq!(grid, "...x.......o....o..........x........m");
        assert_eq!(p.parse_board(&grid).unwrap().unwrap(), pos);
    }
}
