//! The proof-number family (PNS, PN², df-pn) against the alpha-beta solver on the public sets in
//! weak mode, through the engine, and its certificates through the command line: every proof
//! written verifies, a corrupted one is rejected, and a memory budget stops a search cleanly.

use super::cli::inarow;
use super::common::shared_path;
use super::common::temp_file;
use inarow::engine::{Algorithm, Engine, Options};
use inarow::game::{Connect, Grid, Rules, Runtime, Standard, play_moves};
use inarow::search::Limits;

/// Lines of a public set, `(moves, published score)`.
fn sample(name: &str, every: usize, count: usize) -> Vec<(String, i32)> {
    let path = shared_path(&format!("connect4/{name}"));
    let text = std::fs::read_to_string(&path).expect("readable public set");
    text.lines()
        .step_by(every)
        .take(count)
        .map(|l| {
            let (moves, score) = l.split_once(' ').expect("MOVES SCORE");
            (moves.to_string(), score.trim().parse().expect("a score"))
        })
        .collect()
}

fn engine(algorithm: Algorithm) -> Engine<Connect<u64, Standard>> {
    let options = Options {
        algorithm: Some(algorithm),
        weak: true,
        mem_mb: 256,
        ..Options::default()
    };
    Engine::new(&Connect::new(Standard), options)
}

/// Every proof-number variant gives the sign of the published score, as alpha-beta does.
fn agree_on(name: &str, every: usize, count: usize, algorithms: &[Algorithm]) {
    let lines = sample(name, every, count);
    let start = Connect::<u64, _>::new(Standard);
    for &algorithm in [Algorithm::AlphaBeta].iter().chain(algorithms) {
        let mut engine = engine(algorithm);
        for (moves, published) in &lines {
            let (pos, _) = play_moves(start, moves).expect("public position");
            engine.reset();
            let report = engine.solve(&pos, &Limits::default());
            assert_eq!(
                report.score,
                Some(published.signum()),
                "{algorithm} on {name} {moves}: published {published}"
            );
        }
    }
}

