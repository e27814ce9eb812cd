//! inarow in the browser and in Node: the library compiled to WebAssembly behind a small
//! JavaScript API (docs/browser.md). Every answer is the JSON `inarow serve` gives for the same
//! question (the library's wire format, [`inarow::wire`]), so the page reads either
//! backend alike. Bad input is a thrown `Error` with the library's one-line message.
//!
//! The web has no threads: each instance searches on one, and a page runs several instances
//! (Web Workers), one move of a position each ([`analyze_move`]).

#[cfg(target_arch = "wasm32")]
mod fresh_memory;

#[cfg(target_arch = "wasm32")]
#[global_allocator]
static ALLOCATOR: fresh_memory::FreshMemory = fresh_memory::FreshMemory::new();

use inarow::limits::Limits;
use inarow::session::{self, Game, Line, Session, Settings, Strategy};
use inarow::session::{Algorithm, Driver, Level};
use inarow::wire;
use serde_json::{Value, json};
use std::cell::RefCell;
use std::sync::Arc;
use std::time::Duration;
use wasm_bindgen::prelude::*;

/// The memory budget of each table when none is asked, in MiB: small enough for a tab (the
/// page runs one instance per core).
const DEFAULT_MEMORY_MB: usize = 64;
/// The warm engines' alpha-beta table, in MiB (at most the budget): smaller than the native
/// default (64, which `solve` and `bench` keep), as an engine's first searches wait for the
/// first touch of its table's pages, in each worker of a fresh page (in Node the first
/// analysis of a 7x6 move spent 64 ms storing into a 16 MiB table, 21 ms into 4 MiB; the
/// static page's fresh loads of 7x6 positions took 13 % less). The page's searches lose little:
/// 7x6 positions of 8 stones took the same nodes (0.3-1.8 M), one of 6 stones 9 % more (25 M)
/// in the same time.
const TABLE_MB: usize = 4;
/// The most a caller may ask: wasm32 memory ends at 4 GiB.
const MAX_MEMORY_MB: usize = 3584;
/// The think time when none is asked, and the most, in seconds.
const DEFAULT_THINK: f64 = 1.0;
const MAX_THINK: f64 = 3600.0;
/// Warm engines kept between calls (each holds its table): the positions of one game in turn
/// reuse what the earlier searches learnt.
const WARM_ENGINES: usize = 2;

/// What a call may set; every field optional.
#[derive(Clone, Debug)]
struct Asked {
    think: Option<Duration>,
    nodes: Option<u64>,
    level: Level,
    memory_mb: usize,
    progress: Option<js_sys::Function>,
    /// `solve` and `bench`: the exact method (`None`: the game's default) and its root driver.
    algorithm: Option<Algorithm>,
    driver: Driver,
    /// `solve` and `bench`: win / draw / loss only.
    weak: bool,
}

