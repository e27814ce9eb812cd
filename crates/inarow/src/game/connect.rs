//! Connect Four on any board: `width` columns, `height` rows, `k` in a row, with gravity, on
//! the bitboards of [`grid`](super::grid).
//!
//! A position keeps `current` (the stones of the side to move) and `mask` (all stones); the key
//! `current + mask` is unique and fits in the board's bits. The word is `u64` (boards with
//! `(height + 1) * width <= 64`) or `u128` (up to 128 bits).

use super::bits::{Bits, cells};
use super::geometry::line_score;
use super::gravity::GravityGeometry;
use super::grid::{Grid, Shape};
use super::view::{Board, CellId, CellName, Effect, Layout, WinningLine, column_name};
use super::{
    Bounded, Finite, Indexed, IndexedVisitor, MoveList, Notation, Outlook, Player, RankedMove,
    Rules, SafeChoice, Status, Tactics,
};
use crate::error::Error;
use std::fmt::{self, Debug};

/// A Connect Four position.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Connect<B: Bits, S: Shape> {
    current: B,
    mask: B,
    /// The empty cells where the player who made the last move would complete a line: what
    /// the side to move must block, and what the move made. Found once, when the move is
    /// played, as nearly every position reached is asked for it.
    threats: B,
    ply: u32,
    shape: S,
}

impl<B: Bits, S: Shape> Debug for Connect<B, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Connect({:?}, ply {})", self.shape.grid(), self.ply)
    }
}

impl<B: Bits, S: Shape> Connect<B, S> {
    /// The empty board.
    pub fn new(shape: S) -> Self {
        debug_assert!(shape.grid().board_bit_count() <= B::BITS);
        Connect {
            current: B::ZERO,
            mask: B::ZERO,
            threats: B::ZERO,
            ply: 0,
            shape,
        }
    }

    /// The board's size, line length and masks.
    #[inline(always)]
    pub fn grid(&self) -> &'static Grid {
        self.shape.grid()
    }

    #[inline(always)]
    fn board(&self) -> B {
        self.grid().board_bits()
    }

    #[inline(always)]
    fn bottom(&self) -> B {
        self.grid().bottom_bits()
    }

    #[inline(always)]
    fn column_mask(&self, col: u32) -> B {
        self.grid().column_mask(col)
    }

    /// The cells where a stone can be dropped now.
    #[inline(always)]
    fn playable(&self) -> B {
        self.mask.wrapping_add(self.bottom()) & self.board()
    }

    /// Empty cells that would complete a line of `k` for the stones `p`.
    #[inline(always)]
    fn winning_cells(&self, p: B) -> B {
        self.grid().winning_cells(p, self.mask)
    }

    /// Whether the stones `p` hold a line of `k`.
    #[inline(always)]
    fn has_line(&self, p: B) -> bool {
        self.grid().has_line(p)
    }

    /// The cells of the safe moves ([`Tactics::safe_moves`]): the one block if the opponent
    /// threatens a win (none if it threatens two), else every playable cell; never one directly
    /// under an opponent's winning cell.
    #[inline(always)]
    fn safe_cells(&self) -> B {
        let threats = self.threats;
        let playable = self.playable();
        let forced = playable & threats;
        let candidates = if forced == B::ZERO {
            playable
        } else if forced.has_several() {
            return B::ZERO;
        } else {
            forced
        };
        candidates & !(threats >> 1)
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
        cell / self.grid().col_bits()
    }

    /// The set mirrored left to right.
    #[inline(always)]
    fn mirror(&self, set: B) -> B {
        self.grid().mirror(set)
    }

    #[inline(always)]
    fn can_play(&self, col: u32) -> bool {
        let d = self.grid();
        let top = B::bit(col * d.col_bits() + d.height - 1);
        self.mask & top == B::ZERO
    }
}

impl<B: Bits, S: Shape> Rules for Connect<B, S> {
    type Move = u8;
    type Kind = Finite;

    fn name(&self) -> String {
        let d = self.grid();
        format!("connect4:{}x{}:k{}", d.width, d.height, d.k)
    }

