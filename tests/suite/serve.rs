//! `inarow serve`, run as a program and asked over HTTP by a tiny client: its answers are the
//! command line's, and bad input is a 400 with the command line's one-line message.

use super::cli::inarow;
use serde_json::Value;
use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};

/// A server on a free port, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start() -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_inarow"))
            .args(["serve", "--addr", "127.0.0.1:0"])
            .stdout(Stdio::piped())
            .spawn()
            .expect("the inarow binary runs");
        let mut line = String::new();
        let stdout = child.stdout.take().expect("piped stdout");
        BufReader::new(stdout).read_line(&mut line).unwrap();
        let addr = line
            .trim()
            .strip_prefix("inarow: serving on http://")
            .unwrap_or_else(|| panic!("unexpected first line {line:?}"))
            .to_string();
        Server { child, addr }
    }

    /// The status code and the JSON body of `GET path`.
    fn get(&self, path: &str) -> (u16, Value) {
        let (code, body) = raw_get(&self.addr, path);
        let json = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
        (code, json)
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The message `inarow ARGS` prints on standard error, without its `inarow: ` prefix.
fn cli_error(args: &[&str]) -> String {
    let run = inarow(args, None);
    assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
    run.stderr
        .trim()
        .strip_prefix("inarow: ")
        .unwrap()
        .to_string()
}

#[test]
fn the_api_analyzes_as_the_command_line_does() {
    let server = Server::start();
    for moves in ["", "12", "2332"] {
        let (code, json) = server.get(&format!("/api/analyze?game=connect4:4x4&moves={moves}"));
        assert_eq!(code, 200, "{json}");
        let shown: Vec<String> = json["analysis"]
            .as_array()
            .unwrap()
            .iter()
            .map(|m| {
                assert_eq!(m["exact"], true, "{m}");
                format!(
                    "{} {}",
                    m["move"].as_str().unwrap(),
                    m["value"].as_str().unwrap()
                )
            })
            .collect();
        let run = inarow(&["analyze", "--game", "connect4:4x4", moves], None);
        assert_eq!(run.code, Some(0), "{}", run.stderr);
        assert_eq!(
            shown,
            run.stdout.lines().collect::<Vec<_>>(),
            "after '{moves}'"
        );
        assert_eq!(json["source"], "exact");
        assert_eq!(json["moves"], moves);
    }
    let (code, json) = server.get("/api/move?game=connect4:4x4&moves=12&engine=best");
    assert_eq!(code, 200);
    assert_eq!(
        json["moves"],
        format!("12{}", json["move"].as_str().unwrap())
    );
    // `level` names the level; `engine`, its first name, still reads, and both must agree. The
    // random level's answer shows which was read: it is never exact.
    for (query, exact) in [
        ("level=random", false),
        ("engine=random", false),
        ("level=best", true),
        ("level=random&engine=random", false),
    ] {
        let (code, json) = server.get(&format!("/api/move?game=connect4:4x4&moves=12&{query}"));
        assert_eq!(code, 200, "{query}: {json}");
        assert_eq!(json["exact"], exact, "{query}: {json}");
    }
    let (code, json) = server.get("/api/move?game=connect4:4x4&level=random&engine=best");
    assert_eq!(code, 400, "{json}");
    assert_eq!(
        json["error"],
        "level=random and engine=best: two levels asked (engine is level's old name)"
    );
}

#[test]
fn the_api_draws_every_game() {
    let server = Server::start();
    let (_, json) = server.get("/api/position?game=connect4:4x4&moves=12");
    assert_eq!(
        json["board"],
        serde_json::json!(["....", "....", "....", "XO.."])
    );
    assert_eq!(json["to_move"], "first");
    assert_eq!(json["status"], "ongoing");
    let legal = json["legal"].as_array().unwrap();
    assert_eq!(legal.len(), 4);
    assert!(legal.contains(&serde_json::json!({"move": "1", "cell": [2, 0]})));
    let (_, json) = server.get("/api/position?game=connect4:4x4&moves=1212121");
    assert_eq!(json["status"], "first wins");
    assert_eq!(json["legal"], serde_json::json!([]));
    for game in ["popout", "cube", "qubic", "pentago"] {
        let (code, json) = server.get(&format!("/api/position?game={game}"));
        assert_eq!(code, 200, "{game}: {json}");
        assert!(!json["legal"].as_array().unwrap().is_empty(), "{game}");
    }
}

#[test]
fn bad_input_is_a_400_with_the_command_lines_message() {
    let server = Server::start();
    for (query, args) in [
        (
            "game=connect4:4x4&moves=1z",
            ["analyze", "--game", "connect4:4x4", "1z"],
        ),
        ("game=bogus&moves=1", ["analyze", "--game", "bogus", "1"]),
        (
            "game=connect4:4x4&moves=1212121",
            ["analyze", "--game", "connect4:4x4", "1212121"],
        ),
    ] {
        let expected = cli_error(&args);
        for api in ["analyze", "move"] {
            let (code, json) = server.get(&format!("/api/{api}?{query}"));
            assert_eq!(code, 400, "{api}?{query}: {json}");
            assert_eq!(json["error"], expected.as_str(), "{api}?{query}");
        }
    }
    let long = "1".repeat(5000);
    for query in [
        "game=connect4&engine=nonsense".to_string(),
        "game=connect4&level=depth0".to_string(),
        "game=connect4&think=11".to_string(),
        "game=connect4&think=-1".to_string(),
        "game=connect4&moves=%ff%0a".to_string(),
        format!("game=connect4&moves={long}"),
    ] {
        let (code, json) = server.get(&format!("/api/move?{query}"));
        assert_eq!(code, 400, "{query}: {json}");
        let error = json["error"].as_str().unwrap();
        assert!(!error.is_empty() && !error.contains('\n'), "{error:?}");
    }
}

/// The status code and the raw body of `GET target` (any bytes the client may send).
fn raw_get(addr: &str, target: &str) -> (u16, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "GET {target} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let (code, _, body) = read_response(stream);
    (code, body)
}

/// The status code, the content type and the body of the response on `stream`.
fn read_response(mut stream: TcpStream) -> (u16, String, String) {
    let mut response = Vec::new();
    stream.read_to_end(&mut response).unwrap();
    let response = String::from_utf8_lossy(&response).into_owned();
    let (head, body) = response.split_once("\r\n\r\n").unwrap_or((&response, ""));
    let code = head
        .split(' ')
        .nth(1)
        .and_then(|c| c.parse().ok())
        .unwrap_or_else(|| panic!("no status line: {response:?}"));
    let kind = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-type: ")
                .map(str::to_string)
        })
        .unwrap_or_default();
    (code, kind, body.to_string())
}

