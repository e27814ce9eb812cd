//! Strategy books: read out of a verified proof, they answer every reply of the loser until the
//! game is won; Qubic's built-in one plays the first player's moves from the start, in every
//! orientation, and the engine plays it at once.

use super::cli::inarow;
use super::common::{SplitMix, start, temp_file};
use inarow::engine::Options;
use inarow::engine::agent::{Level, TypedAgent, Valuation};
use inarow::engine::knowledge::strategy::Strategy;
use inarow::game::cube::Qubic;
use inarow::game::{GameLine, MoveList, Player, Rules, Status, Tactics};
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// Every game from `pos` in which the strategy's side plays the strategy and the other side
/// plays anything, to `depth` of the other side's moves (then one random game to the end from
/// each position reached): the strategy always has a move, and every game that ends is won by
/// its side. Returns the positions where it answered.
fn follow_every_reply<G: Tactics>(
    strategy: &Strategy,
    pos: G,
    depth: u32,
    rng: &mut SplitMix,
) -> usize {
    match pos.status() {
        Status::Win(p) => {
            assert_eq!(p, strategy.prover(), "{pos:?}");
            return 0;
        }
        Status::Draw => panic!("a draw against the strategy: {pos:?}"),
        Status::Ongoing => {}
    }
    if pos.side_to_move() == strategy.prover() {
        let mv = strategy
            .move_at(&pos)
            .unwrap_or_else(|| panic!("no strategy move at {pos:?}"));
        return 1 + follow_every_reply(strategy, pos.play(mv), depth, rng);
    }
    let mut replies = MoveList::new();
    pos.legal_moves(&mut replies);
    if depth == 0 {
        let reply = replies[rng.below(replies.len())];
        return follow_every_reply(strategy, pos.play(reply), 0, rng);
    }
    replies
        .iter()
        .map(|&r| follow_every_reply(strategy, pos.play(r), depth - 1, rng))
        .sum()
}

/// `game` solved by df-pn with its proof (a first-player win), and the proof made a strategy
/// book by `inarow book strategy`: the proof's and the book's paths (`NAME.proof`,
/// `NAME.strategy`) and what the build printed.
fn strategy_from_proof(game: &str, name: &str) -> (PathBuf, PathBuf, String) {
    strategy_from_proof_of(game, name, "- 1")
}

/// As [`strategy_from_proof`], for a game whose `solve -` prints `solved`.
fn strategy_from_proof_of(game: &str, name: &str, solved_as: &str) -> (PathBuf, PathBuf, String) {
    let proof = temp_file(&format!("{name}.proof"));
    let book = temp_file(&format!("{name}.strategy"));
    let (proof_path, book_path) = (proof.to_str().unwrap(), book.to_str().unwrap());
    let solved = inarow(
        &[
            "solve", "--algo", "dfpn", "--game", game, "--proof", proof_path, "-",
        ],
        None,
    );
    assert_eq!(solved.stdout.trim(), solved_as, "{}", solved.stderr);
    let built = inarow(
        &[
            "book", "strategy", "--game", game, "--proof", proof_path, "--out", book_path,
        ],
        None,
    );
    assert_eq!(built.code, Some(0), "{}", built.stderr);
    (proof, book, built.stdout)
}

