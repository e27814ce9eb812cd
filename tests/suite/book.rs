//! Opening books: every entry against the solver, resuming an interrupted build, answers through
//! the engine and the command line, and refusal of corrupt or mismatched files.

use super::cli::inarow;
use super::common::{SplitMix, start, temp_file};
use inarow::engine::agent::{Level, TypedAgent, Valuation};
use inarow::engine::knowledge::book::Book;
use inarow::engine::{Engine, Options};
use inarow::game::{GameLine, MoveList, Rules, Status};
use inarow::limits::Clock;
use inarow::search::Limits;
use inarow::search::score::final_score;
use inarow::search::{AlphaBeta, Config};
use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

const GAME: &str = "connect4:5x4";
const DEPTH: u32 = 5;

fn try_build(
    out: &Path,
    limits: Limits,
) -> Result<inarow::engine::knowledge::book::BuildStats, inarow::Error> {
    with_connect!(start(GAME), g => {
        let mut engine = Engine::new(&g, Options::default());
        Book::build(g, DEPTH, out, &mut engine, &limits, |_, _| {})
    })
}

fn build(
    out: &Path,
    limits: Limits,
) -> Result<inarow::engine::knowledge::book::BuildStats, String> {
    try_build(out, limits).map_err(|e| {
        // A limit stops a build: the kind says so.
        assert!(matches!(e, inarow::Error::Search(_)), "{e:?}");
        e.to_string()
    })
}

/// The message of a book that does not load, whose error is of the file's kind.
fn file_error(loaded: Result<Book, inarow::Error>) -> String {
    let e = loaded.expect_err("the book is refused");
    assert!(matches!(e, inarow::Error::File(_)), "{e:?}");
    e.to_string()
}

/// Every position up to the book's depth: in the book with the solver's score, or over.
fn check_every_entry(path: &Path) {
    with_connect!(start(GAME), g => {
        let book = Book::load(path, &g.name()).expect("the book loads");
        let mut solver = AlphaBeta::new(&g, Config::default());
        let mut checked = 0;
        for (ply, level) in positions_by_ply(g, DEPTH).iter().enumerate() {
            for pos in level {
                assert_eq!(pos.ply(), ply as u32);
                let want = solver.solve(pos, false, &mut Clock::default()).expect("no limits");
                assert_eq!(book.lookup(pos), Some(want), "ply {ply}: {pos:?}");
                checked += 1;
            }
        }
        // Every 5x4 position of up to 5 plies, one per mirror pair.
        assert_eq!(checked, 785, "positions checked");
        assert_eq!(book.depth(), DEPTH);
    });
}