impl Asked {
    /// Reads `{think, nodes, level (or engine, its old name), memoryMb, progress}` from a JS object (or undefined).
    fn read(options: &JsValue, default_think: Option<f64>) -> Result<Asked, String> {
        let get = |name: &str| -> JsValue {
            if options.is_object() {
                js_sys::Reflect::get(options, &JsValue::from_str(name))
                    .unwrap_or(JsValue::UNDEFINED)
            } else {
                JsValue::UNDEFINED
            }
        };
        let number = |name: &str| -> Result<Option<f64>, String> {
            let v = get(name);
            if v.is_undefined() || v.is_null() {
                return Ok(None);
            }
            v.as_f64()
                .map(Some)
                .ok_or_else(|| format!("{name}: must be a number"))
        };
        if !options.is_undefined() && !options.is_null() && !options.is_object() {
            return Err("options: must be an object".into());
        }
        let think = number("think")?
            .or(default_think)
            .map(|t| session::seconds("think", t, Some(MAX_THINK)))
            .transpose()
            .map_err(|e| e.to_string())?;
        let nodes = match number("nodes")? {
            None => None,
            Some(n) if n >= 1.0 && n.fract() == 0.0 => Some(n as u64),
            Some(n) => return Err(format!("nodes {n}: must be a whole number above 0")),
        };
        let memory_mb = match number("memoryMb")? {
            None => DEFAULT_MEMORY_MB,
            Some(m) if m >= 1.0 && m <= MAX_MEMORY_MB as f64 && m.fract() == 0.0 => m as usize,
            Some(m) => {
                return Err(format!(
                    "memoryMb {m}: must be a whole number of MiB from 1 to {MAX_MEMORY_MB}"
                ));
            }
        };
        let level = wire::level(
            get("level").as_string().as_deref(),
            get("engine").as_string().as_deref(),
        )
        .map_err(|e| e.to_string())?;
        let progress = match get("progress") {
            v if v.is_undefined() || v.is_null() => None,
            v => Some(
                v.dyn_into::<js_sys::Function>()
                    .map_err(|_| "progress: must be a function".to_string())?,
            ),
        };
        let algo = get("algo").as_string();
        let algorithm = algo
            .as_deref()
            .map(str::parse::<Algorithm>)
            .transpose()
            .map_err(|e| e.to_string())?;
        let driver = algo
            .as_deref()
            .and_then(|a| a.parse::<Driver>().ok())
            .unwrap_or(Driver::Gallop);
        let weak = match get("weak") {
            v if v.is_undefined() || v.is_null() => false,
            v => v.as_bool().ok_or("weak: must be true or false")?,
        };
        Ok(Asked {
            think,
            nodes,
            level,
            memory_mb,
            progress,
            algorithm,
            driver,
            weak,
        })
    }

    fn limits(&self) -> Limits {
        Limits {
            time: self.think,
            nodes: self.nodes,
            interrupt: None,
        }
    }

    /// The warm engines' settings: one thread, every table within the memory budget, the
    /// alpha-beta table [`TABLE_MB`].
    fn settings(&self) -> Settings {
        let default = Settings::default();
        Settings {
            level: self.level,
            table_mb: TABLE_MB.min(self.memory_mb),
            memory_mb: self.memory_mb,
            ..default
        }
    }

    /// [`Asked::settings`] with the exact method and `weak`, and the native command's table
    /// (`solve`, `bench`: a fresh engine, as `inarow solve` runs).
    fn exact_settings(&self) -> Settings {
        Settings {
            algorithm: self.algorithm,
            driver: self.driver,
            weak: self.weak,
            table_mb: Settings::default().table_mb.min(self.memory_mb),
            ..self.settings()
        }
    }
}

thread_local! {
    /// Warm engines by game, level and budget (made afresh when a strategy is installed).
    static SESSION: RefCell<Session> = RefCell::new(new_session());
}

fn new_session() -> Session {
    Session::new(WARM_ENGINES, js_sys::Math::random().to_bits())
}

/// Runs `f` with a warm engine of the asked settings for the game.
fn with_engine<R>(
    game: &dyn Game,
    asked: &Asked,
    f: impl FnOnce(&mut dyn session::Agent) -> R,
) -> Result<R, String> {
    SESSION
        .with(|s| s.borrow().with_agent(game, &asked.settings(), f))
        .map_err(|e| e.to_string())
}

/// A game and a position of it.
type GameAndPosition = (Arc<dyn Game>, Arc<dyn Line>);

/// A game and a position of it, from its spec (`connect4`, `popout:6x5`, `cube`, `qubic`,
/// `pentago`, ...; empty: Connect Four) and a move string.
fn read(game: &str, moves: &str) -> Result<GameAndPosition, String> {
    let game = session::game(game).map_err(|e| e.to_string())?;
    let pos = game.read(moves).map_err(|e| e.to_string())?;
    Ok((game, pos))
}

