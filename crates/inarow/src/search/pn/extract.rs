//! Proof certificates ([`Certificate`]) extracted from a df-pn search.
//!
//! # Extraction
//! [`extract_proof`] asks a [`DfPn`] which moves work: at a prover position it tries the safe
//! moves whose child the table already knows to be proven (when none is, it first searches
//! below the position again, best-first, [`DfPn::search_below`]), then the others, each
//! confirmed by a df-pn proof of the child (whose table answers most of them at once: the df-pn searches are
//! asked without history, so they share the table with the proof that gave the verdict); at an
//! opponent position it follows every legal move. It performs the verifier's walk as it goes (the
//! same repetition judgement, the same memory of verified positions) and backtracks to another
//! move if a choice fails, so what it writes passes the verifier. In a game with repetitions a
//! move that only reaches the goal thanks to a repetition of the walk's own path is not offered
//! by the history-free df-pn answers, so extraction may then fail where a proof exists
//! ([`ExtractError::NotProven`]); it never writes a wrong one.
//!
//! Where the df-pn search uses Victor's threat rules ([`DfPn::set_victor_plies`]), a position
//! where the opponent moves and the rules show that it loses, or, where the prover need only
//! not lose, that it cannot win, gets a rule line with the witness ([`cover::witness`], with
//! the budget of a lone claim, so every position df-pn settled by the rules is found again,
//! and more), and nothing below it is written.

use super::dfpn::DfPn;
use super::prover::Question;
use super::{Prover, Verdict, order_moves};
use crate::certificate::{Certificate, ThreatLine, class_of};
use crate::game::{GameLine, Goal, MoveList, Player, RepetitionRule, Status, Tactics};
use crate::limits::{Clock, Stop};
use crate::search::cover::{self, Witness};
use crate::search::threats::replays;
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt;

/// Why a proof could not be extracted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExtractError {
    /// The df-pn search hit a limit.
    Stopped(Stop),
    /// No strategy exists (or none that survives the repetition rule on every path).
    NotProven(String),
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::Stopped(s) => write!(f, "proof extraction stopped: {s}"),
            ExtractError::NotProven(why) => write!(f, "no proof to extract: {why}"),
        }
    }
}

impl std::error::Error for ExtractError {}

/// The side that holds a proof, and its goal, after `goal` got `verdict` for the side to move at
/// `root`.
pub fn prover_of<G: Tactics>(root: &G, goal: Goal, verdict: Verdict) -> (Player, Goal) {
    match verdict {
        Verdict::Proven => (root.side_to_move(), goal),
        Verdict::Disproven => (root.side_to_move().opponent(), goal.complement()),
    }
}

/// Extracts the certificate of a finished proof: `goal` got `verdict` for the side to move at
/// `root` (see [`prover_of`]).
///
/// # Errors
/// As [`extract_proof`].
pub fn extract_for_verdict<G: Tactics>(
    solver: &mut DfPn<G>,
    root: &G,
    goal: Goal,
    verdict: Verdict,
    clock: &mut Clock,
) -> Result<Certificate<G>, ExtractError> {
    let (prover, goal) = prover_of(root, goal, verdict);
    extract_proof(solver, root, prover, goal, clock)
}

/// Extracts a strategy by which `prover` reaches `goal` from `root`, using `solver` (its
/// table, and further proofs where the table does not know) to choose the prover's moves, and
/// its repetition rule, under the limits of `clock`.
///
/// # Errors
/// [`ExtractError::Stopped`] when the solver stops at a limit; [`ExtractError::NotProven`] when
/// no strategy exists.
pub fn extract_proof<G: Tactics>(
    solver: &mut DfPn<G>,
    root: &G,
    prover: Player,
    goal: Goal,
    clock: &mut Clock,
) -> Result<Certificate<G>, ExtractError> {
    let rule = solver.repetition_rule();
    let mut ex = Extractor {
        solver,
        clock,
        question: Question::new(prover, goal),
        rule,
        chosen: HashMap::new(),
        done: HashSet::new(),
        on_path: HashSet::new(),
        moves: Vec::new(),
        lines: Vec::new(),
        threat_lines: Vec::new(),
        witnesses: Vec::new(),
        journal: Vec::new(),
    };
    match ex.extract(root) {
        Ok(_) => Ok(Certificate {
            root: *root,
            prover,
            goal,
            lines: ex.lines,
            threat_lines: ex.threat_lines,
            witnesses: ex.witnesses,
        }),
        Err(Fail::Stop(s)) => Err(ExtractError::Stopped(s)),
        Err(Fail::Dead) => Err(ExtractError::NotProven(format!(
            "the {} player has no strategy for {goal} here",
            prover.name()
        ))),
    }
}

