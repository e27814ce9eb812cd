//! The exact solver: negamax alpha-beta over any [`Game`], with a transposition table, move
//! ordering (the game's threat ranks, the table's best move, the history heuristic), enhanced
//! transposition cutoffs, and root drivers that find the exact score with null-window searches
//! (bisection of the score range, MTD(f), or deepening from the extremes) or one full window.
//!
//! Invariant of [`AlphaBeta::negamax`]: the side to move has no immediate win (the caller checks
//! at the root; below it, [`Game::safe_moves`] never lets the opponent win at once).

use super::score::win_at;
use super::tt::{Bound, Scheme, Table, WriteLog};
use crate::game::{Game, MAX_MOVES, MoveList, RankedMove, Status};
use arrayvec::ArrayVec;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// How the root finds the exact score.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Driver {
    /// One search with the full score window.
    FullWindow,
    /// Null-window searches that bisect the score range, biased towards 0 (Pons).
    Bisection,
    /// Exponential search from the extremes (tests at 1, 2, 4, 8 … steps in from the highest
    /// and the lowest score, alternately), then bisection: a short forced win or loss is cheap
    /// to prove because its window limits the depth, so the far tests cost little.
    Gallop,
    /// MTD(f): null-window searches walking from a first guess of 0.
    Mtdf,
    /// Null-window searches from the extremes inward: wins and losses within 1, 3, 5 … plies
    /// first, so a short forced result is found with a search that is depth-limited by its window.
    Deepening,
}

impl FromStr for Driver {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "ab" | "alphabeta" => Ok(Driver::FullWindow),
            "bisect" | "bisection" => Ok(Driver::Bisection),
            "gallop" => Ok(Driver::Gallop),
            "mtdf" => Ok(Driver::Mtdf),
            "deepening" | "id" => Ok(Driver::Deepening),
            _ => Err(format!(
                "unknown algorithm '{s}': expected gallop, bisect, mtdf, deepening or ab"
            )),
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
    pub driver: Driver,
    /// Table size in MiB; 0 = no table.
    pub tt_mb: usize,
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
    /// part of the game (before `max_plies * 2 / 3`).
    pub etc: bool,
    /// Use the game's strategy bounds ([`Game::strategy_bounds`], e.g. Connect Four's claimeven).
    pub strategy_bounds: bool,
    /// Positions this close to `max_plies` skip the table: their subtrees are cheaper to search
    /// again than a cache miss.
    pub table_min_plies_left: u32,
    /// Search threads sharing the table (1 = no helpers).
    pub threads: usize,
    /// With several threads, a search runs alone for this many nodes first: most positions
    /// are solved before helpers would be worth starting.
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
            table_min_plies_left: 0,
            threads: 1,
            solo_nodes: 100_000,
        }
    }
}

/// A search that hit its time or node limit before it finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Stopped {
    Time,
    Nodes,
}

impl fmt::Display for Stopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Stopped::Time => "time limit reached",
            Stopped::Nodes => "node limit reached",
        })
    }
}

/// Limits on one search; the search checks them every few thousand nodes.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub time: Option<Duration>,
    pub nodes: Option<u64>,
}

const HISTORY_SIZE: usize = 128;
/// Nodes with at least this many plies left coordinate threads: a move another thread is
/// searching is deferred to the end of the list (simplified ABDADA).
const SPLIT_MIN_PLIES_LEFT: i32 = 6;
/// Slots of the table of subtrees being searched (a power of two).
const BUSY_SLOTS: usize = 1 << 14;
/// Nodes between two checks of the limits.
const CHECK_INTERVAL: u64 = 0x1000;

/// Exact scores known in advance, such as an opening book: a source the search consults before
/// searching a position.
pub trait Oracle: Send + Sync {
    /// Positions with more plies than this are never known.
    fn depth(&self) -> u32;
    /// The exact score of the side to move in the position with this canonical key, if known.
    fn score(&self, canonical_key: u128) -> Option<i32>;
}

/// Why a search stopped before it finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Halt {
    Limit(Stopped),
    /// Another thread finished first, or the solo run ended: the work is not needed.
    Yield,
}

/// What the threads of one search share besides the table.
struct Shared {
    /// Set when one thread has the answer (or the solo run ends): the others stop.
    done: AtomicBool,
    /// Nodes of all threads, counted in steps of [`CHECK_INTERVAL`], for the node limit.
    nodes: AtomicU64,
    /// Keys of subtrees some thread is searching.
    busy: Vec<AtomicU64>,
}