#[test]
fn a_book_holds_every_position_with_its_score_and_resumes_after_an_interruption() {
    let whole = temp_file("whole.book");
    let stats = build(&whole, Limits::default()).expect("build");
    assert!(stats.entries > 200 && stats.solved > 100, "{stats:?}");
    check_every_entry(&whole);

    // A node limit stops the build part-way, as an interruption would; the rerun resumes.
    let resumed = temp_file("resumed.book");
    let partial = temp_file("resumed.book.partial");
    let _ = std::fs::remove_file(&partial);
    let stopped = build(
        &resumed,
        Limits {
            nodes: Some(2_000),
            ..Limits::default()
        },
    );
    let err = stopped.expect_err("the node limit stops the build");
    assert!(err.contains("resume"), "{err}");
    assert!(partial.exists() && !resumed.exists());
    let stats = build(&resumed, Limits::default()).expect("resumed build");
    assert!(stats.resumed > 0, "{stats:?}");
    assert!(
        !partial.exists(),
        "the partial file is removed when the book is done"
    );
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&resumed).unwrap(),
        "a resumed build writes the same book"
    );

    // The engine answers from the book: the same scores, without search.
    with_connect!(start(GAME), g => {
        let book = Arc::new(Book::load(&whole, &g.name()).unwrap());
        let mut engine = Engine::new(&g, Options::default());
        engine.set_book(&g, book).unwrap();
        let mut plain = AlphaBeta::new(&g, Config::default());
        let mut rng = SplitMix(7);
        for _ in 0..200 {
            let mut pos = g;
            for _ in 0..rng.below(DEPTH as usize + 3) {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                if pos.status() != Status::Ongoing || moves.is_empty() {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
            let report = engine.solve(&pos, &Limits::default());
            assert_eq!(report.score, plain.solve(&pos, false, &mut Clock::default()).ok(), "{pos:?}");
        }
        let report = engine.solve(&g, &Limits::default());
        assert!(report.nodes <= 8, "the empty board is answered from the book: {} nodes", report.nodes);
    });

    // Damaged and mismatched files are refused with one line naming the problem.
    let bytes = std::fs::read(&whole).unwrap();
    let damaged = temp_file("damaged.book");
    let mut flipped = bytes.clone();
    *flipped.last_mut().unwrap() ^= 1;
    std::fs::write(&damaged, &flipped).unwrap();
    let name = "connect4:5x4:k4";
    let err = file_error(Book::load(&damaged, name));
    assert!(err.contains("checksum"), "{err}");
    std::fs::write(&damaged, &bytes[..bytes.len() - 3]).unwrap();
    let err = file_error(Book::load(&damaged, name));
    assert!(err.contains("truncated"), "{err}");
    std::fs::write(&damaged, b"hello\n\nworld").unwrap();
    let err = file_error(Book::load(&damaged, name));
    assert!(err.contains("not an inarow book"), "{err}");
    let err = file_error(Book::load(&whole, "connect4:7x6:k4"));
    assert!(err.contains("is for connect4:5x4:k4"), "{err}");

    // The command line: answers with --book agree, and a bad book is one line, exit 2.
    let path = whole.to_str().unwrap();
    let with = inarow(
        &[
            "solve", "--game", GAME, "--book", path, "-", "3", "32", "3311",
        ],
        None,
    );
    let without = inarow(&["solve", "--game", GAME, "-", "3", "32", "3311"], None);
    assert_eq!(with.code, Some(0), "{}", with.stderr);
    assert_eq!(with.stdout, without.stdout);
    let wrong_game = inarow(&["solve", "--book", path, "-"], None);
    assert_eq!(wrong_game.code, Some(2));
    assert!(
        wrong_game.stderr.contains("is for connect4:5x4:k4"),
        "{}",
        wrong_game.stderr
    );
    assert_eq!(wrong_game.stderr.lines().count(), 1);
    let damaged_path = damaged.to_str().unwrap();
    let corrupt = inarow(
        &["analyze", "--game", GAME, "--book", damaged_path, "3"],
        None,
    );
    assert_eq!(corrupt.code, Some(2));
    corrupt.assert_no_panic();

    for f in [&whole, &resumed, &damaged] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn a_build_resumes_from_its_journal_alone() {
    let whole = temp_file("journal-whole.book");
    build(&whole, Limits::default()).expect("build");
    assert!(
        !temp_file("journal-whole.book.journal").exists(),
        "the journal is removed when the book is done"
    );

    // A build stopped part-way keeps its journal; without the partial file (a new clone with
    // the committed journal) the rerun resumes from it and writes the same book.
    let out = temp_file("journaled.book");
    let (partial, journal) = (
        temp_file("journaled.book.partial"),
        temp_file("journaled.book.journal"),
    );
    let stop = Limits {
        nodes: Some(2_000),
        ..Limits::default()
    };
    build(&out, stop.clone()).expect_err("the node limit stops the build");
    let kept = std::fs::read(&journal).expect("a stopped build leaves its journal");
    assert!(kept.starts_with(b"inarow-book-journal 1\ngame connect4:5x4:k4\ndepth 5\n"));
    std::fs::remove_file(&partial).unwrap();

    // A damaged journal is refused with one line, not trusted.
    let mut damaged = kept.clone();
    *damaged.last_mut().unwrap() ^= 1;
    std::fs::write(&journal, &damaged).unwrap();
    let err = try_build(&out, Limits::default()).expect_err("a damaged journal is refused");
    assert!(matches!(err, inarow::Error::File(_)), "{err:?}");
    let err = err.to_string();
    assert!(err.contains("journal") && err.contains("damaged"), "{err}");
    assert_eq!(err.lines().count(), 1);

    std::fs::write(&journal, &kept).unwrap();
    let stats = build(&out, Limits::default()).expect("resumed build");
    assert!(stats.resumed > 0, "{stats:?}");
    assert_eq!(
        std::fs::read(&whole).unwrap(),
        std::fs::read(&out).unwrap(),
        "a build resumed from its journal writes the same book"
    );
    assert!(!journal.exists() && !partial.exists());
    for f in [&whole, &out] {
        let _ = std::fs::remove_file(f);
    }
}

#[test]
fn book_build_from_the_command_line() {
    let out = temp_file("cli.book");
    let path = out.to_str().unwrap();
    let build = [
        "book",
        "build",
        "--game",
        "connect4:4x4",
        "--depth",
        "3",
        "--out",
        path,
    ];
    let r = inarow(&build, None);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stdout.starts_with(&format!(
            "book {path} game=connect4:4x4:k4 depth=3 entries="
        )),
        "{}",
        r.stdout
    );
    assert!(
        r.stderr.is_empty(),
        "no progress bar when not on a terminal: {}",
        r.stderr
    );
    let a = inarow(
        &["analyze", "--game", "connect4:4x4", "--book", path, "22"],
        None,
    );
    let b = inarow(&["analyze", "--game", "connect4:4x4", "22"], None);
    assert_eq!(a.stdout, b.stdout);
    // A book holds exact scores: --weak is refused.
    let weak = inarow(&[&build[..], &["--weak"]].concat(), None);
    assert_eq!(weak.code, Some(2));
    let _ = std::fs::remove_file(&out);
}

/// Every position with at most `plies` plies and the game still on, one per mirror pair, by
/// ply.
fn positions_by_ply<G: Rules>(start: G, plies: u32) -> Vec<Vec<G>> {
    let mut by_ply = vec![vec![start]];
    for _ in 0..plies {
        let mut next = Vec::new();
        let mut seen = std::collections::HashSet::new();
        for pos in by_ply.last().expect("a level") {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            next.extend(
                moves
                    .iter()
                    .map(|&m| pos.play(m))
                    .filter(|c| c.status() == Status::Ongoing && seen.insert(c.canonical_key())),
            );
        }
        by_ply.push(next);
    }
    by_ply
}

/// The best of `pos`'s children's scores, from `book` (a child over: its final score).
fn best_of_children<G: inarow::game::Bounded>(book: &Book, pos: &G) -> Option<i32> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    moves
        .iter()
        .map(|&m| {
            let child = pos.play(m);
            -final_score(&child)
                .or_else(|| book.lookup(&child))
                .expect("a child over or in the book")
        })
        .max()
}

