//! The `inarow` command line, run as a program: output formats, standard input, analysis, bad
//! input, benchmark files, limits and self-play.

use super::common::{score_for, shared_path};
use inarow::game::{Connect, MoveList, Notation, Rules, Standard, Status, play_moves};
use inarow::limits::Clock;
use inarow::search::{AlphaBeta, Config};
use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Published positions (Pons' `Test_L3_R1` and `Test_L2_R1`, first lines) with their scores.
const PUBLISHED: [(&str, i32); 8] = [
    ("2252576253462244111563365343671351441", -1),
    ("7422341735647741166133573473242566", 1),
    ("23163416124767223154467471272416755633", 0),
    ("65214673556155731566316327373221417", -1),
    ("5554224333234511764415115", 4),
    ("52753311433677442422121", 8),
    ("1233722555341451114725221333", -1),
    ("271713432331713132", -11),
];

/// What a run of the program gave.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    pub fn assert_no_panic(&self) {
        assert!(
            !self.stderr.contains("panicked"),
            "the program panicked:\n{}",
            self.stderr
        );
    }
}

/// Runs `inarow ARGS` with `input` on standard input (closed at once when `None`), killing it
/// after a minute.
pub fn inarow(args: &[&str], input: Option<&str>) -> Run {
    let mut child = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(args)
        .stdin(if input.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the inarow binary runs");
    if let Some(text) = input {
        let mut stdin = child.stdin.take().expect("piped stdin");
        let text = text.to_string();
        std::thread::spawn(move || {
            let _ = stdin.write_all(text.as_bytes());
        });
    }
    let mut out = child.stdout.take().expect("piped stdout");
    let mut err = child.stderr.take().expect("piped stderr");
    let out_reader = std::thread::spawn(move || {
        let mut s = String::new();
        out.read_to_string(&mut s).map(|_| s)
    });
    let err_reader = std::thread::spawn(move || {
        let mut s = String::new();
        err.read_to_string(&mut s).map(|_| s)
    });
    let deadline = Instant::now() + Duration::from_secs(60);
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            panic!("inarow {args:?} did not finish within 60 s");
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    Run {
        code: status.code(),
        stdout: out_reader.join().unwrap().expect("utf-8 stdout"),
        stderr: err_reader.join().unwrap().expect("utf-8 stderr"),
    }
}

fn standard() -> Connect<u64, Standard> {
    Connect::new(Standard)
}

#[test]
fn solve_prints_moves_and_score() {
    let r = inarow(&["solve", "4453"], None);
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    let line = r.stdout.trim_end();
    let (moves, score) = line
        .split_once(' ')
        .unwrap_or_else(|| panic!("expected 'MOVES SCORE', got '{line}'"));
    assert_eq!(moves, "4453");
    let score: i32 = score.parse().expect("an integer score");
    assert!((-21..=21).contains(&score), "a 7x6 score: {score}");
    assert_eq!(r.stdout.lines().count(), 1);

    // Several positions: one line each, in order, with the published scores.
    let args: Vec<&str> = std::iter::once("solve")
        .chain(PUBLISHED.iter().map(|p| p.0))
        .collect();
    let r = inarow(&args, None);
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    let expected: Vec<String> = PUBLISHED.iter().map(|(m, s)| format!("{m} {s}")).collect();
    assert_eq!(r.stdout.lines().collect::<Vec<_>>(), expected);

    // The empty board is written '-'; 4x4 is a published draw.
    let r = inarow(&["solve", "--game", "connect4:4x4", "-"], None);
    assert_eq!(r.stdout, "- 0\n", "stderr: {}", r.stderr);
}

#[test]
fn solve_with_stats() {
    let (moves, published) = PUBLISHED[5];
    let r = inarow(&["solve", "--stats", moves], None);
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    let fields: Vec<&str> = r.stdout.split_whitespace().collect();
    assert_eq!(
        fields.len(),
        4,
        "expected 'MOVES SCORE nodes=N us=T': {}",
        r.stdout
    );
    assert_eq!(fields[0], moves);
    assert_eq!(fields[1], published.to_string());
    let nodes: u64 = fields[2]
        .strip_prefix("nodes=")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("bad nodes field '{}'", fields[2]));
    assert!(nodes > 0);
    assert!(
        fields[3]
            .strip_prefix("us=")
            .is_some_and(|t| t.parse::<u64>().is_ok()),
        "bad time field '{}'",
        fields[3]
    );
}

/// Checks one JSON report against the published score and the rules.
fn check_json(line: &str, moves: &str, published: i32) {
    let v: serde_json::Value =
        serde_json::from_str(line).unwrap_or_else(|e| panic!("not JSON ({e}): {line}"));
    assert_eq!(v["moves"], moves, "{line}");
    assert_eq!(v["score"], published, "{line}");
    assert!(v["nodes"].as_u64().is_some_and(|n| n > 0), "{line}");
    assert!(v["seconds"].as_f64().is_some(), "{line}");
    assert_eq!(v["exact"], true, "{line}");
    let outcome = match published.signum() {
        1 => "win",
        0 => "draw",
        _ => "loss",
    };
    assert_eq!(v["outcome"], outcome, "{line}");

    let (pos, _) = play_moves(standard(), moves).expect("legal");
    let mut solver = AlphaBeta::new(&pos, Config::default());
    // best_moves: exactly the moves that keep the score.
    let best: Vec<u8> = v["best_moves"]
        .as_array()
        .unwrap_or_else(|| panic!("best_moves is not a list: {line}"))
        .iter()
        .map(|m| {
            let text = m.as_str().expect("a move string");
            pos.parse_move(text).expect("a legal move")
        })
        .collect();
    assert!(!best.is_empty(), "best_moves is empty: {line}");
    let mut legal = MoveList::new();
    pos.legal_moves(&mut legal);
    for &m in &legal {
        let child = pos.play(m);
        let keeps = match child.status() {
            Status::Ongoing => {
                -solver.solve(&child, false, &mut Clock::default()).unwrap() == published
            }
            s => score_for(42, pos.ply(), child.ply(), s) == published,
        };
        assert_eq!(
            best.contains(&m),
            keeps,
            "{moves}: move {} {} the score but best_moves is {:?}",
            m + 1,
            if keeps { "keeps" } else { "does not keep" },
            v["best_moves"]
        );
    }
    // pv: a legal continuation that ends the game with the published score.
    let pv: String = v["pv"]
        .as_array()
        .unwrap_or_else(|| panic!("pv is not a list: {line}"))
        .iter()
        .map(|m| m.as_str().expect("a move string"))
        .collect();
    let pv = pv.as_str();
    let (end, pv_moves) = play_moves(pos, pv).unwrap_or_else(|e| panic!("pv '{pv}' illegal: {e}"));
    assert!(!pv_moves.is_empty());
    assert!(best.contains(&pv_moves[0]), "pv starts with a best move");
    assert_ne!(
        end.status(),
        Status::Ongoing,
        "pv '{pv}' does not end the game"
    );
    assert_eq!(
        score_for(42, pos.ply(), end.ply(), end.status()),
        published,
        "pv '{pv}' ends the game with another score"
    );
}