impl Shared {
    fn new() -> Arc<Shared> {
        Arc::new(Shared {
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
        })
    }

    /// The slot of `key` in [`Shared::busy`] and the tag that marks it there.
    #[inline(always)]
    fn busy_slot(key: u128) -> (usize, u64) {
        let tag = (key as u64 ^ (key >> 64) as u64) | 1;
        let hash = tag.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((hash >> 50) as usize % BUSY_SLOTS, tag)
    }
}
/// Tests the galloping driver makes before it bisects (measured on the public sets).
const GALLOP_TESTS: u32 = 8;
/// In weak mode: fewer, as the tests nearest the value then decide nothing (measured likewise).
const WEAK_GALLOP_TESTS: u32 = 6;

/// The alpha-beta solver for positions of `G`; keeps its table between searches.
///
/// With `threads > 1` it owns helpers that share its table. Every thread solves the same
/// position (lazy SMP); at nodes near the root a thread defers the moves another thread is
/// searching, so that they split the tree; the first thread to finish gives the answer.
pub struct AlphaBeta<G: Game> {
    config: Config,
    table: Arc<Table>,
    log: WriteLog,
    shared: Arc<Shared>,
    helpers: Vec<AlphaBeta<G>>,
    /// Whether other threads are searching now.
    parallel: bool,
    history: [[u32; HISTORY_SIZE]; 2],
    nodes: u64,
    /// `nodes` when the limits were last checked.
    checked: u64,
    /// Node count at which a solo run yields to the helpers.
    solo_until: Option<u64>,
    limits: Limits,
    deadline: Option<Instant>,
    stopped: Option<Halt>,
    oracle: Option<Arc<dyn Oracle>>,
    _game: std::marker::PhantomData<G>,
}

