//! `inarow` for Python: positions of every game, their values and analyses, and a solver that
//! keeps its table across calls. A front-end like the command line: it parses, calls the
//! library's session ([`inarow::session`], through which every game goes, naming none) and
//! presents; positions as JSON come from the library's wire format ([`inarow::wire`]).
//!
//! Long calls release the GIL and honour Ctrl-C ([`interrupt`]); bad input raises
//! `inarow.Error` subclasses ([`errors`]) with the command line's message.

mod dataset;
mod errors;
mod interrupt;
mod values;

use errors::{IntoPy, input};
use inarow::draw;
use inarow::game::{Player, Status};
use inarow::limits::{Cancel, Limits};
use inarow::session::Level;
use inarow::session::{self, Ask, BookSource, Game, Session, Settings, Source};
use pyo3::IntoPyObjectExt;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use std::hash::{Hash, Hasher};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use values::{Board, BoardView, PyMoveValue, Solution};

/// The default table of a solver, in MiB (the command line's `--tt-mb`).
const TABLE_MB: usize = 64;

/// Idle solvers kept for the positions' own methods and `solve_many`: a later call with the same
/// game and settings reuses their tables (making a 64 MiB table takes about 10 ms).
const IDLE_SOLVERS: usize = 4;

/// A position of a game, as played: immutable; `play` returns a new one.
#[pyclass(frozen, module = "inarow")]
struct Position {
    rules: Arc<dyn Game>,
    line: Arc<dyn session::Line>,
}

/// A number of seconds, checked as the command line checks `--time`.
fn seconds(name: &str, value: Option<f64>) -> PyResult<Option<Duration>> {
    value
        .map(|t| session::seconds(name, t, None))
        .transpose()
        .py_err()
}

/// Limits of a time and a node count, checked; the interrupt token is the call's
/// ([`detached`]).
fn limits(time: Option<f64>, nodes: Option<u64>) -> PyResult<Limits> {
    Ok(Limits {
        time: seconds("time", time)?,
        nodes,
        interrupt: None,
    })
}

/// Runs `work` with the GIL released and Ctrl-C watched: it gets the interrupt token for its
/// limits. After a Ctrl-C, Python handles the signal (`KeyboardInterrupt`, by default).
fn detached<R: Send>(py: Python<'_>, work: impl FnOnce(Option<Cancel>) -> R + Send) -> PyResult<R> {
    let watch = interrupt::watch();
    let token = watch.token();
    let result = py.detach(|| work(token));
    let interrupted = watch.interrupted();
    drop(watch);
    if interrupted {
        py.check_signals()?;
    }
    Ok(result)
}

/// Solvers between calls, by game and settings, most recently used first.
static IDLE: Session = Session::new(IDLE_SOLVERS, 1);

/// Runs `f` with a solver of the game (weak or not) with the default settings, kept for later
/// calls.
fn with_shared_solver<R>(
    rules: &dyn Game,
    weak: bool,
    f: impl FnOnce(&mut dyn session::Agent) -> R,
) -> Result<R, inarow::Error> {
    let settings = Settings {
        weak,
        table_mb: TABLE_MB,
        threads: 1,
        ..Settings::default()
    };
    IDLE.with_agent(rules, &settings, f)
}

/// Frees the tables of the solvers that `Position.solve`, `analyze`, `best_move` and
/// `solve_many` keep between calls (up to four, 64 MiB each by default). The next such call
/// makes a new one.
#[pyfunction]
fn clear_tables(py: Python<'_>) {
    py.detach(|| IDLE.clear());
}

fn status_name(status: Status) -> &'static str {
    match status {
        Status::Ongoing => "ongoing",
        Status::Win(Player::First) => "first wins",
        Status::Win(Player::Second) => "second wins",
        Status::Draw => "draw",
    }
}

