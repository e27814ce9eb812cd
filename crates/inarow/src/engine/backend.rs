//! The searches behind an [`Engine`](super::Engine), one [`Backend`] per family, chosen for the
//! game's kind by [`build`]: alpha-beta (or the exhaustive reference) for bounded games; for
//! games whose positions repeat, a proof-number search or the two-valued [`WinSearch`] for the
//! value, and [`WinSearch`] for the distance. Every question runs under the engine call's
//! [`Clock`], which the backend passes on to its search and does not keep.

use super::{Algorithm, Options};
use crate::error::Error;
use crate::game::{
    Bounded, GameLine, Goal, KindVisitor, Method, Player, Repeating, Repetition, Rules, Status,
    Tactics,
};
use crate::limits::{Clock, Stop};
use crate::search::alphabeta::profile::Profile;
use crate::search::alphabeta::{AlphaBeta, KnownScores, SearchState};
use crate::search::minimax::Minimax;
use crate::search::pn::{DfPn, Pn2, Pns, Prover, Question, Verdict, raced_value, weak_value};
use crate::search::threats::{ThreatBudget, wins_by_threats};
use crate::search::winner::{Handicap, WinSearch};
use std::sync::Arc;

/// The longest distance the engine looks for (plies): a table key keeps at most 254 plies left.
const MOST_PLIES: u32 = 253;

/// What the engine asks of a search, each question under the limits of `clock`.
pub(super) trait Backend<G: Rules>: Send {
    /// The value at the end of `line` for the side to move (the positions before it count for
    /// the repetition rule): the exact score of a bounded game (its sign when `weak`), 1 / 0 /
    /// -1 in a game that repeats.
    fn value(&mut self, line: &GameLine<G>, weak: bool, clock: &mut Clock) -> Result<i32, Stop>;
    /// Whether the side to move wins at the end of `line` (a draw is no): the two-valued
    /// question, cheaper than the value.
    fn wins(&mut self, line: &GameLine<G>, clock: &mut Clock) -> Result<bool, Stop> {
        Ok(self.value(line, true, clock)? > 0)
    }
    /// Whether the value at the end of `line` is at most `bound`.
    fn value_at_most(
        &mut self,
        line: &GameLine<G>,
        weak: bool,
        bound: i32,
        clock: &mut Clock,
    ) -> Result<bool, Stop> {
        Ok(self.value(line, weak, clock)? <= bound)
    }
    /// The plies to the end under perfect play when `winner` wins from the end of `line`, in a
    /// game that repeats (`None` if beyond reach).
    fn distance(
        &mut self,
        line: &GameLine<G>,
        winner: Player,
        clock: &mut Clock,
    ) -> Result<Option<u32>, Stop>;
    /// Bounds `lo..=hi` on the exact score at the end of `line` that its searches have proven
    /// so far, for a solve a limit stopped (`None`: none, or a backend that keeps none).
    fn proven(&self, _line: &GameLine<G>) -> Option<(i32, i32)> {
        None
    }
    /// Forgets what was learnt (the tables).
    fn reset(&mut self);
    /// Touches the memory of its tables now, so that no later search meets a page fault
    /// there: for an engine that is reused and timed.
    fn ready(&mut self) {}
    /// Nodes since the backend was made.
    fn nodes(&self) -> u64;
    /// The memory the backend holds or may hold.
    fn table_bytes(&self) -> usize;
    /// The most memory its structures held.
    fn peak_bytes(&self) -> usize;
    /// Answers positions the oracle (an opening book) knows without searching.
    ///
    /// # Errors
    /// [`Error::Unsupported`] for a backend that reads no book (the default).
    fn set_oracle(&mut self, _oracle: Arc<dyn KnownScores<G>>) -> Result<(), Error> {
        Err(Error::Unsupported(
            "--book works with the alpha-beta algorithms".into(),
        ))
    }
    /// What the searches have learnt, for a backend that keeps it in a table (alpha-beta): what
    /// a checkpoint saves and restores.
    fn state(&mut self) -> Option<SearchState> {
        None
    }
    /// What the search's nodes did, by ply (alpha-beta built with the feature `profile`).
    fn profile(&self) -> Option<Profile> {
        None
    }
}

/// Builds the backend for the options, by the game's kind, and names the method that answers.
pub(super) struct Build<'a, G> {
    pub sample: &'a G,
    pub options: &'a Options,
}

