//! The agent of one game behind [`Agent`]: the playing engine and its exact solver.

use super::*;
use crate::limits::Instant;

/// The agent of one game: the playing engine at its level, whose exact solver (level best)
/// answers values.
pub(super) struct AgentOf<G: Playable> {
    pub(super) start: G,
    pub(super) settings: Settings,
    pub(super) player: TypedAgent<G>,
    /// Whether its scores are exact (not only win / draw / loss).
    pub(super) exact: bool,
    /// Whether its exact values are win / draw / loss only: a weak solver, or a method that
    /// proves no more (the proof-number searches).
    pub(super) weak: bool,
}

impl<G: Playable> AgentOf<G> {
    pub(super) fn new(
        start: G,
        repetition: Repetition,
        settings: &Settings,
        seed: u64,
    ) -> Result<Self, Error> {
        // The distance to the end comes free with an exact score of a bounded game; elsewhere
        // it would take another search (or change the method), so it is asked only if wanted.
        let free_distance = G::SCORES_CARRY_DISTANCE && settings.algorithm.is_none();
        let exact = Settings {
            distance: settings.distance || (free_distance && !settings.weak),
            ..settings.clone()
        };
        let player = if settings.level == Level::Best {
            let engine = exact.engine(&start, repetition)?;
            TypedAgent::with_engine(engine, &settings.engine_options(repetition), seed)?
        } else {
            TypedAgent::new(
                settings.level,
                &start,
                settings.engine_options(repetition),
                seed,
            )?
        };
        Ok(AgentOf::around(start, settings.clone(), player))
    }

    pub(super) fn around(start: G, settings: Settings, player: TypedAgent<G>) -> Self {
        let weak = player
            .engine()
            .is_some_and(|e| e.is_weak() || e.method().is_weak_only());
        let exact = player.engine().is_some() && !weak;
        AgentOf {
            start,
            settings,
            player,
            exact,
            weak,
        }
    }

    fn engine(&mut self) -> Result<&mut Engine<G>, Error> {
        self.player.engine_mut().ok_or_else(|| {
            Error::Unsupported(format!(
                "engine {}: only the exact solver (engine best) solves",
                self.settings.level
            ))
        })
    }

    /// Solves under the ask's limits.
    pub(super) fn solve_line(&mut self, line: &GameLine<G>, ask: &Ask) -> Solution {
        let exact = self.exact;
        let Ok(engine) = self.engine() else {
            return Solution {
                score: None,
                plies: None,
                best_moves: None,
                pv: None,
                exact: false,
                stopped: Some("no exact solver".into()),
                nodes: 0,
                seconds: 0.0,
                peak_bytes: 0,
                proven: None,
            };
        };
        let report = if ask.win_only {
            engine.wins(line, &ask.limits)
        } else if ask.pv {
            engine.solve_detailed(line, &ask.limits)
        } else if ask.best_moves {
            engine.solve_moves(line, &ask.limits)
        } else {
            engine.solve(line, &ask.limits)
        };
        solution(line.position(), &report, exact, ask)
    }

    /// A move's value as the fronts give it, in the one form of its kind whatever answered
    /// ([`Valuation::settled`]): with its exact score and the ply the game ends on where the
    /// engine gives exact scores.
    fn move_value(&self, pos: &G, mv: G::Move, value: Valuation) -> MoveValue {
        let weak = self.weak;
        let value = value.settled(weak);
        let (score, end) = match (value, G::Kind::max_plies(pos)) {
            (Valuation::Exact(s), Some(max)) if !weak => (Some(s), end_ply(max, pos.ply(), s)),
            _ => (None, None),
        };
        MoveValue {
            mv: pos.format_move(mv),
            value,
            score,
            end_ply: end,
        }
    }
}

/// The moves of a line from `pos`, each written in the position it is played in.
pub(super) fn format_line<G: Notation>(mut pos: G, line: &[G::Move]) -> Vec<String> {
    line.iter()
        .map(|&m| {
            let text = pos.format_move(m);
            pos = pos.play(m);
            text
        })
        .collect()
}

/// A report as the fronts give it.
pub(super) fn solution<G: Notation>(
    pos: &G,
    report: &Report<G::Move>,
    exact: bool,
    ask: &Ask,
) -> Solution {
    Solution {
        score: report.score,
        plies: report.plies,
        best_moves: (ask.best_moves || ask.pv).then(|| {
            report
                .best_moves
                .iter()
                .map(|&m| pos.format_move(m))
                .collect()
        }),
        pv: ask.pv.then(|| format_line(*pos, &report.pv)),
        exact: exact && report.score.is_some(),
        stopped: report.stopped.map(|s| s.to_string()),
        nodes: report.nodes,
        seconds: report.elapsed.as_secs_f64(),
        peak_bytes: report.peak_bytes,
        proven: report.proven,
    }
}

impl<G: Playable> Agent for AgentOf<G> {
    fn settings(&self) -> &Settings {
        &self.settings
    }

    fn is_weak(&self) -> bool {
        self.weak
    }

