//! A position as data: what a page, a binding or a test draws from, instead of the terminal's
//! picture ([`Notation::render`]).
//!
//! A [`PositionView`] holds the board's shape ([`Layout`]: its size, the line length that wins,
//! gravity, its blocks), every [`Cell`] with its coordinates, its name in the game's notation
//! and its owner, the lines of `k` on the board (the winning line of a finished game), and every
//! legal move ([`MoveView`]) with its text, what it does ([`Effect`]: the cell it places on, the
//! column it pops, the quadrant it turns) and the cells it changes.
//!
//! Cells are numbered `x + width * (y + height * z)` ([`CellId`]): `x` the column from the left,
//! `y` the row from the bottom, `z` the level from the bottom (0 on a flat board). The cube's
//! and Pentago's bitboards use this numbering; Connect Four's column-major bits with their
//! sentinel row do not, and its file converts.
//!
//! Every game implements [`Board`] in its own file (its layout, who holds a cell, a cell's name,
//! the lines held, what a move does); [`PositionView::of`] builds the rest the same way for all.
//! Building a view allocates three vectors (cells, lines, moves) and one string per move (its
//! text); a cell's name is stored inline.

use super::{Notation, Player, Status};
use arrayvec::{ArrayString, ArrayVec};

/// A cell's number: `x + width * (y + height * z)` (see the [module documentation](self)); the
/// index of the cell in [`PositionView::cells`].
pub type CellId = u16;

/// A cell's name in the game's notation, stored inline (at most four bytes).
pub type CellName = ArrayString<4>;

/// The most cells a board may have: a [`CellSet`] holds any set of them.
pub const MAX_CELLS: usize = 128;

/// A set of cells, as a mask of their numbers (bit `c` for cell `c`).
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq, Hash)]
pub struct CellSet(pub u128);

impl CellSet {
    /// No cell.
    pub const EMPTY: CellSet = CellSet(0);

    /// Whether `cell` is in the set.
    pub fn contains(self, cell: CellId) -> bool {
        (cell as usize) < MAX_CELLS && self.0 >> cell & 1 == 1
    }

    /// Adds `cell`.
    ///
    /// # Panics
    /// If `cell` is not below [`MAX_CELLS`].
    pub fn insert(&mut self, cell: CellId) {
        assert!(
            (cell as usize) < MAX_CELLS,
            "cell {cell} beyond {MAX_CELLS}"
        );
        self.0 |= 1 << cell;
    }

    /// The number of cells in the set.
    pub fn len(self) -> u32 {
        self.0.count_ones()
    }

    /// Whether the set holds no cell.
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The cells of the set, lowest number first.
    pub fn iter(self) -> impl Iterator<Item = CellId> {
        let mut set = self.0;
        std::iter::from_fn(move || {
            (set != 0).then(|| {
                let cell = set.trailing_zeros() as CellId;
                set &= set - 1;
                cell
            })
        })
    }
}

impl FromIterator<CellId> for CellSet {
    fn from_iter<I: IntoIterator<Item = CellId>>(cells: I) -> Self {
        let mut set = CellSet::EMPTY;
        for cell in cells {
            set.insert(cell);
        }
        set
    }
}

/// One of the three directions of a board.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Axis {
    /// Along a row: the columns, left to right.
    X,
    /// Along a column: the rows, bottom to top.
    Y,
    /// Through the levels, bottom to top (the cube's).
    Z,
}

/// A part of the board drawn as one rectangle: the whole board of Connect Four and PopOut, a
/// level of the cube and of Qubic, a quadrant of Pentago.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Block {
    /// `board`; `level 1` to `level 4`, bottom first; `quadrant 0` to `quadrant 3`, Irving's
    /// numbering (0 lower left, 1 upper left, 2 lower right, 3 upper right).
    pub name: &'static str,
    /// The coordinates `[x, y, z]` of its lowest cell.
    pub from: [u8; 3],
    /// Its cells along each axis: it holds the cells from `from` to `from + size - 1`, one level
    /// thick (`size[2] == 1`).
    pub size: [u8; 3],
    /// Where it is drawn: `[row of blocks, place in that row]`, both from 0, the top row and the
    /// leftmost place first. Blocks of one row stand side by side with a gap of one cell; rows
    /// of blocks stand one above the other with a gap of one row.
    pub place: [u8; 2],
}

