//! PN²: proof-number search whose new leaves are initialised by a bounded second-level search.
//!
//! # PN²
//! [`Pn2`] is Allis' two-level search as Breuker describes it: the first level is [`Pns`];
//! whenever it expands a node, each new child that the rules do not solve is searched by a
//! second-level PNS (its own arena, cleared after each use) limited to as many expansions as the
//! first-level tree has nodes (at least [`PN2_MIN_EXPANSIONS`], at most `level2_max`). The child
//! keeps only the numbers of the second-level root: solved if the second level solved it,
//! otherwise an unexpanded first-level leaf with those numbers; the second-level tree is
//! discarded either way (the first level grows by one generation of children per expansion, as
//! in PNS, but each child starts with well-informed numbers). The second level gets the
//! remaining memory budget, and when it runs out it simply reports the numbers it has.
//!

use super::graph::Tree;
use super::pns::{Interrupt, Pns, WhenFull};
use super::prover::{Bookkeeping, Question};
use super::{PnStats, Prover, Verdict};
use crate::game::{GameLine, RepetitionRule, Tactics};
use crate::limits::{Clock, Stop};

/// The fewest expansions a second-level search may make.
pub const PN2_MIN_EXPANSIONS: u64 = 64;

/// PN²: a first-level PNS whose new leaves are initialised by a bounded second-level PNS. See
/// the module documentation.
pub struct Pn2<G: Tactics> {
    /// The first level, which also keeps the bookkeeping of both.
    level1: Pns<G>,
    level2: Tree<G>,
    level2_max: u64,
}

impl<G: Tactics> Pn2<G> {
    /// Like [`Pns::new`]; both levels share the memory budget and the limits (which count the
    /// expansions of both levels).
    pub fn new(mem_bytes: usize, heuristic_init: bool) -> Self {
        Pn2 {
            level1: Pns::new(mem_bytes, heuristic_init),
            level2: Tree::new(heuristic_init),
            level2_max: 1 << 20,
        }
    }

    /// Caps the expansions of one second-level search (default 2^20).
    pub fn set_level2_max(&mut self, max: u64) {
        self.level2_max = max.max(1);
    }

    /// Sets how a repeated position ends (default: a draw).
    pub fn set_repetition_rule(&mut self, rule: RepetitionRule<G>) {
        self.level1.set_repetition_rule(rule);
    }
}

/// The second level handed to a first-level search: its tree, and the most expansions one
/// search there may make.
pub(super) struct Level2<'a, G: Tactics> {
    tree: &'a mut Tree<G>,
    max: u64,
}

impl<G: Tactics> Level2<'_, G> {
    /// The same second level, borrowed for one first-level search.
    pub(super) fn reborrow(&mut self) -> Level2<'_, G> {
        Level2 {
            tree: &mut *self.tree,
            max: self.max,
        }
    }

    /// The bytes the second level holds.
    pub(super) fn bytes(&self) -> usize {
        self.tree.bytes()
    }

    /// The numbers of `child`, a new open leaf of the first level `level1` (whose path leads to
    /// the child's parent): those of the root of a second-level search of as many expansions
    /// as the first level has nodes, which reports what it has when the memory budget is spent.
    pub(super) fn leaf_numbers(
        &mut self,
        level1: &Tree<G>,
        child: &G,
        book: &mut Bookkeeping<G>,
        clock: &mut Clock,
        outer_bytes: usize,
    ) -> Result<(u32, u32), Interrupt> {
        let limit = (level1.live as u64).max(PN2_MIN_EXPANSIONS).min(self.max);
        self.tree.reset(level1.question, level1.dag);
        self.tree.search(
            child,
            &level1.path,
            limit,
            book,
            clock,
            None,
            outer_bytes + level1.bytes(),
            WhenFull::Return,
        )
    }
}

impl<G: Tactics> Prover<G> for Pn2<G> {
    fn answer(
        &mut self,
        line: &GameLine<G>,
        question: Question,
        clock: &mut Clock,
    ) -> Result<Verdict, Stop> {
        let level2 = Level2 {
            tree: &mut self.level2,
            max: self.level2_max,
        };
        let before: Vec<u128> = line.earlier_keys().collect();
        self.level1
            .run(Some(level2), line.position(), question, &before, clock)
    }
    /// What the search did so far (both levels).
    fn stats(&self) -> PnStats {
        self.level1.stats()
    }
}
