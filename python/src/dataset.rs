//! Training data: random positions of a game with every legal move's exact value, on several
//! threads, as flat buffers that `inarow.dataset` (python/inarow/training.py) turns into numpy
//! arrays (no numpy here).
//!
//! Position `i` is drawn by uniformly random play from the start to a ply in `lo..=hi`, with a
//! generator seeded from `(seed, i)` alone: the same seed gives the same positions whatever the
//! number of threads (a finished position, or a line that ends before its ply, is drawn again
//! from the same generator). Each thread values its positions with its own solver (from the
//! binding's idle solvers, [`crate::IDLE`]) through `Agent::analyze_values`: the values of
//! `inarow analyze`, without its line of play.

use crate::errors::{IntoPy, to_py};
use crate::{IDLE, TABLE_MB, interrupt};
use inarow::Error;
use inarow::game::Status;
use inarow::game::view::PositionView;
use inarow::limits::{Cancel, Limits};
use inarow::session::SplitMix;
use inarow::session::{self, Game, Settings, Valuation};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict};
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

/// Attempts at drawing one position before giving up.
const ATTEMPTS: usize = 100_000;

/// How often the calling thread reports progress and looks for Ctrl-C.
const TICK: Duration = Duration::from_millis(100);

/// The default plies of random play: a midgame range by the board's cells.
fn default_plies(name: &str, cells: u32) -> (u32, u32) {
    match name.split(':').next().unwrap_or("") {
        // 7x6: 4..=20.
        "popout" => ((cells * 2 / 21).max(1), (cells * 10 / 21).max(1)),
        // 7x6: 6..=12 (the built-in book's plies; at 12 the children are searched).
        "connect4" => ((cells / 7).max(1), (cells * 2 / 7).max(1)),
        // Where most positions are solved within a second or two on one core.
        "cube" => (24, 32),
        "qubic" => (16, 24),
        "pentago" => (24, 30),
        _ => (cells / 8, cells / 4),
    }
}

/// The fixed action space of a game: each index's move name, as the game writes the move.
/// Connect Four: the columns; PopOut: the drops, the pops, then the draw claim; the cube: its
/// 16 columns; Qubic: its 64 cells; Pentago: the 36 cells, each with the 8 turns (`0l`, `0r`,
/// ..., `3r`; a placement that makes five, which turns nothing, at the cell's `0l`).
fn actions(name: &str, view: &PositionView<u16>) -> Result<Vec<String>, Error> {
    let [w, h, d] = view.layout.size.map(usize::from);
    let cell = |c: usize| view.cells[c].name.to_string();
    Ok(match name.split(':').next().unwrap_or("") {
        "connect4" => (0..w).map(cell).collect(),
        "popout" => (0..w)
            .map(cell)
            .chain((0..w).map(|c| format!("p{}", cell(c))))
            .chain(std::iter::once("d".to_string()))
            .collect(),
        "cube" => (0..w * h).map(cell).collect(),
        "qubic" => (0..w * h * d).map(cell).collect(),
        "pentago" => (0..w * h)
            .flat_map(|c| (0..8).map(move |r| format!("{}{}{}", cell(c), r / 2, ["l", "r"][r % 2])))
            .collect(),
        other => {
            return Err(Error::Unsupported(format!(
                "dataset: no action space for game {other}"
            )));
        }
    })
}

/// A generator for position `index` of the data set drawn with `seed`.
fn generator(seed: u64, index: u64) -> SplitMix {
    let a = SplitMix(seed).next_u64();
    let b = SplitMix(index ^ 0x5851_f42d_4c95_7f2d).next_u64();
    SplitMix(a ^ b.rotate_left(17))
}

/// Position `index`: random play to a ply drawn in `lo..=hi`, not finished.
fn draw(
    rules: &dyn Game,
    seed: u64,
    index: u64,
    lo: u32,
    hi: u32,
) -> Result<Arc<dyn session::Line>, Error> {
    let mut rng = generator(seed, index);
    let start = rules.read("")?;
    for _ in 0..ATTEMPTS {
        let plies = lo + rng.below((hi - lo + 1) as usize) as u32;
        let mut pos = start.clone();
        while pos.ply() < plies {
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            pos = pos.play(&legal[rng.below(legal.len())])?;
        }
        if pos.ply() == plies && pos.status() == Status::Ongoing {
            return Ok(pos);
        }
    }
    Err(Error::Search(format!(
        "no position of {lo} to {hi} plies that is not over in {ATTEMPTS} random games"
    )))
}

