//! The fast solver against the plain exhaustive reference ([`Minimax`]) on random positions of
//! small boards: the default configuration, every root driver, table scheme and on/off
//! combination of the search techniques, tiny tables, the weak mode, the engine's best moves,
//! principal variation and analysis, and the three board representations (the compile-time 7x6
//! board, a run-time geometry on 64 bits, and on 128 bits).

use super::common::{DRIVERS, SplitMix, score_for, start};
use inarow::engine::{Engine, Options};
use inarow::game::{
    Bounded, Connect, Grid, MoveList, Notation, Rules, Runtime, Standard, Status, Tactics,
    format_moves,
};
use inarow::limits::Clock;
use inarow::search::Limits;
use inarow::search::minimax::Minimax;
use inarow::search::{AlphaBeta, Config, Scheme, Stop};
use proptest::prelude::*;
use proptest::test_runner::{Config as ProptestConfig, TestCaseError, TestRunner};
use std::cell::RefCell;

const SCHEMES: [Scheme; 3] = [Scheme::New, Scheme::Big, Scheme::TwoBig];

/// Every driver x scheme x on/off combination of symmetry, threat order, table move, history,
/// enhanced transposition cutoffs and strategy bounds: 5 * 3 * 64 = 960 configurations.
fn all_configs(tt_mb: usize) -> Vec<Config> {
    let mut out = Vec::new();
    for driver in DRIVERS {
        for scheme in SCHEMES {
            for flags in 0..64u32 {
                out.push(Config {
                    driver,
                    tt_mb,
                    scheme,
                    symmetry: flags & 1 != 0,
                    threat_order: flags & 2 != 0,
                    tt_move: flags & 4 != 0,
                    history: flags & 8 != 0,
                    etc: flags & 16 != 0,
                    strategy_bounds: flags & 32 != 0,
                    ..Config::default()
                });
            }
        }
    }
    out
}

/// Plays `choices` from `start`, each an index into the moves that do not end the game; stops
/// early when every move ends it. The result is always a position still being played.
fn build<G: Bounded + Tactics + Notation>(start: G, choices: &[usize]) -> (G, Vec<G::Move>) {
    let mut pos = start;
    let mut line = Vec::new();
    for &c in choices {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let open: Vec<G::Move> = moves
            .iter()
            .copied()
            .filter(|&m| pos.play(m).status() == Status::Ongoing)
            .collect();
        if open.is_empty() {
            break;
        }
        let m = open[c % open.len()];
        line.push(m);
        pos = pos.play(m);
    }
    (pos, line)
}

fn show<G: Bounded + Tactics + Notation>(start: G, line: &[G::Move]) -> String {
    let s = format_moves(start, line);
    if s.is_empty() { "-".to_string() } else { s }
}

/// What one test of a board keeps between cases: the reference's memo and long-lived solvers
/// (whose tables carry over from case to case, as in real use).
struct Shared<G: Bounded + Tactics + Notation> {
    memo: Minimax,
    default: AlphaBeta<G>,
    weak: AlphaBeta<G>,
    engine: Engine<G>,
}

/// The reference scores of `pos` and of each of its children, by the exhaustive solver.
fn reference<G: Bounded + Tactics + Notation>(
    memo: &mut Minimax,
    pos: &G,
) -> (i32, Vec<(G::Move, i32)>) {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let children = moves
        .iter()
        .map(|&m| (m, -memo.value(&pos.play(m))))
        .collect();
    (memo.value(pos), children)
}

