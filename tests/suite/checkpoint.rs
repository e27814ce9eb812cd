//! `solve --checkpoint`: a solve stopped by a limit or by Ctrl-C saves its table and the root
//! driver's tests, and a run started again from the file goes on where it was.

use super::cli::{Run, inarow};
use super::common::temp_file;
use std::process::{Command, Stdio};
use std::time::Duration;

/// connect4:7x5 (a draw) takes about 10.5 M nodes from scratch on one thread.
const GAME: &str = "connect4:7x5";

/// The score and node count of a `solve --stats` line.
fn score_and_nodes(run: &Run) -> (String, u64) {
    let line = run.stdout.lines().next().unwrap_or_else(|| {
        panic!("no answer: {}", run.stderr);
    });
    let fields: Vec<&str> = line.split_whitespace().collect();
    let nodes = fields
        .iter()
        .find_map(|f| f.strip_prefix("nodes="))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no node count in '{line}'"));
    (fields[1].to_string(), nodes)
}

fn solve(file: &str, extra: &[&str]) -> Run {
    let mut args = vec!["solve", "--stats", "--game", GAME, "--checkpoint", file];
    args.extend(extra);
    args.push("-");
    let run = inarow(&args, None);
    run.assert_no_panic();
    run
}

#[test]
fn a_solve_stopped_by_limits_resumes_where_it_was() {
    let whole = temp_file("whole.ckpt");
    let from_scratch = solve(whole.to_str().unwrap(), &[]);
    assert_eq!(from_scratch.code, Some(0), "{}", from_scratch.stderr);
    let (score, full) = score_and_nodes(&from_scratch);
    assert_eq!(score, "0", "7x5 is a draw (Tromp)");

    // Stopped three times, then run to the end: every node of the stopped runs counts.
    let stopped = temp_file("stopped.ckpt");
    let path = stopped.to_str().unwrap();
    let mut spent = 0;
    for _ in 0..3 {
        let run = solve(path, &["--nodes", "2000000"]);
        assert_eq!(run.code, Some(3), "{}", run.stderr);
        assert!(run.stderr.contains("node limit reached"), "{}", run.stderr);
        assert!(run.stderr.contains("saved"), "{}", run.stderr);
        let (score, nodes) = score_and_nodes(&run);
        assert_eq!(score, "?");
        spent += nodes;
    }
    let last = solve(path, &[]);
    assert_eq!(last.code, Some(0), "{}", last.stderr);
    assert!(last.stderr.contains("resuming"), "{}", last.stderr);
    let (score, nodes) = score_and_nodes(&last);
    assert_eq!(score, "0");
    spent += nodes;
    // Without the checkpoint each run would start over; with it, the stops cost next to
    // nothing (measured: 2.6 K nodes each).
    assert!(
        spent <= full + full / 100,
        "stopped runs took {spent} nodes in all, one run {full}"
    );
    // Solved already: the recorded tests answer at once.
    let again = solve(path, &[]);
    assert_eq!(score_and_nodes(&again), ("0".to_string(), 0));
    for file in [whole, stopped] {
        std::fs::remove_file(file).unwrap();
    }
}

/// Ctrl-C to `child`, once it catches SIGINT (its handler is in: a loaded machine may take a
/// while to get there) and its search is under way.
fn ctrl_c(child: &std::process::Child) {
    let catches_sigint = || {
        let status = std::fs::read_to_string(format!("/proc/{}/status", child.id()));
        status
            .ok()
            .and_then(|s| {
                let mask = s.lines().find_map(|l| l.strip_prefix("SigCgt:"))?;
                u64::from_str_radix(mask.trim(), 16).ok()
            })
            .is_some_and(|mask| mask >> (libc::SIGINT - 1) & 1 == 1)
    };
    let began = std::time::Instant::now();
    while !catches_sigint() && began.elapsed() < Duration::from_secs(30) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(400));
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
}

/// Runs `inarow ARGS`, sends it Ctrl-C once its handler is set, and checks that it stopped as
/// interrupted (exit 3, `interrupted after` on standard error): its standard output and error.
fn interrupted(args: &[&str]) -> (String, String) {
    let child = Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the inarow binary runs");
    ctrl_c(&child);
    let out = child.wait_with_output().unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    assert_eq!(out.status.code(), Some(3), "{stderr}");
    assert!(stderr.contains("interrupted after"), "{stderr}");
    (String::from_utf8_lossy(&out.stdout).to_string(), stderr)
}

/// Without a checkpoint too, Ctrl-C stops the search: its score `?`, exit 3 (README).
#[test]
fn ctrl_c_stops_a_plain_solve_with_an_unknown_score() {
    let (stdout, _) = interrupted(&["solve", "--game", "cube", "-"]);
    assert_eq!(stdout.trim(), "- ?");
}

#[test]
fn ctrl_c_stops_a_two_thread_solve_which_then_resumes() {
    let file = temp_file("interrupted.ckpt");
    let path = file.to_str().unwrap();
    let (_, stderr) = interrupted(&[
        "solve",
        "--stats",
        "--threads",
        "2",
        "--game",
        "connect4:6x6",
        "--checkpoint",
        path,
        "-",
    ]);
    assert!(stderr.contains("saved"), "{stderr}");
    // 6x6 is a second-player win on the last move (Tromp): a score of -1.
    let resumed = inarow(
        &[
            "solve",
            "--threads",
            "2",
            "--game",
            "connect4:6x6",
            "--checkpoint",
            path,
            "-",
        ],
        None,
    );
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    assert!(resumed.stderr.contains("resuming"), "{}", resumed.stderr);
    assert_eq!(resumed.stdout.trim(), "- -1");
    std::fs::remove_file(file).unwrap();
}

#[test]
fn bad_checkpoints_are_refused_and_left_alone() {
    let file = temp_file("bad.ckpt");
    let path = file.to_str().unwrap();
    let small = ["--game", "connect4:5x4", "--tt-mb", "1"];
    let made = inarow(
        &[&["solve", "--checkpoint", path][..], &small, &["-"]].concat(),
        None,
    );
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let good = std::fs::read(&file).unwrap();
    let refused = |bytes: &[u8], args: &[&str], expect: &str| {
        std::fs::write(&file, bytes).unwrap();
        let run = inarow(
            &[&["solve", "--checkpoint", path][..], args, &["-"]].concat(),
            None,
        );
        run.assert_no_panic();
        assert_eq!(run.code, Some(2), "{args:?}: {}", run.stderr);
        assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
        assert!(run.stderr.contains(expect), "{args:?}: {}", run.stderr);
        assert_eq!(
            std::fs::read(&file).unwrap(),
            bytes,
            "the file is left as it was"
        );
    };
    let mut flipped = good.clone();
    let at = flipped.len() / 2;
    flipped[at] ^= 0x10;
    refused(&flipped, &small, "checksum mismatch");
    refused(&good[..good.len() - 7], &small, "truncated");
    refused(b"hello\n\nworld", &small, "not an inarow checkpoint");
    refused(
        &good,
        &["--game", "connect4:4x4", "--tt-mb", "1"],
        "is for connect4:5x4:k4",
    );
    refused(
        &good,
        &["--game", "connect4:5x4", "--tt-mb", "2"],
        "--tt-mb it was made with",
    );
    refused(
        &good,
        &["--game", "connect4:5x4", "--algo", "dfpn"],
        "alpha-beta",
    );
    std::fs::remove_file(file).unwrap();
}
