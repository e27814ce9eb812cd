//! The value of the empty Connect Four board (k = 4) for every size small enough to solve here,
//! checked against the published values (Tromp; Steininger), restated below from
//! `shared/data/tables/connect4_sizes.tsv`.

use super::bench_tables::FULL_BOARDS;
use super::common::{DRIVERS, shared_path, start};
use inarow::game::{Bounded, GameSpec, Notation, Tactics};
use inarow::search::minimax::Minimax;
use inarow::search::{AlphaBeta, Config};
use std::time::Instant;

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Outcome {
    First,
    Second,
    Draw,
}

use Outcome::{Draw, First, Second};
use inarow::limits::Clock;

/// `(width, height, outcome, last_move)`: the published value of the empty board and the ply
/// (1-based) on which perfect play ends; `None` where the ply is not published.
const PUBLISHED: &[(u32, u32, Outcome, Option<u32>)] = &[
    (4, 4, Draw, Some(16)),
    (5, 4, Draw, Some(20)),
    (6, 4, Second, Some(24)),
    (7, 4, Draw, Some(28)),
    (8, 4, Second, Some(32)),
    (9, 4, Second, Some(36)),
    (10, 4, Second, Some(40)),
    (11, 4, Second, Some(44)),
    (12, 4, Second, Some(48)),
    (4, 5, Draw, Some(20)),
    (5, 5, Draw, Some(25)),
    (6, 5, Draw, Some(30)),
    (7, 5, Draw, Some(35)),
    (8, 5, First, Some(39)),
    (9, 5, First, Some(41)),
    (10, 5, First, Some(47)),
    (11, 5, First, Some(51)),
    (4, 6, Draw, Some(24)),
    (5, 6, Draw, Some(30)),
    (6, 6, Second, Some(36)),
    (7, 6, First, Some(41)),
    (8, 6, Second, Some(48)),
    (9, 6, Second, Some(52)),
    (10, 6, First, Some(59)),
    (4, 7, Draw, Some(28)),
    (5, 7, Draw, Some(35)),
    (6, 7, First, Some(41)),
    (7, 7, Draw, Some(49)),
    (8, 7, First, Some(53)),
    (9, 7, First, Some(55)),
    (4, 8, Draw, Some(32)),
    (5, 8, Draw, Some(40)),
    (6, 8, Second, Some(48)),
    (7, 8, First, Some(55)),
    (8, 8, Second, Some(62)),
    (4, 9, Draw, Some(36)),
    (5, 9, Draw, Some(45)),
    (6, 9, First, Some(53)),
    (7, 9, Draw, Some(63)),
    (8, 9, First, None),
    (4, 10, Draw, Some(40)),
    (5, 10, Draw, Some(50)),
    (6, 10, Second, Some(60)),
    (7, 10, First, Some(69)),
    (4, 11, Draw, Some(44)),
    (5, 11, Draw, Some(55)),
    (6, 11, First, Some(63)),
    (4, 12, Draw, Some(48)),
    (5, 12, Draw, Some(60)),
    (6, 12, Second, Some(72)),
    (4, 13, Draw, Some(52)),
    (5, 13, Draw, Some(65)),
];

/// The published row of a size, as `inarow table` and connect4_sizes.tsv write it (`width
/// height outcome last_move`, tab-separated), from the restated table.
pub(super) fn published_row(width: u32, height: u32) -> String {
    let &(_, _, outcome, last) = PUBLISHED
        .iter()
        .find(|r| r.0 == width && r.1 == height)
        .unwrap_or_else(|| panic!("{width}x{height} is not in the published table"));
    let outcome = match outcome {
        First => "first",
        Second => "second",
        Draw => "draw",
    };
    let last = last.map_or("-".to_string(), |l| l.to_string());
    format!("{width}\t{height}\t{outcome}\t{last}")
}

/// The published exact score of the empty board of a size in the table.
pub(super) fn published_score(width: u32, height: u32) -> i32 {
    let (outcome, last) = published(width, height);
    exact_score(width, height, outcome, last)
}

