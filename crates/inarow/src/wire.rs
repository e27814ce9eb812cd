//! The wire format: positions, moves and analyses as JSON, the one format of `/api/*`, the
//! WebAssembly package, `inarow analyze --json` and Python's `to_json`, so that every front
//! reads and writes the same fields (README, "JSON API"). A position's JSON comes from its
//! structured view ([`PositionView`]): the `legal` moves the page has always read, each with
//! the one cell it fills, and the `view` field that carries the whole view; an analysis' JSON
//! comes from the session's answers ([`crate::session`]), each move with a sort key (`rank`).
//! A page that values moves one by one (a Web Worker each) puts them together with
//! [`assemble`], as the session does.

use crate::engine::agent::{Level, Valuation};
use crate::game::view::{Axis, CellSet};
use crate::game::{Player, PositionView, Status};
use crate::session::{EngineMove, Line, MoveAnalysis, MoveValue, PositionAnalysis, Solution};
use serde_json::json;
/// The JSON values the wire format is made of (serde_json's), for the fronts that write them.
pub use serde_json::{Map, Value};

/// The playing level a request asks for: `level` (`best`, `alphabeta`, `depthN`, `mcts`,
/// `random`), or by its first name, `engine`, which requests written before still use; both
/// given must agree. Neither: [`Level::Best`].
pub fn level(level: Option<&str>, engine: Option<&str>) -> Result<Level, crate::Error> {
    match (level, engine) {
        (Some(level), Some(engine)) if level != engine => Err(crate::Error::Input(format!(
            "level={level} and engine={engine}: two levels asked (engine is level's old name)"
        ))),
        (level, engine) => level.or(engine).map_or(Ok(Level::Best), str::parse),
    }
}

/// Each legal move as `{"move": "4", "cell": [row, column]}`: the one cell of the board's rows
/// ([`PositionView::rows`]) that the move fills, `null` if it fills none (a pop, a draw claim)
/// or several (a Pentago turn that carries stones onto empty cells).
pub fn legal<M: Copy>(view: &PositionView<M>) -> Vec<Value> {
    view.moves
        .iter()
        .map(|m| {
            let filled = view.empty_of(m.changed);
            let cell = (filled.len() == 1)
                .then(|| filled.iter().next())
                .flatten()
                .map(|c| view.cells[c as usize].drawn);
            json!({ "move": m.text, "cell": cell })
        })
        .collect()
}

/// The whole view: the board's shape, every cell, the lines held and every legal move with
/// what it does.
pub fn view<M>(view: &PositionView<M>) -> Value {
    let layout = &view.layout;
    json!({
        "size": layout.size,
        "k": layout.k,
        "gravity": layout.gravity.map(|axis| match axis {
            Axis::X => "x",
            Axis::Y => "y",
            Axis::Z => "z",
        }),
        "blocks": layout.blocks.iter().map(|b| json!({
            "name": b.name,
            "from": b.from,
            "size": b.size,
            "place": b.place,
        })).collect::<Vec<_>>(),
        "cells": view.cells.iter().map(|c| json!({
            "at": c.at,
            "name": c.name.as_str(),
            "owner": c.owner.map(Player::name),
            "block": c.block,
            "drawn": c.drawn,
        })).collect::<Vec<_>>(),
        "lines": view.lines.iter().map(|l| json!({
            "owner": l.owner.name(),
            "cells": cells(l.cells),
        })).collect::<Vec<_>>(),
        "moves": view.moves.iter().map(|m| json!({
            "move": m.text,
            "placed": m.effect.placed,
            "popped": m.effect.popped,
            "turned": m.effect.turned.map(|t| json!({
                "block": t.block,
                "clockwise": t.clockwise,
            })),
            "changed": cells(m.changed),
        })).collect::<Vec<_>>(),
    })
}

/// A set of cells as their numbers, lowest first.
fn cells(set: CellSet) -> Vec<u16> {
    set.iter().collect()
}

