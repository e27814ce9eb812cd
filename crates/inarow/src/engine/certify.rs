//! Certificates of a position's value ([`Engine::certify`]): one df-pn search both answers and
//! proves, whatever the engine's own algorithm, and its proof trees are written out as
//! strategies that `inarow verify` checks.

use super::{Engine, Error, Limits, Report, Stop};
use crate::certificate::Certificate;
use crate::game::{Goal, Notation, Rules, Tactics};
use crate::limits::{Clock, Instant};
use crate::search::pn::extract::extract_for_verdict;
use crate::search::pn::{DfPn, Prover, Verdict};

/// What [`Engine::certify`] found.
#[derive(Clone, Debug)]
pub struct Certified<G: Rules> {
    /// The weak value for the side to move (1 win, 0 draw, -1 loss) and what the df-pn search
    /// did, proofs and extraction together.
    pub report: Report<G::Move>,
    /// One certificate for a win or a loss (the winner's strategy), two for a draw.
    pub certificates: Vec<Certificate<G>>,
}

impl<G: Notation> Certified<G> {
    /// The certificates as the text of a certificate file: `start` is the game's start and
    /// `moves` lead from it to the position.
    pub fn text(&self, start: &G, moves: &[G::Move]) -> String {
        self.certificates
            .iter()
            .map(|c| crate::certificate::write(start, moves, c))
            .collect()
    }
}

impl<G: Tactics> Engine<G> {
    /// Certificates of the value of `pos` (solved weakly): one for a win or a loss (the winner's
    /// strategy), two for a draw (each side's strategy for not losing). Uses a df-pn search
    /// under `limits` and the engine's memory budget, whatever the engine's own algorithm.
    ///
    /// # Errors
    /// [`Error::Search`] when a limit stops the proof or its extraction; [`Error::Memory`] for
    /// a budget too small for the df-pn table.
    pub fn certificates(&mut self, pos: &G, limits: &Limits) -> Result<Vec<Certificate<G>>, Error> {
        Ok(self.certify(pos, limits)?.certificates)
    }

    /// [`Engine::certificates`], with the weak value they show and what the search did: one
    /// df-pn search both answers and proves.
    ///
    /// # Errors
    /// As [`Engine::certificates`].
    pub fn certify(&mut self, pos: &G, limits: &Limits) -> Result<Certified<G>, Error> {
        let (mem_bytes, threats, victor_plies) =
            (self.mem_bytes, self.dfpn_threats, self.victor_plies);
        let stopped = |e: Stop| Error::Search(e.to_string());
        self.on_search_stack(|_| {
            let started = Instant::now();
            // One clock for the proofs and their extraction.
            let mut clock = Clock::new(limits.clone());
            let mut dfpn = DfPn::try_new(mem_bytes)?;
            dfpn.set_threat_search(threats);
            dfpn.set_victor_plies(victor_plies);
            let win = dfpn.prove(pos, Goal::Win, &mut clock).map_err(stopped)?;
            let mut verdicts = vec![(Goal::Win, win)];
            if win == Verdict::Disproven {
                let not_lose = dfpn
                    .prove(pos, Goal::NotLose, &mut clock)
                    .map_err(stopped)?;
                // A loss is the opponent's win: one certificate is enough.
                verdicts = match not_lose {
                    Verdict::Disproven => vec![(Goal::NotLose, not_lose)],
                    Verdict::Proven => vec![(Goal::Win, win), (Goal::NotLose, not_lose)],
                };
            }
            let value = match verdicts[..] {
                [(_, Verdict::Proven)] => 1,
                [_, _] => 0,
                _ => -1,
            };
            let certificates = verdicts
                .into_iter()
                .map(|(goal, verdict)| {
                    extract_for_verdict(&mut dfpn, pos, goal, verdict, &mut clock)
                        .map_err(|e| Error::Search(e.to_string()))
                })
                .collect::<Result<_, _>>()?;
            let stats = dfpn.stats();
            Ok(Certified {
                report: Report {
                    score: Some(value),
                    stopped: None,
                    best_moves: Vec::new(),
                    pv: Vec::new(),
                    nodes: stats.expanded,
                    elapsed: started.elapsed(),
                    peak_bytes: stats.peak_bytes,
                    plies: None,
                    proven: None,
                },
                certificates,
            })
        })
    }

    /// The certificates of the position `moves` reach from `start`, as the text of a
    /// certificate file that `inarow verify` reads.
    ///
    /// # Errors
    /// As [`Engine::certificates`].
    pub fn certificate_file(
        &mut self,
        start: &G,
        moves: &[G::Move],
        limits: &Limits,
    ) -> Result<String, Error>
    where
        G: Notation,
    {
        let pos = moves.iter().fold(*start, |p, &m| p.play(m));
        Ok(self.certify(&pos, limits)?.text(start, moves))
    }
}
