//! The facade the front-ends call, and the only door to the searches: [`Engine`] picks the
//! method for the game (the fastest exact one by default), applies limits (time, nodes, memory,
//! depth), and returns a [`Report`] (score, best moves, principal variation, nodes, time). It
//! also re-exports what a front-end needs to name: the settings ([`Options`], [`Config`],
//! [`Limits`], [`Handicap`]), the one stop type ([`Stop`]), the one error type ([`Error`]),
//! position counts ([`count`]), certificates and their verifier ([`verify`](fn@verify)).
//!
//! Around it, by capability: what is known before searching ([`knowledge`]: books,
//! strategies, databases, checkpoints), search spread over threads and machines
//! ([`distributed`]), and the playing engines and their matches ([`agent`]). The benchmarks'
//! harness is the command line's (`inarow bench`); what it needs of the library beside the
//! session is here: Victor's rules' audit ([`victor`]) and Pentago's midgame solver
//! ([`pentago_midgame`]).
//!
//! Defaults by kind of game:
//! - bounded games (Connect Four): alpha-beta with the galloping root driver, exact scores;
//! - games whose positions repeat (PopOut): df-pn proves the value (win / draw / loss), and the
//!   two-valued search finds the distance to the end when it is asked for
//!   ([`Options::distance`]). Their searches may recurse as deep as a line of play goes, so
//!   they run on a thread whose stack holds [`MAX_DEPTH`] plies, and a longer line stops the
//!   search with [`Stop::Depth`] instead of overflowing the stack.

pub mod agent;
mod backend;
mod certify;
pub mod distributed;
pub mod knowledge;

pub use crate::certificate::{Certificate, MAGIC as CERTIFICATE_MAGIC, VerifySummary, verify};
pub use crate::error::Error;
pub use crate::limits::{Cancel, Clock, Limits, MAX_DEPTH, Started, Stop, nodes_searched};
pub use crate::search::census::{Census, count};
pub use crate::search::heuristic;
pub use crate::search::retro::{Progress, RetroValue};
/// The seeded random numbers of the engine's random choices, for fronts that draw their own.
pub use crate::search::rng::SplitMix;
pub use crate::search::score::end_ply;
pub use crate::search::threats::ThreatBudget;
pub use crate::search::winner::Handicap;
pub use crate::search::{Config, Driver, Scheme};
pub use crate::solvers::pentago as pentago_midgame;
pub use certify::Certified;
pub use knowledge::checkpoint::Checkpoint;

/// Victor's threat rules checked against exhaustive values on boards small enough to
/// enumerate (`inarow bench --suite victor`, the full suite's check).
pub mod victor {
    pub use crate::search::cover::audit::{Audit, audit, boards};
    pub use crate::search::cover::{Options, Rule};
}

use crate::game::{GameLine, Kind, MoveList, Rules, Start, Status, Tactics};
use crate::search::alphabeta::SearchState;
pub use crate::search::alphabeta::profile::Profile;
use crate::search::retro::Lookup;
use crate::search::score::win_at;

use crate::limits::Instant;
use backend::{Backend, Build};
use knowledge::book::Book;
use knowledge::oracle::{self, Known, Oracle};
use knowledge::strategy::Strategy;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::Duration;

/// Which family of solver answers.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Algorithm {
    /// Alpha-beta: exact scores of bounded games (its root driver is in [`Config::driver`]); in a
    /// game that repeats, the two-valued search with the repetition rule and handicaps.
    AlphaBeta,
    /// Proof-number search (Allis), best first; win / draw / loss only.
    Pns,
    /// PN²: PNS with a bounded second-level PNS at each leaf; win / draw / loss only.
    Pn2,
    /// Depth-first proof-number search (Nagai); win / draw / loss only.
    DfPn,
    /// The exhaustive reference (every position, no pruning): small bounded games only.
    Minimax,
    /// Threat-space search alone: proves wins by sequences of threats (1), says nothing else.
    Tss,
}

impl Algorithm {
    /// Whether this algorithm gives only win / draw / loss.
    pub fn is_weak_only(self) -> bool {
        matches!(
            self,
            Algorithm::Pns | Algorithm::Pn2 | Algorithm::DfPn | Algorithm::Tss
        )
    }
}

