//! The bench signature (as Stockfish's `bench`): the total node count of the default solver over a
//! fixed suite, with the table cleared before each position. It changes whenever the search
//! changes what it visits; after a deliberate change, set [`SIGNATURE`] to the value this test
//! prints (`cargo test --release --test tests signature -- --nocapture`).
//!
//! The suite: the built-in suite of `inarow bench` (empty boards with published values), and 7x6
//! positions made by a seeded generator, each cross-checked against a second, plain configuration.

use super::cli::inarow;
use super::common::SplitMix;
use inarow::game::{Connect, MoveList, Rules, Standard, Tactics};
use inarow::limits::Clock;
use inarow::search::{AlphaBeta, Config, Driver, Scheme};

const SIGNATURE: u64 = 2008881;

/// 7x6 positions of 14 to 23 plies, reached by random moves that neither win nor lose at once.
fn generated_positions(count: usize) -> Vec<Connect<u64, Standard>> {
    let mut rng = SplitMix(0x1a2b_3c4d);
    let mut positions = Vec::new();
    while positions.len() < count {
        let plies = 14 + positions.len() % 10;
        let mut pos = Connect::new(Standard);
        while (pos.ply() as usize) < plies && !pos.has_winning_move() {
            let mut safe = MoveList::new();
            pos.safe_moves(&mut safe);
            if safe.is_empty() {
                break;
            }
            pos = pos.play(safe[rng.below(safe.len())].mv);
        }
        if pos.ply() as usize == plies && !pos.has_winning_move() {
            positions.push(pos);
        }
    }
    positions
}

#[test]
fn bench_signature() {
    // The built-in suite as `inarow bench` runs it: `builtin n=10 correct=10 ...`, then
    // `signature N`, its node total.
    let bench = inarow(&["bench"], None);
    assert_eq!(bench.code, Some(0), "{}", bench.stderr);
    let field = |line: &str, key: &str| {
        line.split_whitespace()
            .find_map(|f| f.strip_prefix(key))
            .and_then(|v| v.parse::<u64>().ok())
            .unwrap_or_else(|| panic!("no {key} in '{line}'"))
    };
    let summary = bench.stdout.lines().next().unwrap_or("");
    assert_eq!(
        field(summary, "n="),
        field(summary, "correct="),
        "the built-in suite has published values: {summary}"
    );
    let builtin_nodes = bench
        .stdout
        .lines()
        .find_map(|l| l.strip_prefix("signature "))
        .and_then(|n| n.parse::<u64>().ok())
        .expect("a signature line");

    let positions = generated_positions(30);
    let mut fast = AlphaBeta::new(&positions[0], Config::default());
    // As in every benchmark: the table touched before the searches, so they use all of it.
    fast.ready();
    let plain_config = Config {
        driver: Driver::Bisection,
        scheme: Scheme::New,
        symmetry: false,
        tt_move: false,
        etc: false,
        strategy_bounds: false,
        ..Config::default()
    };
    let mut plain = AlphaBeta::new(&positions[0], plain_config);
    let mut nodes_7x6 = 0;
    for pos in &positions {
        fast.reset();
        let score = fast
            .solve(pos, false, &mut Clock::default())
            .expect("no limits");
        nodes_7x6 += fast.nodes();
        plain.reset();
        assert_eq!(
            plain.solve(pos, false, &mut Clock::default()),
            Ok(score),
            "the default and the plain solver disagree on {pos:?}"
        );
    }

    let total = builtin_nodes + nodes_7x6;
    println!("bench signature: measured {total} (builtin={builtin_nodes} 7x6={nodes_7x6})");
    assert_eq!(
        total, SIGNATURE,
        "bench signature changed: measured {total} nodes (builtin={builtin_nodes} 7x6={nodes_7x6}); if the \
         change to the search is deliberate, set SIGNATURE in tests/suite/signature.rs to {total}"
    );
}
