//! Where the nodes go: what each node of the search did, counted by ply. The counters cost time
//! on the hottest path, so they are compiled in only with the cargo feature `profile`
//! (`cargo run --release --features profile -- solve --stats MOVES` prints them).

use std::fmt::Write;

/// Declares [`PlyCounts`] and its sum from one list of counters, so that no counter can be
/// left out of the sum.
macro_rules! ply_counts {
    ($($(#[$doc:meta])* $field:ident),* $(,)?) => {
        /// What the nodes at one ply did. In a search that ran to its end, a node ends in
        /// exactly one of: known (a book), forced, bound cut, table cut, threat win, child bound
        /// cut, etc cut, all children ruled out, or searched.
        #[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
        pub struct PlyCounts {
            $($(#[$doc])* pub $field: u64,)*
        }

        impl PlyCounts {
            fn add(&mut self, o: &PlyCounts) {
                $(self.$field += o.$field;)*
            }
        }
    };
}

ply_counts!(
    /// Nodes visited.
    nodes,
    /// Answered by the oracle (an opening book).
    known,
    /// A single safe move (or none): played on without a table entry.
    forced,
    /// Settled by the plies left and the game's strategy bounds.
    bound_cuts,
    /// Table look-ups.
    table_probes,
    /// Look-ups that found an entry for the position.
    table_hits,
    /// Settled by the table's entry.
    table_cuts,
    /// Settled by a win by threats.
    threat_wins,
    /// A child's quick bounds refuted the window.
    child_bound_cuts,
    /// Children not searched because their quick bounds cannot raise alpha.
    child_bound_skips,
    /// A child's stored bound refuted the window.
    etc_cuts,
    /// Children not searched because their stored bound cannot raise alpha.
    etc_skips,
    /// Every child ruled out by its quick or stored bound.
    all_ruled_out,
    /// Nodes that searched children.
    searched,
    /// Of those, cut off by a child's score...
    beta_cuts,
    /// ...by the first child searched.
    first_move_cuts,
    /// Children searched, over every node that searched.
    children_searched,
);

/// Counts by ply (from the empty board).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
    /// `plies[p]`: what the nodes at ply `p` did.
    pub plies: Vec<PlyCounts>,
}

impl Profile {
    #[inline(always)]
    pub(super) fn at(&mut self, ply: usize) -> &mut PlyCounts {
        if ply >= self.plies.len() {
            self.plies.resize(ply + 1, PlyCounts::default());
        }
        &mut self.plies[ply]
    }

    /// Adds `other`'s counts to these, ply by ply.
    pub fn merge(&mut self, other: &Profile) {
        for (ply, counts) in other.plies.iter().enumerate() {
            self.at(ply).add(counts);
        }
    }

    /// All plies together.
    pub fn total(&self) -> PlyCounts {
        let mut total = PlyCounts::default();
        for counts in &self.plies {
            total.add(counts);
        }
        total
    }

    /// A table, one row per ply with nodes and a total row: how nodes ended, in percent of
    /// the row's nodes; the table's hit rate in percent of its probes; the first-move share of
    /// the cutoffs; children searched per searched node.
    pub fn table(&self) -> String {
        let mut out = String::from(
            "ply nodes forced% bound% hit% tt_cut% threat% child_cut% etc_cut% ruled_out% \
             searched% first_cut% branching child_skips etc_skips\n",
        );
        let pct = |a: u64, b: u64| {
            if b == 0 {
                0.0
            } else {
                100.0 * a as f64 / b as f64
            }
        };
        let rows = self.plies.iter().enumerate().filter(|(_, c)| c.nodes > 0);
        let total = self.total();
        for (label, c) in rows
            .map(|(ply, c)| (ply.to_string(), *c))
            .chain([("all".to_string(), total)])
        {
            let _ = writeln!(
                out,
                "{label} {} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.1} {:.2} {} {}",
                c.nodes,
                pct(c.forced, c.nodes),
                pct(c.bound_cuts, c.nodes),
                pct(c.table_hits, c.table_probes),
                pct(c.table_cuts, c.nodes),
                pct(c.threat_wins, c.nodes),
                pct(c.child_bound_cuts, c.nodes),
                pct(c.etc_cuts, c.nodes),
                pct(c.all_ruled_out, c.nodes),
                pct(c.searched, c.nodes),
                pct(c.first_move_cuts, c.beta_cuts),
                if c.searched == 0 {
                    0.0
                } else {
                    c.children_searched as f64 / c.searched as f64
                },
                c.child_bound_skips,
                c.etc_skips,
            );
        }
        // Absolute counts, and the nodes that got past the checks that search nothing (a forced
        // move, the plies-left and strategy bounds): solvers that settle those positions before
        // calling their search, and count only the calls, count these.
        let _ = writeln!(
            out,
            "total nodes={} forced={} bound_cuts={} past_static_checks={} table_probes={} \
             table_hits={} searched={} beta_cuts={} first_move_cuts={}",
            total.nodes,
            total.forced,
            total.bound_cuts,
            total.nodes - total.forced - total.bound_cuts,
            total.table_probes,
            total.table_hits,
            total.searched,
            total.beta_cuts,
            total.first_move_cuts,
        );
        out
    }
}

#[cfg(test)]
#[cfg(feature = "profile")]
mod tests {
    use crate::game::{Connect, Grid, Runtime};
    use crate::search::{AlphaBeta, Config};

    #[test]
    fn every_node_ends_one_way_and_counts_agree() {
        let start: Connect<u64, Runtime> =
            Connect::new(Runtime::new(Grid::new(5, 4, 4).expect("a board")));
        let mut solver = AlphaBeta::new(&start, Config::default());
        let mut clock = crate::limits::Clock::default();
        assert_eq!(
            solver.solve(&start, false, &mut clock),
            Ok(0),
            "5x4 is a draw"
        );
        let profile = solver.profile().expect("built with the feature");
        for (ply, c) in profile.plies.iter().enumerate() {
            let ends = c.known
                + c.forced
                + c.bound_cuts
                + c.table_cuts
                + c.threat_wins
                + c.child_bound_cuts
                + c.etc_cuts
                + c.all_ruled_out
                + c.searched;
            assert_eq!(ends, c.nodes, "ply {ply}: {c:?}");
            assert!(c.first_move_cuts <= c.beta_cuts && c.beta_cuts <= c.searched);
            assert!(c.table_hits <= c.table_probes);
        }
        assert_eq!(profile.total().nodes, solver.nodes());
        assert!(
            profile
                .table()
                .contains(&format!("total nodes={}", solver.nodes()))
        );
    }
}
