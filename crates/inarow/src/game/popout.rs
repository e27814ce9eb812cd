//! PopOut: Connect Four where a player may also pop one of their own discs from the bottom of a
//! column (popout-thesis §2.1).
//!
//! The board is Connect Four's (see [`grid`](super::grid)): column-major, `height + 1` bits per
//! column with a sentinel on top, the geometry and line detection shared through [`Grid`].
//! 7x6 example, bit numbers:
//!
//! ```text
//!   6 13 20 27 34 41 48   <- sentinel row
//!   5 12 19 26 33 40 47
//!   ...
//!   0  7 14 21 28 35 42   <- bottom row: a pop removes one of these, the column falls one cell
//! ```
//!
//! A position keeps `current` (the discs of the side to move), `mask` (all discs), the move
//! counter and whether a draw was claimed. A pop of column `c` is a masked shift of that column
//! in every set: `(x & !col) | ((x & col) >> 1 & col)`; the bottom bit falls into the previous
//! column's sentinel and is masked away.
//!
//! Rules, decided by the last move:
//! - a drop makes lines only for the dropper;
//! - a pop may make lines for both players: the popper wins if it has one (whether or not the
//!   opponent has one too), else the opponent wins if it has one;
//! - on a full board the side to move may pop one of its bottom discs or claim a draw, a move of
//!   its own ([`PopMove::Draw`]) after which the game is drawn;
//! - a repeated position is a draw, but that depends on the path, so it is the search's to detect
//!   (from its history of [`Rules::key`]s), not the rules': [`Rules::status`] never reports it.
//!
//! PopOut games are unbounded: the game is [`Repeating`], not [`Bounded`](super::Bounded).
//!
//! Notation: a drop is its column, 1-based, as in Connect Four (`4453`); a pop is `p` and the
//! column (`44p4`: drop 4, drop 4, pop 4); the draw claim on a full board is `d`. Boards wider
//! than 9 columns separate the moves with commas (`10,p10,d`); the comma form is read on any board.
//!
//! Move codes ([`Rules::move_code`]): drops `0..W`, pops `W..2W`, the draw claim `2W` (below
//! [`MAX_MOVES`](super::MAX_MOVES): a board of 64 bits has at most 32 columns).
//!
//! Keys: `current + mask` (Pons: unique given who `current` belongs to) in the board's bits, then
//! one bit for the side to move (disc parity no longer tells it) and one for a claimed draw. The
//! move counter is not part of the key, nor of equality: two positions are equal when their
//! boards, sides to move and draw claims are, however many moves led to them.

use super::bits::{Bits, cells};
use super::geometry::line_score;
use super::grid::{Grid, Shape};
use super::view::{Board, CellId, CellName, Effect, Layout, WinningLine, column_name};
use super::{
    Cyclic, Indexed, IndexedVisitor, MoveList, Notation, Outlook, Player, RankedMove, Repeating,
    Rules, SafeChoice, Status, Tactics,
};
use crate::error::Error;
use std::fmt::{self, Debug};

/// A PopOut move.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum PopMove {
    /// Drop a disc into a column (0-based) that is not full.
    Drop(u8),
    /// Pop the mover's own disc from the bottom of a column (0-based).
    Pop(u8),
    /// End the game as a draw; legal only on a full board.
    Draw,
}

/// A PopOut position.
#[derive(Copy, Clone)]
pub struct PopOut<B: Bits, S: Shape> {
    current: B,
    mask: B,
    /// Moves played since the empty board; its parity is the side to move.
    ply: u32,
    drawn: bool,
    shape: S,
}

/// Equal boards with the same side to move (and draw claim); the move counter is ignored.
impl<B: Bits, S: Shape> PartialEq for PopOut<B, S> {
    fn eq(&self, other: &Self) -> bool {
        self.current == other.current
            && self.mask == other.mask
            && self.ply % 2 == other.ply % 2
            && self.drawn == other.drawn
            && self.shape == other.shape
    }
}

impl<B: Bits, S: Shape> Eq for PopOut<B, S> {}

