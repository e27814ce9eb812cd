//! Retrograde analysis: the numbering's moves backward are exactly the moves forward, and every
//! value of a strong solution agrees with the forward solvers (alpha-beta with exact scores on
//! Connect Four; the repetition-aware search and df-pn on PopOut) on random positions.

use super::common::{SplitMix, start};
use inarow::engine::{Algorithm, Engine, Options};
use inarow::game::{Game, Indexed, MoveList, Status, outlook_by_moves};
use inarow::search::retro::{self, Value};
use inarow::search::score::win_at;

/// Edges `(from, to)` between indices.
type Edges = Vec<(u64, u64)>;

/// Every edge of the graph of indices, found forward (distinct successors of each position not
/// over) and backward (predecessors of every position), as sorted lists; and each outlook
/// against the rules' moves.
fn edges_both_ways<G: Indexed>(game: &G) -> (Edges, Edges) {
    let len = game.index_len().unwrap();
    let (mut forward, mut backward) = (Vec::new(), Vec::new());
    for i in 0..len {
        let Some(pos) = game.at_index(i) else {
            continue;
        };
        assert_eq!(pos.index(), i, "{pos:?}");
        if pos.status() == Status::Ongoing {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut next: Vec<u64> = moves
                .iter()
                .filter(|&&m| !pos.is_claim(m))
                .map(|&m| pos.play(m).index())
                .collect();
            next.sort_unstable();
            next.dedup();
            assert_eq!(pos.outlook(), outlook_by_moves(&pos), "{pos:?}");
            forward.extend(next.into_iter().map(|j| (i, j)));
        }
        let mut parents = Vec::new();
        pos.for_each_predecessor(|p| parents.push(p));
        let before = parents.len();
        parents.sort_unstable();
        parents.dedup();
        assert_eq!(before, parents.len(), "{pos:?}: a predecessor twice");
        backward.extend(
            parents
                .into_iter()
                .filter(|&p| game.at_index(p).is_some())
                .map(|p| (p, i)),
        );
    }
    forward.sort_unstable();
    backward.sort_unstable();
    (forward, backward)
}

#[test]
fn predecessors_are_the_inverse_of_moves() {
    for spec in [
        "connect4:4x4",
        "connect4:5x3",
        "connect4:3x4:k3",
        "popout:4x4",
        "popout:3x4",
        "popout:5x3",
    ] {
        inarow::with_game!(start(spec), g => {
            let (forward, backward) = edges_both_ways(&g);
            assert!(forward.len() > 1000, "{spec}: {} edges", forward.len());
            assert_eq!(forward.len(), backward.len(), "{spec}");
            assert!(forward == backward, "{spec}: the edges differ");
        });
    }
}

/// A random position reached by `plies` random moves that keep the game going.
fn random_position<G: Game>(start: G, rng: &mut SplitMix, plies: usize) -> G {
    let mut pos = start;
    for _ in 0..plies {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let open: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| !pos.is_claim(m) && pos.play(m).status() == Status::Ongoing)
            .collect();
        if open.is_empty() {
            break;
        }
        pos = pos.play(open[rng.below(open.len())]);
    }
    pos
}

/// Connect Four: the exact score that the database's value and distance make.
fn score_of<G: Game>(pos: &G, value: Value) -> i32 {
    let end = |d: u32| pos.ply() + d;
    match value {
        Value::Draw => 0,
        Value::Win(d) => win_at(pos.max_plies(), end(d)),
        Value::Loss(d) => -win_at(pos.max_plies(), end(d)),
    }
}

#[test]
fn connect_four_values_agree_with_alpha_beta() {
    let mut rng = SplitMix(0x7e7);
    for (spec, samples) in [
        ("connect4:4x4", 1500),
        ("connect4:5x4", 1500),
        ("connect4:4x5:k3", 500),
    ] {
        inarow::with_game!(start(spec), g => {
            let (solution, summary) = retro::solve(&g, 2).unwrap();
            assert!(summary.wins > 0 && summary.losses > 0 && summary.draws > 0, "{spec}: {summary:?}");
            let mut engine = Engine::new(&g, Options::default());
            for n in 0..samples {
                let pos = random_position(g, &mut rng, n % (g.max_plies() as usize));
                let value = solution.value(&pos).unwrap_or_else(|| panic!("{spec} {pos:?}"));
                let want = engine.solve(&pos).score.unwrap();
                assert_eq!(score_of(&pos, value), want, "{spec} {pos:?}");
            }
        });
    }
}

#[test]
fn popout_values_and_distances_agree_with_the_forward_searches() {
    let mut rng = SplitMix(0x90b);
    for (spec, samples) in [
        ("popout:4x4", 300),
        ("popout:4x3", 600),
        ("popout:3x4", 300),
    ] {
        inarow::with_game!(start(spec), g => {
            let (solution, summary) = retro::solve(&g, 2).unwrap();
            let mut options = Options { mem_mb: 256, ..Options::default() };
            options.config.tt_mb = 64;
            let mut exact = Engine::new(&g, options.clone());
            let mut dfpn = Engine::new(&g, Options { algorithm: Algorithm::DfPn, ..options });
            let mut seen = [0; 3];
            for n in 0..samples {
                let pos = random_position(g, &mut rng, n % 30);
                let value = solution.value(&pos).unwrap_or_else(|| panic!("{spec} {pos:?}"));
                let report = exact.solve(&pos);
                let (score, plies) = match value {
                    Value::Win(d) => (1, Some(d)),
                    Value::Loss(d) => (-1, Some(d)),
                    Value::Draw => (0, None),
                };
                assert_eq!(report.score, Some(score), "{spec} {pos:?}: {summary:?}");
                assert_eq!(report.plies, plies, "{spec} {pos:?}: distance");
                assert_eq!(dfpn.solve(&pos).score, Some(score), "{spec} {pos:?}: df-pn");
                seen[(score + 1) as usize] += 1;
            }
            assert!(seen.iter().filter(|&&n| n > 0).count() >= 2, "{spec}: {seen:?}");
        });
    }
}
