//! Playing engines: a move and a value for every move of a position within a thinking time,
//! at a strength the user chooses ([`Level`]). Values say what they are ([`Valuation`]): exact
//! where a solver, a book or a database settled them, an estimate otherwise.

use crate::engine::{Engine, Limits, Options};
use crate::error::Error;
use crate::game::{GameLine, Kind, MoveList, Repetition, Status, Tactics};
use crate::limits::Instant;
use crate::search::heuristic::{self, Appraisal, Parity};
use crate::search::mcts::{self, Estimate};
use crate::search::rng::SplitMix;
use std::fmt;
use std::str::FromStr;
use std::time::Duration;

mod matches;
pub use matches::{GameResult, Record};

/// How an engine plays, weakest first ([`Level::Mcts`] and [`Level::AlphaBeta`] are about even
/// on most boards: the README's match table).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Level {
    /// A random move that does not lose at once (a win at once if there is one).
    Random,
    /// Alpha-beta over the game's evaluation to a fixed depth (plies).
    Depth(u32),
    /// MCTS-Solver for the whole time.
    Mcts,
    /// Iterative-deepening alpha-beta over the game's evaluation for the whole time (the
    /// generalised-connect-four seed's strongest AI).
    AlphaBeta,
    /// The exact solver (with any book or database) first, then iterative-deepening alpha-beta
    /// over the evaluation where it cannot finish: the default.
    Best,
}

impl FromStr for Level {
    type Err = Error;
    fn from_str(s: &str) -> Result<Level, Error> {
        Ok(match s {
            "random" => Level::Random,
            "mcts" => Level::Mcts,
            "alphabeta" => Level::AlphaBeta,
            "best" => Level::Best,
            _ => match s.strip_prefix("depth") {
                Some(n) => match n.parse::<u32>() {
                    Ok(n @ 1..=64) => Level::Depth(n),
                    _ => {
                        return Err(Error::Input(format!(
                            "'{s}': a depth is 1-64 plies, like depth3"
                        )));
                    }
                },
                None => {
                    return Err(Error::Input(format!(
                        "unknown engine '{s}': random, depthN (N plies of alpha-beta), mcts, \
                         alphabeta or best"
                    )));
                }
            },
        })
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Level::Random => f.write_str("random"),
            Level::Depth(n) => write!(f, "depth{n}"),
            Level::Mcts => f.write_str("mcts"),
            Level::AlphaBeta => f.write_str("alphabeta"),
            Level::Best => f.write_str("best"),
        }
    }
}

/// What a move is worth to the side that plays it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Valuation {
    /// The exact solver's score (its convention: 1 / 0 / -1 when it answers win / draw / loss,
    /// else the exact score, higher for a sooner win).
    Exact(i32),
    /// Proven by a search that settles win / draw / loss only (1 / 0 / -1): MCTS-Solver, or
    /// the heuristic search where every line ended.
    Proven(i32),
    /// The evaluation at the end of the principal line of a depth-limited search (positive
    /// favours the mover).
    Heuristic(i32),
    /// The mean playout result through the move, 0-1 (MCTS).
    WinRate(f64),
    /// Not reached within the time.
    Unknown,
}

impl Valuation {
    /// The value of a move for its mover from the value of the best reply for the other side.
    pub fn negated(self) -> Valuation {
        match self {
            Valuation::Exact(s) => Valuation::Exact(-s),
            Valuation::Proven(s) => Valuation::Proven(-s),
            Valuation::Heuristic(s) => Valuation::Heuristic(-s),
            Valuation::WinRate(r) => Valuation::WinRate(1.0 - r),
            Valuation::Unknown => Valuation::Unknown,
        }
    }

    /// A sort key, higher first: exact wins (sooner first), then estimates, exact losses last.
    pub fn rank(self) -> (i32, i64) {
        match self {
            Valuation::Exact(v) | Valuation::Proven(v) if v > 0 => (3, v as i64),
            Valuation::Exact(v) | Valuation::Proven(v) if v < 0 => (0, v as i64),
            Valuation::Exact(_) | Valuation::Proven(_) => (1, 0),
            Valuation::Heuristic(v) => (1 + (v > 0) as i32, v as i64),
            Valuation::WinRate(r) => (1 + (r > 0.5) as i32, ((r - 0.5) * 1e6) as i64),
            Valuation::Unknown => (1, i64::MIN),
        }
    }