/// A winning proof of a small board, turned into a strategy book by `inarow book strategy`:
/// it answers every reply of the second player to the end of the game, and a damaged or
/// mismatched book is refused.
#[test]
fn a_proof_becomes_a_strategy_that_answers_every_reply() {
    let game = "connect4:4x4:k3";
    let (proof, book, built) = strategy_from_proof(game, "k3");
    let (proof_path, book_path) = (proof.to_str().unwrap(), book.to_str().unwrap());
    assert!(built.starts_with("strategy "), "{built}");

    with_connect!(start(game), g => {
        let strategy = Strategy::load(&book, &g.name()).expect("the book loads");
        assert_eq!(strategy.prover(), Player::First);
        let walked = strategy.check(g).expect("the rule and the book answer every reply");
        assert!(walked.positions > 20 && walked.chosen > 0, "{walked:?}");
        let answered = follow_every_reply(&strategy, g, 16, &mut SplitMix(1));
        assert!(answered > strategy.len(), "{answered} answers, {} entries", strategy.len());
        // The second player's positions are not the strategy's.
        let mut moves = MoveList::new();
        g.legal_moves(&mut moves);
        assert_eq!(strategy.move_at(&g.play(moves[0])), None);
    });

    let bytes = std::fs::read(&book).unwrap();
    let mut damaged = bytes.clone();
    *damaged.last_mut().unwrap() ^= 1;
    std::fs::write(&book, &damaged).unwrap();
    let refused = Strategy::load(&book, game).expect_err("a damaged book is refused");
    assert!(refused.to_string().contains("checksum"), "{refused}");
    std::fs::write(&book, &bytes).unwrap();
    let other = Strategy::load(&book, "qubic").expect_err("a book for another game is refused");
    assert!(other.to_string().contains("not for qubic"), "{other}");

    // A proof from another position than the start makes no strategy book.
    let later = inarow(
        &[
            "solve", "--algo", "dfpn", "--game", game, "--proof", proof_path, "2",
        ],
        None,
    );
    assert_eq!(later.code, Some(0), "{}", later.stderr);
    let refused = inarow(
        &[
            "book", "strategy", "--game", game, "--proof", proof_path, "--out", book_path,
        ],
        None,
    );
    assert_eq!(refused.code, Some(2), "{}", refused.stderr);
    assert!(
        refused.stderr.contains("wins from the start"),
        "{}",
        refused.stderr
    );
    std::fs::remove_file(&proof).ok();
    std::fs::remove_file(&book).ok();
}

/// The verifier checks one position of each mirror pair (an odd width's replies 1 and 5 to the
/// centre are one class), so a strategy book keys by the same classes: the proofs of boards
/// whose winner's strategy meets mirror images (a first-player and a second-player win) become
/// books that answer every reply. (Before Connect Four gave its mirror to the book,
/// `book strategy` stopped at "no move" on both.)
#[test]
fn proofs_that_merge_mirror_images_become_strategies() {
    for (game, name, solved, prover) in [
        ("connect4:5x4:k3", "5x4k3", "- 1", Player::First),
        ("connect4:6x4", "6x4", "- -1", Player::Second),
    ] {
        let (proof, book, built) = strategy_from_proof_of(game, name, solved);
        assert!(built.starts_with("strategy "), "{built}");
        with_connect!(start(game), g => {
            let strategy = Strategy::load(&book, &g.name()).expect("the book loads");
            assert_eq!(strategy.prover(), prover);
            let walked = strategy.check(g).expect("the rule and the book answer every reply");
            assert!(walked.chosen > 0, "{game}: {walked:?}");
            follow_every_reply(&strategy, g, 5, &mut SplitMix(7));
        });
        std::fs::remove_file(&proof).ok();
        std::fs::remove_file(&book).ok();
    }
}

/// Connect Four's two symmetries, as a strategy book uses them: the mirror's key is the
/// image's, the canonical key the least of the two, a move's image leads to the image of its
/// child, and the mirror of the mirror is the position.
#[test]
fn connect_fours_mirror_maps_positions_and_moves_alike() {
    let mut rng = SplitMix(11);
    for game in ["connect4", "connect4:5x4:k3", "connect4:9x4"] {
        with_connect!(start(game), g => {
            for _ in 0..200 {
                let mut pos = g;
                let plies = rng.below(12);
                for _ in 0..plies {
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    if moves.is_empty() || pos.status() != Status::Ongoing {
                        break;
                    }
                    pos = pos.play(moves[rng.below(moves.len())]);
                }
                assert_eq!(pos.symmetry_count(), 2);
                let image = pos.image(1);
                assert_eq!(image.key(), pos.image_key(1));
                assert_eq!(pos.image(0), pos);
                assert_eq!(image.image(1), pos);
                assert_eq!(pos.canonical_key(), pos.key().min(pos.image_key(1)));
                if pos.status() != Status::Ongoing {
                    continue;
                }
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                for &m in &moves {
                    assert_eq!(image.play(pos.image_move(m, 1)), pos.play(m).image(1), "{game}");
                }
            }
        });
    }
}

