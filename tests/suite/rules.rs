//! The rules: move strings and their errors, rendering, win and draw detection on boards of
//! every kind (7x6, other k, 128-bit boards), game specs, keys and symmetry, and the bitboard
//! accelerators (`has_winning_move`, `safe_moves`) against a plain grid model written from the
//! rules alone.

use super::common::{Naive, shared_path, spec, start};
use inarow::game::{
    AnyGame, Bounded, ConnectBoard, GameSpec, MoveList, Notation, Player, RankedMove, Rules,
    Status, Tactics, format_moves, play_moves,
};
use inarow::search::score::{end_ply, win_at};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestCaseError, TestRunner};
use std::collections::{HashMap, HashSet};

/// The result of playing `moves` on the board of `spec`: the status after every move, or the
/// error's (index, text).
fn statuses(spec_text: &str, moves: &str) -> Result<Vec<Status>, (usize, String)> {
    inarow::with_game!(start(spec_text), g => {
        let tokens = g.split_moves(moves);
        let mut out = Vec::new();
        for n in 1..=tokens.len() {
            let prefix = if moves.contains(',') { tokens[..n].join(",") } else { tokens[..n].concat() };
            match play_moves(g, &prefix) {
                Ok((pos, _)) => out.push(pos.status()),
                Err(e) => return Err((e.index, e.to_string())),
            }
        }
        Ok(out)
    })
}

/// Plays `moves` and returns the error, which must occur.
fn error_of(spec_text: &str, moves: &str) -> (usize, String, String) {
    inarow::with_game!(start(spec_text), g => match play_moves(g, moves) {
        Ok((pos, _)) => panic!("{spec_text} '{moves}' should be rejected, got ply {}", pos.ply()),
        Err(e) => (e.index, e.reason.clone(), e.to_string()),
    })
}

#[test]
fn move_string_errors() {
    // A column beyond the board.
    let (index, _, text) = error_of("connect4", "8");
    assert_eq!(index, 1);
    assert!(
        text.contains('8'),
        "the error should name the column: {text}"
    );
    let (index, _, text) = error_of("connect4", "4458");
    assert_eq!(index, 4, "{text}");
    assert!(
        text.contains("4458"),
        "the error should quote the string: {text}"
    );
    let (index, _, _) = error_of("connect4", "0");
    assert_eq!(index, 1, "column 0 does not exist (columns are 1-based)");
    // A full column: six stones fit in a 7x6 column, the seventh does not.
    let (index, reason, _) = error_of("connect4", "1111111");
    assert_eq!(index, 7);
    assert!(reason.contains("full"), "{reason}");
    assert!(
        play_moves(
            inarow::game::Connect::<u64, _>::new(inarow::game::Standard),
            "111111"
        )
        .is_ok()
    );
    // Not a digit.
    let (index, _, text) = error_of("connect4", "a");
    assert_eq!(index, 1);
    assert!(text.contains("'a'"), "{text}");
    let (index, _, _) = error_of("connect4", "44a3");
    assert_eq!(index, 3);
    // A move after the game is over: the first player wins vertically on ply 7.
    assert_eq!(
        statuses("connect4", "1212121").unwrap().last(),
        Some(&Status::Win(Player::First))
    );
    for next in ["1", "2", "7"] {
        let (index, _, text) = error_of("connect4", &format!("1212121{next}"));
        assert_eq!(index, 8, "{text}");
    }
    // Surrounding whitespace is ignored; the empty string is the empty board.
    inarow::with_game!(start("connect4"), g => {
        assert_eq!(play_moves(g, " 4453 ").unwrap().0.ply(), 4);
        assert_eq!(play_moves(g, "").unwrap().0.ply(), 0);
    });
}

