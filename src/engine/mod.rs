//! The facade the front-ends call: picks the algorithm, applies limits, and returns a
//! [`Report`] (score, best moves, principal variation, nodes, time). Front-ends never reach past
//! it into search internals.

pub mod bench;

use crate::game::{Game, MoveList, Status};
use crate::search::alphabeta::Limits;
use crate::search::{AlphaBeta, Config, Stopped};
use std::time::{Duration, Instant};

/// What a front-end asks of the engine.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    pub config: Config,
    /// Only win / draw / loss (-1 / 0 / 1), not the exact score.
    pub weak: bool,
    /// Limits on each call (solve, or analyze as a whole).
    pub limits: Limits,
}

/// The result of solving one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Report<M> {
    /// The score for the side to move; `None` when a limit stopped the search.
    pub score: Option<i32>,
    pub stopped: Option<Stopped>,
    /// Every move that reaches the score (filled by [`Engine::solve_detailed`]).
    pub best_moves: Vec<M>,
    /// A line of perfect play to the end of the game (filled by [`Engine::solve_detailed`]).
    pub pv: Vec<M>,
    pub nodes: u64,
    pub elapsed: Duration,
}

/// The score of one move, as [`Engine::analyze`] returns it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveScore<M> {
    pub mv: M,
    pub score: Option<i32>,
}

/// A solver with its table, for positions of one game.
pub struct Engine<G: Game> {
    solver: AlphaBeta<G>,
    weak: bool,
    limits: Limits,
}

impl<G: Game> Engine<G> {
    pub fn new(sample: &G, options: Options) -> Self {
        Self::try_new(sample, options).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`Engine::new`], but a table the machine cannot hold is an error.
    pub fn try_new(sample: &G, options: Options) -> Result<Self, String> {
        Ok(Engine {
            solver: AlphaBeta::try_new(sample, options.config)?,
            weak: options.weak,
            limits: options.limits,
        })
    }

    /// Forgets everything learnt (the table), as before a benchmark position.
    pub fn reset(&mut self) {
        self.solver.reset();
    }

    pub fn table_bytes(&self) -> usize {
        self.solver.table_bytes()
    }

    /// The score of `pos`.
    pub fn solve(&mut self, pos: &G) -> Report<G::Move> {
        self.solver.set_limits(self.limits);
        let start = Instant::now();
        let nodes0 = self.solver.nodes();
        let result = self.solver.solve(pos, self.weak);
        Report {
            score: result.ok(),
            stopped: result.err(),
            best_moves: Vec::new(),
            pv: Vec::new(),
            nodes: self.solver.nodes() - nodes0,
            elapsed: start.elapsed(),
        }
    }

    /// The score of `pos`, every move that reaches it, and a principal variation.
    pub fn solve_detailed(&mut self, pos: &G) -> Report<G::Move> {
        let start = Instant::now();
        let nodes0 = self.solver.nodes();
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
        report.nodes = self.solver.nodes() - nodes0;
        report.elapsed = start.elapsed();
        report
    }

    /// Whether playing `mv` from `pos` keeps the score `score`.
    fn keeps_score(&mut self, pos: &G, mv: G::Move, score: i32) -> Result<bool, Stopped> {
        if self.weak && score < 0 {
            return Ok(true);
        }
        self.solver.value_at_most(&pos.play(mv), -score)
    }

    fn best_moves(&mut self, pos: &G, score: i32) -> Result<Vec<G::Move>, Stopped> {
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

    fn principal_variation(&mut self, pos: &G, score: i32) -> Result<Vec<G::Move>, Stopped> {
        let mut pv = Vec::new();
        let (mut pos, mut score) = (*pos, score);
        while pos.status() == Status::Ongoing {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut next = None;
            for mv in moves {
                if self.keeps_score(&pos, mv, score)? {
                    next = Some(mv);
                    break;
                }
            }
            let Some(mv) = next else { break };
            pv.push(mv);
            pos = pos.play(mv);
            score = -score;
        }
        Ok(pv)
    }

    /// The score of every legal move, best first (moves of equal score in the game's order).
    /// Limits apply to the whole analysis; moves not reached have no score.
    pub fn analyze(&mut self, pos: &G) -> Vec<MoveScore<G::Move>> {
        self.solver.set_limits(self.limits);
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut scores: Vec<MoveScore<G::Move>> = Vec::new();
        for mv in moves {
            let score = self.solver.solve(&pos.play(mv), self.weak).ok().map(|s| -s);
            scores.push(MoveScore { mv, score });
        }
        scores.sort_by_key(|s| std::cmp::Reverse(s.score));
        scores
    }

    /// Nodes searched since the engine was made or reset.
    pub fn nodes(&self) -> u64 {
        self.solver.nodes()
    }
}
