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
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        write!(
            stream,
            "GET {path} HTTP/1.1\r\nHost: {}\r\nConnection: close\r\n\r\n",
            self.addr
        )
        .unwrap();
        let mut response = String::new();
        stream.read_to_string(&mut response).unwrap();
        let (head, body) = response.split_once("\r\n\r\n").unwrap();
        let code = head.split(' ').nth(1).unwrap().parse().unwrap();
        let json = serde_json::from_str(body).unwrap_or_else(|e| panic!("{e}: {body:?}"));
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
fn the_api_analyses_as_the_command_line_does() {
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
