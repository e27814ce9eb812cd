//! The server: it only reads requests, calls the session and writes JSON, each position's from
//! its structured view ([`inarow::wire`]); the page (`web/index.html`) draws the board from the
//! API without knowing any rules. The kind of the library's errors
//! ([`Error`](inarow::Error)) sets the status of an answer ([`status`]).

use inarow::wire;

use axum::Router;
use axum::body::Bytes;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::{get, post};
use inarow::Error;
use inarow::game::one_line;
use inarow::limits::{Cancel, Limits};
use inarow::session::{self, Session, Settings};
use serde::Deserialize;
use serde_json::{Value, json};
use std::net::SocketAddr;
use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;
use tokio::sync::Semaphore;

/// Searches running at once: they are CPU-bound, and the rest wait their turn, first come first
/// served.
const SEARCHES: usize = 2;
/// Searches that may wait for a turn; more are refused at once (503), so that a burst of
/// requests cannot queue work without end.
const WAITING: usize = 16;
/// Warm engines kept between requests (each holds its table): the analyses of a game's
/// positions in turn reuse what the previous ones learnt.
const WARM_ENGINES: usize = 4;
/// The longest think a client may ask for, and the default.
const MAX_THINK: f64 = 10.0;
const DEFAULT_THINK: f64 = 1.0;
/// The longest query string: a move string of any game fits many times over.
const MAX_QUERY: usize = 4096;

const PAGE: &str = include_str!("../../../web/index.html");

/// Serves the page and the API on `addr` until Ctrl-C, each search on `threads` threads
/// (one in games whose positions repeat).
///
/// # Errors
/// [`Error::Input`] when `addr` cannot be listened on, [`Error::Internal`] when the server
/// cannot start or fails while serving.
pub fn serve(addr: SocketAddr, threads: usize) -> Result<(), Error> {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(|e| Error::Internal(format!("cannot start the server: {e}")))?;
    runtime.block_on(listen(addr, threads))
}

/// What the requests share: turns at searching and the warm engines.
struct Shared {
    searches: Arc<Semaphore>,
    waiting: AtomicUsize,
    session: Session,
    threads: usize,
}

async fn listen(addr: SocketAddr, threads: usize) -> Result<(), Error> {
    let cannot_listen = |e: std::io::Error| Error::Input(format!("cannot listen on {addr}: {e}"));
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .map_err(cannot_listen)?;
    let bound = listener.local_addr().map_err(cannot_listen)?;
    let shared = Arc::new(Shared {
        searches: Arc::new(Semaphore::new(SEARCHES)),
        waiting: AtomicUsize::new(0),
        session: Session::new(WARM_ENGINES, seed()),
        threads,
    });
    let app = Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/api/position", get(position))
        .route("/api/analyze", get(analyze))
        .route("/api/move", get(engine_move))
        .route("/api/draw", post(draw))
        .method_not_allowed_fallback(|| async {
            error(
                StatusCode::METHOD_NOT_ALLOWED,
                "the API answers GET requests (and POST for /api/draw)",
            )
        })
        .fallback(|| async { error(StatusCode::NOT_FOUND, "no such page") })
        .layer(middleware::from_fn(limit_query))
        .with_state(shared);
    // The tests (and a user given port 0) read the port from this line.
    println!("inarow: serving on http://{bound}");
    axum::serve(listener, app)
        .with_graceful_shutdown(async {
            tokio::signal::ctrl_c().await.ok();
        })
        .await
        .map_err(|e| Error::Internal(format!("server: {e}")))
}

/// Requests are GETs but for `/api/draw`, whose JSON body [`draw`] reads: the query string is
/// all the other handlers read.
async fn limit_query(request: Request, next: Next) -> Response {
    if request.uri().query().map_or(0, str::len) > MAX_QUERY {
        return error(
            StatusCode::BAD_REQUEST,
            &format!("the query is longer than {MAX_QUERY} bytes"),
        );
    }
    next.run(request).await
}

/// An error's answer: `status` and the JSON body `{"error": "<one line>"}`; a 503 (busy) also
/// says when to try again (`Retry-After: 1`, in seconds).
fn error(status: StatusCode, message: &str) -> Response {
    let mut response = (status, axum::Json(json!({ "error": one_line(message) }))).into_response();
    if status == StatusCode::SERVICE_UNAVAILABLE {
        response
            .headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from_static("1"));
    }
    response
}