    /// Whether the value is the game-theoretic one (not an estimate).
    pub fn is_exact(self) -> bool {
        matches!(self, Valuation::Exact(_) | Valuation::Proven(_))
    }

    /// The value in the one form every front writes for its kind, whatever answered (the
    /// solver, an opening book, a database, Qubic's strategy, the evaluation search's proof):
    /// where the game's exact values are win / draw / loss only (`weak`: PopOut, Qubic,
    /// Pentago, `--weak`), a proven value is that exact value, 1 / 0 / -1; elsewhere a proven
    /// draw is the exact score 0, and only a win or a loss proven without its distance stays
    /// [`Valuation::Proven`] (written `win` / `loss`: a number would read as a score).
    pub fn settled(self, weak: bool) -> Valuation {
        match self {
            Valuation::Proven(s) if weak || s == 0 => Valuation::Exact(s.signum()),
            v => v,
        }
    }

    /// `"win"`, `"draw"` or `"loss"` for the mover, where the value is exact.
    pub fn outcome(self) -> Option<&'static str> {
        match self {
            Valuation::Exact(s) | Valuation::Proven(s) => Some(match s.signum() {
                1 => "win",
                0 => "draw",
                _ => "loss",
            }),
            _ => None,
        }
    }
}

/// The value for the other side ([`Valuation::negated`]).
impl std::ops::Neg for Valuation {
    type Output = Valuation;
    fn neg(self) -> Valuation {
        self.negated()
    }
}

impl fmt::Display for Valuation {
    /// The one writing of a value on the command line, in `play`'s hints and in the JSON's
    /// `value` (after [`Valuation::settled`]): exact scores, and win / draw / loss where the
    /// game gives only those, as numbers (`-2`, `1`); a win or a loss proven without its
    /// distance in a game of exact scores as `win` / `loss`; estimates marked `~` (a heuristic
    /// score, or a win rate in %); unknown as `?`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Valuation::Exact(v) => write!(f, "{v}"),
            Valuation::Proven(v) => f.write_str(match v.signum() {
                1 => "win",
                0 => "draw",
                _ => "loss",
            }),
            Valuation::Heuristic(v) => write!(f, "~{v}"),
            Valuation::WinRate(r) => write!(f, "~{:.0}%", r * 100.0),
            Valuation::Unknown => f.write_str("?"),
        }
    }
}

/// An engine's view of a position: every move with its value, best first, and a line.
#[derive(Clone, Debug)]
pub struct Analysis<M> {
    /// Every legal move with its value for the side to move, best first.
    pub moves: Vec<(M, Valuation)>,
    /// The expected line of play from the position (may be empty).
    pub pv: Vec<M>,
    /// What answered: "exact", "alphabeta depth N", "mcts N playouts", "random".
    pub source: String,
}

/// What a think is asked for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Want {
    /// A move to play.
    Move,
    /// Every move's value.
    Values,
    /// Every move's value and the expected line of play.
    ValuesAndLine,
}

/// The heuristic search's table: allocated on each call, so small enough to cost nothing next
/// to a move's thinking time, and large enough for the depths a second of search reaches.
const HEURISTIC_TABLE_BYTES: usize = 16 << 20;

/// The most nodes spent on an exact analysis' line of play after its values (a few tenths of
/// a second): the line goes as far as they reach.
const LINE_NODES: u64 = 1_000_000;
/// The same for one move valued alone ([`TypedAgent::analyze_move`]): each move of a position
/// walks its own, where only the best one's is shown, so they are kept short.
const MOVE_LINE_NODES: u64 = 20_000;

/// The nodes of the estimates that fill an analysis the exact solver could not finish
/// although it had no limits (its memory ran out): about a second of search.
const UNLIMITED_ESTIMATE_NODES: u64 = 2_000_000;

