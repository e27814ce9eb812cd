//! The catalog of games: everything the program knows about each game beyond its rules, in one
//! place. Adding a game means its rules (`crates/inarow/src/game/<game>.rs` or its folder), an
//! entry here, and its tests.
//!
//! - [`GameSpec`]: the specs read on the command line (`connect4`, `connect4:WxH`,
//!   `connect4:WxH:kK`, `popout`, `popout:WxH`, `cube`, `qubic`, `pentago`), parsed once;
//! - [`AnyGame`]: the start position, one variant per game with the representations its boards
//!   use; [`with_game!`](crate::with_game) dispatches to monomorphised code;
//! - [`Variant`]: facts about a game that are not rules (the method that solves it fastest,
//!   whether its values are win / draw / loss by default, how its search is tuned, which
//!   exact solver and shipped knowledge it has, how its positions are counted), declared
//!   here for every game rather than on the position types, as shakmaty keeps such facts on
//!   its `Variant`.

use super::bits::Bits;
use super::connect::Connect;
use super::cube::{Gravity, Qubic};
use super::grid::{Grid, Runtime, Standard};
use super::pentago::{Pentago, board_counts};
use super::popout::PopOut;
use super::{Rules, Shape};
use crate::error::Error;
use std::fmt;
use std::str::FromStr;

/// A game and its parameters, as named on the command line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSpec {
    /// Connect Four on any board of at most 128 bits (`(height + 1) * width`), `k` in a row.
    Connect {
        /// Columns.
        width: u32,
        /// Cells in a column.
        height: u32,
        /// The length of a winning line.
        k: u32,
    },
    /// PopOut, four in a row; boards of at most 64 bits (`(height + 1) * width`).
    PopOut {
        /// Columns.
        width: u32,
        /// Cells in a column.
        height: u32,
    },
    /// Connect Four 3D: the 4x4x4 cube with gravity.
    Cube,
    /// Qubic: the 4x4x4 cube without gravity.
    Qubic,
    /// Pentago: 6x6, place then turn a quadrant, five in a row.
    Pentago,
}

/// The specs the parser reads, for messages.
const FORMS: &str =
    "connect4, connect4:WxH, connect4:WxH:kK, popout, popout:WxH, cube, qubic or pentago";

impl Default for GameSpec {
    fn default() -> Self {
        GameSpec::Connect {
            width: 7,
            height: 6,
            k: 4,
        }
    }
}

impl fmt::Display for GameSpec {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSpec::Connect { width, height, k } => write!(f, "connect4:{width}x{height}:k{k}"),
            GameSpec::PopOut { width, height } => write!(f, "popout:{width}x{height}"),
            GameSpec::Cube => f.write_str("cube"),
            GameSpec::Qubic => f.write_str("qubic"),
            GameSpec::Pentago => f.write_str("pentago"),
        }
    }
}

impl FromStr for GameSpec {
    type Err = Error;

    /// # Errors
    /// [`Error::Spec`] for a spec that names no game, or a board out of range.
    fn from_str(s: &str) -> Result<Self, Error> {
        parse_spec(s)
    }
}