/// The shape of a board.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The cells along `x`, `y` and `z` (1 along `z` on a flat board).
    pub size: [u8; 3],
    /// The stones in a line that win: 4 in Connect Four, 5 in Pentago.
    pub k: u8,
    /// The axis along which stones fall to the lowest empty cell ([`Axis::Y`] in Connect Four
    /// and PopOut, [`Axis::Z`] in the cube), or `None` where a stone goes on any empty cell.
    pub gravity: Option<Axis>,
    /// The blocks, which together hold every cell once.
    pub blocks: ArrayVec<Block, 4>,
}

impl Layout {
    /// The layout of a flat board of `width` x `height` cells drawn as one block.
    ///
    /// # Panics
    /// If the board has more than [`MAX_CELLS`] cells.
    pub fn flat(width: u8, height: u8, k: u8, gravity: Option<Axis>) -> Layout {
        let mut blocks = ArrayVec::new();
        blocks.push(Block {
            name: "board",
            from: [0; 3],
            size: [width, height, 1],
            place: [0, 0],
        });
        let layout = Layout {
            size: [width, height, 1],
            k,
            gravity,
            blocks,
        };
        assert!(
            layout.cell_count() <= MAX_CELLS,
            "{width}x{height} has too many cells"
        );
        layout
    }

    /// The number of cells.
    pub fn cell_count(&self) -> usize {
        self.size.iter().map(|&n| n as usize).product()
    }

    /// The number of the cell at `[x, y, z]`.
    pub fn cell(&self, at: [u8; 3]) -> CellId {
        let [w, h, _] = self.size.map(CellId::from);
        at[0] as CellId + w * (at[1] as CellId + h * at[2] as CellId)
    }

    /// The coordinates `[x, y, z]` of cell `cell`.
    pub fn at(&self, cell: CellId) -> [u8; 3] {
        let [w, h, _] = self.size.map(CellId::from);
        [
            (cell % w) as u8,
            (cell / w % h) as u8,
            (cell / (w * h)) as u8,
        ]
    }

    /// The block that holds the cell at `at`.
    pub fn block_of(&self, at: [u8; 3]) -> Option<usize> {
        self.blocks
            .iter()
            .position(|b| (0..3).all(|i| at[i] >= b.from[i] && at[i] - b.from[i] < b.size[i]))
    }

    /// Where each block's top left cell is drawn, `[row, column]`, and the picture's size
    /// `[rows, columns]`: rows of blocks one under the other, blocks side by side, one cell of
    /// gap between.
    fn origins(&self) -> (ArrayVec<[u16; 2], 4>, [u16; 2]) {
        // The rows of blocks above row `r`, each as tall as its tallest block, and their gaps.
        let top = |r: u8| -> u16 {
            (0..r)
                .map(|above| {
                    let row = self.blocks.iter().filter(|b| b.place[0] == above);
                    row.map(|b| b.size[1] as u16).max().unwrap_or(0) + 1
                })
                .sum()
        };
        let mut width = 0;
        let origins = self
            .blocks
            .iter()
            .map(|b| {
                let left: u16 = self
                    .blocks
                    .iter()
                    .filter(|o| o.place[0] == b.place[0] && o.place[1] < b.place[1])
                    .map(|o| o.size[0] as u16 + 1)
                    .sum();
                width = width.max(left + b.size[0] as u16);
                [top(b.place[0]), left]
            })
            .collect();
        let rows = self
            .blocks
            .iter()
            .map(|b| b.place[0] + 1)
            .max()
            .unwrap_or(0);
        (origins, [top(rows).saturating_sub(1), width])
    }
}

/// One cell of a position.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Cell {
    /// Its coordinates `[x, y, z]`, from 0: the column from the left, the row from the bottom,
    /// the level from the bottom.
    pub at: [u8; 3],
    /// Its name in the game's notation: the column's where moves name columns (Connect Four and
    /// PopOut `1`, `2`, ...; the cube `0` to `f`), the cell's where they name cells (Qubic
    /// `a11` to `d44`: column, row, level; Pentago `a1` to `f6`: column, row).
    pub name: CellName,
    /// The player whose stone is on it, `None` if it is empty.
    pub owner: Option<Player>,
    /// The index of its block in [`Layout::blocks`].
    pub block: u8,
    /// Where it is drawn in [`PositionView::rows`]: `[row from the top, column from the left]`.
    pub drawn: [u16; 2],
}