/// The moves of a position given as a string (moves or a board) or as a sequence of moves.
fn read(rules: &dyn Game, moves: Option<&Bound<'_, PyAny>>) -> PyResult<Arc<dyn session::Line>> {
    match moves {
        None => rules.read("").py_err(),
        Some(m) if m.is_instance_of::<PyString>() => rules.read(&m.extract::<String>()?).py_err(),
        Some(m) => {
            let tokens: Vec<String> = m.extract().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "moves must be a string (a move string or a board) or a sequence of moves",
                )
            })?;
            rules.read_tokens(&tokens).py_err()
        }
    }
}

#[pymethods]
impl Position {
    /// A position of `game` (`"connect4"`, `"connect4:WxH"`, `"connect4:WxH:kK"`, `"popout"`,
    /// `"popout:WxH"`, `"cube"`, `"qubic"` or `"pentago"`) reached by `moves`: any notation the
    /// command line reads (`"4453"`, `"-"` or `""` for the start; commas between moves on boards
    /// wider than 9; `"p4"` a PopOut pop; Pentago's boards), or a sequence of moves.
    #[new]
    #[pyo3(signature = (game = "connect4", moves = None))]
    fn new(game: &str, moves: Option<&Bound<'_, PyAny>>) -> PyResult<Position> {
        let rules = session::game(game).py_err()?;
        let line = read(rules.as_ref(), moves)?;
        Ok(Position { rules, line })
    }

    /// The game's spec, as the library writes it (`"connect4:7x6:k4"`, `"popout:7x6"`, `"cube"`).
    #[getter]
    fn game(&self) -> String {
        self.rules.name()
    }

    /// The move string from the start (of the game, or of the board the position was given as).
    #[getter]
    fn moves(&self) -> String {
        self.line.moves()
    }

    /// The board the position was given as, when it was not moves from the game's start.
    #[getter]
    fn start(&self) -> Option<String> {
        self.line.origin().map(str::to_string)
    }

    /// Moves played since the start of the game.
    #[getter]
    fn ply(&self) -> u32 {
        self.line.ply()
    }