/// `bytes` in a query: letters and digits as they are, the rest `%XX`.
fn percent_encoded(bytes: &[u8]) -> String {
    bytes
        .iter()
        .map(|&b| match b {
            b'a'..=b'z' | b'A'..=b'Z' | b'0'..=b'9' => (b as char).to_string(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Random requests, valid, borderline and malformed, to every endpoint: each gets a 200 with
/// JSON or a 4xx, and a 400 carries one line of error; the server lives through all of them.
#[test]
fn the_api_survives_random_requests() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
    let server = Server::start();
    let cases: u32 = std::env::var("INAROW_API_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(150);
    let value = |choices: &'static [&'static str]| {
        prop_oneof![
            6 => proptest::sample::select(choices).prop_map(str::to_string),
            1 => "[ -~]{0,12}".prop_map(|t| percent_encoded(t.as_bytes())),
            1 => proptest::collection::vec(any::<u8>(), 0..8).prop_map(|b| percent_encoded(&b)),
        ]
    };
    let games: &'static [&'static str] = &[
        "connect4",
        "connect4:4x4",
        "connect4:5x4:k3",
        "connect4:9x7",
        "connect4:10x10:k5",
        "popout",
        "popout:4x4",
        "cube",
        "qubic",
        "pentago",
        "connect4:0x0",
        "connect4:99x99",
    ];
    let moves: &'static [&'static str] = &[
        "", "4", "44", "1212121", "11111111", "-", "4a", "p1", "0", "8", "a1", "a1-b2",
    ];
    let engines: &'static [&'static str] =
        &["best", "random", "depth2", "mcts", "alphabeta", "depth0"];
    let thinks: &'static [&'static str] = &["0.01", "0.02", "0", "-1", "nan", "1e9", "inf"];
    let paths: &'static [&'static str] = &["/api/position", "/api/analyze", "/api/move"];
    let strategy = (
        prop_oneof![9 => proptest::sample::select(paths).prop_map(str::to_string), 1 => "/[a-z/]{0,12}"],
        value(games),
        value(moves),
        value(engines),
        value(thinks),
    );
    let mut runner = TestRunner::new_with_rng(
        Config {
            cases,
            failure_persistence: None,
            ..Config::default()
        },
        TestRng::deterministic_rng(RngAlgorithm::ChaCha),
    );
    let addr = server.addr.clone();
    runner
        .run(&strategy, |(path, game, moves, engine, think)| {
            // A fast think unless the value under test is the think itself.
            let think = if think.parse::<f64>().is_ok_and(|t| t > 0.05) {
                "0.02".into()
            } else {
                think
            };
            let target = format!("{path}?game={game}&moves={moves}&engine={engine}&think={think}");
            let (code, body) = raw_get(&addr, &target);
            prop_assert!((200..500).contains(&code), "{target}: {code} {body}");
            // The API answers JSON (other paths: the page, or 404).
            if code == 200 && path.starts_with("/api/") {
                let json: Value = serde_json::from_str(&body)
                    .map_err(|e| TestCaseError::fail(format!("{target}: {e}")))?;
                prop_assert!(json.is_object(), "{target}: {body}");
            }
            if code == 400 {
                let json: Value = serde_json::from_str(&body)
                    .map_err(|e| TestCaseError::fail(format!("{target}: {e}")))?;
                let error = json["error"].as_str().unwrap_or_default();
                prop_assert!(
                    !error.is_empty() && !error.chars().any(char::is_control),
                    "{target}: {error:?}"
                );
            }
            Ok(())
        })
        .unwrap();
    // Requests HTTP itself refuses (not a valid target): a 4xx, whatever the body.
    for target in [
        "/api/analyze?moves=<>",
        "/api/move?game=connect4&moves=4 4",
        "api/position",
    ] {
        let (code, _) = raw_get(&addr, target);
        assert!((400..500).contains(&code), "{target}: {code}");
    }
    // Still serving.
    let (code, _) = server.get("/api/position?game=connect4");
    assert_eq!(code, 200);
}