impl<G: Tactics> KindVisitor<G> for Build<'_, G> {
    type Output = Result<(Box<dyn Backend<G>>, Algorithm), Error>;

    fn bounded(self) -> Self::Output
    where
        G: Bounded,
    {
        let o = self.options;
        if !o.handicap.is_none() {
            return Err(Error::Unsupported(format!(
                "handicaps apply to games whose positions repeat, not to {}",
                self.sample.name()
            )));
        }
        let default = match G::METHOD {
            Method::DfPn => Algorithm::DfPn,
            Method::AlphaBeta => Algorithm::AlphaBeta,
        };
        let method = o.algorithm.unwrap_or(default);
        let backend: Box<dyn Backend<G>> = match method {
            Algorithm::AlphaBeta => Box::new(AlphaBeta::try_new(self.sample, o.config.clone())?),
            Algorithm::Minimax => Box::new(Reference {
                minimax: Minimax::new(),
                nodes: 0,
                max_positions: o.mem_bytes()? / Reference::BYTES_PER_POSITION,
            }),
            Algorithm::Tss => Box::new(Threats { nodes: 0 }),
            family => Box::new(ProofNumbers(prover(family, o)?)),
        };
        Ok((backend, method))
    }

    fn repeating(self) -> Self::Output
    where
        G: Repeating,
    {
        let (o, name) = (self.options, self.sample.name());
        if o.config.threads > 1 {
            return Err(Error::Unsupported(format!(
                "--threads: {name} is searched on one thread"
            )));
        }
        // df-pn by default; the two-valued search where only it applies.
        let default = if o.repetition == 2 && o.handicap.is_none() {
            Algorithm::DfPn
        } else {
            Algorithm::AlphaBeta
        };
        let method = o.algorithm.unwrap_or(default);
        let value = match method {
            Algorithm::AlphaBeta => None,
            Algorithm::Tss => {
                return Err(Error::Unsupported(format!(
                    "tss: {name} has no threat-space search (its positions repeat)"
                )));
            }
            Algorithm::Minimax => {
                return Err(Error::Unsupported(format!(
                    "minimax: the exhaustive reference needs a game with a length bound, and \
                     {name} repeats"
                )));
            }
            family => {
                if o.repetition != 2 {
                    return Err(Error::Unsupported(format!(
                        "--repetition {}: the proof-number searches know the rule of 2 only",
                        o.repetition
                    )));
                }
                if !o.handicap.is_none() {
                    return Err(Error::Unsupported(
                        "handicaps apply to the alpha-beta search only".into(),
                    ));
                }
                Some(prover(family, o)?)
            }
        };
        let win = if value.is_none() || o.distance {
            let c = &o.config;
            let rule = Repetition::new(o.repetition)?;
            let search = WinSearch::try_new(self.sample, c.tt_mb, c.symmetry, rule)?;
            Some(Box::new(search))
        } else {
            None
        };
        let backend = Cycles {
            value,
            win,
            handicap: o.handicap,
        };
        Ok((Box::new(backend), method))
    }
}

/// The proof-number search of a family.
fn prover<G: Tactics>(family: Algorithm, o: &Options) -> Result<Box<dyn Prover<G>>, Error> {
    let mem_bytes = o.mem_bytes()?;
    Ok(match family {
        Algorithm::Pns => Box::new(Pns::new(mem_bytes, o.heuristic_init)),
        Algorithm::Pn2 => Box::new(Pn2::new(mem_bytes, o.heuristic_init)),
        _ => {
            let mut dfpn = DfPn::try_new(mem_bytes)?;
            dfpn.set_threat_search(o.dfpn_threats);
            dfpn.set_victor_plies(o.config.victor_plies);
            Box::new(dfpn)
        }
    })
}