/// The position, or the error of asking a finished game for a move.
fn ongoing(pos: &dyn Line) -> Result<(), String> {
    pos.over().map_or(Ok(()), |e| Err(e.to_string()))
}

fn js(value: Value) -> Result<JsValue, JsError> {
    js_sys::JSON::parse(&value.to_string()).map_err(|_| JsError::new("the answer is not JSON"))
}

fn answer(result: Result<Value, String>) -> Result<JsValue, JsError> {
    result.map_err(|message| failure(&message)).and_then(js)
}

/// A thrown `Error` with the library's one-line message.
fn failure(message: &str) -> JsError {
    JsError::new(&inarow::game::one_line(message))
}

/// A JS array of JSON values (analysis entries), or `bad` as the error.
fn json_array(array: &JsValue, bad: &str) -> Result<Vec<Value>, String> {
    match json_of(array, bad)? {
        Value::Array(values) => Ok(values),
        _ => Err(bad.to_string()),
    }
}

/// A JS value as JSON, or `bad` as the error.
fn json_of(value: &JsValue, bad: &str) -> Result<Value, String> {
    js_sys::JSON::stringify(value)
        .ok()
        .and_then(|text| text.as_string())
        .and_then(|text| serde_json::from_str(&text).ok())
        .ok_or_else(|| bad.to_string())
}

/// The position after `moves` (a move string of the game, or a whole board as `inarow`
/// reads it): the JSON of `GET /api/position`.
#[wasm_bindgen]
pub fn position(game: &str, moves: &str) -> Result<JsValue, JsError> {
    answer((|| {
        let (_, pos) = read(game, moves)?;
        Ok(Value::Object(wire::position(pos.as_ref())))
    })())
}

/// Every move of the position after `moves` with its value, best first: the JSON of
/// `GET /api/analyze`. Options: `think` (seconds, default 1), `nodes`, `level` (`best`,
/// `alphabeta`, `mcts`, `depthN`, `random`), `memoryMb` (default 64), and `progress`, a
/// function called with each move's entry as it is valued (the analysis then goes move by
/// move, each with the whole think time).
#[wasm_bindgen]
pub fn analyze(game: &str, moves: &str, options: JsValue) -> Result<JsValue, JsError> {
    answer((|| {
        let asked = Asked::read(&options, Some(DEFAULT_THINK))?;
        let (game, pos) = read(game, moves)?;
        ongoing(pos.as_ref())?;
        analyze_position(game.as_ref(), pos.as_ref(), &asked)
    })())
}

fn analyze_position(game: &dyn Game, pos: &dyn Line, asked: &Asked) -> Result<Value, String> {
    let mut json = wire::position(pos);
    if let Some(progress) = &asked.progress {
        // In the order the game generates its moves, as the analysis values them.
        let legal: Vec<String> = pos
            .view_in_play_order()
            .moves
            .into_iter()
            .map(|m| m.text)
            .collect();
        let mut entries = Vec::new();
        for (i, mv) in legal.iter().enumerate() {
            let entry = move_entry(game, pos, mv, asked)?;
            let report = json!({ "entry": entry, "done": i + 1, "total": legal.len() });
            progress
                .call1(
                    &JsValue::NULL,
                    &js(report).map_err(|_| "progress: bad JSON")?,
                )
                .map_err(|e| format!("progress: {}", js_message(&e)))?;
            entries.push(entry);
        }
        json.extend(wire::assemble(&entries, "move by move"));
        return Ok(Value::Object(json));
    }
    let max_bytes = (MAX_MEMORY_MB as u64) << 20;
    let (analysis, (needed, fits_from)) = with_engine(game, asked, |solver| {
        let analysis = solver.analyze(pos, &asked.limits());
        (analysis, solver.memory_needed(pos, max_bytes))
    })?;
    let analysis = analysis.map_err(|e| e.to_string())?;
    wire::add_analysis(&mut json, &analysis);
    // A tab's budget is small: where the exact solver needs more, say how much, so that the
    // page can ask the player before it grows.
    // Beyond what a tab may have, there is nothing to ask: say from how many stones exact values
    // fit in one instead.
    let needed_mb = needed.map(|bytes| bytes.div_ceil(1 << 20) as usize);
    if let Some(mb) = needed_mb
        && mb > asked.memory_mb
        && analysis.moves.iter().any(|m| !m.exact())
    {
        match fits_from {
            Some(stones) if mb > MAX_MEMORY_MB => {
                json.insert("exact_from_stones".into(), json!(stones));
            }
            _ => {
                json.insert("memory_needed_mb".into(), json!(mb));
            }
        }
    }
    Ok(Value::Object(json))
}

