//! Connect Four on any board: `width` columns, `height` rows, `k` in a row, with gravity.
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
//! A position keeps `current` (the stones of the side to move) and `mask` (all stones). Lines are
//! found by shifts: 1 = vertical, `height + 1` = horizontal, `height` and `height + 2` = the two
//! diagonals; the sentinel row stops a line from wrapping from one column into the next.
//! `current + mask` is a unique key that fits in the board's bits.
//!
//! The word is `u64` (boards with `(height + 1) * width <= 64`) or `u128` (up to 128 bits), and the
//! geometry is either the compile-time [`Standard`] 7x6 board or a [`Sized`] one chosen at run time:
//! one body of code, monomorphised so that 7x6 runs with every mask a constant.

use super::bits::{Bits, cells};
use super::numbering::Numbering;
use super::{Game, Indexed, MoveList, Outlook, RankedMove, Status};
use std::fmt::{self, Debug};

/// The geometry of a board and the masks derived from it, computed once.
#[derive(Clone, PartialEq, Eq)]
pub struct Dims {
    pub width: u32,
    pub height: u32,
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

impl Debug for Dims {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}:k{}", self.width, self.height, self.k)
    }
}

impl Dims {
    /// The largest number of bits a board may use.
    pub const MAX_BITS: u32 = 128;

    /// Checks a size and derives its masks.
    pub fn new(width: u32, height: u32, k: u32) -> Result<Dims, String> {
        if width == 0 || height == 0 {
            return Err(format!(
                "board {width}x{height}: width and height must be at least 1"
            ));
        }
        if k < 2 || k > width.max(height) {
            return Err(format!(
                "k = {k} on a {width}x{height} board: k must be between 2 and {}",
                width.max(height)
            ));
        }
        if (height as u64 + 1) * width as u64 > Self::MAX_BITS as u64 {
            return Err(format!(
                "board {width}x{height} is too large: (height + 1) * width = {} bits, at most {}",
                (height as u64 + 1) * width as u64,
                Self::MAX_BITS
            ));
        }
        Ok(Self::derive(width, height, k))
    }

    const fn derive(width: u32, height: u32, k: u32) -> Dims {
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
        Dims {
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
        let run = |s: u32| {
            let mut m = p;
            let mut len = 1;
            while len < k {
                let step = len.min(k - len);
                m = m & (m >> (step * s));
                len += step;
            }
            m != B::ZERO
        };
        (self.vertical && run(1)) || self.lateral[..self.lateral_count].iter().any(|&s| run(s))
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
    fn dims(self) -> &'static Dims;
}

/// The standard 7x6 board with k = 4, known at compile time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Standard;

const STANDARD_DIMS: Dims = Dims::derive(7, 6, 4);

impl Shape for Standard {
    #[inline(always)]
    fn dims(self) -> &'static Dims {
        &STANDARD_DIMS
    }
}

/// A geometry chosen at run time.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Sized(pub &'static Dims);

impl Sized {
    /// Leaks the dims: a program makes a handful of geometries and keeps them to the end.
    pub fn new(dims: Dims) -> Sized {
        Sized(Box::leak(Box::new(dims)))
    }
}

impl Shape for Sized {
    #[inline(always)]
    fn dims(self) -> &'static Dims {
        self.0
    }
}

/// A Connect Four position.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Connect<B: Bits, S: Shape> {
    current: B,
    mask: B,
    ply: u32,
    shape: S,
}

impl<B: Bits, S: Shape> Debug for Connect<B, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Connect({:?}, ply {})", self.shape.dims(), self.ply)
    }
}

impl<B: Bits, S: Shape> Connect<B, S> {
    /// The empty board.
    pub fn new(shape: S) -> Self {
        debug_assert!(shape.dims().col_bits * shape.dims().width <= B::BITS);
        Connect {
            current: B::ZERO,
            mask: B::ZERO,
            ply: 0,
            shape,
        }
    }