#[test]
fn solve_json() {
    for &(moves, published) in &PUBLISHED {
        let r = inarow(&["solve", "--json", moves], None);
        r.assert_no_panic();
        assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
        assert_eq!(r.stdout.lines().count(), 1, "one JSON object per line");
        check_json(r.stdout.trim_end(), moves, published);
    }
}

#[test]
fn solve_reads_standard_input() {
    let input: String = PUBLISHED
        .iter()
        .map(|(m, s)| format!("{m} {s}\n"))
        .collect();
    let r = inarow(&["solve"], Some(&input));
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    let expected: Vec<String> = PUBLISHED.iter().map(|(m, s)| format!("{m} {s}")).collect();
    assert_eq!(r.stdout.lines().collect::<Vec<_>>(), expected);

    // A bad line is reported with its line number; the others are still solved.
    let input = format!("{} 0\n4458\n{} 0\n", PUBLISHED[0].0, PUBLISHED[1].0);
    let r = inarow(&["solve"], Some(&input));
    r.assert_no_panic();
    assert_eq!(r.code, Some(2), "a bad line is bad input: exit 2");
    assert_eq!(
        r.stdout,
        format!(
            "{} {}\n{} {}\n",
            PUBLISHED[0].0, PUBLISHED[0].1, PUBLISHED[1].0, PUBLISHED[1].1
        )
    );
    assert!(r.stderr.contains("line 2"), "{}", r.stderr);
    assert!(r.stderr.contains("4458"), "{}", r.stderr);
}

#[test]
fn analyze_lists_every_move_best_first() {
    for &(moves, published) in &PUBLISHED[..6] {
        let r = inarow(&["analyze", moves], None);
        r.assert_no_panic();
        assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
        let (pos, _) = play_moves(standard(), moves).unwrap();
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        let rows: Vec<(u8, i32)> = r
            .stdout
            .lines()
            .map(|l| {
                let (m, s) = l
                    .split_once(' ')
                    .unwrap_or_else(|| panic!("bad line '{l}'"));
                (
                    pos.parse_move(m).unwrap_or_else(|e| panic!("'{l}': {e}")),
                    s.parse().unwrap_or_else(|_| panic!("bad score in '{l}'")),
                )
            })
            .collect();
        assert_eq!(
            rows.len(),
            legal.len(),
            "one line per legal move:\n{}",
            r.stdout
        );
        let mut cols: Vec<u8> = rows.iter().map(|r| r.0).collect();
        cols.sort_unstable();
        cols.dedup();
        assert_eq!(
            cols.len(),
            legal.len(),
            "every legal move once:\n{}",
            r.stdout
        );
        assert!(
            rows.windows(2).all(|w| w[0].1 >= w[1].1),
            "best first:\n{}",
            r.stdout
        );
        assert_eq!(
            rows[0].1, published,
            "{moves}: the best move reaches the published score"
        );
    }
    // JSON form.
    let (moves, published) = PUBLISHED[5];
    let r = inarow(&["analyze", "--json", moves], None);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    assert_eq!(v["moves"], moves);
    assert_eq!(v["analysis"][0]["score"], published);
}

/// Under a time limit the solver cannot meet, `analyze` still values every move: exact where it
/// settled them, the evaluation search's estimate (`~N`, or a proven win / draw / loss) elsewhere,
/// never `?`; it says so on standard error and exits 3.
#[test]
fn analyze_under_a_limit_fills_in_estimates() {
    for args in [
        // Past the built-in book (12 plies): the children of this ply-13 position are searched.
        &["analyze", "--nodes", "2000", "5616242777325"][..],
        &["analyze", "--time", "0.3", "--game", "connect4:9x7", "55"][..],
        &["analyze", "--nodes", "20000", "--game", "popout", "44"][..],
    ] {
        let r = inarow(args, None);
        r.assert_no_panic();
        assert_eq!(r.code, Some(3), "{args:?}: {}", r.stderr);
        assert!(r.stderr.contains("estimates"), "{args:?}: {}", r.stderr);
        let values: Vec<&str> = r
            .stdout
            .lines()
            .map(|l| l.split(' ').nth(1).expect("a value"))
            .collect();
        assert!(!values.is_empty());
        for v in &values {
            let estimate = v
                .strip_prefix('~')
                .is_some_and(|n| n.trim_end_matches('%').parse::<f64>().is_ok());
            let proven = ["win", "draw", "loss"].contains(v);
            assert!(
                estimate || proven || v.parse::<i32>().is_ok(),
                "{args:?}: {v:?} in\n{}",
                r.stdout
            );
        }
        assert!(
            values.iter().any(|v| v.starts_with('~')),
            "{args:?}:\n{}",
            r.stdout
        );
    }
    let r = inarow(
        &["analyze", "--json", "--nodes", "2000", "5616242777325"],
        None,
    );
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    for m in v["analysis"].as_array().expect("moves") {
        assert_eq!(m["exact"], m["score"].is_i64(), "{m}");
        assert!(m["value"].is_string(), "{m}");
    }
    assert!(
        v["source"]
            .as_str()
            .expect("a source")
            .contains("alphabeta"),
        "{v}"
    );
}

