//! Victor's rules ([`inarow::search::cover`]) against exhaustive values
//! ([`inarow::search::cover::audit`]) on 4x4 and 4x5, against the alpha-beta solver on random
//! positions of larger boards, and their witnesses against the checker. `inarow bench --suite
//! full` checks 5x4 too, and `inarow bench --suite victor` prints the whole table.

use inarow::game::GravityGeometry;
use inarow::limits::{Clock, Limits};
use inarow::search::cover::audit::{self, Audit};
use inarow::search::cover::{self, Loosen, Options, Rule};

fn check(name: &str, geometry: &GravityGeometry, options: Options) -> Audit {
    let start = std::time::Instant::now();
    let a = audit::audit(geometry, &options, false);
    println!("{name}: {a:?} ({:.1} s)", start.elapsed().as_secs_f64());
    a
}

/// Every claim on every position of the board agrees with its exact value and every witness
/// passes the checker; and the rules say something (a check of nothing passes trivially).
fn check_board(name: &str, geometry: &GravityGeometry, rules: &[Rule]) {
    let a = check(name, geometry, Options::default());
    assert_eq!(a.false_claims, 0, "{name}: false claims");
    assert_eq!(a.rejected_witnesses, 0, "{name}: witnesses rejected");
    assert_eq!(a.false_accepted, 0, "{name}: a false witness accepted");
    assert!(a.claims > a.positions / 10, "{name}: {a:?}");
    assert!(a.claims > a.trivial * 11 / 10, "{name}: {a:?}");
    // Wins and losses are proved too, and each is a claim that the losing side cannot win.
    assert!(a.mover_loses > 0 && a.mover_wins > 0, "{name}: {a:?}");
    assert!(a.mover_loses <= a.mover_cannot_win, "{name}: {a:?}");
    assert!(a.mover_wins <= a.other_cannot_win, "{name}: {a:?}");
    for &r in rules {
        assert!(a.uses[r as usize] > 0, "{name}: {} never used", r.name());
    }
}

#[test]
fn every_claim_on_4x4_agrees_with_the_exhaustive_values() {
    // Every rule but the vertical, whose upper cell is odd: none on a board of even height.
    let rules: Vec<Rule> = Rule::ALL
        .into_iter()
        .filter(|&r| r != Rule::Vertical)
        .collect();
    check_board("4x4 k4", &GravityGeometry::grid(4, 4, 4).unwrap(), &rules);
}

#[test]
fn every_claim_on_4x5_agrees_with_the_exhaustive_values() {
    // Odd columns: the verticals' board.
    check_board(
        "4x5 k4",
        &GravityGeometry::grid(4, 5, 4).unwrap(),
        &[Rule::Vertical, Rule::Baseclaim, Rule::Aftereven],
    );
}

/// A loosened precondition must show as false claims on a board the check enumerates, and the
/// checker must reject those witnesses: the check can fail.
#[test]
fn a_broken_rule_shows_as_false_claims() {
    let g44 = GravityGeometry::grid(4, 4, 4).unwrap();
    // Baseclaims are too rare on 4x4 for a loosened one to show there.
    let g45 = GravityGeometry::grid(4, 5, 4).unwrap();
    for (loosen, g) in [
        (Loosen::AfterevenAnyColumn, &g44),
        (Loosen::OddStacks, &g44),
        (Loosen::BaseclaimFirstPair, &g45),
        (Loosen::WinOneShort, &g44),
    ] {
        let options = Options {
            loosen: Some(loosen),
            ..Options::default()
        };
        let a = check(&format!("{loosen:?}"), g, options);
        assert!(a.false_claims > 0, "{loosen:?} made no false claim");
        if loosen == Loosen::WinOneShort {
            assert_eq!(a.false_claims, a.false_wins, "{loosen:?}: {a:?}");
        }
        // The checker certificates rely on turns every false claim down.
        assert_eq!(
            a.false_accepted, 0,
            "{loosen:?}: the checker accepted a false claim's witness"
        );
        assert!(a.rejected_witnesses >= a.false_claims, "{loosen:?}: {a:?}");
    }
}

