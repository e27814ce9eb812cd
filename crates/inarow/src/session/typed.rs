//! A game and its positions behind [`Game`] and [`Line`]: where the game's type is named.

use super::*;

/// A game, by its start position.
pub(super) struct GameOf<G> {
    pub(super) start: G,
    pub(super) repetition: Repetition,
}

/// A position of a game, as played.
pub(super) struct LineOf<G: Playable> {
    pub(super) start: G,
    pub(super) repetition: Repetition,
    pub(super) line: GameLine<G>,
    /// The board the line started from, as given.
    pub(super) origin: Option<String>,
    /// The text it was read from.
    pub(super) given: Option<String>,
}

impl<G: Playable> LineOf<G> {
    fn read(start: G, repetition: Repetition, text: &str) -> Result<Self, MoveError> {
        let line = read_line(start, text)?;
        let origin = (*line.start() != start).then(|| text.trim().to_string());
        Ok(LineOf {
            start,
            repetition,
            line,
            origin,
            given: Some(text.to_string()),
        })
    }

    fn status(&self) -> Status {
        self.line.status(self.repetition)
    }

    /// `line` with `token` played, or the message the command line gives for the move string
    /// that ends with it.
    fn played(&self, token: &str) -> Result<LineOf<G>, Error> {
        let pos = *self.line.position();
        let fail = |reason: String| {
            let mut tokens = Line::move_list(self);
            tokens.push(token.to_string());
            Error::Move(MoveError {
                text: self.start.join_moves(&tokens),
                index: tokens.len(),
                token: token.to_string(),
                reason,
            })
        };
        if self.status() != Status::Ongoing {
            return Err(fail(format!("'{token}' comes after the game is over")));
        }
        let mv = pos
            .parse_move(token.trim())
            .map_err(|e| fail(e.to_string()))?;
        Ok(LineOf {
            start: self.start,
            repetition: self.repetition,
            line: self.line.played(mv),
            origin: self.origin.clone(),
            given: None,
        })
    }

    /// A line as text the game reads back (see [`Line::text`]).
    pub(super) fn text_of(&self, line: &GameLine<G>) -> Option<String> {
        if *line.start() == self.start {
            return Some(line.move_string());
        }
        let board = line.start().format_board()?;
        Some(match line.move_string() {
            moves if moves.is_empty() => board,
            moves => format!("{board}/{moves}"),
        })
    }

    /// The view with its moves as codes, sorted by code or in the order the game generates
    /// them; none once the game is over.
    fn view_sorted(&self, by_code: bool) -> PositionView<u16> {
        let pos = self.line.position();
        let view = PositionView::of(pos);
        let mut moves: Vec<_> = view
            .moves
            .into_iter()
            .map(|m| MoveView {
                mv: pos.move_code(m.mv),
                text: m.text,
                effect: m.effect,
                changed: m.changed,
            })
            .collect();
        if self.status() != Status::Ongoing {
            moves.clear();
        }
        if by_code {
            moves.sort_by_key(|m| m.mv);
        }
        PositionView {
            layout: view.layout,
            cells: view.cells,
            to_move: view.to_move,
            status: view.status,
            lines: view.lines,
            moves,
        }
    }
}

/// The line a search starts from: in a bounded game the position alone (the positions before
/// it count for nothing, and a line of one position costs no allocation).
pub(super) fn to_solve<G: Playable>(line: &GameLine<G>) -> GameLine<G> {
    if G::Kind::REPEATS {
        line.clone()
    } else {
        GameLine::new(*line.position())
    }
}

/// [`to_solve`] of a move string (or a board).
pub(super) fn read_to_solve<G: Playable>(start: G, text: &str) -> Result<GameLine<G>, MoveError> {
    if G::Kind::REPEATS {
        read_line(start, text)
    } else {
        read_position(start, text).map(|(_, pos, _)| GameLine::new(pos))
    }
}

/// The position as this game's line.
pub(super) fn line_of<'a, G: Playable>(
    pos: &'a dyn Line,
    start: &G,
) -> Result<&'a LineOf<G>, Error> {
    match pos.as_any().downcast_ref::<LineOf<G>>() {
        Some(l) if l.start == *start => Ok(l),
        _ => Err(Error::Unsupported(format!(
            "the position is not of this solver's game, {}",
            start.name()
        ))),
    }
}