impl<G: Bounded + Tactics> Backend<G> for AlphaBeta<G> {
    fn value(&mut self, line: &GameLine<G>, weak: bool, clock: &mut Clock) -> Result<i32, Stop> {
        self.solve(line.position(), weak, clock)
    }
    fn wins(&mut self, line: &GameLine<G>, clock: &mut Clock) -> Result<bool, Stop> {
        // One null-window test at 0.
        Ok(!AlphaBeta::value_at_most(self, line.position(), 0, clock)?)
    }
    fn value_at_most(
        &mut self,
        line: &GameLine<G>,
        _: bool,
        bound: i32,
        clock: &mut Clock,
    ) -> Result<bool, Stop> {
        AlphaBeta::value_at_most(self, line.position(), bound, clock)
    }
    fn distance(&mut self, _: &GameLine<G>, _: Player, _: &mut Clock) -> Result<Option<u32>, Stop> {
        Ok(None)
    }
    fn proven(&self, line: &GameLine<G>) -> Option<(i32, i32)> {
        AlphaBeta::proven(self, line.position())
    }
    fn reset(&mut self) {
        AlphaBeta::reset(self);
    }
    fn ready(&mut self) {
        AlphaBeta::ready(self);
    }
    fn nodes(&self) -> u64 {
        AlphaBeta::nodes(self)
    }
    fn table_bytes(&self) -> usize {
        AlphaBeta::table_bytes(self)
    }
    fn peak_bytes(&self) -> usize {
        AlphaBeta::table_bytes(self)
    }
    fn set_oracle(&mut self, oracle: Arc<dyn KnownScores<G>>) -> Result<(), Error> {
        AlphaBeta::set_oracle(self, Some(oracle));
        Ok(())
    }
    fn state(&mut self) -> Option<SearchState> {
        Some(AlphaBeta::state(self))
    }
    fn profile(&self) -> Option<Profile> {
        AlphaBeta::profile(self)
    }
}

/// The exhaustive reference, for checking on small boards.
struct Reference {
    minimax: Minimax,
    nodes: u64,
    /// The memo's size under the memory budget.
    max_positions: usize,
}

impl Reference {
    /// The memo's bytes a position: a key and a score, and the map's own overhead.
    const BYTES_PER_POSITION: usize = 32;
}

impl<G: Bounded> Backend<G> for Reference {
    fn value(&mut self, line: &GameLine<G>, weak: bool, clock: &mut Clock) -> Result<i32, Stop> {
        let before = clock.ticks;
        let v = self
            .minimax
            .value_within(line.position(), clock, self.max_positions);
        self.nodes += clock.ticks - before;
        let v = v?;
        Ok(if weak { v.signum() } else { v })
    }
    fn distance(&mut self, _: &GameLine<G>, _: Player, _: &mut Clock) -> Result<Option<u32>, Stop> {
        Ok(None)
    }
    fn reset(&mut self) {
        self.minimax = Minimax::new();
    }
    fn nodes(&self) -> u64 {
        self.nodes
    }
    fn table_bytes(&self) -> usize {
        0
    }
    fn peak_bytes(&self) -> usize {
        self.minimax.positions() * Reference::BYTES_PER_POSITION
    }
}

/// Threat-space search alone: a win by threats (1), or nothing ([`Stop::NoThreatWin`]).
struct Threats {
    nodes: u64,
}

impl<G: Tactics> Backend<G> for Threats {
    fn value(&mut self, line: &GameLine<G>, _: bool, clock: &mut Clock) -> Result<i32, Stop> {
        Ok(if self.wins(line, clock)? { 1 } else { -1 })
    }
    fn wins(&mut self, line: &GameLine<G>, clock: &mut Clock) -> Result<bool, Stop> {
        let pos = line.position();
        match pos.status() {
            Status::Win(p) => return Ok(p == pos.side_to_move()),
            Status::Draw => return Ok(false),
            Status::Ongoing => {}
        }
        // Every threat a line may take; the node limit (10 million by default) bounds each
        // search: the clock counts no nodes here.
        let budget = ThreatBudget {
            depth: 32,
            nodes: clock.limits().nodes.unwrap_or(10_000_000),
        };
        if pos.has_winning_move() || wins_by_threats(pos, budget, &mut self.nodes) {
            Ok(true)
        } else {
            Err(Stop::NoThreatWin)
        }
    }
    fn distance(&mut self, _: &GameLine<G>, _: Player, _: &mut Clock) -> Result<Option<u32>, Stop> {
        Ok(None)
    }
    fn reset(&mut self) {}
    fn nodes(&self) -> u64 {
        self.nodes
    }
    fn table_bytes(&self) -> usize {
        0
    }
    fn peak_bytes(&self) -> usize {
        0
    }
}

/// A proof-number search on a bounded game: win / draw / loss only.
struct ProofNumbers<G>(Box<dyn Prover<G>>);