/// The checker trusts nothing in a witness: an application dropped, or a line it does not
/// refute listed under it, is rejected.
#[test]
fn the_checker_rejects_tampered_witnesses() {
    let g = GravityGeometry::grid(4, 4, 4).unwrap();
    // 4x4 after 2 2 3 3 (columns 1, 1, 2, 2): the second player's rules have work to do.
    let col = |c: u32, r: u32| 1u128 << (c * 5 + r);
    let (first, second) = (col(1, 0) | col(2, 0), col(1, 1) | col(2, 1));
    let w = cover::mover_cannot_win(&g, first, second, &Options::default())
        .expect("the second player follows");
    assert!(!w.applications.is_empty());
    cover::verify(&g, first, second, &w).unwrap();
    for i in 0..w.applications.len() {
        let mut dropped = w.clone();
        dropped.applications.remove(i);
        assert!(
            cover::verify(&g, first, second, &dropped).is_err(),
            "{i} dropped"
        );
    }
    // A claimeven called a vertical: the parity of its upper cell is checked.
    let mut renamed = w.clone();
    let i = renamed
        .applications
        .iter()
        .position(|a| a.rule == Rule::Claimeven)
        .expect("a claimeven");
    renamed.applications[i].rule = Rule::Vertical;
    assert!(cover::verify(&g, first, second, &renamed).is_err());
    // A line listed under an application that does not refute it.
    let mut misplaced = w.clone();
    let upper = misplaced.applications[i].cells[1];
    let elsewhere = *g.lines().iter().find(|&&l| l >> upper & 1 == 0).unwrap();
    misplaced.applications[i].refutes.push(elsewhere);
    assert!(cover::verify(&g, first, second, &misplaced).is_err());
}

/// What Connect Four and the cube hand the rules (`Rules::gravity_position`) is their board:
/// along random games, the stones fill each column from the bottom, and a line of the
/// description is complete exactly when the game says the last mover won.
#[test]
fn the_games_describe_their_boards_to_the_rules() {
    fn check<G: inarow::game::Tactics>(start: G) {
        use inarow::game::{MoveList, Status};
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            let mut pos = start;
            loop {
                let (g, mine, theirs) = pos.gravity_position().expect("a gravity board");
                assert_eq!(mine & theirs, 0);
                let filled = mine | theirs;
                for column in g.columns() {
                    let n = column.iter().take_while(|&&c| filled >> c & 1 == 1).count();
                    assert!(column[n..].iter().all(|&c| filled >> c & 1 == 0));
                }
                let won = g.lines().iter().any(|&l| l & !theirs == 0);
                assert_eq!(won, matches!(pos.status(), Status::Win(_)));
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[seed as usize % moves.len()]);
            }
        }
    }
    inarow::with_game!(super::common::start("connect4"), g => check(g));
    inarow::with_game!(super::common::start("connect4:9x7"), g => check(g));
    inarow::with_game!(super::common::start("cube"), g => check(g));
}

/// Claims on positions of random games of boards too large to enumerate, against the
/// alpha-beta solver's weak value: `count` positions of `spec` with at least `min_stones`.
fn check_sampled(spec: &str, count: usize, min_stones: u32) -> (usize, usize) {
    fn run<G: inarow::game::Bounded + inarow::game::Tactics>(
        start: G,
        count: usize,
        min_stones: u32,
    ) -> (usize, usize) {
        use inarow::game::{MoveList, Status};
        use inarow::search::{AlphaBeta, Config};
        let mut solver = AlphaBeta::new(&start, Config::default());
        let (mut seen, mut claims) = (0, 0);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        while seen < count {
            let mut pos = start;
            while pos.status() == Status::Ongoing {
                if pos.ply() >= min_stones {
                    let (g, mine, theirs) = pos.gravity_position().unwrap();
                    let options = Options::default();
                    let mover = cover::mover_cannot_win(g, mine, theirs, &options);
                    let reply = cover::other_side_cannot_win(g, mine, theirs, &options);
                    if mover.is_some() || reply.is_some() {
                        let value = solver.solve(&pos, true, &mut Clock::default()).unwrap();
                        assert!(mover.is_none() || value <= 0, "{pos:?}: mover wins");
                        assert!(reply.is_none() || value >= 0, "{pos:?}: mover loses");
                        if let Some(w) = &mover {
                            cover::verify(g, mine, theirs, w).unwrap();
                        }
                        claims += 1;
                    }
                    seen += 1;
                }
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[seed as usize % moves.len()]);
            }
        }
        (seen, claims)
    }
    with_connect!(super::common::start(spec), g => run(g, count, min_stones))
}

