//! What the binding returns: a [`Solution`], a move's value ([`PyMoveValue`]) and the board as
//! data ([`Board`] with its cells, blocks, lines and moves), all read-only Python objects.

use inarow::game::Player;
use inarow::game::view::{Axis, PositionView};
use inarow::session::{self, EngineMove, PositionAnalysis, Valuation};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyIterator, PyList, PyTuple};

/// The value of a position for the side to move.
#[pyclass(frozen, module = "inarow")]
#[derive(Clone, Debug)]
pub struct Solution {
    /// The score for the side to move (positive: it wins, larger: sooner; 0: a draw; negative:
    /// it loses), or 1 / 0 / -1 where only win / draw / loss is known; `None` when a limit
    /// stopped the search.
    #[pyo3(get)]
    pub score: Option<i32>,
    /// For an exact score of a win or a loss: plies to the end under perfect play.
    #[pyo3(get)]
    pub plies: Option<u32>,
    /// Every move that keeps the value (`None` when not asked for).
    #[pyo3(get)]
    pub best_moves: Option<Vec<String>>,
    /// A line of perfect play (`None` when not asked for).
    #[pyo3(get)]
    pub pv: Option<Vec<String>>,
    /// Whether `score` is the exact score rather than only win / draw / loss.
    #[pyo3(get)]
    pub exact: bool,
    /// Why the search stopped early (`"time limit reached"`, `"interrupted"`, ...), if it did.
    #[pyo3(get)]
    pub stopped: Option<String>,
    /// Nodes searched.
    #[pyo3(get)]
    pub nodes: u64,
    /// Seconds the solver spent.
    #[pyo3(get, name = "time")]
    pub seconds: f64,
    /// Where a limit stopped the search before the score: the bounds `(lo, hi)` on the exact
    /// score it had proven, or `None`.
    #[pyo3(get)]
    pub proven: Option<(i32, i32)>,
}

#[pymethods]
impl Solution {
    /// `"win"`, `"draw"` or `"loss"` for the side to move; `None` when the score is unknown.
    #[getter]
    fn outcome(&self) -> Option<&'static str> {
        self.score.map(|s| match s.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        })
    }

    /// Pickles (for multiprocessing) as its fields.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let restore = py.import("inarow._inarow")?.getattr("_solution")?;
        let args = (
            self.score,
            self.plies,
            self.best_moves.clone(),
            self.pv.clone(),
            self.exact,
            self.stopped.clone(),
            self.nodes,
            self.seconds,
            self.proven,
        );
        Ok((restore, args.into_bound_py_any(py)?))
    }

    fn __repr__(&self) -> String {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "None".into());
        let list = |v: &Option<Vec<String>>| {
            opt(v.as_ref().map(|moves| {
                let quoted: Vec<String> = moves.iter().map(|m| format!("'{m}'")).collect();
                format!("[{}]", quoted.join(", "))
            }))
        };
        format!(
            "Solution(score={}, outcome={}, plies={}, best_moves={}, pv={}, exact={}, stopped={}, \
             proven={}, nodes={}, time={:.6})",
            opt(self.score.map(|s| s.to_string())),
            opt(self.outcome().map(|o| format!("'{o}'"))),
            opt(self.plies.map(|p| p.to_string())),
            list(&self.best_moves),
            list(&self.pv),
            if self.exact { "True" } else { "False" },
            opt(self.stopped.as_ref().map(|s| format!("'{s}'"))),
            opt(self.proven.map(|(lo, hi)| format!("({lo}, {hi})"))),
            self.nodes,
            self.seconds
        )
    }
}

/// A solution from what `Solution.__reduce__` saves.
#[pyfunction]
#[pyo3(signature = (score, plies, best_moves, pv, exact, stopped, nodes, seconds, proven=None))]
#[allow(clippy::too_many_arguments)]
pub fn _solution(
    score: Option<i32>,
    plies: Option<u32>,
    best_moves: Option<Vec<String>>,
    pv: Option<Vec<String>>,
    exact: bool,
    stopped: Option<String>,
    nodes: u64,
    seconds: f64,
    proven: Option<(i32, i32)>,
) -> Solution {
    Solution {
        score,
        plies,
        best_moves,
        pv,
        exact,
        stopped,
        nodes,
        seconds,
        proven,
    }
}

/// One move and its value: unpacks as `(move, value, exact)`.
#[pyclass(frozen, name = "MoveValue", module = "inarow", sequence)]
#[derive(Clone, Debug)]
pub struct PyMoveValue {
    mv: String,
    value: Valuation,
    /// The ply the game ends on with best play, where the analysis knows it (for the board's
    /// picture: [`inarow::draw`]).
    end_ply: Option<u32>,
}