    /// `"first"` or `"second"`: the player to move.
    #[getter]
    fn to_move(&self) -> &'static str {
        self.line.to_move().name()
    }

    /// `"ongoing"`, `"first wins"`, `"second wins"` or `"draw"` (in PopOut also by repetition:
    /// a position that comes back draws).
    #[getter]
    fn status(&self) -> &'static str {
        status_name(self.line.status())
    }

    /// The legal moves in the game's notation (none once the game is over).
    fn legal_moves(&self) -> Vec<String> {
        self.line.legal_moves()
    }

    /// The position after `move`; raises `MoveError` for a move that is not legal here.
    #[pyo3(signature = (r#move))]
    fn play(&self, r#move: &str) -> PyResult<Position> {
        Ok(Position {
            rules: self.rules.clone(),
            line: self.line.play(r#move).py_err()?,
        })
    }

    /// The position as the JSON API writes it (`GET /api/position`, `inarow analyze --json`
    /// without the analysis): one string, for other tools and the web page.
    fn to_json(&self) -> String {
        inarow::wire::Value::Object(inarow::wire::position(self.line.as_ref())).to_string()
    }

    /// The board as data: its shape, every cell with its coordinates, name and owner, the lines
    /// held (the winning line) and every legal move with the cells it changes.
    #[getter]
    fn board(&self, py: Python<'_>) -> PyResult<Board> {
        Board::new(py, BoardView::new(&self.line.view()))
    }

    /// The value of the position for the side to move, from the built-in opening book where it
    /// knows it (as `analyze` and `play` do; the command line's `solve` asks it only with
    /// `--book builtin`), else by the exact solver. `time` (seconds) and `nodes` limit the
    /// search: a limit reached leaves `score` None and says so in `stopped`. `weak`: only win /
    /// draw / loss, often much faster. `best_moves`: also every move that keeps the value (a
    /// search each, with the table warm); `pv`: also a line of perfect play to the end (a
    /// search per ply: slow near the start of a hard game).
    #[pyo3(signature = (time = None, nodes = None, weak = false, best_moves = true, pv = false))]
    fn solve(
        &self,
        py: Python<'_>,
        time: Option<f64>,
        nodes: Option<u64>,
        weak: bool,
        best_moves: bool,
        pv: bool,
    ) -> PyResult<Solution> {
        let limits = limits(time, nodes)?;
        let (rules, line) = (self.rules.as_ref(), self.line.as_ref());
        detached(py, |token| {
            let ask = Ask {
                limits: Limits {
                    interrupt: token,
                    ..limits
                },
                best_moves,
                pv,
                ..Ask::default()
            };
            with_shared_solver(rules, weak, |solver| {
                solver.solve(line, &ask).map(Solution::from)
            })?
        })?
        .py_err()
    }

    /// Every legal move with its value, best first, as `inarow analyze` gives them: exact where
    /// the solver settles it within `time` (seconds; None: until every value is exact), the
    /// evaluation search's estimate otherwise. Each item unpacks as `(move, value, exact)`.
    #[pyo3(signature = (time = None))]
    fn analyze(&self, py: Python<'_>, time: Option<f64>) -> PyResult<Vec<PyMoveValue>> {
        let limits = limits(time, None)?;
        let (rules, line) = (self.rules.as_ref(), self.line.as_ref());
        detached(py, |token| {
            let limits = Limits {
                interrupt: token,
                ..limits
            };
            with_shared_solver(rules, false, |solver| {
                solver.analyze_values(line, &limits).map(PyMoveValue::list)
            })?
        })?
        .py_err()
    }

    /// The engine's move after thinking for `think` seconds: the book, the exact solver, then
    /// the evaluation search for the time left (as `inarow play`).
    #[pyo3(signature = (think = 1.0))]
    fn best_move(&self, py: Python<'_>, think: f64) -> PyResult<String> {
        let limits = limits(Some(think), None)?;
        let (rules, line) = (self.rules.as_ref(), self.line.as_ref());
        let choice = detached(py, |token| {
            let limits = Limits {
                interrupt: token,
                ..limits
            };
            with_shared_solver(rules, false, |solver| {
                solver.best_move(line, &limits).map(PyMoveValue::from)
            })?
        })?
        .py_err()?;
        Ok(choice.move_text().to_string())
    }

    /// The board as an SVG picture, as the web page draws it: Connect Four's and PopOut's
    /// columns, the cube's columns from above and its levels, Qubic's four levels side by side,
    /// Pentago's quadrants; red the first player's stones, yellow the second's, the lines that
    /// won crossed out. `values`: moves' values to draw where each move plays (what `analyze`
    /// returns, or `(move, value, exact)` items, or a dict from move to value): above a column,
    /// in an empty cell (Pentago: each cell the best of the moves that place there, over their
    /// turns; a turn alone beside its arrow), a PopOut pop on the stone it pops.
    /// It returns an `inarow.Svg`: the text (a `str`), which Jupyter draws as a picture.
    /// `interactive`: the web page's board, for a front that plays clicks (`inarow.BoardWidget`):
    /// no margin nor background, the class `target` and `data-move` on every element that plays
    /// a move, Pentago's cells chosen before their turn a `target` without `data-move`.
    /// `selected`: Pentago's cell chosen (its number), its turns' values on the arrows.
    #[pyo3(signature = (values = None, *, interactive = false, selected = None))]
    fn svg<'py>(
        &self,
        py: Python<'py>,
        values: Option<&Bound<'py, PyAny>>,
        interactive: bool,
        selected: Option<usize>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let values = match values {
            Some(v) if !v.is_none() => draw_values(v)?,
            _ => Vec::new(),
        };
        let options = draw::Options {
            interactive,
            selected,
            ..draw::Options::default()
        };
        let text = draw::position_with(self.rules.as_ref(), self.line.as_ref(), &values, &options)
            .py_err()?;
        py.import("inarow._svg")?.getattr("Svg")?.call1((text,))
    }

    /// The board as an SVG picture: how Jupyter shows a position (`svg()` without values).
    fn _repr_svg_(&self) -> PyResult<String> {
        self.picture(&[])
    }

    fn __str__(&self) -> String {
        self.line.render()
    }

    fn __repr__(&self) -> String {
        match self.line.origin() {
            Some(board) => {
                let mut text = format!("Position('{}', '{board}')", self.rules.name());
                for m in self.line.move_list() {
                    text += &format!(".play('{m}')");
                }
                text
            }
            None => format!("Position('{}', '{}')", self.rules.name(), self.line.moves()),
        }
    }

    /// Equal positions: the same game, board and side to move (however they were reached).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<Position>().is_ok_and(|o| {
            let o = o.get();
            o.rules.name() == self.rules.name() && o.line.key() == self.line.key()
        })
    }

    fn __hash__(&self) -> u64 {
        let mut hasher = std::collections::hash_map::DefaultHasher::new();
        (self.rules.name(), self.line.key()).hash(&mut hasher);
        hasher.finish()
    }

    /// Pickles (for multiprocessing) as the game, the board it started from and the moves.
    fn __reduce__<'py>(&self, py: Python<'py>) -> PyResult<(Bound<'py, PyAny>, Bound<'py, PyAny>)> {
        let restore = py.import("inarow._inarow")?.getattr("_position")?;
        let args = (
            self.rules.name(),
            self.line.origin().map(str::to_string),
            self.line.move_list(),
        );
        Ok((restore, args.into_bound_py_any(py)?))
    }
}

