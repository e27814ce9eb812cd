//! Pentago: Irving's terminal and move-generation vectors (`shared/data/pentago`), the three
//! notations and their errors.

use super::cli::inarow;
use super::common::shared_path;
use inarow::game::{MoveList, Notation, Pentago, Player, Rules, Status, Tactics, read_position};
use inarow::limits::Limits;
use std::collections::BTreeSet;

fn board(text: &str) -> Pentago {
    Pentago::new()
        .parse_board(text)
        .unwrap_or_else(|| panic!("'{text}' is not a board"))
        .unwrap_or_else(|e| panic!("{text}: {e}"))
}

/// The value for the side to move of a finished game, 2 while it goes on (Irving's vectors: a
/// five for either player ends the game, also while a rotation is pending).
fn done_value(pos: &Pentago) -> i64 {
    match pos.status() {
        Status::Ongoing => 2,
        Status::Draw => 0,
        Status::Win(p) if p == pos.side_to_move() => 1,
        Status::Win(_) => -1,
    }
}

fn json(name: &str) -> serde_json::Value {
    let path = shared_path(&format!("pentago/{name}"));
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn terminal_vectors_pass() {
    let vectors = json("irving_done_vectors.json");
    let vectors = vectors.as_object().unwrap();
    assert!(vectors.len() > 80);
    for (name, value) in vectors {
        let pos = board(name);
        assert_eq!(pos.board_name(), *name);
        assert_eq!(
            done_value(&pos),
            value.as_i64().unwrap(),
            "{name}\n{}",
            pos.render()
        );
    }
}

/// The positions one half-move below `pos` in Irving's sense: a placement (rotation pending)
/// from a finished turn, a rotation from a pending one.
fn half_move_children(pos: &Pentago) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    if pos.status() != Status::Ongoing {
        return out;
    }
    let [first, second] = pos.stones();
    if pos.pending() {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        for m in moves {
            out.insert(pos.play(m).board_name());
        }
        return out;
    }
    let empty = !(first | second) & ((1 << 36) - 1);
    for cell in (0..36).filter(|c| empty >> c & 1 == 1) {
        let stones = match pos.side_to_move() {
            Player::First => [first | 1 << cell, second],
            Player::Second => [first, second | 1 << cell],
        };
        out.insert(Pentago::from_stones(stones, true).unwrap().board_name());
    }
    out
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn move_vectors_pass() {
    let vectors = json("irving_move_vectors.json");
    for (name, children) in vectors.as_object().unwrap() {
        let pos = board(name);
        let want: BTreeSet<String> = children
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_str().unwrap().to_string())
            .collect();
        if pos.status() != Status::Ongoing {
            // Irving's vectors list the moves of finished games too; there are none.
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            assert!(moves.is_empty(), "{name}");
            continue;
        }
        assert_eq!(half_move_children(&pos), want, "{name}\n{}", pos.render());
        // A whole turn from a finished one reaches exactly the rotations of the placements
        // (or the placement itself, when its five ends the game).
        if !pos.pending() && pos.status() == Status::Ongoing {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let turns: BTreeSet<String> = moves.iter().map(|&m| pos.play(m).board_name()).collect();
            let mut through = BTreeSet::new();
            for child in &want {
                let placed = board(child);
                if placed.status() == Status::Ongoing {
                    through.extend(half_move_children(&placed));
                } else {
                    through.insert(child.trim_end_matches('m').to_string());
                }
            }
            assert_eq!(turns, through, "{name}");
            assert_eq!(turns.len(), moves.len(), "{name}: a move listed twice");
        }
    }
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn game_values_file_boards_match_their_grids() {
    let path = shared_path("pentago/irving_game_values.tsv");
    let text = std::fs::read_to_string(path).unwrap();
    let mut n = 0;
    for line in text.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        let (name, stones, middle, to_move, grid) = (f[1], f[2], f[3], f[4], f[6]);
        let pos = board(name);
        let pending = if middle == "1" { "m" } else { "" };
        assert_eq!(pos.grid(), format!("{grid}{pending}"), "{name}");
        assert_eq!(board(&format!("{grid}{pending}")), pos);
        assert_eq!(
            (pos.stones()[0] | pos.stones()[1]).count_ones().to_string(),
            stones
        );
        assert_eq!(
            pos.side_to_move() as usize,
            to_move.parse::<usize>().unwrap()
        );
        n += 1;
    }
    assert!(n > 1700);
}