impl<G: Playable> GameOf<G> {
    /// `solver` as a solver of this game.
    fn agent_of<'a>(&self, solver: &'a mut dyn Agent) -> Result<&'a mut AgentOf<G>, Error> {
        let name = self.start.name();
        solver
            .as_any_mut()
            .downcast_mut::<AgentOf<G>>()
            .filter(|s| s.start == self.start)
            .ok_or_else(|| Error::Unsupported(format!("the solver is not one of {name}")))
    }
}

impl<G: Playable> GameOf<G> {
    /// An engine of `settings` on one thread: a job-level search's worker.
    fn worker_engine(&self, settings: &Settings) -> Result<Engine<G>, Error> {
        let settings = Settings {
            threads: 1,
            ..settings.clone()
        };
        settings.engine(&self.start, self.repetition)
    }
}

impl<G: Playable> Tools for GameOf<G> {
    fn count_by_formula(&self) -> Option<CountByFormula> {
        self.start.count_by_formula()
    }

    fn count(&self, mem_bytes: usize, progress: &mut dyn FnMut(u64)) -> Result<Census, Error> {
        crate::search::census::count(self.start, mem_bytes, progress)
    }

    fn build_database(
        &self,
        out: &Path,
        options: &DatabaseOptions,
        progress: &(dyn Fn(Progress) + Sync),
        ranks: &dyn Ranks,
    ) -> Result<DatabaseReport, Error> {
        database::build_ranked(&self.start, out, options, progress, ranks)
    }

    fn solve_by_jobs(
        &self,
        settings: &Settings,
        pos: &dyn Line,
        ask: JobAsk<'_>,
    ) -> Result<JobReport, Error> {
        use crate::engine::distributed::workers;
        if G::Kind::max_plies(&self.start).is_none() {
            return Err(Error::Unsupported(format!(
                "--jobs: {} repeats positions, and job-level search merges positions reached \
                 by different histories; solve it without --jobs",
                self.start.name()
            )));
        }
        let line = &line_of(pos, &self.start)?.line;
        let at = *line.position();
        let make = || self.worker_engine(settings);
        let settled = ask.settled;
        let mut settled = |mv: G::Move, what| settled(at.format_move(mv), what);
        workers::solve(
            ask.serial,
            &self.start,
            &at,
            line.moves(),
            ask.depth,
            ask.threads,
            ask.ranks,
            &make,
            ask.limits,
            workers::Keeping {
                journal: ask.journal,
                settled: &mut settled,
                job_nodes: ask.job_nodes,
            },
        )
    }

    fn serve_jobs(
        &self,
        settings: &Settings,
        ranks: &dyn Ranks,
        threads: usize,
        limits: &Limits,
        job_nodes: Option<u64>,
    ) -> Result<(), Error> {
        let make = || self.worker_engine(settings);
        crate::engine::distributed::workers::serve(
            &self.start,
            ranks,
            threads,
            &make,
            limits,
            job_nodes,
        )
    }

    fn checkpoint(&self, solver: &mut dyn Agent, file: &Path) -> Result<(Checkpoint, bool), Error> {
        self.agent_of(solver)?.checkpoint(file)
    }

    fn certify(
        &self,
        solver: &mut dyn Agent,
        pos: &dyn Line,
        limits: &Limits,
    ) -> Result<Certificates, Error> {
        self.agent_of(solver)?.certify(pos, limits)
    }

    fn verify_certificate(&self, text: &str) -> Result<VerifySummary, Error> {
        crate::certificate::verify(self.start, text)
    }