/// One row of the data set.
struct Row {
    moves: String,
    ply: u32,
    second: bool,
    /// The side to move's stones, then the opponent's, by cell number.
    planes: Vec<i8>,
    values: Vec<i32>,
    legal: Vec<bool>,
    known: Vec<bool>,
}

/// Draws and values position `index`.
fn row(
    rules: &dyn Game,
    solver: &mut dyn session::Agent,
    (seed, index, lo, hi): (u64, u64, u32, u32),
    limits: &Limits,
    actions: usize,
) -> Result<Row, Error> {
    let pos = draw(rules, seed, index, lo, hi)?;
    let view = pos.view();
    let cells = view.cells.len();
    let mut planes = vec![0i8; 2 * cells];
    for (c, cell) in view.cells.iter().enumerate() {
        if let Some(owner) = cell.owner {
            planes[if owner == view.to_move { c } else { cells + c }] = 1;
        }
    }
    let mut values = vec![0; actions];
    let mut legal = vec![false; actions];
    let mut known = vec![false; actions];
    let analysis = solver.analyze_values(pos.as_ref(), limits)?;
    for m in &view.moves {
        let code = m.mv as usize;
        if code >= actions {
            return Err(Error::Internal(format!(
                "dataset: move {} has code {code}, beyond the {actions} actions",
                m.text
            )));
        }
        legal[code] = true;
        let value = analysis.moves.iter().find(|v| v.mv == m.text);
        if let Some(Valuation::Exact(v) | Valuation::Proven(v)) = value.map(|v| v.value) {
            values[code] = v;
            known[code] = true;
        }
    }
    Ok(Row {
        moves: pos.moves(),
        ply: pos.ply(),
        second: pos.to_move() != inarow::game::Player::First,
        planes,
        values,
        legal,
        known,
    })
}

fn le_bytes(values: impl Iterator<Item = i32>) -> Vec<u8> {
    values.flat_map(i32::to_le_bytes).collect()
}

