//! Proof certificates: a strategy extracted after a proof, written as a small text file, and a
//! verifier that checks it with nothing but the rules.
//!
//! A certificate is a strategy for the *prover*: the side to move at the root when the goal was
//! proven, the other side when it was disproven (then the other side has the complementary goal:
//! a disproven Win is a proven NotLose for the opponent, a disproven NotLose a proven Win). It
//! gives one move for every position where the prover moves; where the opponent moves, every
//! legal reply must be covered. Positions are merged by [`Game::key`], so the strategy is a DAG
//! and the file lists each prover position once.
//!
//! # File format (`inarow-proof 1`)
//! ```text
//! inarow-proof 1
//! game connect4:7x6:k4    # must equal the start position's Game::name()
//! root 4453               # moves from the game's start to the root ('-': the start itself)
//! goal win                # or notlose
//! prover first            # the side that has the proof: first or second (player)
//! # one line per position where the prover moves:
//! # PATH MOVE  (PATH = one sequence of moves from the root reaching it, '-' for the root;
//! #             MOVE = the prover's move there; both in the game's own notation)
//! - 3
//! 34 5
//! ```
//! Blank lines and everything from a `#` to the end of a line are ignored. The header lines come
//! first, in this order. A path and a move never contain whitespace; the move is the last
//! whitespace-separated token of its line, the path everything before it.
//!
//! # What the verifier checks
//! It plays every line's path from the root with the rules (each move parsed and checked legal),
//! keeps `key -> move`, and walks the strategy from the root, depth first: at a prover position
//! it needs an entry whose move is legal; at an opponent position it follows every legal move;
//! a finished game must reach the goal (the prover won; or, for notlose, a draw); a position that
//! repeats one on the current path is judged by the repetition rule (a draw by default; Connect
//! Four never repeats). A position whose check did not meet a repetition is remembered as
//! verified; one that did is checked again on every path that reaches it (its verdict could
//! depend on the path). The first failure is reported with its moves from the root and why.
//!
//! # Extraction
//! [`extract_proof`] asks a [`DfPn`] which moves work: at a prover position it tries the safe
//! moves whose child the table already knows to be proven, then the others, each confirmed by a
//! df-pn proof of the child (whose table answers most of them at once: the df-pn searches are
//! asked without history, so they share the table with the proof that gave the verdict); at an
//! opponent position it follows every legal move. It performs the verifier's walk as it goes (the
//! same repetition judgement, the same memory of verified positions) and backtracks to another
//! move if a choice fails, so what it writes passes the verifier. In a game with repetitions a
//! move that only reaches the goal thanks to a repetition of the walk's own path is not offered
//! by the history-free df-pn answers, so extraction may then fail where a proof exists
//! ([`ExtractError::NotProven`]); it never writes a wrong one.

use super::dfpn::DfPn;
use super::pn::{Goal, Prover, RepetitionRule, StopReason, Verdict, repetition_draw};
use crate::game::{Game, MoveList, Player, Status, format_moves, play_moves};
use std::collections::hash_map::Entry;
use std::collections::{HashMap, HashSet};
use std::fmt::{self, Write as _};

/// The first line of every certificate.
pub const MAGIC: &str = "inarow-proof";
/// The format version this module writes and reads.
pub const VERSION: u32 = 1;

/// A strategy for the prover from the root: one move for each prover position it reaches.
#[derive(Clone, Debug)]
pub struct Proof<G: Game> {
    pub root: G,
    pub prover: Player,
    pub goal: Goal,
    /// One line per position where the prover moves: a path of moves from the root reaching
    /// it, and the move chosen there.
    pub lines: Vec<(Vec<G::Move>, G::Move)>,
}

