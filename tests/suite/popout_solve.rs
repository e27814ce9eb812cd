//! Solving PopOut: the published values of the small boards by two methods (the repetition-aware
//! alpha-beta and df-pn), random positions on which they agree (with the path's history), the
//! two repetition rules, the handicaps, distances, and df-pn certificates checked by the
//! verifier.

use super::cli::inarow;
use super::common::{SplitMix, shared_path, start, temp_file};
use inarow::engine::{Algorithm, Engine, Options};
use inarow::game::{GameLine, MoveList, Repetition, Rules, Status};
use inarow::limits::{Clock, Limits};
use inarow::search::Stop;
use inarow::search::winner::{Handicap, WinSearch};

fn options(algorithm: Algorithm, repetition: u32) -> Options {
    let mut options = Options {
        algorithm: Some(algorithm),
        repetition,
        mem_mb: 256,
        ..Options::default()
    };
    options.config.tt_mb = 64;
    options
}

/// The published outcome (the public data's popout_values.tsv) of a board, `None` for a board
/// the table does not hold.
fn published(width: u32, height: u32) -> Option<String> {
    let path = shared_path("tables/popout_values.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .map(|l| l.split('\t').collect::<Vec<_>>())
        .find(|f| f.len() == 3 && f[0] == width.to_string() && f[1] == height.to_string())
        .map(|f| f[2].to_string())
}

#[test]
#[ignore = "long: run by `cargo test --release -- --ignored` (CI runs it)"]
fn small_boards_by_two_methods_match_the_published_values() {
    // (width, height, score for the first player, plies to the end)
    for (w, h, score, plies) in [(4, 4, 0, None), (4, 5, 1, Some(25)), (4, 6, 1, Some(25))] {
        let spec = format!("popout:{w}x{h}");
        inarow::with_game!(start(&spec), g => {
            let with_distance = |algorithm: Option<Algorithm>| Options {
                algorithm,
                distance: true,
                ..options(Algorithm::AlphaBeta, 2)
            };
            let exact = Engine::new(&g, with_distance(Some(Algorithm::AlphaBeta))).solve(&g, &Limits::default());
            assert_eq!(exact.score, Some(score), "{spec}: alpha-beta");
            assert_eq!(exact.plies, plies, "{spec}: distance");
            let dfpn = Engine::new(&g, options(Algorithm::DfPn, 2)).solve(&g, &Limits::default());
            assert_eq!(dfpn.score, Some(score), "{spec}: df-pn");
            assert_eq!(dfpn.plies, None, "{spec}: no distance unless asked for");
            // The default: df-pn for the value, then the distance.
            let default = Engine::new(&g, with_distance(None)).solve(&g, &Limits::default());
            assert_eq!((default.score, default.plies), (Some(score), plies), "{spec}: default");
        });
    }
}

/// Random positions (drops and pops, with the moves that led there as history): the two
/// methods agree, and on boards this small the two repetition rules give the same values.
#[test]
#[ignore = "long: run by `cargo test --release -- --ignored` (CI runs it)"]
fn random_positions_agree() {
    let mut rng = SplitMix(0x9090);
    for (spec, count, rule3) in [
        ("popout:4x4", 150, false),
        ("popout:4x3", 100, true),
        ("popout:3x4", 100, true),
    ] {
        inarow::with_game!(start(spec), g => {
            let mut ab = Engine::new(&g, options(Algorithm::AlphaBeta, 2));
            let mut ab3 = Engine::new(&g, options(Algorithm::AlphaBeta, 3));
            let mut dfpn = Engine::new(&g, options(Algorithm::DfPn, 2));
            let (mut wins, mut draws, mut losses) = (0, 0, 0);
            for _ in 0..count {
                let mut line = GameLine::new(g);
                for _ in 0..4 + rng.below(24) {
                    let pos = *line.position();
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    let open: Vec<_> = moves
                        .iter()
                        .copied()
                        .filter(|&m| pos.play(m).status() == Status::Ongoing && line.occurrences_before(pos.play(m).key()) == 0)
                        .collect();
                    if open.is_empty() {
                        break;
                    }
                    line.play(open[rng.below(open.len())]);
                }
                let pos = *line.position();
                let a = ab.solve(&line, &Limits::default()).score.expect("no limits");
                let d = dfpn.solve(&line, &Limits::default()).score.expect("no limits");
                assert_eq!(a, d, "{spec} {pos:?} history {}", line.moves().len());
                if rule3 {
                    assert_eq!(ab3.solve(&line, &Limits::default()).score, Some(a), "{spec} {pos:?}: rule of 3");
                }
                match a {
                    1 => wins += 1,
                    0 => draws += 1,
                    _ => losses += 1,
                }
            }
            // The sample must not be all of one value (3x4 has only vertical lines: few losses).
            let kinds = [wins, draws, losses].iter().filter(|&&n| n > 0).count();
            assert!(kinds >= 2, "{spec}: {wins} wins, {draws} draws, {losses} losses");
        });
    }
}

#[test]
fn the_two_repetition_rules_agree_on_the_empty_small_boards() {
    for spec in ["popout:4x3", "popout:3x4"] {
        inarow::with_game!(start(spec), g => {
            let two = Engine::new(&g, options(Algorithm::AlphaBeta, 2)).solve(&g, &Limits::default());
            let three = Engine::new(&g, options(Algorithm::AlphaBeta, 3)).solve(&g, &Limits::default());
            assert!(two.score.is_some(), "{spec}");
            assert_eq!(two.score, three.score, "{spec}");
            assert_eq!(two.plies, three.plies, "{spec}");
        });
    }
}

#[test]
fn handicaps_prove_wins_and_nothing_else() {
    inarow::with_game!(start("popout:4x5"), g => {
        let with = |max_plies, pops| {
            let options = Options {
                handicap: Handicap { max_plies, backward_moves: pops },
                ..options(Algorithm::AlphaBeta, 2)
            };
            Engine::new(&g, options).solve(&g, &Limits::default())
        };
        // The first player wins on ply 25 at the earliest (the exact distance above).
        assert_eq!(with(Some(25), None).score, Some(1));
        let short = with(Some(23), None);
        assert_eq!(short.score, None);
        assert_eq!(short.stopped, Some(Stop::Handicap));
        // The thesis (Table 13): 4x5 needs one non-winning pop.
        assert_eq!(with(Some(25), Some(1)).score, Some(1));
        assert_eq!(with(Some(25), Some(0)).stopped, Some(Stop::Handicap));
    });
    let r = inarow(
        &[
            "solve",
            "--game",
            "popout:4x5",
            "--handicap-depth",
            "23",
            "-",
        ],
        None,
    );
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    assert!(r.stderr.contains("proves nothing"), "{}", r.stderr);
    assert_eq!(r.stdout.trim(), "- ?");
    let r = inarow(&["solve", "--handicap-depth", "23", "-"], None);
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr
            .contains("handicaps apply to games whose positions repeat"),
        "{}",
        r.stderr
    );
}