fn js_message(e: &JsValue) -> String {
    e.dyn_ref::<js_sys::Error>()
        .map(|e| String::from(e.message()))
        .or_else(|| e.as_string())
        .unwrap_or_else(|| "failed".into())
}

/// One move valued alone, as its analysis entry with its line ([`wire::move_analysis`]).
fn move_entry(game: &dyn Game, pos: &dyn Line, mv: &str, asked: &Asked) -> Result<Value, String> {
    let valued = with_engine(game, asked, |solver| {
        solver.analyze_move(pos, mv, &asked.limits())
    })?
    .map_err(|e| e.to_string())?;
    Ok(Value::Object(wire::move_analysis(&valued)))
}

/// One move of the position after `moves` valued alone (what each Web Worker of the page
/// answers): `{move, value, exact, score, outcome, end_ply, line, rank, weak}`, the fields of
/// an entry of `analyze`'s `analysis` with the move's expected line, a sort key (`rank`,
/// compare as pairs, higher first) and whether the engine gives only win / draw / loss (the
/// analysis' `weak`). Options as [`analyze`].
#[wasm_bindgen(js_name = analyzeMove)]
pub fn analyze_move(
    game: &str,
    moves: &str,
    mv: &str,
    options: JsValue,
) -> Result<JsValue, JsError> {
    answer((|| {
        let asked = Asked::read(&options, Some(DEFAULT_THINK))?;
        let (game, pos) = read(game, moves)?;
        ongoing(pos.as_ref())?;
        move_entry(game.as_ref(), pos.as_ref(), mv, &asked)
    })())
}

/// The legal moves of the position after `moves` by their images under the board's symmetries:
/// `{move: representative}`, each move mapped to the first legal move (in the game's order)
/// whose position is the same as its own up to a symmetry (its own where none is), and whose
/// value is therefore the same. The page values one move of each class and copies its entry to
/// the others, so that mirror-image moves agree (the library's canonical keys, as its tables
/// and books key positions).
#[wasm_bindgen(js_name = symmetricMoves)]
pub fn symmetric_moves(game: &str, moves: &str) -> Result<JsValue, JsError> {
    answer((|| {
        let (_, pos) = read(game, moves)?;
        let mut seen: Vec<(u128, inarow::game::Status, String)> = Vec::new();
        let mut classes = serde_json::Map::new();
        for mv in pos.legal_moves() {
            let child = pos.play(&mv).map_err(|e| e.to_string())?;
            let (key, status) = (child.canonical_key(), child.status());
            let first = match seen.iter().find(|(k, s, _)| *k == key && *s == status) {
                Some((_, _, first)) => first.clone(),
                None => {
                    seen.push((key, status, mv.clone()));
                    mv.clone()
                }
            };
            classes.insert(mv, Value::from(first));
        }
        Ok(Value::Object(classes))
    })())
}