#[test]
fn moves_round_trip_and_bad_input_is_named() {
    let start = Pentago::new();
    let (root, pos, moves) = read_position(start, "d53ra10lf62r").unwrap();
    assert_eq!(root, start);
    assert_eq!(moves.len(), 3);
    let mut p = start;
    let mut text = String::new();
    for &m in &moves {
        text += &p.format_move(m);
        p = p.play(m);
    }
    assert_eq!(text, "d53ra10lf62r");
    assert_eq!(p, pos);
    assert_eq!(
        read_position(start, "d5/3r,a1/0l").map(|r| r.2.len()).ok(),
        None
    );
    assert_eq!(
        read_position(start, "d53r,a10l").unwrap().1,
        read_position(start, "d53ra10l").unwrap().1
    );
    for (text, why) in [
        ("d50rd51l", "taken"),
        ("g13r", "not a move"),
        ("d54r", "not a move"),
        ("d53x", "not a move"),
        ("d5", "lacks its rotation"),
        ("1000000000000000000000", "does not fit"),
        ("19683", "beyond the 3^9"),
        ("2m", "impossible"),
        ("0m", "impossible"),
        ("xx..................................", "impossible"),
    ] {
        let err = read_position(start, text).unwrap_err().to_string();
        assert!(err.contains(why), "{text}: {err}");
    }
    // A pending root's moves are rotations alone, and its cells are given by the grid.
    let (root, pos, _) = read_position(start, "...........................x........m").unwrap();
    assert_eq!(root, pos);
    assert!(pos.pending());
    let m = pos.parse_move("2r").unwrap();
    assert_eq!(pos.format_move(m), "2r");
    assert!(
        pos.parse_move("d53r")
            .unwrap_err()
            .to_string()
            .contains("not a rotation")
    );
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    // The stone's own quadrant turns two ways; the other three change nothing: one move.
    assert_eq!(moves.len(), 3);
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn board_counts_are_irvings() {
    let path = shared_path("pentago/position_counts_and_edison_wlt.tsv");
    let table = std::fs::read_to_string(path).unwrap();
    let run = inarow(&["count", "--game", "pentago"], None);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let mut rows = run.stdout.lines().filter(|l| l.starts_with("discs "));
    for line in table.lines().skip(1) {
        let f: Vec<&str> = line.split('\t').collect();
        if f[0] == "all" {
            assert_eq!(
                run.stdout.lines().last(),
                Some(format!("total {}", f[1]).as_str())
            );
            continue;
        }
        let want = format!("discs {} {} {} {}", f[0], f[1], f[2], f[3]);
        assert_eq!(rows.next(), Some(want.as_str()));
    }
}

/// Irving's game values of `stones` stones and more as a benchmark file (`NAME VALUE` lines) in
/// the temporary folder, and how many lines it has.
fn values_from(stones: u32) -> (std::path::PathBuf, usize) {
    let path = shared_path("pentago/irving_game_values.tsv");
    let lines: String = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .skip(1)
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            (f[2].parse::<u32>().unwrap() >= stones).then(|| format!("{} {}\n", f[1], f[5]))
        })
        .collect();
    let file =
        std::env::temp_dir().join(format!("inarow-pentago{stones}-{}.txt", std::process::id()));
    std::fs::write(&file, &lines).unwrap();
    (file, lines.lines().count())
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn late_positions_of_irvings_games_are_solved_right() {
    // The positions of 30 stones and more: alpha-beta answers each within milliseconds.
    let (file, n) = values_from(30);
    for algo in ["gallop", "dfpn"] {
        let run = inarow(
            &[
                "bench",
                "--game",
                "pentago",
                "--weak",
                "--algo",
                algo,
                file.to_str().unwrap(),
            ],
            None,
        );
        assert!(
            run.stdout.contains(&format!("n={n} correct={n} ")),
            "{algo}: {}{}",
            run.stdout,
            run.stderr
        );
    }
    std::fs::remove_file(file).ok();
}

/// Random positions of `stones` stones (an even number, so the first player is to move, or odd)
/// reached by random moves that do not end the game.
fn random_positions(stones: u32, count: usize, seed: u64) -> Vec<Pentago> {
    let mut rng = super::common::SplitMix(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let mut pos = Pentago::new();
        while pos.ply() < stones && pos.status() == Status::Ongoing {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            pos = pos.play(moves[rng.next_u64() as usize % moves.len()]);
        }
        if pos.status() == Status::Ongoing {
            out.push(pos);
        }
    }
    out
}