    fn solve(&mut self, pos: &dyn Line, ask: &Ask) -> Result<Solution, Error> {
        let whole = line_of(pos, &self.start)?.line.clone();
        let (weak, distance, exact) = (self.weak, self.settings.distance, self.exact);
        let engine = self.engine()?;
        // A winning strategy is a proof: on its line the value is known without a search. It
        // says who wins, and so every best move of the side that loses (all its moves lose),
        // no more: not the winner's other winning moves, nor a distance (a line of play asked
        // is left empty).
        if weak && !distance {
            let start = Instant::now();
            let sign = engine.strategy_value(&whole);
            let best_moves = (sign == Some(-1) && ask.best_moves).then(|| pos.legal_moves());
            if let Some(sign) = sign
                && (!ask.best_moves || best_moves.is_some())
            {
                return Ok(Solution {
                    score: Some(if ask.win_only {
                        i32::from(sign > 0)
                    } else {
                        sign
                    }),
                    plies: None,
                    best_moves,
                    pv: None,
                    exact,
                    stopped: None,
                    nodes: 0,
                    seconds: start.elapsed().as_secs_f64(),
                    peak_bytes: 0,
                    proven: None,
                });
            }
        }
        Ok(self.solve_line(&to_solve(&whole), ask))
    }

    fn analyze(&mut self, pos: &dyn Line, limits: &Limits) -> Result<PositionAnalysis, Error> {
        self.analysis(pos, limits, true)
    }

    fn analyze_values(
        &mut self,
        pos: &dyn Line,
        limits: &Limits,
    ) -> Result<PositionAnalysis, Error> {
        self.analysis(pos, limits, false)
    }

    fn analyze_move(
        &mut self,
        pos: &dyn Line,
        mv: &str,
        limits: &Limits,
    ) -> Result<MoveAnalysis, Error> {
        if let Some(over) = pos.over() {
            return Err(over);
        }
        let game = line_of(pos, &self.start)?.line.clone();
        let at = *game.position();
        let parsed = at
            .parse_move(mv.trim())
            .map_err(|e| Error::Input(format!("move '{mv}': {e}")))?;
        let mut legal = MoveList::new();
        at.legal_moves(&mut legal);
        if !legal.contains(&parsed) {
            return Err(Error::Input(format!("move '{mv}': not legal here")));
        }
        let valued = self.player.analyze_move(&game, parsed, limits);
        let value = valued.moves.first().map_or(Valuation::Unknown, |m| m.1);
        Ok(MoveAnalysis {
            value: self.move_value(&at, parsed, value),
            line: format_line(at, &valued.pv),
            weak: self.weak,
        })
    }

    fn best_move(&mut self, pos: &dyn Line, limits: &Limits) -> Result<EngineMove, Error> {
        if let Some(over) = pos.over() {
            return Err(over);
        }
        let line = line_of(pos, &self.start)?;
        let game = &line.line;
        let at = *game.position();
        let (mv, value) = self
            .player
            .choose_within(game, limits)
            .ok_or_else(|| Error::Search("the engine found no move".into()))?;
        Ok(EngineMove {
            mv: at.format_move(mv),
            moves: line.text_of(&line.line.played(mv)),
            value: value.settled(self.weak),
        })
    }

    fn reseed(&mut self, seed: u64) {
        self.player.reseed(seed);
    }

    fn memory_needed(&self, pos: &dyn Line, bytes: u64) -> (Option<u64>, Option<u32>) {
        let (Ok(line), Some(engine)) = (line_of(pos, &self.start), self.player.engine()) else {
            return (None, None);
        };
        (
            engine.bytes_needed(line.line.position()),
            engine.fits_from(bytes),
        )
    }

    fn reset(&mut self) {
        if let Ok(engine) = self.engine() {
            engine.reset();
        }
    }

    fn ready(&mut self) {
        if let Ok(engine) = self.engine() {
            engine.ready();
        }
    }

    fn algorithm(&self) -> Option<Algorithm> {
        self.player.engine().map(Engine::method)
    }

    fn profile_table(&self) -> Option<String> {
        self.player.engine()?.profile().map(|p| p.table())
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }
}

impl<G: Playable> AgentOf<G> {
    /// [`Agent::analyze`], with the line of play or without it.
    fn analysis(
        &mut self,
        pos: &dyn Line,
        limits: &Limits,
        with_line: bool,
    ) -> Result<PositionAnalysis, Error> {
        if let Some(over) = pos.over() {
            return Err(over);
        }
        // The whole line: a winning strategy answers only where its side's moves were its own.
        let game = line_of(pos, &self.start)?.line.clone();
        let at = *game.position();
        let analysis = if with_line {
            self.player.analyze(&game, limits)
        } else {
            self.player.analyze_values(&game, limits)
        };
        Ok(PositionAnalysis {
            moves: analysis
                .moves
                .iter()
                .map(|&(m, v)| self.move_value(&at, m, v))
                .collect(),
            pv: format_line(at, &analysis.pv),
            source: analysis.source,
            weak: self.weak,
        })
    }

    /// [`Tools::checkpoint`] of this solver.
    pub(super) fn checkpoint(&mut self, file: &Path) -> Result<(Checkpoint, bool), Error> {
        let name = self.start.name();
        let state = self.engine()?.state().ok_or_else(|| {
            Error::Unsupported(format!(
                "--checkpoint works with the alpha-beta algorithms, not with this algorithm on \
                 {name}"
            ))
        })?;
        Checkpoint::open(file, &name, state)
    }

    /// [`Tools::certify`] with this solver.
    pub(super) fn certify(
        &mut self,
        pos: &dyn Line,
        limits: &Limits,
    ) -> Result<Certificates, Error> {
        let line = &line_of(pos, &self.start)?.line;
        if *line.start() != self.start {
            return Err(Error::Unsupported(
                "a certificate needs the position as moves from the start".to_string(),
            ));
        }
        let (start, exact) = (self.start, self.exact);
        let certified = self.engine()?.certify(line.position(), limits)?;
        Ok(Certificates {
            solution: solution(line.position(), &certified.report, exact, &Ask::default()),
            text: certified.text(&start, line.moves()),
        })
    }
}
