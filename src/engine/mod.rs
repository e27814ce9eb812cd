//! The facade the front-ends call: picks the algorithm, applies limits, and returns a
//! [`Report`] (score, best moves, principal variation, nodes, time). Front-ends never reach past
//! it into search internals.

pub mod bench;
pub mod book;
mod file;
pub mod retro;

use crate::game::{Game, MoveList, Status};
use crate::search::alphabeta::Limits;
use crate::search::dfpn::DfPn;
use crate::search::pn::{Goal, Prover, StopReason, Verdict, weak_value};
use crate::search::pns::{Pn2, Pns};
use crate::search::proof::{self, Proof};
use crate::search::retro::{Lookup, Value};
use crate::search::score::win_at;
use crate::search::winner::{Handicap, WinSearch};
use crate::search::{AlphaBeta, Config};
use book::Book;
use std::fmt;
use std::str::FromStr;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// Which family of solver answers.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Algorithm {
    /// The exact alpha-beta solver (its root driver is in [`Config::driver`]).
    #[default]
    AlphaBeta,
    /// Proof-number search (Allis), best first; win / draw / loss only.
    Pns,
    /// PN²: PNS with a bounded second-level PNS at each leaf; win / draw / loss only.
    Pn2,
    /// Depth-first proof-number search (Nagai); win / draw / loss only.
    DfPn,
}

impl Algorithm {
    /// Whether this algorithm gives only win / draw / loss.
    pub fn is_weak_only(self) -> bool {
        self != Algorithm::AlphaBeta
    }
}

impl FromStr for Algorithm {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "pns" => Ok(Algorithm::Pns),
            "pn2" => Ok(Algorithm::Pn2),
            "dfpn" => Ok(Algorithm::DfPn),
            _ => Err(format!("unknown proof-number algorithm '{s}'")),
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
        })
    }
}

/// What a front-end asks of the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Options {
    pub algorithm: Algorithm,
    /// The alpha-beta solver's techniques and table.
    pub config: Config,
    /// Only win / draw / loss (-1 / 0 / 1), not the exact score (always, for proof-number search).
    pub weak: bool,
    /// Limits on each call (solve, or analyze as a whole).
    pub limits: Limits,
    /// Memory budget of the proof-number searches, in MiB.
    pub mem_mb: usize,
    /// Initialise PNS / PN² leaves from the number of safe moves instead of 1 / 1 (default).
    pub heuristic_init: bool,
    /// Games that repeat: the occurrence of a position that draws (2 or 3).
    pub repetition: u32,
    /// Games that repeat: restrictions on the side to move that prove wins faster.
    pub handicap: Handicap,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            algorithm: Algorithm::AlphaBeta,
            config: Config::default(),
            weak: false,
            limits: Limits::default(),
            mem_mb: 1024,
            heuristic_init: true,
            repetition: 2,
            handicap: Handicap::default(),
        }
    }
}

/// The result of solving one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<M> {
    /// The score for the side to move; `None` when a limit stopped the search.
    pub score: Option<i32>,
    pub stopped: Option<StopReason>,
    /// Every move that reaches the score (filled by [`Engine::solve_detailed`]).
    pub best_moves: Vec<M>,
    /// A line of perfect play to the end of the game (filled by [`Engine::solve_detailed`]).
    pub pv: Vec<M>,
    pub nodes: u64,
    pub elapsed: Duration,
    /// The most memory the search's own structures held (the table, or the proof-number tree).
    pub peak_bytes: usize,
    /// Games that repeat, exact mode: the number of plies to the end of the game under perfect
    /// play (the winner wins as soon as it can, the loser puts it off), for a win or a loss.
    pub plies: Option<u32>,
}

/// The score of one move, as [`Engine::analyze`] returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveScore<M> {
    pub mv: M,
    pub score: Option<i32>,
}

/// The solver behind an engine.
enum Backend<G: Game> {
    AlphaBeta(Box<AlphaBeta<G>>),
    /// Games that repeat: two-valued searches with the repetition rule.
    Repeating(Box<WinSearch<G>>),
    Prover(Box<dyn Prover<G>>),
}

/// The longest distance the engine looks for (plies): a table key keeps at most 254 plies left.
const MOST_PLIES: u32 = 253;