impl From<session::Solution> for Solution {
    fn from(s: session::Solution) -> Solution {
        Solution {
            score: s.score,
            plies: s.plies,
            best_moves: s.best_moves,
            pv: s.pv,
            exact: s.exact,
            stopped: s.stopped,
            nodes: s.nodes,
            seconds: s.seconds,
            proven: s.proven,
        }
    }
}

impl From<EngineMove> for PyMoveValue {
    fn from(m: EngineMove) -> PyMoveValue {
        PyMoveValue {
            mv: m.mv,
            value: m.value,
            end_ply: None,
        }
    }
}

impl PyMoveValue {
    /// Every move of an analysis, best first.
    pub fn list(analysis: PositionAnalysis) -> Vec<PyMoveValue> {
        analysis
            .moves
            .into_iter()
            .map(|m| PyMoveValue {
                mv: m.mv,
                value: m.value,
                end_ply: m.end_ply,
            })
            .collect()
    }

    /// The move, in the game's notation.
    pub fn move_text(&self) -> &str {
        &self.mv
    }

    /// The move and its value, to draw on the board.
    pub fn to_draw(&self) -> inarow::draw::DrawnValue {
        inarow::draw::DrawnValue {
            mv: self.mv.clone(),
            value: self.value,
            end_ply: self.end_ply,
        }
    }
}

#[pymethods]
impl PyMoveValue {
    /// The move, in the game's notation.
    #[getter]
    #[pyo3(name = "move")]
    fn mv(&self) -> &str {
        &self.mv
    }

    /// An exact score (int; win / draw / loss as 1 / 0 / -1 in the games whose exact values
    /// carry no distance), a win / loss proven without its distance in a game of exact scores
    /// as 1 / -1 (int, `kind` "outcome"), an estimate (int for the evaluation, float 0-1 for a
    /// win rate), or `None`.
    #[getter]
    fn value<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        match self.value {
            Valuation::Exact(v) | Valuation::Proven(v) | Valuation::Heuristic(v) => {
                v.into_bound_py_any(py)
            }
            Valuation::WinRate(r) => r.into_bound_py_any(py),
            Valuation::Unknown => Ok(py.None().into_bound(py)),
        }
    }

    /// Whether the value is the game-theoretic one (not an estimate).
    #[getter]
    fn exact(&self) -> bool {
        self.value.is_exact()
    }

    /// `"score"`, `"outcome"`, `"heuristic"`, `"win rate"` or `"unknown"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.value {
            Valuation::Exact(_) => "score",
            Valuation::Proven(_) => "outcome",
            Valuation::Heuristic(_) => "heuristic",
            Valuation::WinRate(_) => "win rate",
            Valuation::Unknown => "unknown",
        }
    }

    /// The value as `inarow analyze` prints it: `-2`, `win`, `~13`, `~64%` or `?`.
    #[getter]
    fn text(&self) -> String {
        self.value.to_string()
    }

    fn __len__(&self) -> usize {
        3
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyIterator>> {
        let exact = self.exact().into_bound_py_any(py)?;
        let items = [
            self.mv.as_str().into_bound_py_any(py)?,
            self.value(py)?,
            exact,
        ];
        PyTuple::new(py, items)?.try_iter()
    }

    fn __getitem__<'py>(&self, py: Python<'py>, index: isize) -> PyResult<Bound<'py, PyAny>> {
        match if index < 0 { index + 3 } else { index } {
            0 => self.mv.as_str().into_bound_py_any(py),
            1 => self.value(py),
            2 => self.exact().into_bound_py_any(py),
            _ => Err(pyo3::exceptions::PyIndexError::new_err(
                "MoveValue index out of range",
            )),
        }
    }

    fn __eq__(&self, py: Python<'_>, other: &Bound<'_, PyAny>) -> PyResult<bool> {
        if let Ok(other) = other.cast::<PyMoveValue>() {
            let o = other.get();
            return Ok(o.mv == self.mv && o.value == self.value);
        }
        let exact = self.exact().into_bound_py_any(py)?;
        let mine = PyTuple::new(py, [self.__getitem__(py, 0)?, self.value(py)?, exact])?;
        mine.as_any().eq(other)
    }

    fn __repr__(&self, py: Python<'_>) -> PyResult<String> {
        Ok(format!(
            "MoveValue(move='{}', value={}, exact={}, kind='{}')",
            self.mv,
            self.value(py)?.repr()?,
            if self.exact() { "True" } else { "False" },
            self.kind()
        ))
    }
}

/// The board as plain data, made without the GIL; [`Board::new`] turns it into Python objects.
pub struct BoardView {
    size: [u8; 3],
    k: u8,
    gravity: Option<&'static str>,
    blocks: Vec<Block>,
    cells: Vec<Cell>,
    lines: Vec<PyLine>,
    moves: Vec<Move>,
    rows: Vec<String>,
    to_move: &'static str,
}