impl<B: Bits, S: Shape> Debug for PopOut<B, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "PopOut({:?}, ply {}, key {:#x})",
            self.shape.grid(),
            self.ply,
            self.key()
        )
    }
}

impl<B: Bits, S: Shape> PopOut<B, S> {
    /// The empty board. The key needs the board's bits and two more.
    pub fn new(shape: S) -> Self {
        debug_assert!(shape.grid().board_bit_count() <= B::BITS);
        debug_assert!(shape.grid().board_bit_count() + 2 <= 128);
        PopOut {
            current: B::ZERO,
            mask: B::ZERO,
            ply: 0,
            drawn: false,
            shape,
        }
    }

    /// The board's size, line length and masks.
    #[inline(always)]
    pub fn grid(&self) -> &'static Grid {
        self.shape.grid()
    }

    /// The discs of the first player and of the second.
    pub fn stones(&self) -> (B, B) {
        if self.ply.is_multiple_of(2) {
            (self.current, self.current ^ self.mask)
        } else {
            (self.current ^ self.mask, self.current)
        }
    }

    /// Whether every cell holds a disc.
    #[inline(always)]
    pub fn is_full(&self) -> bool {
        self.mask == self.grid().board_bits()
    }

    /// The cells where a disc can be dropped now.
    #[inline(always)]
    fn playable(&self) -> B {
        let d = self.grid();
        self.mask.wrapping_add(d.bottom_bits()) & d.board_bits()
    }

    /// The bottom cells holding a disc of the side to move: the columns it may pop.
    #[inline(always)]
    fn poppable(&self) -> B {
        self.current & self.grid().bottom_bits()
    }

    #[inline(always)]
    fn can_drop(&self, col: u32) -> bool {
        let d = self.grid();
        self.mask & B::bit(col * d.col_bits() + d.height - 1) == B::ZERO
    }

    /// The set after the bottom cell of column `col` is removed and the cells above fall one row.
    #[inline(always)]
    fn pop_column(&self, set: B, col: u32) -> B {
        let column: B = self.grid().column_mask(col);
        (set & !column) | ((set & column) >> 1 & column)
    }

    /// The key of the board alone (which discs belong to the side to move, which to the other).
    #[inline(always)]
    fn board_key(&self) -> B {
        self.current.wrapping_add(self.mask)
    }

    /// The side-to-move and draw-claim bits of the key, above the board's bits.
    #[inline(always)]
    fn key_flags(&self) -> u128 {
        let n = self.grid().board_bit_count();
        (((self.ply & 1) as u128) << n) | ((self.drawn as u128) << (n + 1))
    }

    /// Whether the side with the discs `theirs`, to move, has a pop after which it holds a line
    /// (a win, whatever the other side then holds).
    #[inline(always)]
    fn wins_by_pop(&self, theirs: B) -> bool {
        let d = self.grid();
        cells(theirs & d.bottom_bits())
            .any(|cell| d.has_line(self.pop_column(theirs, cell / d.col_bits())))
    }

    /// Whether popping column `col` (the side to move's bottom disc; it has no winning move)
    /// neither makes the opponent's line nor leaves the opponent a winning move.
    #[inline(always)]
    fn pop_is_safe(&self, opponent: B, col: u32) -> bool {
        let d = self.grid();
        if d.has_line(self.pop_column(self.current, col)) {
            return true;
        }
        let theirs = self.pop_column(opponent, col);
        if d.has_line(theirs) {
            return false;
        }
        let mask = self.pop_column(self.mask, col);
        let playable = mask.wrapping_add(d.bottom_bits()) & d.board_bits();
        d.winning_cells(theirs, mask) & playable == B::ZERO && !self.wins_by_pop(theirs)
    }

    /// Reads a 1-based column number of `token` (the part after any `p`).
    fn parse_column(&self, digits: &str, token: &str) -> Result<u32, Error> {
        let w = self.grid().width;
        let col: u32 = digits.parse().map_err(|_| {
            Error::Input(format!(
                "'{token}' is not a move: expected a column 1..{w}, p and a column, or d"
            ))
        })?;
        if col < 1 || col > w {
            return Err(Error::Input(format!("column {col} is outside 1..{w}")));
        }
        Ok(col - 1)
    }
}