#[test]
fn comma_separated_moves_on_wide_boards() {
    let any = start("connect4:10x6");
    with_connect!(any, g => {
        let (pos, moves) = play_moves(g, "10,1,10").expect("comma form");
        assert_eq!(moves, vec![9, 0, 9]);
        assert_eq!(pos.ply(), 3);
        assert_eq!(format_moves(g, &moves), "10,1,10", "more than 9 columns: comma form");
        let (_, spaced) = play_moves(g, "10, 1 ,10").expect("spaces around commas");
        assert_eq!(spaced, moves);
        assert_eq!(
            pos.render(),
            ". . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . .\n\
             . . . . . . . . . X\n\
             O . . . . . . . . X\n\
             1 2 3 4 5 6 7 8 9 0\n"
        );
        // Without commas every character is a move: '0' is not a column.
        let e = play_moves(g, "101").expect_err("'0' is no column");
        assert_eq!(e.index, 2);
        let e = play_moves(g, "10,11").expect_err("column 11 of 10");
        assert_eq!(e.index, 2);
    });
    // Up to 9 columns the moves are written without separators.
    inarow::with_game!(start("connect4:9x5"), g => {
        let (_, moves) = play_moves(g, "9,1,9").expect("comma form is read on any board");
        assert_eq!(format_moves(g, &moves), "919");
    });
}

#[test]
fn render_draws_the_board() {
    inarow::with_game!(start("connect4"), g => {
        let (pos, _) = play_moves(g, "4453").unwrap();
        assert_eq!(
            pos.render(),
            ". . . . . . .\n\
             . . . . . . .\n\
             . . . . . . .\n\
             . . . . . . .\n\
             . . . O . . .\n\
             . . O X X . .\n\
             1 2 3 4 5 6 7\n"
        );
        assert_eq!(pos.side_to_move(), Player::First);
        assert_eq!(pos.name(), "connect4:7x6:k4");
    });
}

/// Checks the status after each move of `moves`: `Ongoing` until the last, then `last`.
fn assert_ends(spec_text: &str, moves: &str, last: Status) {
    let all = statuses(spec_text, moves)
        .unwrap_or_else(|e| panic!("{spec_text} '{moves}' should be legal: {e:?}"));
    let (end, before) = all.split_last().expect("at least one move");
    assert!(
        before.iter().all(|s| *s == Status::Ongoing),
        "{spec_text} '{moves}': the game must not end before the last move: {all:?}"
    );
    assert_eq!(*end, last, "{spec_text} '{moves}'");
}

#[test]
fn wins_in_every_direction_on_7x6() {
    let first = Status::Win(Player::First);
    assert_ends("connect4", "1122334", first); // horizontal, bottom row
    assert_ends("connect4", "1212121", first); // vertical
    assert_ends("connect4", "12233434464", first); // rising diagonal
    assert_ends("connect4", "76655454424", first); // falling diagonal (its mirror image)
    assert_ends("connect4", "71726364", Status::Win(Player::Second)); // second player
    // The same on the run-time geometries of the same size, on 64 and 128 bits.
    assert!(matches!(
        start("connect4:7x6:k4"),
        AnyGame::Connect4(ConnectBoard::Standard(_))
    ));
    for moves in ["1122334", "1212121", "12233434464", "76655454424"] {
        inarow::with_game!(start("connect4:9x12"), g => {
            let (pos, _) = play_moves(g, moves).unwrap();
            assert_eq!(pos.status(), first, "9x12 '{moves}'");
        });
    }
}

#[test]
fn wins_with_other_line_lengths() {
    let first = Status::Win(Player::First);
    // k = 3.
    assert_ends("connect4:5x5:k3", "11223", first);
    assert_ends("connect4:5x5:k3", "12121", first);
    assert_ends("connect4:5x5:k3", "122343", Status::Ongoing);
    assert_ends("connect4:5x5:k3", "1223433", first); // rising diagonal of 3
    assert_ends("connect4:5x5:k3", "5443233", first); // falling diagonal of 3
    // k = 5: four in a row is not yet a win, for either player.
    assert_ends("connect4:7x6:k5", "11223344", Status::Ongoing);
    assert_ends("connect4:7x6:k5", "112233445", first);
    assert_ends("connect4:7x6:k5", "1212121", Status::Ongoing);
    assert_ends("connect4:7x6:k5", "121212121", first);
    // A line longer than the board is high only runs across it.
    assert_ends("connect4:7x4:k5", "121212", Status::Ongoing);
}

