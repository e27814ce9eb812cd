//! Opening books: every entry against the solver, resuming an interrupted build, answers through
//! the engine and the command line, and refusal of corrupt or mismatched files.

use super::cli::inarow;
use super::common::{SplitMix, start, temp_file};
use inarow::engine::book::Book;
use inarow::engine::{Engine, Options};
use inarow::game::{Game, MoveList, Status};
use inarow::search::Limits;
use inarow::search::{AlphaBeta, Config};
use std::path::Path;
use std::sync::Arc;

const GAME: &str = "connect4:5x4";
const DEPTH: u32 = 5;

fn build(out: &Path, limits: Limits) -> Result<inarow::engine::book::BuildStats, String> {
    with_connect!(start(GAME), g => {
        let options = Options { limits, ..Options::default() };
        let mut engine = Engine::new(&g, options);
        Book::build(g, DEPTH, out, &mut engine, |_, _| {})
    })
}

/// Every position up to the book's depth: in the book with the solver's score, or over.
fn check_every_entry(path: &Path) {
    with_connect!(start(GAME), g => {
        let book = Book::load(path, &g.name()).expect("the book loads");
        let mut solver = AlphaBeta::new(&g, Config::default());
        let mut level = vec![g];
        let mut checked = 0;
        for ply in 0..=DEPTH {
            let mut next = Vec::new();
            for pos in &level {
                assert_eq!(pos.ply(), ply);
                let want = solver.solve(pos, false).expect("no limits");
                assert_eq!(book.lookup(pos), Some(want), "ply {ply}: {pos:?}");
                checked += 1;
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                next.extend(moves.iter().map(|&m| pos.play(m)).filter(|c| c.status() == Status::Ongoing));
            }
            level = next;
        }
        assert!(checked > 1000, "{checked} positions checked");
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
            let report = engine.solve(&pos);
            assert_eq!(report.score, plain.solve(&pos, false).ok(), "{pos:?}");
        }
        let report = engine.solve(&g);
        assert!(report.nodes <= 8, "the empty board is answered from the book: {} nodes", report.nodes);
    });

    // Damaged and mismatched files are refused with one line naming the problem.
    let bytes = std::fs::read(&whole).unwrap();
    let damaged = temp_file("damaged.book");
    let mut flipped = bytes.clone();
    *flipped.last_mut().unwrap() ^= 1;
    std::fs::write(&damaged, &flipped).unwrap();
    let name = "connect4:5x4:k4";
    let err = Book::load(&damaged, name).unwrap_err();
    assert!(err.contains("checksum"), "{err}");
    std::fs::write(&damaged, &bytes[..bytes.len() - 3]).unwrap();
    let err = Book::load(&damaged, name).unwrap_err();
    assert!(err.contains("truncated"), "{err}");
    std::fs::write(&damaged, b"hello\n\nworld").unwrap();
    let err = Book::load(&damaged, name).unwrap_err();
    assert!(err.contains("not an inarow book"), "{err}");
    let err = Book::load(&whole, "connect4:7x6:k4").unwrap_err();
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