#[test]
fn the_midgame_solver_agrees_with_forward_search() {
    use inarow::engine::{Engine, Options};
    use inarow::solvers::pentago as midgame;
    let options = Options {
        weak: true,
        ..Options::default()
    };
    let mut engine = Engine::new(&Pentago::new(), options);
    let mut checked = 0;
    for (stones, count) in [(30, 6), (28, 4), (27, 3), (26, 2)] {
        for pos in random_positions(stones, count, 7 + stones as u64) {
            // Also the same board with its rotation pending, the stone just placed.
            let mut roots = vec![pos];
            let [a, b] = pos.stones();
            if let Ok(pending) = Pentago::from_stones([a, b], true)
                && pending.status() == Status::Ongoing
            {
                roots.push(pending);
            }
            for root in roots {
                let answer =
                    midgame::solve(&root, 1 << 30, 2, Default::default(), |_, _| {}).unwrap();
                // The least memory it takes: one sweep a bit instead of both in one.
                let empty = 36 - (root.stones()[0] | root.stones()[1]).count_ones() as usize;
                let lean = midgame::solve(
                    &root,
                    midgame::bytes_needed(empty),
                    1,
                    Default::default(),
                    |_, _| {},
                )
                .unwrap();
                assert_eq!(
                    (lean.value, &lean.moves),
                    (answer.value, &answer.moves),
                    "{}",
                    root.board_name()
                );
                assert!(lean.bytes < answer.bytes, "{}", root.board_name());
                let forward = engine
                    .solve(&root, &Limits::default())
                    .score
                    .expect("no limits");
                assert_eq!(answer.value, forward.signum(), "{}", root.board_name());
                for (mv, value) in answer.moves {
                    let child = root.play(mv);
                    let want = match child.status() {
                        Status::Ongoing => -engine
                            .solve(&child, &Limits::default())
                            .score
                            .unwrap()
                            .signum(),
                        Status::Draw => 0,
                        Status::Win(p) if p == root.side_to_move() => 1,
                        Status::Win(_) => -1,
                    };
                    assert_eq!(
                        value,
                        want,
                        "{} {}",
                        root.board_name(),
                        root.format_move(mv)
                    );
                    checked += 1;
                }
            }
        }
    }
    assert!(checked > 500, "{checked}");
}

#[test]
#[cfg_attr(not(shared_data), ignore = "needs the public data in ../shared/data")]
fn irvings_values_from_23_stones_by_default() {
    // The default engine: the midgame solver down to 26 stones, alpha-beta above.
    let (file, n) = values_from(23);
    let run = inarow(
        &["bench", "--game", "pentago", file.to_str().unwrap()],
        None,
    );

    assert!(n > 300);
    assert!(
        run.stdout.contains(&format!("n={n} correct={n} ")),
        "{}{}",
        run.stdout,
        run.stderr
    );
    // The midgame solver answered the early ones: it counts its fillings as nodes.
    assert!(!run.stdout.contains("mean_nodes=0.0 "), "{}", run.stdout);
    std::fs::remove_file(file).ok();
}

#[test]
fn the_thesis_evaluation_counts_runs_and_the_centre() {
    // A row of three in the centre (100 for the run, 5 for each stone) against three corners
    // (nothing); then a diagonal four (one run of four, two of three, four centre stones).
    let row = board(&["o....o", ".xxx..", "......", "......", "......", "o....."].concat());
    assert_eq!(row.side_to_move(), Player::First);
    assert_eq!(row.evaluate(), Some(3 * 5 + 100));
    let diagonal = board(&["o....o", ".x....", "..x...", "...x..", "....x.", "o....o"].concat());
    assert_eq!(diagonal.evaluate(), Some(4 * 5 + 1_000 + 2 * 100));
    // Zero-sum: with a fourth stone on the edge, the other side is to move and sees the
    // negation.
    let theirs = board(&["o....o", ".xxx..", "......", ".....x", "......", "o....."].concat());
    assert_eq!(theirs.side_to_move(), Player::Second);
    assert_eq!(theirs.evaluate(), Some(-(3 * 5 + 100)));
}

