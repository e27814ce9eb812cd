//! The exact solver of [`Bounded`] games: negamax alpha-beta with a transposition table, move
//! ordering (the game's threat ranks, the table's best move, the history heuristic), enhanced
//! transposition cutoffs, and root drivers that find the exact score with null-window searches
//! (bisection of the score range, MTD(f), or deepening from the extremes) or one full window.
//!
//! - [`config`]: the settings; `driver`: the root drivers; `negamax`: the search itself;
//!   `parallel`: several threads on one table.
//!
//! It needs the length bound for its score scale and its bounds, so it asks for `G: Bounded`:
//! a game whose positions repeat is solved by the proof-number searches or by
//! [`WinSearch`](super::winner::WinSearch) instead.

pub mod config;
mod driver;
mod negamax;
mod parallel;
pub mod profile;

pub use config::{Config, Driver};

use super::cover::CoverPath;
use super::tt::{GrowingTable, Table, WriteLog};
use crate::error::Error;
#[cfg(doc)]
use crate::game::Rules;
use crate::game::{Bounded, MAX_MOVES, Tactics};
use crate::limits::Instant;
use crate::limits::{Clock, Limits, Stop};
pub use parallel::Tests;
use parallel::{Halt, Shared};
use std::sync::Arc;

/// Exact scores known in advance, such as an opening book: a source the search consults before
/// searching a position.
pub trait KnownScores<G>: Send + Sync {
    /// Positions with more plies than this are never known.
    fn most_plies(&self) -> u32;
    /// The exact score of the side to move in `pos` (not over), if known.
    fn score(&self, pos: &G) -> Option<i32>;
}

/// The table and the root drivers' test results, which searches share and which outlive them.
#[derive(Clone)]
pub struct SearchState {
    /// The transposition table: a bound on the score of every position stored.
    pub table: Arc<Table>,
    /// The results of the root drivers' null-window tests.
    pub tests: Arc<Tests>,
}

/// The alpha-beta solver for positions of `G`; keeps its table between searches.
///
/// With `threads > 1` it owns helpers that share its table. Every thread solves the same
/// position (lazy SMP); at nodes near the root a thread defers the moves another thread is
/// searching, so that they split the tree; the first thread to finish gives the answer.
pub struct AlphaBeta<G: Bounded + Tactics> {
    config: Config,
    /// Key the table by canonical keys in this search: the symmetry technique is on and
    /// images of positions may meet below the root ([`Rules::images_may_meet`]).
    symmetric: bool,
    /// The table this thread searches with: one the search has grown into, or the full one
    /// (see [`GrowingTable`]).
    table: Arc<Table>,
    /// The main thread's view of both tables (`None` on helpers).
    tables: Option<GrowingTable>,
    log: WriteLog,
    shared: Arc<Shared>,
    helpers: Vec<AlphaBeta<G>>,
    /// Stack for a helper thread: enough for a search as deep as the game is long.
    helper_stack: usize,
    /// Whether other threads are searching now.
    parallel: bool,
    /// Each ply's list of children to search (see `negamax`), kept to be reused.
    frames: Vec<Vec<negamax::Child<G>>>,
    /// History heuristic counters, by side to move and move code.
    history: [[u32; MAX_MOVES]; 2],
    nodes: u64,
    /// Positions visited by threat-space searches.
    threat_nodes: u64,
    /// The rules' views along the path (with `victor_plies`).
    cover_path: CoverPath,
    /// `nodes` when the limits were last checked.
    checked: u64,
    /// Children judged by their quick bounds: in games where that is costly, the limits are
    /// also checked every so many of them.
    child_checks: u64,
    /// Node count at which a solo run yields to the helpers.
    solo_until: Option<u64>,
    /// The root driver's test under way (the root's canonical key and the test), and the
    /// count of tests answered by any thread when it was last looked at.
    test: Option<(u128, i32)>,
    answered_seen: u64,
    /// The limits of the search under way and their deadline, lent by the caller's [`Clock`]
    /// for one race (negamax checks them deep inside) and cleared after it: none are kept
    /// between calls.
    limits: Limits,
    deadline: Option<Instant>,
    stopped: Option<Halt>,
    oracle: Option<Arc<dyn KnownScores<G>>>,
    /// What the nodes did, by ply (feature `profile`).
    #[cfg(feature = "profile")]
    profile: profile::Profile,
    _game: std::marker::PhantomData<G>,
}

/// Stack a level of [`AlphaBeta`]'s recursion may take, with room to spare (its move lists are
/// on the stack).
const STACK_PER_PLY: usize = 24 << 10;