/// The book that ships for 7x6, every position to 12 plies: to 9 plies every score is the best
/// of its children's (all of them; `inarow book verify` checks all 12 plies, docs/results.md),
/// so is every position of random lines from 9 to 11 plies, and a random sample of positions
/// of 12 plies agrees with the solver (all of them would take hours: the build's own solves).
#[test]
fn the_builtin_book_agrees_with_itself_and_the_solver() {
    with_connect!(start("connect4"), g => {
        let book = Book::builtin_for(&g).expect("7x6 ships a book");
        let depth = book.depth();
        assert_eq!((depth, book.perfect_to()), (12, 12));
        for level in &positions_by_ply(g, 9) {
            for pos in level {
                assert_eq!(book.lookup(pos), best_of_children(&book, pos), "{pos:?}");
            }
        }
        let mut solver = AlphaBeta::new(&g, Config::default());
        let mut rng = SplitMix(2026);
        let mut deepest = Vec::new();
        for _ in 0..400 {
            let mut pos = g;
            while pos.ply() < depth && pos.status() == Status::Ongoing {
                if pos.ply() >= 9 {
                    assert_eq!(book.lookup(&pos), best_of_children(&book, &pos), "{pos:?}");
                }
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                pos = pos.play(moves[rng.below(moves.len())]);
            }
            if pos.status() == Status::Ongoing {
                deepest.push(pos);
            }
        }
        assert!(deepest.len() > 300, "{}", deepest.len());
        for pos in deepest.iter().take(8) {
            assert_eq!(solver.solve(pos, false, &mut Clock::default()).ok(), book.lookup(pos), "{pos:?}");
        }
    });
}

/// The default engine (as `play`, `match` and `serve` build it) thinking a second a move
/// plays a move that keeps the exact score in every position above the book's depth (one per
/// mirror pair; the book holds each child, so each answer is a few lookups): it never turns a
/// win into a draw or a loss, nor a draw into a loss.
#[test]
fn the_best_engine_never_gives_away_the_value_within_the_builtin_book() {
    with_connect!(start("connect4"), g => {
        let book = Book::builtin_for(&g).expect("7x6 ships a book");
        let mut player = TypedAgent::new(Level::Best, &g, Options::default(), 7).expect("an engine");
        assert!(book.depth() > 7);
        let by_ply = positions_by_ply(g, 7);
        let mut checked = 0;
        for level in &by_ply {
            for pos in level {
                let want = book.lookup(pos).expect("in the book");
                let (mv, value) =
                    player.choose(&GameLine::new(*pos), Duration::from_secs(1)).expect("a move");
                let child = pos.play(mv);
                let got = final_score(&child).or_else(|| book.lookup(&child));
                assert_eq!(got.map(|s| -s), Some(want), "{pos:?}");
                assert_eq!(value, Valuation::Exact(want), "{pos:?}");
                checked += 1;
            }
        }
        // Plies 0-7, the positions still on.
        assert_eq!(checked, 1 + 4 + 25 + 121 + 568 + 2_144 + 8_231 + 27_109);
    });
}