/// A line of `k` cells that one player holds.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct WinningLine {
    /// The player holding it.
    pub owner: Player,
    /// Its cells.
    pub cells: CellSet,
}

/// A quadrant turned by a Pentago move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// The quadrant: its index in [`Layout::blocks`], which is Irving's number.
    pub block: u8,
    /// Clockwise (`r` in the notation) or anticlockwise (`l`), seen with row 6 at the top.
    pub clockwise: bool,
}

/// What a move does to the board, as the game's rules say it. A move that changes nothing
/// (PopOut's draw claim on a full board) has none of these.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Effect {
    /// The cell the mover's stone goes on: where a drop lands, the cell a Qubic or Pentago
    /// move names.
    pub placed: Option<CellId>,
    /// PopOut's pop: the column (`x`) whose bottom stone, the mover's, leaves the board; the
    /// stones above fall one cell.
    pub popped: Option<u8>,
    /// Pentago: the quadrant turned (after the placement, or alone when the stone was placed
    /// before); `None` when the placement makes five, which ends the game before any turn.
    pub turned: Option<Turn>,
}

/// A legal move of a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveView<M> {
    /// The move.
    pub mv: M,
    /// The move in the game's notation ([`Notation::format_move`]).
    pub text: String,
    /// What it does.
    pub effect: Effect,
    /// Every cell whose owner differs after it: the cell a drop fills; a popped column's cells
    /// up to its top stone; a Pentago placement and the cells of the turned quadrant that
    /// change.
    pub changed: CellSet,
}

/// A position as data. See the [module documentation](self).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PositionView<M> {
    /// The board's shape.
    pub layout: Layout,
    /// Every cell, by number ([`CellId`]).
    pub cells: Vec<Cell>,
    /// The player to move (the last mover's opponent when the game is over).
    pub to_move: Player,
    /// Whether the game goes on, and how it ended ([`Rules::status`](super::Rules::status): a
    /// repetition, which depends on the path, is not judged here).
    pub status: Status,
    /// Every line of `k` a player holds: the winning line or lines of a finished game, none
    /// while it goes on. A PopOut pop and a Pentago turn may complete lines for both players
    /// ([`PositionView::status`] says who won, or that it is a tie).
    pub lines: Vec<WinningLine>,
    /// The legal moves, in the order of [`Rules::legal_moves`](super::Rules::legal_moves);
    /// none when the game is over.
    pub moves: Vec<MoveView<M>>,
}

/// A position's board as data: what each game says of itself, in its own file, so that
/// [`PositionView::of`] can build the rest.
pub trait Board: Notation {
    /// The board's shape.
    fn layout(&self) -> Layout;
    /// The player whose stone is on `cell`, `None` if it is empty.
    fn owner(&self, cell: CellId) -> Option<Player>;
    /// The name of `cell` in the game's notation (see [`Cell::name`]).
    fn cell_name(&self, cell: CellId) -> CellName;
    /// Adds to `out` every line of `k` that a player holds.
    fn lines_held(&self, out: &mut Vec<WinningLine>);
    /// What the legal move `m` does.
    fn effect(&self, m: Self::Move) -> Effect;
}

impl<M: Copy> PositionView<M> {
    /// The view of `pos`: its cells, its lines and its legal moves, each played once to find
    /// the cells it changes.
    ///
    /// # Panics
    /// If the game's [`Layout::blocks`] leave a cell out (a bug of its [`Board`]).
    pub fn of<G: Board<Move = M>>(pos: &G) -> PositionView<M> {
        let layout = pos.layout();
        let (origins, _) = layout.origins();
        let count = layout.cell_count() as CellId;
        let cells = (0..count)
            .map(|id| {
                let at = layout.at(id);
                let block = layout.block_of(at).expect("the blocks hold every cell");
                let b = &layout.blocks[block];
                let [top, left] = origins[block];
                let row = (b.from[1] + b.size[1] - 1 - at[1]) as u16;
                Cell {
                    at,
                    name: pos.cell_name(id),
                    owner: pos.owner(id),
                    block: block as u8,
                    drawn: [top + row, left + (at[0] - b.from[0]) as u16],
                }
            })
            .collect::<Vec<_>>();
        let mut lines = Vec::new();
        pos.lines_held(&mut lines);
        let mut legal = super::MoveList::new();
        pos.legal_moves(&mut legal);
        let moves = legal
            .iter()
            .map(|&mv| {
                let after = pos.play(mv);
                let changed = cells
                    .iter()
                    .enumerate()
                    .filter(|&(id, cell)| after.owner(id as CellId) != cell.owner)
                    .map(|(id, _)| id as CellId)
                    .collect();
                MoveView {
                    mv,
                    text: pos.format_move(mv),
                    effect: pos.effect(mv),
                    changed,
                }
            })
            .collect();
        PositionView {
            layout,
            cells,
            to_move: pos.side_to_move(),
            status: pos.status(),
            lines,
            moves,
        }
    }