impl FromStr for Algorithm {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "pns" => Ok(Algorithm::Pns),
            "pn2" => Ok(Algorithm::Pn2),
            "dfpn" => Ok(Algorithm::DfPn),
            "minimax" => Ok(Algorithm::Minimax),
            "tss" => Ok(Algorithm::Tss),
            _ => s.parse::<Driver>().map(|_| Algorithm::AlphaBeta).map_err(|_| {
                Error::Input(format!(
                    "unknown algorithm '{s}': expected gallop, bisect, mtdf, deepening, ab, pns, \
                     pn2, dfpn, minimax or tss"
                ))
            }),
        }
    }
}

impl fmt::Display for Algorithm {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Algorithm::AlphaBeta => "alphabeta",
            Algorithm::Pns => "pns",
            Algorithm::Pn2 => "pn2",
            Algorithm::DfPn => "dfpn",
            Algorithm::Minimax => "minimax",
            Algorithm::Tss => "tss",
        })
    }
}

/// What a front-end asks of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The family of solver; `None` = the game's default (see the module documentation).
    pub algorithm: Option<Algorithm>,
    /// The alpha-beta solver's techniques and table (the two-valued search's table too).
    pub config: Config,
    /// Only win / draw / loss (-1 / 0 / 1), not the exact score (always, for proof-number
    /// search and for games that repeat).
    pub weak: bool,
    /// Also the number of plies to the end of the game under perfect play, for a win or a loss
    /// ([`Report::plies`]).
    pub distance: bool,
    /// Memory budget of the proof-number searches, in MiB.
    pub mem_mb: usize,
    /// Initialise PNS / PN² leaves from the number of safe moves instead of 1 / 1 (default).
    pub heuristic_init: bool,
    /// Games that repeat: the occurrence of a position that draws (2 or 3).
    pub repetition: u32,
    /// Games that repeat: restrictions on the side to move that prove wins faster.
    pub handicap: Handicap,
    /// The threat-space search df-pn runs at every node (`None`: none).
    pub dfpn_threats: Option<ThreatBudget>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algorithm: None,
            config: Config::default(),
            weak: false,
            distance: false,
            dfpn_threats: Some(ThreatBudget::default()),
            mem_mb: 1024,
            heuristic_init: true,
            repetition: 2,
            handicap: Handicap::default(),
        }
    }
}

impl Options {
    /// These options as `sample`'s game takes them: a game whose positions repeat is searched
    /// on one thread, so a thread count meant for every game is cut to one there.
    #[must_use]
    pub fn fitted_to<G: Rules>(mut self, _sample: &G) -> Self {
        if <G::Kind as Kind<G>>::REPEATS {
            self.config.threads = 1;
        }
        self
    }

    fn mem_bytes(&self) -> Result<usize, Error> {
        self.mem_mb.checked_mul(1 << 20).ok_or_else(|| {
            Error::Input(format!("memory budget of {} MiB is too large", self.mem_mb))
        })
    }
}

/// The result of solving one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<M> {
    /// The score for the side to move; `None` when a limit stopped the search.
    pub score: Option<i32>,
    /// Why the search stopped before it answered (`None`: it answered).
    pub stopped: Option<Stop>,
    /// Every move that reaches the score (filled by [`Engine::solve_detailed`] and
    /// [`Engine::solve_moves`]; with a score and `stopped`, those found before the limit).
    pub best_moves: Vec<M>,
    /// A line of perfect play to the end of the game (filled by [`Engine::solve_detailed`]).
    pub pv: Vec<M>,
    /// Nodes searched, on every thread.
    pub nodes: u64,
    /// Wall-clock time of the solve.
    pub elapsed: Duration,
    /// The most memory the search's own structures held (the table, or the proof-number tree).
    pub peak_bytes: usize,
    /// With [`Options::distance`], for a win or a loss: the number of plies to the end of the
    /// game under perfect play (the winner wins as soon as it can, the loser puts it off).
    pub plies: Option<u32>,
    /// Where a limit stopped the search before the score: the bounds `lo..=hi` on the exact
    /// score that it had proven (alpha-beta's finished tests; `None` where none is known, or
    /// the engine answers win / draw / loss only).
    pub proven: Option<(i32, i32)>,
}