/// The nodes of the shallow search that picks the move of a side lost to a strategy: a few
/// milliseconds, as every move's value is known.
const LOST_GLANCE_NODES: u64 = 20_000;

/// The plies left in a bounded game from which the exact solver starts to finish within a
/// move's time: 7x6 from ply 6 on (cold solves of 0.1-3 s measured at plies 6-8; the table
/// stays warm from move to move, so later solves are quicker).
const SOLVABLE_PLIES_LEFT: u32 = 36;

/// The share of the thinking time the exact solver gets at [`Level::Best`]: most of it once at
/// most [`SOLVABLE_PLIES_LEFT`] plies of a bounded game are left, where one exact answer is
/// worth more than a deeper estimate (a won game is kept won: `inarow bench --suite convert`);
/// a tenth before, when it would only take time from the evaluation search (and on a board too
/// big to solve, for most of the game); half in games without a bound (PopOut's df-pn solves
/// the whole 7x6 game in under a second).
fn exact_share<G: Tactics>(pos: &G) -> f64 {
    match G::Kind::max_plies(pos) {
        Some(max) if max.saturating_sub(pos.ply()) > SOLVABLE_PLIES_LEFT => 0.1,
        Some(_) => 0.8,
        None => 0.5,
    }
}

/// The share of a search's time the exact solver gets at `pos`, the rest going to estimates.
fn solver_share<G: Tactics>(pos: &G, limits: &Limits, analysis: bool) -> f64 {
    // An analysis is asked for exact values: the solver gets at least half the time, and in a
    // game without a bound nine tenths (PopOut's df-pn settles most moves given seconds; the
    // evaluation's estimates of the rest need only the last tenth).
    let share = if analysis {
        let least = if G::Kind::max_plies(pos).is_none() {
            0.9
        } else {
            0.5
        };
        exact_share(pos).max(least)
    } else {
        exact_share(pos)
    };
    // An exact answer the game expects well within the limit gets most of it (Pentago's
    // midgame solver from 18 stones): estimates are only the fallback.
    match (limits.time, pos.rough_solve_seconds()) {
        (Some(t), Some(cost)) if cost * 1.5 <= t.as_secs_f64() => share.max(0.9),
        _ => share,
    }
}

/// A playing engine for positions of one game.
pub struct TypedAgent<G: Tactics> {
    level: Level,
    /// The exact solver (level [`Level::Best`]).
    exact: Option<Engine<G>>,
    /// The most memory of the heuristic search's table and of the tree of MCTS, in bytes.
    mem_bytes: usize,
    repetition: Repetition,
    rng: SplitMix,
}

impl<G: Tactics> TypedAgent<G> {
    /// An engine of `level`; `options` configure the exact solver of [`Level::Best`] (its
    /// limits are set on each call from the thinking time), which answers from the game's
    /// built-in book where there is one.
    ///
    /// # Errors
    /// As [`Engine::try_new`].
    pub fn new(level: Level, sample: &G, options: Options, seed: u64) -> Result<Self, Error> {
        let exact = match level {
            Level::Best => {
                let mut engine = Engine::try_new(sample, options.clone())?;
                engine.use_builtin_book(sample);
                Some(engine)
            }
            _ => None,
        };
        Self::build(level, exact, &options, seed)
    }

    /// An engine of level [`Level::Best`] around an exact solver already set up (with a book
    /// or a database).
    ///
    /// # Errors
    /// As [`Engine::try_new`], for the options.
    pub fn with_engine(engine: Engine<G>, options: &Options, seed: u64) -> Result<Self, Error> {
        Self::build(Level::Best, Some(engine), options, seed)
    }

    fn build(
        level: Level,
        exact: Option<Engine<G>>,
        options: &Options,
        seed: u64,
    ) -> Result<Self, Error> {
        Ok(TypedAgent {
            level,
            exact,
            mem_bytes: options.mem_bytes()?.min(256 << 20),
            repetition: Repetition::new(options.repetition)?,
            rng: SplitMix(seed),
        })
    }

