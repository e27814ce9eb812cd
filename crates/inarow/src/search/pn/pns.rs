//! Proof-number search (Allis): best-first AND/OR search on the graph of `graph`,
//! one expansion of a most-proving node at a time.
//!
//! # Repetitions
//! In a game without repetitions every key occurs at one ply only. The search starts in DAG mode;
//! the first time it meets a key at a different ply than the node already made for it (or a
//! position of the current path or the history before the root), the game has shown that it can
//! repeat positions, where a node's value may depend on the path that reached it. The search then
//! starts again in tree mode: no transpositions, every node has one path, and a move into a
//! position of that path (or of the history) is a leaf judged by the repetition rule
//! ([`RepetitionRule`], a draw by default). Tree mode is exact, and costs only memory.
//!
//! Every `prove` call builds its graph afresh (the allocations are kept for the next call).

use super::graph::{NONE, Tree};
use super::pn2::Level2;
use super::prover::{Bookkeeping, Eval, Question};
use super::{Key, PnStats, Prover, Verdict, order_moves, root_verdict, solved_numbers};
use crate::game::{GameLine, MoveList, RepetitionRule, Tactics};
use crate::limits::Instant;
use crate::limits::{Clock, Stop};

/// Why a search returned early.
pub(super) enum Interrupt {
    Stop(Stop),
    /// The game repeated a position: start again in tree mode.
    Cyclic,
}

impl From<Stop> for Interrupt {
    fn from(s: Stop) -> Self {
        Interrupt::Stop(s)
    }
}

/// What a search does when its memory budget is spent.
#[derive(Copy, Clone, PartialEq, Eq)]
pub(super) enum WhenFull {
    /// Stop with [`Stop::Memory`] (a first level).
    Stop,
    /// Return the root's numbers (a second level).
    Return,
}

impl<G: Tactics> Tree<G> {
    /// Searches from `root` until it is solved, `max_expansions` expansions were made here, or a
    /// limit stops it. Returns the root's numbers. `outer_bytes` are held by other levels and
    /// count against the memory budget.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn search(
        &mut self,
        root: &G,
        history: &[u128],
        max_expansions: u64,
        book: &mut Bookkeeping<G>,
        clock: &mut Clock,
        mut level2: Option<Level2<'_, G>>,
        outer_bytes: usize,
        when_full: WhenFull,
    ) -> Result<(u32, u32), Interrupt> {
        let mut moves = MoveList::new();
        let numbers = if history.contains(&root.key()) {
            solved_numbers(self.question.repeated(root, book.rule))
        } else {
            match self.question.evaluate_into(root, &mut moves) {
                Eval::Solved(v) => solved_numbers(v),
                Eval::Open(n) => self.leaf_numbers(root, n),
            }
        };
        if !self.reserve(1, book.mem_bytes.saturating_sub(outer_bytes)) {
            return match when_full {
                WhenFull::Stop => Err(Stop::Memory.into()),
                WhenFull::Return => Ok(numbers),
            };
        }
        let root_index = self.alloc_node(*root, numbers, NONE);
        if self.dag {
            self.map.insert(Key::from(root.canonical_key()), root_index);
        }
        let first = book.stats.expanded;
        let mut block: MoveList<u32> = MoveList::new();
        loop {
            let r = &self.nodes[root_index as usize];
            if r.pn == 0 || r.dn == 0 || book.stats.expanded - first >= max_expansions {
                return Ok((r.pn, r.dn));
            }
            self.path.clear();
            self.path.extend_from_slice(history);
            let mut x = root_index;
            loop {
                self.path.push(self.nodes[x as usize].pos.key());
                if self.nodes[x as usize].kids == NONE {
                    break;
                }
                x = self.best_kid(x);
            }
            clock.tick()?;
            let pos = self.nodes[x as usize].pos;
            moves.clear();
            pos.safe_moves(&mut moves);
            order_moves(&pos, &mut moves);
            let l2_bytes = level2.as_ref().map_or(0, Level2::bytes);
            book.note_bytes(self.bytes() + l2_bytes + outer_bytes);
            if !self.reserve(
                moves.len(),
                book.mem_bytes.saturating_sub(outer_bytes + l2_bytes),
            ) {
                let r = &self.nodes[root_index as usize];
                return match when_full {
                    WhenFull::Stop => Err(Stop::Memory.into()),
                    WhenFull::Return => Ok((r.pn, r.dn)),
                };
            }
            book.note_bytes(self.bytes() + l2_bytes + outer_bytes);
            block.clear();
            for rm in &moves {
                let child = pos.play(rm.mv);
                let exact = child.key();
                if self.path.contains(&exact) {
                    if self.dag {
                        return Err(Interrupt::Cyclic);
                    }
                    let v = self.question.repeated(&child, book.rule);
                    let y = self.alloc_node(child, solved_numbers(v), x);
                    block.push(y);
                    continue;
                }
                let key = Key::from(child.canonical_key());
                if self.dag
                    && let Some(&y) = self.map.get(&key)
                {
                    if self.nodes[y as usize].pos.ply() != child.ply() {
                        return Err(Interrupt::Cyclic);
                    }
                    if !block.contains(&y) {
                        self.add_parent(y, x);
                        block.push(y);
                    }
                    continue;
                }
                clock.poll()?;
                let mut child_moves = MoveList::new();
                let numbers = match self.question.evaluate_into(&child, &mut child_moves) {
                    Eval::Solved(v) => solved_numbers(v),
                    Eval::Open(n) => match level2.as_mut() {
                        None => self.leaf_numbers(&child, n),
                        Some(l2) => l2.leaf_numbers(self, &child, book, clock, outer_bytes)?,
                    },
                };
                let y = self.alloc_node(child, numbers, x);
                if self.dag {
                    self.map.insert(key, y);
                }
                block.push(y);
            }
            let start = self.alloc_block(&block);
            let node = &mut self.nodes[x as usize];
            node.kids = start;
            node.n_kids = block.len() as u32;
            book.count_expansion();
            self.update(x);
        }
    }
}