/// `count` positions of `game` with their moves' values: a dict of the board's `shape`, the
/// `actions`' names, the `moves` of each row and flat buffers (`positions` int8, `values`
/// int32 little-endian, `legal` and `known` bool as bytes, `ply` int32, `second` bool: the
/// second player to move). `progress(done)` is called now and then from the calling thread.
#[pyfunction]
#[pyo3(signature = (game, count, seed, plies = None, time = None, threads = 1, progress = None))]
#[allow(clippy::too_many_arguments)]
pub fn _dataset<'py>(
    py: Python<'py>,
    game: &str,
    count: usize,
    seed: u64,
    plies: Option<(u32, u32)>,
    time: Option<f64>,
    threads: usize,
    progress: Option<Py<PyAny>>,
) -> PyResult<Bound<'py, PyDict>> {
    let rules = session::game(game).py_err()?;
    let threads = crate::threads(threads)?;
    let time = crate::seconds("time", time)?;
    let start = rules.read("").py_err()?.view();
    let name = rules.name();
    let actions = actions(&name, &start).py_err()?;
    let cells = start.cells.len();
    let (lo, hi) = plies.unwrap_or_else(|| default_plies(&name, cells as u32));
    if lo > hi {
        return Err(crate::errors::input(format!(
            "plies ({lo}, {hi}): the first must not be above the second"
        )));
    }
    let settings = Settings {
        weak: false,
        table_mb: TABLE_MB,
        threads: 1,
        ..Settings::default()
    };
    let workers = threads.min(count).max(1);
    let stop = Cancel::new();
    let limits = Limits {
        time,
        nodes: None,
        interrupt: Some(stop.clone()),
    };
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let watch = interrupt::watch();
    let rules = rules.as_ref();
    let na = actions.len();
    let (rows, reported) = py
        .detach(|| {
            let mut solvers = IDLE
                .take(rules, &settings, workers)
                .map_err(|e| (None, e))?;
            let mut rows: Vec<Option<Row>> = (0..count).map(|_| None).collect();
            let mut failed: Option<(usize, Error)> = None;
            let mut reported: Option<PyErr> = None;
            std::thread::scope(|scope| {
                let handles: Vec<_> = solvers
                    .iter_mut()
                    .map(|solver| {
                        let (next, done, stop, limits) = (&next, &done, &stop, &limits);
                        scope.spawn(move || {
                            let mut mine = Vec::new();
                            loop {
                                let i = next.fetch_add(1, Ordering::Relaxed);
                                if i >= count || stop.is_cancelled() {
                                    return Ok(mine);
                                }
                                let r = row(
                                    rules,
                                    solver.as_mut(),
                                    (seed, i as u64, lo, hi),
                                    limits,
                                    na,
                                )
                                .map_err(|e| {
                                    stop.cancel();
                                    (i, e)
                                })?;
                                mine.push((i, r));
                                done.fetch_add(1, Ordering::Relaxed);
                            }
                        })
                    })
                    .collect();
                // The calling thread reports progress and watches for Ctrl-C.
                let mut last = usize::MAX;
                while !handles.iter().all(|h| h.is_finished()) {
                    std::thread::sleep(TICK);
                    if watch.interrupted() {
                        stop.cancel();
                    }
                    let now = done.load(Ordering::Relaxed);
                    if let Some(callback) = &progress
                        && now != last
                        && reported.is_none()
                    {
                        last = now;
                        if let Err(e) = Python::attach(|py| callback.call1(py, (now,))) {
                            reported = Some(e);
                            stop.cancel();
                        }
                    }
                }
                for handle in handles {
                    match handle.join() {
                        Ok(Ok(mine)) => {
                            for (i, r) in mine {
                                rows[i] = Some(r);
                            }
                        }
                        Ok(Err((i, e))) => {
                            stop.cancel();
                            if failed.as_ref().is_none_or(|(j, _)| i < *j) {
                                failed = Some((i, e));
                            }
                        }
                        Err(_) => {
                            failed = Some((0, Error::Internal("a data set thread failed".into())));
                        }
                    }
                }
            });
            IDLE.give_back(rules, solvers);
            if let Some((i, e)) = failed {
                return Err((Some(i), e));
            }
            Ok((rows, reported))
        })
        .map_err(|(index, e): (Option<usize>, Error)| {
            let err = to_py(e);
            if let Some(index) = index {
                let _ = err.value(py).setattr("position", index);
            }
            err
        })?;
    let interrupted = watch.interrupted();
    drop(watch);
    if let Some(e) = reported {
        return Err(e);
    }
    if interrupted {
        py.check_signals()?;
    }
    let rows: Vec<Row> = rows.into_iter().collect::<Option<_>>().ok_or_else(|| {
        to_py(Error::Search(
            "dataset: interrupted before every position was valued".into(),
        ))
    })?;
    if let Some(callback) = &progress {
        callback.call1(py, (rows.len(),))?;
    }
    let [w, h, d] = start.layout.size;
    let shape: Vec<u8> = if d == 1 { vec![h, w] } else { vec![d, h, w] };
    let out = PyDict::new(py);
    out.set_item("game", name)?;
    out.set_item("shape", shape)?;
    out.set_item("actions", actions)?;
    out.set_item("plies", (lo, hi))?;
    out.set_item(
        "moves",
        rows.iter().map(|r| r.moves.as_str()).collect::<Vec<_>>(),
    )?;
    let bytes = |b: Vec<u8>| PyBytes::new(py, &b);
    let flags = |f: &dyn Fn(&Row) -> &[bool]| {
        bytes(
            rows.iter()
                .flat_map(|r| f(r).iter().map(|&b| b as u8))
                .collect(),
        )
    };
    out.set_item(
        "positions",
        bytes(
            rows.iter()
                .flat_map(|r| r.planes.iter().map(|&p| p as u8))
                .collect(),
        ),
    )?;
    out.set_item(
        "values",
        bytes(le_bytes(rows.iter().flat_map(|r| r.values.iter().copied()))),
    )?;
    out.set_item("legal", flags(&|r| &r.legal))?;
    out.set_item("known", flags(&|r| &r.known))?;
    out.set_item("ply", bytes(le_bytes(rows.iter().map(|r| r.ply as i32))))?;
    out.set_item(
        "second",
        bytes(rows.iter().map(|r| r.second as u8).collect()),
    )?;
    Ok(out)
}