/// An exact analysis gives the line of perfect play: it replays to the end of the game with
/// the best move's score.
#[test]
fn analyze_gives_the_principal_variation() {
    let r = inarow(&["analyze", "--json", "--game", "connect4:5x4", "33"], None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    assert_eq!(v["source"], "exact");
    // The line as the API gives it: one move string each.
    let pv: String = v["pv"]
        .as_array()
        .expect("a line")
        .iter()
        .map(|m| m.as_str().expect("a move"))
        .collect();
    let best = v["analysis"][0]["score"].as_i64().expect("exact");
    assert_eq!(v["pv"][0], v["analysis"][0]["move"], "{pv}");
    // The position after the line is over, and solving each step of it keeps the score.
    let whole = format!("33{pv}");
    let end = inarow(&["solve", "--game", "connect4:5x4", &whole], None);
    assert_ne!(end.code, Some(2), "{whole}: {}", end.stderr);
    let after_first = format!("33{}", &pv[..1]);
    let s = inarow(&["solve", "--game", "connect4:5x4", &after_first], None);
    let score: i64 = s.stdout.split_whitespace().nth(1).unwrap().parse().unwrap();
    assert_eq!(-score, best, "{after_first}");
    assert_eq!(
        pv.len() + 2,
        20,
        "a 5x4 line of perfect play from 33 fills the board or ends it: {pv}"
    );
}

#[test]
fn bad_move_string_is_a_clean_error() {
    let r = inarow(&["solve", "4458"], None);
    r.assert_no_panic();
    assert_ne!(r.code, Some(0));
    assert!(r.code.is_some(), "killed by a signal: {}", r.stderr);
    assert_eq!(r.stdout, "", "nothing solved");
    assert_eq!(
        r.stderr.trim_end().lines().count(),
        1,
        "one line of error:\n{}",
        r.stderr
    );
    assert!(r.stderr.contains("4458"), "{}", r.stderr);

    for args in [
        &["solve", "1111111"][..],
        &["solve", "12121212"],
        &["solve", "x"],
        &["analyze", "1212121"],
        &["solve", "--game", "connect4:4x4", "5"],
    ] {
        let r = inarow(args, None);
        r.assert_no_panic();
        assert!(
            matches!(r.code, Some(c) if c != 0),
            "{args:?}: {}",
            r.stderr
        );
        assert_eq!(
            r.stderr.trim_end().lines().count(),
            1,
            "{args:?}:\n{}",
            r.stderr
        );
    }
}

#[test]
fn bad_options_are_clean_errors() {
    for (args, needle) in [
        (&["solve", "--game", "connect4:99x99", "4"][..], "99x99"),
        (&["solve", "--game", "chess", "4"], "chess"),
        (&["solve", "--algo", "magic", "4"], "magic"),
        (&["solve", "--tt-scheme", "lru", "4"], "lru"),
        (&["solve", "--time", "0", "4"], "time"),
        (&["solve", "--time", "-1", "4"], "-1"),
    ] {
        let r = inarow(args, None);
        r.assert_no_panic();
        assert!(matches!(r.code, Some(c) if c != 0), "{args:?} should fail");
        assert!(r.stderr.contains(needle), "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "", "{args:?}");
    }
}

#[test]
fn every_solver_option_gives_the_published_scores() {
    let positions: Vec<&str> = PUBLISHED.iter().map(|p| p.0).collect();
    let expected: Vec<String> = PUBLISHED.iter().map(|(m, s)| format!("{m} {s}")).collect();
    let expected_weak: Vec<String> = PUBLISHED
        .iter()
        .map(|(m, s)| format!("{m} {}", s.signum()))
        .collect();
    let option_sets: [&[&str]; 12] = [
        &["--algo", "ab"],
        &["--algo", "bisect"],
        &["--algo", "mtdf"],
        &["--algo", "deepening"],
        &["--algo", "gallop"],
        &["--tt-scheme", "new"],
        &["--tt-scheme", "big"],
        &["--tt-mb", "0"],
        &["--tt-mb", "1", "--no-symmetry", "--no-etc"],
        &["--no-threat-order", "--no-tt-move", "--history"],
        &["--weak"],
        &["--weak", "--algo", "ab", "--tt-mb", "2"],
    ];
    for options in option_sets {
        let mut args = vec!["solve"];
        args.extend_from_slice(options);
        args.extend(&positions);
        let r = inarow(&args, None);
        r.assert_no_panic();
        assert_eq!(r.code, Some(0), "{options:?}: {}", r.stderr);
        let want = if options.contains(&"--weak") {
            &expected_weak
        } else {
            &expected
        };
        assert_eq!(&r.stdout.lines().collect::<Vec<_>>(), want, "{options:?}");
    }
}

/// `^\S+ n=\d+ correct=\d+ mean_us=[0-9.]+ mean_nodes=[0-9.]+ max_us=\d+$`, by hand.
fn is_summary(line: &str) -> bool {
    let fields: Vec<&str> = line.split(' ').collect();
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let decimal = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit() || b == b'.');
    let field = |i: usize, name: &str, ok: &dyn Fn(&str) -> bool| {
        fields[i].strip_prefix(name).is_some_and(ok)
    };
    fields.len() == 6
        && !fields[0].is_empty()
        && !fields[0].chars().any(char::is_whitespace)
        && field(1, "n=", &digits)
        && field(2, "correct=", &digits)
        && field(3, "mean_us=", &decimal)
        && field(4, "mean_nodes=", &decimal)
        && field(5, "max_us=", &digits)
}

#[test]
fn summary_matcher() {
    assert!(is_summary(
        "f n=3 correct=1 mean_us=8.7 mean_nodes=51.3 max_us=225"
    ));
    assert!(!is_summary(
        "f n=3 correct=1 mean_us=8.7 mean_nodes=51.3 max_us=2.5"
    ));
    assert!(!is_summary(
        "f n=3 correct=x mean_us=8.7 mean_nodes=51.3 max_us=225"
    ));
    assert!(!is_summary("f n=3 correct=1 mean_us=8.7 mean_nodes=51.3"));
}

#[test]
fn bench_reports_wrong_and_bad_lines() {
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let file = dir.join(format!("inarow-bench-{}.txt", std::process::id()));
    let (good, good_score) = PUBLISHED[0];
    let (wrong, wrong_score) = PUBLISHED[1];
    let text = format!("{good} {good_score}\n{wrong} {}\nxyz\n", wrong_score + 1);
    std::fs::write(&file, text).expect("temp file");
    let path = file.to_str().expect("utf-8 path");
    let r = inarow(&["bench", path], None);
    let _ = std::fs::remove_file(&file);
    r.assert_no_panic();
    assert!(
        matches!(r.code, Some(c) if c != 0),
        "a wrong or bad line fails the run"
    );
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines.len(), 1, "one summary line per file:\n{}", r.stdout);
    assert!(is_summary(lines[0]), "summary format: '{}'", lines[0]);
    assert!(
        lines[0].starts_with(&format!("{path} n=3 correct=1 ")),
        "'{}'",
        lines[0]
    );
    assert!(
        r.stderr.contains(&format!("{path}:2")),
        "wrong line named:\n{}",
        r.stderr
    );
    assert!(r.stderr.contains(wrong), "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!("{path}:3")),
        "bad line named:\n{}",
        r.stderr
    );
    assert!(r.stderr.contains("xyz"), "{}", r.stderr);
    assert!(
        !r.stderr.contains(&format!("{path}:1")),
        "the good line is fine:\n{}",
        r.stderr
    );

    // A file that does not exist.
    let r = inarow(&["bench", "/nonexistent/inarow-bench.txt"], None);
    r.assert_no_panic();
    assert!(matches!(r.code, Some(c) if c != 0));
    assert!(
        r.stderr.contains("/nonexistent/inarow-bench.txt"),
        "{}",
        r.stderr
    );
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn bench_on_a_public_set() {
    let path = shared_path("connect4/Test_L3_R1");
    let path = path.to_str().expect("utf-8 path").to_string();
    let r = inarow(&["bench", "--limit", "200", &path], None);
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    let line = r.stdout.trim_end();
    assert!(is_summary(line), "'{line}'");
    assert!(
        line.starts_with(&format!("{path} n=200 correct=200 ")),
        "'{line}'"
    );
}

#[test]
fn time_limit_gives_an_unknown_score() {
    // The empty 7x6 board takes a search far longer than a millisecond.
    let r = inarow(&["solve", "--no-book", "--time", "0.001", "-"], None);
    r.assert_no_panic();
    assert_eq!(
        r.code,
        Some(3),
        "exit code 3 when a limit stops a search: {}",
        r.stderr
    );
    assert_eq!(r.stdout, "- ?\n");
    assert!(r.stderr.contains("time limit"), "{}", r.stderr);

    let r = inarow(&["solve", "--no-book", "--nodes", "10000", ""], None);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    assert_eq!(r.stdout, "- ?\n");
    assert!(r.stderr.contains("node limit"), "{}", r.stderr);

    // The built-in book knows it: a limit is a cap, not a wait.
    let r = inarow(&["solve", "--stats", "--time", "0.001", "-"], None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.starts_with("- 1 nodes=0 "), "{}", r.stdout);

    let r = inarow(
        &["solve", "--no-book", "--json", "--time", "0.001", "-"],
        None,
    );
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    let v: serde_json::Value = serde_json::from_str(r.stdout.trim()).expect("JSON");
    assert!(v["score"].is_null(), "{}", r.stdout);
    assert!(v["stopped"].is_string(), "{}", r.stdout);
}

#[test]
fn an_analysis_stops_at_its_time_limit_with_every_algorithm() {
    // Pentago at six stones: ~250 moves, none of them solvable in the time, and costly nodes
    // (a proof-number expansion judges ~250 children). The limit covers the whole analysis, not
    // each move, and holds inside a node too. The bound is the limit and a wide margin for a
    // loaded machine, far below a limit a move (50 s) or one checked every 1024 expansions.
    for algo in ["gallop", "pns", "pn2", "dfpn", "minimax"] {
        let started = std::time::Instant::now();
        let r = inarow(
            &[
                "analyze",
                "--game",
                "pentago",
                "--algo",
                algo,
                "--time",
                "0.2",
                "--mem-mb",
                "16",
                "a10rf63lb21lc42ra20r",
            ],
            None,
        );
        let took = started.elapsed();
        r.assert_no_panic();
        assert_eq!(r.code, Some(3), "{algo}: {}", r.stderr);
        assert!(r.stderr.contains("limit"), "{algo}: {}", r.stderr);
        assert!(took.as_secs_f64() < 5.0, "{algo}: {took:?} for --time 0.2");
    }
}

#[test]
fn self_play_on_4x4_is_a_draw() {
    // Perfect play on 4x4 ends in a draw (published).
    let r = inarow(&["play", "--human", "none", "--game", "connect4:4x4"], None);
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    assert_eq!(
        r.stdout
            .lines()
            .filter(|l| l.starts_with("engine plays"))
            .count(),
        16,
        "16 moves fill the board:\n{}",
        r.stdout
    );
    assert_eq!(r.stdout.lines().last(), Some("Draw."), "{}", r.stdout);

    // A human who closes the input ends the game without a fuss.
    let r = inarow(
        &["play", "--human", "first", "--game", "connect4:4x4"],
        None,
    );
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);

    // Two humans playing a vertical win; 'undo' takes one move back.
    let r = inarow(
        &["play", "--human", "both", "--game", "connect4:4x4"],
        Some("1\n2\n1\n2\n3\nundo\n1\n2\n1\n"),
    );
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    assert_eq!(
        r.stdout.lines().last(),
        Some("Red (X) wins."),
        "{}",
        r.stdout
    );
}