/// Allis' proof-number search with transpositions, solved-subtree release and a memory budget.
/// See the module documentation.
pub struct Pns<G: Tactics> {
    tree: Tree<G>,
    book: Bookkeeping<G>,
}

impl<G: Tactics> Pns<G> {
    /// A search that may hold `mem_bytes` bytes of nodes and map, and with `heuristic_init` starts a leaf with `n` safe moves at (pn, dn) = (1, n) when the attacker
    /// moves there and (n, 1) when the opponent does (Allis' mobility initialisation), instead
    /// of (1, 1).
    pub fn new(mem_bytes: usize, heuristic_init: bool) -> Self {
        Pns {
            tree: Tree::new(heuristic_init),
            book: Bookkeeping::new(mem_bytes),
        }
    }

    /// Sets how a repeated position ends (default: a draw).
    pub fn set_repetition_rule(&mut self, rule: RepetitionRule<G>) {
        self.book.rule = rule;
    }

    /// Answers `question` on the first-level tree (its new leaves initialised by `level2`, if
    /// any), restarting in tree mode if the game repeats a position.
    pub(super) fn run(
        &mut self,
        mut level2: Option<Level2<'_, G>>,
        pos: &G,
        question: Question,
        history: &[u128],
        clock: &mut Clock,
    ) -> Result<Verdict, Stop> {
        let started = Instant::now();
        let mut dag = true;
        let r = loop {
            self.tree.reset(question, dag);
            let l2 = level2.as_mut().map(Level2::reborrow);
            match self.tree.search(
                pos,
                history,
                u64::MAX,
                &mut self.book,
                clock,
                l2,
                0,
                WhenFull::Stop,
            ) {
                Ok((pn, dn)) => break Ok(root_verdict(pn, dn)),
                Err(Interrupt::Stop(s)) => break Err(s),
                Err(Interrupt::Cyclic) => {
                    debug_assert!(dag, "tree mode never reports a repetition");
                    dag = false;
                }
            }
        };
        self.book.end_proof(started);
        r
    }
}

impl<G: Tactics> Prover<G> for Pns<G> {
    fn answer(
        &mut self,
        line: &GameLine<G>,
        question: Question,
        clock: &mut Clock,
    ) -> Result<Verdict, Stop> {
        let before: Vec<u128> = line.earlier_keys().collect();
        self.run(None, line.position(), question, &before, clock)
    }
    fn stats(&self) -> PnStats {
        self.book.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Goal, Player, Rules};
    use crate::search::Limits;
    use crate::search::pn::Pn2;
    use crate::search::pn::dfpn::tests::{GraphGame, ghi_graph};
    use crate::search::pn::testing::{BOARDS, Reference, Rng, board, random_positions};
    use crate::search::pn::weak_value;

    const MIB: usize = 1 << 20;

    #[test]
    fn agrees_with_minimax_and_alphabeta() {
        for &(w, h, k) in BOARDS {
            let start = board(w, h, k);
            let mut reference = Reference::new(&start);
            let mut positions = vec![(start, Vec::new())];
            positions.extend(random_positions(start, 24, 1, w * h - 2, 17 + w as u64));
            for (i, (pos, moves)) in positions.into_iter().enumerate() {
                let want = reference.weak(&pos);
                let heuristic = i % 2 == 1;
                let mut pns = Pns::new(64 * MIB, heuristic);
                let got =
                    weak_value(|g| pns.prove(&pos, g, &mut Clock::default())).expect("no limits");
                assert_eq!(got, want, "PNS, {w}x{h} k{k} after {moves:?}");
                let mut pn2 = Pn2::new(64 * MIB, heuristic);
                let got =
                    weak_value(|g| pn2.prove(&pos, g, &mut Clock::default())).expect("no limits");
                assert_eq!(got, want, "PN2, {w}x{h} k{k} after {moves:?}");
                assert!(pns.stats().expanded > 0 || pns.stats().peak_bytes == 0);
            }
        }
    }