#[test]
#[ignore = "long: run by `cargo test --release -- --ignored` (CI runs it)"]
fn command_line_scores_distances_and_certificates() {
    let r = inarow(
        &[
            "solve",
            "--game",
            "popout:4x4",
            "--distance",
            "-",
            "44p4",
            "44p4p4",
        ],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert_eq!(lines[0], "- 0");
    assert_eq!(lines[1], "44p4 1 plies=17");
    // Without --distance, the value alone.
    let r = inarow(&["solve", "--game", "popout:4x4", "44p4"], None);
    assert_eq!(r.stdout.trim(), "44p4 1", "{}", r.stderr);
    let json = inarow(
        &[
            "solve",
            "--json",
            "--distance",
            "--game",
            "popout:4x4",
            "44p4",
        ],
        None,
    );
    assert!(json.stdout.contains("\"plies\":17"), "{}", json.stdout);
    assert!(json.stdout.contains("\"best_moves\":["), "{}", json.stdout);

    // The 4x4 disagreement (thesis: draw; Four-The-Win: second player wins), settled by
    // certificates: each side has a strategy not to lose, checked with the rules alone.
    let file = temp_file("popout44.proof");
    let path = file.to_str().unwrap();
    let r = inarow(
        &[
            "solve",
            "--algo",
            "dfpn",
            "--game",
            "popout:4x4",
            "--proof",
            path,
            "-",
        ],
        None,
    );
    assert_eq!(r.stdout.trim(), "- 0", "{}", r.stderr);
    let v = inarow(&["verify", path], None);
    assert_eq!(v.code, Some(0), "{}", v.stderr);
    assert!(
        v.stdout
            .contains("verified: first player does not lose from the start (popout:4x4)"),
        "{}",
        v.stdout
    );
    assert!(
        v.stdout
            .contains("verified: second player does not lose from the start (popout:4x4)"),
        "{}",
        v.stdout
    );
    let _ = std::fs::remove_file(&file);

    let bad = inarow(
        &["solve", "--game", "popout:4x4", "--repetition", "4", "-"],
        None,
    );
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("repetition rule 4"), "{}", bad.stderr);
    let bad = inarow(
        &[
            "solve",
            "--algo",
            "dfpn",
            "--game",
            "popout:4x4",
            "--repetition",
            "3",
            "-",
        ],
        None,
    );
    assert_eq!(bad.code, Some(2));
    assert!(bad.stderr.contains("rule of 2 only"), "{}", bad.stderr);
    let bad = inarow(
        &["solve", "--threads", "2", "--game", "popout:4x4", "-"],
        None,
    );
    assert_eq!(bad.code, Some(2));
}

