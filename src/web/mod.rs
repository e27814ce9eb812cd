//! The web page of `inarow serve` and its small JSON API, to play and analyse every game. The
//! server only reads requests, calls the engine and writes JSON, each position's from its
//! structured view ([`json`]); the page (`web/index.html`) draws the board from the API
//! without knowing any rules. Like the command line, it reaches the library through
//! `inarow::engine` and `inarow::game` alone.

mod json;

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, Request, State};
use axum::http::StatusCode;
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use inarow::engine::play::{Level, Player};
use inarow::engine::{Limits, Options};
use inarow::game::{
    Board, GameLine, GameSpec, Notation, Player as Side, PositionView, Repetition, Status, Tactics,
    one_line, read_line, show_moves,
};
use inarow::with_game;
use serde::Deserialize;
use serde_json::{Map, Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tokio::sync::Semaphore;

/// Searches running at once: they are CPU-bound, and the rest wait their turn.
const SEARCHES: usize = 2;
/// The longest think a client may ask for, and the default.
const MAX_THINK: f64 = 10.0;
const DEFAULT_THINK: f64 = 1.0;
/// The longest query string: a move string of any game fits many times over.
const MAX_QUERY: usize = 4096;

const PAGE: &str = include_str!("../../web/index.html");

/// Serves the page and the API on `addr` until Ctrl-C.
pub fn serve(addr: SocketAddr) -> Result<(), String> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| format!("cannot start the server: {e}"))?;
    runtime.block_on(listen(addr))
}

async fn listen(addr: SocketAddr) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let bound = listener
        .local_addr()
        .map_err(|e| format!("cannot listen on {addr}: {e}"))?;
    let searches = Arc::new(Semaphore::new(SEARCHES));
    let app = Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/api/position", get(position))
        .route("/api/analyze", get(analyze))
        .route("/api/move", get(engine_move))
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page") })
        .layer(middleware::from_fn(limit_query))
        .with_state(searches);
    // The tests (and a user given port 0) read the port from this line.
    println!("inarow: serving on http://{bound}");
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            tokio::signal::ctrl_c().await.ok();
        })
        .await
        .map_err(|e| format!("server: {e}"))
}

/// Requests are GETs: no handler reads a body, so the query string is all a client can send.
async fn limit_query(request: Request, next: Next) -> Response {
    if request.uri().query().map_or(0, str::len) > MAX_QUERY {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("the query is longer than {MAX_QUERY} bytes"),
        );
    }
    next.run(request).await
}

fn error(status: StatusCode, message: &str) -> Response {
    (status, axum::Json(json!({ "error": one_line(message) }))).into_response()
}

/// A request's parameters, all optional and checked by the handlers (so that a bad one is a
/// message, not a rejection).
#[derive(Deserialize)]
struct Params {
    game: Option<String>,
    moves: Option<String>,
    engine: Option<String>,
    think: Option<String>,
}

#[derive(Copy, Clone)]
enum Ask {
    Position,
    Analyze,
    Move,
}

/// The parameters, or why they could not be read.
type Asked = Result<Query<Params>, QueryRejection>;
type Searches = State<Arc<Semaphore>>;

async fn position(params: Asked) -> Response {
    reply(params, Ask::Position, None).await
}

async fn analyze(State(searches): Searches, params: Asked) -> Response {
    reply(params, Ask::Analyze, Some(searches)).await
}

async fn engine_move(State(searches): Searches, params: Asked) -> Response {
    reply(params, Ask::Move, Some(searches)).await
}