impl Position {
    /// The board's picture with `values`, the last move marked (the library's drawer).
    fn picture(&self, values: &[draw::DrawnValue]) -> PyResult<String> {
        draw::position(self.rules.as_ref(), self.line.as_ref(), values).py_err()
    }
}

/// The values given to `Position.svg`: `PyMoveValue`s, `(move, value, exact)` items or a dict
/// from move to value (an int an exact score, unless `exact` says otherwise; a float a win rate,
/// 0-1; None unknown).
fn draw_values(values: &Bound<'_, PyAny>) -> PyResult<Vec<draw::DrawnValue>> {
    use inarow::session::Valuation;
    let bad = || {
        pyo3::exceptions::PyTypeError::new_err(
            "values must be what analyze returns: MoveValues or (move, value, exact) items, or a \
             dict from move to value",
        )
    };
    let items = match values.cast::<PyDict>() {
        Ok(d) => d.items().into_any(),
        Err(_) => values.clone(),
    };
    let mut out = Vec::new();
    for item in items.try_iter()? {
        let item = item?;
        if let Ok(m) = item.cast::<PyMoveValue>() {
            out.push(m.get().to_draw());
            continue;
        }
        let parts: Vec<Bound<'_, PyAny>> = item.extract().map_err(|_| bad())?;
        if !(2..=3).contains(&parts.len()) {
            return Err(bad());
        }
        let mv: String = parts[0].extract().map_err(|_| bad())?;
        let value = &parts[1];
        if let Ok(m) = value.cast::<PyMoveValue>() {
            out.push(draw::DrawnValue {
                mv,
                ..m.get().to_draw()
            });
            continue;
        }
        let exact = match parts.get(2) {
            Some(e) => e.extract::<bool>().map_err(|_| bad())?,
            None => true,
        };
        let value = if value.is_none() {
            Valuation::Unknown
        } else if let Ok(v) = value.extract::<i32>() {
            if exact {
                Valuation::Exact(v)
            } else {
                Valuation::Heuristic(v)
            }
        } else if let Ok(r) = value.extract::<f64>() {
            Valuation::WinRate(r)
        } else {
            return Err(bad());
        };
        out.push(draw::DrawnValue {
            mv,
            value,
            end_ply: None,
        });
    }
    Ok(out)
}

/// A position from what `Position.__reduce__` saves.
#[pyfunction]
fn _position(game: &str, start: Option<String>, moves: Vec<String>) -> PyResult<Position> {
    let rules = session::game(game).py_err()?;
    let mut line = rules.read(start.as_deref().unwrap_or("")).py_err()?;
    for m in &moves {
        line = line.play(m).py_err()?;
    }
    Ok(Position { rules, line })
}