impl BoardView {
    pub fn new<M: Copy>(view: &PositionView<M>) -> BoardView {
        let layout = &view.layout;
        BoardView {
            size: layout.size,
            k: layout.k,
            gravity: layout.gravity.map(|axis| match axis {
                Axis::X => "x",
                Axis::Y => "y",
                Axis::Z => "z",
            }),
            blocks: layout
                .blocks
                .iter()
                .map(|b| Block {
                    name: b.name,
                    origin: (b.from[0], b.from[1], b.from[2]),
                    size: (b.size[0], b.size[1], b.size[2]),
                    place: (b.place[0], b.place[1]),
                })
                .collect(),
            cells: view
                .cells
                .iter()
                .enumerate()
                .map(|(i, c)| Cell {
                    index: i as u16,
                    at: (c.at[0], c.at[1], c.at[2]),
                    name: c.name.to_string(),
                    owner: c.owner.map(Player::name),
                    block: c.block,
                    drawn: (c.drawn[0], c.drawn[1]),
                })
                .collect(),
            lines: view
                .lines
                .iter()
                .map(|l| PyLine {
                    owner: l.owner.name(),
                    cells: l.cells.iter().collect(),
                })
                .collect(),
            moves: view
                .moves
                .iter()
                .map(|m| Move {
                    mv: m.text.clone(),
                    placed: m.effect.placed,
                    popped: m.effect.popped,
                    turned: m.effect.turned.map(|t| (t.block, t.clockwise)),
                    changed: m.changed.iter().collect(),
                })
                .collect(),
            rows: view.rows(),
            to_move: view.to_move.name(),
        }
    }
}

/// One cell of the board.
#[pyclass(frozen, get_all, module = "inarow")]
#[derive(Clone, Debug)]
pub struct Cell {
    /// Its number, `x + width * (y + height * z)`: its index in `Board.cells`.
    pub index: u16,
    /// Its coordinates `(x, y, z)` from 0: the column from the left, the row from the bottom,
    /// the level from the bottom (0 on a flat board).
    pub at: (u8, u8, u8),
    /// Its name in the game's notation: the column's where moves name columns (Connect Four,
    /// PopOut `1`...; the cube `0`-`f`), the cell's where they name cells (Qubic `a11`,
    /// Pentago `a1`).
    pub name: String,
    /// `"first"`, `"second"` or `None` (empty).
    pub owner: Option<&'static str>,
    /// The index of its block in `Board.blocks`.
    pub block: u8,
    /// Where it is drawn in `Board.rows`: `(row from the top, column from the left)`.
    pub drawn: (u16, u16),
}

#[pymethods]
impl Cell {
    fn __repr__(&self) -> String {
        format!(
            "Cell(index={}, at={:?}, name='{}', owner={})",
            self.index,
            self.at,
            self.name,
            self.owner.map_or("None".into(), |o| format!("'{o}'"))
        )
    }
}

/// A part of the board drawn as one rectangle: the whole board of Connect Four, a level of the
/// cube, a quadrant of Pentago.
#[pyclass(frozen, get_all, module = "inarow")]
#[derive(Clone, Debug)]
pub struct Block {
    /// `"board"`, `"level 1"`..`"level 4"`, `"quadrant 0"`..`"quadrant 3"` (Irving's numbering).
    pub name: &'static str,
    /// The coordinates of its lowest cell.
    pub origin: (u8, u8, u8),
    /// Its cells along each axis.
    pub size: (u8, u8, u8),
    /// Where it is drawn: `(row of blocks, place in that row)`, from the top left.
    pub place: (u8, u8),
}

#[pymethods]
impl Block {
    fn __repr__(&self) -> String {
        format!(
            "Block(name='{}', origin={:?}, size={:?}, place={:?})",
            self.name, self.origin, self.size, self.place
        )
    }
}

/// A line of `k` cells that one player holds (the winning line of a finished game).
#[pyclass(frozen, get_all, name = "Line", module = "inarow")]
#[derive(Clone, Debug)]
pub struct PyLine {
    /// `"first"` or `"second"`.
    pub owner: &'static str,
    /// Its cells' numbers.
    pub cells: Vec<u16>,
}

#[pymethods]
impl PyLine {
    fn __repr__(&self) -> String {
        format!("Line(owner='{}', cells={:?})", self.owner, self.cells)
    }
}

/// A legal move and what it does to the board.
#[pyclass(frozen, get_all, module = "inarow")]
#[derive(Clone, Debug)]
pub struct Move {
    /// The move in the game's notation.
    #[pyo3(name = "move")]
    pub mv: String,
    /// The cell the mover's stone goes on, if one does.
    pub placed: Option<u16>,
    /// PopOut: the column (x, from 0) whose bottom stone leaves the board.
    pub popped: Option<u8>,
    /// Pentago: `(quadrant, clockwise)` turned.
    pub turned: Option<(u8, bool)>,
    /// Every cell whose owner changes.
    pub changed: Vec<u16>,
}