#[test]
fn the_heuristic_engine_is_exact_where_every_line_ends() {
    use inarow::search::Limits;
    use inarow::search::heuristic::{Appraisal, search};
    use inarow::solvers::pentago as midgame;
    for (i, pos) in random_positions(31, 12, 41)
        .into_iter()
        .chain(random_positions(32, 12, 42))
        .enumerate()
    {
        let exact = midgame::solve(&pos, 1 << 30, 1, Default::default(), |_, _| {}).unwrap();
        let choice = search(&pos, &Limits::default(), None, 1 << 20, true).unwrap();
        assert_eq!(choice.stop, None, "{i}");
        assert_eq!(
            choice.value,
            Appraisal::Exact(exact.value),
            "{i}\n{}",
            pos.render()
        );
        let mut want = exact.moves.clone();
        let mut got: Vec<(u16, Appraisal)> = choice.moves.clone();
        want.sort();
        got.sort_by_key(|&(m, _)| m);
        let want: Vec<(u16, Appraisal)> = want
            .into_iter()
            .map(|(m, v)| (m, Appraisal::Exact(v)))
            .collect();
        assert_eq!(got, want, "{i}\n{}", pos.render());
    }
}

#[test]
fn the_heuristic_engine_takes_wins_and_avoids_immediate_losses() {
    use inarow::search::Limits;
    use inarow::search::heuristic::{Appraisal, search};
    let limits = Limits {
        nodes: Some(400_000),
        ..Limits::default()
    };
    let (mut wins, mut checked) = (0, 0);
    for pos in [14, 18, 22, 26]
        .into_iter()
        .flat_map(|stones| random_positions(stones, 10, stones as u64))
    {
        let choice = search(&pos, &limits, None, 1 << 22, false).unwrap();
        // Two plies at least, unless a win in one ended the search.
        assert!(
            choice.depth >= 2 || choice.value == Appraisal::Exact(1),
            "{}",
            pos.render()
        );
        let after = pos.play(choice.best);
        let me = pos.side_to_move();
        if pos.has_winning_move() {
            assert_eq!(after.status(), Status::Win(me), "{}", pos.render());
            wins += 1;
            continue;
        }
        let loses_at_once =
            |p: &Pentago| p.status() == Status::Win(me.opponent()) || p.has_winning_move();
        if loses_at_once(&after) {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            assert!(
                moves.iter().all(|&m| loses_at_once(&pos.play(m))),
                "{} lets the opponent win at once\n{}",
                pos.format_move(choice.best),
                pos.render()
            );
        }
        checked += 1;
    }
    assert!(wins >= 5 && checked >= 5, "{wins} wins, {checked} others");
}

#[test]
fn the_engine_plays_a_whole_game_against_itself() {
    let run = inarow(
        &[
            "play", "--game", "pentago", "--human", "none", "--think", "0.2",
        ],
        Some(""),
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stdout.contains(" wins.") || run.stdout.contains("Draw."),
        "{}",
        run.stdout
    );
}

/// `b` (cells `x + 6y`) under symmetry `s` of the square: `s & 3` quarter turns, then a mirror
/// if `s & 4`.
fn symmetric(b: u64, s: u32) -> u64 {
    (0..36).filter(|i| b >> i & 1 == 1).fold(0, |out, i| {
        let (mut x, mut y) = (i % 6, i / 6);
        for _ in 0..s & 3 {
            (x, y) = (5 - y, x);
        }
        if s & 4 != 0 {
            x = 5 - x;
        }
        out | 1 << (x + 6 * y)
    })
}

#[test]
fn values_are_the_same_under_the_eight_symmetries() {
    use inarow::solvers::pentago as midgame;
    let mut pending = 0;
    for (i, pos) in random_positions(24, 6, 7)
        .into_iter()
        .chain(random_positions(25, 6, 8))
        .enumerate()
    {
        // And the same roots with a stone placed, the turn pending.
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let [a, b] = pos.stones();
        let cell = 1u64 << (moves[0] / 8);
        let placed = if pos.side_to_move() == Player::First {
            [a | cell, b]
        } else {
            [a, b | cell]
        };
        let roots = [Some(pos), Pentago::from_stones(placed, true).ok()];
        for root in roots.into_iter().flatten() {
            if root.status() != Status::Ongoing {
                continue;
            }
            pending += root.pending() as usize;
            let value = |p: &Pentago| {
                midgame::solve(p, 1 << 30, 2, Default::default(), |_, _| {})
                    .unwrap()
                    .value
            };
            let want = value(&root);
            let [a, b] = root.stones();
            for s in 1..8 {
                let image =
                    Pentago::from_stones([symmetric(a, s), symmetric(b, s)], root.pending())
                        .unwrap();
                assert_eq!(value(&image), want, "{i} {s}\n{}", root.render());
            }
        }
    }
    assert!(pending > 0);
}