/// `inarow solve` without flags answers 7x6's opening from the built-in book, with no search:
/// the empty board and each first move (their published values, Pons' -2 -1 0 1 0 -1 -2 for
/// the mover, negated for the side to move after it) and a line to the book's perfect depth.
/// `--no-book` searches.
#[test]
fn solve_answers_the_opening_from_the_builtin_book() {
    let r = inarow(
        &[
            "solve", "--stats", "-", "1", "2", "3", "4", "5", "6", "7", "444444",
        ],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let answers: Vec<(&str, &str, &str)> = r
        .stdout
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            (f[0], f[1], f[2])
        })
        .collect();
    let want = [
        ("-", "1"),
        ("1", "2"),
        ("2", "1"),
        ("3", "0"),
        ("4", "-1"),
        ("5", "0"),
        ("6", "1"),
        ("7", "2"),
        ("444444", "1"),
    ];
    assert_eq!(answers.len(), want.len(), "{}", r.stdout);
    for ((moves, score, nodes), (want_moves, want_score)) in answers.into_iter().zip(want) {
        assert_eq!((moves, score, nodes), (want_moves, want_score, "nodes=0"));
    }
    let searched = inarow(&["solve", "--no-book", "--stats", "444444"], None);
    assert!(
        searched.stdout.starts_with("444444 1 nodes="),
        "{}",
        searched.stdout
    );
    assert!(!searched.stdout.contains("nodes=0 "), "{}", searched.stdout);
}

/// The same through `inarow play --think 1`: the engine's replies to a human keep the value.
#[test]
fn play_answers_from_the_builtin_book() {
    let r = inarow(
        &["play", "--think", "1", "--human", "first"],
        Some("1\n7\nquit\n"),
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let replies: Vec<&str> = r
        .stdout
        .lines()
        .filter_map(|l| l.split("engine plays ").nth(1))
        .filter_map(|rest| rest.split_whitespace().next())
        .collect();
    assert_eq!(replies.len(), 2, "{}", r.stdout);
    // Each reply keeps the score of the position it answers: the analysis of the position
    // after it is the negation of the best value before it.
    let line = format!("1{}7{}", replies[0], replies[1]);
    for (before, after) in [
        ("1", format!("1{}", replies[0])),
        (&line[..3], line.clone()),
    ] {
        let best = inarow(&["analyze", "--json", before], None);
        let reply = inarow(&["solve", "--book", "builtin", &after], None);
        let best: serde_json::Value = serde_json::from_str(&best.stdout).expect("json");
        let want = best["analysis"][0]["score"]
            .as_i64()
            .expect("an exact score");
        let got: i64 = reply
            .stdout
            .split_whitespace()
            .nth(1)
            .expect("a score")
            .parse()
            .expect("a number");
        assert_eq!(-got, want, "{before} answered by {after}");
    }
}

/// A move valued alone ([`TypedAgent::analyze_move`], each move of the static page's analysis, one
/// per worker) has the value the whole analysis gives it, without limits: exact scores in
/// Connect Four and the cube, win / draw / loss in PopOut; its line starts with the move. Under a
/// node limit too small for the solver, the move still gets a value (the evaluation's estimate).
#[test]
fn a_move_valued_alone_has_the_analysis_value() {
    fn agrees<G: inarow::game::Tactics + inarow::game::Notation + 'static>(start: G, moves: &str) {
        let line = inarow::game::read_line(start, moves).expect("a line");
        let options = Options {
            mem_mb: 256,
            ..Options::default()
        };
        let mut whole =
            TypedAgent::new(Level::Best, &start, options.clone(), 1).expect("an engine");
        let analysis = whole.analyze(&line, &Limits::default());
        assert!(analysis.moves.len() > 1, "{moves}");
        let mut alone = TypedAgent::new(Level::Best, &start, options, 1).expect("an engine");
        for &(mv, value) in &analysis.moves {
            assert!(value.is_exact(), "{moves}");
            let valued = alone.analyze_move(&line, mv, &Limits::default());
            assert_eq!(
                valued.moves,
                vec![(mv, value)],
                "{} {moves}",
                start.format_move(mv)
            );
            assert_eq!(valued.pv.first(), Some(&mv));
        }
        // Ten nodes from the start: no search finishes (Connect Four's book answers), yet the move
        // gets a value.
        let mut hurried =
            TypedAgent::new(Level::Best, &start, Options::default(), 1).expect("an engine");
        let mv = analysis.moves[0].0;
        let early = inarow::game::read_line(start, "").expect("the start");
        let limits = Limits {
            nodes: Some(10),
            ..Limits::default()
        };
        let guess = hurried.analyze_move(&early, mv, &limits).moves[0].1;
        assert_ne!(guess, Valuation::Unknown, "{}", start.name());
    }
    for (game, moves) in [
        ("connect4", "4453432233"),
        ("popout:5x4", "3322p3"),
        ("cube", "0123456789ab012301234567"),
    ] {
        let start = inarow::game::GameSpec::start(&game.parse().expect("a spec"));
        inarow::with_game!(start, g => agrees(g, moves));
    }
}

