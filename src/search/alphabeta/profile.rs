//! Where the nodes go: what each node of the search did, counted by ply. The counters cost time
//! on the hottest path, so they are compiled in only with the cargo feature `profile`
//! (`cargo run --release --features profile -- solve --stats MOVES` prints them).

use std::fmt::Write;

/// What the nodes at one ply did. In a search that ran to its end, a node ends in exactly one
/// of: known (a book), forced, bound cut, table cut, threat win, child bound cut, etc cut, all
/// children ruled out, or searched.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PlyCounts {
    pub nodes: u64,
    /// Answered by the oracle (an opening book).
    pub known: u64,
    /// A single safe move (or none): played on without a table entry.
    pub forced: u64,
    /// Settled by the plies left and the game's strategy bounds.
    pub bound_cuts: u64,
    pub table_probes: u64,
    pub table_hits: u64,
    /// Settled by the table's entry.
    pub table_cuts: u64,
    /// Settled by a win by threats.
    pub threat_wins: u64,
    /// A child's quick bounds refuted the window.
    pub child_bound_cuts: u64,
    /// Children not searched because their quick bounds cannot raise alpha.
    pub child_bound_skips: u64,
    /// A child's stored bound refuted the window.
    pub etc_cuts: u64,
    /// Children not searched because their stored bound cannot raise alpha.
    pub etc_skips: u64,
    /// Every child ruled out by its quick or stored bound.
    pub all_ruled_out: u64,
    /// Nodes that searched children.
    pub searched: u64,
    /// Of those, cut off by a child's score...
    pub beta_cuts: u64,
    /// ...by the first child searched.
    pub first_move_cuts: u64,
    pub children_searched: u64,
}

impl PlyCounts {
    fn add(&mut self, o: &PlyCounts) {
        macro_rules! add {
            ($($field:ident),*) => { $(self.$field += o.$field;)* };
        }
        add!(
            nodes,
            known,
            forced,
            bound_cuts,
            table_probes,
            table_hits,
            table_cuts,
            threat_wins,
            child_bound_cuts,
            child_bound_skips,
            etc_cuts,
            etc_skips,
            all_ruled_out,
            searched,
            beta_cuts,
            first_move_cuts,
            children_searched
        );
    }
}

/// Counts by ply (from the empty board).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Profile {
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
        assert_eq!(solver.solve(&start, false), Ok(0), "5x4 is a draw");
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