impl<G: Bounded + Tactics> AlphaBeta<G> {
    /// A solver for positions shaped like `sample` (whose key size sets the table layout).
    ///
    /// # Panics
    /// Where [`AlphaBeta::try_new`] returns an error.
    pub fn new(sample: &G, config: Config) -> Self {
        Self::try_new(sample, config).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`AlphaBeta::new`], but a table the machine cannot hold is an error.
    ///
    /// # Errors
    /// [`Error::Memory`] when the table of `config.tt_mb` MiB cannot be allocated.
    pub fn try_new(sample: &G, config: Config) -> Result<Self, Error> {
        let tables = GrowingTable::new(
            Table::try_new(config.tt_mb, config.scheme, sample.key_bits())?,
            sample.key_bits(),
        );
        let table = tables.current.clone();
        let shared = Shared::new();
        let helper_stack = (sample.max_plies() as usize + 16) * STACK_PER_PLY;
        let worker = |config: Config| AlphaBeta {
            symmetric: config.symmetry,
            config,
            log: table.write_log(),
            table: table.clone(),
            tables: None,
            shared: shared.clone(),
            helpers: Vec::new(),
            helper_stack,
            parallel: false,
            frames: (0..=sample.max_plies() + 1).map(|_| Vec::new()).collect(),
            history: [[0; MAX_MOVES]; 2],
            nodes: 0,
            threat_nodes: 0,
            cover_path: CoverPath::new(),
            checked: 0,
            child_checks: 0,
            solo_until: None,
            test: None,
            answered_seen: 0,
            limits: Limits::default(),
            deadline: None,
            stopped: None,
            oracle: None,
            #[cfg(feature = "profile")]
            profile: profile::Profile::default(),
            _game: std::marker::PhantomData,
        };
        let mut main = worker(config.clone());
        main.tables = Some(tables);
        main.helpers = (1..config.threads)
            .map(|_| worker(config.clone()))
            .collect();
        Ok(main)
    }

    /// The techniques and table size the solver was made with.
    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Nodes searched by all threads since the last [`AlphaBeta::reset`].
    pub fn nodes(&self) -> u64 {
        self.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>()
    }

    /// What the nodes of all threads did since the last [`AlphaBeta::reset`], by ply; `None`
    /// unless built with the feature `profile`.
    pub fn profile(&self) -> Option<profile::Profile> {
        #[cfg(feature = "profile")]
        {
            let mut all = self.profile.clone();
            for helper in &self.helpers {
                all.merge(&helper.profile);
            }
            Some(all)
        }
        #[cfg(not(feature = "profile"))]
        None
    }

    /// What the searches have learnt: a checkpoint saves it, and a run resumes from it. The
    /// full table is readied first (see [`AlphaBeta::ready`]).
    pub fn state(&mut self) -> SearchState {
        self.ready();
        SearchState {
            table: self.table.clone(),
            tests: self.shared.tests.clone(),
        }
    }

    /// Memory held by the transposition table, in bytes.
    pub fn table_bytes(&self) -> usize {
        self.tables
            .as_ref()
            .map_or(self.table.bytes(), |t| t.full().bytes())
    }

    /// Touches every page of the table now, so that no search meets a page fault in it: for a
    /// solver that is reused and timed. Without it a search starts on a small table and grows
    /// into bigger ones, touching their pages as it writes ([`GrowingTable`]).
    pub fn ready(&mut self) {
        if let Some(tables) = &mut self.tables {
            tables.ready(&mut self.log);
        }
        self.use_current_table();
    }

    /// Moves the searches to the next bigger table (see [`GrowingTable`]); only while the
    /// helpers are idle.
    #[cold]
    fn grow(&mut self) {
        if let Some(tables) = &mut self.tables {
            tables.grow(&mut self.log);
        }
        self.use_current_table();
    }

    /// Moves the searches to the full table, for a search on every thread (which cannot move
    /// while they run).
    #[cold]
    fn grow_full(&mut self) {
        if let Some(tables) = &mut self.tables {
            tables.grow_full(&mut self.log);
        }
        self.use_current_table();
    }

    /// Points every thread at the table in use, with a log for it.
    fn use_current_table(&mut self) {
        let Some(current) = self.tables.as_ref().map(|t| t.current.clone()) else {
            return;
        };
        self.table = current.clone();
        for helper in &mut self.helpers {
            if !Arc::ptr_eq(&helper.table, &current) {
                helper.log = current.write_log();
                helper.table = current.clone();
            }
        }
    }

    /// Forgets the table, the history, the root tests' results and the node count.
    pub fn reset(&mut self) {
        self.shared.tests.clear();
        self.each_worker(|worker| {
            worker.table.clear(&mut worker.log);
            // Written only with the heuristic on (and 2.5 KB: not worth clearing otherwise).
            if worker.config.history {
                worker.history = [[0; MAX_MOVES]; 2];
            }
            worker.nodes = 0;
            worker.checked = 0;
            #[cfg(feature = "profile")]
            {
                worker.profile = profile::Profile::default();
            }
        });
    }

    /// Answers positions the oracle knows (an opening book) without searching them.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn KnownScores<G>>>) {
        self.each_worker(|worker| worker.oracle = oracle.clone());
    }

    /// Chooses the keys for a search from `root`. Either kind names a position exactly, and
    /// images have equal values, so entries stored under one serve searches under the other.
    fn set_root(&mut self, root: &G) {
        let symmetric = self.config.symmetry && root.images_may_meet();
        self.each_worker(|worker| worker.symmetric = symmetric);
    }

    fn each_worker(&mut self, mut f: impl FnMut(&mut Self)) {
        f(self);
        for helper in &mut self.helpers {
            f(helper);
        }
    }

    /// The exact score of `pos` (or, when `weak`, its sign: -1 loss, 0 draw, 1 win), under
    /// the limits of `clock`.
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    pub fn solve(&mut self, pos: &G, weak: bool, clock: &mut Clock) -> Result<i32, Stop> {
        self.set_root(pos);
        self.race(clock, |worker| worker.solve_alone(pos, weak))
    }

    /// Whether the value of `pos` is at most `bound` (any position, even one that is over or
    /// has an immediate win), under the limits of `clock`.
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    pub fn value_at_most(&mut self, pos: &G, bound: i32, clock: &mut Clock) -> Result<bool, Stop> {
        self.set_root(pos);
        self.race(clock, |worker| worker.value_at_most_alone(pos, bound))
    }
}