    #[inline(always)]
    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self, out: &mut MoveList<u8>) {
        if self.status() != Status::Ongoing {
            return;
        }
        for &c in self.grid().column_order() {
            if self.can_play(c as u32) {
                out.push(c);
            }
        }
    }

    #[inline(always)]
    fn play(&self, col: u8) -> Self {
        let d = self.grid();
        let bottom = B::bit(col as u32 * d.col_bits());
        let mask = self.mask | self.mask.wrapping_add(bottom);
        Connect {
            current: self.current ^ self.mask,
            mask,
            threats: d.winning_cells(self.current | (mask ^ self.mask), mask),
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
        self.grid().board_bit_count()
    }

    #[inline(always)]
    fn canonical_key(&self) -> u128 {
        let key = self.current.wrapping_add(self.mask);
        key.min(self.mirror(key)).to_u128()
    }

    /// The identity and the mirror image (columns right to left), which
    /// [`Rules::canonical_key`] merges: a strategy book keys by the same classes as the
    /// certificates' verifier.
    fn symmetry_count(&self) -> usize {
        2
    }

    fn image_key(&self, i: usize) -> u128 {
        self.image(i).key()
    }

    fn image(&self, i: usize) -> Self {
        match i {
            0 => *self,
            _ => Connect {
                current: self.mirror(self.current),
                mask: self.mirror(self.mask),
                threats: self.mirror(self.threats),
                ..*self
            },
        }
    }

    fn image_move(&self, m: u8, i: usize) -> u8 {
        match i {
            0 => m,
            _ => (self.grid().width - 1) as u8 - m,
        }
    }

    /// Stones are only added, and the mirror is the one other symmetry.
    fn images_may_meet(&self) -> bool {
        let (mine, theirs) = (self.current, self.current ^ self.mask);
        self.mirror(mine) & theirs == B::ZERO
    }

    #[inline(always)]
    fn move_code(&self, m: u8) -> u16 {
        m as u16
    }

    fn visit_indexed<V: IndexedVisitor<Self>>(visitor: V) -> Option<V::Output> {
        Some(visitor.indexed())
    }

    fn gravity_position(&self) -> Option<(&'static GravityGeometry, u128, u128)> {
        Some((
            self.grid().gravity_geometry(),
            self.current.to_u128(),
            self.last_mover_stones().to_u128(),
        ))
    }
}

impl<B: Bits, S: Shape> Bounded for Connect<B, S> {
    #[inline(always)]
    fn max_plies(&self) -> u32 {
        self.grid().cells()
    }
}

impl<B: Bits, S: Shape> Notation for Connect<B, S> {
    fn parse_move(&self, token: &str) -> Result<u8, Error> {
        let w = self.grid().width;
        let col: u32 = token
            .parse()
            .map_err(|_| Error::Input(format!("'{token}' is not a column number")))?;
        if col < 1 || col > w {
            return Err(Error::Input(format!("column {col} is outside 1..{w}")));
        }
        if !self.can_play(col - 1) {
            return Err(Error::Input(format!("column {col} is full")));
        }
        Ok((col - 1) as u8)
    }

    fn format_move(&self, m: u8) -> String {
        (m as u32 + 1).to_string()
    }

    fn describe_moves(&self) -> String {
        let w = self.grid().width;
        if w <= 9 {
            format!(
                "a column number 1-{w}, from the left; a move string is the columns in turn, like 4453"
            )
        } else {
            format!(
                "a column number 1-{w}, from the left; a move string is the columns in turn with commas, like 10,4,11"
            )
        }
    }

    fn render(&self) -> String {
        let (first, second) = self.stones();
        self.grid().render(first, second)
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

    fn join_moves(&self, moves: &[String]) -> String {
        self.grid().join_moves(moves)
    }
}

/// One block; a cell is named by its column, as moves are; a drop fills the lowest empty cell.
impl<B: Bits, S: Shape> Board for Connect<B, S> {
    fn layout(&self) -> Layout {
        self.grid().layout()
    }

