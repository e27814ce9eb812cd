//! What bounds a search, and how a search says it stopped early: one [`Limits`] and one
//! [`Stop`] for every search.

use std::fmt;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// The clock of every deadline: the standard one, except on the web (wasm32-unknown-unknown),
/// where `std::time::Instant::now()` panics and the browser's `performance.now()` answers.
#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;
/// The clock of every deadline: the browser's `performance.now()`, as the standard one panics
/// on wasm32-unknown-unknown.
#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use web_time::Instant;

/// Nodes searched in this process by every search, counted in batches as the searches check
/// their limits: what a progress display shows (no search reads it).
static NODES_SEARCHED: AtomicU64 = AtomicU64::new(0);

/// The nodes searched in this process so far (counted in batches as the searches check their limits).
pub fn nodes_searched() -> u64 {
    NODES_SEARCHED.load(Ordering::Relaxed)
}

/// Adds to the count of nodes searched in this process.
#[inline]
pub fn count_nodes(n: u64) {
    NODES_SEARCHED.fetch_add(n, Ordering::Relaxed);
}

/// The bounds on the score that an alpha-beta root driver has proven so far, with the key
/// (`Rules::key`) of the position it solves: what a progress display shows of a long solve (no
/// search reads it).
static ROOT_BOUNDS: Mutex<Option<(u128, i32, i32)>> = Mutex::new(None);

/// The bounds `lo..=hi` the last root driver to report has proven on the score of the
/// position with this key, if it was that position's.
pub fn root_bounds(key: u128) -> Option<(i32, i32)> {
    let noted = *ROOT_BOUNDS.lock().unwrap_or_else(|e| e.into_inner());
    noted
        .filter(|&(noted, _, _)| noted == key)
        .map(|(_, lo, hi)| (lo, hi))
}

/// Whether a progress display reads the bounds: until one does, noting them costs a search
/// one relaxed load (the benchmarks' short solves make many tests).
static ROOT_BOUNDS_WATCHED: AtomicBool = AtomicBool::new(false);

/// Asks the root drivers to note their bounds from now on, for [`root_bounds`].
pub fn watch_root_bounds() {
    ROOT_BOUNDS_WATCHED.store(true, Ordering::Relaxed);
}

/// Tells a progress display, if one watches, the bounds a root driver has proven on the score
/// of the position whose key `key` gives.
pub fn note_root_bounds(key: impl FnOnce() -> u128, lo: i32, hi: i32) {
    if ROOT_BOUNDS_WATCHED.load(Ordering::Relaxed) {
        *ROOT_BOUNDS.lock().unwrap_or_else(|e| e.into_inner()) = Some((key(), lo, hi));
    }
}

/// A cancellation token: clones share one flag, and once any of them is cancelled (by Ctrl-C,
/// by a client that went away, by the caller) every search holding it stops with
/// [`Stop::Interrupted`]. Checking it is one relaxed atomic load.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A new token, not cancelled.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Cancels the token and every clone of it.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::Relaxed);
    }

    /// Whether the token (or a clone of it) was cancelled.
    #[inline]
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Clears the token, for every clone of it: the searches that hold it may run again.
    pub fn reset(&self) {
        self.0.store(false, Ordering::Relaxed);
    }
}

/// Equal tokens are the same token (clones of one), not just tokens in the same state.
impl PartialEq for Cancel {
    fn eq(&self, other: &Cancel) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }
}

impl Eq for Cancel {}

/// Limits on a search, counted from when they are set.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// The most time the search may take (`None`: no limit).
    pub time: Option<Duration>,
    /// The most nodes the search may visit (`None`: no limit).
    pub nodes: Option<u64>,
    /// A token that, once cancelled (by Ctrl-C, say), stops the search with
    /// [`Stop::Interrupted`]. Equal limits have the same token, not just tokens in the same
    /// state.
    pub interrupt: Option<Cancel>,
}