    #[inline(always)]
    pub fn dims(&self) -> &'static Dims {
        self.shape.dims()
    }

    #[inline(always)]
    fn board(&self) -> B {
        self.dims().board_bits()
    }

    #[inline(always)]
    fn bottom(&self) -> B {
        self.dims().bottom_bits()
    }

    #[inline(always)]
    fn column_mask(&self, col: u32) -> B {
        self.dims().column_mask(col)
    }

    /// The cells where a stone can be dropped now.
    #[inline(always)]
    fn playable(&self) -> B {
        self.mask.wrapping_add(self.bottom()) & self.board()
    }

    /// Empty cells that would complete a line of `k` for the stones `p`.
    #[inline(always)]
    fn winning_cells(&self, p: B) -> B {
        self.dims().winning_cells(p, self.mask)
    }

    /// Whether the stones `p` hold a line of `k`.
    #[inline(always)]
    fn has_line(&self, p: B) -> bool {
        self.dims().has_line(p)
    }

    /// The stones of the player who made the last move.
    #[inline(always)]
    fn last_mover_stones(&self) -> B {
        self.current ^ self.mask
    }

    /// The stones of the first player and of the second.
    pub fn stones(&self) -> (B, B) {
        if self.ply.is_multiple_of(2) {
            (self.current, self.last_mover_stones())
        } else {
            (self.last_mover_stones(), self.current)
        }
    }

    #[inline(always)]
    fn column_of(&self, cell: u32) -> u32 {
        cell / self.dims().col_bits
    }

    /// The set mirrored left to right.
    #[inline(always)]
    fn mirror(&self, set: B) -> B {
        self.dims().mirror(set)
    }

    #[inline(always)]
    fn can_play(&self, col: u32) -> bool {
        let d = self.dims();
        let top = B::bit(col * d.col_bits + d.height - 1);
        self.mask & top == B::ZERO
    }
}

impl<B: Bits, S: Shape> Game for Connect<B, S> {
    type Move = u8;

    fn name(&self) -> String {
        let d = self.dims();
        format!("connect4:{}x{}:k{}", d.width, d.height, d.k)
    }

    #[inline(always)]
    fn ply(&self) -> u32 {
        self.ply
    }

    #[inline(always)]
    fn max_plies(&self) -> u32 {
        self.dims().cells()
    }

    fn legal_moves(&self, out: &mut MoveList<u8>) {
        if self.status() != Status::Ongoing {
            return;
        }
        for &c in self.dims().column_order() {
            if self.can_play(c as u32) {
                out.push(c);
            }
        }
    }

    #[inline(always)]
    fn play(&self, col: u8) -> Self {
        let d = self.dims();
        let bottom = B::bit(col as u32 * d.col_bits);
        Connect {
            current: self.current ^ self.mask,
            mask: self.mask | self.mask.wrapping_add(bottom),
            ply: self.ply + 1,
            shape: self.shape,
        }
    }

    fn status(&self) -> Status {
        if self.has_line(self.last_mover_stones()) {
            Status::Win(self.side_to_move().opponent())
        } else if self.ply == self.max_plies() {
            Status::Draw
        } else {
            Status::Ongoing
        }
    }

    #[inline(always)]
    fn key(&self) -> u128 {
        self.current.wrapping_add(self.mask).to_u128()
    }

    fn key_bits(&self) -> u32 {
        self.dims().board_bit_count()
    }

    #[inline(always)]
    fn canonical_key(&self) -> u128 {
        let key = self.current.wrapping_add(self.mask);
        key.min(self.mirror(key)).to_u128()
    }

    #[inline(always)]
    fn move_code(&self, m: u8) -> Option<u8> {
        Some(m)
    }

    fn parse_move(&self, token: &str) -> Result<u8, String> {
        let w = self.dims().width;
        let col: u32 = token
            .parse()
            .map_err(|_| format!("'{token}' is not a column number"))?;
        if col < 1 || col > w {
            return Err(format!("column {col} is outside 1..{w}"));
        }
        if !self.can_play(col - 1) {
            return Err(format!("column {col} is full"));
        }
        Ok((col - 1) as u8)
    }