    /// The cell at `at`, if the board has one there.
    pub fn cell_at(&self, at: [u8; 3]) -> Option<&Cell> {
        (0..3)
            .all(|i| at[i] < self.layout.size[i])
            .then(|| &self.cells[self.layout.cell(at) as usize])
    }

    /// The cells of `set` that are empty in this position: of a move's
    /// [`changed`](MoveView::changed) cells, those it fills.
    pub fn empty_of(&self, set: CellSet) -> CellSet {
        set.iter()
            .filter(|&c| {
                self.cells
                    .get(c as usize)
                    .is_some_and(|c| c.owner.is_none())
            })
            .collect()
    }

    /// The board as rows of text, top first, as the terminal draws it without its labels: `X`
    /// a first player's stone, `O` a second's, `.` an empty cell, each at [`Cell::drawn`]; a
    /// space between blocks side by side (the cube's levels, Pentago's quadrants) and an empty
    /// row between rows of blocks.
    pub fn rows(&self) -> Vec<String> {
        let (_, [height, width]) = self.layout.origins();
        let mut picture = vec![vec![b' '; width as usize]; height as usize];
        for cell in &self.cells {
            picture[cell.drawn[0] as usize][cell.drawn[1] as usize] = match cell.owner {
                Some(Player::First) => b'X',
                Some(Player::Second) => b'O',
                None => b'.',
            };
        }
        picture
            .into_iter()
            .map(|row| String::from_utf8_lossy(&row).trim_end().to_string())
            .collect()
    }
}