/// The score of one move, as [`Engine::analyze`] returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveScore<M> {
    /// A legal move of the analyzed position.
    pub mv: M,
    /// The score of playing it, for the side to move in the analyzed position; `None` when a
    /// limit stopped its search.
    pub score: Option<i32>,
}

/// The limits of one call of the engine under way (a solve, an analysis, a line): built when it
/// starts, passed to every search and oracle it asks, and dropped when it returns, so that
/// they share one deadline and one node budget and no limit outlives the call.
struct Call {
    /// The limits with their clock started, lent to the backend's searches.
    clock: Clock,
    /// The engine's node count when the call started: the oracles get what is left.
    nodes_at_start: u64,
}

/// Stack of the thread that runs the searches of a game that repeats: [`MAX_DEPTH`] plies of
/// the deepest-framed of them (the two-valued search keeps a ranked move list per ply: 6 KiB
/// a ply measured on PopOut 7x6), with room to spare. Only the pages a search reaches are ever
/// touched.
const SEARCH_STACK: usize = MAX_DEPTH as usize * (8 << 10) + (16 << 20);

/// A solver with its table, for positions of one game.
pub struct Engine<G: Tactics> {
    backend: Box<dyn Backend<G>>,
    /// The family that answers values (the options', or the game's default).
    method: Algorithm,
    /// Only the sign of a bounded game's score.
    weak: bool,
    distance: bool,
    mem_bytes: usize,
    dfpn_threats: Option<ThreatBudget>,
    /// Where the certifying df-pn uses Victor's threat rules (the certificates then carry
    /// their witnesses): [`Config::victor_plies`](crate::search::Config).
    victor_plies: Option<u32>,
    /// The game line being searched from: its last position is the one to solve, and the
    /// positions before it count for the repetition rule.
    game: GameLine<G>,
    /// What the engine asks before it searches, in turn: books and databases, then the game's
    /// own exact solver where it answers (by default, for win / draw / loss).
    oracles: Vec<Box<dyn Oracle<G>>>,
    /// A proven winning strategy's moves ([`Strategy`]), which players play at once.
    strategy: Option<Arc<Strategy>>,
    /// The longest line seen whose winner's moves were the strategy's: the next question
    /// checks only the moves after it.
    strategy_line: Vec<G::Move>,
}