    fn split_moves<'a>(&self, text: &'a str) -> Vec<&'a str> {
        if text.contains(',') {
            text.split(',').map(str::trim).collect()
        } else {
            text.char_indices()
                .map(|(i, c)| &text[i..i + c.len_utf8()])
                .collect()
        }
    }

    fn format_move(&self, m: u8) -> String {
        (m as u32 + 1).to_string()
    }

    fn join_moves(&self, moves: &[String]) -> String {
        self.dims().join_moves(moves)
    }

    fn render(&self) -> String {
        let (first, second) = self.stones();
        self.dims().render(first, second)
    }

    /// Two bounds on how well the side to move can do (when it has no immediate win):
    /// - no quick win: it can win with its second move (ply + 3) only by completing a line with one
    ///   more stone on a cell playable now, at a cell at most two above a playable one. If no such
    ///   line exists, its earliest win is ply + 5.
    /// - claimeven (Allis): with an even height, the first player to move and every column
    ///   holding an even number of stones, the second player can answer every move on top of it
    ///   and so take every empty cell of an even row (1-based), leaving the first player the odd
    ///   rows. If the first player cannot make a line with its stones and those cells, it cannot
    ///   win; if the second player then can with its own, it wins.
    #[inline(always)]
    fn strategy_bounds(&self) -> (i32, i32) {
        let d = self.dims();
        let n = self.ply;
        let playable = self.playable();
        let reachable = playable | (playable << 1) | (playable << 2);
        let mut highest = i32::MAX;
        if self.winning_cells(self.current | playable) & reachable == B::ZERO {
            // A win at ply + 5 if the board lasts that long, else at best a draw.
            highest = ((d.cells() as i32 - 3 - n as i32) / 2).max(0);
        }
        if d.height % 2 == 1 || n % 2 == 1 {
            return (i32::MIN, highest);
        }
        // Cells of 0-based even rows: the rows the first player gets.
        let first_rows = B::from_u128(
            d.bottom * (0x5555_5555_5555_5555_5555_5555_5555_5555 & ((1u128 << d.height) - 1)),
        );
        if playable & !first_rows != B::ZERO {
            return (i32::MIN, highest);
        }
        let empty = self.board() ^ self.mask;
        if self.has_line(self.current | (empty & first_rows)) {
            return (i32::MIN, highest);
        }
        let second_rows = self.board() & !first_rows;
        if self.has_line(self.last_mover_stones() | (empty & second_rows)) {
            (i32::MIN, highest.min(-1))
        } else {
            (i32::MIN, highest.min(0))
        }
    }

    #[inline(always)]
    fn has_winning_move(&self) -> bool {
        self.winning_cells(self.current) & self.playable() != B::ZERO
    }

    #[inline(always)]
    fn safe_moves(&self, out: &mut MoveList<RankedMove<u8>>) {
        let threats = self.winning_cells(self.last_mover_stones());
        let playable = self.playable();
        let forced = playable & threats;
        let mut candidates = playable;
        if forced != B::ZERO {
            if forced.has_several() {
                return;
            }
            candidates = forced;
        }
        // Never play directly under an opponent's winning cell.
        candidates &= !(threats >> 1);
        if candidates == B::ZERO {
            return;
        }
        let d = self.dims();
        if !candidates.has_several() {
            let col = self.column_of(candidates.trailing_zeros()) as u8;
            out.push(RankedMove { mv: col, rank: 0 });
            return;
        }
        for &c in &d.order[..d.width as usize] {
            if candidates & self.column_mask(c as u32) != B::ZERO {
                out.push(RankedMove { mv: c, rank: 0 });
            }
        }
    }

    /// Rank = the number of winning cells the move gives the side to move (Pons), not counting
    /// those directly above an opponent's winning cell (Steininger).
    #[inline(always)]
    fn rank_moves(&self, moves: &mut [RankedMove<u8>]) {
        let playable = self.playable();
        // A threat directly above an opponent's threat can never be used.
        let useless = self.winning_cells(self.last_mover_stones()) << 1;
        for rm in moves {
            let mv = playable & self.column_mask(rm.mv as u32);
            rm.rank = (self.winning_cells(self.current | mv) & !useless).count_ones() as i32;
        }
    }
}

/// Numbered by the board relative to the side to move (see [`numbering`](super::numbering)); the
/// side to move follows from the number of discs.
impl<B: Bits, S: Shape> Indexed for Connect<B, S> {
    fn index_len(&self) -> Option<u64> {
        self.dims().index_len()
    }

    #[inline]
    fn index(&self) -> u64 {
        self.dims()
            .board_index(self.current.wrapping_add(self.mask))
    }

    fn at_index(&self, index: u64) -> Option<Self> {
        let d = self.dims();
        let (current, mask) = d.split_key(d.board_at::<B>(index));
        let (mine, theirs) = (current.count_ones(), (current ^ mask).count_ones());
        // The first player has moved as often as the second, or once more; no move can have
        // made a line for the side to move.
        if (theirs != mine && theirs != mine + 1) || self.has_line(current) {
            return None;
        }
        Some(Connect {
            current,
            mask,
            ply: mine + theirs,
            shape: self.shape,
        })
    }

    /// A drop never makes the opponent's line.
    #[inline]
    fn outlook(&self) -> Outlook {
        if self.has_winning_move() {
            return Outlook::WinNow;
        }
        let key = self.current.wrapping_add(self.mask);
        Outlook::Open((self.playable() & self.dims().distinct_columns(key)).count_ones())
    }

    /// The last mover's top discs taken back; the position before is over if the side to move
    /// had a line then.
    fn for_each_predecessor(&self, mut f: impl FnMut(u64)) {
        let d = self.dims();
        let last = self.last_mover_stones();
        if self.has_line(self.current) {
            return;
        }
        let key = self.current.wrapping_add(self.mask);
        for cell in cells(d.tops(self.mask) & last & d.distinct_columns(key)) {
            let disc = B::bit(cell);
            f(d.board_index((last ^ disc).wrapping_add(self.mask ^ disc)));
        }
    }
}
