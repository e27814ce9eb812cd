//! PN²: proof-number search whose new leaves are initialised by a bounded second-level search.
//!
//! # PN²
//! [`Pn2`] is Allis' two-level search as Breuker describes it: the first level is [`Pns`](super::Pns);
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
use super::pns::run;
use super::{PnStats, Prover, Verdict};
use crate::game::{Goal, Player, RepetitionRule, Tactics};
use crate::search::limits::{Clock, Limits, Stop};
use std::time::Instant;

/// The fewest expansions a second-level search may make.
pub const PN2_MIN_EXPANSIONS: u64 = 64;

/// PN²: a first-level PNS whose new leaves are initialised by a bounded second-level PNS. See
/// the module documentation.
pub struct Pn2<G: Tactics> {
    level1: Tree<G>,
    level2: Tree<G>,
    level2_max: u64,
    mem_bytes: usize,
    clock: Clock,
    stats: PnStats,
}

impl<G: Tactics> Pn2<G> {
    /// Like [`Pns::new`](super::Pns::new); both levels share the memory budget and the limits (which count the
    /// expansions of both levels).
    pub fn new(mem_bytes: usize, limits: Limits, heuristic_init: bool) -> Self {
        Pn2 {
            level1: Tree::new(heuristic_init),
            level2: Tree::new(heuristic_init),
            level2_max: 1 << 20,
            mem_bytes,
            clock: Clock::new(limits),
            stats: PnStats::default(),
        }
    }

    /// Caps the expansions of one second-level search (default 2^20).
    pub fn set_level2_max(&mut self, max: u64) {
        self.level2_max = max.max(1);
    }

    /// Sets how a repeated position ends (default: a draw).
    pub fn set_repetition_rule(&mut self, rule: RepetitionRule<G>) {
        self.level1.rule = rule;
        self.level2.rule = rule;
    }
}

impl<G: Tactics> Prover<G> for Pn2<G> {
    fn set_limits(&mut self, limits: Limits) {
        self.clock = Clock::new(limits);
    }

    fn prove_for(
        &mut self,
        pos: &G,
        attacker: Player,
        goal: Goal,
        history: &[u128],
    ) -> Result<Verdict, Stop> {
        let t = Instant::now();
        let before = self.level1.expanded + self.level2.expanded;
        let r = run(
            &mut self.level1,
            Some((&mut self.level2, self.level2_max)),
            &mut self.clock,
            self.mem_bytes,
            pos,
            attacker,
            goal,
            history,
        );
        self.stats.expanded += self.level1.expanded + self.level2.expanded - before;
        self.stats.peak_bytes = self
            .stats
            .peak_bytes
            .max(self.level1.peak)
            .max(self.level2.peak);
        self.stats.elapsed += t.elapsed();
        r
    }
    /// What the search did so far (both levels).
    fn stats(&self) -> PnStats {
        self.stats
    }
}