    /// Starts its random choices (a perfect move among equals, the random level's move) anew
    /// from `seed`.
    pub fn reseed(&mut self, seed: u64) {
        self.rng = SplitMix(seed);
    }

    /// How strongly this engine plays.
    pub fn level(&self) -> Level {
        self.level
    }

    /// Whether the exact values it gives ([`Valuation::Exact`]) are win / draw / loss (1 / 0 /
    /// -1) rather than exact scores: in games that repeat, and where the game's values are weak
    /// by default (Pentago).
    pub fn is_weak(&self) -> bool {
        self.exact.as_ref().is_some_and(Engine::is_weak)
    }

    /// The exact solver of level [`Level::Best`] (`None` at the other levels), for a front-end
    /// that also asks it for values: one table serves solving, analyzing and playing.
    pub fn engine_mut(&mut self) -> Option<&mut Engine<G>> {
        self.exact.as_mut()
    }

    /// [`TypedAgent::engine_mut`], to read.
    pub fn engine(&self) -> Option<&Engine<G>> {
        self.exact.as_ref()
    }

    /// The engine's move at the end of `line` (ongoing; its earlier positions count for
    /// repetitions) and what it is worth, thinking for `think`. Only the best move is searched
    /// to its value.
    pub fn choose(&mut self, line: &GameLine<G>, think: Duration) -> Option<(G::Move, Valuation)> {
        self.choose_within(line, &Limits::within(think))
    }

    /// [`TypedAgent::choose`] within any `limits`: a thinking time with an interrupt token (Ctrl-C),
    /// or a node limit.
    pub fn choose_within(
        &mut self,
        line: &GameLine<G>,
        limits: &Limits,
    ) -> Option<(G::Move, Valuation)> {
        self.think(line, limits, Want::Move)?.moves.first().copied()
    }

    /// Every move at the end of `line` with its value, best first, within `limits` (for the
    /// whole analysis; none: until every value is exact, at level [`Level::Best`]). Where the
    /// exact solver cannot finish, the moves it did not settle get the evaluation search's
    /// estimates.
    pub fn analyze(&mut self, line: &GameLine<G>, limits: &Limits) -> Analysis<G::Move> {
        self.analysis(line, limits, Want::ValuesAndLine)
    }

    /// [`TypedAgent::analyze`] without the line of play (`pv` empty): the values alone, for a
    /// caller that reads no line (training data), which spares the line's search past what
    /// the book knows.
    pub fn analyze_values(&mut self, line: &GameLine<G>, limits: &Limits) -> Analysis<G::Move> {
        self.analysis(line, limits, Want::Values)
    }

    fn analysis(&mut self, line: &GameLine<G>, limits: &Limits, want: Want) -> Analysis<G::Move> {
        self.think(line, limits, want).unwrap_or(Analysis {
            moves: Vec::new(),
            pv: Vec::new(),
            source: "over".into(),
        })
    }

