//! The alpha-beta solver's settings: its root driver and every technique, each switchable so
//! that they can be compared.

use crate::error::Error;
use crate::search::threats::ThreatBudget;
use crate::search::tt::Scheme;
use std::fmt;
use std::str::FromStr;

/// How the root finds the exact score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Driver {
    /// One search with the full score window.
    FullWindow,
    /// Null-window searches that bisect the score range, biased towards 0 (Pons).
    Bisection,
    /// Exponential search from the extremes (tests at 1, 2, 4, 8 … steps in from the highest
    /// and the lowest score, alternately, short of the scores near 0): a short forced win or
    /// loss is cheap to prove because its window limits the depth, so the far tests cost
    /// little. Then MTD(f) from 0, where a long game's score lies.
    Gallop,
    /// MTD(f): null-window searches walking from a first guess of 0.
    Mtdf,
    /// Null-window searches from the extremes inward: wins and losses within 1, 3, 5 … plies
    /// first, so a short forced result is found with a search that is depth-limited by its window.
    Deepening,
}

impl FromStr for Driver {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "ab" | "alphabeta" => Ok(Driver::FullWindow),
            "bisect" | "bisection" => Ok(Driver::Bisection),
            "gallop" => Ok(Driver::Gallop),
            "mtdf" => Ok(Driver::Mtdf),
            "deepening" | "id" => Ok(Driver::Deepening),
            _ => Err(Error::Input(format!(
                "unknown algorithm '{s}': expected gallop, bisect, mtdf, deepening or ab"
            ))),
        }
    }
}

impl fmt::Display for Driver {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Driver::FullWindow => "ab",
            Driver::Bisection => "bisect",
            Driver::Gallop => "gallop",
            Driver::Mtdf => "mtdf",
            Driver::Deepening => "deepening",
        })
    }
}

/// Every technique of the solver, each switchable so they can be compared.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// How the root's score is found from null-window or full-window searches.
    pub driver: Driver,
    /// Table size in MiB; 0 = no table.
    pub tt_mb: usize,
    /// How the table chooses which entry of a bucket to replace.
    pub scheme: Scheme,
    /// Key the table by the smallest key over the symmetries.
    pub symmetry: bool,
    /// Order moves by the game's threat ranks (else: the game's base order, centre first).
    pub threat_order: bool,
    /// Try the table's best move first.
    pub tt_move: bool,
    /// Break ties in the ordering by the history heuristic.
    pub history: bool,
    /// Enhanced transposition cutoff: look every child up before searching any, in the first
    /// part of the game (`Tactics::CHILD_LOOKUPS_UNTIL`).
    pub etc: bool,
    /// Use the game's strategy bounds (`Tactics::strategy_bounds`, e.g. Connect Four's
    /// claimeven).
    pub strategy_bounds: bool,
    /// Check every child's quick bounds (no safe move, the strategy bounds) before searching
    /// any.
    pub child_bounds: bool,
    /// In those checks, follow a child's forced moves (single safe moves) to the end of the
    /// line.
    pub forced_lines: bool,
    /// Threat-space search at nodes where a win of the side to move would cut the search off
    /// (`None`: off). Games without threats (`Tactics::threat_moves`) pay nothing.
    pub threat_search: Option<ThreatBudget>,
    /// Victor's threat rules ([`crate::search::cover`]) as a bound at nodes with at least this
    /// many plies left, on games that describe themselves as gravity boards
    /// (`Rules::gravity_position`): where a draw fails low, a proof that the side to move cannot
    /// win caps the score at a draw and cuts (`None`: off, the default: fewer nodes but more
    /// time, docs/results.md).
    pub victor_plies: Option<u32>,
    /// Positions this close to `max_plies` skip the table: their subtrees are cheaper to search
    /// again than a cache miss.
    pub table_min_plies_left: u32,
    /// Search threads sharing the table (1 = no helpers).
    pub threads: usize,
    /// With several threads, a search runs alone for this many nodes first: most positions
    /// are solved before helpers would be worth starting. It goes on alone while the full
    /// table's pages are still being touched (seconds, for gigabytes), instead of waiting.
    pub solo_nodes: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            driver: Driver::Gallop,
            tt_mb: 64,
            scheme: Scheme::TwoBig,
            symmetry: true,
            threat_order: true,
            tt_move: true,
            history: false,
            etc: true,
            strategy_bounds: true,
            child_bounds: true,
            forced_lines: true,
            threat_search: Some(ThreatBudget {
                depth: 6,
                nodes: 200,
            }),
            victor_plies: None,
            table_min_plies_left: 0,
            threads: 1,
            solo_nodes: 100_000,
        }
    }
}