/// A solver of one game that keeps its transposition table across calls: a thousand short
/// positions pay for one table.
#[pyclass(frozen, module = "inarow")]
struct Solver {
    rules: Arc<dyn Game>,
    settings: Settings,
    solver: Mutex<Box<dyn session::Agent>>,
}

fn threads(n: usize) -> PyResult<usize> {
    if n == 0 || n > 256 {
        return Err(input(format!("threads {n}: must be between 1 and 256")));
    }
    Ok(n)
}

impl Solver {
    /// The line of a position given to this solver: a `Position` of its game or a move string.
    fn line(&self, position: &Bound<'_, PyAny>) -> PyResult<Arc<dyn session::Line>> {
        if let Ok(p) = position.cast::<Position>() {
            return Ok(p.get().line.clone());
        }
        read(self.rules.as_ref(), Some(position))
    }

    fn run<R: Send>(
        &self,
        py: Python<'_>,
        work: impl FnOnce(&mut dyn session::Agent, Option<Cancel>) -> R + Send,
    ) -> PyResult<R> {
        detached(py, |token| {
            let mut solver = self.solver.lock().unwrap_or_else(|e| e.into_inner());
            work(solver.as_mut(), token)
        })
    }
}

#[pymethods]
impl Solver {
    /// A solver of `game` with a table of `table_mb` MiB, searching on `threads` threads that
    /// share it (alpha-beta games). `weak`: win / draw / loss only. `book`: answer from the
    /// game's built-in opening book (Connect Four 7x6: every position to 12 plies)
    /// where it knows the position, and play Qubic's winning strategy as the first player.
    /// `level`: how `best_move` and `choose` play, as the command line's `--engine` (`best`,
    /// the default: the exact solver first; `alphabeta`, `mcts`, `depthN`, `random`: no exact
    /// solver, so no `solve`);
    /// `seed`: the random choices of the levels that make them.
    #[new]
    #[pyo3(signature = (game = "connect4", table_mb = 64, weak = false, threads = 1, book = true,
                        level = "best", seed = 1))]
    #[allow(clippy::too_many_arguments)]
    fn new(
        py: Python<'_>,
        game: &str,
        table_mb: usize,
        weak: bool,
        threads: usize,
        book: bool,
        level: &str,
        seed: u64,
    ) -> PyResult<Solver> {
        let rules = session::game(game).py_err()?;
        let settings = Settings {
            level: level.parse::<Level>().py_err()?,
            weak,
            table_mb,
            threads: self::threads(threads)?,
            book: book_source(book),
            ..Settings::default()
        };
        // A Solver is kept for many calls: its table is touched once, now.
        let solver = py
            .detach(|| {
                rules.agent(&settings, seed).map(|mut solver| {
                    solver.ready();
                    solver
                })
            })
            .py_err()?;
        Ok(Solver {
            rules,
            settings,
            solver: Mutex::new(solver),
        })
    }

    #[getter]
    fn game(&self) -> String {
        self.rules.name()
    }

    #[getter]
    fn table_mb(&self) -> usize {
        self.settings.table_mb
    }

    #[getter]
    fn weak(&self) -> bool {
        self.settings.weak
    }

    #[getter]
    fn threads(&self) -> usize {
        self.settings.threads
    }

    #[getter]
    fn book(&self) -> bool {
        self.settings.book == BookSource::Builtin
    }

    /// How it plays: `best`, `alphabeta`, `mcts`, `depthN` or `random`.
    #[getter]
    fn level(&self) -> String {
        self.settings.level.to_string()
    }

    /// The value of `position` (a `Position` of this game, or a move string), with what the
    /// table learnt from earlier calls. As `Position.solve`, but without the best moves unless
    /// asked (they cost a search per move).
    #[pyo3(signature = (position, time = None, nodes = None, best_moves = false, pv = false))]
    fn solve(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        time: Option<f64>,
        nodes: Option<u64>,
        best_moves: bool,
        pv: bool,
    ) -> PyResult<Solution> {
        let line = self.line(position)?;
        let limits = limits(time, nodes)?;
        self.run(py, |solver, token| {
            let ask = Ask {
                limits: Limits {
                    interrupt: token,
                    ..limits
                },
                best_moves,
                pv,
                ..Ask::default()
            };
            solver.solve(line.as_ref(), &ask).map(Solution::from)
        })?
        .py_err()
    }

    /// As `Position.analyze`, with this solver's table.
    #[pyo3(signature = (position, time = None))]
    fn analyze(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        time: Option<f64>,
    ) -> PyResult<Vec<PyMoveValue>> {
        let line = self.line(position)?;
        let limits = limits(time, None)?;
        self.run(py, |solver, token| {
            solver
                .analyze_values(
                    line.as_ref(),
                    &Limits {
                        interrupt: token,
                        ..limits
                    },
                )
                .map(PyMoveValue::list)
        })?
        .py_err()
    }

    /// As `Position.best_move`, with this solver's table.
    #[pyo3(signature = (position, think = 1.0, seed = None))]
    fn best_move(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        think: f64,
        seed: Option<u64>,
    ) -> PyResult<String> {
        let choice = self.choose(py, position, Some(think), seed)?;
        Ok(choice.move_text().to_string())
    }

    /// The engine's move with its value (a `PyMoveValue`: `exact` False where the engine had to
    /// estimate), as `best_move` chooses it; `think` None: no time limit (at level best, the
    /// exact solver to the end). Where the exact value is known, the move is the first, in a
    /// random order, that keeps it (a null-window test each; no other move is valued).
    /// `seed`: the random choices of this call start from it (equal seeds, equal moves),
    /// instead of going on from the solver's.
    #[pyo3(signature = (position, think = None, seed = None))]
    fn choose(
        &self,
        py: Python<'_>,
        position: &Bound<'_, PyAny>,
        think: Option<f64>,
        seed: Option<u64>,
    ) -> PyResult<PyMoveValue> {
        let line = self.line(position)?;
        let limits = limits(think, None)?;
        self.run(py, |solver, token| {
            if let Some(seed) = seed {
                solver.reseed(seed);
            }
            solver
                .best_move(
                    line.as_ref(),
                    &Limits {
                        interrupt: token,
                        ..limits
                    },
                )
                .map(PyMoveValue::from)
        })?
        .py_err()
    }

    /// Forgets what the table learnt.
    fn reset(&self, py: Python<'_>) {
        py.detach(|| {
            self.solver
                .lock()
                .unwrap_or_else(|e| e.into_inner())
                .reset()
        });
    }

    fn __repr__(&self) -> String {
        let s = &self.settings;
        let py_bool = |b: bool| if b { "True" } else { "False" };
        format!(
            "Solver('{}', table_mb={}, weak={}, threads={}, book={}{})",
            self.rules.name(),
            s.table_mb,
            py_bool(s.weak),
            s.threads,
            py_bool(s.book == BookSource::Builtin),
            if s.level == Level::Best {
                String::new()
            } else {
                format!(", level='{}'", s.level)
            }
        )
    }
}