/// The values alone (`Agent::analyze_values`, what Python and the training data ask) are the
/// analysis' values, without its line: in the 12-ply book (the line would walk past it), past
/// the book, in PopOut and the cube (their own solvers).
#[test]
fn the_values_alone_are_the_analysis_values_without_its_line() {
    let session = inarow::session::Session::new(1, 1);
    for (game, moves) in [
        ("connect4", "4453432233"),
        ("connect4", "44444"),
        ("connect4", "4453432233445"),
        ("popout:5x4", "3322p3"),
        ("cube", "0123456789ab012301234567"),
    ] {
        let rules = inarow::session::game(game).expect("a game");
        let pos = rules.read(moves).expect("a position");
        let settings = inarow::session::Settings::default();
        let (whole, alone) = session
            .with_agent(rules.as_ref(), &settings, |agent| {
                let whole = agent.analyze(pos.as_ref(), &Limits::default());
                agent.reset();
                (
                    whole,
                    agent.analyze_values(pos.as_ref(), &Limits::default()),
                )
            })
            .expect("a solver");
        let (whole, alone) = (whole.expect("an analysis"), alone.expect("values"));
        assert!(whole.moves.iter().all(|m| m.exact()), "{game} {moves}");
        assert!(
            !whole.pv.is_empty(),
            "{game} {moves}: the analysis has a line"
        );
        assert_eq!(alone.moves, whole.moves, "{game} {moves}");
        assert!(alone.pv.is_empty(), "{game} {moves}: no line");
        assert_eq!(alone.source, whole.source, "{game} {moves}");
    }
}

/// Mirror-image moves valued alone get estimates of one sign, however deep each one's search
/// goes in its budget: the evaluations swing with the parity of the depth, so a move's
/// estimate comes from an even number of plies after it, and the whole position's analysis
/// from an odd number before them, the same lines. On PopOut's empty 7x6 board (the static
/// page's workers gave column 3 `~-64` and column 5 `~64`), under node limits.
#[test]
fn mirror_image_moves_valued_alone_agree_in_sign() {
    use inarow::game::{Notation, PopOut, Standard};
    let start = PopOut::<u64, _>::new(Standard);
    let line = GameLine::new(start);
    let depth = |source: &str| -> Option<u32> {
        let (_, n) = source.split_once("alphabeta depth ")?;
        n.parse().ok()
    };
    let sign = |v: Valuation| match v {
        Valuation::Exact(s) | Valuation::Proven(s) | Valuation::Heuristic(s) => s.signum(),
        Valuation::WinRate(r) => (r - 0.5).signum() as i32,
        Valuation::Unknown => panic!("a move without a value"),
    };
    for nodes in [2_000, 5_000, 20_000, 60_000, 200_000] {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        let mut signs = Vec::new();
        for column in 1..=7 {
            // A fresh engine a move, as in a worker of its own.
            let mut alone =
                TypedAgent::new(Level::Best, &start, Options::default(), 1).expect("an engine");
            let mv = start.parse_move(&column.to_string()).expect("a column");
            let valued = alone.analyze_move(&line, mv, &limits);
            if let Some(d) = depth(&valued.source) {
                assert_eq!(
                    d % 2,
                    0,
                    "column {column}, {nodes} nodes: {}",
                    valued.source
                );
            }
            signs.push(sign(valued.moves[0].1));
        }
        for (a, b) in [(0, 6), (1, 5), (2, 4)] {
            assert_eq!(
                signs[a],
                signs[b],
                "columns {} and {}, {nodes} nodes: {signs:?}",
                a + 1,
                b + 1
            );
        }
        let mut whole =
            TypedAgent::new(Level::Best, &start, Options::default(), 1).expect("an engine");
        let analysis = whole.analyze(&line, &limits);
        if let Some(d) = depth(&analysis.source) {
            assert_eq!(d % 2, 1, "{nodes} nodes: {}", analysis.source);
        }
    }
}