/// The exact score of the empty board for the first player (the side to move), from the
/// published outcome and the ply on which the game ends: a win on ply `e` is worth
/// `(cells + 2 - e) / 2`.
fn exact_score(width: u32, height: u32, outcome: Outcome, last_move: u32) -> i32 {
    let value = (width as i32 * height as i32 + 2 - last_move as i32) / 2;
    match outcome {
        First => value,
        Second => -value,
        Draw => 0,
    }
}

fn published(width: u32, height: u32) -> (Outcome, u32) {
    let &(_, _, outcome, last) = PUBLISHED
        .iter()
        .find(|r| r.0 == width && r.1 == height)
        .unwrap_or_else(|| panic!("{width}x{height} is not in the published table"));
    (
        outcome,
        last.expect("the test sizes all have a published last move"),
    )
}

/// Solves the empty board with the default solver (and its sign with the weak one), with the
/// exhaustive reference on tiny boards and every root driver on small ones.
fn check_empty_board<G: Bounded + Tactics + Notation>(
    start: G,
    expected: i32,
    minimax: bool,
    drivers: bool,
) {
    let name = start.name();
    let t = Instant::now();
    let mut solver = AlphaBeta::new(&start, Config::default());
    let got = solver
        .solve(&start, false, &mut Clock::default())
        .expect("no limits were set");
    eprintln!(
        "{name}: exact {got} in {:?}, {} nodes",
        t.elapsed(),
        solver.nodes()
    );
    assert_eq!(
        got, expected,
        "{name}: the empty board's exact score should be {expected} (published), solver says {got}"
    );

    let mut weak = AlphaBeta::new(&start, Config::default());
    let sign = weak
        .solve(&start, true, &mut Clock::default())
        .expect("no limits were set");
    assert_eq!(
        sign,
        expected.signum(),
        "{name}: weak solve of the empty board should give {} (published), got {sign}",
        expected.signum()
    );

    if drivers {
        for driver in DRIVERS {
            let config = Config {
                driver,
                tt_mb: 8,
                ..Config::default()
            };
            let got = AlphaBeta::new(&start, config)
                .solve(&start, false, &mut Clock::default())
                .expect("no limits were set");
            assert_eq!(got, expected, "{name}: driver {driver} gives {got}");
        }
    }

    if minimax {
        let t = Instant::now();
        let got = Minimax::new().value(&start);
        eprintln!("{name}: minimax {got} in {:?}", t.elapsed());
        assert_eq!(
            got, expected,
            "{name}: the exhaustive reference should give the published {expected}, got {got}"
        );
    }
}

fn check_size(width: u32, height: u32) {
    let (outcome, last_move) = published(width, height);
    let expected = exact_score(width, height, outcome, last_move);
    let cells = width * height;
    let any = start(&format!("connect4:{width}x{height}"));
    with_connect!(any, g => check_empty_board(g, expected, cells <= 20, cells <= 20));
}

macro_rules! size_tests {
    ($($name:ident: $w:literal x $h:literal;)*) => {
        $(
            #[test]
            fn $name() {
                check_size($w, $h);
            }
        )*
    };
}

size_tests! {
    // Every published size with at most 25 cells.
    empty_4x4: 4 x 4;
    empty_5x4: 5 x 4;
    empty_4x5: 4 x 5;
    empty_5x5: 5 x 5;
    empty_6x4: 6 x 4;
    empty_4x6: 4 x 6;
    // Larger sizes that solve in well under 3 s each in the test profile.
    empty_7x4: 7 x 4;
    empty_4x7: 4 x 7;
    empty_6x5: 6 x 5;
    empty_5x6: 5 x 6;
    empty_4x8: 4 x 8;
    // The larger sizes (5x7, 7x5, 8x4, 6x6) and the standard board are checked by the full
    // benchmark suite (`inarow bench --suite full`): see the test below.
}

/// The boards the full suite solves carry the published scores.
#[test]
fn the_full_suite_boards_are_the_published_ones() {
    for (spec, score) in FULL_BOARDS {
        let (w, h) = match spec.parse::<GameSpec>().unwrap() {
            GameSpec::Connect { width, height, .. } => (width, height),
            other => panic!("{other} is not a Connect Four board"),
        };
        assert_eq!(score, published_score(w, h), "{spec}");
    }
}