    fn owner(&self, cell: CellId) -> Option<Player> {
        let (first, second) = self.stones();
        self.grid().owner(first, second, cell)
    }

    fn cell_name(&self, cell: CellId) -> CellName {
        column_name(self.grid().column_of_cell(cell))
    }

    fn lines_held(&self, out: &mut Vec<WinningLine>) {
        let (first, second) = self.stones();
        self.grid().lines_held(first, second, out);
    }

    fn effect(&self, col: u8) -> Effect {
        Effect {
            placed: Some(self.grid().landing_cell(self.mask, col as u32)),
            ..Effect::default()
        }
    }
}

impl<B: Bits, S: Shape> Tactics for Connect<B, S> {
    /// A drop makes lines only for its mover, and the board fills only on the last ply.
    const ONLY_MOVER_WINS: bool = true;

    /// Open lines and threats, with Allis' row parity ([`line_score`]).
    fn evaluate(&self) -> Option<i32> {
        let g = self.grid();
        let rows = (g.col_bits(), self.ply.is_multiple_of(2));
        let (mine, theirs) = (self.current.to_u128(), self.last_mover_stones().to_u128());
        Some(line_score(g.lines(), mine, theirs, g.k, Some(rows)))
    }

    /// Bounds on how well the side to move can do (when it has no immediate win), each worked
    /// out only where it could be inside the window `(alpha, beta)`:
    /// - no quick win: it can win with its second move (ply + 3) only by completing a line with one
    ///   more stone on a cell playable now, at a cell at most two above a playable one. If no such
    ///   line exists, its earliest win is ply + 5.
    /// - a side that cannot make a line with its stones and every empty cell cannot win.
    /// - claimeven (Allis), with an even height and the first player to move: the second player
    ///   answers a move in a column holding an even number of stones on top of it, and a move in
    ///   a column holding an odd number in another such column (there is always one: the stones
    ///   are even in number). It so takes every empty cell of an even row (1-based) but the ones
    ///   playable now, which the first player may get. If every line the first player could make
    ///   with its stones and every other empty cell lies directly above a line the second player
    ///   makes with its own and the cells it is sure of (Steininger), the first player cannot
    ///   win: the second completes its line first. If the second player has such a line, it wins.
    #[inline(always)]
    fn strategy_bounds(&self, alpha: i32, beta: i32) -> (i32, i32) {
        let d = self.grid();
        let n = self.ply;
        let empty = self.board() ^ self.mask;
        let (mut lowest, mut highest) = (i32::MIN, i32::MAX);
        let quick = ((d.cells() as i32 - 3 - n as i32) / 2).max(0);
        if quick < beta {
            let playable = self.playable();
            let reachable = playable | (playable << 1) | (playable << 2);
            if self.winning_cells(self.current | playable) & reachable == B::ZERO {
                // A win at ply + 5 if the board lasts that long, else at best a draw.
                highest = quick;
            }
        }
        if alpha < 0 && !self.has_line(self.last_mover_stones() | empty) {
            lowest = 0;
        }
        if d.height % 2 == 1 || n % 2 == 1 {
            if beta > 0 && highest > 0 && !self.has_line(self.current | empty) {
                highest = 0;
            }
            return (lowest, highest);
        }
        // The second player's win comes by ply `cells` at the latest: the bounds below are at
        // most 0 and at least -(height / 2).
        if beta <= -(d.height as i32 / 2) || highest <= -(d.height as i32 / 2) {
            return (lowest, highest);
        }
        let playable = self.playable();
        // Cells of 0-based even rows: the rows the first player gets.
        let first_rows = B::from_u128(
            d.bottom_bits::<u128>()
                * (0x5555_5555_5555_5555_5555_5555_5555_5555 & ((1u128 << d.height) - 1)),
        );
        let claimed = empty & !first_rows & !playable;
        let second = self.last_mover_stones() | claimed;
        let first = self.current | (empty & !claimed);
        if !d.lines_lie_above(first, second) {
            if beta > 0 && highest > 0 && !self.has_line(self.current | empty) {
                highest = 0;
            }
            return (lowest, highest);
        }
        if !self.has_line(second) {
            return (lowest, highest.min(0));
        }
        // The second player wins, by the time its line's last cell is filled, at the latest:
        // the cells above that cell are still empty then. The first player delays the line
        // most by leaving its highest cell for last, so the bound comes from the line whose
        // highest claimed cell is lowest (Steininger bounds the loss by rows in the same way).
        let mut top = 1;
        while top + 1 < d.height {
            let rows_to_top = d.bottom_bits::<u128>() * ((1u128 << (top + 1)) - 1);
            if self.has_line(self.last_mover_stones() | (claimed & B::from_u128(rows_to_top))) {
                break;
            }
            top += 2;
        }
        // The line is complete by ply `cells - (height - 1 - top)`, a second player's ply (even,
        // 1-based).
        let mut last_ply = d.cells() - (d.height - 1 - top);
        last_ply -= last_ply % 2;
        (
            lowest,
            highest.min(-((d.cells() as i32 + 2 - last_ply as i32) / 2)),
        )
    }