/// Solves every position of `game` (move strings or `Position`s), each from a cleared table as
/// `inarow bench` does, on `threads` solvers at once (each with its own table of `table_mb`
/// MiB), in one call with the GIL released. `time` and `nodes` limit each position. Returns a
/// `Solution` per position, in order. A position that cannot be read raises its error (with its
/// index in the list as `position`) before any is solved.
#[pyfunction]
#[pyo3(signature = (game, positions, threads = 1, weak = false, time = None, nodes = None,
                    table_mb = 64, book = true, best_moves = false, pv = false))]
#[allow(clippy::too_many_arguments)]
fn solve_many(
    py: Python<'_>,
    game: &str,
    positions: &Bound<'_, PyAny>,
    threads: usize,
    weak: bool,
    time: Option<f64>,
    nodes: Option<u64>,
    table_mb: usize,
    book: bool,
    best_moves: bool,
    pv: bool,
) -> PyResult<Vec<Solution>> {
    let rules = session::game(game).py_err()?;
    let threads = self::threads(threads)?;
    let limits = limits(time, nodes)?;
    let mut sources = Vec::new();
    for item in positions.try_iter()? {
        let item = item?;
        sources.push(match item.cast::<Position>() {
            Ok(p) => Source::Line(p.get().line.clone()),
            Err(_) => Source::Text(item.extract::<String>().map_err(|_| {
                pyo3::exceptions::PyTypeError::new_err(
                    "positions must be move strings or Positions",
                )
            })?),
        });
    }
    if sources.is_empty() {
        return Ok(Vec::new());
    }
    let settings = Settings {
        weak,
        table_mb,
        threads: 1,
        book: book_source(book),
        ..Settings::default()
    };
    let workers = threads.min(sources.len());
    let solved = detached(py, |token| {
        let ask = Ask {
            limits: Limits {
                interrupt: token,
                ..limits
            },
            best_moves,
            pv,
            ..Ask::default()
        };
        let mut solvers = IDLE
            .take(rules.as_ref(), &settings, workers)
            .map_err(|e| (None, e))?;
        let solved = rules.solve_many(&sources, &ask, &mut solvers);
        IDLE.give_back(rules.as_ref(), solvers);
        solved.map_err(|(i, e)| (Some(i), e))
    })?;
    let solved = solved.map_err(|(index, e)| {
        let err = errors::to_py(e);
        if let Some(index) = index {
            let _ = err.value(py).setattr("position", index);
        }
        err
    })?;
    Ok(solved
        .into_iter()
        .map(|s| {
            s.map(Solution::from).unwrap_or_else(|| Solution {
                score: None,
                plies: None,
                best_moves: None,
                pv: None,
                exact: false,
                stopped: Some(inarow::limits::Stop::Interrupted.to_string()),
                nodes: 0,
                seconds: 0.0,
                proven: None,
            })
        })
        .collect())
}