#[test]
fn every_published_size_of_at_most_25_cells_is_tested() {
    let tested = [(4, 4), (5, 4), (4, 5), (5, 5), (6, 4), (4, 6)];
    for &(w, h, _, _) in PUBLISHED {
        if w * h <= 25 {
            assert!(
                tested.contains(&(w, h)),
                "{w}x{h} has at most 25 cells but no test"
            );
        }
    }
}

#[test]
fn published_rows_are_consistent() {
    for &(w, h, outcome, last) in PUBLISHED {
        let Some(e) = last else { continue };
        let cells = w * h;
        assert!(e <= cells, "{w}x{h}: last move {e} beyond {cells} cells");
        match outcome {
            Draw => assert_eq!(e, cells, "{w}x{h}: a draw ends on the last cell"),
            First => assert_eq!(e % 2, 1, "{w}x{h}: the first player moves on odd plies"),
            Second => assert_eq!(e % 2, 0, "{w}x{h}: the second player moves on even plies"),
        }
    }
    // Spot checks of the score formula against the 7x6 convention (22 - stones of the winner).
    assert_eq!(exact_score(7, 6, First, 41), 22 - 21);
    assert_eq!(exact_score(6, 4, Second, 24), -1);
    assert_eq!(exact_score(8, 5, First, 39), 1);
    assert_eq!(exact_score(10, 6, First, 59), 1);
    assert_eq!(exact_score(6, 6, Second, 36), -1);
    assert_eq!(exact_score(5, 5, Draw, 25), 0);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn constants_agree_with_the_published_file() {
    let path = shared_path("tables/connect4_sizes.tsv");
    let text = std::fs::read_to_string(&path).expect("readable table");
    let mut rows = 0;
    for line in text.lines() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') || line.starts_with("width") {
            continue;
        }
        let fields: Vec<&str> = line.split('\t').collect();
        assert_eq!(fields.len(), 4, "unexpected row '{line}'");
        let w: u32 = fields[0].parse().expect("width");
        let h: u32 = fields[1].parse().expect("height");
        let outcome = match fields[2] {
            "first" => First,
            "second" => Second,
            "draw" => Draw,
            other => panic!("unknown outcome '{other}' in '{line}'"),
        };
        let last = match fields[3] {
            "-" => None,
            n => Some(n.parse::<u32>().expect("last move")),
        };
        let constant = PUBLISHED
            .iter()
            .find(|r| r.0 == w && r.1 == h)
            .unwrap_or_else(|| panic!("{w}x{h} from the file is missing from PUBLISHED"));
        assert_eq!(
            *constant,
            (w, h, outcome, last),
            "PUBLISHED disagrees with the file"
        );
        rows += 1;
    }
    assert_eq!(rows, PUBLISHED.len(), "PUBLISHED has rows the file lacks");
}

/// The rough guess behind the notice that a search without limits may not end soon is within
/// an order of magnitude of the empty boards measured on one core (docs/results.md), and never
/// says much less than they took: wide boards grow faster than their cells say.
#[test]
fn rough_solve_time_of_the_measured_boards() {
    for (board, measured) in [
        ("7x6", 21.0),
        ("6x6", 3.6),
        ("7x7", 269.0),
        ("8x4", 1.0),
        ("9x4", 9.7),
        ("10x4", 290.0),
        ("11x4", 5_600.0),
        ("8x5", 62.0),
        ("8x6", 1_500.0),
        ("6x8", 156.0),
    ] {
        let rules = inarow::session::game(&format!("connect4:{board}")).expect("a board");
        let guess = rules
            .read("-")
            .expect("the empty board")
            .rough_solve_seconds()
            .expect("a guess for k = 4");
        assert!(
            (measured / 4.0..=measured * 10.0).contains(&guess),
            "{board}: guessed {guess:.1} s, measured {measured} s"
        );
    }
}