/// Checks one position with the long-lived solvers and the engine.
fn check_default<G: Bounded + Tactics + Notation>(
    shared: &mut Shared<G>,
    start: G,
    line: &[G::Move],
    pos: &G,
) -> Result<(), TestCaseError> {
    let at = show(start, line);
    let name = start.name();
    let (want, children) = reference(&mut shared.memo, pos);

    // Stopped by a node limit, a solve has proven bounds that hold the value (the tests of
    // earlier cases and limits count too: the solver is long-lived).
    for nodes in [40, 400, 4_000] {
        let limits = Limits {
            nodes: Some(nodes),
            ..Limits::default()
        };
        match shared.default.solve(pos, false, &mut Clock::new(limits)) {
            Ok(got) => prop_assert_eq!(got, want, "{} {}: limited to {} nodes", name, at, nodes),
            Err(_) => {
                if let Some((lo, hi)) = shared.default.proven(pos) {
                    prop_assert!(
                        lo <= want && want <= hi,
                        "{} {}: proven {}..{} in {} nodes, value {}",
                        name,
                        at,
                        lo,
                        hi,
                        nodes,
                        want
                    );
                }
            }
        }
    }
    let got = shared.default.solve(pos, false, &mut Clock::default());
    prop_assert_eq!(got, Ok(want), "{} {}: default config", name, at);
    if let Some(proven) = shared.default.proven(pos) {
        prop_assert_eq!(proven, (want, want), "{} {}: proven once solved", name, at);
    }
    let got = shared.weak.solve(pos, true, &mut Clock::default());
    prop_assert_eq!(got, Ok(want.signum()), "{} {}: weak mode", name, at);
    for bound in [want - 1, want] {
        let got = shared
            .default
            .value_at_most(pos, bound, &mut Clock::default());
        prop_assert_eq!(
            got,
            Ok(want <= bound),
            "{} {}: value_at_most({}) with value {}",
            name,
            at,
            bound,
            want
        );
    }

    // The engine: score, every best move, and a principal variation that ends the game as
    // the score says.
    let report = shared.engine.solve_detailed(pos, &Limits::default());
    prop_assert_eq!(report.score, Some(want), "{} {}: engine score", name, at);
    let best: Vec<G::Move> = children
        .iter()
        .filter(|&&(_, s)| s == want)
        .map(|&(m, _)| m)
        .collect();
    prop_assert_eq!(&report.best_moves, &best, "{} {}: best moves", name, at);
    let mut end = *pos;
    for (i, &m) in report.pv.iter().enumerate() {
        let mut moves = MoveList::new();
        end.legal_moves(&mut moves);
        prop_assert!(
            moves.contains(&m),
            "{} {}: pv move {} ({:?}) is illegal",
            name,
            at,
            i + 1,
            m
        );
        end = end.play(m);
    }
    prop_assert!(
        end.status() != Status::Ongoing,
        "{} {}: the pv {:?} does not end the game",
        name,
        at,
        report.pv
    );
    let pv_score = score_for(end.max_plies(), pos.ply(), end.ply(), end.status());
    prop_assert_eq!(
        pv_score,
        want,
        "{} {}: the pv {:?} ends with another score",
        name,
        at,
        report.pv
    );

    // Analysis: every legal move with its exact score, best first.
    let analysis = shared.engine.analyze(pos, &Limits::default());
    prop_assert_eq!(
        analysis.len(),
        children.len(),
        "{} {}: analysis length",
        name,
        at
    );
    for a in &analysis {
        let expected = children.iter().find(|c| c.0 == a.mv).map(|c| c.1);
        prop_assert_eq!(a.score, expected, "{} {}: analysis of {:?}", name, at, a.mv);
    }
    prop_assert!(
        analysis.windows(2).all(|w| w[0].score >= w[1].score),
        "{} {}: analysis not sorted best first",
        name,
        at
    );
    Ok(())
}

/// Checks one position with freshly made solvers of the given configurations.
fn check_configs<G: Bounded + Tactics + Notation>(
    memo: &mut Minimax,
    start: G,
    line: &[G::Move],
    pos: &G,
    configs: &[Config],
) -> Result<(), TestCaseError> {
    let at = show(start, line);
    let want = memo.value(pos);
    for config in configs {
        let mut solver = AlphaBeta::new(pos, config.clone());
        let strong = solver.solve(pos, false, &mut Clock::default());
        prop_assert_eq!(strong, Ok(want), "{} {}: {:?}", start.name(), at, config);
        // The same solver again, its table now warm, in weak mode.
        let weak = solver.solve(pos, true, &mut Clock::default());
        prop_assert_eq!(
            weak,
            Ok(want.signum()),
            "{} {}: weak, {:?}",
            start.name(),
            at,
            config
        );
    }
    Ok(())
}