/// [`GameSpec::from_str`]: the spec, or an [`Error::Spec`] that says what is wrong.
fn parse_spec(s: &str) -> Result<GameSpec, Error> {
    let bad = |why: &str| Error::Spec(super::one_line(&format!("bad game spec '{s}': {why}")));
    let mut parts = s.trim().split(':');
    let name = parts.next().unwrap_or_default();
    let size = |part: Option<&str>| -> Result<(u32, u32), Error> {
        match part {
            None => Ok((7, 6)),
            Some(size) => {
                let (w, h) = size
                    .split_once('x')
                    .ok_or_else(|| bad("the size must look like 7x6"))?;
                let w = w.parse().map_err(|_| bad("width is not a number"))?;
                let h = h.parse().map_err(|_| bad("height is not a number"))?;
                Ok((w, h))
            }
        }
    };
    match name {
        "connect4" => {
            let (width, height) = size(parts.next())?;
            let k = match parts.next() {
                None => 4,
                Some(k) => k
                    .strip_prefix('k')
                    .and_then(|k| k.parse().ok())
                    .ok_or_else(|| bad("k must look like k4"))?,
            };
            if parts.next().is_some() {
                return Err(bad("too many fields; expected connect4:WxH:kK"));
            }
            Grid::new(width, height, k).map_err(|e| bad(&e.to_string()))?;
            Ok(GameSpec::Connect { width, height, k })
        }
        "popout" => {
            let (width, height) = size(parts.next())?;
            if parts.next().is_some() {
                return Err(bad("too many fields; expected popout or popout:WxH"));
            }
            let grid = Grid::new(width, height, 4).map_err(|e| bad(&e.to_string()))?;
            if !grid.fits_u64() {
                return Err(bad(&format!(
                    "board {width}x{height} is too large for popout: (height + 1) * width = \
                         {} bits, at most 64",
                    grid.board_bit_count()
                )));
            }
            Ok(GameSpec::PopOut { width, height })
        }
        "cube" | "qubic" => {
            if parts.next().is_some() {
                return Err(bad(&format!(
                    "{name} has no parameters: the board is 4x4x4"
                )));
            }
            Ok(if name == "cube" {
                GameSpec::Cube
            } else {
                GameSpec::Qubic
            })
        }
        "pentago" => {
            if parts.next().is_some() {
                return Err(bad("pentago has no parameters: the board is 6x6"));
            }
            Ok(GameSpec::Pentago)
        }
        _ => Err(bad(&format!("unknown game; expected {FORMS}"))),
    }
}

/// The start position of a game, one variant per game.
#[derive(Copy, Clone, Debug)]
pub enum AnyGame {
    /// Connect Four, on the representation its board needs.
    Connect4(ConnectBoard),
    /// PopOut, on the representation its board needs.
    PopOut(PopOutBoard),
    /// Connect Four 3D: the 4x4x4 cube with gravity.
    Cube(Gravity),
    /// Qubic: the 4x4x4 cube without gravity.
    Qubic(Qubic),
    /// Pentago: 6x6, place then turn a quadrant.
    Pentago(Pentago),
}

/// Connect Four on the fastest representation that holds the board.
#[derive(Copy, Clone, Debug)]
pub enum ConnectBoard {
    /// 7x6, k = 4: every mask a compile-time constant.
    Standard(Connect<u64, Standard>),
    /// Any board that fits 64 bits.
    Narrow(Connect<u64, Runtime>),
    /// Boards up to 128 bits.
    Wide(Connect<u128, Runtime>),
}

/// PopOut on the fastest representation that holds the board.
#[derive(Copy, Clone, Debug)]
pub enum PopOutBoard {
    /// 7x6: every mask a compile-time constant.
    Standard(PopOut<u64, Standard>),
    /// Any board that fits 64 bits.
    Narrow(PopOut<u64, Runtime>),
}

impl GameSpec {
    /// The start position.
    ///
    /// # Panics
    /// For a spec made by hand rather than parsed, whose board [`Grid::new`] refuses.
    pub fn start(&self) -> AnyGame {
        match *self {
            GameSpec::Connect {
                width: 7,
                height: 6,
                k: 4,
            } => AnyGame::Connect4(ConnectBoard::Standard(Connect::new(Standard))),
            GameSpec::Connect { width, height, k } => {
                let grid = Grid::new(width, height, k).expect("spec was validated");
                AnyGame::Connect4(if grid.fits_u64() {
                    ConnectBoard::Narrow(Connect::new(Runtime::new(grid)))
                } else {
                    ConnectBoard::Wide(Connect::new(Runtime::new(grid)))
                })
            }
            GameSpec::PopOut {
                width: 7,
                height: 6,
            } => AnyGame::PopOut(PopOutBoard::Standard(PopOut::new(Standard))),
            GameSpec::PopOut { width, height } => {
                let grid = Grid::new(width, height, 4).expect("spec was validated");
                AnyGame::PopOut(PopOutBoard::Narrow(PopOut::new(Runtime::new(grid))))
            }
            GameSpec::Cube => AnyGame::Cube(Gravity::new()),
            GameSpec::Qubic => AnyGame::Qubic(Qubic::new()),
            GameSpec::Pentago => AnyGame::Pentago(Pentago::new()),
        }
    }
}