/// Why a proof could not be extracted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExtractError {
    /// The df-pn search hit a limit.
    Stopped(StopReason),
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
pub fn prover_of<G: Game>(root: &G, goal: Goal, verdict: Verdict) -> (Player, Goal) {
    match verdict {
        Verdict::Proven => (root.side_to_move(), goal),
        Verdict::Disproven => (root.side_to_move().opponent(), goal.complement()),
    }
}

/// Extracts the certificate of a finished proof: `goal` got `verdict` for the side to move at
/// `root` (see [`prover_of`]).
pub fn extract_for_verdict<G: Game>(
    solver: &mut DfPn<G>,
    root: &G,
    goal: Goal,
    verdict: Verdict,
) -> Result<Proof<G>, ExtractError> {
    let (prover, goal) = prover_of(root, goal, verdict);
    extract_proof(solver, root, prover, goal)
}

/// Extracts a strategy by which `prover` reaches `goal` from `root`, using `solver` (its
/// table, and further proofs where the table does not know) to choose the prover's moves, and
/// its repetition rule. The solver's limits apply.
pub fn extract_proof<G: Game>(
    solver: &mut DfPn<G>,
    root: &G,
    prover: Player,
    goal: Goal,
) -> Result<Proof<G>, ExtractError> {
    let rule = solver.repetition_rule();
    let mut ex = Extractor {
        solver,
        prover,
        goal,
        rule,
        chosen: HashMap::new(),
        done: HashSet::new(),
        on_path: HashSet::new(),
        moves: Vec::new(),
        lines: Vec::new(),
        journal: Vec::new(),
    };
    match ex.extract(root) {
        Ok(_) => Ok(Proof {
            root: *root,
            prover,
            goal,
            lines: ex.lines,
        }),
        Err(Fail::Stop(s)) => Err(ExtractError::Stopped(s)),
        Err(Fail::Dead) => Err(ExtractError::NotProven(format!(
            "the {} player has no strategy for {goal} here",
            player_name(prover)
        ))),
    }
}

/// Why a subtree of the extraction failed.
enum Fail {
    Stop(StopReason),
    /// The choices made do not reach the goal: backtrack.
    Dead,
}

/// A record of what to undo when a choice fails.
enum Undo {
    Chosen(u128),
    Done(u128),
}

struct Extractor<'a, G: Game> {
    solver: &'a mut DfPn<G>,
    prover: Player,
    goal: Goal,
    rule: RepetitionRule<G>,
    chosen: HashMap<u128, G::Move>,
    done: HashSet<u128>,
    on_path: HashSet<u128>,
    moves: Vec<G::Move>,
    lines: Vec<(Vec<G::Move>, G::Move)>,
    journal: Vec<Undo>,
}