/// `inarow table` reproduces the published size table (k = 4, as tests/suite/sizes.rs restates
/// it and checks it against the public data), and its k = 3 rows, new results,
/// agree with the exhaustive reference solver on the boards it can do.
#[test]
fn size_table_matches_the_published_one_and_the_reference() {
    let run = inarow(&["table", "--max-cells", "25"], None);
    run.assert_no_panic();
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rows: Vec<Vec<String>> = run
        .stdout
        .lines()
        .filter(|l| !l.starts_with('#') && !l.starts_with("width"))
        .map(|l| l.split('\t').map(str::to_string).collect())
        .collect();
    assert_eq!(rows.len(), 6, "4x4 5x4 6x4 4x5 5x5 4x6:\n{}", run.stdout);
    for row in &rows {
        let (w, h) = (row[0].parse().unwrap(), row[1].parse().unwrap());
        assert_eq!(row[..4].join("\t"), super::sizes::published_row(w, h));
    }

    let run = inarow(&["table", "--k", "3", "--max-cells", "16"], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut checked = 0;
    for line in run
        .stdout
        .lines()
        .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
    {
        let f: Vec<&str> = line.split('\t').collect();
        let spec = format!("connect4:{}x{}:k3", f[0], f[1]);
        let value = with_connect!(super::common::start(&spec), g => {
            inarow::search::minimax::Minimax::new().value(&g)
        });
        let outcome = match value.signum() {
            1 => "first",
            0 => "draw",
            _ => "second",
        };
        assert_eq!(f[2], outcome, "{spec}");
        checked += 1;
    }
    assert_eq!(checked, 6, "3x3 4x3 5x3 3x4 4x4 3x5");
}

#[test]
fn size_table_verify_column_agrees() {
    for (args, method, rows) in [
        (
            &["--k", "3", "--max-cells", "20", "--verify", "minimax"][..],
            "minimax",
            10,
        ),
        (&["--max-cells", "24", "--verify", "dfpn"][..], "dfpn", 5),
        (
            &["--k", "3", "--max-cells", "16", "--verify", "pns"][..],
            "pns",
            6,
        ),
    ] {
        let run = inarow(&[&["table"], args].concat(), None);
        run.assert_no_panic();
        assert_eq!(run.code, Some(0), "{args:?}: {}", run.stderr);
        let lines: Vec<Vec<&str>> = run
            .stdout
            .lines()
            .filter(|l| l.chars().next().is_some_and(|c| c.is_ascii_digit()))
            .map(|l| l.split('\t').collect())
            .collect();
        assert_eq!(lines.len(), rows, "{args:?}:\n{}", run.stdout);
        for f in lines {
            assert_eq!(f[6], format!("{method}={}", f[2]), "{args:?}: {f:?}");
        }
    }
    let bad = inarow(&["table", "--verify", "magic"], None);
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("--verify magic"), "{}", bad.stderr);
}