    /// One move at the end of `line` valued alone, as [`TypedAgent::analyze`] values each within
    /// `limits` (its own): the exact solver first with an analysis' share of the time, then
    /// the evaluation's estimate of the best reply. `moves` holds the move alone, `pv` the
    /// move and the expected replies. For a front-end that spreads a position's moves over
    /// engines of its own (the browser's workers, which share no memory).
    pub fn analyze_move(
        &mut self,
        line: &GameLine<G>,
        mv: G::Move,
        limits: &Limits,
    ) -> Analysis<G::Move> {
        let started = Instant::now();
        let rest = || Limits {
            time: limits.time.map(|t| t.saturating_sub(started.elapsed())),
            ..limits.clone()
        };
        let child = line.played(mv);
        let valued = |value: Valuation, replies: Vec<G::Move>, source: &str| Analysis {
            moves: vec![(mv, value)],
            pv: std::iter::once(mv).chain(replies).collect(),
            source: source.into(),
        };
        if self.level == Level::Best
            && let Some(engine) = self.exact.as_mut()
        {
            if engine.strategy_moves(line).contains(&mv) {
                return valued(Valuation::Proven(1), Vec::new(), "strategy");
            }
            if engine.lost_to_strategy(line) {
                return valued(Valuation::Proven(-1), Vec::new(), "strategy");
            }
            let share = solver_share(line.position(), limits, true);
            let solve = Limits {
                time: limits.time.map(|t| t.mul_f64(share)),
                ..limits.clone()
            };
            if let Some(score) = engine.solve(&child, &solve).score {
                // The line as far as the time left and a small node budget reach (the table
                // is warm).
                let line = Limits {
                    nodes: Some(
                        limits
                            .nodes
                            .map_or(MOVE_LINE_NODES, |n| n.min(MOVE_LINE_NODES)),
                    ),
                    ..rest()
                };
                let replies = engine.line(&child, score, &line);
                return valued(Valuation::Exact(-score), replies, "exact");
            }
        }
        if child.status(self.repetition) != Status::Ongoing {
            return valued(Valuation::Unknown, Vec::new(), "over");
        }
        // The reply's value at the other levels, or the estimate where the solver stopped.
        let reply = match self.level {
            // An even depth after the move: the line ends with the mover's move, as in
            // [`TypedAgent::analyze`]'s estimates, whatever depth the time reaches.
            Level::Best => self.estimate(&child, rest(), false, Parity::Even),
            _ => self.think(&child, &rest(), Want::Move),
        };
        match reply {
            Some(reply) if !reply.moves.is_empty() => {
                valued(reply.moves[0].1.negated(), reply.pv, &reply.source)
            }
            _ => valued(Valuation::Unknown, Vec::new(), "stopped"),
        }
    }

    fn think(
        &mut self,
        line: &GameLine<G>,
        limits: &Limits,
        want: Want,
    ) -> Option<Analysis<G::Move>> {
        let all = want != Want::Move;
        let pos = line.position();
        if pos.status() != Status::Ongoing {
            return None;
        }
        match self.level {
            Level::Random => Some(self.random(pos)),
            Level::Depth(depth) => self.heuristic(pos, limits, Some(depth), all, Parity::Any),
            Level::AlphaBeta => self.heuristic(pos, limits, None, all, Parity::Any),
            Level::Mcts => self.mcts(line, limits),
            Level::Best => {
                let proven = self
                    .exact
                    .as_mut()
                    .map_or_else(Vec::new, |e| e.strategy_moves(line));
                if let Some(&mv) = proven.first()
                    && !all
                {
                    return Some(Analysis {
                        moves: vec![(mv, Valuation::Proven(1))],
                        pv: vec![mv],
                        source: "strategy".into(),
                    });
                }
                let lost = self
                    .exact
                    .as_mut()
                    .is_some_and(|e| e.lost_to_strategy(line));
                if lost && all {
                    // Every move loses to the strategy: nothing is left to search.
                    let mut moves = MoveList::new();
                    line.position().legal_moves(&mut moves);
                    return Some(Analysis {
                        moves: moves.iter().map(|&m| (m, Valuation::Proven(-1))).collect(),
                        pv: Vec::new(),
                        source: "strategy".into(),
                    });
                }
                if lost {
                    // A proven loss whatever the move: the one played is a shallow search's
                    // (a bounded one, not the whole think), the one that resists best at a glance.
                    let glance = Limits {
                        nodes: Some(LOST_GLANCE_NODES),
                        ..limits.clone()
                    };
                    let mv = self
                        .heuristic(pos, &glance, Some(2), false, Parity::Any)
                        .and_then(|a| a.moves.first().map(|m| m.0))
                        .unwrap_or_else(|| self.random(pos).moves[0].0);
                    return Some(Analysis {
                        moves: vec![(mv, Valuation::Proven(-1))],
                        pv: vec![mv],
                        source: "strategy".into(),
                    });
                }
                let analysis = self.best(line, limits, want)?;
                Some(if proven.is_empty() {
                    analysis
                } else {
                    proven_win(analysis, &proven)
                })
            }
        }
    }