#[test]
fn the_midgame_solver_answers_under_the_engines_limits() {
    use inarow::engine::Cancel;
    use inarow::engine::{Engine, Limits, Options, Stop};
    use std::time::{Duration, Instant};
    // 18 stones: seconds of work, so that a limit that were not honoured would show.
    let root = random_positions(18, 1, 3)[0];
    assert!(inarow::solvers::pentago::applies(&root));
    let stopped = |limits: Limits| {
        let mut engine = Engine::new(&root, Options::default());
        let started = Instant::now();
        let report = engine.solve(&root, &limits);
        assert!(started.elapsed() < Duration::from_secs(2), "{limits:?}");
        report.stopped
    };
    let nodes = Limits {
        nodes: Some(1000),
        ..Limits::default()
    };
    assert_eq!(stopped(nodes), Some(Stop::Nodes));
    let interrupted = Cancel::new();
    interrupted.cancel();
    let interrupt = Limits {
        interrupt: Some(interrupted),
        ..Limits::default()
    };
    assert_eq!(stopped(interrupt), Some(Stop::Interrupted));
    assert_eq!(
        stopped(Limits::within(Duration::from_millis(50))),
        Some(Stop::Time)
    );
    // Without limits it answers, and counts the fillings it settled as its nodes.
    let mut engine = Engine::new(&root, Options::default());
    let report = engine.solve(&root, &Limits::default());
    assert!(
        report.score.is_some() && report.nodes > 1_000_000,
        "{report:?}"
    );
}

#[test]
fn a_warm_engine_analyzes_a_child_of_its_last_analysis_with_one_midgame_solve() {
    use inarow::engine::{Engine, Options};
    // 22 stones: the child's analysis is one solve; move by move it would be one per move.
    let parent = random_positions(21, 1, 5)[0];
    let mut moves = MoveList::new();
    parent.legal_moves(&mut moves);
    let child = parent.play(moves[0]);
    assert!(inarow::solvers::pentago::applies(&child));
    let mut cold = Engine::new(&child, Options::default());
    let cold_scores = cold.analyze(&child, &Limits::default());
    let one_solve = cold.nodes();
    let mut warm = Engine::new(&parent, Options::default());
    warm.analyze(&parent, &Limits::default());
    let before = warm.nodes();
    let warm_scores = warm.analyze(&child, &Limits::default());
    assert_eq!(warm_scores, cold_scores);
    assert!(cold_scores.iter().all(|s| s.score.is_some()));
    // The child's own solve, and no more: its children come with it.
    assert!(
        warm.nodes() - before <= one_solve,
        "{} nodes against {one_solve} for one solve",
        warm.nodes() - before
    );
}

#[test]
fn a_board_name_then_moves_after_a_slash() {
    let board = "274440791932540184";
    let (root, at_board, moves) = read_position(Pentago::default(), board).expect("a board");
    assert!(moves.is_empty());
    let mv = at_board.parse_move("a11l").expect("a move");
    let (from, after, moves) =
        read_position(Pentago::default(), &format!("{board}/a11l")).expect("a board and a move");
    assert_eq!((from, after, moves.len()), (root, at_board.play(mv), 1));
    assert_eq!(from.format_board().as_deref(), Some(board));
    // Bad input names the problem: a taken cell after the board, no board before the slash.
    let taken = read_position(Pentago::default(), &format!("{board}/a11la11l"));
    assert!(taken.is_err());
    let err = read_position(Pentago::default(), "d53r/a11l").unwrap_err();
    assert!(err.to_string().contains("BOARD/MOVES"), "{err}");
    // The command line reads it too.
    let r = inarow(
        &["analyze", "--game", "pentago", &format!("{board}/a11l")],
        None,
    );
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout.lines().count() > 8, "{}", r.stdout);
}