/// The catalog gives the shipped book to the 7x6 board, k = 4, on every representation (they
/// share their keys), and to no other board or game; the shipped strategy to Qubic alone.
#[test]
fn the_catalog_says_which_games_ship_a_book_or_a_strategy() {
    use inarow::engine::knowledge::strategy::Strategy;
    use inarow::game::{Connect, Gravity, Grid, Pentago, PopOut, Qubic, Runtime, Standard};
    let grid = |w, h, k| Runtime::new(Grid::new(w, h, k).expect("a board"));
    let standard = Connect::<u64, _>::new(Standard);
    let narrow = Connect::<u64, _>::new(grid(7, 6, 4));
    let wide = Connect::<u128, _>::new(grid(7, 6, 4));
    for book in [
        Book::builtin_for(&standard),
        Book::builtin_for(&narrow),
        Book::builtin_for(&wide),
    ] {
        assert_eq!(book.expect("7x6 ships a book").game(), "connect4:7x6:k4");
    }
    assert!(Book::builtin_for(&Connect::<u64, _>::new(grid(6, 7, 4))).is_none());
    assert!(Book::builtin_for(&Connect::<u64, _>::new(grid(7, 6, 3))).is_none());
    assert!(Book::builtin_for(&PopOut::<u64, _>::new(Standard)).is_none());
    assert!(Book::builtin_for(&Qubic::new()).is_none());
    assert!(Book::builtin_for(&Pentago::new()).is_none());
    let qubic = Strategy::builtin_for(&Qubic::new()).expect("Qubic ships a strategy");
    assert_eq!(qubic.game(), "qubic");
    assert!(Strategy::builtin_for(&Gravity::new()).is_none());
    assert!(Strategy::builtin_for(&standard).is_none());
    assert!(Strategy::builtin_for(&Pentago::new()).is_none());
}