/// The whole agreement check of one board (positions of at least `min_len` random moves, fewer
/// only when every move would end the game):
/// 1. every one of the 960 configurations (1 MiB table) on `sweep` seeded random positions;
/// 2. `cases` random positions (proptest) against the default solver, weak mode, the engine,
///    and a few random configurations with tiny or no tables, random table cut-offs, and one or
///    two threads (helpers joining after a random number of nodes).
fn check_board<G: Bounded + Tactics + Notation>(
    start: G,
    sweep: usize,
    min_len: usize,
    cases: u32,
) {
    let cells = start.max_plies() as usize;
    let mut memo = Minimax::new();

    let configs = all_configs(1);
    let mut rng = SplitMix(0x5eed ^ cells as u64);
    for i in 0..sweep {
        let len = if i == 0 {
            min_len
        } else {
            min_len + rng.below(cells - min_len)
        };
        let choices: Vec<usize> = (0..len).map(|_| rng.below(64)).collect();
        let (pos, line) = build(start, &choices);
        // A fresh solver per configuration: its table starts empty, then serves the weak solve.
        if let Err(e) = check_configs(&mut memo, start, &line, &pos, &configs) {
            panic!("{e}");
        }
    }

    let shared = RefCell::new(Shared {
        memo,
        default: AlphaBeta::new(&start, Config::default()),
        weak: AlphaBeta::new(&start, Config::default()),
        engine: Engine::new(&start, Options::default()),
    });
    let all = all_configs(0);
    let mut runner = TestRunner::new(ProptestConfig {
        cases,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let strategy = (
        prop::collection::vec(0usize..64, min_len..=cells),
        prop::collection::vec(
            (
                0..all.len(),
                0usize..=2,
                0..=cells as u32,
                1usize..=2,
                0u64..200,
            ),
            3,
        ),
    );
    let result = runner.run(&strategy, |(choices, picks)| {
        let (pos, line) = build(start, &choices);
        let mut shared = shared.borrow_mut();
        check_default(&mut shared, start, &line, &pos)?;
        let configs: Vec<Config> = picks
            .iter()
            .map(|&(i, tt_mb, tmin, threads, solo_nodes)| Config {
                tt_mb,
                table_min_plies_left: tmin,
                threads,
                solo_nodes,
                ..all[i].clone()
            })
            .collect();
        check_configs(&mut shared.memo, start, &line, &pos, &configs)
    });
    if let Err(e) = result {
        panic!("{}: {e}", start.name());
    }
}

macro_rules! board_tests {
    ($($name:ident: $spec:literal, sweep $sweep:literal, from ply $min:literal, cases $cases:literal;)*) => {
        $(
            #[test]
            fn $name() {
                with_connect!(start($spec), g => check_board(g, $sweep, $min, $cases));
            }
        )*
    };
}

board_tests! {
    agree_3x3_k3: "connect4:3x3:k3", sweep 4, from ply 0, cases 256;
    agree_4x4_k3: "connect4:4x4:k3", sweep 6, from ply 0, cases 256;
    agree_3x5_k3: "connect4:3x5:k3", sweep 6, from ply 0, cases 256;
    agree_4x5_k3: "connect4:4x5:k3", sweep 6, from ply 0, cases 256;
    agree_4x4_k4: "connect4:4x4:k4", sweep 4, from ply 0, cases 256;
    agree_5x4_k4: "connect4:5x4:k4", sweep 3, from ply 4, cases 192;
    agree_4x6_k3: "connect4:4x6:k3", sweep 3, from ply 6, cases 128;
}

/// A Connect Four board of any size on a chosen word, bypassing the spec's choice.
fn sized<B: inarow::game::bits::Bits>(w: u32, h: u32, k: u32) -> Connect<B, Runtime> {
    Connect::new(Runtime::new(Grid::new(w, h, k).expect("valid dims")))
}

/// Plays the same columns on three representations of one board and compares everything they
/// tell: status, legal moves, keys, and the solvers' scores (and the reference's when the
/// position is small enough).
fn compare_representations<
    A: Bounded<Move = u8> + Tactics + Notation,
    B: Bounded<Move = u8> + Tactics + Notation,
    C: Bounded<Move = u8> + Tactics + Notation,
>(
    a: A,
    b: B,
    c: C,
    choices: &[usize],
    minimax_plies_left: u32,
) -> Result<(), TestCaseError> {
    let (pa, line) = build(a, choices);
    let at = show(a, &line);
    let mut pb = b;
    let mut pc = c;
    for &m in &line {
        pb = pb.play(m);
        pc = pc.play(m);
    }
    prop_assert_eq!(pa.status(), pb.status(), "{}", at);
    prop_assert_eq!(pa.status(), pc.status(), "{}", at);
    prop_assert_eq!(pa.key(), pb.key(), "{}: key", at);
    prop_assert_eq!(pa.key(), pc.key(), "{}: key", at);
    prop_assert_eq!(
        pa.canonical_key(),
        pb.canonical_key(),
        "{}: canonical key",
        at
    );
    prop_assert_eq!(
        pa.canonical_key(),
        pc.canonical_key(),
        "{}: canonical key",
        at
    );
    prop_assert_eq!(pa.has_winning_move(), pb.has_winning_move(), "{}", at);
    prop_assert_eq!(pa.has_winning_move(), pc.has_winning_move(), "{}", at);
    let (mut ma, mut mb, mut mc) = (MoveList::new(), MoveList::new(), MoveList::new());
    pa.legal_moves(&mut ma);
    pb.legal_moves(&mut mb);
    pc.legal_moves(&mut mc);
    prop_assert_eq!(&ma, &mb, "{}: legal moves", at);
    prop_assert_eq!(&ma, &mc, "{}: legal moves", at);

    let config = Config {
        tt_mb: 4,
        ..Config::default()
    };
    let sa = AlphaBeta::new(&pa, config.clone()).solve(&pa, false, &mut Clock::default());
    let sb = AlphaBeta::new(&pb, config.clone()).solve(&pb, false, &mut Clock::default());
    let sc = AlphaBeta::new(&pc, config).solve(&pc, false, &mut Clock::default());
    prop_assert_eq!(sa, sb, "{}: {} vs {}", at, a.name(), b.name());
    prop_assert_eq!(sa, sc, "{}: {} vs {} on 128 bits", at, a.name(), c.name());
    if pa.max_plies() - pa.ply() <= minimax_plies_left {
        let want = Minimax::new().value(&pa);
        prop_assert_eq!(sa, Ok(want), "{}: solver vs reference", at);
    }
    Ok(())
}

#[test]
fn representations_agree_on_7x6() {
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 128,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    // Deep positions: the solvers are quick there, and the reference too near the end.
    let strategy = prop::collection::vec(0usize..64, 26..=40);
    let result = runner.run(&strategy, |choices| {
        compare_representations(
            Connect::<u64, _>::new(Standard),
            sized::<u64>(7, 6, 4),
            sized::<u128>(7, 6, 4),
            &choices,
            14,
        )
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

#[test]
fn representations_agree_on_small_boards() {
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 128,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    let strategy = (prop::collection::vec(0usize..64, 0..=16), 0usize..3);
    let result = runner.run(&strategy, |(choices, board)| {
        let (w, h, k) = [(4, 4, 4), (4, 4, 3), (3, 4, 3)][board];
        compare_representations(
            sized::<u64>(w, h, k),
            sized::<u128>(w, h, k),
            sized::<u128>(w, h, k),
            &choices,
            16,
        )
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}

/// A search stopped by a limit reports it, and leaves nothing behind that spoils the next one.
#[test]
fn a_stopped_search_leaves_the_solver_sound() {
    // The empty 5x5 board: a draw (published), some 10^5 nodes at the time of writing.
    let g = sized::<u64>(5, 5, 4);
    let mut solver = AlphaBeta::new(&g, Config::default());
    let limited = || {
        Clock::new(Limits {
            nodes: Some(5_000),
            ..Limits::default()
        })
    };
    assert_eq!(solver.solve(&g, false, &mut limited()), Err(Stop::Nodes));
    assert_eq!(
        solver.solve(&g, false, &mut Clock::default()),
        Ok(0),
        "after a stopped search, the empty 5x5 board must still solve as the published draw"
    );
    // The same after a stop inside a weak search, with no reset.
    solver.reset();
    assert_eq!(solver.solve(&g, true, &mut limited()), Err(Stop::Nodes));
    assert_eq!(solver.solve(&g, true, &mut Clock::default()), Ok(0));
}

/// The game's strategy bounds (Connect Four: claimeven and others) never exclude the true value,
/// on positions where the search asks for them: still being played, no immediate win, and at
/// least three plies left (with fewer, the search scores the position before asking).
#[test]
fn strategy_bounds_hold() {
    let boards = [
        "connect4:4x4",
        "connect4:5x4",
        "connect4:4x4:k3",
        "connect4:6x4",
    ];
    let memos = RefCell::new(boards.iter().map(|_| Minimax::new()).collect::<Vec<_>>());
    let mut runner = TestRunner::new(ProptestConfig {
        cases: 512,
        failure_persistence: None,
        ..ProptestConfig::default()
    });
    // 6x4 from ply 8 on: the reference would take long from the empty board.
    let strategy = (0..boards.len(), prop::collection::vec(0usize..64, 8..=24));
    let result = runner.run(&strategy, |(b, choices)| {
        let mut memos = memos.borrow_mut();
        with_connect!(start(boards[b]), g => {
            let (pos, line) = build(g, &choices);
            if pos.has_winning_move() || pos.ply() + 2 >= pos.max_plies() {
                return Ok(());
            }
            let (lo, hi) = pos.strategy_bounds(i32::MIN, i32::MAX);
            let value = memos[b].value(&pos);
            prop_assert!(
                lo <= value && value <= hi,
                "{} {}: strategy bounds ({}, {}) exclude the value {}",
                g.name(),
                show(g, &line),
                lo,
                hi,
                value
            );
            Ok(())
        })
    });
    if let Err(e) = result {
        panic!("{e}");
    }
}