/// Qubic through the API: the engine playing first answers every move from its proven strategy
/// as a win, exact, against any replies (the server sees the whole line, so the strategy knows
/// the first player's moves were its own); the analysis marks the strategy's moves proven wins
/// and, for the second player against it, every move a proven loss, written as Qubic's solver
/// writes them (`1`, `-1`).
#[test]
fn the_api_gives_qubics_strategy_as_proven_wins() {
    let server = Server::start();
    let mut rng = super::common::SplitMix(59);
    for _ in 0..3 {
        let mut moves = String::new();
        loop {
            let (code, json) = server.get(&format!("/api/move?game=qubic&moves={moves}&think=5"));
            assert_eq!(code, 200, "{json}");
            assert_eq!(json["exact"], true, "after '{moves}': {json}");
            assert_eq!(json["value"], "1", "after '{moves}': {json}");
            moves = json["moves"].as_str().unwrap().to_string();
            let (_, position) = server.get(&format!("/api/position?game=qubic&moves={moves}"));
            if position["status"] != "ongoing" {
                assert_eq!(position["status"], "first wins", "{moves}");
                break;
            }
            // The side the strategy beats: the engine's move for it is a proven loss, at once.
            let (_, lost) = server.get(&format!("/api/move?game=qubic&moves={moves}&think=5"));
            assert_eq!(lost["value"], "-1", "after '{moves}': {lost}");
            assert_eq!(lost["exact"], true, "after '{moves}': {lost}");
            let legal = position["legal"].as_array().unwrap();
            let reply = legal[rng.below(legal.len())]["move"].as_str().unwrap();
            moves.push_str(reply);
        }
    }
    // The analysis on the strategy's paths, both sides to move.
    let (_, json) = server.get("/api/analyze?game=qubic&moves=a11d44&think=1");
    let analysis = json["analysis"].as_array().unwrap();
    assert_eq!(analysis[0]["value"], "1", "{json}");
    assert_eq!(analysis[0]["outcome"], "win", "{json}");
    assert_eq!(analysis[0]["exact"], true, "{json}");
    assert_eq!(
        json["weak"], true,
        "Qubic's values are win / draw / loss: {json}"
    );
    let (_, json) = server.get("/api/analyze?game=qubic&moves=a11d44d11&think=1");
    let analysis = json["analysis"].as_array().unwrap();
    assert_eq!(analysis.len(), 61);
    assert!(
        analysis.iter().all(|m| m["value"] == "-1"
            && m["outcome"] == "loss"
            && m["exact"] == true
            && m["end_ply"].is_null()),
        "{json}"
    );
}