impl<B: Bits, S: Shape> Rules for PopOut<B, S> {
    type Move = PopMove;
    type Kind = Cyclic;

    fn name(&self) -> String {
        let d = self.grid();
        format!("popout:{}x{}", d.width, d.height)
    }

    #[inline(always)]
    fn ply(&self) -> u32 {
        self.ply
    }

    fn legal_moves(&self, out: &mut MoveList<PopMove>) {
        if self.status() != Status::Ongoing {
            return;
        }
        let order = self.grid().column_order();
        for &c in order {
            if self.can_drop(c as u32) {
                out.push(PopMove::Drop(c));
            }
        }
        let poppable = self.poppable();
        for &c in order {
            if poppable & self.grid().column_mask(c as u32) != B::ZERO {
                out.push(PopMove::Pop(c));
            }
        }
        if self.is_full() {
            out.push(PopMove::Draw);
        }
    }

    #[inline(always)]
    fn play(&self, m: PopMove) -> Self {
        let d = self.grid();
        let opponent = self.current ^ self.mask;
        let (current, mask, drawn) = match m {
            PopMove::Drop(col) => {
                let bottom = B::bit(col as u32 * d.col_bits());
                (opponent, self.mask | self.mask.wrapping_add(bottom), false)
            }
            PopMove::Pop(col) => (
                self.pop_column(opponent, col as u32),
                self.pop_column(self.mask, col as u32),
                false,
            ),
            PopMove::Draw => (opponent, self.mask, true),
        };
        PopOut {
            current,
            mask,
            ply: self.ply + 1,
            drawn,
            shape: self.shape,
        }
    }

    /// The last mover wins with a line (a pop making lines for both players wins for the
    /// popper); else the side to move wins with a line (only a pop can have made it).
    fn status(&self) -> Status {
        let d = self.grid();
        let mover = self.side_to_move().opponent();
        if self.drawn {
            Status::Draw
        } else if d.has_line(self.current ^ self.mask) {
            Status::Win(mover)
        } else if d.has_line(self.current) {
            Status::Win(mover.opponent())
        } else {
            Status::Ongoing
        }
    }

    #[inline(always)]
    fn key(&self) -> u128 {
        self.board_key().to_u128() | self.key_flags()
    }

    fn key_bits(&self) -> u32 {
        self.grid().board_bit_count() + 2
    }

    /// The smaller key of the position and its mirror image (the flags are not mirrored).
    #[inline(always)]
    fn canonical_key(&self) -> u128 {
        let key = self.board_key();
        key.min(self.grid().mirror(key)).to_u128() | self.key_flags()
    }

    #[inline(always)]
    fn move_code(&self, m: PopMove) -> u16 {
        let w = self.grid().width as u16;
        match m {
            PopMove::Drop(c) => c as u16,
            PopMove::Pop(c) => w + c as u16,
            PopMove::Draw => 2 * w,
        }
    }

    fn visit_indexed<V: IndexedVisitor<Self>>(visitor: V) -> Option<V::Output> {
        Some(visitor.indexed())
    }
}

impl<B: Bits, S: Shape> Repeating for PopOut<B, S> {
    fn is_backward(&self, m: PopMove) -> bool {
        matches!(m, PopMove::Pop(_))
    }

    fn is_claim(&self, m: PopMove) -> bool {
        m == PopMove::Draw
    }

    fn stones(&self) -> u32 {
        self.mask.count_ones()
    }
}

impl<B: Bits, S: Shape> Notation for PopOut<B, S> {
    fn parse_move(&self, token: &str) -> Result<PopMove, Error> {
        if token == "d" {
            return if self.is_full() {
                Ok(PopMove::Draw)
            } else {
                Err(Error::Input(
                    "a draw can be claimed ('d') only on a full board".to_string(),
                ))
            };
        }
        if let Some(digits) = token.strip_prefix('p') {
            let col = self.parse_column(digits, token)?;
            let bottom = B::bit(col * self.grid().col_bits());
            if self.mask & bottom == B::ZERO {
                return Err(Error::Input(format!(
                    "column {} is empty: nothing to pop",
                    col + 1
                )));
            }
            if self.current & bottom == B::ZERO {
                return Err(Error::Input(format!(
                    "the bottom disc of column {} is the opponent's: only your own can be popped",
                    col + 1
                )));
            }
            return Ok(PopMove::Pop(col as u8));
        }
        let col = self.parse_column(token, token)?;
        if !self.can_drop(col) {
            return Err(Error::Input(format!("column {} is full", col + 1)));
        }
        Ok(PopMove::Drop(col as u8))
    }

