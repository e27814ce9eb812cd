//! Benchmark bookkeeping shared by `inarow bench` and the bench-signature test: positions with
//! known scores, solved with the table cleared before each, tallied into one summary line.

use super::{Engine, Options, Report};
use crate::game::{Game, GameSpec};
use crate::with_game;

/// The built-in suite: empty boards with their published values (Tromp; the size table in
/// `shared/data/tables/connect4_sizes.tsv`), every board of up to 35 cells that solves in about a
/// second. Its total node count is the bench signature: any change of search behaviour shows.
pub const BUILTIN_SUITE: [(&str, i32); 10] = [
    ("connect4:4x4", 0),
    ("connect4:5x4", 0),
    ("connect4:6x4", -1),
    ("connect4:7x4", 0),
    ("connect4:4x5", 0),
    ("connect4:5x5", 0),
    ("connect4:6x5", 0),
    ("connect4:4x6", 0),
    ("connect4:5x6", 0),
    ("connect4:4x7", 0),
];

/// The totals of one benchmark file or suite.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    pub n: usize,
    pub correct: usize,
    pub total_us: f64,
    pub max_us: f64,
    pub nodes: u64,
}

impl Tally {
    /// Counts one solved position; returns whether its score was the expected one.
    pub fn record<M>(&mut self, report: &Report<M>, expected: i32) -> bool {
        let us = report.elapsed.as_secs_f64() * 1e6;
        self.n += 1;
        self.total_us += us;
        self.max_us = self.max_us.max(us);
        self.nodes += report.nodes;
        let right = report.score == Some(expected);
        if right {
            self.correct += 1;
        }
        right
    }

    /// Counts a line that could not be solved at all (malformed, illegal).
    pub fn record_bad_line(&mut self) {
        self.n += 1;
    }

    /// `NAME n=1000 correct=1000 mean_us=8.7 mean_nodes=51.3 max_us=225`
    pub fn summary(&self, name: &str) -> String {
        let n = self.n.max(1) as f64;
        format!(
            "{name} n={} correct={} mean_us={:.1} mean_nodes={:.1} max_us={:.0}",
            self.n,
            self.correct,
            self.total_us / n,
            self.nodes as f64 / n,
            self.max_us
        )
    }
}

/// Solves the built-in suite, each board with its own engine (the options' table size and
/// techniques apply); `on_position` is told of each board as it is done.
pub fn run_builtin(
    options: &Options,
    mut on_position: impl FnMut(&str, bool),
) -> Result<Tally, String> {
    let mut tally = Tally::default();
    for (spec, expected) in BUILTIN_SUITE {
        let game: GameSpec = spec.parse()?;
        let expected = if options.weak {
            expected.signum()
        } else {
            expected
        };
        let right = with_game!(game.start(), start => {
            let report = Engine::try_new(&start, options.clone())?.solve(&start);
            debug_assert_eq!(start.ply(), 0);
            tally.record(&report, expected)
        });
        on_position(spec, right);
    }
    Ok(tally)
}