impl Limits {
    /// Whether the interrupt token is cancelled.
    #[inline]
    pub fn is_interrupted(&self) -> bool {
        self.interrupt.as_ref().is_some_and(Cancel::is_cancelled)
    }

    /// A time limit alone.
    pub fn within(time: Duration) -> Limits {
        Limits {
            time: Some(time),
            ..Limits::default()
        }
    }

    /// The limits with their clock started now.
    pub fn start(self) -> Started {
        Started {
            deadline: self.time.map(|t| Instant::now() + t),
            limits: self,
        }
    }
}

/// [`Limits`] whose clock has started: the deadline is fixed, so that every step of one piece
/// of work (an analysis, the solvers a position is asked of in turn) shares it.
#[derive(Clone, Debug, Default)]
pub struct Started {
    /// The limits as they were set.
    pub limits: Limits,
    /// When the time limit runs out (`None`: no time limit).
    pub deadline: Option<Instant>,
}

impl Started {
    /// Why the work must stop, after `nodes` nodes: the node limit, the interrupt token or the
    /// deadline, in that order; `None` to go on.
    pub fn stop(&self, nodes: u64) -> Option<Stop> {
        if self.limits.nodes.is_some_and(|n| nodes > n) {
            Some(Stop::Nodes)
        } else if self.limits.is_interrupted() {
            Some(Stop::Interrupted)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            Some(Stop::Time)
        } else {
            None
        }
    }
}

/// Why a search stopped before it answered.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Stop {
    /// The time limit ran out.
    Time,
    /// The node limit was passed.
    Nodes,
    /// The search's memory budget is spent.
    Memory,
    /// The memory budget is too small for the method, which needs this many MiB: refused up
    /// front.
    MemoryNeeded(u64),
    /// An exact solve needs more memory than the machine has, however the budget is set:
    /// `need_mib` against the machine's `machine_mib`; exact solves fit from `fits_from`
    /// stones on, and the position has `stones`.
    BeyondMachine {
        /// The MiB the exact solve needs.
        need_mib: u64,
        /// The machine's memory, in MiB.
        machine_mib: u64,
        /// The fewest stones from which an exact solve fits in the machine's memory.
        fits_from: u32,
        /// The position's stones.
        stones: u32,
    },
    /// A line of play went deeper than [`MAX_DEPTH`] plies below the root.
    Depth,
    /// Under a handicap the side to move did not win: that proves nothing about the real game.
    Handicap,
    /// Threat-space search alone found no win: that proves nothing either.
    NoThreatWin,
    /// The limits' interrupt token was cancelled (Ctrl-C).
    Interrupted,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stop::Time => "time limit reached",
            Stop::Nodes => "node limit reached",
            Stop::Memory => "memory budget reached (raise --mem-mb)",
            Stop::MemoryNeeded(mib) => {
                return write!(
                    f,
                    "memory budget too small: this needs {mib} MiB (--mem-mb {mib})"
                );
            }
            Stop::BeyondMachine {
                need_mib,
                machine_mib,
                fits_from,
                stones,
            } => {
                return write!(
                    f,
                    "no exact solve on this machine: it would need {} of memory, and the \
                     machine has {}; positions of {fits_from} stones or more are solved exactly \
                     here, this one has {stones} (`inarow analyze --time S` gives estimates)",
                    gib(*need_mib),
                    gib(*machine_mib)
                );
            }
            Stop::Depth => "depth limit reached (a line of play longer than the search follows)",
            Stop::Handicap => "no win under the handicap, which proves nothing",
            Stop::NoThreatWin => "no win by threats found, which proves nothing",
            Stop::Interrupted => "interrupted",
        })
    }
}

/// MiB as people read them: `22.1 GiB`, `3e13 GiB`.
fn gib(mib: u64) -> String {
    let gib = mib as f64 / 1024.0;
    if gib < 1e6 {
        format!("{gib:.1} GiB")
    } else {
        format!("{gib:.0e} GiB")
    }
}