/// A strategy book read from bytes and installed (as the WebAssembly package installs Qubic's,
/// which it does not build in) is its game's for the engines made afterwards: an engine values
/// the strategy's first move a proven win at once. The board is one no other test plays, as the
/// install is for the whole process.
#[test]
fn an_installed_strategy_is_its_games_for_later_engines() {
    let game = "connect4:4x3:k3";
    let (proof, book, _) = strategy_from_proof(game, "4x3k3");
    let bytes = std::fs::read(&book).unwrap();
    with_connect!(start(game), g => {
        assert!(Strategy::builtin_for(&g).is_none());
        let other = Strategy::parse(&bytes, "4x3k3.strategy", "qubic");
        assert!(other.is_err(), "a book for another game is refused");
        Strategy::parse(&bytes, "4x3k3.strategy", &g.name()).expect("the book reads").install();
        let strategy = Strategy::builtin_for(&g).expect("the installed strategy");
        assert_eq!(strategy.game(), g.name());
        let first = strategy.move_at(&g).expect("a first move");
        let mut player = TypedAgent::new(Level::Best, &g, Options::default(), 1).expect("an engine");
        let limits = inarow::search::Limits::within(Duration::from_secs(5));
        let valued = player.analyze_move(&GameLine::new(g), first, &limits);
        assert_eq!(valued.moves, vec![(first, Valuation::Proven(1))]);
        assert_eq!(valued.source, "strategy");
    });
    std::fs::remove_file(&proof).ok();
    std::fs::remove_file(&book).ok();
}

/// Qubic's built-in strategy, walked whole: the rule and the book answer every reply of the
/// second player, to the end of every game, and every game is the first player's.
/// (3.8 M positions, about 16 s.)
#[test]
fn qubic_strategy_answers_every_reply_to_the_end() {
    let first = Qubic::new();
    let strategy = Strategy::builtin_for(&first).expect("Qubic ships a strategy");
    let walked = strategy.check(first).expect("the strategy is complete");
    assert!(walked.chosen > strategy.len() as u64, "{walked:?}");
}

/// Qubic's built-in strategy (from the proof that the first player wins, books/qubic.strategy):
/// every reply of the second player to its first three moves is answered, each line then
/// played to the end by random replies and won; and in random games from every orientation.
#[test]
fn qubic_is_won_from_the_start_against_every_reply() {
    let first = Qubic::new();
    let strategy = Strategy::builtin_for(&first).expect("Qubic ships a strategy");
    assert_eq!(strategy.prover(), Player::First);
    let mut rng = SplitMix(52);
    let answered = follow_every_reply(&strategy, first, 2, &mut rng);
    assert!(answered > 3000, "{answered}");
    for _ in 0..200 {
        follow_every_reply(&strategy, first, 0, &mut rng);
    }
}

