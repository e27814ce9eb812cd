//! Pascal Pons' public Connect Four 7x6 benchmark sets (`shared/data/connect4/Test_L*_R*`): every
//! published exact score of the easier sets, samples of the harder ones, and the weak mode.
//! Built ignored, with the reason, when the public data is not beside the clone.

use super::common::shared_path;
use inarow::game::{Connect, Standard, play_moves};
use inarow::limits::Clock;
use inarow::search::{AlphaBeta, Config};
use std::time::Instant;

/// The published lines of one set: `(line number, moves, score)`.
fn read_set(name: &str) -> Vec<(usize, String, i32)> {
    let path = shared_path(&format!("connect4/{name}"));
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let lines: Vec<(usize, String, i32)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .map(|(i, l)| {
            let fields: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(fields.len(), 2, "{name}:{}: bad line '{l}'", i + 1);
            let score = fields[1]
                .parse()
                .unwrap_or_else(|_| panic!("{name}:{}: bad score in '{l}'", i + 1));
            (i + 1, fields[0].to_string(), score)
        })
        .collect();
    assert_eq!(lines.len(), 1000, "{name}: every public set has 1000 lines");
    lines
}

/// Solves the selected lines of a set with one solver and checks every score; `reset` clears
/// the table before each position (as the published timings do), otherwise the table carries
/// over from one position to the next.
fn check_set(name: &str, select: impl Fn(usize) -> bool, reset: bool, weak: bool) {
    check_set_with(name, select, reset, weak, Config::default());
}

fn check_set_with(
    name: &str,
    select: impl Fn(usize) -> bool,
    reset: bool,
    weak: bool,
    config: Config,
) {
    let lines = read_set(name);
    let start = Connect::<u64, _>::new(Standard);
    let threads = config.threads;
    let mut solver = AlphaBeta::new(&start, config);
    let mut wrong = Vec::new();
    let mut count = 0;
    let t = Instant::now();
    for (i, (line, moves, published)) in lines.iter().enumerate() {
        if !select(i) {
            continue;
        }
        count += 1;
        let (pos, _) = play_moves(start, moves)
            .unwrap_or_else(|e| panic!("{name}:{line}: public position does not parse: {e}"));
        if reset {
            solver.reset();
        }
        let expected = if weak { published.signum() } else { *published };
        match solver.solve(&pos, weak, &mut Clock::default()) {
            Ok(got) if got == expected => {}
            got => wrong.push(format!(
                "{name}:{line}: {moves} expected {expected} got {got:?}"
            )),
        }
    }
    eprintln!(
        "{name}: {count} positions{}, {threads} thread(s), in {:?}",
        if weak { " (weak)" } else { "" },
        t.elapsed()
    );
    assert!(
        wrong.is_empty(),
        "{} of {count} positions of {name} disagree with the published scores:\n{}",
        wrong.len(),
        wrong
            .iter()
            .take(20)
            .cloned()
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn l3_r1_all() {
    check_set("Test_L3_R1", |_| true, false, false);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn l2_r1_all() {
    check_set("Test_L2_R1", |_| true, false, false);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn l2_r1_all_weak() {
    check_set("Test_L2_R1", |_| true, true, true);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn l1_r1_all() {
    check_set("Test_L1_R1", |_| true, true, false);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn l1_r2_every_50th() {
    check_set("Test_L1_R2", |i| i % 50 == 0, true, false);
}

/// Two threads from the first node (no solo run), so that every search is a race sharing one
/// table; the answers must not change.
fn two_threads() -> Config {
    Config {
        threads: 2,
        solo_nodes: 0,
        ..Config::default()
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn l2_r2_every_4th_two_threads() {
    check_set_with("Test_L2_R2", |i| i % 4 == 0, true, false, two_threads());
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn l1_r2_every_100th_two_threads() {
    check_set_with("Test_L1_R2", |i| i % 100 == 0, true, false, two_threads());
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn l2_r1_weak_two_threads_table_kept() {
    check_set_with("Test_L2_R1", |_| true, false, true, two_threads());
}