impl<G: Tactics> Engine<G> {
    /// An engine for positions of `sample`'s game (any position of it), set up by `options`.
    ///
    /// # Panics
    /// Where [`Engine::try_new`] returns an error.
    pub fn new(sample: &G, options: Options) -> Self {
        Self::try_new(sample, options).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Engine::new`], but settings that do not fit the game, or a table the machine
    /// cannot hold, are an error.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for settings that do not fit the game or each other,
    /// [`Error::Memory`] for a table the machine cannot hold, [`Error::Input`] for a memory
    /// budget past the address space.
    pub fn try_new(sample: &G, options: Options) -> Result<Self, Error> {
        let mem_bytes = options.mem_bytes()?;
        if options.weak && options.distance {
            return Err(Error::Unsupported(
                "--distance needs more than --weak: win / draw / loss says nothing of \
                        when the game ends"
                    .into(),
            ));
        }
        let weak_only = options.algorithm.is_some_and(Algorithm::is_weak_only)
            || (G::WEAK_BY_DEFAULT && options.algorithm.is_none() && !options.distance);
        let own_solver = options.algorithm.is_none() && (options.weak || weak_only);
        if options.distance && weak_only && !G::Kind::REPEATS {
            return Err(Error::Unsupported(format!(
                "--distance: {} scores are exact only with alpha-beta, not with {}",
                sample.name(),
                options.algorithm.expect("weak-only is some")
            )));
        }
        let (backend, method) = G::Kind::visit(Build {
            sample,
            options: &options,
        })?;
        Ok(Engine {
            backend,
            method,
            weak: options.weak || weak_only,
            distance: options.distance,
            mem_bytes,
            dfpn_threats: options.dfpn_threats,
            victor_plies: options.config.victor_plies,
            game: GameLine::new(*sample),
            oracles: own_solver
                .then(|| oracle::own_solver(sample))
                .flatten()
                .into_iter()
                .collect(),
            strategy: None,
            strategy_line: Vec::new(),
        })
    }

    /// The family of search that answers values: the one asked for, or the game's default.
    pub fn method(&self) -> Algorithm {
        self.method
    }

    /// Whether scores are only win / draw / loss (always, in a game that repeats).
    pub fn is_weak(&self) -> bool {
        self.weak || G::Kind::REPEATS
    }

    /// Forgets everything learnt (the tables), as before a benchmark position.
    pub fn reset(&mut self) {
        self.backend.reset();
        for oracle in &mut self.oracles {
            oracle.reset();
        }
    }

    /// Touches the memory of the engine's tables now, so that no later search pays for its
    /// first touch (page faults): call it once on an engine that will be reused and timed
    /// (benchmarks, a server's engines). A search otherwise touches its table on a helper
    /// thread as it runs, using the part touched so far.
    pub fn ready(&mut self) {
        self.backend.ready();
    }

    /// Answers from the book that ships for this game ([`Book::builtin_for`]), if there is one
    /// and the algorithm reads books, and keeps the winning strategy that ships for it
    /// ([`Strategy::builtin_for`]) for players; whether it reads the book.
    pub fn use_builtin_book(&mut self, sample: &G) -> bool {
        self.strategy = Strategy::builtin_for(sample);
        Book::builtin_for(sample).is_some_and(|book| self.set_book(sample, book).is_ok())
    }

    /// Every move at the end of `line` that wins by the engine's strategy, where the side to
    /// move there has one and the line's earlier moves of that side were the strategy's
    /// ([`Strategy::followed`]): its move first, then those that reach the same position in
    /// another orientation ([`Strategy::moves_at`]).
    pub fn strategy_moves(&mut self, line: &GameLine<G>) -> Vec<G::Move> {
        let Some(strategy) = self.strategy.clone() else {
            return Vec::new();
        };
        if !self.followed_strategy(line) {
            return Vec::new();
        }
        strategy.moves_at(line.position())
    }

    /// What the engine's winning strategy proves at the end of `line` (the whole game played,
    /// for [`Strategy::followed`]): 1 where the side to move has the strategy's move, -1 where
    /// it loses to the strategy, `None` where the strategy says nothing.
    pub fn strategy_value(&mut self, line: &GameLine<G>) -> Option<i32> {
        if !self.strategy_moves(line).is_empty() {
            Some(1)
        } else if self.lost_to_strategy(line) {
            Some(-1)
        } else {
            None
        }
    }

    /// Whether the side to move at the end of `line` loses against the engine's winning
    /// strategy, which the line has followed: every move loses.
    pub fn lost_to_strategy(&mut self, line: &GameLine<G>) -> bool {
        let to_move = line.position().side_to_move();
        self.strategy
            .as_ref()
            .is_some_and(|s| s.prover() != to_move)
            && line.position().status() == Status::Ongoing
            && self.followed_strategy(line)
    }

    /// Whether the winner's moves of `line` were the strategy's ([`Strategy::followed`]).
    fn followed_strategy(&mut self, line: &GameLine<G>) -> bool {
        let Some(strategy) = self.strategy.as_ref() else {
            return false;
        };
        let moves = line.moves();
        let known = if moves.starts_with(&self.strategy_line) {
            self.strategy_line.len()
        } else {
            0
        };
        if !strategy.followed(*line.start(), moves, known) {
            return false;
        }
        self.strategy_line = moves.to_vec();
        true
    }

    /// Answers positions in `book` from it, before searching and inside the search (alpha-beta
    /// only); checks that it is for this game.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a book of another game, or an algorithm that reads none.
    pub fn set_book(&mut self, sample: &G, book: Arc<Book>) -> Result<(), Error> {
        if book.game() != sample.name() {
            return Err(Error::Unsupported(format!(
                "the book is for {}, not for {}",
                book.game(),
                sample.name()
            )));
        }
        self.backend.set_oracle(book.clone()).map_err(|e| {
            Error::Unsupported(format!("{e}, not with this algorithm on {}", sample.name()))
        })?;
        self.add_stored(Box::new(book));
        Ok(())
    }

    /// Asks `oracle` before the others: stored knowledge answers at once, before a solver.
    fn add_stored(&mut self, oracle: Box<dyn Oracle<G>>) {
        self.oracles.insert(0, oracle);
    }

    /// What the alpha-beta search's nodes did since the engine was made, by ply: only when
    /// built with the feature `profile`.
    pub fn profile(&self) -> Option<Profile> {
        self.backend.profile()
    }

    /// What the searches have learnt, when the method keeps it in a table (alpha-beta); the
    /// table is readied first ([`Engine::ready`]).
    pub fn state(&mut self) -> Option<SearchState> {
        self.backend.state()
    }

    /// Answers every position the database knows from it, without searching. Its values are
    /// those of the positions themselves: in games that repeat, earlier positions of the game
    /// do not count as repetitions.
    pub fn set_database(&mut self, database: Arc<dyn Lookup<G>>) {
        self.add_stored(Box::new(oracle::Database(database)));
    }

    /// Memory held by the table or used by the proof-number search, in bytes.
    pub fn table_bytes(&self) -> usize {
        self.backend.table_bytes()
    }

    /// Nodes searched since the engine was made.
    pub fn nodes(&self) -> u64 {
        self.backend.nodes() + self.oracles.iter().map(|o| o.nodes()).sum::<u64>()
    }

    /// The memory the engine's exact solver needs for `pos` beyond its tables, where that
    /// depends on the position (Pentago's midgame solver), in bytes: a front end with a small
    /// budget (a browser tab) asks before it grows.
    pub fn bytes_needed(&self, pos: &G) -> Option<u64> {
        self.oracles.iter().find_map(|o| o.bytes_needed(pos))
    }

    /// The fewest stones from which that memory fits in `bytes`, where it depends on them (see
    /// [`Engine::bytes_needed`]): a front end whose budget cannot grow enough says where exact
    /// answers start rather than ask for memory it cannot have.
    pub fn fits_from(&self, bytes: u64) -> Option<u32> {
        self.oracles.iter().find_map(|o| o.fits_from(bytes))
    }

    /// Runs `f` where the search may recurse as deep as it needs: on a thread with a stack for
    /// [`MAX_DEPTH`] plies in a game that repeats, here otherwise (a bounded game's lines end by
    /// its length bound).
    fn on_search_stack<R: Send>(&mut self, f: impl FnOnce(&mut Self) -> R + Send) -> R {
        // The web has no threads: there the module's stack is set large when it is linked
        // (wasm/.cargo/config.toml).
        if !G::Kind::REPEATS || cfg!(target_family = "wasm") {
            return f(self);
        }
        std::thread::scope(|scope| {
            std::thread::Builder::new()
                .stack_size(SEARCH_STACK)
                .spawn_scoped(scope, move || f(self))
                .expect("the search thread starts")
                .join()
                .expect("the search thread finishes")
        })
    }

    /// The score of `pos` and, with [`Options::distance`], its plies to the end, from the first
    /// oracle that knows them in the form the engine gives.
    fn looked_up(&mut self, pos: &G, call: &Call) -> Result<Option<(i32, Option<u32>)>, Stop> {
        let budget = self.oracle_budget(call);
        for i in 0..self.oracles.len() {
            if let Some(known) = self.oracles[i].ask(pos, &budget)?
                && let Some(value) = self.known_value(pos, known)
            {
                return Ok(Some(value));
            }
        }
        Ok(None)
    }

    /// Readies the oracles to answer the children of the end of the line under way, which
    /// the engine asks next.
    fn learn_moves(&mut self, call: &Call) -> Result<(), Stop> {
        let pos = *self.game.position();
        let budget = self.oracle_budget(call);
        for oracle in &mut self.oracles {
            oracle.learn_moves(&pos, &budget)?;
        }
        Ok(())
    }

    /// What the engine answers for `pos` from what an oracle knows, if that is enough.
    fn known_value(&self, pos: &G, known: Known) -> Option<(i32, Option<u32>)> {
        let (sign, plies) = match known {
            Known::Score(score) => {
                let plies = match G::Kind::max_plies(pos) {
                    Some(m) if self.distance && score != 0 => {
                        end_ply(m, pos.ply(), score).map(|e| e - pos.ply())
                    }
                    _ => None,
                };
                return Some((if self.weak { score.signum() } else { score }, plies));
            }
            Known::Sign(sign) => return self.is_weak().then_some((sign, None)),
            Known::Outcome(RetroValue::Draw) => return Some((0, None)),
            Known::Outcome(RetroValue::Win(d)) => (1, d),
            Known::Outcome(RetroValue::Loss(d)) => (-1, d),
        };
        let distance = self.distance.then_some(plies);
        Some(match G::Kind::max_plies(pos) {
            Some(m) if !self.weak => (sign * win_at(m, pos.ply() + plies), distance),
            _ => (sign, distance),
        })
    }

    /// A call under `limits`, their clock started now.
    fn call(&self, limits: &Limits) -> Call {
        Call {
            clock: Clock::new(limits.clone()),
            nodes_at_start: self.nodes(),
        }
    }

    /// The limits an oracle answers under in `call`: what the call has left.
    fn oracle_budget(&self, call: &Call) -> oracle::Budget {
        let spent = self.nodes() - call.nodes_at_start;
        oracle::budget(&call.clock, spent, self.mem_bytes)
    }

    /// The score at the end of the game line under way, under the call's limits: from an
    /// oracle if one knows it.
    fn value(&mut self, call: &mut Call) -> Result<i32, Stop> {
        match self.looked_up(&self.game.position().clone(), call)? {
            Some((score, _)) => Ok(score),
            None => self.backend.value(&self.game, self.weak, &mut call.clock),
        }
    }

    /// The score at the end of the line under way, and with [`Options::distance`] the plies to
    /// the end.
    fn score_and_plies(&mut self, call: &mut Call) -> Result<(i32, Option<u32>), Stop> {
        let pos = *self.game.position();
        if let Some(known) = self.looked_up(&pos, call)? {
            return Ok(known);
        }
        let score = self.backend.value(&self.game, self.weak, &mut call.clock)?;
        if !self.distance || score == 0 {
            return Ok((score, None));
        }
        let plies = match G::Kind::max_plies(&pos) {
            // The exact score of a bounded game tells when it ends.
            Some(m) => end_ply(m, pos.ply(), score).map(|e| e - pos.ply()),
            None => {
                let me = pos.side_to_move();
                let winner = if score > 0 { me } else { me.opponent() };
                self.backend.distance(&self.game, winner, &mut call.clock)?
            }
        };
        Ok((score, plies))
    }

    /// Runs `f` on the search stack with `at` as the game line under way.
    fn searching<R: Send>(
        &mut self,
        at: &impl Start<G>,
        f: impl FnOnce(&mut Self) -> R + Send,
    ) -> R {
        let line = at.to_line();
        self.on_search_stack(move |engine| {
            engine.game = line;
            f(engine)
        })
    }

    /// The score of a position, or of the end of a game line (whose earlier positions count
    /// for the repetition rule), under `limits`.
    pub fn solve(&mut self, at: &impl Start<G>, limits: &Limits) -> Report<G::Move> {
        self.searching(at, |engine| {
            let mut call = engine.call(limits);
            engine.solve_here(&mut call)
        })
    }

    fn solve_here(&mut self, call: &mut Call) -> Report<G::Move> {
        let start = Instant::now();
        let nodes0 = self.nodes();
        let result = self.score_and_plies(call);
        let proven = match result {
            Err(_) if !self.weak => self.backend.proven(&self.game),
            _ => None,
        };
        Report {
            score: result.ok().map(|(score, _)| score),
            stopped: result.err(),
            best_moves: Vec::new(),
            pv: Vec::new(),
            nodes: self.nodes() - nodes0,
            elapsed: start.elapsed(),
            peak_bytes: self.backend.peak_bytes(),
            plies: result.ok().and_then(|(_, plies)| plies),
            proven,
        }
    }

    /// Whether the side to move wins, the two-valued question (a draw counts as no): the
    /// report's score is 1 for a win, 0 for no win. Cheaper than the value: alpha-beta makes
    /// one null-window test, a proof-number search one proof.
    pub fn wins(&mut self, at: &impl Start<G>, limits: &Limits) -> Report<G::Move> {
        self.searching(at, |engine| {
            let mut call = engine.call(limits);
            let start = Instant::now();
            let nodes0 = engine.nodes();
            let result = match engine.looked_up(&engine.game.position().clone(), &call) {
                Ok(Some((score, _))) => Ok(score > 0),
                Ok(None) => engine.backend.wins(&engine.game, &mut call.clock),
                Err(stop) => Err(stop),
            };
            Report {
                score: result.ok().map(i32::from),
                stopped: result.err(),
                best_moves: Vec::new(),
                pv: Vec::new(),
                nodes: engine.nodes() - nodes0,
                elapsed: start.elapsed(),
                peak_bytes: engine.backend.peak_bytes(),
                plies: None,
                proven: None,
            }
        })
    }

    /// The score, every move that reaches it, and a principal variation. A limit that stops
    /// the line keeps the moves and the line found so far, and says so in `stopped`. `limits`
    /// hold for all of it.
    pub fn solve_detailed(&mut self, at: &impl Start<G>, limits: &Limits) -> Report<G::Move> {
        self.searching(at, |engine| engine.detailed(true, limits))
    }

    /// The score and every move that reaches it, without a line, under `limits`.
    pub fn solve_moves(&mut self, at: &impl Start<G>, limits: &Limits) -> Report<G::Move> {
        self.searching(at, |engine| engine.detailed(false, limits))
    }

    /// The score and one move that keeps it: the score from a book or a database where one
    /// holds it, else a search; then each move, in the order `order` leaves them, tested with
    /// a null window until one keeps the score (a perfect move needs no other move's value).
    /// The report's `best_moves` holds that move, or none where a limit stopped the tests.
    /// `limits` hold for all of it.
    pub fn keeping_move(
        &mut self,
        at: &impl Start<G>,
        order: impl FnOnce(&mut [G::Move]) + Send,
        limits: &Limits,
    ) -> Report<G::Move> {
        self.searching(at, |engine| {
            let mut call = engine.call(limits);
            let start = Instant::now();
            let nodes0 = engine.nodes();
            let mut report = engine.solve_here(&mut call);
            if let Some(score) = report.score {
                match engine.first_keeping(score, order, &mut call) {
                    Ok(found) => report.best_moves.extend(found),
                    Err(stop) => report.stopped = Some(stop),
                }
            }
            report.nodes = engine.nodes() - nodes0;
            report.elapsed = start.elapsed();
            report
        })
    }

    /// Every move at `at` that keeps its score `score` (known: a null-window test each, no
    /// search for the score), in the report's `best_moves`, under `limits`.
    pub fn moves_keeping(
        &mut self,
        at: &impl Start<G>,
        score: i32,
        limits: &Limits,
    ) -> Report<G::Move> {
        self.searching(at, |engine| {
            let mut call = engine.call(limits);
            let start = Instant::now();
            let nodes0 = engine.nodes();
            let mut best_moves = Vec::new();
            let stopped = engine.best_moves(score, &mut best_moves, &mut call).err();
            Report {
                score: Some(score),
                stopped,
                best_moves,
                pv: Vec::new(),
                nodes: engine.nodes() - nodes0,
                elapsed: start.elapsed(),
                peak_bytes: engine.backend.peak_bytes(),
                plies: None,
                proven: None,
            }
        })
    }

    /// The first move, in the order `order` leaves them, that keeps the score `score` of the
    /// end of the line under way: first among the moves whose value the engine knows without
    /// a search (its books and databases hold the children a perfect player's moves reach),
    /// then by a null-window test each.
    fn first_keeping(
        &mut self,
        score: i32,
        order: impl FnOnce(&mut [G::Move]),
        call: &mut Call,
    ) -> Result<Option<G::Move>, Stop> {
        self.learn_moves(call)?;
        let mut moves = MoveList::new();
        self.game.position().legal_moves(&mut moves);
        order(&mut moves);
        let mover = self.game.position().side_to_move();
        let mut unknown = MoveList::new();
        for mv in moves {
            self.game.play(mv);
            let child = *self.game.position();
            // A win at once is the best a won position has; a draw at once keeps a draw.
            let known = match child.status() {
                Status::Win(p) if p == mover => Ok(Some((-score.max(1), None))),
                Status::Draw => Ok(Some((0, None))),
                _ => self.looked_up(&child, call),
            };
            self.game.undo();
            match known? {
                Some((value, _)) if -value == score => return Ok(Some(mv)),
                Some(_) => {}
                None => unknown.push(mv),
            }
        }
        for mv in unknown {
            if self.keeps_score(mv, score, call)? {
                return Ok(Some(mv));
            }
        }
        Ok(None)
    }

    fn detailed(&mut self, with_line: bool, limits: &Limits) -> Report<G::Move> {
        let mut call = self.call(limits);
        let start = Instant::now();
        let nodes0 = self.nodes();
        let mut report = self.solve_here(&mut call);
        if let Some(score) = report.score {
            // A limit keeps the moves found before it.
            if let Err(stop) = self.best_moves(score, &mut report.best_moves, &mut call) {
                report.stopped = Some(stop);
            }
            if with_line && report.stopped.is_none() {
                let (pv, stop) = self.walk_line(score, &mut call);
                report.pv = pv;
                report.stopped = stop;
            }
        }
        report.nodes = self.nodes() - nodes0;
        report.elapsed = start.elapsed();
        report
    }

    /// A line of perfect play from a position whose score is `score`, as far as `limits` let
    /// it go: it may end before the game does.
    pub fn line(&mut self, at: &impl Start<G>, score: i32, limits: &Limits) -> Vec<G::Move> {
        self.searching(at, |engine| {
            let mut call = engine.call(limits);
            engine.walk_line(score, &mut call).0
        })
    }

    /// The line of [`Engine::line`] from the end of the line under way, under the call's
    /// limits, and the stop that cut it short; the line under way is left as it was.
    fn walk_line(&mut self, score: i32, call: &mut Call) -> (Vec<G::Move>, Option<Stop>) {
        let mut pv = Vec::new();
        let result = self.walk_pv(&mut pv, score, call);
        for _ in &pv {
            self.game.undo();
        }
        (pv, result.err())
    }

    /// Whether playing `mv` at the end of the line under way keeps its score `score`.
    fn keeps_score(&mut self, mv: G::Move, score: i32, call: &mut Call) -> Result<bool, Stop> {
        if self.is_weak() && score < 0 {
            return Ok(true);
        }
        self.game.play(mv);
        let child = *self.game.position();
        let keeps = match self.looked_up(&child, call) {
            Ok(Some((value, _))) => Ok(-value == score),
            Ok(None) => self
                .backend
                .value_at_most(&self.game, self.weak, -score, &mut call.clock),
            Err(stop) => Err(stop),
        };
        self.game.undo();
        keeps
    }

    /// Every move at the end of the line under way that keeps its score `score`, into `best`
    /// (those found before a limit stops the search, if one does).
    fn best_moves(
        &mut self,
        score: i32,
        best: &mut Vec<G::Move>,
        call: &mut Call,
    ) -> Result<(), Stop> {
        self.learn_moves(call)?;
        let mut moves = MoveList::new();
        self.game.position().legal_moves(&mut moves);
        for mv in moves {
            if self.keeps_score(mv, score, call)? {
                best.push(mv);
            }
        }
        Ok(())
    }

    /// Follows moves that keep the score until the game ends (or, in a game that repeats, until
    /// a position comes back: the line then goes round for ever), playing them on the line
    /// under way and into `pv`.
    fn walk_pv(
        &mut self,
        pv: &mut Vec<G::Move>,
        mut score: i32,
        call: &mut Call,
    ) -> Result<(), Stop> {
        loop {
            let pos = *self.game.position();
            if pos.status() != Status::Ongoing || self.game.occurrences_before(pos.key()) > 0 {
                return Ok(());
            }
            self.learn_moves(call)?;
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut next = None;
            for mv in moves {
                if self.keeps_score(mv, score, call)? {
                    next = Some(mv);
                    break;
                }
            }
            let Some(mv) = next else { return Ok(()) };
            self.game.play(mv);
            pv.push(mv);
            score = -score;
        }
    }

    /// The score of every legal move, best first (moves of equal score in the game's order).
    /// `limits` apply to the whole analysis; moves not reached have no score.
    pub fn analyze(&mut self, at: &impl Start<G>, limits: &Limits) -> Vec<MoveScore<G::Move>> {
        self.searching(at, |engine| {
            let mut call = engine.call(limits);
            let pos = *engine.game.position();
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut scores: Vec<MoveScore<G::Move>> = Vec::new();
            // The game's own solver answers the moves with the position; a stop shows as the
            // moves left without a score.
            let _ = engine.learn_moves(&call);
            for mv in moves {
                engine.game.play(mv);
                let score = engine.value(&mut call).ok().map(|s| -s);
                engine.game.undo();
                scores.push(MoveScore { mv, score });
            }
            scores.sort_by_key(|s| std::cmp::Reverse(s.score));
            scores
        })
    }
}