/// The default engine playing first in Qubic plays the strategy at once (under 50 ms a move on
/// this machine is the target; the test allows a second) and wins against random replies; its
/// analysis marks the strategy's move as a proven win, and every move of the second player
/// against it a proven loss; off the strategy's paths it claims nothing from it.
#[test]
fn the_engine_plays_qubic_first_from_its_strategy() {
    let first = Qubic::new();
    let strategy = Strategy::builtin_for(&first).expect("Qubic ships a strategy");
    let mut player =
        TypedAgent::new(Level::Best, &first, Options::default(), 1).expect("an engine");
    let mut rng = SplitMix(7);
    for _ in 0..5 {
        let mut line = GameLine::new(first);
        while line.position().status() == Status::Ongoing {
            let pos = *line.position();
            let mv = if pos.side_to_move() == Player::First {
                let began = Instant::now();
                let (mv, value) = player
                    .choose(&line, Duration::from_secs(10))
                    .expect("a move");
                assert!(
                    began.elapsed() < Duration::from_secs(1),
                    "{:?}",
                    began.elapsed()
                );
                assert_eq!(Some(mv), strategy.move_at(&pos));
                assert!(
                    matches!(value, Valuation::Proven(1) | Valuation::Exact(_)),
                    "{value:?}"
                );
                mv
            } else {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                moves[rng.below(moves.len())]
            };
            line = line.played(mv);
        }
        assert_eq!(line.position().status(), Status::Win(Player::First));
    }
    // Off the strategy's paths (the first player's second move is another than the
    // strategy's, and no image of it), nothing is claimed from the strategy.
    let mut line = GameLine::new(first);
    line.play(strategy.move_at(&first).expect("a first move"));
    let mut replies = MoveList::new();
    line.position().legal_moves(&mut replies);
    line.play(replies[0]);
    let on_path = strategy.move_at(line.position()).expect("a second move");
    let class = |p: &Qubic| (0..p.symmetry_count()).map(|i| p.image_key(i)).min();
    let mut moves = MoveList::new();
    line.position().legal_moves(&mut moves);
    let here = *line.position();
    let off = moves
        .iter()
        .copied()
        .find(|&m| class(&here.play(m)) != class(&here.play(on_path)))
        .expect("a move off the strategy");
    line.play(off);
    let mut replies = MoveList::new();
    line.position().legal_moves(&mut replies);
    line.play(replies[0]);
    let limits = inarow::search::Limits::within(Duration::from_millis(300));
    let analysis = player.analyze(&line, &limits);
    assert!(!analysis.source.contains("strategy"), "{analysis:?}");

    // The second player, to move against the strategy: every move a proven loss.
    let mut lost = GameLine::new(first);
    lost.play(strategy.move_at(&first).expect("a first move"));
    let analysis = player.analyze(&lost, &limits);
    assert_eq!(analysis.moves.len(), 63);
    assert!(
        analysis
            .moves
            .iter()
            .all(|m| m.1 == Valuation::Proven(-1) || matches!(m.1, Valuation::Exact(s) if s < 0)),
        "{analysis:?}"
    );

    let analysis = player.analyze(&GameLine::new(first), &limits);
    let first = strategy.move_at(&first).expect("a first move");
    let entry = analysis
        .moves
        .iter()
        .find(|m| m.0 == first)
        .expect("the move is analyzed");
    assert_eq!(entry.1, Valuation::Proven(1), "{analysis:?}");
    assert_eq!(analysis.moves[0].0, first);
}

/// Qubic's strategy on the command line: `analyze` (plain and `--json`) marks the strategy's
/// moves proven wins past the first move, and every move of the side that loses to it proven
/// losses, written as Qubic's solver writes them (`1`, `-1`); `play`
/// answers from the strategy and says its move is a proven win.
#[test]
fn the_command_line_gives_qubics_strategy_as_proven_wins() {
    let plain = inarow(
        &["analyze", "--game", "qubic", "--time", "1", "a11d44"],
        None,
    );
    // The moves off the strategy are estimates after a second: the exit code says so.
    assert_eq!(plain.code, Some(3), "{}", plain.stderr);
    assert_eq!(
        plain.stdout.lines().next(),
        Some("d11 1"),
        "{}",
        plain.stdout
    );
    let json = inarow(
        &[
            "analyze",
            "--game",
            "qubic",
            "--time",
            "1",
            "--json",
            "a11d44d11",
        ],
        None,
    );
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    let json: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    let moves = json["analysis"].as_array().expect("moves");
    assert_eq!(moves.len(), 61);
    assert!(
        moves
            .iter()
            .all(|m| m["value"] == "-1" && m["outcome"] == "loss" && m["exact"] == true),
        "{json}"
    );
    assert_eq!(json["weak"], true, "{json}");

    let played = inarow(
        &[
            "play", "--game", "qubic", "--human", "second", "--think", "10",
        ],
        Some("a22\nb33\nc12\nquit\n"),
    );
    assert_eq!(played.code, Some(0), "{}", played.stderr);
    let answers: Vec<&str> = played
        .stdout
        .lines()
        .filter(|l| l.starts_with("engine plays"))
        .collect();
    assert_eq!(answers.len(), 4, "{}", played.stdout);
    assert!(
        answers.iter().all(|l| l.ends_with("(a proven win)")),
        "{answers:?}"
    );
}