#[test]
fn a_full_board_without_a_line_is_a_draw() {
    assert_ends("connect4:4x4", "1234123443214321", Status::Draw);
    assert_ends("connect4:4x4", "1212343421214343", Status::Draw);
}

#[test]
fn boards_of_128_bits() {
    assert!(matches!(
        start("connect4:9x12"),
        AnyGame::Connect4(ConnectBoard::Wide(_))
    ));
    assert!(matches!(
        start("connect4:8x15"),
        AnyGame::Connect4(ConnectBoard::Wide(_))
    ));
    assert!(
        matches!(
            start("connect4:9x7"),
            AnyGame::Connect4(ConnectBoard::Wide(_))
        ),
        "8 * 9 = 72 bits"
    );
    assert!(
        matches!(
            start("connect4:8x7"),
            AnyGame::Connect4(ConnectBoard::Narrow(_))
        ),
        "8 * 8 = 64 bits"
    );
    // 8x15 uses all 128 bits: a vertical win at the top of the last column.
    let moves = format!("1{}181818", "8".repeat(12));
    assert_ends("connect4:8x15", &moves, Status::Win(Player::First));
    with_connect!(start("connect4:8x15"), g => {
        let (pos, _) = play_moves(g, &moves).unwrap();
        assert_eq!(pos.key_bits(), 128);
        // Column 8 is full now (15 stones); a 16th is refused.
        let (full, _) = play_moves(g, &"8".repeat(15)).unwrap();
        assert_eq!(full.status(), Status::Ongoing);
        let e = play_moves(g, &"8".repeat(16)).expect_err("column 8 holds 15");
        assert_eq!(e.index, 16);
        assert!(e.reason.contains("full"), "{}", e.reason);
        let mut legal = MoveList::new();
        full.legal_moves(&mut legal);
        assert_eq!(legal.len(), 7);
        assert!(!legal.contains(&7));
    });
    assert_ends("connect4:9x12", "1122334", Status::Win(Player::First));
    assert_ends("connect4:9x12", "71726364", Status::Win(Player::Second));
}

#[test]
fn game_spec_parsing() {
    for bad in [
        "connect4:0x5",
        "connect4:5x0",
        "connect4:7x6:k1",
        "connect4:7x6:k9",
        "connect4:7x6:k8",
        "connect4:20x20",
        "connect4:8x16",
        "connect4:7x6:4",
        "connect4:7-6",
        "connect4:ax6",
        "connect4:7x6:k4:x",
        "chess",
        "",
    ] {
        let e = bad
            .parse::<GameSpec>()
            .expect_err(&format!("'{bad}' should be rejected"));
        assert!(
            e.to_string().contains(bad),
            "the error should quote '{bad}': {e}"
        );
    }
    assert_eq!(spec("connect4"), GameSpec::default());
    assert_eq!(
        spec("connect4"),
        GameSpec::Connect {
            width: 7,
            height: 6,
            k: 4
        }
    );
    assert_eq!(
        spec("connect4:5x4"),
        GameSpec::Connect {
            width: 5,
            height: 4,
            k: 4
        }
    );
    assert_eq!(
        spec("connect4:8x15:k6"),
        GameSpec::Connect {
            width: 8,
            height: 15,
            k: 6
        }
    );
    for good in [
        "connect4:7x6:k4",
        "connect4:5x4:k3",
        "connect4:9x13:k2",
        "connect4:7x6:k7",
    ] {
        assert_eq!(spec(good).to_string(), good, "Display round trip");
        inarow::with_game!(spec(good).start(), g => assert_eq!(g.name(), good));
    }
    assert!(matches!(
        spec("connect4").start(),
        AnyGame::Connect4(ConnectBoard::Standard(_))
    ));
    assert!(matches!(
        spec("connect4:7x6:k5").start(),
        AnyGame::Connect4(ConnectBoard::Narrow(_))
    ));
}