/// The status of a library error, by its kind: what the client sent is wrong (a game spec, a
/// move string, a value: 400); it asks for what this game, engine or setting does not do, or for
/// an answer its own limits stopped (422); the server cannot hold the search now (memory: 503,
/// as when it is busy); or the fault is the server's (its files, a bug: 500).
fn status(error: &Error) -> StatusCode {
    match error {
        Error::Spec(_) | Error::Move(_) | Error::Input(_) => StatusCode::BAD_REQUEST,
        Error::Unsupported(_) | Error::Search(_) => StatusCode::UNPROCESSABLE_ENTITY,
        Error::Memory(_) => StatusCode::SERVICE_UNAVAILABLE,
        Error::File(_) | Error::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        // A kind added to the library later: the server's fault until it is placed here.
        _ => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// A request's parameters, all optional and checked by the handlers (so that a bad one is a
/// message, not a rejection).
#[derive(Deserialize)]
struct Params {
    game: Option<String>,
    moves: Option<String>,
    level: Option<String>,
    /// `level`'s first name, still read.
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
type Server = State<Arc<Shared>>;

async fn position(State(shared): Server, params: Asked) -> Response {
    reply(shared, params, Ask::Position).await
}

async fn analyze(State(shared): Server, params: Asked) -> Response {
    reply(shared, params, Ask::Analyze).await
}

async fn engine_move(State(shared): Server, params: Asked) -> Response {
    reply(shared, params, Ask::Move).await
}

/// The position drawn as SVG by the library's drawer ([`wire::draw`]), for the page: the body
/// `{game, moves, values, weak, interactive, selected, numbers}` as JSON, the answer
/// `image/svg+xml`; a body that is not such JSON, or a bad spec or move string, a 400 with the
/// JSON error. Drawing takes no search: it is answered at once, on the async threads.
async fn draw(body: Bytes) -> Response {
    let request: Value = match serde_json::from_slice(&body) {
        Ok(request) => request,
        Err(e) => {
            return error(
                StatusCode::BAD_REQUEST,
                &format!("draw: the body is not JSON: {e}"),
            );
        }
    };
    match wire::draw(&request) {
        Ok(svg) => (
            [(header::CONTENT_TYPE, "image/svg+xml; charset=utf-8")],
            svg,
        )
            .into_response(),
        Err(e) => error(status(&e), &e.to_string()),
    }
}

/// Answers off the async threads; a search first waits its turn (refused when too many wait)
/// and stops as soon as its client has gone.
async fn reply(shared: Arc<Shared>, params: Asked, ask: Ask) -> Response {
    let Query(params) = match params {
        Ok(params) => params,
        Err(e) => return error(StatusCode::BAD_REQUEST, &e.body_text()),
    };
    let permit = match ask {
        Ask::Position => None,
        Ask::Analyze | Ask::Move => {
            let waiting = Waiting::enter(&shared.waiting);
            if waiting.count > WAITING {
                return error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server is busy: too many searches are waiting",
                );
            }
            match shared.searches.clone().acquire_owned().await {
                Ok(permit) => Some(permit),
                Err(_) => return error(StatusCode::SERVICE_UNAVAILABLE, "shutting down"),
            }
        }
    };
    // Cancelled when this future is dropped before the answer is in: the client has gone.
    let stop = Cancel::new();
    let mut gone = Gone(Some(stop.clone()));
    let worker = shared.clone();
    let answer = tokio::task::spawn_blocking(move || {
        let answer = respond(&worker, &params, ask, stop);
        drop(permit);
        answer
    })
    .await;
    gone.0 = None;
    match answer {
        Ok(Ok(json)) => axum::Json(json).into_response(),
        Ok(Err(e)) => error(status(&e), &e.to_string()),
        Err(e) => error(StatusCode::INTERNAL_SERVER_ERROR, &e.to_string()),
    }
}

/// Counts a request among those waiting for a turn while it lives.
struct Waiting<'a> {
    counter: &'a AtomicUsize,
    count: usize,
}

impl<'a> Waiting<'a> {
    fn enter(counter: &'a AtomicUsize) -> Waiting<'a> {
        let count = counter.fetch_add(1, Ordering::SeqCst) + 1;
        Waiting { counter, count }
    }
}

impl Drop for Waiting<'_> {
    fn drop(&mut self) {
        self.counter.fetch_sub(1, Ordering::SeqCst);
    }
}

/// Cancels its token when dropped holding it: the request's future went away unanswered.
struct Gone(Option<Cancel>);

impl Drop for Gone {
    fn drop(&mut self) {
        if let Some(stop) = &self.0 {
            stop.cancel();
        }
    }
}

fn respond(shared: &Shared, params: &Params, ask: Ask, stop: Cancel) -> Result<Value, Error> {
    let game = session::game(params.game.as_deref().unwrap_or("connect4"))?;
    let pos = game.read(params.moves.as_deref().unwrap_or(""))?;
    if let Ask::Position = ask {
        return Ok(Value::Object(wire::position(pos.as_ref())));
    }
    if let Some(over) = pos.over() {
        return Err(over);
    }
    let level = wire::level(params.level.as_deref(), params.engine.as_deref())?;
    let settings = game.fitted(Settings {
        level,
        threads: shared.threads,
        ..Settings::default()
    });
    let think = think(params.think.as_deref())?;
    let limits = Limits {
        interrupt: Some(stop),
        ..Limits::within(think)
    };
    let answer = shared
        .session
        .with_agent(game.as_ref(), &settings, |agent| match ask {
            // Only the best move needs its value: no full analysis.
            Ask::Move => agent
                .best_move(pos.as_ref(), &limits)
                .map(|m| wire::engine_move(&m)),
            _ => agent
                .analyze(pos.as_ref(), &limits)
                .map(|analysis| Value::Object(wire::analysis(pos.as_ref(), &analysis))),
        })??;
    Ok(answer)
}

/// A seed from the clock, so that the engines that choose at random differ from run to run.
fn seed() -> u64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64)
}

/// Seconds to think: default [`DEFAULT_THINK`], at most [`MAX_THINK`].
fn think(text: Option<&str>) -> Result<Duration, Error> {
    let Some(text) = text else {
        return Ok(Duration::from_secs_f64(DEFAULT_THINK));
    };
    let value = text.trim().parse::<f64>().map_err(|_| {
        Error::Input(format!(
            "think '{text}': must be a positive number of seconds, at most {MAX_THINK}"
        ))
    })?;
    session::seconds("think", value, Some(MAX_THINK))
}