impl<G: Game> Extractor<'_, G> {
    /// Extends the strategy below `pos`; whether what it found depends on the path.
    fn extract(&mut self, pos: &G) -> Result<bool, Fail> {
        match pos.status() {
            Status::Ongoing => {}
            s => {
                return if self.goal.reached_by(s, self.prover) {
                    Ok(false)
                } else {
                    Err(Fail::Dead)
                };
            }
        }
        let key = pos.key();
        if self.on_path.contains(&key) {
            return if self.goal.reached_by((self.rule)(pos), self.prover) {
                Ok(true)
            } else {
                Err(Fail::Dead)
            };
        }
        if self.done.contains(&key) {
            return Ok(false);
        }
        self.on_path.insert(key);
        let r = if pos.side_to_move() == self.prover {
            self.prover_node(pos, key)
        } else {
            self.opponent_node(pos)
        };
        self.on_path.remove(&key);
        if let Ok(false) = r {
            self.done.insert(key);
            self.journal.push(Undo::Done(key));
        }
        r
    }

    fn prover_node(&mut self, pos: &G, key: u128) -> Result<bool, Fail> {
        let mut candidates: MoveList<G::Move> = MoveList::new();
        if let Some(&mv) = self.chosen.get(&key) {
            // The file gives one move per position: a position met again keeps its move.
            candidates.push(mv);
        } else if pos.has_winning_move() {
            let mut legal = MoveList::new();
            pos.legal_moves(&mut legal);
            let win = legal
                .into_iter()
                .find(|&m| pos.play(m).status() == Status::Win(self.prover));
            candidates.extend(win);
        } else {
            let mut safe = MoveList::new();
            pos.safe_moves(&mut safe);
            super::pn::order_moves(pos, &mut safe);
            let (known, rest): (Vec<_>, Vec<_>) = safe.iter().map(|rm| rm.mv).partition(|&m| {
                self.solver.known(&pos.play(m), self.prover, self.goal) == Some(Verdict::Proven)
            });
            candidates.extend(known);
            candidates.extend(rest);
        }
        for mv in candidates {
            let child = pos.play(mv);
            let ck = child.key();
            if child.status() == Status::Ongoing
                && !self.on_path.contains(&ck)
                && !self.done.contains(&ck)
            {
                let verdict = match self.solver.known(&child, self.prover, self.goal) {
                    Some(v) => v,
                    // No history: the table stays shared by every call, and this walk
                    // judges the repetitions itself.
                    None => self
                        .solver
                        .prove_for(&child, self.prover, self.goal, &[])
                        .map_err(Fail::Stop)?,
                };
                if verdict == Verdict::Disproven {
                    continue;
                }
            }
            let mark = (self.journal.len(), self.lines.len());
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
        let mut tainted = false;
        for mv in legal {
            self.moves.push(mv);
            let r = self.extract(&pos.play(mv));
            self.moves.pop();
            tainted |= r?;
        }
        Ok(tainted)
    }

    fn rollback(&mut self, (journal, lines): (usize, usize)) {
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
    }
}

fn player_name(p: Player) -> &'static str {
    match p {
        Player::First => "first",
        Player::Second => "second",
    }
}

fn moves_text<G: Game>(from: G, moves: &[G::Move]) -> String {
    if moves.is_empty() {
        "-".to_string()
    } else {
        format_moves(from, moves)
    }
}

/// Writes a certificate: `start` is the game's start position (its name goes in the header) and
/// `root_moves` lead from it to `proof.root`.
pub fn write_proof<G: Game>(start: &G, root_moves: &[G::Move], proof: &Proof<G>) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "{MAGIC} {VERSION}");
    let _ = writeln!(s, "game {}", start.name());
    let _ = writeln!(s, "root {}", moves_text(*start, root_moves));
    let _ = writeln!(s, "goal {}", proof.goal);
    let _ = writeln!(s, "prover {}", player_name(proof.prover));
    let _ = writeln!(
        s,
        "# {} positions where the prover moves: PATH (moves from the root, '-' = the root) MOVE",
        proof.lines.len()
    );
    for (path, mv) in &proof.lines {
        let node = path.iter().fold(proof.root, |p, &m| p.play(m));
        let _ = writeln!(
            s,
            "{} {}",
            moves_text(proof.root, path),
            node.format_move(*mv)
        );
    }
    s
}

/// What a verified certificate proves, and how much was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifySummary {
    pub game: String,
    /// The root's moves from the start ('-' for the start).
    pub root: String,
    pub goal: Goal,
    pub prover: Player,
    /// In words, e.g. "first player wins from 4453".
    pub claim: String,
    /// Positions expanded by the walk (a position met again is counted again only when its
    /// verdict depended on a repetition).
    pub positions: usize,
    /// Of those, positions where the prover moved.
    pub prover_positions: usize,
    /// Finished games reached.
    pub terminals: usize,
    /// Repetitions judged by the rule.
    pub repetitions: usize,
    /// Move lines in the file, and how many of them the walk never needed.
    pub lines: usize,
    pub unused_lines: usize,
}