/// `solve` answers from Qubic's strategy where the line followed it: the empty board and the
/// strategy's replies are wins for the side with the strategy's move, the other side's
/// positions losses, at once (no node searched). Off its line, or with `--no-book`, it
/// searches: under a small node limit that search stops without a value.
#[test]
fn solve_answers_qubic_from_its_strategy() {
    let stopped_search = ["--nodes", "20000"];
    let known = inarow(
        &[
            &["solve", "--game", "qubic", "--stats"][..],
            &stopped_search,
            &["-", "a11", "a11d44", "a11d44d11"],
        ]
        .concat(),
        None,
    );
    assert_eq!(known.code, Some(0), "{}", known.stderr);
    let lines: Vec<&str> = known.stdout.lines().collect();
    assert_eq!(lines.len(), 4, "{}", known.stdout);
    for (line, (moves, value)) in lines.iter().zip([
        ("-", "1"),
        ("a11", "-1"),
        ("a11d44", "1"),
        ("a11d44d11", "-1"),
    ]) {
        assert!(
            line.starts_with(&format!("{moves} {value} nodes=0 ")),
            "{line}"
        );
    }
    // The first player's a12 is off the strategy's line (a11 is, or any of its images).
    let off_line = inarow(
        &[&["solve", "--game", "qubic"][..], &stopped_search, &["a12"]].concat(),
        None,
    );
    let without = inarow(
        &[
            &["solve", "--game", "qubic", "--no-book"][..],
            &stopped_search,
            &["-"],
        ]
        .concat(),
        None,
    );
    for searched in [&off_line, &without] {
        assert_eq!(searched.code, Some(3), "{}", searched.stderr);
        assert!(!searched.stdout.contains(" 1"), "{}", searched.stdout);
    }
    // The JSON front says the same.
    let json = inarow(&["solve", "--game", "qubic", "--json", "a11"], None);
    assert_eq!(json.code, Some(0), "{}", json.stderr);
    let json: serde_json::Value = serde_json::from_str(&json.stdout).expect("json");
    assert_eq!(json["score"], -1, "{json}");
}

/// Through the session (as Python's `Position.solve` asks, best moves by default): where the
/// side to move loses to Qubic's strategy, every move keeps the value, so the strategy gives
/// the value and every best move at once; the winner's other winning moves need a search,
/// which here stops at its node limit.
#[test]
fn the_session_gives_the_losers_best_moves_from_qubics_strategy() {
    use inarow::search::Limits;
    use inarow::session::{self, Ask, Settings};
    let rules = session::game("qubic").unwrap();
    let mut solver = rules.agent(&Settings::default(), 0).unwrap();
    let ask = Ask {
        limits: Limits {
            nodes: Some(20_000),
            ..Limits::default()
        },
        best_moves: true,
        ..Ask::default()
    };
    let lost = rules.read("a11").unwrap();
    let answer = solver.solve(lost.as_ref(), &ask).unwrap();
    assert_eq!((answer.score, answer.nodes), (Some(-1), 0), "{answer:?}");
    let best = answer.best_moves.expect("best moves");
    assert_eq!(best.len(), 63, "{best:?}");
    assert!(!best.iter().any(|m| m == "a11"), "{best:?}");
    let won = rules.read("a11d44").unwrap();
    let searched = solver.solve(won.as_ref(), &ask).unwrap();
    assert!(
        searched.score.is_none() && searched.stopped.is_some(),
        "{searched:?}"
    );
}