/// One move's entry of an analysis: its value as `inarow play` writes it, as data (the exact
/// score, the outcome for the mover, the ply on which the game ends with best play), and its
/// sort key (`rank`, [`rank`]).
pub fn move_value(m: &MoveValue) -> Map<String, Value> {
    let json = json!({
        "move": m.mv,
        "value": m.value.to_string(),
        "exact": m.exact(),
        "score": m.score,
        "outcome": m.outcome(),
        "end_ply": m.end_ply,
        "rank": rank(m.value),
    });
    match json {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A move's value read back from its entry ([`move_value`]): what a front that holds the JSON
/// (a page, a worker's answer) hands to the drawer ([`crate::draw`]). `None` for an entry
/// without a move or a value.
pub fn read_move_value(entry: &Value) -> Option<MoveValue> {
    let mv = entry["move"].as_str()?.to_string();
    let text = entry["value"].as_str()?;
    let value = if entry["exact"] == json!(true) {
        match (text.parse::<i32>(), text) {
            (Ok(score), _) => Valuation::Exact(score),
            (_, "win") => Valuation::Proven(1),
            (_, "draw") => Valuation::Proven(0),
            (_, "loss") => Valuation::Proven(-1),
            _ => return None,
        }
    } else if let Some(rate) = text.strip_prefix('~').and_then(|t| t.strip_suffix('%')) {
        Valuation::WinRate(rate.parse::<f64>().ok()? / 100.0)
    } else if let Some(score) = text.strip_prefix('~') {
        Valuation::Heuristic(score.parse().ok()?)
    } else {
        Valuation::Unknown
    };
    Some(MoveValue {
        mv,
        value,
        score: entry["score"].as_i64().and_then(|s| i32::try_from(s).ok()),
        end_ply: entry["end_ply"]
            .as_u64()
            .and_then(|p| u32::try_from(p).ok()),
    })
}

/// A value's sort key, as the session orders moves best first ([`Valuation::rank`]): a pair
/// of numbers compared in turn, higher first (exact wins, sooner first; estimates; draws;
/// exact losses, later first).
pub fn rank(v: Valuation) -> [i64; 2] {
    let (class, within) = v.rank();
    [i64::from(class), within]
}

/// One move valued alone ([`crate::session::Agent::analyze_move`]): the fields of its
/// analysis entry ([`move_value`]) with its expected `line` (the move and the replies) and
/// whether the engine gives only win / draw / loss (`weak`), what [`assemble`] puts together.
pub fn move_analysis(m: &MoveAnalysis) -> Map<String, Value> {
    let mut entry = move_value(&m.value);
    entry.insert("line".into(), json!(m.line));
    entry.insert("weak".into(), json!(m.weak));
    entry
}

/// An analysis put together from moves valued one by one ([`move_analysis`] entries, in the
/// legal moves' order, `null` for a move not valued yet), as [`add_analysis`] writes one:
/// `{source, weak, analysis, pv}` best first (ties in the legal order), with `partial:
/// {done, total}` while some moves wait. `by` says what valued them ("a move per worker").
pub fn assemble(entries: &[Value], by: &str) -> Map<String, Value> {
    let key = |e: &Value| -> (f64, f64) {
        let r = &e["rank"];
        (
            r[0].as_f64().unwrap_or(-1.0),
            r[1].as_f64().unwrap_or(f64::MIN),
        )
    };
    let mut order: Vec<&Value> = entries.iter().filter(|e| e.is_object()).collect();
    // Stable: equal keys keep the legal moves' order.
    order.sort_by(|a, b| {
        key(b)
            .partial_cmp(&key(a))
            .unwrap_or(std::cmp::Ordering::Equal)
    });
    let exact = order.iter().all(|e| e["exact"] == json!(true));
    let mut json = Map::new();
    let source = if exact {
        "exact"
    } else {
        "exact and estimates"
    };
    json.insert("source".into(), json!(format!("{source}, {by}")));
    json.insert(
        "weak".into(),
        json!(order.first().is_some_and(|e| e["weak"] == json!(true))),
    );
    let analysis = order
        .iter()
        .map(|e| {
            let mut entry = e.as_object().cloned().unwrap_or_default();
            entry.remove("line");
            entry.remove("weak");
            Value::Object(entry)
        })
        .collect();
    json.insert("analysis".into(), Value::Array(analysis));
    json.insert(
        "pv".into(),
        order.first().map_or(json!([]), |e| e["line"].clone()),
    );
    if order.len() < entries.len() {
        json.insert(
            "partial".into(),
            json!({ "done": order.len(), "total": entries.len() }),
        );
    }
    json
}

/// Adds an analysis to a position's JSON: what answered, every move's value
/// ([`move_value`]) and the expected line.
pub fn add_analysis(json: &mut Map<String, Value>, analysis: &PositionAnalysis) {
    let moves = analysis
        .moves
        .iter()
        .map(|m| Value::Object(move_value(m)))
        .collect();
    json.insert("source".into(), json!(analysis.source));
    json.insert("weak".into(), json!(analysis.weak));
    json.insert("analysis".into(), Value::Array(moves));
    json.insert("pv".into(), json!(analysis.pv));
}

/// The one JSON of an analysis, for `/api/analyze`, `inarow analyze --json` and the npm
/// package: the position ([`position`]) with the analysis added ([`add_analysis`]).
pub fn analysis(pos: &dyn Line, analysis: &PositionAnalysis) -> Map<String, Value> {
    let mut json = position(pos);
    add_analysis(&mut json, analysis);
    json
}

/// The one JSON of a solved position, for `inarow solve --json` and the npm package's `solve`:
/// `{game, moves, score, outcome, exact, plies, best_moves, pv, nodes, seconds, stopped,
/// proven}`. `game` is the game's full name, `moves` the position's moves as given
/// (`""` for the start); `score` and `outcome` (`win`, `draw`, `loss`) null where a limit
/// stopped the search, `stopped` then saying which and `proven` the bounds `[lo, hi]` proven by
/// then (or null); `best_moves` and `pv` arrays of moves, null where not asked for.
pub fn solution(game: &str, moves: &str, s: &Solution) -> Map<String, Value> {
    let json = json!({
        "game": game,
        "moves": moves,
        "score": s.score,
        "outcome": s.score.and_then(|v| Valuation::Exact(v).outcome()),
        "exact": s.exact,
        "plies": s.plies,
        "best_moves": s.best_moves,
        "pv": s.pv,
        "nodes": s.nodes,
        "seconds": s.seconds,
        "stopped": s.stopped,
        "proven": s.proven.map(|(lo, hi)| [lo, hi]),
    });
    match json {
        Value::Object(map) => map,
        _ => unreachable!("json! of an object literal is an object"),
    }
}

/// The engine's move: `{move, moves, value, exact}`.
pub fn engine_move(m: &EngineMove) -> Value {
    json!({
        "move": m.mv,
        "moves": m.moves,
        "value": m.value.to_string(),
        "exact": m.value.is_exact(),
    })
}

/// What the page needs to draw a position and offer its moves: the board as rows of cells,
/// each legal move with the cell it fills where that is one cell, and the whole structured
/// view.
pub fn position(pos: &dyn Line) -> Map<String, Value> {
    let view = pos.view_in_play_order();
    let json = json!({
        "game": pos.game(),
        "moves": pos.text(),
        "line": pos.move_list(),
        "to_move": pos.to_move().name(),
        "status": match pos.status() {
            Status::Ongoing => "ongoing",
            Status::Win(Player::First) => "first wins",
            Status::Win(Player::Second) => "second wins",
            Status::Draw => "draw",
        },
        "board": view.rows(),
        "legal": legal(&view),
        "view": self::view(&view),
        "values_all_moves_at_once": pos.policy().values_all_moves_at_once,
        "scores_carry_distance": pos.policy().scores_carry_distance,
    });
    match json {
        Value::Object(map) => map,
        _ => Map::new(),
    }
}

/// A picture asked as JSON (the server's `POST /api/draw` body, and WebAssembly's `draw`):
/// `{"game", "moves", "values", "weak", "interactive", "selected", "numbers", "width"}`, drawn by the
/// library's drawer ([`crate::draw::position_with`]). `game` a game spec (default
/// `connect4`), `moves` a move string or a whole board (default the start); the rest as
/// [`crate::draw::Options`], all optional: `values` an array of analysis entries (`null`
/// entries left out), `weak` true or false (default: as the game's exact scores go),
/// `interactive` true for the page's board, `selected` a cell's number, `numbers` an array of
/// `[cell, number]` pairs, `width` the room in pixels.
///
/// # Errors
/// [`crate::Error::Input`] for a request that is not such an object or a field of the wrong
/// kind; the game's errors for a bad spec or move string.
pub fn draw(request: &Value) -> Result<String, crate::Error> {
    use crate::Error;
    use crate::draw::{Options, position_with};
    let bad = |what: &str| Error::Input(format!("draw: {what}"));
    let Some(fields) = request.as_object() else {
        return Err(bad("the request must be a JSON object"));
    };
    const KNOWN: [&str; 8] = [
        "game",
        "moves",
        "values",
        "weak",
        "interactive",
        "selected",
        "numbers",
        "width",
    ];
    if let Some(key) = fields.keys().find(|k| !KNOWN.contains(&k.as_str())) {
        return Err(bad(&format!(
            "unknown field '{key}' (known: {})",
            KNOWN.join(", ")
        )));
    }
    let text = |name: &str, default: &'static str| -> Result<String, Error> {
        match &request[name] {
            Value::Null => Ok(default.to_string()),
            Value::String(s) => Ok(s.clone()),
            _ => Err(bad(&format!("{name} must be a string"))),
        }
    };
    let flag = |name: &str| -> Result<Option<bool>, Error> {
        match &request[name] {
            Value::Null => Ok(None),
            Value::Bool(b) => Ok(Some(*b)),
            _ => Err(bad(&format!("{name} must be true or false"))),
        }
    };
    let cell = |v: &Value, what: &str| -> Result<usize, Error> {
        v.as_u64()
            .and_then(|c| usize::try_from(c).ok())
            .ok_or_else(|| bad(&format!("{what} must be a cell's number")))
    };
    let rules = crate::session::game(&text("game", "connect4")?)?;
    let pos = rules.read(&text("moves", "")?)?;
    let values = match &request["values"] {
        Value::Null => Vec::new(),
        Value::Array(entries) => entries
            .iter()
            .filter(|e| !e.is_null())
            .map(|e| {
                read_move_value(e)
                    .map(|m| crate::draw::DrawnValue::from(&m))
                    .ok_or_else(|| bad("an entry without a move or a value"))
            })
            .collect::<Result<Vec<_>, Error>>()?,
        _ => return Err(bad("values must be an array of analysis entries")),
    };
    let selected = match &request["selected"] {
        Value::Null => None,
        v => Some(cell(v, "selected")?),
    };
    let numbers = match &request["numbers"] {
        Value::Null => Vec::new(),
        Value::Array(pairs) => pairs
            .iter()
            .map(|pair| match pair.as_array().map(Vec::as_slice) {
                Some([c, n]) => Ok((
                    cell(c, "numbers: a pair's first")?,
                    n.as_u64()
                        .and_then(|n| u32::try_from(n).ok())
                        .ok_or_else(|| bad("numbers: a pair's second must be a number"))?,
                )),
                _ => Err(bad("numbers must be an array of [cell, number] pairs")),
            })
            .collect::<Result<Vec<_>, Error>>()?,
        _ => return Err(bad("numbers must be an array of [cell, number] pairs")),
    };
    let width = match &request["width"] {
        Value::Null => None,
        v => Some(
            v.as_f64()
                .filter(|w| *w > 0.0)
                .ok_or_else(|| bad("width must be a number of pixels above 0"))?,
        ),
    };
    let options = Options {
        weak: flag("weak")?,
        interactive: flag("interactive")?.unwrap_or(false),
        selected,
        numbers,
        width,
    };
    position_with(rules.as_ref(), pos.as_ref(), &values, &options)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Board, GameSpec, MoveList, Status};
    use crate::with_game;

    /// The board as the server read it before the view: the cells of the terminal's drawing
    /// ([`crate::game::Notation::render`]), top row first, `X`, `O` or `.` a cell, a space
    /// where the drawing parts blocks, an empty row for a rule across the board.
    fn drawn_cells(drawing: &str) -> Vec<String> {
        let mut rows = Vec::new();
        for line in drawing.lines() {
            let mut row = String::new();
            let mut gap = false;
            for word in line.split(' ') {
                if word.is_empty() || word == "|" {
                    gap = true;
                    continue;
                }
                for (i, part) in word.split('|').enumerate() {
                    if part.is_empty() || !part.chars().all(|c| "XOxo.".contains(c)) {
                        continue;
                    }
                    if (gap || i > 0) && !row.is_empty() {
                        row.push(' ');
                    }
                    row.extend(part.chars().map(|c| c.to_ascii_uppercase()));
                }
                gap = false;
            }
            if !row.is_empty() {
                rows.push(row);
            } else if line.contains("-+-") {
                rows.push(String::new());
            }
        }
        rows
    }

    /// The one cell that goes from `.` to a stone between two drawings, as before the view.
    fn drawn_fill(before: &[String], after: &[String]) -> Option<[usize; 2]> {
        let mut filled = before
            .iter()
            .zip(after)
            .enumerate()
            .flat_map(|(r, (b, a))| {
                b.chars()
                    .zip(a.chars())
                    .enumerate()
                    .filter(|&(_, (b, a))| b == '.' && a != '.')
                    .map(move |(c, _)| [r, c])
            });
        let cell = filled.next();
        filled.next().is_none().then_some(cell).flatten()
    }

    /// Along random games of every game, the rows and the legal moves' cells are those the
    /// server drew from the terminal's picture before the view existed.
    fn agrees_with_the_drawing<G: Board>(start: G, games: usize, seed: &mut u64) {
        for _ in 0..games {
            let mut pos = start;
            loop {
                let view = PositionView::of(&pos);
                let board = drawn_cells(&pos.render());
                assert_eq!(view.rows(), board, "{pos:?}");
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                let old: Vec<Value> = moves
                    .iter()
                    .map(|&m| {
                        let after = drawn_cells(&pos.play(m).render());
                        json!({ "move": pos.format_move(m), "cell": drawn_fill(&board, &after) })
                    })
                    .collect();
                assert_eq!(legal(&view), old, "{pos:?}");
                if pos.status() != Status::Ongoing || moves.is_empty() || pos.ply() > 200 {
                    break;
                }
                *seed ^= *seed << 13;
                *seed ^= *seed >> 7;
                *seed ^= *seed << 17;
                pos = pos.play(moves[(*seed % moves.len() as u64) as usize]);
            }
        }
    }

    #[test]
    fn a_move_value_reads_back_from_its_entry() {
        for value in [
            Valuation::Exact(7),
            Valuation::Exact(-3),
            Valuation::Exact(0),
            Valuation::Proven(1),
            Valuation::Proven(0),
            Valuation::Proven(-1),
            Valuation::Heuristic(-12),
            Valuation::WinRate(0.57),
            Valuation::Unknown,
        ] {
            let m = MoveValue {
                mv: "p4".into(),
                value,
                score: matches!(value, Valuation::Exact(_)).then_some(7),
                end_ply: Some(30),
            };
            let back = read_move_value(&Value::Object(move_value(&m))).expect("reads back");
            assert_eq!(back, m, "{value:?}");
        }
        assert_eq!(read_move_value(&json!({"value": "1"})), None);
        assert_eq!(
            read_move_value(&json!({"move": "1", "value": "x", "exact": true})),
            None
        );
    }

    #[test]
    fn the_view_draws_what_the_terminal_drew() {
        let mut seed = 0x2545_f491_4f6c_dd1d;
        for spec in [
            "connect4",
            "connect4:4x4",
            "connect4:5x4:k3",
            "connect4:16x7",
            "connect4:1x5:k4",
            "popout",
            "popout:4x4",
            "cube",
            "qubic",
            "pentago",
        ] {
            let start = spec.parse::<GameSpec>().unwrap().start();
            with_game!(start, start => agrees_with_the_drawing(start, 20, &mut seed));
        }
        // Pentago positions waiting for their turn, written as boards.
        let start = crate::game::Pentago::new();
        let dots = |n| ".".repeat(n);
        for board in [format!("x{}m", dots(35)), format!("xo{}xm", dots(33))] {
            let (_, pos, _) = crate::game::read_position(start, &board).unwrap();
            agrees_with_the_drawing(pos, 1, &mut seed);
        }
    }
}