impl fmt::Display for VerifySummary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "verified: {} ({}); {} positions checked ({} with the prover to move), {} finished \
             games, {} repetitions, {} lines ({} unused)",
            self.claim,
            self.game,
            self.positions,
            self.prover_positions,
            self.terminals,
            self.repetitions,
            self.lines,
            self.unused_lines
        )
    }
}

/// Checks a certificate against the rules of `start`'s game, with the rule "a repeated
/// position is a draw". `start` is the game's start position (the header's root is played
/// from it).
pub fn verify<G: Game>(start: G, text: &str) -> Result<VerifySummary, String> {
    verify_with_rule(start, text, repetition_draw::<G>)
}

/// One position on the verifier's walk.
struct Frame<G: Game> {
    pos: G,
    key: u128,
    moves: MoveList<G::Move>,
    next: usize,
    tainted: bool,
}

/// What the verifier found at a position.
enum Visit<G: Game> {
    /// Settled at once (finished, repeated, or verified before); whether it was a repetition.
    Leaf(bool),
    Open(Frame<G>),
}

/// [`verify`] with another repetition rule.
pub fn verify_with_rule<G: Game>(
    start: G,
    text: &str,
    rule: RepetitionRule<G>,
) -> Result<VerifySummary, String> {
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.split('#').next().unwrap_or("").trim()))
        .filter(|(_, l)| !l.is_empty());
    let mut header = |name: &str| -> Result<(usize, &str), String> {
        let (n, line) = lines
            .next()
            .ok_or_else(|| format!("the file ends before the '{name}' line"))?;
        match line.split_once(char::is_whitespace) {
            Some((word, rest)) if word == name => Ok((n, rest.trim())),
            _ => Err(format!("line {n}: expected '{name} ...', found '{line}'")),
        }
    };
    let (n, version) = header(MAGIC)?;
    if version != VERSION.to_string() {
        return Err(format!(
            "line {n}: format version '{version}', this verifier reads {VERSION}"
        ));
    }
    let (n, game) = header("game")?;
    if game != start.name() {
        return Err(format!(
            "line {n}: the proof is for '{game}', not '{}'",
            start.name()
        ));
    }
    let (n, root_text) = header("root")?;
    let root = if root_text == "-" {
        start
    } else {
        play_moves(start, root_text)
            .map_err(|e| format!("line {n}: root: {e}"))?
            .0
    };
    let (n, goal_text) = header("goal")?;
    let goal: Goal = goal_text.parse().map_err(|e| format!("line {n}: {e}"))?;
    let (n, prover_text) = header("prover")?;
    let prover = match prover_text {
        "first" => Player::First,
        "second" => Player::Second,
        _ => {
            return Err(format!(
                "line {n}: prover '{prover_text}': expected first or second"
            ));
        }
    };

    // key -> (move, line number)
    let mut strategy: HashMap<u128, (G::Move, usize)> = HashMap::new();
    let mut line_count = 0;
    for (n, line) in lines {
        line_count += 1;
        let (path, mv) = line
            .rsplit_once(char::is_whitespace)
            .ok_or_else(|| format!("line {n}: expected 'PATH MOVE', found '{line}'"))?;
        let path = path.trim();
        let node = if path == "-" {
            root
        } else {
            play_moves(root, path)
                .map_err(|e| format!("line {n}: path: {e}"))?
                .0
        };
        if node.status() != Status::Ongoing {
            return Err(format!("line {n}: the game is over after '{path}'"));
        }
        if node.side_to_move() != prover {
            return Err(format!(
                "line {n}: after '{path}' the opponent moves, not the prover"
            ));
        }
        let m = node
            .parse_move(mv)
            .map_err(|e| format!("line {n}: move '{mv}': {e}"))?;
        if let Some((other, at)) = strategy.insert(node.key(), (m, n))
            && other != m
        {
            return Err(format!(
                "line {n}: the position after '{path}' already has another move (line {at})"
            ));
        }
    }

    let mut used: HashSet<usize> = HashSet::new();
    let mut positions = 0;
    let mut prover_positions = 0;
    let mut terminals = 0;
    let mut repetitions = 0;
    let mut on_path: HashSet<u128> = HashSet::new();
    let mut done: HashSet<u128> = HashSet::new();
    let mut visit =
        |pos: G, on_path: &HashSet<u128>, done: &HashSet<u128>| -> Result<Visit<G>, String> {
            match pos.status() {
                Status::Ongoing => {}
                Status::Win(p) if p == prover => {
                    terminals += 1;
                    return Ok(Visit::Leaf(false));
                }
                Status::Win(_) => return Err("the opponent has won".to_string()),
                Status::Draw if goal == Goal::NotLose => {
                    terminals += 1;
                    return Ok(Visit::Leaf(false));
                }
                Status::Draw => return Err("the game is drawn, but the goal is a win".to_string()),
            }
            let key = pos.key();
            if on_path.contains(&key) {
                let s = rule(&pos);
                return if goal.reached_by(s, prover) {
                    repetitions += 1;
                    Ok(Visit::Leaf(true))
                } else {
                    Err(format!(
                        "the position repeats, and the repetition rule makes it {s:?}"
                    ))
                };
            }
            if done.contains(&key) {
                return Ok(Visit::Leaf(false));
            }
            let mut legal = MoveList::new();
            pos.legal_moves(&mut legal);
            if legal.is_empty() {
                return Err("the game is not over, but there is no legal move".to_string());
            }
            positions += 1;
            let moves = if pos.side_to_move() == prover {
                prover_positions += 1;
                let &(mv, line) = strategy
                    .get(&key)
                    .ok_or("no move given for this position (the prover moves here)")?;
                if !legal.contains(&mv) {
                    return Err(format!("the move of line {line} is not legal here"));
                }
                used.insert(line);
                let mut one = MoveList::new();
                one.push(mv);
                one
            } else {
                legal
            };
            Ok(Visit::Open(Frame {
                pos,
                key,
                moves,
                next: 0,
                tainted: false,
            }))
        };

    let root_desc = if root_text == "-" {
        "the start".to_string()
    } else {
        root_text.to_string()
    };
    let fail = |path: &[G::Move], why: String| {
        format!(
            "proof rejected at the position after '{}' from the root ({}): {why}",
            moves_text(root, path),
            root_desc
        )
    };
    let mut path: Vec<G::Move> = Vec::new();
    let mut stack: Vec<Frame<G>> = Vec::new();
    match visit(root, &on_path, &done).map_err(|e| fail(&path, e))? {
        Visit::Leaf(_) => {}
        Visit::Open(f) => {
            on_path.insert(f.key);
            stack.push(f);
        }
    }
    while let Some(top) = stack.last_mut() {
        if top.next < top.moves.len() {
            let mv = top.moves[top.next];
            top.next += 1;
            let child = top.pos.play(mv);
            path.push(mv);
            match visit(child, &on_path, &done).map_err(|e| fail(&path, e))? {
                Visit::Leaf(tainted) => {
                    path.pop();
                    if let Some(top) = stack.last_mut() {
                        top.tainted |= tainted;
                    }
                }
                Visit::Open(f) => {
                    on_path.insert(f.key);
                    stack.push(f);
                }
            }
        } else {
            let f = stack.pop().expect("the stack has a top");
            on_path.remove(&f.key);
            if f.tainted {
                if let Some(parent) = stack.last_mut() {
                    parent.tainted = true;
                }
            } else {
                done.insert(f.key);
            }
            if !stack.is_empty() {
                path.pop();
            }
        }
    }

    let claim = format!(
        "{} player {} from {}",
        player_name(prover),
        match goal {
            Goal::Win => "wins",
            Goal::NotLose => "does not lose",
        },
        root_desc
    );
    Ok(VerifySummary {
        game: game.to_string(),
        root: root_text.to_string(),
        goal,
        prover,
        claim,
        positions,
        prover_positions,
        terminals,
        repetitions,
        lines: line_count,
        unused_lines: line_count - used.len(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::alphabeta::Limits;
    use crate::search::dfpn::tests::{Graph, GraphGame};
    use crate::search::pn::testing::{BOARDS, Board, Reference, Rng, board, random_positions};

    /// Answers both questions at the position `moves` reach from `start` (Win; NotLose when Win
    /// fails), writes the certificate of each answer and verifies it. Returns the weak value
    /// and the certificates with their summaries.
    fn certify<G: Game>(
        solver: &mut DfPn<G>,
        start: &G,
        moves: &[G::Move],
    ) -> (i32, Vec<(String, VerifySummary)>) {
        let pos = moves.iter().fold(*start, |p, &m| p.play(m));
        let win = solver.prove(&pos, Goal::Win).expect("no limits");
        let mut answers = vec![(Goal::Win, win)];
        if win == Verdict::Disproven {
            let notlose = solver.prove(&pos, Goal::NotLose).expect("no limits");
            answers.push((Goal::NotLose, notlose));
        }
        let weak = match answers[..] {
            [(_, Verdict::Proven)] => 1,
            [_, (_, Verdict::Proven)] => 0,
            _ => -1,
        };
        let mut certificates = Vec::new();
        for (goal, verdict) in answers {
            let proof = extract_for_verdict(solver, &pos, goal, verdict)
                .unwrap_or_else(|e| panic!("{e} after {moves:?}"));
            let text = write_proof(start, moves, &proof);
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
            let mut solver = DfPn::new(1 << 22, Limits::default());
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
                    let err = verify(start, &cut).expect_err("a line was removed");
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
    fn headers_are_checked() {
        let start = board(4, 4, 3);
        let mut solver = DfPn::new(1 << 20, Limits::default());
        let moves = play_moves(start, "12").unwrap().1;
        let (_, certificates) = certify(&mut solver, &start, &moves);
        let (text, summary) = &certificates[0];
        assert_eq!(summary.root, "12");
        assert!(summary.to_string().starts_with("verified: "));
        let other = board(4, 4, 4);
        let err = verify(other, text).unwrap_err();
        assert!(err.contains("not 'connect4:4x4:k4'"), "{err}");
        let flipped = text.replace(
            &format!("prover {}", player_name(summary.prover)),
            &format!("prover {}", player_name(summary.prover.opponent())),
        );
        assert!(verify(start, &flipped).is_err());
        let upgraded = text.replace("goal notlose", "goal win");
        if upgraded != *text {
            assert!(verify(start, &upgraded).is_err());
        }
        assert!(verify(start, &text.replace("inarow-proof 1", "inarow-proof 2")).is_err());
        assert!(verify(start, &text.replace("root 12", "root 1x")).is_err());
        let header_only: String = text.lines().take(3).map(|l| format!("{l}\n")).collect();
        assert!(
            verify(start, &header_only)
                .unwrap_err()
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
        let err = verify(g, &claim("win")).unwrap_err();
        assert!(err.contains("repeats"), "{err}");
        let summary = verify(g, &claim("notlose")).expect("a repetition is a draw");
        assert_eq!(summary.repetitions, 1);
        assert_eq!(summary.claim, "first player does not lose from the start");

        let mut rng = Rng::new(21);
        for i in 0..1500 {
            let g = if i % 2 == 0 {
                GraphGame::random(&mut rng)
            } else {
                GraphGame::random_n(&mut rng, 6 + i % 9, 5 - i % 3)
            };
            let want = g.reference(&mut Vec::new());
            let mut solver = DfPn::new(1 << 12, Limits::default());
            let (weak, _) = certify(&mut solver, &g, &[]);
            assert_eq!(weak, want, "{:?}", g.graph);
        }
    }
}