/// Lines of play in PopOut can be as long as the positions are many: the searches bound their
/// depth, say so when they reach the bound, and never overflow the stack.
#[test]
#[ignore = "long: run by `cargo test --release -- --ignored` (CI runs it)"]
fn deep_lines_neither_overflow_nor_go_unreported() {
    // The two-valued search from 7x6 goes thousands of plies deep: stopped by a small bound.
    with_popout!(start("popout"), g => {
        let mut search = WinSearch::try_new(&g, 16, true, Repetition::SECOND).unwrap();
        search.set_max_depth(60);
        assert_eq!(search.value(&GameLine::new(g), &mut Clock::default()), Err(Stop::Depth));
    });
    // The commands that once overflowed: the default method answers at once.
    for (args, want) in [
        (vec!["solve", "--game", "popout", "--weak", ""], "- 1"),
        (vec!["solve", "--game", "popout", "346642"], "346642 1"),
    ] {
        let r = inarow(&args, None);
        r.assert_no_panic();
        assert_eq!(
            (r.code, r.stdout.trim()),
            (Some(0), want),
            "{args:?}: {}",
            r.stderr
        );
    }
    // The two-valued search, seconds deep on a search thread of its own: stopped by the time
    // limit, not by the stack (it is thousands of plies deep by then, well past a default
    // thread's stack).
    let r = inarow(
        &[
            "solve", "--game", "popout", "--algo", "ab", "--time", "6", "346642",
        ],
        None,
    );
    r.assert_no_panic();
    assert_eq!(r.code, Some(3), "{}", r.stderr);
    assert_eq!(r.stdout.trim(), "346642 ?");
    assert!(r.stderr.contains("time limit reached"), "{}", r.stderr);
}

/// The PopOut values the tests restate, so that they run without the data (the two methods'
/// here, the retrograde analysis' in tests/suite/retro.rs; 3x4 is not in the table), are the
/// published ones (popout_values.tsv).
#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn the_restated_values_are_the_published_ones() {
    for (w, h, want) in [
        (4, 4, "draw"),
        (4, 5, "first"),
        (4, 6, "first"),
        (5, 4, "draw"),
    ] {
        assert_eq!(published(w, h).as_deref(), Some(want), "popout:{w}x{h}");
    }
}

/// The PopOut boards of the full suite carry the published values (popout_values.tsv).
#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn the_full_suite_boards_are_the_published_ones() {
    for (spec, value) in super::bench_tables::FULL_POPOUT {
        let (w, h) = spec
            .trim_start_matches("popout:")
            .split_once('x')
            .map(|(w, h)| (w.parse().unwrap(), h.parse().unwrap()))
            .unwrap();
        let want = match value {
            1 => "first",
            0 => "draw",
            _ => "second",
        };
        assert_eq!(published(w, h).as_deref(), Some(want), "{spec}");
    }
}