const ALL: [Algorithm; 3] = [Algorithm::Pns, Algorithm::Pn2, Algorithm::DfPn];

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn proof_numbers_agree_on_l3_r1() {
    agree_on("Test_L3_R1", 10, 100, &ALL);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn proof_numbers_agree_on_l2_r1() {
    agree_on("Test_L2_R1", 50, 20, &ALL);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn proof_numbers_agree_on_l2_r2_and_l1_r1() {
    agree_on("Test_L2_R2", 200, 5, &[Algorithm::DfPn, Algorithm::Pns]);
    agree_on("Test_L1_R1", 200, 5, &[Algorithm::DfPn, Algorithm::Pns]);
}

/// The engine's proof-number searches honour a node limit and say so.
#[test]
fn node_limit_stops_a_proof_number_search() {
    for algorithm in ALL {
        let options = Options {
            algorithm: Some(algorithm),
            ..Options::default()
        };
        let limits = Limits {
            nodes: Some(1000),
            ..Limits::default()
        };
        let start = Connect::<u64, _>::new(Standard);
        let mut engine = Engine::new(&start, options);
        let report = engine.solve(&start, &limits);
        assert_eq!(
            report.score, None,
            "{algorithm}: the empty board in 1000 nodes"
        );
        assert!(report.stopped.is_some(), "{algorithm} says why it stopped");
    }
}

#[test]
fn certificates_list_one_position_of_each_symmetry_class() {
    // The empty 5x4 board is its own mirror image: a strategy reaches mirrored positions in
    // different branches, and a certificate (format 3) gives lines for only one of each pair.
    let file = temp_file("connect4_5x4_classes.proof");
    let path = file.to_str().unwrap();
    let run = inarow(
        &[
            "solve",
            "--algo",
            "dfpn",
            "--game",
            "connect4:5x4",
            "--proof",
            path,
            "-",
        ],
        None,
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let verified = inarow(&["verify", path], None);
    assert_eq!(verified.code, Some(0), "{}", verified.stdout);
    assert!(
        verified.stdout.contains("(0 unused)"),
        "{}",
        verified.stdout
    );
    let start = Connect::<u64, _>::new(Runtime::new(Grid::new(5, 4, 4).unwrap()));
    let text = std::fs::read_to_string(&file).unwrap();
    // Each section (one per certificate) lists prover positions: PATH MOVE after the header.
    for section in text.split("inarow-proof").skip(1) {
        let mut classes = std::collections::HashMap::new();
        let mut lines = 0;
        for line in section.lines().skip(5) {
            let line = line.split('#').next().unwrap().trim();
            let Some((path, _)) = line.rsplit_once(' ') else {
                continue;
            };
            if line.contains(" : ") {
                continue;
            }
            let pos = if path == "-" {
                start
            } else {
                play_moves(start, path).unwrap().0
            };
            lines += 1;
            if let Some(other) = classes.insert(pos.canonical_key(), pos.key()) {
                assert_eq!(
                    other,
                    pos.key(),
                    "the mirror image of a listed position: {path}"
                );
            }
        }
        assert!(lines > 100, "{lines} lines");
    }
    std::fs::remove_file(&file).ok();
}

#[test]
fn certificates_verify_and_corruption_is_rejected() {
    // A draw (two certificates), a first-player win and a second-player win on small boards.
    for (game, moves, expected) in [
        ("connect4:5x4", "-", "0"),
        ("connect4:4x4:k3", "-", "1"),
        ("connect4:6x4", "-", "-1"),
    ] {
        let file = temp_file(&format!("{}.proof", game.replace(':', "_")));
        let path = file.to_str().unwrap();
        let run = inarow(
            &[
                "solve", "--algo", "dfpn", "--game", game, "--proof", path, moves,
            ],
            None,
        );
        run.assert_no_panic();
        assert_eq!(run.code, Some(0), "{game}: {}", run.stderr);
        assert_eq!(run.stdout.trim(), format!("- {expected}"), "{game}");
        let verified = inarow(&["verify", path], None);
        assert_eq!(verified.code, Some(0), "{game}: {}", verified.stdout);
        let sections = if expected == "0" { 2 } else { 1 };
        assert_eq!(
            verified.stdout.matches("verified:").count(),
            sections,
            "{game}: {}",
            verified.stdout
        );

        // Drop the last move line: some prover position is left without a move.
        let text = std::fs::read_to_string(&file).unwrap();
        let mut lines: Vec<&str> = text.lines().collect();
        lines.pop();
        std::fs::write(&file, lines.join("\n")).unwrap();
        let rejected = inarow(&["verify", path], None);
        assert_eq!(rejected.code, Some(1), "{game}: {}", rejected.stdout);
        assert!(rejected.stdout.contains("rejected:"), "{}", rejected.stdout);
        rejected.assert_no_panic();
        std::fs::remove_file(&file).ok();
    }
}

#[test]
fn memory_budget_stops_pns_cleanly() {
    let run = inarow(&["solve", "--algo", "pns", "--mem-mb", "1", "-"], None);
    run.assert_no_panic();
    assert_eq!(run.code, Some(3), "{}", run.stderr);
    assert_eq!(run.stdout.trim(), "- ?");
    assert!(run.stderr.contains("memory budget"), "{}", run.stderr);
}

/// Through the session, as `solve --proof` goes: df-pn proves a position and gives its
/// certificates, which the verifier accepts from the position's moves; a checkpoint of a
/// method without a table is refused.
#[test]
fn the_session_certifies_what_it_proves() {
    use inarow::session::{self, Algorithm as Method, Settings};
    let rules = session::game("connect4:4x4:k3").unwrap();
    let settings = Settings {
        algorithm: Some(Method::DfPn),
        ..Settings::default()
    };
    let tools = session::tools(rules.as_ref()).unwrap();
    let mut solver = rules.agent(&settings, 0).unwrap();
    assert_eq!(solver.algorithm(), Some(Method::DfPn));
    for (moves, score) in [("", 1), ("21", 1)] {
        let pos = rules.read(moves).unwrap();
        let proven = tools
            .certify(solver.as_mut(), pos.as_ref(), &Limits::default())
            .unwrap();
        assert_eq!(proven.solution.score, Some(score), "{moves}");
        assert!(proven.solution.nodes > 0);
        let verified = tools
            .verify_certificate(&proven.text)
            .unwrap_or_else(|e| panic!("{moves}: {e}"));
        assert_eq!(verified.root, if moves.is_empty() { "-" } else { moves });
    }
    let checkpoint = temp_file("session-dfpn.checkpoint");
    let refused = tools
        .checkpoint(solver.as_mut(), &checkpoint)
        .err()
        .expect("df-pn keeps no table to save");
    assert!(refused.to_string().contains("alpha-beta"), "{refused}");
    assert!(!checkpoint.exists());
}