/// A solver with its table, for positions of one game.
pub struct Engine<G: Game> {
    backend: Backend<G>,
    weak: bool,
    limits: Limits,
    mem_bytes: usize,
    handicap: Handicap,
    /// Exact keys of the positions before the one being solved (for the repetition rule).
    history: Vec<u128>,
    /// A strong solution answering before any search.
    database: Option<Arc<dyn Lookup<G>>>,
}

impl<G: Game> Engine<G> {
    pub fn new(sample: &G, options: Options) -> Self {
        Self::try_new(sample, options).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Engine::new`], but a table the machine cannot hold is an error.
    pub fn try_new(sample: &G, options: Options) -> Result<Self, String> {
        let mem_bytes = options
            .mem_mb
            .checked_mul(1 << 20)
            .ok_or_else(|| format!("memory budget of {} MiB is too large", options.mem_mb))?;
        let limits = options.limits;
        if !sample.may_repeat() && !options.handicap.is_none() {
            return Err(format!(
                "handicaps apply to games whose positions repeat, not to {}",
                sample.name()
            ));
        }
        if sample.may_repeat() && options.algorithm != Algorithm::AlphaBeta {
            if options.repetition != 2 {
                return Err(format!(
                    "--repetition {}: the proof-number searches know the rule of 2 only",
                    options.repetition
                ));
            }
            if !options.handicap.is_none() {
                return Err("handicaps apply to the alpha-beta search only".into());
            }
        }
        let backend = match options.algorithm {
            Algorithm::AlphaBeta if sample.may_repeat() => {
                if options.config.threads > 1 {
                    return Err(format!(
                        "--threads: {} is searched on one thread",
                        sample.name()
                    ));
                }
                Backend::Repeating(Box::new(WinSearch::try_new(
                    sample,
                    options.config.tt_mb,
                    options.config.symmetry,
                    options.repetition,
                )?))
            }
            Algorithm::AlphaBeta => {
                Backend::AlphaBeta(Box::new(AlphaBeta::try_new(sample, options.config)?))
            }
            Algorithm::Pns => Backend::Prover(Box::new(Pns::new(
                mem_bytes,
                limits,
                options.heuristic_init,
            ))),
            Algorithm::Pn2 => Backend::Prover(Box::new(Pn2::new(
                mem_bytes,
                limits,
                options.heuristic_init,
            ))),
            Algorithm::DfPn => Backend::Prover(Box::new(DfPn::try_new(mem_bytes, limits)?)),
        };
        Ok(Engine {
            backend,
            weak: options.weak || options.algorithm.is_weak_only() || !options.handicap.is_none(),
            limits,
            mem_bytes,
            handicap: options.handicap,
            history: Vec::new(),
            database: None,
        })
    }

    /// Forgets everything learnt (the table), as before a benchmark position.
    pub fn reset(&mut self) {
        match &mut self.backend {
            Backend::AlphaBeta(s) => s.reset(),
            Backend::Repeating(s) => s.reset(),
            Backend::Prover(p) => p.clear(),
        }
    }

    /// The exact keys of the positions that occurred before the next one to solve, oldest
    /// first: they count for the repetition rule of games that repeat.
    pub fn set_history(&mut self, history: Vec<u128>) {
        self.history = history;
    }

    /// Answers positions in `book` from it (alpha-beta only); checks that it is for this game.
    pub fn set_book(&mut self, sample: &G, book: Arc<Book>) -> Result<(), String> {
        if book.game() != sample.name() {
            return Err(format!(
                "the book is for {}, not for {}",
                book.game(),
                sample.name()
            ));
        }
        match &mut self.backend {
            Backend::AlphaBeta(s) => {
                s.set_oracle(Some(book));
                Ok(())
            }
            _ => Err(format!(
                "--book works with the alpha-beta algorithms on games that never repeat, not \
                 with this algorithm on {}",
                sample.name()
            )),
        }
    }

    /// Answers every position the database knows from it, without searching. Its values are
    /// those of the positions themselves: in games that repeat, earlier positions of the game
    /// do not count as repetitions.
    pub fn set_database(&mut self, database: Arc<dyn Lookup<G>>) {
        self.database = Some(database);
    }

    /// The score and distance of `pos` from the database, if it has them.
    fn looked_up(&self, pos: &G) -> Option<(i32, Option<u32>)> {
        let value = self.database.as_ref()?.lookup(pos)?;
        let (sign, plies) = match value {
            Value::Draw => return Some((0, None)),
            Value::Win(d) => (1, d),
            Value::Loss(d) => (-1, d),
        };
        Some(if self.weak {
            (sign, None)
        } else if pos.may_repeat() {
            (sign, Some(plies))
        } else {
            (sign * win_at(pos.max_plies(), pos.ply() + plies), None)
        })
    }

    /// Memory held by the table or budgeted for the proof-number search, in bytes.
    pub fn table_bytes(&self) -> usize {
        match &self.backend {
            Backend::AlphaBeta(s) => s.table_bytes(),
            Backend::Repeating(s) => s.table_bytes(),
            _ => self.mem_bytes,
        }
    }

    /// Whether scores are only win / draw / loss.
    pub fn is_weak(&self) -> bool {
        self.weak
    }

    fn set_limits(&mut self) {
        let limits = self.limits;
        match &mut self.backend {
            Backend::AlphaBeta(s) => s.set_limits(limits),
            Backend::Repeating(s) => s.set_limits(limits),
            Backend::Prover(p) => p.set_limits(limits),
        }
    }

    /// The score of `pos` under the limits already set: from the database if it has it.
    fn value(&mut self, pos: &G) -> Result<i32, StopReason> {
        match self.looked_up(pos) {
            Some((score, _)) => Ok(score),
            None => self.searched_value(pos),
        }
    }

    /// The score of `pos` by search (the database not asked).
    fn searched_value(&mut self, pos: &G) -> Result<i32, StopReason> {
        let weak = self.weak;
        match &mut self.backend {
            Backend::AlphaBeta(s) => s.solve(pos, weak).map_err(StopReason::from),
            Backend::Repeating(s) if !self.handicap.is_none() => {
                let me = pos.side_to_move();
                if s.wins(pos, me, self.handicap, &self.history)? {
                    Ok(1)
                } else {
                    Err(StopReason::Handicap)
                }
            }
            Backend::Repeating(s) => s.value(pos, &self.history),
            Backend::Prover(p) => {
                let me = pos.side_to_move();
                let history = &self.history;
                weak_value(|goal| p.prove_for(pos, me, goal, history))
            }
        }
    }

    /// Nodes searched since the engine was made.
    pub fn nodes(&self) -> u64 {
        match &self.backend {
            Backend::AlphaBeta(s) => s.nodes(),
            Backend::Repeating(s) => s.nodes(),
            Backend::Prover(p) => p.stats().expanded,
        }
    }

    fn peak_bytes(&self) -> usize {
        match &self.backend {
            Backend::AlphaBeta(s) => s.table_bytes(),
            Backend::Repeating(s) => s.table_bytes(),
            Backend::Prover(p) => p.stats().peak_bytes,
        }
    }

    /// The score of `pos`.
    pub fn solve(&mut self, pos: &G) -> Report<G::Move> {
        self.set_limits();
        let start = Instant::now();
        let nodes0 = self.nodes();
        let known = self.looked_up(pos);
        let mut result = known.map_or_else(|| self.searched_value(pos), |(score, _)| Ok(score));
        let mut plies = known.and_then(|(_, plies)| plies);
        if let (Ok(score), Backend::Repeating(s), None) = (result, &mut self.backend, known)
            && score != 0
            && !self.weak
        {
            let me = pos.side_to_move();
            let winner = if score > 0 { me } else { me.opponent() };
            match s.distance(pos, winner, MOST_PLIES, &self.history) {
                Ok(d) => plies = d,
                Err(e) => result = Err(e),
            }
        }
        Report {
            score: result.ok(),
            stopped: result.err(),
            best_moves: Vec::new(),
            pv: Vec::new(),
            nodes: self.nodes() - nodes0,
            elapsed: start.elapsed(),
            peak_bytes: self.peak_bytes(),
            plies,
        }
    }

    /// The score of `pos`, every move that reaches it, and a principal variation.
    pub fn solve_detailed(&mut self, pos: &G) -> Report<G::Move> {
        let start = Instant::now();
        let nodes0 = self.nodes();
        let mut report = self.solve(pos);
        if let Some(score) = report.score {
            let extra = self
                .best_moves(pos, score)
                .and_then(|best| Ok((best, self.principal_variation(pos, score)?)));
            match extra {
                Ok((best, pv)) => {
                    report.best_moves = best;
                    report.pv = pv;
                }
                Err(s) => report.stopped = Some(s),
            }
        }
        report.nodes = self.nodes() - nodes0;
        report.elapsed = start.elapsed();
        report
    }

    /// Whether playing `mv` from `pos` keeps the score `score`.
    fn keeps_score(&mut self, pos: &G, mv: G::Move, score: i32) -> Result<bool, StopReason> {
        if self.weak && score < 0 {
            return Ok(true);
        }
        let child = pos.play(mv);
        match &mut self.backend {
            Backend::AlphaBeta(s) if self.database.is_none() => {
                s.value_at_most(&child, -score).map_err(StopReason::from)
            }
            _ => {
                self.history.push(pos.key());
                let value = self.value(&child);
                self.history.pop();
                Ok(-value? == score)
            }
        }
    }

    fn best_moves(&mut self, pos: &G, score: i32) -> Result<Vec<G::Move>, StopReason> {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut best = Vec::new();
        for mv in moves {
            if self.keeps_score(pos, mv, score)? {
                best.push(mv);
            }
        }
        Ok(best)
    }

    fn principal_variation(&mut self, pos: &G, score: i32) -> Result<Vec<G::Move>, StopReason> {
        let mut pv = Vec::new();
        let (mut pos, mut score) = (*pos, score);
        let depth = self.history.len();
        let result = self.walk_pv(&mut pv, &mut pos, &mut score);
        self.history.truncate(depth);
        result.map(|_| pv)
    }

    /// Follows moves that keep the score until the game ends (or, in a game that repeats, until
    /// a position comes back: the line then goes round for ever).
    fn walk_pv(
        &mut self,
        pv: &mut Vec<G::Move>,
        pos: &mut G,
        score: &mut i32,
    ) -> Result<(), StopReason> {
        while pos.status() == Status::Ongoing {
            if pos.may_repeat() && self.history.contains(&pos.key()) {
                break;
            }
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut next = None;
            for mv in moves {
                if self.keeps_score(pos, mv, *score)? {
                    next = Some(mv);
                    break;
                }
            }
            let Some(mv) = next else { break };
            if pos.may_repeat() {
                self.history.push(pos.key());
            }
            pv.push(mv);
            *pos = pos.play(mv);
            *score = -*score;
        }
        Ok(())
    }

    /// The score of every legal move, best first (moves of equal score in the game's order).
    /// Limits apply to the whole analysis; moves not reached have no score.
    pub fn analyze(&mut self, pos: &G) -> Vec<MoveScore<G::Move>> {
        self.set_limits();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut scores: Vec<MoveScore<G::Move>> = Vec::new();
        self.history.push(pos.key());
        for mv in moves {
            let score = self.value(&pos.play(mv)).ok().map(|s| -s);
            scores.push(MoveScore { mv, score });
        }
        self.history.pop();
        scores.sort_by_key(|s| std::cmp::Reverse(s.score));
        scores
    }

    /// Certificates of the value of `pos` (solved weakly): one for a win or a loss (the winner's
    /// strategy), two for a draw (each side's strategy for not losing). Uses a df-pn search
    /// under the engine's limits and memory budget, whatever the engine's own algorithm.
    pub fn certificates(&mut self, pos: &G) -> Result<Vec<Proof<G>>, String> {
        let mut dfpn = DfPn::try_new(self.mem_bytes, self.limits)?;
        let mut proofs = Vec::new();
        let win = dfpn.prove(pos, Goal::Win).map_err(|e| e.to_string())?;
        let mut verdicts = vec![(Goal::Win, win)];
        if win == Verdict::Disproven {
            let not_lose = dfpn.prove(pos, Goal::NotLose).map_err(|e| e.to_string())?;
            // A loss is the opponent's win: one certificate is enough.
            verdicts = match not_lose {
                Verdict::Disproven => vec![(Goal::NotLose, not_lose)],
                Verdict::Proven => vec![(Goal::Win, win), (Goal::NotLose, not_lose)],
            };
        }
        for (goal, verdict) in verdicts {
            let proof = proof::extract_for_verdict(&mut dfpn, pos, goal, verdict)
                .map_err(|e| e.to_string())?;
            proofs.push(proof);
        }
        Ok(proofs)
    }
}
