//! The web page of `inarow serve` and its small JSON API, to play and analyse every game. The
//! server only reads requests, calls the engine and writes JSON, each position's from its
//! structured view ([`json`]); the page (`web/index.html`) draws the board from the API
//! without knowing any rules. Like the command line, it reaches the library through
//! `inarow::engine` and `inarow::game` alone; the kind of the library's errors
//! ([`Error`](inarow::engine::Error)) sets the status of an answer ([`status`]).

mod json;

use axum::Router;
use axum::extract::rejection::QueryRejection;
use axum::extract::{Query, Request, State};
use axum::http::{HeaderValue, StatusCode, header};
use axum::middleware::{self, Next};
use axum::response::{Html, IntoResponse, Response};
use axum::routing::get;
use inarow::engine::Error;
use inarow::engine::Limits;
use inarow::engine::Options;
use inarow::engine::play::{Level, Player};
use inarow::game::{GameSpec, Notation, Status, Tactics, one_line, read_line, show_moves};
use inarow::with_game;
use json::{View, analysis_json};
use serde::Deserialize;
use serde_json::{Value, json};
use std::any::Any;
use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
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

const PAGE: &str = include_str!("../../web/index.html");

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

/// What the requests share: turns at searching, the flags that stop a search whose client has
/// gone, and the warm engines.
struct Shared {
    searches: Arc<Semaphore>,
    waiting: AtomicUsize,
    flags: Arc<Flags>,
    engines: Mutex<Vec<(String, Box<dyn Any + Send>)>>,
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
        flags: Flags::new(SEARCHES + WAITING),
        engines: Mutex::new(Vec::new()),
        threads,
    });
    let app = Router::new()
        .route("/", get(|| async { Html(PAGE) }))
        .route("/api/position", get(position))
        .route("/api/analyze", get(analyze))
        .route("/api/move", get(engine_move))
        .method_not_allowed_fallback(|| async {
            error(
                StatusCode::METHOD_NOT_ALLOWED,
                "the API answers GET requests only",
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
    let Some(flag) = shared.flags.take() else {
        return error(StatusCode::SERVICE_UNAVAILABLE, "the server is busy");
    };
    // Set when this future is dropped before the answer is in: the client has gone.
    let mut gone = Gone(Some(flag.clone()));
    let worker = shared.clone();
    let answer = tokio::task::spawn_blocking(move || {
        let answer = respond(&worker, &params, ask, flag.get());
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

/// Stop flags for the searches under way: a search's limits hold a `&'static` flag, so they
/// come from a pool made once, and each goes back (cleared) when its request and its search
/// have both let it go.
struct Flags {
    free: Mutex<Vec<&'static AtomicBool>>,
}

impl Flags {
    fn new(n: usize) -> Arc<Flags> {
        let flags: &'static [AtomicBool] =
            Box::leak((0..n).map(|_| AtomicBool::new(false)).collect());
        Arc::new(Flags {
            free: Mutex::new(flags.iter().collect()),
        })
    }

    fn take(self: &Arc<Flags>) -> Option<Arc<Flag>> {
        let flag = self.free.lock().ok()?.pop()?;
        Some(Arc::new(Flag {
            flag,
            pool: self.clone(),
        }))
    }
}

/// A flag taken from [`Flags`].
struct Flag {
    flag: &'static AtomicBool,
    pool: Arc<Flags>,
}

impl Flag {
    fn get(&self) -> &'static AtomicBool {
        self.flag
    }
}

impl Drop for Flag {
    fn drop(&mut self) {
        self.flag.store(false, Ordering::SeqCst);
        if let Ok(mut free) = self.pool.free.lock() {
            free.push(self.flag);
        }
    }
}

/// Raises its flag when dropped holding it: the request's future went away unanswered.
struct Gone(Option<Arc<Flag>>);

impl Drop for Gone {
    fn drop(&mut self) {
        if let Some(flag) = &self.0 {
            flag.flag.store(true, Ordering::SeqCst);
        }
    }
}

impl Shared {
    /// A warm engine of `level` for `start`'s game, or a new one.
    fn engine<G: Tactics>(&self, level: Level, start: &G) -> Result<Player<G>, Error> {
        let name = format!("{}/{level}", start.name());
        if let Ok(mut engines) = self.engines.lock()
            && let Some(i) = engines.iter().position(|(n, _)| *n == name)
        {
            let (_, engine) = engines.remove(i);
            if let Ok(player) = engine.downcast::<Player<G>>() {
                return Ok(*player);
            }
        }
        let seed = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64);
        let mut options = Options::default();
        options.config.threads = self.threads;
        Player::new(level, start, options.fitted_to(start), seed)
    }

    /// Keeps `player` warm for the next request of its game (the oldest goes past
    /// [`WARM_ENGINES`]).
    fn keep<G: Tactics>(&self, start: &G, player: Player<G>) {
        let name = format!("{}/{}", start.name(), player.level());
        if let Ok(mut engines) = self.engines.lock() {
            engines.push((name, Box::new(player)));
            if engines.len() > WARM_ENGINES {
                engines.remove(0);
            }
        }
    }
}

fn respond(
    shared: &Shared,
    params: &Params,
    ask: Ask,
    stop: &'static AtomicBool,
) -> Result<Value, Error> {
    let spec = params.game.as_deref().unwrap_or("connect4");
    let start = spec.parse::<GameSpec>()?.start();
    let moves = params.moves.as_deref().unwrap_or("");
    with_game!(start, start => {
        let line = read_line(start, moves)?;
        let view = View { start, line: &line };
        match ask {
            Ask::Position => Ok(Value::Object(view.json())),
            Ask::Analyze | Ask::Move => {
                if view.status() != Status::Ongoing {
                    return Err(Error::Input(format!(
                        "{}: the game is over; no moves to analyse",
                        show_moves(moves)
                    )));
                }
                let level = params.engine.as_deref().unwrap_or("best").parse::<Level>()?;
                let think = think(params.think.as_deref())?;
                let limits = Limits { interrupt: Some(stop), ..Limits::within(think) };
                let mut player = shared.engine(level, &start)?;
                let pos = *line.position();
                let answer = match ask {
                    Ask::Move => {
                        // Only the best move needs its value: no full analysis.
                        let best = player.choose_within(&line, limits).ok_or_else(|| {
                            Error::Search("the engine found no move".to_string())
                        })?;
                        json!({
                            "move": pos.format_move(best.0),
                            "moves": view.text_of(&line.played(best.0)),
                            "value": best.1.to_string(),
                            "exact": best.1.is_exact(),
                        })
                    }
                    _ => {
                        let analysis = player.analyse(&line, limits);
                        let mut json = view.json();
                        analysis_json(&mut json, &pos, &analysis, player.is_weak());
                        Value::Object(json)
                    }
                };
                shared.keep(&start, player);
                Ok(answer)
            }
        }
    })
}

/// Seconds to think: default [`DEFAULT_THINK`], at most [`MAX_THINK`].
fn think(text: Option<&str>) -> Result<Duration, Error> {
    let Some(text) = text else {
        return Ok(Duration::from_secs_f64(DEFAULT_THINK));
    };
    match text.trim().parse::<f64>() {
        Ok(t) if t > 0.0 && t <= MAX_THINK => Ok(Duration::from_secs_f64(t)),
        _ => Err(Error::Input(format!(
            "think '{text}': must be a number of seconds above 0, at most {MAX_THINK}"
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use inarow::game::{Connect, Standard};

    #[test]
    fn each_kind_of_error_has_its_status() {
        let spec = "bogus".parse::<GameSpec>().unwrap_err();
        let moves = Error::from(read_line(Connect::<u64, _>::new(Standard), "1z").unwrap_err());
        let text = |m: &str| m.to_string();
        for (e, code) in [
            (spec, 400),
            (moves, 400),
            (Error::Input(text("think '0'")), 400),
            (Error::Unsupported(text("not in this game")), 422),
            (Error::Search(text("the engine found no move")), 422),
            (Error::Memory(text("cannot allocate")), 503),
            (Error::File(text("the built-in book is damaged")), 500),
            (Error::Internal(text("a bug")), 500),
        ] {
            assert_eq!(status(&e).as_u16(), code, "{e:?}");
        }
    }

    #[test]
    fn a_503_says_when_to_try_again() {
        let busy = error(StatusCode::SERVICE_UNAVAILABLE, "the server is busy");
        assert_eq!(busy.headers()[header::RETRY_AFTER], "1");
        let memory = error(status(&Error::Memory(String::new())), "cannot allocate");
        assert_eq!(memory.headers()[header::RETRY_AFTER], "1");
        for code in [StatusCode::BAD_REQUEST, StatusCode::UNPROCESSABLE_ENTITY] {
            assert!(
                error(code, "no")
                    .headers()
                    .get(header::RETRY_AFTER)
                    .is_none()
            );
        }
    }
}