/// The status code, the content type and the body of `POST target` with `body`.
fn raw_post(addr: &str, target: &str, body: &str) -> (u16, String, String) {
    let mut stream = TcpStream::connect(addr).unwrap();
    write!(
        stream,
        "POST {target} HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    )
    .unwrap();
    read_response(stream)
}

#[test]
fn post_api_draw_answers_the_drawers_svg_and_bad_input_is_a_400() {
    let server = Server::start();
    // The board alone: byte for byte `inarow draw`'s.
    for (game, moves) in [("connect4", "4453"), ("popout", "44p4"), ("qubic", "a11")] {
        let body = format!(r#"{{"game": "{game}", "moves": "{moves}"}}"#);
        let (code, kind, svg) = raw_post(&server.addr, "/api/draw", &body);
        assert_eq!(code, 200, "{body}: {svg}");
        assert!(kind.starts_with("image/svg+xml"), "{kind}");
        assert_eq!(svg, inarow(&["draw", "--game", game, moves], None).stdout);
    }
    // The page's board: its values, what it clicks, Pentago's chosen cell.
    let (code, _, svg) = raw_post(
        &server.addr,
        "/api/draw",
        r#"{"moves": "44", "values": [{"move": "4", "value": "1", "exact": true, "end_ply": 41}], "interactive": true}"#,
    );
    assert_eq!(code, 200, "{svg}");
    assert!(
        svg.contains(r#"<g class="col target" data-col="3" data-move="4">"#),
        "{svg}"
    );
    assert!(
        svg.contains(r#"data-move="4" data-value="1" data-exact="true""#),
        "{svg}"
    );
    let (code, _, svg) = raw_post(
        &server.addr,
        "/api/draw",
        r#"{"game": "pentago", "moves": "a10r", "interactive": true, "selected": 7}"#,
    );
    assert_eq!(code, 200, "{svg}");
    assert_eq!(svg.matches(r#"class="turn target""#).count(), 8, "{svg}");
    // Bad input: a 400 with the one-line message as JSON, the command line's for a bad game.
    let expected = cli_error(&["draw", "--game", "bogus", "1"]);
    for (body, message) in [
        (
            r#"{"game": "bogus", "moves": "1"}"#,
            Some(expected.as_str()),
        ),
        ("not json", None),
        (r#"{"moves": "48"}"#, None),
        (r#"{"values": 3}"#, None),
        (r#"{"selected": 99}"#, None),
        (r#"{"colour": "red"}"#, None),
        ("[]", None),
    ] {
        let (code, kind, answer) = raw_post(&server.addr, "/api/draw", body);
        assert_eq!(code, 400, "{body}: {answer}");
        assert!(kind.starts_with("application/json"), "{body}: {kind}");
        let json: Value = serde_json::from_str(&answer).unwrap();
        let error = json["error"].as_str().unwrap();
        assert!(!error.is_empty() && !error.contains('\n'), "{error:?}");
        if let Some(message) = message {
            assert_eq!(error, message);
        }
    }
    // Drawing is asked by POST; the rest of the API by GET.
    let (code, json) = server.get("/api/draw?game=connect4");
    assert_eq!(code, 405, "{json}");
}