    /// [`TypedAgent::think`] at level [`Level::Best`]: the exact solver, then estimates where it
    /// stopped.
    fn best(
        &mut self,
        line: &GameLine<G>,
        limits: &Limits,
        want: Want,
    ) -> Option<Analysis<G::Move>> {
        let all = want != Want::Move;
        let pos = line.position();
        let started = Instant::now();
        // The time left at `share` of the whole; node limits apply to each stage alike.
        let until = |share: f64| Limits {
            time: limits
                .time
                .map(|t| t.mul_f64(share).saturating_sub(started.elapsed())),
            ..limits.clone()
        };
        let exact = match self.exact(line, &until(solver_share(pos, limits, all)), want) {
            Some(e) if e.moves.iter().all(|m| m.1.is_exact()) => return Some(e),
            partial => partial,
        };
        // An analysis' estimates end with the mover's move (an odd depth), as those of
        // [`TypedAgent::analyze_move`] do: its moves valued one by one elsewhere compare with these.
        let parity = if all { Parity::Odd } else { Parity::Any };
        let estimate = self.estimate(line, until(1.0), all, parity);
        match (exact, estimate) {
            (Some(exact), Some(estimate)) => Some(merge(exact, estimate)),
            (exact, estimate) => estimate.or(exact),
        }
    }

    /// The evaluation's estimate at the end of `line` where the exact solver stopped: the
    /// heuristic search (stopped, at an iteration of `parity`), else MCTS, within `rest`.
    fn estimate(
        &mut self,
        line: &GameLine<G>,
        rest: Limits,
        all: bool,
        parity: Parity,
    ) -> Option<Analysis<G::Move>> {
        let mut rest = rest;
        if rest.time.is_none() && rest.nodes.is_none() {
            // Only memory stopped the solver: estimates to a depth that ends.
            rest.nodes = Some(UNLIMITED_ESTIMATE_NODES);
        }
        self.heuristic(line.position(), &rest, None, all, parity)
            .or_else(|| self.mcts(line, &rest))
    }

    /// A random move that does not lose at once; a win at once if there is one.
    fn random(&mut self, pos: &G) -> Analysis<G::Move> {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let me = pos.side_to_move();
        let winning = moves
            .iter()
            .copied()
            .find(|&m| pos.play(m).status() == Status::Win(me));
        let mv = winning.unwrap_or_else(|| {
            let mut safe = MoveList::new();
            pos.safe_moves(&mut safe);
            if safe.is_empty() {
                moves[self.rng.below(moves.len())]
            } else {
                safe[self.rng.below(safe.len())].mv
            }
        });
        Analysis {
            moves: vec![(mv, Valuation::Unknown)],
            pv: vec![mv],
            source: "random".into(),
        }
    }

    /// The exact solver's values of every move, as many as it settles within `limits` (the
    /// rest [`Valuation::Unknown`]), or of the best move alone if it finishes.
    fn exact(
        &mut self,
        line: &GameLine<G>,
        limits: &Limits,
        want: Want,
    ) -> Option<Analysis<G::Move>> {
        let started = Instant::now();
        let engine = self.exact.as_mut()?;
        if want != Want::Move {
            let scores = engine.analyze(line, limits);
            let moves: Vec<_> = scores
                .iter()
                .map(|s| (s.mv, s.score.map_or(Valuation::Unknown, Valuation::Exact)))
                .collect();
            let complete = moves.iter().all(|m| m.1.is_exact());
            let source = if complete { "exact" } else { "exact (part)" };
            let (best, Valuation::Exact(score)) = *moves.first()? else {
                return Some(Analysis {
                    moves,
                    pv: Vec::new(),
                    source: "exact (part)".into(),
                });
            };
            if want == Want::Values {
                return Some(Analysis {
                    moves,
                    pv: Vec::new(),
                    source: source.into(),
                });
            }
            // The line: the best move, then the solver's line from there as far as the time
            // left and a small node budget reach (the table is warm).
            let rest = Limits {
                time: limits.time.map(|t| t.saturating_sub(started.elapsed())),
                nodes: Some(limits.nodes.map_or(LINE_NODES, |n| n.min(LINE_NODES))),
                ..limits.clone()
            };
            let mut pv = vec![best];
            pv.extend(engine.line(&line.played(best), -score, &rest));
            return Some(Analysis {
                moves,
                pv,
                source: source.into(),
            });
        }
        // A move needs no line, nor the other moves' values: the first of the moves in a
        // random order that keeps the score.
        let rng = &mut self.rng;
        let report = engine.keeping_move(line, |moves| rng.shuffle(moves), limits);
        let score = report.score?;
        let best = *report.best_moves.first()?;
        Some(Analysis {
            moves: vec![(best, Valuation::Exact(score))],
            pv: vec![best],
            source: "exact".into(),
        })
    }