    fn build_book(
        &self,
        settings: &Settings,
        depth: u32,
        perfect_to: u32,
        out: &Path,
        jobs: usize,
        limits: &Limits,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<BookStats, Error> {
        let mut engines = (0..jobs.max(1))
            .map(|_| settings.engine(&self.start, self.repetition))
            .collect::<Result<Vec<_>, Error>>()?;
        Book::build_for_perfect_play(
            self.start,
            depth,
            perfect_to,
            out,
            &mut engines,
            limits,
            progress,
        )
    }

    fn check_book(
        &self,
        path: Option<&Path>,
        settings: &Settings,
        sample: usize,
        seed: u64,
        limits: &Limits,
        progress: &mut dyn FnMut(usize, usize),
    ) -> Result<BookCheckSummary, Error> {
        let name = self.start.name();
        let book = match path {
            Some(path) => Arc::new(Book::load(path, &name)?),
            None => Book::builtin_for(&self.start)
                .ok_or_else(|| Error::Unsupported(format!("no book ships for {name}")))?,
        };
        let mut engine = settings.engine(&self.start, self.repetition)?;
        let found = book_check::check(
            &book,
            self.start,
            &mut engine,
            sample,
            seed,
            limits,
            progress,
        )?;
        let line = |pos: &G| match book_check::line_to(self.start, pos) {
            Some(moves) if moves.is_empty() => "-".to_string(),
            Some(moves) => {
                let mut at = self.start;
                let names: Vec<String> = moves
                    .iter()
                    .map(|&m| {
                        let name = at.format_move(m);
                        at = at.play(m);
                        name
                    })
                    .collect();
                self.start.join_moves(&names)
            }
            None => format!("{pos:?}"),
        };
        Ok(BookCheckSummary {
            game: name,
            depth: book.depth(),
            entries: book.len(),
            positions: found.positions,
            missing: found.missing,
            derived: found.derived,
            inconsistent: found.inconsistent,
            sample: found.sample.iter().map(|(p, s)| (line(p), *s)).collect(),
            disagreements: found.disagreements,
            nodes: found.nodes,
            problems: found
                .problems
                .iter()
                .map(|(p, why)| (line(p), why.clone()))
                .collect(),
        })
    }

    fn strategy_from_certificate(&self, text: &str, out: &Path) -> Result<StrategyStats, Error> {
        let (strategy, verified, walk) =
            crate::engine::knowledge::strategy::Strategy::from_certificate(self.start, text)?;
        strategy.write(&self.start, out)?;
        Ok(StrategyStats {
            prover: strategy.prover(),
            entries: strategy.len(),
            verified,
            walk,
        })
    }
}

impl<G: Playable> Game for GameOf<G> {
    fn name(&self) -> String {
        self.start.name()
    }

    fn repetition(&self) -> Repetition {
        self.repetition
    }

    fn max_plies(&self) -> Option<u32> {
        G::Kind::max_plies(&self.start)
    }

    fn has_builtin_book(&self) -> bool {
        Book::builtin_for(&self.start).is_some()
    }

    fn has_builtin_strategy(&self) -> bool {
        crate::engine::knowledge::strategy::Strategy::builtin_for(&self.start).is_some()
    }

    fn describe_moves(&self) -> String {
        self.start.describe_moves()
    }

    fn join_moves(&self, moves: &[String]) -> String {
        self.start.join_moves(moves)
    }

    fn read(&self, text: &str) -> Result<Arc<dyn Line>, Error> {
        Ok(Arc::new(LineOf::read(self.start, self.repetition, text)?))
    }

    fn read_tokens(&self, tokens: &[String]) -> Result<Arc<dyn Line>, Error> {
        let mut line = LineOf {
            start: self.start,
            repetition: self.repetition,
            line: GameLine::new(self.start),
            origin: None,
            given: None,
        };
        for token in tokens {
            line = line.played(token)?;
        }
        Ok(Arc::new(line))
    }

    fn fitted(&self, settings: Settings) -> Settings {
        let mut options = Options::default();
        options.config.threads = settings.threads;
        Settings {
            threads: options.fitted_to(&self.start).config.threads,
            ..settings
        }
    }

    fn agent(&self, settings: &Settings, seed: u64) -> Result<Box<dyn Agent>, Error> {
        Ok(Box::new(AgentOf::new(
            self.start,
            self.repetition,
            settings,
            seed,
        )?))
    }