/// The position after `moves` as an SVG picture (the library's drawer, as `inarow draw`
/// writes it, and `POST /api/draw` for the served page), with `values` on its moves: an array
/// of analysis entries (`analyze`'s `analysis`, or `analyzeMove` answers; `null` or absent: the
/// board alone). `options` (optional) as `/api/draw`'s fields: `weak`, `interactive` (the
/// page's board: what it clicks and hovers), `selected` (Pentago's chosen cell), `numbers`
/// (`[cell, number]` pairs) and `width` (the room, in pixels); with none, byte for byte
/// `inarow draw`'s picture.
#[wasm_bindgen]
pub fn draw(game: &str, moves: &str, values: JsValue, options: JsValue) -> Result<String, JsError> {
    let drawn = (|| {
        let absent = |v: &JsValue| v.is_null() || v.is_undefined();
        let mut request = if absent(&options) {
            serde_json::Map::new()
        } else if options.is_object() && !js_sys::Array::is_array(&options) {
            match json_of(&options, "draw: the options must be an object")? {
                Value::Object(map) => map,
                _ => return Err("draw: the options must be an object".to_string()),
            }
        } else {
            return Err("draw: the options must be an object".to_string());
        };
        for key in ["game", "moves", "values"] {
            if request.contains_key(key) {
                return Err(format!("draw: {key} is an argument, not an option"));
            }
        }
        request.insert("game".into(), Value::from(game));
        request.insert("moves".into(), Value::from(moves));
        let values = if absent(&values) {
            Value::Null
        } else {
            Value::Array(json_array(
                &values,
                "draw: the values must be an array of analysis entries",
            )?)
        };
        request.insert("values".into(), values);
        wire::draw(&Value::Object(request)).map_err(|e| e.to_string())
    })();
    drawn.map_err(|message: String| failure(&message))
}

/// An analysis put together from moves valued one by one (`analyzeMove`'s answers in the
/// legal moves' order, `null` for a move not valued yet): `{source, weak, analysis, pv}` best
/// first, with `partial: {done, total}` while some wait, as the library assembles them
/// ([`wire::assemble`]); `by` says what valued them ("a move per worker").
#[wasm_bindgen]
pub fn assemble(entries: JsValue, by: &str) -> Result<JsValue, JsError> {
    answer((|| {
        let entries = json_array(
            &entries,
            "assemble: the entries must be an array of analyzeMove answers",
        )?;
        Ok(Value::Object(wire::assemble(&entries, by)))
    })())
}

/// The engine's move in the position after `moves`: the JSON of `GET /api/move`
/// (`{move, moves, value, exact}`). Options: `level`, `think`, `nodes`, `memoryMb`.
#[wasm_bindgen(js_name = engineMove)]
pub fn engine_move(game: &str, moves: &str, options: JsValue) -> Result<JsValue, JsError> {
    answer((|| {
        let asked = Asked::read(&options, Some(DEFAULT_THINK))?;
        let (game, pos) = read(game, moves)?;
        ongoing(pos.as_ref())?;
        let best = with_engine(game.as_ref(), &asked, |solver| {
            solver.best_move(pos.as_ref(), &asked.limits())
        })?
        .map_err(|e| e.to_string())?;
        Ok(wire::engine_move(&best))
    })())
}

/// The exact value of the position after `moves` for the side to move, as `inarow solve
/// --json` gives it ([`wire::solution`]: `{game, moves, score, outcome, exact, plies,
/// best_moves, pv, nodes, seconds, stopped, proven}`; `score` null when a limit stopped the
/// search first, `stopped` then says which, and `proven` is `[lo, hi]`, the bounds on the exact
/// score proven by then, or null; `best_moves` and `pv` null: not asked for here). Options: `think` (default: none), `nodes`,
/// `memoryMb` (Pentago from 18 stones needs about 490), `algo` (as `inarow solve --algo`:
/// gallop, bisect, mtdf, deepening, ab, pns, pn2, dfpn, minimax, tss; default the game's
/// fastest), `weak` (win / draw / loss only).
#[wasm_bindgen]
pub fn solve(game: &str, moves: &str, options: JsValue) -> Result<JsValue, JsError> {
    answer((|| {
        let asked = Asked::read(&options, None)?;
        let (game, pos) = read(game, moves)?;
        // A fresh engine, as `inarow solve` runs: its nodes are the command's.
        let mut solver = game
            .agent(&asked.exact_settings(), 1)
            .map_err(|e| e.to_string())?;
        let ask = session::Ask {
            limits: asked.limits(),
            ..session::Ask::default()
        };
        let report = solver
            .solve(pos.as_ref(), &ask)
            .map_err(|e| e.to_string())?;
        let moves = moves.trim().trim_start_matches('-');
        Ok(Value::Object(wire::solution(&game.name(), moves, &report)))
    })())
}