#[pymethods]
impl Move {
    fn __repr__(&self) -> String {
        let opt = |v: Option<String>| v.unwrap_or_else(|| "None".into());
        format!(
            "Move(move='{}', placed={}, popped={}, turned={}, changed={:?})",
            self.mv,
            opt(self.placed.map(|c| c.to_string())),
            opt(self.popped.map(|c| c.to_string())),
            opt(self
                .turned
                .map(|(b, c)| format!("({b}, {})", if c { "True" } else { "False" }))),
            self.changed
        )
    }
}

/// A position's board as data: its shape, every cell, the lines held and every legal move.
#[pyclass(frozen, module = "inarow")]
pub struct Board {
    /// Cells along x, y and z (1 along z on a flat board).
    #[pyo3(get)]
    size: (u8, u8, u8),
    /// The stones in a line that win.
    #[pyo3(get)]
    k: u8,
    /// The axis stones fall along (`"y"` in Connect Four, `"z"` in the cube), `None` without
    /// gravity.
    #[pyo3(get)]
    gravity: Option<&'static str>,
    /// The player to move.
    #[pyo3(get)]
    to_move: &'static str,
    /// The blocks the board is drawn as.
    #[pyo3(get)]
    blocks: Py<PyTuple>,
    /// Every cell, by number (`x + width * (y + height * z)`).
    #[pyo3(get)]
    cells: Py<PyTuple>,
    /// The lines of `k` held.
    #[pyo3(get)]
    lines: Py<PyTuple>,
    /// Every legal move with what it does (none once the game is over).
    #[pyo3(get)]
    moves: Py<PyTuple>,
    /// The board drawn as text, top row first: `X` first player, `O` second, `.` empty.
    #[pyo3(get)]
    rows: Py<PyList>,
}

impl Board {
    pub fn new(py: Python<'_>, view: BoardView) -> PyResult<Board> {
        Ok(Board {
            size: (view.size[0], view.size[1], view.size[2]),
            k: view.k,
            gravity: view.gravity,
            to_move: view.to_move,
            blocks: PyTuple::new(py, view.blocks)?.unbind(),
            cells: PyTuple::new(py, view.cells)?.unbind(),
            lines: PyTuple::new(py, view.lines)?.unbind(),
            moves: PyTuple::new(py, view.moves)?.unbind(),
            rows: PyList::new(py, view.rows)?.unbind(),
        })
    }
}

#[pymethods]
impl Board {
    /// The cell at `(x, y, z)`.
    #[pyo3(signature = (x, y, z = 0))]
    fn cell<'py>(&self, py: Python<'py>, x: u8, y: u8, z: u8) -> PyResult<Bound<'py, PyAny>> {
        let (w, h, d) = self.size;
        if x >= w || y >= h || z >= d {
            return Err(pyo3::exceptions::PyIndexError::new_err(format!(
                "no cell at ({x}, {y}, {z}) on a {w}x{h}x{d} board"
            )));
        }
        let index = x as usize + w as usize * (y as usize + h as usize * z as usize);
        self.cells.bind(py).get_item(index)
    }

    /// The owners as numbers, 0 empty, 1 first player, 2 second: on a flat board a list of rows
    /// from the bottom (`grid()[y][x]`), on the cube a list of levels (`grid()[z][y][x]`).
    fn grid<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        let (w, h, d) = (
            self.size.0 as usize,
            self.size.1 as usize,
            self.size.2 as usize,
        );
        let cells = self.cells.bind(py);
        let mut levels = Vec::with_capacity(d);
        for z in 0..d {
            let mut rows = Vec::with_capacity(h);
            for y in 0..h {
                let mut row = Vec::with_capacity(w);
                for x in 0..w {
                    let cell = cells.get_item(x + w * (y + h * z))?;
                    let cell = cell.cast::<Cell>()?.get();
                    row.push(match cell.owner {
                        Some("first") => 1i32,
                        Some(_) => 2,
                        None => 0,
                    });
                }
                rows.push(row);
            }
            levels.push(rows);
        }
        if d == 1 {
            PyList::new(py, levels.pop().unwrap_or_default())
        } else {
            PyList::new(py, levels)
        }
    }

    fn __str__(&self, py: Python<'_>) -> PyResult<String> {
        let rows: Vec<String> = self.rows.bind(py).extract()?;
        Ok(rows.join("\n"))
    }

    fn __repr__(&self) -> String {
        format!(
            "Board(size={:?}, k={}, gravity={})",
            self.size,
            self.k,
            self.gravity.map_or("None".into(), |g| format!("'{g}'"))
        )
    }
}