#[test]
fn a_match_counts_games_and_perfect_play_never_loses_what_it_holds() {
    // 4x4 is a draw and 5x4 with k = 3 a first-player win (published; the exhaustive reference
    // agrees). From the empty board the exact engine never loses 4x4, and wins 5x4:k3 whenever
    // it moves first; moving second there it is lost, and a random player may find the win.
    for (game, first_must) in [("connect4:4x4", "not lose"), ("connect4:5x4:k3", "win")] {
        let r = inarow(
            &[
                "match",
                "--game",
                game,
                "best",
                "random",
                "--games",
                "4",
                "--time",
                "0.2",
                "--opening",
                "0",
            ],
            None,
        );
        r.assert_no_panic();
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        let games: Vec<&str> = r
            .stdout
            .lines()
            .filter(|l| l.starts_with("game "))
            .collect();
        assert_eq!(games.len(), 4, "{}", r.stdout);
        for line in games {
            let best_first = line.contains(" first best: ");
            let lost = line.contains(": b wins ");
            match first_must {
                "win" if best_first => assert!(line.contains(": a wins "), "{line}"),
                "win" => {}
                _ => assert!(!lost, "{line}"),
            }
        }
        let summary = r.stdout.lines().last().expect("a summary");
        // The summary names the game in full (connect4:4x4:k4).
        assert!(summary.starts_with(&format!("match {game}")), "{summary}");
        assert!(summary.contains(" best vs random: games 4 "), "{summary}");
    }
    let r = inarow(&["match", "best", "strongest"], None);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("unknown engine 'strongest'"),
        "{}",
        r.stderr
    );
}

#[test]
fn hint_values_every_move_when_the_solver_cannot_finish() {
    // The empty 7x6 board is far beyond a fraction of a second: the values are the heuristic
    // search's, marked as such, and no move is left without one.
    let r = inarow(
        &["play", "--think", "0.3", "--human", "both"],
        Some("hint\nquit\n"),
    );
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let values: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("  "))
        // Not the source's line nor the legend's two: `(...` and `   ~N is an estimate)`.
        .filter(|l| !l.starts_with('(') && !l.starts_with(' '))
        .collect();
    assert_eq!(values.len(), 7, "{}", r.stdout);
    for v in values {
        let value = v.split_whitespace().nth(1).expect("a value");
        assert!(
            value.starts_with('~') || value.parse::<i32>().is_ok(),
            "{v}"
        );
    }
}

/// One line on standard error, `inarow: ...`, naming `needle`.
fn assert_one_line_error(r: &Run, args: &[&str], needle: &str) {
    r.assert_no_panic();
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{args:?}: one line:\n{}", r.stderr);
    assert!(
        lines[0].starts_with("inarow: ") && lines[0].contains(needle),
        "{args:?}: '{}' should name '{needle}'",
        lines[0]
    );
}