    fn describe_moves(&self) -> String {
        let w = self.grid().width;
        let like = if w <= 9 { "44p4" } else { "4,4,p4" };
        format!(
            "4 drops a disc in column 4 (columns 1-{w}), p4 pops your own disc from the bottom of \
             column 4, d claims a draw on a full board; like {like}"
        )
    }

    fn format_move(&self, m: PopMove) -> String {
        match m {
            PopMove::Drop(c) => (c as u32 + 1).to_string(),
            PopMove::Pop(c) => format!("p{}", c as u32 + 1),
            PopMove::Draw => "d".to_string(),
        }
    }

    fn render(&self) -> String {
        let (first, second) = self.stones();
        self.grid().render(first, second)
    }

    /// Comma-separated tokens when there is a comma; else one character a move, a `p` taking
    /// the character after it.
    fn split_moves<'a>(&self, text: &'a str) -> Vec<&'a str> {
        if text.contains(',') {
            return text.split(',').map(str::trim).collect();
        }
        let mut tokens = Vec::new();
        let mut chars = text.char_indices().peekable();
        while let Some((i, c)) = chars.next() {
            let mut end = i + c.len_utf8();
            if c == 'p'
                && let Some(&(j, next)) = chars.peek()
            {
                end = j + next.len_utf8();
                chars.next();
            }
            tokens.push(&text[i..end]);
        }
        tokens
    }

    fn join_moves(&self, moves: &[String]) -> String {
        self.grid().join_moves(moves)
    }
}

/// Connect Four's board; a pop names its column, and the draw claim changes nothing.
impl<B: Bits, S: Shape> Board for PopOut<B, S> {
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

    fn effect(&self, m: PopMove) -> Effect {
        match m {
            PopMove::Drop(col) => Effect {
                placed: Some(self.grid().landing_cell(self.mask, col as u32)),
                ..Effect::default()
            },
            PopMove::Pop(col) => Effect {
                popped: Some(col),
                ..Effect::default()
            },
            PopMove::Draw => Effect::default(),
        }
    }
}

impl<B: Bits, S: Shape> Tactics for PopOut<B, S> {
    /// Open lines and threats, with Allis' row parity ([`line_score`]).
    fn evaluate(&self) -> Option<i32> {
        let g = self.grid();
        let rows = (g.col_bits(), self.ply.is_multiple_of(2));
        let theirs = (self.current ^ self.mask).to_u128();
        Some(line_score(
            g.lines(),
            self.current.to_u128(),
            theirs,
            g.k,
            Some(rows),
        ))
    }

    /// By bitboards, drops all at once (the moves of [`Rules::legal_moves`] that
    /// `plays_safe` keeps, in the same order). A drop changes neither
    /// side's bottom discs nor the opponent's discs, so the opponent wins by a pop after it
    /// exactly when it can now, and otherwise by a drop only on one of its winning cells
    /// playable after the drop; a pop is checked by the rules, as a position of its own.
    #[inline]
    fn safe_moves(&self, out: &mut MoveList<RankedMove<PopMove>>) {
        let d = self.grid();
        let opponent = self.current ^ self.mask;
        let order = d.column_order();
        if !self.wins_by_pop(opponent) {
            let theirs = d.winning_cells(opponent, self.mask);
            let playable = self.playable();
            let forced = theirs & playable;
            // Drops that leave no winning cell of the opponent playable: not below one, and the
            // one winning cell playable now, if there is one (two or more: every drop loses).
            let drops = if forced == B::ZERO {
                playable & !(theirs >> 1)
            } else if forced.has_several() {
                B::ZERO
            } else {
                forced & !(theirs >> 1)
            };
            if drops != B::ZERO {
                for &c in order {
                    if drops & d.column_mask(c as u32) != B::ZERO {
                        out.push(RankedMove {
                            mv: PopMove::Drop(c),
                            rank: 0,
                        });
                    }
                }
            }
        }
        let poppable = self.poppable();
        if poppable != B::ZERO {
            for &c in order {
                if poppable & d.column_mask(c as u32) != B::ZERO
                    && self.pop_is_safe(opponent, c as u32)
                {
                    out.push(RankedMove {
                        mv: PopMove::Pop(c),
                        rank: 0,
                    });
                }
            }
        }
        if self.is_full() {
            out.push(RankedMove {
                mv: PopMove::Draw,
                rank: 0,
            });
        }
    }