/// Readies the warm engine that `analyze`, `analyzeMove` and `engineMove` use for `game` with
/// these options (`level`, `memoryMb`): its table allocated and touched, its book read, so
/// that the first search does not wait for them (the page's workers call it as they start).
#[wasm_bindgen]
pub fn prepare(game: &str, options: JsValue) -> Result<(), JsError> {
    answer((|| {
        let asked = Asked::read(&options, None)?;
        let game = session::game(game).map_err(|e| e.to_string())?;
        with_engine(game.as_ref(), &asked, |_| ())?;
        Ok(Value::Null)
    })())
    .map(|_| ())
}

/// Gives the engine a game's winning strategy book, read from the bytes of its file: Qubic's
/// (`qubic.strategy`, which this package leaves out as it would make the `.wasm` four times
/// larger; the static site ships it beside the page). The engines made from now on play and
/// value moves from it as the native engine does from the one built in; the warm engines are
/// dropped. Answers `{game, prover, entries}`; throws for a damaged book or one of another
/// game.
#[wasm_bindgen(js_name = useStrategy)]
pub fn use_strategy(game: &str, bytes: &[u8]) -> Result<JsValue, JsError> {
    answer((|| {
        let name = session::game(game).map_err(|e| e.to_string())?.name();
        let strategy = Strategy::parse(bytes, &format!("{name}.strategy"), &name)
            .map_err(|e| e.to_string())?;
        let about = json!({
            "game": strategy.game(),
            "prover": strategy.prover().name(),
            "entries": strategy.len(),
        });
        strategy.install();
        SESSION.with(|s| {
            *s.try_borrow_mut()
                .map_err(|_| "a strategy cannot be installed during a search")? = new_session();
            Ok::<_, String>(())
        })?;
        Ok(about)
    })())
}

/// The library's version (the crate's).
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Solves the `MOVES EXPECTED` lines of a benchmark file's `text` as `inarow bench FILE` does
/// (the same library function: the table cleared before each position, no book), for timing
/// the engine here against the native one: `{summary, n, correct, mean_us, mean_nodes,
/// problems}`, `summary` the native command's line. Options: `memoryMb`, `think`, `nodes`
/// (each position's limits), `algo`, `weak`.
#[wasm_bindgen]
pub fn bench(game: &str, text: &str, options: JsValue) -> Result<JsValue, JsError> {
    answer((|| {
        let asked = Asked::read(&options, None)?;
        let game = session::game(game).map_err(|e| e.to_string())?;
        let mut solver = game
            .agent(&asked.exact_settings(), 1)
            .map_err(|e| e.to_string())?;
        let (tally, problems) = session::bench(
            game.as_ref(),
            solver.as_mut(),
            "bench",
            text,
            None,
            &asked.limits(),
            &mut || {},
        )
        .map_err(|e| e.to_string())?;
        let n = tally.n.max(1) as f64;
        Ok(json!({
            "summary": tally.summary("bench"),
            "n": tally.n,
            "correct": tally.correct,
            "mean_us": tally.total_us / n,
            "mean_nodes": tally.nodes as f64 / n,
            "problems": problems,
        }))
    })())
}