#[test]
fn exit_codes_follow_one_table_in_every_command() {
    // 2: bad input, whatever the command, and whether the command stops or goes on.
    for (args, needle) in [
        (&["solve", "8"][..], "column 8"),
        (&["solve", "1111111"], "full"),
        (&["solve", "--game", "pentago", "zz9"], "zz9"),
        (&["analyze", "1111111"], "full"),
        (&["analyze", "8"], "column 8"),
        (&["bench", "garbage"], "garbage"),
        (&["verify", "/nonexistent/inarow-proof"], "/nonexistent"),
        (&["count", "--game", "chess"], "chess"),
        (&["gen", "--game", "chess", "--stones", "4"], "chess"),
        (&["play", "--game", "chess"], "chess"),
        (&["solve", "--time", "-1", "4"], "--time -1"),
        (&["analyze", "--time", "-1", "4"], "--time -1"),
        (&["bench", "--time", "-1", "garbage"], "--time -1"),
        (&["play", "--think", "-1"], "--think -1"),
        (&["match", "--time", "-1", "random", "random"], "--time -1"),
    ] {
        let r = inarow(args, None);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert_one_line_error(&r, args, needle);
        assert!(!r.stderr.contains("tip:"), "{args:?}: {}", r.stderr);
    }

    // A bad line among good ones: the good ones are answered, the run exits 2.
    let r = inarow(&["solve", "--game", "connect4:5x4"], Some("33\n8\n3\n"));
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 2, "{}", r.stdout);
    assert_one_line_error(&r, &["solve"], "line 2");

    // A bad line in a benchmark file is bad input (2); a wrong answer is internal (1).
    let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"));
    let bad = dir.join(format!("inarow-exit-bad-{}.txt", std::process::id()));
    let wrong = dir.join(format!("inarow-exit-wrong-{}.txt", std::process::id()));
    let (moves, score) = PUBLISHED[0];
    std::fs::write(&bad, format!("{moves} {score}\nxyz\n")).expect("temp file");
    std::fs::write(&wrong, format!("{moves} {}\nxyz\n", score + 1)).expect("temp file");
    let on = |file: &std::path::Path| inarow(&["bench", file.to_str().expect("utf-8")], None);
    let (r_bad, r_wrong) = (on(&bad), on(&wrong));
    let _ = std::fs::remove_file(&bad);
    let _ = std::fs::remove_file(&wrong);
    assert_eq!(r_bad.code, Some(2), "{}", r_bad.stderr);
    assert_eq!(r_wrong.code, Some(1), "{}", r_wrong.stderr);

    // 3: a limit; and a bad position after a stopped one still says bad input.
    let r = inarow(&["solve", "--no-book", "--nodes", "1000", "-"], None);
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    let r = inarow(&["solve", "--no-book", "--nodes", "1000", "-", "8"], None);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    let r = inarow(&["analyze", "--no-book", "--nodes", "1000", "-"], None);
    assert_eq!(r.code, Some(3), "{}", r.stderr);

    // 0.
    let r = inarow(&["solve", "--game", "connect4:5x4", "33"], None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn every_game_teaches_its_notation_in_games_and_in_plays_banner() {
    let games = inarow(&["games"], None);
    assert_eq!(games.code, Some(0), "{}", games.stderr);
    for (game, words, example) in [
        ("connect4", "column number 1-7", "4453"),
        ("popout", "p4 pops", "44p4"),
        ("cube", "hex digit 0-f", "05af"),
        ("qubic", "level 1-4", "a11b23"),
        ("pentago", "quadrant 0-3", "d53ra11l"),
    ] {
        assert!(
            games.stdout.contains(&format!("{game}\n")) && games.stdout.contains(words),
            "inarow games should teach {game}'s '{words}':\n{}",
            games.stdout
        );
        assert!(games.stdout.contains(&format!("like {example}")), "{game}");
        // The example is a move string the game reads.
        let r = inarow(&["solve", "--game", game, "--nodes", "1", example], None);
        assert!(
            matches!(r.code, Some(0 | 3)),
            "{game}: the example '{example}' is no move string: {}",
            r.stderr
        );
        // play's banner says the same.
        let r = inarow(&["play", "--game", game, "--think", "0.01"], Some("quit\n"));
        assert_eq!(r.code, Some(0), "{game}: {}", r.stderr);
        let banner = r.stdout.lines().next().unwrap_or("");
        assert!(
            banner.contains(words) && banner.contains(example),
            "{game}: play's banner '{banner}'"
        );
    }
}

#[test]
fn solve_says_it_reads_standard_input_only_on_a_terminal() {
    // Piped: the answers and nothing on standard error (a terminal gets one line saying
    // that the moves are read from standard input; checked by hand under `script`).
    let r = inarow(&["solve", "--game", "connect4:5x4"], Some("33\n"));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout, "33 0\n");
    assert_eq!(r.stderr, "", "nothing on standard error when piped");
}

/// Runs `inarow ARGS` for `seconds`, then stops it; what it printed on standard error by then.
fn stderr_within(args: &[&str], seconds: u64) -> String {
    let mut child = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(args)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the inarow binary runs");
    let mut err = child.stderr.take().expect("piped stderr");
    let reader = std::thread::spawn(move || {
        let mut s = String::new();
        let _ = err.read_to_string(&mut s);
        s
    });
    std::thread::sleep(Duration::from_secs(seconds));
    let _ = child.kill();
    let _ = child.wait();
    reader.join().expect("the reader ends")
}

#[test]
fn a_search_without_limits_says_when_it_may_not_end_soon() {
    // 9x7 Connect Four from the empty board: days, said within a few seconds.
    let err = stderr_within(&["analyze", "--game", "connect4:9x7"], 4);
    assert!(
        err.contains("no --time or --nodes limit") && err.contains("may take about"),
        "analyze of the empty 9x7 board said: {err}"
    );
    let err = stderr_within(&["solve", "--game", "cube", "-"], 4);
    assert!(
        err.contains("may take"),
        "solve of the empty cube said: {err}"
    );
    // A limit, or a search that ends at once, says nothing of the kind.
    let r = inarow(&["analyze", "--game", "connect4:9x7", "--time", "1"], None);
    assert!(!r.stderr.contains("may take"), "{}", r.stderr);
    let r = inarow(&["solve", "44"], None);
    assert_eq!((r.code, r.stderr.as_str()), (Some(0), ""));
}

/// `LO..HI` read as two scores.
fn score_range(text: &str) -> (i32, i32) {
    let (lo, hi) = text.split_once("..").expect("LO..HI");
    (lo.parse().expect("LO"), hi.parse().expect("HI"))
}