#[test]
fn sampled_claims_on_6x4_and_7x6_agree_with_the_solver() {
    for (spec, count, min_stones) in [("connect4:6x4", 3000, 0), ("connect4", 300, 24)] {
        let (seen, claims) = check_sampled(spec, count, min_stones);
        println!("{spec}: {seen} positions, {claims} with claims, 0 false");
        assert!(claims > 0);
    }
}

#[test]
#[ignore = "22 s alone (74 s before the cheaper cover search): run by `cargo test --release -- --ignored` (CI runs it)"]
fn victor_sampled() {
    for (spec, count, min_stones) in [
        ("connect4:6x4", 200_000, 0),
        ("connect4", 20_000, 16),
        ("connect4:6x6", 20_000, 12),
    ] {
        let start = std::time::Instant::now();
        let (seen, claims) = check_sampled(spec, count, min_stones);
        println!(
            "{spec}: {seen} positions of random games ({min_stones}+ stones), {claims} with claims, 0 false, {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
}

/// The rules inside the searches change no value: on positions of random games of 6x4 Connect
/// Four and late positions of the cube, alpha-beta and df-pn with the rules at every position
/// give the weak values of alpha-beta without them, and the rules cut some of alpha-beta's
/// nodes (they did run).
#[test]
fn the_rules_inside_alpha_beta_and_dfpn_change_no_value() {
    use super::common::SplitMix;
    use inarow::engine::{Algorithm, Engine, Options};
    use inarow::game::{Bounded, MoveList, RankedMove, Status, Tactics};
    use inarow::search::Config;
    fn run<G: Tactics + Bounded>(start: G, count: usize, empty: u32, seed: u64) {
        let engine = |algorithm, victor_plies| {
            Engine::new(
                &start,
                Options {
                    algorithm: Some(algorithm),
                    weak: true,
                    mem_mb: 64,
                    config: Config {
                        tt_mb: 16,
                        victor_plies,
                        ..Config::default()
                    },
                    ..Options::default()
                },
            )
        };
        let mut plain = engine(Algorithm::AlphaBeta, None);
        let mut bounded = engine(Algorithm::AlphaBeta, Some(0));
        let mut dfpn_plain = engine(Algorithm::DfPn, None);
        let mut dfpn = engine(Algorithm::DfPn, Some(0));
        let mut rng = SplitMix(seed);
        let (mut nodes, mut checked) = ([0; 4], 0);
        while checked < count {
            let mut pos = start;
            while pos.max_plies() - pos.ply() > empty && pos.status() == Status::Ongoing {
                let mut moves = MoveList::<RankedMove<G::Move>>::new();
                pos.safe_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())].mv);
            }
            if pos.status() != Status::Ongoing {
                continue;
            }
            for e in [&mut plain, &mut bounded, &mut dfpn_plain, &mut dfpn] {
                e.reset();
            }
            let reports = [
                plain.solve(&pos, &Limits::default()),
                bounded.solve(&pos, &Limits::default()),
                dfpn_plain.solve(&pos, &Limits::default()),
                dfpn.solve(&pos, &Limits::default()),
            ];
            for (i, r) in reports.iter().enumerate() {
                assert_eq!(r.score, reports[0].score, "{pos:?}: search {i}");
                nodes[i] += r.nodes;
            }
            checked += 1;
        }
        println!(
            "{checked} positions: alpha-beta {} nodes, with the rules {}; df-pn {}, with the rules {}",
            nodes[0], nodes[1], nodes[2], nodes[3]
        );
        assert!(nodes[1] < nodes[0] && nodes[3] < nodes[2], "{nodes:?}");
    }
    with_connect!(super::common::start("connect4:6x4"), g => run(g, 60, 20, 0x39));
    run(inarow::game::cube::Gravity::default(), 12, 24, 0x3939);
}