/// The native module, `inarow._inarow`; the package `inarow` re-exports it.
#[pymodule]
fn _inarow(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add_class::<Position>()?;
    m.add_class::<Solver>()?;
    m.add_class::<Solution>()?;
    m.add_class::<PyMoveValue>()?;
    m.add_class::<Board>()?;
    m.add_class::<values::Cell>()?;
    m.add_class::<values::Block>()?;
    m.add_class::<values::PyLine>()?;
    m.add_class::<values::Move>()?;
    m.add_function(wrap_pyfunction!(solve_many, m)?)?;
    m.add_function(wrap_pyfunction!(clear_tables, m)?)?;
    m.add_function(wrap_pyfunction!(dataset::_dataset, m)?)?;
    m.add_function(wrap_pyfunction!(_position, m)?)?;
    m.add_function(wrap_pyfunction!(values::_solution, m)?)?;
    m.add("Error", py.get_type::<errors::Error>())?;
    m.add("SpecError", py.get_type::<errors::SpecError>())?;
    m.add("MoveError", py.get_type::<errors::MoveError>())?;
    m.add("InputError", py.get_type::<errors::InputError>())?;
    m.add(
        "UnsupportedError",
        py.get_type::<errors::UnsupportedError>(),
    )?;
    m.add("FileError", py.get_type::<errors::FileError>())?;
    m.add(
        "MemoryLimitError",
        py.get_type::<errors::MemoryLimitError>(),
    )?;
    m.add("SearchError", py.get_type::<errors::SearchError>())?;
    m.add("InternalError", py.get_type::<errors::InternalError>())?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}

/// Python's `book=` flag: the game's built-in book, or none.
fn book_source(book: bool) -> BookSource {
    if book {
        BookSource::Builtin
    } else {
        BookSource::Off
    }
}