impl std::error::Error for Stop {}

/// The deepest the recursive searches of games whose positions repeat go below their root, in
/// plies; a search that would go deeper stops with [`Stop::Depth`]. (In a bounded game a line
/// ends by its length bound first.)
pub const MAX_DEPTH: u32 = 20_000;

/// The limits of one piece of work under way (a solve, an analysis, a proof and its
/// certificate): [`Limits`] with their clock started, the nodes counted against them, and the
/// limit that stopped a search. The call that takes the limits builds it and lends it to every
/// search it runs, so that they share one deadline and one node budget; it is dropped with the
/// call, and no search keeps it. Enforced by a node count checked at every tick, the time every
/// 1024 ticks.
#[derive(Clone, Debug, Default)]
pub struct Clock {
    limits: Limits,
    deadline: Option<Instant>,
    /// Nodes counted against the node limit.
    pub(crate) ticks: u64,
    /// Calls of [`Clock::poll`].
    polls: u64,
    /// The limit a search under this clock stopped at: every later tick, poll and search stops
    /// at once (an analysis runs one search a move under one clock).
    pub(crate) stop: Option<Stop>,
}

impl Clock {
    /// `limits` with their clock started now.
    pub fn new(limits: Limits) -> Clock {
        Clock {
            deadline: limits.time.map(|t| Instant::now() + t),
            limits,
            ticks: 0,
            polls: 0,
            stop: None,
        }
    }

    /// The limits as they were given.
    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// When the time limit runs out (`None`: no time limit).
    pub fn deadline(&self) -> Option<Instant> {
        self.deadline
    }

    /// Counts one node; an error once a limit is reached.
    #[inline(always)]
    pub(crate) fn tick(&mut self) -> Result<(), Stop> {
        self.ticks += 1;
        if self.limits.nodes.is_some_and(|n| self.ticks > n) {
            return Err(Stop::Nodes);
        }
        if self.ticks & 1023 == 0 {
            count_nodes(1024);
            self.check_time()?;
        } else if let Some(stop) = self.stop {
            return Err(stop);
        }
        Ok(())
    }

    /// Checks the time every 64 calls without counting a node: for work inside one node that
    /// can take long (judging the ~250 children of a Pentago position, each by its safe
    /// moves), so that a time limit holds within milliseconds there too.
    #[inline(always)]
    pub(crate) fn poll(&mut self) -> Result<(), Stop> {
        self.polls += 1;
        if self.polls & 63 == 0 || self.stop.is_some() {
            self.check_time()?;
        }
        Ok(())
    }

    #[cold]
    fn check_time(&mut self) -> Result<(), Stop> {
        if self.limits.is_interrupted() {
            Err(Stop::Interrupted)
        } else if let Some(stop) = self.stop {
            Err(stop)
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stop = Some(Stop::Time);
            Err(Stop::Time)
        } else {
            Ok(())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{Cancel, Limits, Stop};
    use std::time::Duration;

    #[test]
    fn a_token_is_shared_by_its_clones_and_equal_only_to_them() {
        let token = Cancel::new();
        let clone = token.clone();
        assert_eq!(token, clone);
        assert_ne!(token, Cancel::new());
        let limits = Limits {
            interrupt: Some(clone),
            ..Limits::within(Duration::from_secs(60))
        };
        assert_eq!(limits, limits.clone());
        // Equal limits have the same token, not just tokens in the same state.
        let other = Limits {
            interrupt: Some(Cancel::new()),
            ..Limits::within(Duration::from_secs(60))
        };
        assert_ne!(limits, other);
        assert!(!limits.is_interrupted());
        assert_eq!(limits.clone().start().stop(0), None);
        token.cancel();
        assert!(limits.is_interrupted() && !other.is_interrupted());
        assert_eq!(limits.clone().start().stop(0), Some(Stop::Interrupted));
        token.reset();
        assert!(!limits.is_interrupted());
    }
}