#[test]
fn a_search_logged_to_a_file_says_how_far_it_has_come() {
    // Standard error is a pipe here, not a terminal: no spinner, so lines of progress, every
    // tenth of a second as asked (ten minutes by default). 7x5 takes 6 M nodes, a second or two;
    // its value is 0.
    let out = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(["solve", "--no-book", "--game", "connect4:7x5", "-"])
        .env("INAROW_PROGRESS_EVERY", "0.1")
        .output()
        .expect("the inarow binary runs");
    assert_eq!(String::from_utf8_lossy(&out.stdout), "- 0\n");
    let err = String::from_utf8_lossy(&out.stderr);
    let number = |text: &str| text.replace(',', "").parse::<u64>();
    let (mut counts, mut ranges) = (Vec::new(), Vec::new());
    for line in err.lines() {
        let rest = line
            .strip_prefix("inarow: solving -: ")
            .unwrap_or_else(|| panic!("not a line of progress: {line}"));
        let (nodes, rest) = rest.split_once(" nodes, ").expect("nodes");
        let (rate, rest) = rest.split_once(" nodes/s, ").expect("rate");
        let (elapsed, range) = match rest.split_once(", score ") {
            Some((elapsed, range)) => (elapsed, Some(score_range(range))),
            None => (rest, None),
        };
        assert!(
            number(rate).is_ok() && elapsed.starts_with("0:00:"),
            "{line}"
        );
        counts.push(number(nodes).expect("a count of nodes"));
        ranges.extend(range);
    }
    assert!(!counts.is_empty(), "no line of progress");
    // Nodes only grow; the range proven only narrows, and always holds the value.
    assert!(counts.windows(2).all(|w| w[0] <= w[1]), "{counts:?}");
    assert!(
        ranges
            .windows(2)
            .all(|w| w[0].0 <= w[1].0 && w[1].1 <= w[0].1),
        "{ranges:?}"
    );
    assert!(ranges.iter().all(|&(lo, hi)| lo <= 0 && 0 <= hi && lo < hi));

    // Stopped by a limit, it says what its tests had proven: on 7x5 the tests from the
    // extremes end within a few hundred thousand nodes.
    let limited = [
        "solve",
        "--no-book",
        "--nodes",
        "1000000",
        "--game",
        "connect4:7x5",
        "-",
    ];
    let r = inarow(&limited, None);
    assert_eq!((r.code, r.stdout.as_str()), (Some(3), "- ?\n"));
    let range = (r.stderr.trim_end())
        .split_once("score unknown, proven ")
        .map(|(_, range)| score_range(range))
        .unwrap_or_else(|| panic!("no range proven: {}", r.stderr));
    // Of the 36 scores a 7x5 game can end with (-17..=18), the tests have ruled out most.
    assert!(range.0 <= 0 && 0 <= range.1, "{range:?}");
    assert!(
        range.1 - range.0 < 20,
        "little proven in a million nodes: {range:?}"
    );
    // The same search with --json gives the same bounds in the field `proven` (the search is
    // deterministic on one thread); one that ends gives none.
    let json = |args: &[&str]| {
        let r = inarow(args, None);
        serde_json::from_str::<serde_json::Value>(&r.stdout)
            .unwrap_or_else(|e| panic!("{e}: {}", r.stdout))
    };
    let stopped = json(&[&limited[..], &["--json"]].concat());
    assert_eq!(stopped["score"], serde_json::Value::Null);
    assert_eq!(stopped["proven"], serde_json::json!([range.0, range.1]));
    let solved = json(&["solve", "--json", "--game", "connect4:5x4", "-"]);
    assert_eq!(
        (&solved["score"], &solved["proven"]),
        (&serde_json::json!(0), &serde_json::Value::Null)
    );
}

#[test]
fn pentago_says_from_how_many_stones_it_solves_exactly_here() {
    // One stone: far beyond any machine's memory, whatever --mem-mb says.
    for mem in ["1024", "100000"] {
        let r = inarow(
            &["solve", "--game", "pentago", "--mem-mb", mem, "d53r"],
            None,
        );
        assert_eq!(r.code, Some(3), "{}", r.stderr);
        assert!(
            r.stderr.contains("no exact solve on this machine")
                && r.stderr
                    .contains("stones or more are solved exactly here, this one has 1"),
            "{}",
            r.stderr
        );
        assert!(!r.stderr.contains("MiB (--mem-mb"), "{}", r.stderr);
    }
    // A budget that the machine could give says how much to ask for.
    let r = inarow(
        &[
            "solve",
            "--game",
            "pentago",
            "--mem-mb",
            "16",
            "274440791932540184",
        ],
        None,
    );
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    assert!(r.stderr.contains("(--mem-mb 490)"), "{}", r.stderr);
}