    #[test]
    fn memory_budget_stops_the_search() {
        let start = board(5, 4, 4);
        let budget = 64 << 10;
        let mut pns = Pns::new(budget, false);
        assert_eq!(
            pns.prove(&start, Goal::NotLose, &mut Clock::default()),
            Err(Stop::Memory)
        );
        let stats = pns.stats();
        assert!(
            stats.peak_bytes <= budget,
            "peak {} bytes",
            stats.peak_bytes
        );
        assert!(stats.expanded > 100);
        // PN² holds far fewer nodes for the same work, so a budget that stops PNS lets it
        // finish.
        let mut pns = Pns::new(MIB, false);
        let mut pn2 = Pn2::new(MIB, false);
        let pos = crate::game::play_moves(board(5, 4, 4), "33").unwrap().0;
        assert_eq!(
            pns.prove(&pos, Goal::NotLose, &mut Clock::default()),
            Err(Stop::Memory)
        );
        assert!(
            pns.stats().peak_bytes <= MIB,
            "peak {}",
            pns.stats().peak_bytes
        );
        assert_eq!(
            pn2.prove(&pos, Goal::NotLose, &mut Clock::default()),
            Ok(Verdict::Proven)
        );
        assert!(pn2.stats().peak_bytes <= MIB);
    }

    #[test]
    fn limits_stop_the_search() {
        let start = board(5, 4, 4);
        let limits = Limits {
            nodes: Some(50),
            ..Limits::default()
        };
        let mut pns = Pns::new(64 * MIB, false);
        let nodes = pns.prove(&start, Goal::Win, &mut Clock::new(limits.clone()));
        assert_eq!(nodes, Err(Stop::Nodes));
        let mut pn2 = Pn2::new(64 * MIB, false);
        let nodes = pn2.prove(&start, Goal::Win, &mut Clock::new(limits));
        assert_eq!(nodes, Err(Stop::Nodes));
        let limits = Limits {
            time: Some(std::time::Duration::ZERO),
            ..Limits::default()
        };
        let mut pns = Pns::new(64 * MIB, false);
        let time = pns.prove(&start, Goal::Win, &mut Clock::new(limits));
        assert_eq!(time, Err(Stop::Time));
    }

    #[test]
    fn solved_subtrees_are_released() {
        let pos = board(4, 4, 4);
        let mut tree = Tree::new(false);
        tree.reset(Question::new(pos.side_to_move(), Goal::NotLose), true);
        let mut book = Bookkeeping::new(1 << 30);
        let (pn, _) = tree
            .search(
                &pos,
                &[],
                u64::MAX,
                &mut book,
                &mut Clock::default(),
                None,
                0,
                WhenFull::Stop,
            )
            .unwrap_or_else(|_| panic!("no limits"));
        assert_eq!(pn, 0);
        assert!(
            tree.live * 4 < tree.nodes.len(),
            "{} live nodes of {} made",
            tree.live,
            tree.nodes.len()
        );
    }

    #[test]
    fn repetitions_switch_to_tree_mode() {
        let mut rng = Rng::new(5);
        for i in 0..3000 {
            let g = GraphGame::random_nth(&mut rng, i);
            let want = g.reference(&mut Vec::new());
            let mut pns = Pns::new(MIB, i % 3 == 0);
            assert_eq!(
                weak_value(|goal| pns.prove(&g, goal, &mut Clock::default())),
                Ok(want),
                "PNS on {:?}",
                g.graph
            );
            let mut pn2 = Pn2::new(MIB, i % 3 == 0);
            pn2.set_level2_max(1 + i as u64 % 4);
            assert_eq!(
                weak_value(|goal| pn2.prove(&g, goal, &mut Clock::default())),
                Ok(want),
                "PN2 on {:?}",
                g.graph
            );
        }
        let g = ghi_graph();
        // B after a line through E: a draw by repetition, not the win B is reached at once.
        let through_e = GameLine::from_moves(g, &[3, 4, 1]);
        let mut pns = Pns::new(MIB, false);
        for _ in 0..2 {
            assert_eq!(
                pns.prove_for(&through_e, Player::First, Goal::Win, &mut Clock::default()),
                Ok(Verdict::Disproven)
            );
            assert_eq!(
                pns.prove(&g, Goal::Win, &mut Clock::default()),
                Ok(Verdict::Proven)
            );
        }
    }
}