/// A book extended past its depth with the positions a perfect player meets (`--perfect-to`):
/// for each side as the perfect player, on every line where it plays only moves that keep the
/// value (the solver's) and the other side any move, each of its positions up to the extension
/// is in the book with the solver's score, and so is every child its keeping moves reach; the
/// engine then finds a perfect move there without a search. Extending a book solves only what
/// is new, and an interrupted extension resumes to the same book.
#[test]
fn a_book_extended_for_perfect_play_holds_the_perfect_players_positions() {
    const PERFECT_TO: u32 = 8;
    let out = temp_file("perfect.book");
    let _ = std::fs::remove_file(&out);
    with_connect!(start(GAME), g => {
        let build = |out: &Path, limits: Limits| {
            let mut engine = Engine::new(&g, Options::default());
            Book::build_for_perfect_play(g, DEPTH, PERFECT_TO, out, std::slice::from_mut(&mut engine), &limits, |_, _| {})
        };
        Book::build(g, DEPTH, &out, &mut Engine::new(&g, Options::default()), &Limits::default(), |_, _| {})
            .expect("the plain book");
        let stats = build(&out, Limits::default()).expect("the extension");
        assert_eq!(stats.solved, 0, "the book at --out gives the depth's scores: {stats:?}");
        assert!(stats.perfect > 100, "{stats:?}");
        let book = Book::load(&out, &g.name()).expect("the book loads");
        assert_eq!((book.depth(), book.perfect_to()), (DEPTH, PERFECT_TO));

        let mut solver = AlphaBeta::new(&g, Config::default());
        let mut checked = 0;
        for perfect in [inarow::game::Player::First, inarow::game::Player::Second] {
            let mut level = vec![g];
            for ply in 0..PERFECT_TO {
                let mut next = Vec::new();
                let mut seen = std::collections::HashSet::new();
                for pos in &level {
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    let mine = pos.side_to_move() == perfect;
                    let score = solver.solve(pos, false, &mut Clock::default()).expect("no limits");
                    if mine && ply > DEPTH {
                        assert_eq!(book.lookup(pos), Some(score), "{pos:?}");
                        checked += 1;
                    }
                    for m in moves {
                        let child = pos.play(m);
                        let value = final_score(&child)
                            .unwrap_or_else(|| solver.solve(&child, false, &mut Clock::default()).expect("no limits"));
                        if mine && -value != score {
                            continue;
                        }
                        if child.status() != Status::Ongoing {
                            continue;
                        }
                        if mine && ply >= DEPTH {
                            assert_eq!(book.lookup(&child), Some(value), "{child:?}");
                            checked += 1;
                        }
                        if seen.insert(child.canonical_key()) {
                            next.push(child);
                        }
                    }
                }
                level = next;
            }
        }
        assert!(checked > 200, "{checked}");
        // Every entry is the solver's score.
        let mut rng = SplitMix(61);
        for _ in 0..300 {
            let mut pos = g;
            for _ in 0..rng.below(PERFECT_TO as usize + 1) {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                if pos.status() != Status::Ongoing {
                    break;
                }
                pos = pos.play(moves[rng.below(moves.len())]);
            }
            if let Some(score) = book.lookup(&pos) {
                assert_eq!(solver.solve(&pos, false, &mut Clock::default()).ok(), Some(score), "{pos:?}");
            }
        }

        // The engine's perfect move where the perfect player's keeping moves are in the book:
        // no node searched.
        let book = Arc::new(book);
        let mut engine = Engine::new(&g, Options::default());
        engine.set_book(&g, book.clone()).unwrap();
        let mut rng = SplitMix(5);
        let mut answered = 0;
        for _ in 0..200 {
            let mut line = GameLine::new(g);
            for ply in 0..PERFECT_TO {
                let pos = *line.position();
                if pos.status() != Status::Ongoing {
                    break;
                }
                let report = engine.keeping_move(&line, |m| rng.shuffle(m), &Limits::default());
                let mv = report.best_moves[0];
                if pos.side_to_move() == inarow::game::Player::Second && ply > DEPTH {
                    assert_eq!(report.nodes, 0, "{pos:?}");
                    answered += 1;
                }
                // The first player at random, the second perfect.
                let mv = if pos.side_to_move() == inarow::game::Player::Second {
                    mv
                } else {
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    moves[rng.below(moves.len())]
                };
                line.play(mv);
            }
        }
        assert!(answered > 50, "{answered}");
    });

    // Interrupted by a node limit part-way through the extension, it resumes to the same book.
    let resumed = temp_file("perfect-resumed.book");
    let _ = std::fs::remove_file(&resumed);
    let _ = std::fs::remove_file(temp_file("perfect-resumed.book.partial"));
    with_connect!(start(GAME), g => {
        Book::build(g, DEPTH, &resumed, &mut Engine::new(&g, Options::default()), &Limits::default(), |_, _| {})
            .expect("the plain book");
        let limited = Limits { nodes: Some(50), ..Limits::default() };
        let mut engine = Engine::new(&g, Options::default());
        let stopped = Book::build_for_perfect_play(g, DEPTH, PERFECT_TO, &resumed, std::slice::from_mut(&mut engine), &limited, |_, _| {})
            .expect_err("the node limit stops the extension");
        assert!(stopped.to_string().contains("resume"), "{stopped}");
        let partial = temp_file("perfect-resumed.book.partial");
        assert!(partial.exists());
        let mut engine = Engine::new(&g, Options::default());
        Book::build_for_perfect_play(g, DEPTH, PERFECT_TO, &resumed, std::slice::from_mut(&mut engine), &Limits::default(), |_, _| {})
            .expect("the resumed extension");
        assert!(!partial.exists());
    });
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(&resumed).unwrap(),
        "a resumed extension writes the same book"
    );
    for f in [&out, &resumed] {
        let _ = std::fs::remove_file(f);
    }
}

/// CRC-32 (IEEE), as the book files' headers give it.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= b as u32;
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xedb8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