#[test]
fn the_cube_and_qubic_boards_carry_their_coordinates() {
    let r = inarow(
        &["play", "--game", "qubic", "--human", "both"],
        Some("b23\nquit\n"),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    // b23: column b, row 2, level 3 (the third block), under its level's name.
    let header = r
        .stdout
        .lines()
        .rfind(|l| l.contains("level 1"))
        .expect("header");
    let rows: Vec<&str> = r.stdout.lines().collect();
    let row2 = rows
        .iter()
        .rev()
        .find(|l| l.starts_with("2  "))
        .expect("row 2");
    let x = row2.find('X').expect("the disc on row 2");
    let level3 = header.find("level 3").expect("level 3 named");
    assert!(
        (level3..level3 + 7).contains(&x),
        "X under 'level 3':\n{header}\n{row2}"
    );
    let letters = rows
        .iter()
        .rev()
        .find(|l| l.contains("a b c d"))
        .expect("letters");
    assert_eq!(&letters[x..x + 1], "b", "{letters}");
    // The cube: a key of the hex digits that drop a disc in each column.
    let r = inarow(
        &["play", "--game", "cube", "--human", "both"],
        Some("quit\n"),
    );
    assert!(r.stdout.contains("level 4   columns"), "{}", r.stdout);
    for key in ["c d e f", "0 1 2 3"] {
        assert!(r.stdout.contains(key), "{}", r.stdout);
    }
}

#[test]
fn the_engine_answers_as_soon_as_it_knows_rather_than_waiting_out_its_time() {
    // A whole 5x4 game of the engine against itself at a minute a move: every answer is
    // exact at once, so the game takes seconds, not twenty minutes.
    let began = Instant::now();
    let r = inarow(
        &[
            "play",
            "--game",
            "connect4:5x4",
            "--human",
            "none",
            "--think",
            "60",
        ],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("Draw"), "5x4 is a draw:\n{}", r.stdout);
    // The thinking spinner is drawn on a terminal only.
    assert!(!r.stderr.contains("thinking"), "{}", r.stderr);
    assert!(
        began.elapsed() < Duration::from_secs(50),
        "took {:?}",
        began.elapsed()
    );
}

#[test]
fn analyze_help_says_values_are_exact_only_where_settled() {
    let r = inarow(&["analyze", "--help"], None);
    assert!(
        !r.stdout.contains("The exact score of every"),
        "{}",
        r.stdout
    );
    assert!(r.stdout.contains("estimates marked ~"), "{}", r.stdout);
}

#[test]
fn pentago_from_18_stones_is_analysed_exactly_within_ten_seconds() {
    // Irving's 18-stone benchmark root: the midgame solver gets the time (it needs about two
    // seconds), so every value is exact, none an estimate that could contradict it.
    let r = inarow(
        &[
            "analyze",
            "--game",
            "pentago",
            "--time",
            "10",
            "274440791932540184",
        ],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 144, "{}", r.stdout);
    assert!(!r.stdout.contains('~'), "{}", r.stdout);
}

#[test]
fn command_line_mistakes_are_one_line_with_clap_suggestion() {
    for (args, needle) in [
        (&["solve", "--frobnicate", "44"][..], "'--frobnicate'"),
        (&["solve", "--time", "abc", "44"], "'abc'"),
        (&["frob"], "'frob'"),
        (&["anlyze", "44"], "'analyze'"),
        (&["solve", "--stat", "44"], "'--stats'"),
        // A board too small for k says what would fit, not an empty range.
        (&["solve", "--game", "connect4:1x1", "-"], "at least 4"),
        (
            &["solve", "--game", "connect4:3x3:k5", "-"],
            "k from 2 to 3",
        ),
    ] {
        let r = inarow(args, None);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert_one_line_error(&r, args, needle);
        assert!(!r.stderr.contains("between"), "{args:?}: {}", r.stderr);
        assert_eq!(r.stdout, "", "{args:?}");
    }
    let r = inarow(&["solve", "--frobnicate", "44"], None);
    assert!(r.stderr.contains("'inarow solve --help'"), "{}", r.stderr);
    // Help is still help: several lines on standard output, exit 0.
    let r = inarow(&["solve", "--help"], None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.lines().count() > 5, "{}", r.stdout);
}

/// PopOut's repetition rule in `play`: two pushes and two pops bring the empty board back,
/// which draws under the rule of the thesis (the second occurrence) and only on the next
/// return under the official one (the third); moves after the draw are not read.
#[test]
fn play_draws_by_the_repetition_rule_asked_for() {
    let cycle = "1\n2\np1\np2\n";
    for (rule, prompts) in [("2", 4), ("3", 8)] {
        let r = inarow(
            &[
                "play",
                "--game",
                "popout:4x4",
                "--human",
                "both",
                "--repetition",
                rule,
            ],
            Some(&format!("{cycle}{cycle}{cycle}quit\n")),
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert!(r.stdout.ends_with("Draw by repetition.\n"), "{}", r.stdout);
        assert_eq!(
            r.stdout.matches("to move> ").count(),
            prompts,
            "{}",
            r.stdout
        );
    }
}

#[test]
fn play_speaks_to_a_first_time_player() {
    // Colours as on the page, a word when undo has nothing to take back, hints explained.
    let r = inarow(
        &["play", "--game", "connect4:5x4", "--think", "1"],
        Some("undo\nhint\nquit\n"),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.contains("You are Red (X)"), "{}", r.stdout);
    assert!(r.stdout.contains("Red (X) to move> "), "{}", r.stdout);
    assert!(r.stdout.contains("Nothing to undo"), "{}", r.stdout);
    assert!(
        r.stdout.contains("(values for Red (X): > 0 wins"),
        "{}",
        r.stdout
    );

    // Pentago: the quadrants' numbers on the board and in the banner; the hints' best few.
    let r = inarow(
        &["play", "--game", "pentago", "--think", "0.5"],
        Some("hint\nquit\n"),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.contains("0 lower left, 1 upper left"),
        "{}",
        r.stdout
    );
    assert!(
        r.stdout.contains("quadrants: 1 | 3 above, 0 | 2 below"),
        "{}",
        r.stdout
    );
    let hints = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("  ") && l.len() < 12)
        .count();
    assert!(hints <= 10, "{hints} hint lines:\n{}", r.stdout);
    assert!(r.stdout.contains("more moves, none better"), "{}", r.stdout);
    // Pentago's values are win / draw / loss; the legend says so, within 80 columns.
    assert!(
        r.stdout.contains("1 wins, 0 draws, -1 loses"),
        "{}",
        r.stdout
    );
    for line in r.stdout.lines().filter(|l| l.contains("values for")) {
        assert!(line.chars().count() <= 80, "{line}");
    }
}

/// `solve --proof` to a place that cannot be written says so before its search (which may take
/// hours), not after: no score is printed.
#[test]
fn a_certificate_that_cannot_be_written_stops_solve_before_its_search() {
    let file = "/nonexistent-inarow-dir/x.cert";
    let r = inarow(
        &["solve", "--game", "connect4:5x4:k3", "--proof", file, "-"],
        None,
    );
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(r.stdout, "", "no search ran");
    assert!(
        r.stderr.contains(&format!("cannot write '{file}'")),
        "{}",
        r.stderr
    );
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

/// One proven value is written one way whatever answered: Qubic's strategy (a11's replies all
/// lose to it) and the solver (a11d44b23a22b11, issue 80's example without its `--time 10`,
/// which a loaded machine may not meet) both write a loss `-1`, as the JSON's `value` does;
/// `play`'s `hint` lists the strategy's values that way, under a legend that says so.
#[test]
fn a_proven_value_is_written_the_same_whatever_answered() {
    let strategy = inarow(&["analyze", "--game", "qubic", "a11"], None);
    assert_eq!(strategy.code, Some(0), "{}", strategy.stderr);
    let solver = inarow(&["analyze", "--game", "qubic", "a11d44b23a22b11"], None);
    assert_eq!(solver.code, Some(0), "{}", solver.stderr);
    for out in [&strategy.stdout, &solver.stdout] {
        assert!(
            out.lines().all(|l| l.ends_with(" -1")),
            "every move loses, written -1:\n{out}"
        );
    }
    let json = inarow(&["analyze", "--game", "qubic", "--json", "a11"], None);
    let json: serde_json::Value = serde_json::from_str(&json.stdout).expect("JSON");
    let first = &json["analysis"][0];
    assert_eq!(
        (&first["value"], &first["outcome"], &first["exact"]),
        (
            &serde_json::json!("-1"),
            &serde_json::json!("loss"),
            &serde_json::json!(true)
        )
    );
    let play = inarow(
        &[
            "play", "--game", "qubic", "--human", "second", "--think", "1",
        ],
        Some("hint\nquit\n"),
    );
    assert_eq!(play.code, Some(0), "{}", play.stderr);
    let hints: Vec<&str> = play
        .stdout
        .lines()
        .filter(|l| l.starts_with("  ") && l.trim().split(' ').count() == 2)
        .collect();
    assert!(!hints.is_empty(), "{}", play.stdout);
    assert!(hints.iter().all(|l| l.ends_with(" -1")), "{hints:?}");
    assert!(
        play.stdout
            .contains("(values for Yellow (O): 1 wins, 0 draws, -1 loses; ~N is an estimate)"),
        "{}",
        play.stdout
    );
    assert!(!play.stdout.contains("loss"), "{}", play.stdout);
}