/// Runs `$body` with `$g` bound to the start position inside an [`AnyGame`], as its concrete
/// type: the body is compiled once per game and representation.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::game::AnyGame::Connect4(board) => match board {
                $crate::game::ConnectBoard::Standard($g) => $body,
                $crate::game::ConnectBoard::Narrow($g) => $body,
                $crate::game::ConnectBoard::Wide($g) => $body,
            },
            $crate::game::AnyGame::PopOut(board) => match board {
                $crate::game::PopOutBoard::Standard($g) => $body,
                $crate::game::PopOutBoard::Narrow($g) => $body,
            },
            $crate::game::AnyGame::Cube($g) => $body,
            $crate::game::AnyGame::Qubic($g) => $body,
            $crate::game::AnyGame::Pentago($g) => $body,
        }
    };
}

/// The exact method that settles a game fastest: what the engine uses when none is named.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Method {
    /// Alpha-beta: exact scores (in a game that repeats, its two-valued form).
    AlphaBeta,
    /// Depth-first proof-number search: win / draw / loss.
    DfPn,
}

/// An opening book that ships with inarow, computed ahead of time: the catalog says which
/// positions it is for, the engine holds its bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShippedBook {
    /// Connect Four 7x6, k = 4: the exact score of every position up to 12 plies (the
    /// WebAssembly build's: every position to 8 plies and a perfect player's to 10).
    Connect4Standard,
}

/// A winning strategy that ships with inarow, computed ahead of time from the game's proof:
/// the catalog says which positions it is for, the engine holds its bytes.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum ShippedStrategy {
    /// Qubic: the first player's win.
    Qubic,
}

/// A game's positions counted by formula, for a game with too many to enumerate: a table by
/// number of stones.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CountByFormula {
    /// What the columns count, in order.
    pub columns: &'static str,
    /// For each number of stones from 0, the counts; the first column is the one totalled.
    pub rows: Vec<Vec<u128>>,
}

/// Facts about a game that are not rules: engine policy, search tuning, and what is known of
/// it ahead of time. Every fact has a default; the games' entries are below, and none of them
/// changes an answer, only how fast it comes and in what form.
pub trait Variant: super::Rules {
    /// The engine's default method for the game's values ([`Method`]).
    const METHOD: Method = Method::AlphaBeta;

    /// Whether the engine answers win / draw / loss by default, rather than exact scores (the
    /// values the game's literature gives; an algorithm asked for by name gives exact scores).
    const WEAK_BY_DEFAULT: bool = false;

    /// How far into the game (as a fraction of the length bound, numerator and denominator)
    /// alpha-beta looks up every child before searching any: enhanced transposition cutoffs and
    /// overlapped table fetches. Later, subtrees are cheaper than the lookups where nodes are
    /// cheap (Connect Four: the default, two thirds); where each node costs more (the 4x4x4
    /// games' threats), everywhere.
    const CHILD_LOOKUPS_UNTIL: (u32, u32) = (2, 3);

    /// Whether the engine's exact answer for a position values all its moves at once (the
    /// game's own solver solves a position with its children): a front asks for the whole
    /// analysis in one call rather than move by move.
    const VALUES_ALL_MOVES_AT_ONCE: bool = false;

    /// Whether the engine's default exact scores carry the distance to the end (the exact score
    /// of a bounded game solved by alpha-beta says on which ply it ends), so that asking for it
    /// costs no second search.
    const SCORES_CARRY_DISTANCE: bool = !Self::WEAK_BY_DEFAULT
        && matches!(Self::METHOD, Method::AlphaBeta)
        && !<Self::Kind as super::Kind<Self>>::REPEATS;

    /// A rough guess of the seconds one core takes to solve this position with the default
    /// method and no limit, from the positions measured (docs/results.md), so that a search
    /// that may not end soon can say so before it starts; `None` where no guess can be made.
    /// An order of magnitude, not a promise: difficulty varies a hundredfold between positions
    /// with the same number of empty cells.
    fn rough_solve_seconds(&self) -> Option<f64> {
        None
    }

    /// This position as the board of the game's own exact solver, where the game has one
    /// (Pentago's midgame solver, which answers win / draw / loss): the engine asks that
    /// solver before it searches. `None`: the game has none, and the engine searches.
    fn own_solver_board(&self) -> Option<Pentago> {
        None
    }

    /// The opening book that ships for this position's game, if one does (for a game whose
    /// parameters vary, only some boards have one).
    fn shipped_book(&self) -> Option<ShippedBook> {
        None
    }

    /// The winning strategy that ships for this position's game, if one does.
    fn shipped_strategy(&self) -> Option<ShippedStrategy> {
        None
    }