/// One enumerated position: `(render + side to move, key, canonical key, the mirror image's
/// render + side to move, the mirror image's canonical key)`.
type Visited = (String, u128, u128, String, u128);

/// Every position of a board reachable from the empty one (the game stopping at a win), each
/// with its mirror image: `(render + side to move, key, canonical key, mirror's render, mirror's
/// canonical key)`, up to `max_ply` stones.
fn enumerate<G: Bounded<Move = u8> + Tactics + Notation>(
    start: G,
    width: u8,
    max_ply: u32,
) -> Vec<Vec<Visited>> {
    let repr = |p: &G| format!("{}{:?}", p.render(), p.side_to_move());
    let mut by_ply = Vec::new();
    let mut layer = vec![(start, start)];
    for ply in 0..=max_ply {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        let mut out = Vec::new();
        for (pos, mirror) in layer {
            let r = repr(&pos);
            if !seen.insert(r.clone()) {
                continue;
            }
            out.push((
                r,
                pos.key(),
                pos.canonical_key(),
                repr(&mirror),
                mirror.canonical_key(),
            ));
            if ply < max_ply {
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                for m in moves {
                    next.push((pos.play(m), mirror.play(width - 1 - m)));
                }
            }
        }
        by_ply.push(out);
        layer = next;
    }
    by_ply
}

/// Checks keys on an enumeration: one key per position, never shared; canonical keys equal for
/// a position and its mirror image, and shared by nothing else.
fn check_keys(by_ply: &[Vec<Visited>], key_bits: u32) {
    let mut owner: HashMap<u128, &str> = HashMap::new();
    let mut canonical_owner: HashMap<u128, (&str, &str)> = HashMap::new();
    for layer in by_ply {
        for (repr, key, canonical, mirror_repr, mirror_canonical) in layer {
            assert!(
                key_bits >= 128 || *key < 1u128 << key_bits,
                "key beyond key_bits"
            );
            if let Some(other) = owner.insert(*key, repr) {
                panic!("two positions share key {key:#x}:\n{other}\n{repr}");
            }
            assert_eq!(
                canonical, mirror_canonical,
                "mirror images:\n{repr}\n{mirror_repr}"
            );
            assert!(canonical <= key, "the canonical key is the smallest");
            let pair = if repr <= mirror_repr {
                (repr.as_str(), mirror_repr.as_str())
            } else {
                (mirror_repr.as_str(), repr.as_str())
            };
            if let Some(other) = canonical_owner.insert(*canonical, pair) {
                assert_eq!(
                    other, pair,
                    "positions that are not mirror images share a canonical key"
                );
            }
        }
    }
}

/// Connect Four 4x4: 161,029 legal positions (popout-thesis Table 10; Tromp), restated from
/// `shared/data/tables/state_counts.tsv`.
const POSITIONS_4X4: usize = 161_029;
/// Connect Four 7x6: positions by ply 0..=8 (OEIS A212693).
const POSITIONS_7X6_BY_PLY: [usize; 9] = [1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275];

#[test]
fn keys_are_unique_over_every_4x4_position() {
    with_connect!(start("connect4:4x4"), g => {
        let by_ply = enumerate(g, 4, 16);
        let total: usize = by_ply.iter().map(Vec::len).sum();
        assert_eq!(total, POSITIONS_4X4, "number of legal 4x4 positions (published)");
        check_keys(&by_ply, g.key_bits());
    });
}