#[test]
fn book_verify_passes_a_good_book_and_names_a_wrong_entry() {
    let out = temp_file("verify.book");
    let path = out.to_str().unwrap();
    let game = ["--game", "connect4:4x4"];
    // --perfect-to past the depth: the sorted format, whose records a test can edit.
    let built = inarow(
        &[
            &["book", "build"],
            &game[..],
            &["--depth", "3", "--perfect-to", "4", "--out", path],
        ]
        .concat(),
        None,
    );
    assert_eq!(built.code, Some(0), "{}", built.stderr);
    let sample = temp_file("verify.sample");
    let sample_path = sample.to_str().unwrap();
    let verify = |book: &str| {
        inarow(
            &[
                &["book", "verify"],
                &game[..],
                &[
                    "--book",
                    book,
                    "--sample",
                    "1000",
                    "--sample-out",
                    sample_path,
                ],
            ]
            .concat(),
            None,
        )
    };
    let good = verify(path);
    assert_eq!(good.code, Some(0), "{}", good.stderr);
    assert!(
        good.stdout.starts_with(&format!(
            "verify {path} game=connect4:4x4:k4 depth=3 entries="
        )) && good.stdout.contains(" missing=0 ")
            && good.stdout.contains(" inconsistent=0 ")
            && good.stdout.contains(" disagreements=0 "),
        "{}",
        good.stdout
    );
    // Every position to 3 plies (fewer than 1000): the sample is all of them, each line a
    // move string to it with the book's score, as a search from the move string finds it.
    let lines = std::fs::read_to_string(&sample).unwrap();
    let lines: Vec<&str> = lines.lines().collect();
    let positions: usize = good
        .stdout
        .split(' ')
        .find_map(|f| f.strip_prefix("positions="))
        .and_then(|n| n.parse().ok())
        .unwrap();
    assert_eq!(lines.len(), positions);
    assert!(lines.contains(&"- 0"), "the empty 4x4 board is a draw");
    for line in &lines {
        let (moves, score) = line.split_once(' ').unwrap();
        let solved = inarow(
            &[&["solve", "--no-book"], &game[..], &[moves]].concat(),
            None,
        );
        assert_eq!(solved.stdout.trim(), format!("{moves} {score}"), "{line}");
    }

    // The empty board's entry (key 0: the first record) made a win: its children disagree.
    let mut bytes = std::fs::read(&out).unwrap();
    let body = bytes.windows(2).position(|w| w == b"\n\n").unwrap() + 2;
    let text = String::from_utf8(bytes[..body].to_vec()).unwrap();
    let key_bytes: usize = text
        .lines()
        .find_map(|l| l.strip_prefix("key-bytes "))
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(bytes[body..body + key_bytes], vec![0; key_bytes][..]);
    assert_eq!(bytes[body + key_bytes], 0, "the empty board's score");
    bytes[body + key_bytes] = 3;
    let crc = crc32(&bytes[body..]);
    let old = text.lines().find(|l| l.starts_with("crc32 ")).unwrap();
    let header = text.replace(old, &format!("crc32 {crc:08x}"));
    let wrong = temp_file("verify-wrong.book");
    std::fs::write(&wrong, [header.as_bytes(), &bytes[body..]].concat()).unwrap();
    let bad = verify(wrong.to_str().unwrap());
    assert_eq!(bad.code, Some(1), "{}", bad.stdout);
    assert!(bad.stdout.contains(" inconsistent=1 "), "{}", bad.stdout);
    assert!(bad.stdout.contains(" disagreements=1 "), "{}", bad.stdout);
    assert!(
        bad.stderr
            .contains("-: the book says 3, its children's best is 0"),
        "{}",
        bad.stderr
    );
    for file in [out, sample, wrong] {
        let _ = std::fs::remove_file(file);
    }
}

#[test]
fn a_deeper_book_at_the_output_is_cut_to_the_depth_without_a_search() {
    let deep = temp_file("cut-deep.book");
    let fresh = temp_file("cut-fresh.book");
    let build = |depth: &str, out: &Path| {
        let r = inarow(
            &[
                "book",
                "build",
                "--game",
                "connect4:4x4",
                "--depth",
                depth,
                "--out",
                out.to_str().unwrap(),
            ],
            None,
        );
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        r.stdout
    };
    build("4", &deep);
    build("2", &fresh);
    let cut = build("2", &deep);
    assert!(cut.contains(" solved=0 "), "{cut}");
    assert_eq!(
        std::fs::read(&deep).unwrap(),
        std::fs::read(&fresh).unwrap()
    );
    for file in [deep, fresh] {
        let _ = std::fs::remove_file(file);
    }
}