    /// The game's positions counted by formula, by number of stones, where it has such a
    /// count; `None`: they are counted by enumerating every position reached from the start.
    fn count_by_formula(&self) -> Option<CountByFormula> {
        None
    }
}

/// Connect Four: alpha-beta, exact scores, child lookups for the first two thirds.
impl<B: Bits, S: Shape> Variant for Connect<B, S> {
    /// k = 4: the empty boards of the size table grow about tenfold every five cells (7x6's 42
    /// cells in about 20 s on one core, 6x6's 36 in 2.3 s, 7x7's 49 in 269 s), and positions
    /// with that many empty cells take about as long (7x6 from ply 6: 0.1-3 s). Boards wider
    /// than seven columns take longer for their cells, about threefold a column (8x4 1 s, 9x4
    /// 10 s, 10x4 290 s, 11x4 1.5-2.5 h, 8x5 62 s, 8x6 25 min: docs/results.md).
    fn rough_solve_seconds(&self) -> Option<f64> {
        let grid = self.grid();
        let empty = (grid.width * grid.height).saturating_sub(self.ply());
        let wider = f64::from(grid.width.saturating_sub(7));
        (grid.k == 4).then(|| 20.0 * 10f64.powf(0.2 * (f64::from(empty) - 42.0) + 0.45 * wider))
    }

    /// On every representation of the 7x6 board, k = 4: they share their keys.
    fn shipped_book(&self) -> Option<ShippedBook> {
        let grid = self.grid();
        ((grid.width, grid.height, grid.k) == (7, 6, 4)).then_some(ShippedBook::Connect4Standard)
    }
}

/// PopOut: the engine's searches of games that repeat (df-pn by default) pick themselves.
impl<B: Bits, S: Shape> Variant for PopOut<B, S> {}

/// Connect Four 3D and Qubic: every child looked up, as each node costs more (threats).
/// Without gravity, alpha-beta settles few positions with fewer than 50 empty cells in seconds,
/// and df-pn with the threat lines most (see the README's Results).
impl<const GRAVITY: bool> Variant for super::cube::Cube<GRAVITY> {
    const METHOD: Method = if GRAVITY {
        Method::AlphaBeta
    } else {
        Method::DfPn
    };
    const CHILD_LOOKUPS_UNTIL: (u32, u32) = (1, 1);

    /// Connect Four 3D: the seed's difficulty curve, about 0.5 s a position at 28 stones and
    /// twice as long for each stone fewer. Qubic: the empty board proved in 27 minutes, and
    /// (a guess) half as long for each stone more.
    fn rough_solve_seconds(&self) -> Option<f64> {
        let empty = 64u32.saturating_sub(self.ply());
        Some(if GRAVITY {
            0.5 * 2f64.powf(f64::from(empty) - 36.0)
        } else {
            1600.0 * 2f64.powf(f64::from(empty) - 64.0)
        })
    }

    /// Qubic's, from the proof that the first player wins.
    fn shipped_strategy(&self) -> Option<ShippedStrategy> {
        (!GRAVITY).then_some(ShippedStrategy::Qubic)
    }
}

/// Pentago: win / draw / loss by default, the values Irving's solution gives (and what its
/// midgame solver, which the engine asks first, answers).
impl Variant for Pentago {
    const WEAK_BY_DEFAULT: bool = true;
    const VALUES_ALL_MOVES_AT_ONCE: bool = true;

    /// The midgame solver: about 2 s at 18 stones, 23 s at 16, 4 minutes at 15 (one core),
    /// about four times as long for each stone fewer.
    fn rough_solve_seconds(&self) -> Option<f64> {
        Some(2.0 * 4f64.powf(18.0 - f64::from(self.ply())))
    }

    /// Every position: the midgame solver takes the board as it is.
    fn own_solver_board(&self) -> Option<Pentago> {
        Some(*self)
    }

    /// Irving's board counts ([`board_counts`]): too many positions to enumerate.
    fn count_by_formula(&self) -> Option<CountByFormula> {
        Some(CountByFormula {
            columns: "boards by number of stones: all, up to the 8 symmetries, up to the 2048 \
                      with quadrant turns",
            rows: (0..=36)
                .map(|stones| board_counts(stones).to_vec())
                .collect(),
        })
    }
}