impl<G: Game> AlphaBeta<G> {
    /// A solver for positions shaped like `sample` (whose key size sets the table layout).
    pub fn new(sample: &G, config: Config) -> Self {
        Self::try_new(sample, config).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`AlphaBeta::new`], but a table the machine cannot hold is an error.
    pub fn try_new(sample: &G, config: Config) -> Result<Self, String> {
        let table = Arc::new(Table::try_new(
            config.tt_mb,
            config.scheme,
            sample.key_bits(),
        )?);
        let shared = Shared::new();
        let worker = |config: Config| AlphaBeta {
            config,
            log: table.write_log(),
            table: table.clone(),
            shared: shared.clone(),
            helpers: Vec::new(),
            parallel: false,
            history: [[0; HISTORY_SIZE]; 2],
            nodes: 0,
            checked: 0,
            solo_until: None,
            limits: Limits::default(),
            deadline: None,
            stopped: None,
            oracle: None,
            _game: std::marker::PhantomData,
        };
        let mut main = worker(config.clone());
        main.helpers = (1..config.threads)
            .map(|_| worker(config.clone()))
            .collect();
        Ok(main)
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// Nodes searched by all threads since the last [`AlphaBeta::reset`].
    pub fn nodes(&self) -> u64 {
        self.nodes + self.helpers.iter().map(|h| h.nodes).sum::<u64>()
    }

    pub fn table_bytes(&self) -> usize {
        self.table.bytes()
    }

    /// Forgets the table, the history and the node count.
    pub fn reset(&mut self) {
        self.each_worker(|worker| {
            worker.table.clear(&mut worker.log);
            worker.history = [[0; HISTORY_SIZE]; 2];
            worker.nodes = 0;
            worker.checked = 0;
        });
        self.shared.nodes.store(0, Ordering::Relaxed);
    }

    /// Sets the limits that apply from now on (time counts from this call).
    pub fn set_limits(&mut self, limits: Limits) {
        let deadline = limits.time.map(|t| Instant::now() + t);
        self.each_worker(|worker| {
            worker.limits = limits;
            worker.deadline = deadline;
            worker.stopped = None;
        });
        self.shared.nodes.store(0, Ordering::Relaxed);
    }

    /// Answers positions the oracle knows (an opening book) without searching them.
    pub fn set_oracle(&mut self, oracle: Option<Arc<dyn Oracle>>) {
        self.each_worker(|worker| worker.oracle = oracle.clone());
    }

    fn each_worker(&mut self, mut f: impl FnMut(&mut Self)) {
        f(self);
        for helper in &mut self.helpers {
            f(helper);
        }
    }

    /// Runs `job` to completion: alone at first, then, if it is still running after
    /// [`Config::solo_nodes`] nodes, on every thread at once, taking the first thread's answer.
    fn race<R: Send>(&mut self, job: impl Fn(&mut Self) -> R + Sync) -> Result<R, Stopped> {
        if let Some(Halt::Limit(s)) = self.stopped {
            return Err(s);
        }
        if !self.helpers.is_empty() {
            self.solo_until = Some(self.nodes + self.config.solo_nodes);
        }
        let solo = job(self);
        self.solo_until = None;
        match self.stopped {
            None => return Ok(solo),
            Some(Halt::Limit(s)) => return Err(s),
            Some(Halt::Yield) => self.stopped = None,
        }
        self.shared.done.store(false, Ordering::Relaxed);
        let mut helpers = std::mem::take(&mut self.helpers);
        let job = &job;
        let results = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .map(|helper| scope.spawn(move || helper.run_shared(job)))
                .collect();
            let mut results = vec![self.run_shared(job)];
            results.extend(
                running
                    .into_iter()
                    .map(|t| t.join().expect("helper panicked")),
            );
            results
        });
        self.helpers = helpers;
        let mut limit = None;
        for (result, halt) in results {
            match halt {
                None => return Ok(result),
                Some(Halt::Limit(s)) => limit = Some(s),
                Some(Halt::Yield) => {}
            }
        }
        let stopped = limit.unwrap_or(Stopped::Time);
        self.stopped = Some(Halt::Limit(stopped));
        Err(stopped)
    }

    /// One thread's part of [`AlphaBeta::race`]: the job, then the signal that stops the others.
    fn run_shared<R>(&mut self, job: &impl Fn(&mut Self) -> R) -> (R, Option<Halt>) {
        self.parallel = true;
        let result = job(self);
        self.parallel = false;
        self.shared.done.store(true, Ordering::Relaxed);
        let halt = self.stopped.take();
        (result, halt)
    }

    /// The exact score of `pos` (or, when `weak`, its sign: -1 loss, 0 draw, 1 win).
    pub fn solve(&mut self, pos: &G, weak: bool) -> Result<i32, Stopped> {
        self.race(|worker| worker.solve_alone(pos, weak))
    }

    fn solve_alone(&mut self, pos: &G, weak: bool) -> i32 {
        let m = pos.max_plies();
        let n = pos.ply();
        match pos.status() {
            Status::Win(_) => return if weak { -1 } else { -win_at(m, n) },
            Status::Draw => return 0,
            Status::Ongoing => {}
        }
        if pos.has_winning_move() {
            return if weak { 1 } else { win_at(m, n + 1) };
        }
        let (m, n) = (m as i32, n as i32);
        let (mut lo, mut hi) = (-(m - n) / 2, (m + 1 - n) / 2);
        // In weak mode the search may stop once the sign is known.
        let settled = |lo: i32, hi: i32| lo >= hi || (weak && (lo > 0 || hi < 0));
        if weak && self.config.driver != Driver::Gallop {
            lo = lo.max(-1);
            hi = hi.min(1);
        }
        let value = match self.config.driver {
            Driver::FullWindow => {
                let r = self.negamax(pos, lo - 1, hi + 1);
                r.clamp(lo, hi)
            }
            Driver::Bisection => self.bisect(pos, lo, hi),
            Driver::Gallop => {
                // Exponential search inward from both ends, then bisection of what is left.
                // Weak mode gallops over the whole range too: a short win or loss is the
                // cheapest way to learn the sign.
                let mut step = [1, 1];
                let tests = if weak {
                    WEAK_GALLOP_TESTS
                } else {
                    GALLOP_TESTS
                };
                for i in 0..tests {
                    if settled(lo, hi) {
                        break;
                    }
                    let top = i % 2 == 0;
                    let test = if top {
                        (hi - step[0]).max(lo)
                    } else {
                        (lo + step[1] - 1).min(hi - 1)
                    };
                    self.narrow(pos, test, &mut lo, &mut hi);
                    step[!top as usize] *= 2;
                }
                if weak && !settled(lo, hi) {
                    lo = lo.max(-1);
                    hi = hi.min(1);
                }
                if settled(lo, hi) {
                    lo
                } else {
                    self.bisect(pos, lo, hi)
                }
            }
            Driver::Mtdf => {
                let mut guess = 0.clamp(lo, hi);
                while lo < hi {
                    let test = if guess <= lo { lo } else { guess - 1 };
                    guess = self.narrow(pos, test, &mut lo, &mut hi);
                }
                lo
            }
            Driver::Deepening => {
                let mut from_top = true;
                while lo < hi {
                    let test = if from_top { hi - 1 } else { lo };
                    self.narrow(pos, test, &mut lo, &mut hi);
                    from_top = !from_top;
                }
                lo
            }
        };
        if weak { value.signum() } else { value }
    }

    /// Null-window tests that halve `[lo, hi]`, biased towards 0 (Pons): draws and small
    /// scores are common and their tests are the costly ones.
    fn bisect(&mut self, pos: &G, mut lo: i32, mut hi: i32) -> i32 {
        while lo < hi {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            self.narrow(pos, med, &mut lo, &mut hi);
        }
        lo
    }

    /// One null-window test "is the value above `test`?", narrowing `[lo, hi]`; returns the
    /// bound it found.
    fn narrow(&mut self, pos: &G, test: i32, lo: &mut i32, hi: &mut i32) -> i32 {
        let r = self.negamax(pos, test, test + 1);
        if self.stopped.is_some() {
            *lo = *hi;
            return r;
        }
        if r <= test {
            *hi = r.max(*lo);
        } else {
            *lo = r.min(*hi);
        }
        r.clamp(*lo, *hi)
    }

    /// Whether the value of `pos` is at most `bound` (any position, even one that is over or
    /// has an immediate win).
    pub fn value_at_most(&mut self, pos: &G, bound: i32) -> Result<bool, Stopped> {
        self.race(|worker| worker.value_at_most_alone(pos, bound))
    }

    fn value_at_most_alone(&mut self, pos: &G, bound: i32) -> bool {
        let (m, n) = (pos.max_plies(), pos.ply());
        let exact = match pos.status() {
            Status::Win(_) => Some(-win_at(m, n)),
            Status::Draw => Some(0),
            Status::Ongoing if pos.has_winning_move() => Some(win_at(m, n + 1)),
            Status::Ongoing => None,
        };
        match exact {
            Some(v) => v <= bound,
            None => self.negamax(pos, bound, bound + 1) <= bound,
        }
    }

    #[cold]
    fn check_limits(&mut self) {
        let all = self
            .shared
            .nodes
            .fetch_add(self.nodes - self.checked, Ordering::Relaxed)
            + (self.nodes - self.checked);
        self.checked = self.nodes;
        if self.limits.nodes.is_some_and(|n| all >= n) {
            self.stopped = Some(Halt::Limit(Stopped::Nodes));
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = Some(Halt::Limit(Stopped::Time));
        } else if self.solo_until.is_some_and(|n| self.nodes >= n)
            || (self.parallel && self.shared.done.load(Ordering::Relaxed))
        {
            self.stopped = Some(Halt::Yield);
        }
    }

    #[inline(always)]
    fn key(&self, pos: &G) -> u128 {
        if self.config.symmetry {
            pos.canonical_key()
        } else {
            pos.key()
        }
    }

    /// Fail-hard negamax with bounds from the number of plies left and from the table.
    pub fn negamax(&mut self, pos: &G, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(!pos.has_winning_move());
        self.nodes += 1;
        if self.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.check_limits();
        }
        if self.stopped.is_some() {
            return 0;
        }
        let m = pos.max_plies() as i32;
        let n = pos.ply() as i32;
        if let Some(oracle) = &self.oracle
            && n as u32 <= oracle.depth()
            && let Some(score) = oracle.score(pos.canonical_key())
        {
            return score;
        }
        // The table's answer loads from memory while the moves are generated.
        let use_table = m - n >= self.config.table_min_plies_left as i32;
        let key = if use_table { self.key(pos) } else { 0 };
        if use_table {
            self.table.prefetch(key);
        }
        let mut moves = MoveList::new();
        pos.safe_moves(&mut moves);
        if moves.is_empty() {
            // Every move lets the opponent win with the next ply.
            return -(m - n) / 2;
        }
        if n + 2 >= m {
            // Neither side can win before the board is full.
            return 0;
        }
        // The opponent cannot win with the next ply, nor we with this one.
        let lowest = -(m - 2 - n) / 2;
        if alpha < lowest {
            alpha = lowest;
            if alpha >= beta {
                return alpha;
            }
        }
        let mut highest = (m - 1 - n) / 2;
        if self.config.strategy_bounds {
            let (lo, hi) = pos.strategy_bounds();
            highest = highest.min(hi);
            if alpha < lo {
                alpha = lo;
                if alpha >= beta {
                    return alpha;
                }
            }
        }
        if beta > highest {
            beta = highest;
            if alpha >= beta {
                return beta;
            }
        }
        if moves.len() == 1 {
            // A forced move: nothing to choose, so nothing worth a table entry.
            return -self.negamax(&pos.play(moves[0].mv), -beta, -alpha);
        }

        let mut tt_move = None;
        if use_table && let Some(e) = self.table.probe(key) {
            tt_move = e.best;
            match e.bound {
                Bound::Exact => return e.value,
                Bound::Lower if e.value > alpha => {
                    alpha = e.value;
                    if alpha >= beta {
                        return alpha;
                    }
                }
                Bound::Upper if e.value < beta => {
                    beta = e.value;
                    if alpha >= beta {
                        return beta;
                    }
                }
                _ => {}
            }
        }

        if moves.len() > 1 && 3 * n < 2 * m {
            // Early in the game every child's bucket is fetched at once, so that the memory
            // latencies overlap; with ETC, any child whose stored bound already refutes the
            // window ends the search here.
            let mut keys = ArrayVec::<u128, MAX_MOVES>::new();
            for rm in &moves {
                let key = self.key(&pos.play(rm.mv));
                self.table.prefetch(key);
                keys.push(key);
            }
            if self.config.etc {
                for &key in &keys {
                    if let Some(e) = self.table.probe(key)
                        && e.bound != Bound::Lower
                        && -e.value >= beta
                    {
                        return -e.value;
                    }
                }
            }
        }

        self.order(pos, &mut moves, tt_move);

        let nodes_before = self.nodes;
        let mut best = None;
        let split = self.parallel && m - n >= SPLIT_MIN_PLIES_LEFT;
        // Indices into `moves` (at most MAX_MOVES = 320): u16 keeps the frame small.
        let mut deferred = ArrayVec::<u16, MAX_MOVES>::new();
        let mut next = 0;
        loop {
            // Every move in order, then the ones deferred because another thread had them.
            let (i, first_pass) = if next < moves.len() {
                (next, true)
            } else if let Some(&i) = deferred.get(next - moves.len()) {
                (i as usize, false)
            } else {
                break;
            };
            next += 1;
            let rm = moves[i];
            let child = pos.play(rm.mv);
            let claim = if split && first_pass && i > 0 {
                let (slot, tag) = Shared::busy_slot(self.key(&child));
                if self.shared.busy[slot].load(Ordering::Relaxed) == tag {
                    deferred.push(i as u16);
                    continue;
                }
                self.shared.busy[slot].store(tag, Ordering::Relaxed);
                Some((slot, tag))
            } else {
                None
            };
            let score = -self.negamax(&child, -beta, -alpha);
            if let Some((slot, tag)) = claim {
                let _ = self.shared.busy[slot].compare_exchange(
                    tag,
                    0,
                    Ordering::Relaxed,
                    Ordering::Relaxed,
                );
            }
            if self.stopped.is_some() {
                return 0;
            }
            if score >= beta {
                let code = pos.move_code(rm.mv);
                if self.config.history
                    && let Some(c) = code
                {
                    let h = &mut self.history[n as usize & 1][c as usize % HISTORY_SIZE];
                    *h = h.saturating_add(((m - n) * (m - n)) as u32);
                }
                if use_table {
                    self.table.store(
                        &mut self.log,
                        key,
                        score,
                        Bound::Lower,
                        code,
                        self.nodes - nodes_before,
                    );
                }
                return score;
            }
            if score > alpha {
                alpha = score;
                best = Some(rm.mv);
            }
        }
        let (bound, code) = match best {
            Some(mv) => (Bound::Exact, pos.move_code(mv)),
            None => (Bound::Upper, tt_move),
        };
        if use_table {
            self.table.store(
                &mut self.log,
                key,
                alpha,
                bound,
                code,
                self.nodes - nodes_before,
            );
        }
        alpha
    }

    /// Sorts moves best first: the table's move, then threat rank, then history; ties keep the
    /// game's order (a stable insertion sort: lists are short).
    #[inline(always)]
    fn order(&self, pos: &G, moves: &mut MoveList<RankedMove<G::Move>>, tt_move: Option<u8>) {
        if self.config.threat_order {
            pos.rank_moves(moves);
        }
        let history = &self.history[pos.ply() as usize & 1];
        for rm in moves.iter_mut() {
            let code = pos.move_code(rm.mv);
            let mut key = if self.config.threat_order {
                rm.rank << 20
            } else {
                0
            };
            if self.config.history
                && let Some(c) = code
            {
                key += history[c as usize % HISTORY_SIZE].min((1 << 20) - 1) as i32;
            }
            if self.config.tt_move && code.is_some() && code == tt_move {
                key = i32::MAX;
            }
            rm.rank = key;
        }
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && moves[j - 1].rank < moves[j].rank {
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}