/// Answers off the async threads, after a permit where the answer is a search.
async fn reply(params: Asked, ask: Ask, searches: Option<Arc<Semaphore>>) -> Response {
    let Query(params) = match params {
        Ok(params) => params,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e.body_text()),
    };
    let permit = match searches {
        Some(s) => match s.acquire_owned().await {
            Ok(permit) => Some(permit),
            Err(_) => return error(StatusCode::SERVICE_UNAVAILABLE, "shutting down"),
        },
        None => None,
    };
    let answer = tokio::task::spawn_blocking(move || {
        let answer = respond(&params, ask);
        drop(permit);
        answer
    })
    .await;
    match answer {
        Ok(Ok(json)) => axum::Json(json).into_response(),
        Ok(Err(message)) => error(StatusCode::BAD_REQUEST, &message),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

fn respond(params: &Params, ask: Ask) -> Result<Value, String> {
    let spec = params.game.as_deref().unwrap_or("connect4");
    let start = spec.parse::<GameSpec>()?.start();
    let moves = params.moves.as_deref().unwrap_or("");
    with_game!(start, start => {
        let line = read_line(start, moves).map_err(|e| e.to_string())?;
        let view = View { start, line: &line };
        match ask {
            Ask::Position => Ok(Value::Object(view.json())),
            Ask::Analyze | Ask::Move => {
                if view.status() != Status::Ongoing {
                    return Err(format!("{}: the game is over; no moves to analyse", show_moves(moves)));
                }
                let level = params.engine.as_deref().unwrap_or("best").parse::<Level>()?;
                let think = think(params.think.as_deref())?;
                let seed = std::time::SystemTime::now()
                    .duration_since(std::time::UNIX_EPOCH)
                    .map_or(0, |d| d.as_nanos() as u64);
                let mut player = Player::new(level, &start, Options::default(), seed)?;
                let pos = *line.position();
                Ok(match ask {
                    Ask::Move => {
                        // Only the best move needs its value: no full analysis.
                        let best = player.choose(&line, think).ok_or("the engine found no move")?;
                        json!({
                            "move": pos.format_move(best.0),
                            "moves": view.text_of(&line.played(best.0)),
                            "value": best.1.to_string(),
                            "exact": best.1.is_exact(),
                        })
                    }
                    _ => {
                        let analysis = player.analyse(&line, Limits::within(think));
                        let mut json = view.json();
                        json.insert("source".into(), json!(analysis.source));
                        json.insert("analysis".into(), analysis.moves.iter().map(|&(m, v)| json!({
                            "move": pos.format_move(m),
                            "value": v.to_string(),
                            "exact": v.is_exact(),
                        })).collect());
                        json.insert("pv".into(), json!(format_line(pos, &analysis.pv)));
                        Value::Object(json)
                    }
                })
            }
        }
    })
}

/// Seconds to think: default [`DEFAULT_THINK`], at most [`MAX_THINK`].
fn think(text: Option<&str>) -> Result<Duration, String> {
    let Some(text) = text else {
        return Ok(Duration::from_secs_f64(DEFAULT_THINK));
    };
    match text.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= MAX_THINK => Ok(Duration::from_secs_f64(t)),
        _ => Err(format!(
            "think '{text}': must be a number of seconds above 0, at most {MAX_THINK}"
        )),
    }
}

/// The moves of a line from `pos`, each written in the position it is played in.
fn format_line<G: Notation>(mut pos: G, line: &[G::Move]) -> Vec<String> {
    line.iter()
        .map(|&m| {
            let text = pos.format_move(m);
            pos = pos.play(m);
            text
        })
        .collect()
}

/// A position read from a request.
struct View<'a, G: Notation> {
    start: G,
    line: &'a GameLine<G>,
}

impl<G: Notation + Tactics + Board> View<'_, G> {
    /// The status, with a repetition's draw in games that repeat (as `inarow play` judges it).
    fn status(&self) -> Status {
        self.line.status(Repetition::default())
    }

    /// A line as a move string; `None` from a board given whole, which has no move string from
    /// the start.
    fn text_of(&self, line: &GameLine<G>) -> Option<String> {
        (*line.start() == self.start).then(|| line.move_string())
    }

    /// What the page needs to draw the position and offer its moves: the board as rows of
    /// cells, each legal move with the cell it fills where that is one cell, and the whole
    /// structured view.
    fn json(&self) -> Map<String, Value> {
        let pos = *self.line.position();
        let status = self.status();
        let mut view = PositionView::of(&pos);
        if status != Status::Ongoing {
            view.moves.clear();
        }
        let json = json!({
            "game": self.start.name(),
            "moves": self.text_of(self.line),
            "line": format_line(*self.line.start(), self.line.moves()),
            "to_move": pos.side_to_move().name(),
            "status": match status {
                Status::Ongoing => "ongoing",
                Status::Win(Side::First) => "first wins",
                Status::Win(Side::Second) => "second wins",
                Status::Draw => "draw",
            },
            "board": view.rows(),
            "legal": json::legal(&view),
            "view": json::view(&view),
        });
        match json {
            Value::Object(map) => map,
            _ => Map::new(),
        }
    }
}