/// Why a subtree of the extraction failed.
enum Fail {
    Stop(Stop),
    /// The choices made do not reach the goal: backtrack.
    Dead,
}

/// A record of what to undo when a choice fails.
enum Undo {
    Chosen(u128),
    Done(u128),
}

struct Extractor<'a, G: Tactics> {
    solver: &'a mut DfPn<G>,
    /// The limits of the extraction's further proofs.
    clock: &'a mut Clock,
    /// The prover (the attacker) and its goal.
    question: Question,
    rule: RepetitionRule<G>,
    chosen: HashMap<u128, G::Move>,
    /// The classes ([`class_of`]) of the positions settled without a repetition, as the
    /// verifier remembers them.
    done: HashSet<u128>,
    on_path: HashSet<u128>,
    moves: Vec<G::Move>,
    lines: Vec<(Vec<G::Move>, G::Move)>,
    threat_lines: Vec<ThreatLine<G::Move>>,
    witnesses: Vec<(Vec<G::Move>, Witness, cover::Goal)>,
    journal: Vec<Undo>,
}

impl<G: Tactics> Extractor<'_, G> {
    /// Extends the strategy below `pos`; whether what it found depends on the path.
    fn extract(&mut self, pos: &G) -> Result<bool, Fail> {
        match pos.status() {
            Status::Ongoing => {}
            s => {
                return match self.question.verdict(s) {
                    Verdict::Proven => Ok(false),
                    Verdict::Disproven => Err(Fail::Dead),
                };
            }
        }
        if self.moves.len() >= self.solver.max_depth() as usize {
            return Err(Fail::Stop(Stop::Depth));
        }
        let key = pos.key();
        if self.on_path.contains(&key) {
            return match self.question.repeated(pos, self.rule) {
                Verdict::Proven => Ok(true),
                Verdict::Disproven => Err(Fail::Dead),
            };
        }
        let class = class_of(pos);
        if self.done.contains(&class) {
            return Ok(false);
        }
        if let Some((witness, goal)) = self.rule_witness(pos) {
            self.witnesses.push((self.moves.clone(), witness, goal));
            self.done.insert(class);
            self.journal.push(Undo::Done(class));
            return Ok(false);
        }
        self.on_path.insert(key);
        let r = if self.question.is_or(pos) {
            self.prover_node(pos, key)
        } else {
            self.opponent_node(pos)
        };
        self.on_path.remove(&key);
        if let Ok(false) = r {
            self.done.insert(class);
            self.journal.push(Undo::Done(class));
        }
        r
    }

    fn prover_node(&mut self, pos: &G, key: u128) -> Result<bool, Fail> {
        let Question {
            attacker: prover,
            goal,
        } = self.question;
        let mut candidates: MoveList<G::Move> = MoveList::new();
        if let Some(&mv) = self.chosen.get(&key) {
            // The file gives one move per position: a position met again keeps its move.
            candidates.push(mv);
        } else if pos.has_winning_move() {
            // The verifier finds a win at once by itself.
            return Ok(false);
        } else if let Some(line) = self.threat_win(pos) {
            // A forced win by threats: one threat line, which the verifier walks.
            self.threat_lines.push((self.moves.clone(), line));
            return Ok(false);
        } else {
            let mut safe = MoveList::new();
            pos.safe_moves(&mut safe);
            order_moves(pos, &mut safe);
            let proven = |solver: &DfPn<G>, m| {
                solver.known(&pos.play(m), prover, goal) == Some(Verdict::Proven)
            };
            let (mut known, mut rest): (Vec<_>, Vec<_>) = safe
                .iter()
                .map(|rm| rm.mv)
                .partition(|&m| proven(self.solver, m));
            if known.is_empty() {
                // The table lost the proof below this position, or holds it in another
                // orientation: the search met a mirror image of it, and the children's keys
                // are not canonical (Qubic's, beyond 12 stones). Search again, best-first,
                // rather than try each move to its end in turn. (A failure leaves the moves
                // that rely on this walk's repetitions.)
                self.solver
                    .search_below(pos, prover, goal, self.clock)
                    .map_err(Fail::Stop)?;
                (known, rest) = safe
                    .iter()
                    .map(|rm| rm.mv)
                    .partition(|&m| proven(self.solver, m));
            }
            candidates.extend(known);
            candidates.extend(rest);
        }
        for mv in candidates {
            let child = pos.play(mv);
            let ck = child.key();
            if child.status() == Status::Ongoing
                && !self.on_path.contains(&ck)
                && !self.done.contains(&class_of(&child))
            {
                let verdict = match self.solver.known(&child, prover, goal) {
                    Some(v) => v,
                    // No history: the table stays shared by every call, and this walk
                    // judges the repetitions itself.
                    None => self
                        .solver
                        .prove_for(&GameLine::new(child), prover, goal, self.clock)
                        .map_err(Fail::Stop)?,
                };
                if verdict == Verdict::Disproven {
                    continue;
                }
            }
            let mark = (
                self.journal.len(),
                self.lines.len(),
                self.threat_lines.len(),
                self.witnesses.len(),
            );
            if let Entry::Vacant(slot) = self.chosen.entry(key) {
                slot.insert(mv);
                self.journal.push(Undo::Chosen(key));
                self.lines.push((self.moves.clone(), mv));
            }
            self.moves.push(mv);
            let r = self.extract(&child);
            self.moves.pop();
            match r {
                Err(Fail::Dead) => self.rollback(mark),
                r => return r,
            }
        }
        Err(Fail::Dead)
    }

    fn opponent_node(&mut self, pos: &G) -> Result<bool, Fail> {
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        if legal.is_empty() {
            return Err(Fail::Dead);
        }
        // What the prover would win by threats if the opponent passed: one threat line here
        // covers every reply that leaves it intact.
        let mut line = Vec::new();
        self.solver.pass_line(pos, &mut line);
        let mut covered = false;
        let mut tainted = false;
        for mv in legal {
            let child = pos.play(mv);
            if !line.is_empty() && replays(&child, &line) && !child.has_winning_move() {
                covered = true;
                continue;
            }
            self.moves.push(mv);
            let r = self.extract(&child);
            self.moves.pop();
            tainted |= r?;
        }
        if covered {
            self.threat_lines.push((self.moves.clone(), line));
        }
        Ok(tainted)
    }

    /// The rules' witness that the opponent, to move in `pos`, loses, or, where the prover need
    /// only not lose, cannot win, where the solver uses the rules.
    fn rule_witness(&self, pos: &G) -> Option<(Witness, cover::Goal)> {
        let plies = self.solver.victor_plies()?;
        if self.question.is_or(pos) {
            return None;
        }
        let budget = cover::Options::default().budget;
        let goals: &[cover::Goal] = if self.question.goal == Goal::NotLose {
            &[cover::Goal::FollowerWins, cover::Goal::MoverCannotWin]
        } else {
            &[cover::Goal::FollowerWins]
        };
        goals
            .iter()
            .find_map(|&goal| Some((cover::witness(pos, plies, budget, goal)?, goal)))
    }

    /// The side to move's threat line in `pos`, if the solver's threat-space search finds one.
    fn threat_win(&mut self, pos: &G) -> Option<Vec<G::Move>> {
        let mut line = Vec::new();
        self.solver.threat_line(pos, &mut line).then_some(line)
    }

    fn rollback(
        &mut self,
        (journal, lines, threat_lines, witnesses): (usize, usize, usize, usize),
    ) {
        for undo in self.journal.drain(journal..) {
            match undo {
                Undo::Chosen(k) => {
                    self.chosen.remove(&k);
                }
                Undo::Done(k) => {
                    self.done.remove(&k);
                }
            }
        }
        self.lines.truncate(lines);
        self.threat_lines.truncate(threat_lines);
        self.witnesses.truncate(witnesses);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::certificate::{VerifySummary, verify, write};
    use crate::error::Error;
    use crate::game::{Notation, Rules, play_moves};
    use crate::search::pn::dfpn::tests::{Graph, GraphGame};
    use crate::search::pn::testing::{BOARDS, Board, Reference, Rng, board, random_positions};

    /// Answers both questions at the position `moves` reach from `start` (Win; NotLose when Win
    /// fails), writes the certificate of each answer and verifies it. Returns the weak value
    /// and the certificates with their summaries.
    fn certify<G: Tactics + Notation>(
        solver: &mut DfPn<G>,
        start: &G,
        moves: &[G::Move],
    ) -> (i32, Vec<(String, VerifySummary)>) {
        let pos = moves.iter().fold(*start, |p, &m| p.play(m));
        let win = solver
            .prove(&pos, Goal::Win, &mut Clock::default())
            .expect("no limits");
        let mut answers = vec![(Goal::Win, win)];
        if win == Verdict::Disproven {
            let notlose = solver
                .prove(&pos, Goal::NotLose, &mut Clock::default())
                .expect("no limits");
            answers.push((Goal::NotLose, notlose));
        }
        let weak = match answers[..] {
            [(_, Verdict::Proven)] => 1,
            [_, (_, Verdict::Proven)] => 0,
            _ => -1,
        };
        let mut certificates = Vec::new();
        for (goal, verdict) in answers {
            let proof = extract_for_verdict(solver, &pos, goal, verdict, &mut Clock::default())
                .unwrap_or_else(|e| panic!("{e} after {moves:?}"));
            let text = write(start, moves, &proof);
            let summary = verify(*start, &text).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(summary.unused_lines, 0, "{text}");
            assert_eq!(summary.lines, proof.lines.len());
            certificates.push((text, summary));
        }
        (weak, certificates)
    }

    /// The data lines of a certificate (after the five header lines), by index in `text.lines()`.
    fn data_lines(text: &str) -> Vec<usize> {
        text.lines()
            .enumerate()
            .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
            .skip(5)
            .map(|(i, _)| i)
            .collect()
    }

    fn replace_line(text: &str, index: usize, with: Option<&str>) -> String {
        let mut out = String::new();
        for (i, l) in text.lines().enumerate() {
            match (i == index, with) {
                (false, _) => out.push_str(l),
                (true, Some(w)) => out.push_str(w),
                (true, None) => continue,
            }
            out.push('\n');
        }
        out
    }

    /// A certificate with one prover move replaced by a legal move that does not reach the goal
    /// (by the exhaustive reference), if the proof has such a line.
    fn wrong_move(
        text: &str,
        summary: &VerifySummary,
        reference: &mut Reference,
        start: Board,
    ) -> Option<String> {
        let root = if summary.root == "-" {
            start
        } else {
            play_moves(start, &summary.root).ok()?.0
        };
        let lines: Vec<&str> = text.lines().collect();
        for i in data_lines(text) {
            let (path, _) = lines[i].rsplit_once(' ')?;
            let node = if path == "-" {
                root
            } else {
                play_moves(root, path).ok()?.0
            };
            let mut legal = MoveList::new();
            node.legal_moves(&mut legal);
            for m in legal {
                // The prover's value after m is minus the opponent's.
                let value = -reference.weak(&node.play(m));
                let fails = match summary.goal {
                    Goal::Win => value < 1,
                    Goal::NotLose => value < 0,
                };
                if fails {
                    let line = format!("{path} {}", node.format_move(m));
                    return Some(replace_line(text, i, Some(&line)));
                }
            }
        }
        None
    }

    #[test]
    fn certificates_verify_and_corruptions_fail() {
        let mut corrupted = 0;
        for &(w, h, k) in BOARDS {
            let start = board(w, h, k);
            let mut reference = Reference::new(&start);
            let mut solver = DfPn::new(1 << 22);
            let mut positions = random_positions(start, 12, 3, w * h - 2, 99 + w as u64);
            positions.push((start, Vec::new()));
            for (i, (pos, moves)) in positions.into_iter().enumerate() {
                let (weak, certificates) = certify(&mut solver, &start, &moves);
                assert_eq!(weak, reference.weak(&pos), "{w}x{h} k{k} after {moves:?}");
                for (text, summary) in certificates {
                    if moves.is_empty() && weak == 1 {
                        assert_eq!(summary.claim, "first player wins from the start");
                    }
                    if summary.lines == 0 {
                        continue;
                    }
                    // Remove one line: its position is reached, so it now lacks a move.
                    let data = data_lines(&text);
                    let cut = replace_line(&text, data[i % data.len()], None);
                    let err = verify(start, &cut)
                        .expect_err("a line was removed")
                        .to_string();
                    assert!(err.contains("no move given"), "{err}");
                    // Replace a move by one that does not reach the goal.
                    if let Some(bad) = wrong_move(&text, &summary, &mut reference, start) {
                        assert!(
                            verify(start, &bad).is_err(),
                            "accepted a wrong move:\n{bad}"
                        );
                        corrupted += 1;
                    }
                }
            }
        }
        assert!(
            corrupted > 20,
            "only {corrupted} wrong-move corruptions were tried"
        );
    }

    #[test]
    fn a_table_that_lost_the_proof_still_gives_a_certificate() {
        // A table of two buckets forgets nearly everything: extraction searches again below
        // the positions whose proven children are gone.
        for &(w, h, k) in BOARDS {
            let start = board(w, h, k);
            let mut reference = Reference::new(&start);
            let mut solver = DfPn::with_entries(8);
            for (pos, moves) in random_positions(start, 4, 2, w * h - 4, 5 + w as u64) {
                let (weak, _) = certify(&mut solver, &start, &moves);
                assert_eq!(weak, reference.weak(&pos), "{w}x{h} k{k} after {moves:?}");
            }
        }
    }

    #[test]
    fn headers_are_checked() {
        let start = board(4, 4, 3);
        let mut solver = DfPn::new(1 << 20);
        let moves = play_moves(start, "12").unwrap().1;
        let (_, certificates) = certify(&mut solver, &start, &moves);
        let (text, summary) = &certificates[0];
        assert_eq!(summary.root, "12");
        assert!(summary.to_string().starts_with("verified: "));
        let other = board(4, 4, 4);
        let err = verify(other, text).unwrap_err();
        assert!(matches!(err, Error::Input(_)), "{err:?}");
        assert!(err.to_string().contains("not 'connect4:4x4:k4'"), "{err}");
        let flipped = text.replace(
            &format!("prover {}", summary.prover.name()),
            &format!("prover {}", summary.prover.opponent().name()),
        );
        assert!(verify(start, &flipped).is_err());
        let upgraded = text.replace("goal notlose", "goal win");
        if upgraded != *text {
            assert!(verify(start, &upgraded).is_err());
        }
        assert!(verify(start, &text.replace("inarow-proof 3", "inarow-proof 6")).is_err());
        // Versions 4 and 5 only add rule lines: a version 3 certificate read as either says
        // the same.
        assert!(verify(start, &text.replace("inarow-proof 3", "inarow-proof 4")).is_ok());
        assert!(verify(start, &text.replace("inarow-proof 3", "inarow-proof 5")).is_ok());
        assert!(verify(start, &text.replace("root 12", "root 1x")).is_err());
        let header_only: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert!(
            verify(start, &header_only)
                .unwrap_err()
                .to_string()
                .contains("ends before")
        );
        // Comments and blank lines are ignored.
        let commented = text.replace('\n', "  # note\n\n");
        assert!(verify(start, &commented).is_ok());
    }

    #[test]
    fn cyclic_games_use_the_repetition_rule() {
        // 0 -> 1 -> 0: a draw by repetition, whoever claims otherwise.
        let g = GraphGame::start(Graph {
            edges: vec![vec![1], vec![0]],
            end: vec![None, None],
        });
        let claim = |goal: &str| {
            format!("inarow-proof 1\ngame graph\nroot -\ngoal {goal}\nprover first\n- 1\n")
        };
        let err = verify(g, &claim("win")).unwrap_err().to_string();
        assert!(err.contains("repeats"), "{err}");
        let summary = verify(g, &claim("notlose")).expect("a repetition is a draw");
        assert_eq!(summary.repetitions, 1);
        assert_eq!(summary.claim, "first player does not lose from the start");

        let mut rng = Rng::new(21);
        for i in 0..1500 {
            let g = GraphGame::random_nth(&mut rng, i);
            let want = g.reference(&mut Vec::new());
            let mut solver = DfPn::new(1 << 12);
            let (weak, _) = certify(&mut solver, &g, &[]);
            assert_eq!(weak, want, "{:?}", g.graph);
        }
    }
}