    fn solve_many(
        &self,
        positions: &[Source],
        ask: &Ask,
        solvers: &mut [Box<dyn Agent>],
    ) -> Result<Vec<Option<Solution>>, (usize, Error)> {
        let lines = positions
            .iter()
            .enumerate()
            .map(|(i, source)| match source {
                Source::Text(text) => read_to_solve(self.start, text).map_err(|e| (i, e.into())),
                Source::Line(pos) => line_of(pos.as_ref(), &self.start)
                    .map(|l| to_solve(&l.line))
                    .map_err(|e| (i, e)),
            })
            .collect::<Result<Vec<_>, _>>()?;
        let mut solvers = solvers
            .iter_mut()
            .take(lines.len().max(1))
            .map(|s| {
                s.as_any_mut()
                    .downcast_mut::<AgentOf<G>>()
                    .filter(|s| s.start == self.start)
                    .ok_or_else(|| {
                        (
                            0,
                            Error::Unsupported(format!(
                                "the solvers are not of this game, {}",
                                self.start.name()
                            )),
                        )
                    })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let next = AtomicUsize::new(0);
        let solve_share = |solver: &mut AgentOf<G>| {
            let mut solved = Vec::new();
            loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= lines.len() || ask.limits.is_interrupted() {
                    return solved;
                }
                solver.reset();
                solved.push((i, solver.solve_line(&lines[i], ask)));
            }
        };
        let mut results: Vec<Option<Solution>> = (0..lines.len()).map(|_| None).collect();
        if let [solver] = &mut solvers[..] {
            // One solver: each answer straight into its place (no second list of them, which
            // for thousands of short positions costs as much as a tenth of their solving).
            for (line, result) in lines.iter().zip(&mut results) {
                if ask.limits.is_interrupted() {
                    break;
                }
                solver.reset();
                *result = Some(solver.solve_line(line, ask));
            }
        } else {
            let share = &solve_share;
            let mut failed = None;
            std::thread::scope(|scope| {
                let handles: Vec<_> = solvers
                    .iter_mut()
                    .map(|solver| scope.spawn(move || share(solver)))
                    .collect();
                for handle in handles {
                    match handle.join() {
                        Ok(solved) => {
                            for (i, s) in solved {
                                results[i] = Some(s);
                            }
                        }
                        Err(_) => failed = Some(Error::Search("a solving thread failed".into())),
                    }
                }
            });
            if let Some(e) = failed {
                return Err((0, e));
            }
        }
        Ok(results)
    }
}

impl<G: Playable> Line for LineOf<G> {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn game(&self) -> String {
        self.start.name()
    }

    fn moves(&self) -> String {
        self.line.move_string()
    }

    fn text(&self) -> Option<String> {
        self.text_of(&self.line)
    }

    fn move_list(&self) -> Vec<String> {
        let mut pos = *self.line.start();
        self.line
            .moves()
            .iter()
            .map(|&m| {
                let text = pos.format_move(m);
                pos = pos.play(m);
                text
            })
            .collect()
    }

    fn origin(&self) -> Option<&str> {
        self.origin.as_deref()
    }

    fn ply(&self) -> u32 {
        self.line.position().ply()
    }

    fn to_move(&self) -> Player {
        self.line.position().side_to_move()
    }

    fn status(&self) -> Status {
        LineOf::status(self)
    }

    fn legal_moves(&self) -> Vec<String> {
        if self.status() != Status::Ongoing {
            return Vec::new();
        }
        let pos = self.line.position();
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        moves.sort_by_key(|&m| pos.move_code(m));
        moves.iter().map(|&m| pos.format_move(m)).collect()
    }

    fn safe_moves(&self) -> Vec<String> {
        if self.status() != Status::Ongoing {
            return Vec::new();
        }
        let pos = self.line.position();
        let mut safe = MoveList::new();
        pos.safe_moves(&mut safe);
        safe.iter().map(|m| pos.format_move(m.mv)).collect()
    }

    fn has_winning_move(&self) -> bool {
        self.status() == Status::Ongoing && self.line.position().has_winning_move()
    }

    fn play(&self, token: &str) -> Result<Arc<dyn Line>, Error> {
        Ok(Arc::new(self.played(token)?))
    }

    fn view(&self) -> PositionView<u16> {
        self.view_sorted(true)
    }

    fn view_in_play_order(&self) -> PositionView<u16> {
        self.view_sorted(false)
    }

    fn render(&self) -> String {
        self.line.position().render()
    }

    fn key(&self) -> u128 {
        self.line.position().key()
    }

    fn canonical_key(&self) -> u128 {
        self.line.position().canonical_key()
    }

    fn policy(&self) -> Policy {
        Policy {
            values_all_moves_at_once: G::VALUES_ALL_MOVES_AT_ONCE,
            scores_carry_distance: G::SCORES_CARRY_DISTANCE,
        }
    }

    fn rough_solve_seconds(&self) -> Option<f64> {
        self.line.position().rough_solve_seconds()
    }

    fn given(&self) -> String {
        self.given
            .clone()
            .or_else(|| self.origin.clone())
            .unwrap_or_else(|| self.line.move_string())
    }
}