    /// As [`Tactics::safe_moves`] counts them.
    #[inline]
    fn safe_choice(&self) -> SafeChoice<PopMove> {
        let mut moves = MoveList::new();
        self.safe_moves(&mut moves);
        SafeChoice::counting(moves.iter().map(|rm| rm.mv))
    }

    /// A drop that completes a line of the side to move, or a pop after which it has one.
    #[inline(always)]
    fn has_winning_move(&self) -> bool {
        let d = self.grid();
        if d.winning_cells(self.current, self.mask) & self.playable() != B::ZERO {
            return true;
        }
        cells(self.poppable())
            .any(|cell| d.has_line(self.pop_column(self.current, cell / d.col_bits())))
    }
}

/// Numbered by the board relative to the side to move (see `game/numbering.rs`):
/// the rules are the same for both colours, so a board with the first player to move and its
/// colour-swapped twin with the second to move share an index (and a value).
impl<B: Bits, S: Shape> Indexed for PopOut<B, S> {
    fn index_len(&self) -> Option<u64> {
        self.grid().index_len()
    }

    #[inline]
    fn index(&self) -> u64 {
        self.grid().board_index(self.board_key())
    }

    /// The board with the first player to move.
    fn at_index(&self, index: u64) -> Option<Self> {
        let d = self.grid();
        let (current, mask) = d.split_key(d.board_at::<B>(index));
        Some(PopOut {
            current,
            mask,
            ply: 0,
            drawn: false,
            shape: self.shape,
        })
    }

    /// Drops (never the opponent's line) and pops (the popper's line wins, the opponent's
    /// alone loses) on the distinct columns, and the claim.
    #[inline]
    fn outlook(&self) -> Outlook {
        let d = self.grid();
        if d.winning_cells(self.current, self.mask) & self.playable() != B::ZERO {
            return Outlook::WinNow;
        }
        let columns = d.distinct_columns(self.board_key());
        let mut open = (self.playable() & columns).count_ones() + self.is_full() as u32;
        let opponent = self.current ^ self.mask;
        for cell in cells(self.poppable() & columns) {
            let col = cell / d.col_bits();
            if d.has_line(self.pop_column(self.current, col)) {
                return Outlook::WinNow;
            }
            open += !d.has_line(self.pop_column(opponent, col)) as u32;
        }
        match open {
            0 => Outlook::LoseNow,
            n => Outlook::Open(n),
        }
    }

    /// The last mover's top discs taken back (drops), and the last mover's disc put back under
    /// a column that is not full (pops); positions already over are left out.
    fn for_each_predecessor(&self, mut f: impl FnMut(u64)) {
        let d = self.grid();
        let last = self.current ^ self.mask;
        let columns = d.distinct_columns(self.board_key());
        let mut report = |mover: B, other: B| {
            if !d.has_line(mover) && !d.has_line(other) {
                f(d.board_index(mover.wrapping_add(mover | other)));
            }
        };
        for cell in cells(d.tops(self.mask) & last & columns) {
            report(last ^ B::bit(cell), self.current);
        }
        for cell in cells(self.playable() & columns) {
            let col = cell / d.col_bits();
            let column: B = d.column_mask(col);
            let lift = |set: B| (set & !column) | ((set & column) << 1);
            report(lift(last) | B::bit(col * d.col_bits()), lift(self.current));
        }
    }
}