/// The name of a column, 1-based, as Connect Four and PopOut write it.
pub(crate) fn column_name(x: u8) -> CellName {
    let mut name = CellName::new();
    let _ = std::fmt::Write::write_fmt(&mut name, format_args!("{}", x as u32 + 1));
    name
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{
        Connect, Gravity, Pentago, PopMove, PopOut, Qubic, Rules, Runtime, Standard, grid::Grid,
        play_moves, read_position,
    };

    fn view<G: Board>(start: G, moves: &str) -> PositionView<G::Move> {
        let (_, pos, _) = read_position(start, moves).unwrap();
        PositionView::of(&pos)
    }

    fn named<M>(view: &PositionView<M>, cells: CellSet) -> Vec<String> {
        cells
            .iter()
            .map(|c| view.cells[c as usize].name.to_string())
            .collect()
    }

    fn find<'a, M>(view: &'a PositionView<M>, text: &str) -> &'a MoveView<M> {
        view.moves.iter().find(|m| m.text == text).unwrap()
    }

    #[test]
    fn cell_sets_hold_any_of_128_cells() {
        let set: CellSet = [0, 5, 127].into_iter().collect();
        assert_eq!(set.iter().collect::<Vec<_>>(), [0, 5, 127]);
        assert!(set.contains(127) && !set.contains(6) && !set.contains(500));
        assert_eq!(set.len(), 3);
        assert!(CellSet::EMPTY.is_empty());
    }

    #[test]
    fn connect_four_drops_fill_one_cell_and_a_won_game_shows_its_four() {
        let start = Connect::<u64, _>::new(Standard);
        let v = view(start, "4455667");
        assert_eq!(v.layout.size, [7, 6, 1]);
        assert_eq!(v.layout.gravity, Some(Axis::Y));
        assert_eq!(v.layout.blocks.len(), 1);
        assert_eq!(v.status, Status::Win(Player::First));
        assert!(v.moves.is_empty());
        let four: Vec<_> = v.lines.iter().map(|l| (l.owner, l.cells)).collect();
        let cells = [3, 4, 5, 6].into_iter().collect();
        assert_eq!(four, [(Player::First, cells)]);
        assert_eq!(named(&v, v.lines[0].cells), ["4", "5", "6", "7"]);
        let a = v.cell_at([3, 1, 0]).unwrap();
        assert_eq!(
            (a.owner, a.name.as_str(), a.drawn),
            (Some(Player::Second), "4", [4, 3])
        );
        assert_eq!(
            v.rows(),
            [
                ".......", ".......", ".......", ".......", "...OOO.", "...XXXX"
            ]
        );

        let v = view(start, "44");
        assert_eq!(v.status, Status::Ongoing);
        assert_eq!(v.to_move, Player::First);
        let drop = find(&v, "4");
        assert_eq!(drop.mv, 3);
        assert_eq!(drop.effect.placed, Some(v.layout.cell([3, 2, 0])));
        assert_eq!(drop.changed, CellSet(1 << (3 + 7 * 2)));
        assert_eq!(v.empty_of(drop.changed), drop.changed);
        assert_eq!(v.moves.len(), 7);
        assert!(v.lines.is_empty());
    }

    #[test]
    fn a_wide_board_names_its_columns_with_two_digits() {
        let start = Connect::<u128, _>::new(Runtime::new(Grid::new(16, 7, 4).unwrap()));
        let v = view(start, "16,16,15");
        assert_eq!(v.cells.len(), 112);
        assert_eq!(v.cells[15].name.as_str(), "16");
        assert_eq!(v.cells[15 + 16].owner, Some(Player::Second));
        assert_eq!(v.rows()[6], "..............".to_string() + "XX");
    }

    #[test]
    fn a_popout_pop_shifts_its_column() {
        let start = PopOut::<u64, _>::new(Standard);
        let v = view(start, "4445");
        // Column 4 holds X, O, X from the bottom; the first player pops its bottom stone.
        let pop = find(&v, "p4");
        assert_eq!(pop.mv, PopMove::Pop(3));
        assert_eq!(
            pop.effect,
            Effect {
                popped: Some(3),
                ..Effect::default()
            }
        );
        // The bottom two change owner, the top one empties.
        let column: CellSet = (0..3).map(|y| v.layout.cell([3, y, 0])).collect();
        assert_eq!(pop.changed, column);
        assert!(v.empty_of(pop.changed).is_empty());
        assert_eq!(find(&v, "5").effect.placed, Some(v.layout.cell([4, 1, 0])));
        assert!(
            v.moves.iter().all(|m| m.text != "p5"),
            "not the mover's stone"
        );

        // A pop that completes the opponent's four only: both see the line, the opponent wins.
        let (_, pos, _) = read_position(start, "11526374p1").unwrap();
        assert_eq!(pos.status(), Status::Win(Player::Second));
        let v = PositionView::of(&pos);
        assert_eq!(v.lines.len(), 1);
        assert_eq!(v.lines[0].owner, Player::Second);
        assert_eq!(named(&v, v.lines[0].cells), ["1", "2", "3", "4"]);
    }

    #[test]
    fn a_popout_draw_claim_changes_nothing() {
        let start = PopOut::<u64, _>::new(Runtime::new(Grid::new(4, 1, 4).unwrap()));
        let v = view(start, "1234");
        let claim = find(&v, "d");
        assert_eq!(claim.effect, Effect::default());
        assert!(claim.changed.is_empty());
    }

    #[test]
    fn the_cube_draws_its_levels_side_by_side() {
        let v = view(Gravity::new(), "00f");
        assert_eq!(v.layout.size, [4, 4, 4]);
        assert_eq!(v.layout.gravity, Some(Axis::Z));
        let names: Vec<_> = v.layout.blocks.iter().map(|b| b.name).collect();
        assert_eq!(names, ["level 1", "level 2", "level 3", "level 4"]);
        assert_eq!(v.cells[16].owner, Some(Player::Second));
        assert_eq!(v.cells[16].name.as_str(), "0");
        assert_eq!(v.cells[16].drawn, [3, 5]);
        assert_eq!(
            v.rows(),
            [
                "...X .... .... ....",
                ".... .... .... ....",
                ".... .... .... ....",
                "X... O... .... ...."
            ]
        );
        let drop = find(&v, "0");
        assert_eq!(drop.effect.placed, Some(32));
        // Four up column 0, the first player's: a vertical line.
        let v = view(Gravity::new(), "0101010");
        assert_eq!(v.status, Status::Win(Player::First));
        assert_eq!(v.lines[0].cells, CellSet(1 | 1 << 16 | 1 << 32 | 1 << 48));
    }

    #[test]
    fn qubic_names_cells_by_column_row_and_level() {
        let v = view(Qubic::new(), "a11b22c33");
        assert_eq!(v.layout.gravity, None);
        assert_eq!(v.cells[63].name.as_str(), "d44");
        let m = find(&v, "d44");
        assert_eq!(m.effect.placed, Some(63));
        assert_eq!(m.changed, CellSet(1 << 63));
        // The space diagonal, won.
        let v = view(Qubic::new(), "a11a12b22a13c33a14");
        assert_eq!(v.status, Status::Ongoing);
        let v = view(Qubic::new(), "a11a12b22a13c33b12d44");
        assert_eq!(v.status, Status::Win(Player::First));
        assert_eq!(named(&v, v.lines[0].cells), ["a11", "b22", "c33", "d44"]);
    }

    #[test]
    fn a_pentago_move_places_a_stone_and_turns_a_quadrant() {
        let v = view(Pentago::new(), "a10r");
        let names: Vec<_> = v.layout.blocks.iter().map(|b| b.name).collect();
        assert_eq!(
            names,
            ["quadrant 0", "quadrant 1", "quadrant 2", "quadrant 3"]
        );
        let places: Vec<_> = v.layout.blocks.iter().map(|b| b.place).collect();
        assert_eq!(places, [[1, 0], [0, 0], [1, 1], [0, 1]]);
        // a1 turned clockwise went to a3.
        let a3 = v.cell_at([0, 2, 0]).unwrap();
        assert_eq!(
            (a3.name.as_str(), a3.owner, a3.block),
            ("a3", Some(Player::First), 0)
        );
        assert_eq!(a3.drawn, [4, 0]);
        let m = find(&v, "d53r");
        assert_eq!(
            m.effect,
            Effect {
                placed: Some(v.layout.cell([3, 4, 0])),
                popped: None,
                turned: Some(Turn {
                    block: 3,
                    clockwise: true
                }),
            }
        );
        // Placed on d5, then carried by the turn to e6.
        assert_eq!(named(&v, m.changed), ["e6"]);
        let m = find(&v, "b51l");
        assert_eq!(named(&v, m.changed), ["b5"]);
        assert_eq!(
            v.rows(),
            [
                "... ...", "... ...", "... ...", "", "X.. ...", "... ...", "... ..."
            ]
        );
    }

    #[test]
    fn a_pentago_five_is_the_winning_line() {
        let line = "a13rd13ra23re13ra33rf13ra43rd23r";
        let (pos, _) = play_moves(Pentago::new(), &format!("{line}a5")).unwrap();
        assert_eq!(pos.status(), Status::Win(Player::First));
        let v = PositionView::of(&pos);
        assert_eq!(v.lines.len(), 1);
        assert_eq!(named(&v, v.lines[0].cells), ["a1", "a2", "a3", "a4", "a5"]);
        // The winning placement named by its cell alone: no turn.
        let (pos, _) = play_moves(Pentago::new(), line).unwrap();
        let v = PositionView::of(&pos);
        let win = find(&v, "a5");
        assert_eq!(win.effect.turned, None);
        assert_eq!(win.changed, CellSet(1 << 24));
    }

    #[test]
    fn a_pentago_rotation_alone_turns_a_quadrant() {
        let (_, pos, _) = read_position(Pentago::new(), &format!("x{}m", ".".repeat(35))).unwrap();
        let v = PositionView::of(&pos);
        let m = find(&v, "1r");
        assert_eq!(
            m.effect,
            Effect {
                placed: None,
                popped: None,
                turned: Some(Turn {
                    block: 1,
                    clockwise: true
                }),
            }
        );
        assert_eq!(named(&v, m.changed), ["a6", "c6"]);
    }
}