    /// Alpha-beta over the evaluation, to `depth` plies or deepening for the time.
    fn heuristic(
        &mut self,
        pos: &G,
        limits: &Limits,
        depth: Option<u32>,
        all: bool,
        parity: Parity,
    ) -> Option<Analysis<G::Move>> {
        pos.evaluate()?;
        let table = self.mem_bytes.min(HEURISTIC_TABLE_BYTES);
        let choice = heuristic::search_with_parity(pos, limits, depth, table, all, parity)?;
        let valuation = |v: Appraisal| match v {
            Appraisal::Exact(v) => Valuation::Proven(v),
            Appraisal::Heuristic(v) => Valuation::Heuristic(v),
        };
        let moves = if choice.moves.is_empty() {
            vec![(choice.best, valuation(choice.value))]
        } else {
            choice
                .moves
                .iter()
                .map(|&(m, v)| (m, valuation(v)))
                .collect()
        };
        Some(Analysis {
            moves,
            pv: choice.pv,
            source: format!("alphabeta depth {}", choice.depth),
        })
    }

    fn mcts(&mut self, line: &GameLine<G>, limits: &Limits) -> Option<Analysis<G::Move>> {
        let out = mcts::search(line, self.repetition, limits, self.mem_bytes, &mut self.rng)?;
        let mut moves: Vec<_> = out
            .moves
            .iter()
            .map(|&(m, e)| {
                let v = match e {
                    Estimate::Proven(v) => Valuation::Proven(v),
                    Estimate::Mean { mean, .. } => Valuation::WinRate(mean),
                };
                (m, v)
            })
            .collect();
        // MCTS's own order (visits) decides among estimates; proofs go first and last.
        moves.sort_by_key(|&(_, v)| std::cmp::Reverse(v.rank().0));
        Some(Analysis {
            moves,
            pv: out.pv,
            source: format!("mcts {} playouts", out.playouts),
        })
    }
}

/// `analysis` with `winning`, the moves of a proven winning strategy (its own move first),
/// valued proven wins where the search did not find the win itself (an exact win keeps its
/// distance), best first; the line starts with the best move when it is one of them.
fn proven_win<M: Copy + PartialEq>(mut analysis: Analysis<M>, winning: &[M]) -> Analysis<M> {
    let mut marked = false;
    for entry in &mut analysis.moves {
        if winning.contains(&entry.0) && entry.1.rank().0 < 3 {
            entry.1 = Valuation::Proven(1);
            marked = true;
        }
    }
    if marked {
        // The strategy's own move first among equals: the line follows it.
        analysis
            .moves
            .sort_by_key(|e| (std::cmp::Reverse(e.1.rank()), winning.first() != Some(&e.0)));
        let best = analysis.moves[0].0;
        if winning.contains(&best) && analysis.pv.first() != Some(&best) {
            analysis.pv = vec![best];
        }
        analysis.source = format!("{} and the strategy", analysis.source);
    }
    analysis
}