impl<G: Rules> Backend<G> for ProofNumbers<G> {
    fn value(&mut self, line: &GameLine<G>, _: bool, clock: &mut Clock) -> Result<i32, Stop> {
        let me = line.position().side_to_move();
        weak_value(|goal| self.0.prove_for(line, me, goal, clock))
    }
    fn wins(&mut self, line: &GameLine<G>, clock: &mut Clock) -> Result<bool, Stop> {
        let me = line.position().side_to_move();
        Ok(self.0.prove_for(line, me, Goal::Win, clock)? == Verdict::Proven)
    }
    fn distance(&mut self, _: &GameLine<G>, _: Player, _: &mut Clock) -> Result<Option<u32>, Stop> {
        Ok(None)
    }
    fn reset(&mut self) {
        self.0.clear();
    }
    fn nodes(&self) -> u64 {
        self.0.stats().expanded
    }
    fn table_bytes(&self) -> usize {
        self.0.stats().peak_bytes
    }
    fn peak_bytes(&self) -> usize {
        self.0.stats().peak_bytes
    }
}

/// A game whose positions repeat: the value by a proof-number search (`value`), or else by the
/// two-valued search (`win`), which also finds the distance by a ply handicap. `win` is made
/// when the options need it: for the value, or for the distance.
struct Cycles<G: Repeating + Tactics> {
    value: Option<Box<dyn Prover<G>>>,
    win: Option<Box<WinSearch<G>>>,
    handicap: Handicap,
}

impl<G: Repeating + Tactics> Cycles<G> {
    fn win_search(&mut self) -> &mut WinSearch<G> {
        self.win
            .as_deref_mut()
            .expect("the two-valued search is made whenever the value or the distance needs it")
    }
}

impl<G: Repeating + Tactics> Backend<G> for Cycles<G> {
    fn value(&mut self, line: &GameLine<G>, _: bool, clock: &mut Clock) -> Result<i32, Stop> {
        let me = line.position().side_to_move();
        if let Some(prover) = &mut self.value {
            // Win and NotLose raced (see [`raced_value`]): a loss is one clean proof of the
            // opponent's win, not a disproof of the loser's that draws by repetition taint.
            return raced_value(|goal, budget| {
                let question = Question::new(me, goal);
                match budget {
                    Some(budget) => prover.answer_within(line, question, budget, clock),
                    None => prover.answer(line, question, clock).map(Some),
                }
            });
        }
        let handicap = self.handicap;
        let search = self.win_search();
        if handicap.is_none() {
            search.value(line, clock)
        } else if search.wins(line, me, handicap, clock)? {
            Ok(1)
        } else {
            Err(Stop::Handicap)
        }
    }
    fn wins(&mut self, line: &GameLine<G>, clock: &mut Clock) -> Result<bool, Stop> {
        let me = line.position().side_to_move();
        if let Some(prover) = &mut self.value {
            return Ok(prover.prove_for(line, me, Goal::Win, clock)? == Verdict::Proven);
        }
        let handicap = self.handicap;
        let win = self.win_search().wins(line, me, handicap, clock)?;
        if !win && !handicap.is_none() {
            return Err(Stop::Handicap);
        }
        Ok(win)
    }
    fn distance(
        &mut self,
        line: &GameLine<G>,
        winner: Player,
        clock: &mut Clock,
    ) -> Result<Option<u32>, Stop> {
        self.win_search().distance(line, winner, MOST_PLIES, clock)
    }
    fn reset(&mut self) {
        if let Some(p) = &mut self.value {
            p.clear();
        }
        if let Some(w) = &mut self.win {
            w.reset();
        }
    }
    fn ready(&mut self) {
        if let Some(w) = &mut self.win {
            w.ready();
        }
    }
    fn nodes(&self) -> u64 {
        self.value.as_ref().map_or(0, |p| p.stats().expanded)
            + self.win.as_ref().map_or(0, |w| w.nodes())
    }
    fn table_bytes(&self) -> usize {
        self.value.as_ref().map_or(0, |p| p.stats().peak_bytes)
            + self.win.as_ref().map_or(0, |w| w.table_bytes())
    }
    fn peak_bytes(&self) -> usize {
        self.table_bytes()
    }
    fn set_oracle(&mut self, _: Arc<dyn KnownScores<G>>) -> Result<(), Error> {
        Err(Error::Unsupported(
            "--book holds exact scores of games with a length bound".into(),
        ))
    }
}