/// A witness as a certificate writes it, with each of its applications dropped in turn (`-`
/// where none is left).
fn each_dropped(witness: &str) -> Vec<String> {
    let parts: Vec<&str> = witness.split("; ").collect();
    (0..parts.len())
        .map(|i| {
            let rest: Vec<&str> = (0..parts.len())
                .filter(|&j| j != i)
                .map(|j| parts[j])
                .collect();
            if rest.is_empty() {
                "-".to_string()
            } else {
                rest.join("; ")
            }
        })
        .collect()
}

/// Certificates that rest on the rules: `--proof` with `--victor-plies` writes rule lines
/// (format version 4: the opponent cannot win; 5: it loses) where df-pn's proof rests on
/// them, and the verifier checks each witness from the position. A witness made wrong, a rule
/// line removed, a rule line in a file of an older version, a cannot-win line in a win, or one
/// where the prover moves, is rejected. Without the flag nothing
/// changes: version 3, no rule line. On 5x4 and on a drawn cube position.
#[test]
fn certificates_carry_the_rules_witnesses_and_the_verifier_checks_them() {
    use super::cli::inarow;
    use super::common::temp_file;
    let file = temp_file("victor.proof");
    let path = file.to_str().unwrap();
    let plain = inarow(
        &["solve", "--game", "connect4:5x4", "--proof", path, "-"],
        None,
    );
    assert_eq!(plain.stdout.trim(), "- 0", "{}", plain.stderr);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(
        text.starts_with("inarow-proof 3\n") && !text.contains(" ! "),
        "{text}"
    );

    // A draw: both sides' certificates, each settling positions by the rules.
    let proves_a_draw_by_the_rules = |game: &str, plies: &str, moves: &str| {
        let r = inarow(
            &[
                "solve",
                "--game",
                game,
                "--weak",
                "--victor-plies",
                plies,
                "--proof",
                path,
                moves,
            ],
            None,
        );
        assert_eq!(r.stdout.trim(), format!("{moves} 0"), "{}", r.stderr);
        let v = inarow(&["verify", path], None);
        assert_eq!(v.code, Some(0), "{}", v.stdout);
        let settled = v.stdout.matches("settled by threat rules").count();
        assert_eq!(settled, 2, "{}", v.stdout);
    };
    proves_a_draw_by_the_rules("connect4:5x4", "2", "-");
    let text = std::fs::read_to_string(&file).unwrap();
    // Both kinds of rule line: the opponent cannot win (`!`) or loses (`!!`, version 5).
    assert!(text.starts_with("inarow-proof 5\n"), "{text}");
    assert!(text.contains(" !! "), "{text}");
    let rule_lines: Vec<&str> = text
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(" ! "))
        .collect();
    assert!(rule_lines.len() > 20, "{text}");

    let bad = temp_file("victor.damaged.proof");
    let bad_path = bad.to_str().unwrap();
    let rejected = |damaged: String, why: &str| {
        std::fs::write(&bad, damaged).unwrap();
        let err = inarow(&["verify", bad_path], None);
        assert_eq!(err.code, Some(1), "{why}: {}", err.stdout);
        assert!(err.stdout.contains("rejected: "), "{why}: {}", err.stdout);
        err.stdout
    };
    let mut damaged_witnesses = 0;
    for line in rule_lines.iter().step_by(5) {
        let (path, witness) = line.split_once(" ! ").unwrap();
        // Each application dropped in turn: the cover then leaves a cell unanswered or a line
        // unrefuted, or, where the rest still holds, the verifier accepts a true witness.
        for rest in each_dropped(witness) {
            std::fs::write(&bad, text.replacen(line, &format!("{path} ! {rest}"), 1)).unwrap();
            let err = inarow(&["verify", bad_path], None);
            if err.code != Some(0) {
                assert!(err.stdout.contains("does not hold"), "{}", err.stdout);
                damaged_witnesses += 1;
            }
        }
        // A claimeven read as a vertical has its upper cell's parity wrong.
        if witness.contains("claimeven") {
            let out = rejected(
                text.replacen(line, &line.replacen("claimeven", "vertical", 1), 1),
                "claimeven as vertical",
            );
            assert!(out.contains("parity"), "{out}");
        }
    }
    assert!(damaged_witnesses > 0);
    // Without the line, the opponent's moves there need the prover's answers.
    rejected(
        text.replacen(&format!("{}\n", rule_lines[0]), "", 1),
        "rule line removed",
    );
    let out = rejected(
        text.replacen("inarow-proof 5", "inarow-proof 3", 2),
        "version 3",
    );
    assert!(out.contains("needs format version"), "{out}");
    let out = rejected(
        text.replacen("inarow-proof 5", "inarow-proof 4", 2),
        "version 4",
    );
    assert!(out.contains("needs format version 5"), "{out}");
    // The root of the first player's certificate is the prover's move.
    let out = rejected(
        text.replacen("prover first\n", "prover first\n- ! claimeven 0.0 0.1\n", 1),
        "rule line where the prover moves",
    );
    assert!(out.contains("the prover moves"), "{out}");
    let out = rejected(
        text.replacen(
            rule_lines[0],
            &format!(
                "{} ! parity 0.0",
                rule_lines[0].split_once(" ! ").unwrap().0
            ),
            1,
        ),
        "unknown rule",
    );
    assert!(out.contains("'parity' is no rule"), "{out}");
    // A win (5x4 after 1: the second player's), with rule lines of a loss only: each checked
    // for a follower line its pairs complete. A claim that the opponent cannot win proves no
    // win: the same witness under `!` is turned down.
    let r = inarow(
        &[
            "solve",
            "--game",
            "connect4:5x4",
            "--weak",
            "--victor-plies",
            "2",
            "--proof",
            path,
            "1",
        ],
        None,
    );
    assert_eq!(r.stdout.trim(), "1 1", "{}", r.stderr);
    let v = inarow(&["verify", path], None);
    assert_eq!(v.code, Some(0), "{}", v.stdout);
    assert!(v.stdout.contains("settled by threat rules"), "{}", v.stdout);
    let win = std::fs::read_to_string(&file).unwrap();
    assert!(win.contains("goal win\n"), "{win}");
    let losses: Vec<&str> = win
        .lines()
        .filter(|l| !l.starts_with('#') && l.contains(" !! "))
        .collect();
    assert!(losses.len() > 20, "{win}");
    let out = rejected(
        win.replacen(losses[0], &losses[0].replacen(" !! ", " ! ", 1), 1),
        "a cannot-win line in a win",
    );
    assert!(out.contains("proves a draw at best"), "{out}");
    // A loss needs the whole cover and a follower line of sure cells: each application
    // dropped in turn, some witness shows it.
    let mut tampered = 0;
    for line in &losses {
        let (path, witness) = line.split_once(" !! ").unwrap();
        for rest in each_dropped(witness) {
            std::fs::write(&bad, win.replacen(line, &format!("{path} !! {rest}"), 1)).unwrap();
            let err = inarow(&["verify", bad_path], None);
            if err.code != Some(0) {
                assert!(err.stdout.contains("does not hold"), "{}", err.stdout);
                tampered += 1;
            }
        }
        if tampered > 10 {
            break;
        }
    }
    assert!(tampered > 0);
    // The cube: a drawn position of 40 stones (from `gen --game cube --stones 40`), each side's
    // certificate settling positions by the rules over its 76 lines.
    proves_a_draw_by_the_rules("cube", "8", "43e8bbd41295509ee9be91d36020083ba32adda1");
    let _ = std::fs::remove_file(&file);
    let _ = std::fs::remove_file(&bad);
}