/// The exact values that `exact` settled, and `estimate`'s for the moves it did not, best
/// first; the line is the exact one if the best move is exact.
fn merge<M: Copy + PartialEq>(exact: Analysis<M>, estimate: Analysis<M>) -> Analysis<M> {
    let mut moves: Vec<(M, Valuation)> = exact
        .moves
        .iter()
        .map(|&(m, v)| match v {
            Valuation::Unknown => estimate
                .moves
                .iter()
                .find(|e| e.0 == m)
                .map_or((m, v), |&(_, e)| (m, e)),
            _ => (m, v),
        })
        .collect();
    // Stable: equal ranks keep the order each search gave.
    moves.sort_by_key(|&(_, v)| std::cmp::Reverse(v.rank()));
    // Only the solver gives `Exact` values: a best move that has one is the solver's best.
    let exact_best = matches!(moves.first(), Some((_, Valuation::Exact(_))));
    let pv = if exact_best && !exact.pv.is_empty() {
        exact.pv
    } else {
        estimate.pv
    };
    // The caption names the solver only where it settled a value.
    let settled = moves.iter().any(|(_, v)| matches!(v, Valuation::Exact(_)));
    Analysis {
        moves,
        pv,
        source: if settled {
            format!("exact and {}", estimate.source)
        } else {
            estimate.source
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Connect, PopOut, Standard};

    #[test]
    fn a_value_is_written_one_way_for_its_kind_of_game() {
        let written = |v: Valuation, weak: bool| v.settled(weak).to_string();
        // Win / draw / loss only: the strategy's (or an evaluation search's) proof is written
        // as the solver's exact values are.
        for (s, text) in [(1, "1"), (0, "0"), (-1, "-1")] {
            assert_eq!(written(Valuation::Proven(s), true), text);
            assert_eq!(written(Valuation::Exact(s), true), text);
        }
        // Exact scores: a draw is the score 0; a win or a loss without its distance in words.
        assert_eq!(written(Valuation::Proven(0), false), "0");
        assert_eq!(written(Valuation::Proven(1), false), "win");
        assert_eq!(written(Valuation::Proven(-1), false), "loss");
        assert_eq!(written(Valuation::Exact(-3), false), "-3");
        for weak in [true, false] {
            assert_eq!(written(Valuation::Heuristic(-12), weak), "~-12");
            assert_eq!(written(Valuation::WinRate(0.57), weak), "~57%");
            assert_eq!(written(Valuation::Unknown, weak), "?");
        }
        assert_eq!(
            Valuation::Proven(1).settled(true).rank(),
            Valuation::Proven(1).rank()
        );
    }

    #[test]
    fn an_analysis_without_a_bound_gives_the_solver_nine_tenths() {
        let ten = Limits::within(Duration::from_secs(10));
        let popout = PopOut::<u64, _>::new(Standard);
        assert_eq!(solver_share(&popout, &ten, true), 0.9);
        // Choosing a move keeps its half for the evaluation's search.
        assert_eq!(solver_share(&popout, &ten, false), 0.5);
        // A game with a bound keeps its shares: half of an analysis where the solver is not
        // expected to finish (the empty 7x6 board).
        let connect4 = Connect::<u64, _>::new(Standard);
        assert_eq!(solver_share(&connect4, &ten, true), 0.5);
    }

    #[test]
    fn levels_read_and_print_back() {
        for text in ["random", "depth3", "mcts", "alphabeta", "best"] {
            assert_eq!(text.parse::<Level>().expect("a level").to_string(), text);
        }
        for bad in ["depth0", "depth", "strong", "depth99"] {
            assert!(bad.parse::<Level>().is_err(), "{bad}");
        }
    }

    #[test]
    fn a_merge_names_the_solver_only_where_it_settled_a_value() {
        let estimate = Analysis {
            moves: vec![
                (1u8, Valuation::Heuristic(5)),
                (2, Valuation::Heuristic(-5)),
            ],
            pv: vec![1],
            source: "alphabeta depth 12".to_string(),
        };
        let nothing = Analysis {
            moves: vec![(1u8, Valuation::Unknown), (2, Valuation::Unknown)],
            pv: Vec::new(),
            source: "exact (part)".to_string(),
        };
        assert_eq!(
            merge(nothing, estimate.clone()).source,
            "alphabeta depth 12"
        );
        let one = Analysis {
            moves: vec![(1u8, Valuation::Unknown), (2, Valuation::Exact(3))],
            pv: vec![2],
            source: "exact (part)".to_string(),
        };
        let merged = merge(one, estimate);
        assert_eq!(merged.source, "exact and alphabeta depth 12");
        assert_eq!(merged.moves[0], (2, Valuation::Exact(3)));
    }
}