#[test]
fn keys_are_unique_over_7x6_positions_up_to_ply_8() {
    with_connect!(start("connect4"), g => {
        let by_ply = enumerate(g, 7, 8);
        let counts: Vec<usize> = by_ply.iter().map(Vec::len).collect();
        assert_eq!(counts, POSITIONS_7X6_BY_PLY, "positions by ply (OEIS A212693)");
        check_keys(&by_ply, g.key_bits());
    });
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn position_counts_agree_with_the_published_file() {
    let path = shared_path("tables/state_counts.tsv");
    let text = std::fs::read_to_string(path).expect("readable");
    assert!(
        text.lines()
            .any(|l| l.split('\t').collect::<Vec<_>>() == ["connect4", "4", "4", "161029"]),
        "state_counts.tsv should list connect4 4x4 with {POSITIONS_4X4} positions"
    );
    let by_ply: Vec<String> = POSITIONS_7X6_BY_PLY.iter().map(|n| n.to_string()).collect();
    assert!(
        text.contains(&by_ply.join(" ")),
        "state_counts.tsv should list the 7x6 counts by ply {by_ply:?}"
    );
}

#[test]
fn score_convention() {
    // Pons: score = 22 - stones of the winner when the game ends, on 7x6.
    for e in 1..=42 {
        assert_eq!(win_at(42, e), 22 - (e as i32 + 1) / 2, "win on ply {e}");
    }
    for ply in 0..42 {
        for score in -21..=21 {
            if let Some(e) = end_ply(42, ply, score) {
                assert!(e > ply && e <= 42);
                assert_eq!(win_at(42, e), score.abs());
                let winner_moves = if score > 0 { ply + 1 } else { ply };
                assert_eq!(e % 2, winner_moves % 2, "ply {ply} score {score}");
            }
        }
    }
    assert_eq!(end_ply(42, 0, 0), None);
    assert_eq!(end_ply(42, 0, 1), Some(41));
}

/// The boards the grid model is compared on: `(spec, width, height, k)`.
const MODEL_BOARDS: [(&str, usize, usize, usize); 14] = [
    ("connect4", 7, 6, 4),
    ("connect4:7x6:k5", 7, 6, 5),
    ("connect4:7x6:k3", 7, 6, 3),
    ("connect4:5x5:k3", 5, 5, 3),
    ("connect4:4x4", 4, 4, 4),
    ("connect4:3x3:k3", 3, 3, 3),
    ("connect4:10x6", 10, 6, 4),
    ("connect4:9x12", 9, 12, 4),
    ("connect4:8x15", 8, 15, 4),
    ("connect4:8x15:k6", 8, 15, 6),
    ("connect4:2x40:k3", 2, 40, 3),
    ("connect4:1x8:k3", 1, 8, 3),
    ("connect4:8x1:k3", 8, 1, 3),
    ("connect4:6x9:k2", 6, 9, 2),
];

fn sorted(mut v: Vec<usize>) -> Vec<usize> {
    v.sort_unstable();
    v
}

/// Compares a position with the grid model: status, legal moves, rendering, keys, and the
/// accelerators `has_winning_move` and `safe_moves`.
fn compare<G: Bounded<Move = u8> + Tactics + Notation>(
    pos: &G,
    mirror: &G,
    model: &Naive,
    line: &str,
) -> Result<(), TestCaseError> {
    prop_assert_eq!(pos.status(), model.status(), "status after '{}'", line);
    prop_assert_eq!(pos.ply(), model.ply);
    prop_assert_eq!(pos.render(), model.render(), "render after '{}'", line);
    prop_assert!(pos.key_bits() >= 128 || pos.key() < 1u128 << pos.key_bits());
    prop_assert_eq!(
        pos.canonical_key(),
        mirror.canonical_key(),
        "mirror after '{}'",
        line
    );
    prop_assert_eq!(pos.canonical_key(), pos.key().min(mirror.key()));
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let legal: Vec<usize> = moves.iter().map(|&m| m as usize).collect();
    prop_assert_eq!(
        sorted(legal.clone()),
        model.legal(),
        "legal moves after '{}'",
        line
    );
    for col in 0..model.width {
        let parsed = pos.parse_move(&(col + 1).to_string());
        prop_assert_eq!(
            parsed.is_ok(),
            model.grid[col].contains(&0),
            "parse of column {} after '{}'",
            col + 1,
            line
        );
    }
    if pos.status() != Status::Ongoing {
        return Ok(());
    }
    let wins_at_once = |m: &Naive| {
        m.legal().into_iter().any(|c| {
            let mut next = m.clone();
            next.play(c);
            next.winner.is_some()
        })
    };
    let winning = wins_at_once(model);
    prop_assert_eq!(
        pos.has_winning_move(),
        winning,
        "has_winning_move after '{}'",
        line
    );
    if !winning {
        let mut safe = MoveList::<RankedMove<u8>>::new();
        pos.safe_moves(&mut safe);
        let got = sorted(safe.iter().map(|r| r.mv as usize).collect());
        let want: Vec<usize> = model
            .legal()
            .into_iter()
            .filter(|&c| {
                let mut next = model.clone();
                next.play(c);
                next.is_over() || !wins_at_once(&next)
            })
            .collect();
        prop_assert_eq!(got, want, "safe_moves after '{}'", line);
    }
    Ok(())
}

fn play_against_model<G: Bounded<Move = u8> + Tactics + Notation>(
    start: G,
    board: (&str, usize, usize, usize),
    choices: &[usize],
    narrow: Option<usize>,
) -> Result<(), TestCaseError> {
    let (_, w, h, k) = board;
    let mut model = Naive::new(w, h, k);
    let (mut pos, mut mirror) = (start, start);
    let mut line = String::new();
    compare(&pos, &mirror, &model, &line)?;
    for &c in choices {
        let legal = model.legal();
        if legal.is_empty() {
            break;
        }
        // Narrow games stack a few neighbouring columns high, to reach the top rows.
        let wanted = match narrow {
            Some(lo) => (lo + c % 3) % w,
            None => c % w,
        };
        let col = if model.can_play(wanted) {
            wanted
        } else {
            legal[c % legal.len()]
        };
        model.play(col);
        pos = pos.play(col as u8);
        mirror = mirror.play((w - 1 - col) as u8);
        if !line.is_empty() && w > 9 {
            line.push(',');
        }
        line += &(col + 1).to_string();
        compare(&pos, &mirror, &model, &line)?;
    }
    Ok(())
}

#[test]
fn bitboards_agree_with_a_grid_model() {
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 1500,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let strategy = (
        0..MODEL_BOARDS.len(),
        prop::option::of(0usize..16),
        prop::collection::vec(0usize..64, 0..=130),
    );
    let result = runner.run(&strategy, |(b, narrow, choices)| {
        let board = MODEL_BOARDS[b];
        with_connect!(start(board.0), g => play_against_model(g, board, &choices, narrow))
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn the_grid_model_knows_the_hand_made_cases() {
    // The reference itself, on the hand-checked lines above.
    let play = |w, h, k, moves: &str| {
        let mut m = Naive::new(w, h, k);
        for c in moves.chars() {
            m.play(c.to_digit(10).unwrap() as usize - 1);
        }
        m.status()
    };
    assert_eq!(play(7, 6, 4, "12233434464"), Status::Win(Player::First));
    assert_eq!(play(7, 6, 4, "76655454424"), Status::Win(Player::First));
    assert_eq!(play(7, 6, 4, "71726364"), Status::Win(Player::Second));
    assert_eq!(play(4, 4, 4, "1234123443214321"), Status::Draw);
    assert_eq!(play(7, 6, 5, "11223344"), Status::Ongoing);
}