    #[inline(always)]
    fn has_winning_move(&self) -> bool {
        self.winning_cells(self.current) & self.playable() != B::ZERO
    }

    #[inline(always)]
    fn safe_moves(&self, out: &mut MoveList<RankedMove<u8>>) {
        let candidates = self.safe_cells();
        if candidates == B::ZERO {
            return;
        }
        let d = self.grid();
        if !candidates.has_several() {
            let col = self.column_of(candidates.trailing_zeros()) as u8;
            out.push(RankedMove { mv: col, rank: 0 });
            return;
        }
        for &c in d.column_order() {
            if candidates & self.column_mask(c as u32) != B::ZERO {
                out.push(RankedMove { mv: c, rank: 0 });
            }
        }
    }

    #[inline(always)]
    fn safe_choice(&self) -> SafeChoice<u8> {
        let cells = self.safe_cells();
        if cells == B::ZERO {
            SafeChoice::None
        } else if cells.has_several() {
            SafeChoice::Several
        } else {
            SafeChoice::Forced(self.column_of(cells.trailing_zeros()) as u8)
        }
    }

    /// Rank = the number of winning cells the move gives the side to move (Pons), not counting
    /// those directly above an opponent's winning cell (Steininger), and counting twice those
    /// directly above a cell playable after the move: the opponent can no longer play in that
    /// column (Steininger weighs them most too). Empty 7x6: 170.8 M -> 139.9 M nodes.
    #[inline(always)]
    fn rank_moves(&self, moves: &mut [RankedMove<u8>]) {
        for rm in moves {
            rm.rank = self.rank_child(rm.mv, &self.play(rm.mv));
        }
    }

    /// As [`Tactics::rank_moves`], from the child's threats, found when the move was played.
    #[inline(always)]
    fn rank_child(&self, _: u8, child: &Self) -> i32 {
        // A threat directly above an opponent's threat can never be used.
        let threats = child.threats & !(self.threats << 1);
        let placed = child.mask ^ self.mask;
        let playable_after = ((self.playable() ^ placed) | (placed << 1)) & self.board();
        (threats.count_ones() + (threats & (playable_after << 1)).count_ones()) as i32
    }
}

/// Numbered by the board relative to the side to move (see `game/numbering.rs`); the
/// side to move follows from the number of discs.
impl<B: Bits, S: Shape> Indexed for Connect<B, S> {
    fn index_len(&self) -> Option<u64> {
        self.grid().index_len()
    }

    #[inline]
    fn index(&self) -> u64 {
        self.grid()
            .board_index(self.current.wrapping_add(self.mask))
    }

    fn at_index(&self, index: u64) -> Option<Self> {
        let d = self.grid();
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
            threats: d.winning_cells(current ^ mask, mask),
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
        Outlook::Open((self.playable() & self.grid().distinct_columns(key)).count_ones())
    }

    /// The last mover's top discs taken back; the position before is over if the side to move
    /// had a line then.
    fn for_each_predecessor(&self, mut f: impl FnMut(u64)) {
        let d = self.grid();
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
