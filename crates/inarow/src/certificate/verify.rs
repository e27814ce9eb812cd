//! The verifier: checks a certificate with nothing but the game's rules and repetition rule.
//!
//! # What the verifier checks
//! It plays every line's path from the root with the rules (each move parsed and checked legal),
//! keeps `key -> move`, and walks the strategy from the root, depth first: at a prover position
//! it plays a move that wins at once if there is one, else it needs an entry whose move is legal
//! or a threat line being followed (see [`format`](super::format)); at an opponent position it
//! follows every legal move;
//! a rule line settles its position when its witness holds there ([`victor::verify`], or
//! [`victor::verify_win`] for a loss); a
//! finished game must reach the goal (the prover won; or, for notlose, a draw); a position that
//! repeats one on the current path is judged by the repetition rule (a draw by default; Connect
//! Four never repeats). A position whose check did not meet a repetition is remembered as
//! verified, in a game that never repeats with its whole symmetry class (its images under the
//! game's symmetries, found by [`class_of`]: the mirrored strategy wins there too, so an image
//! met later needs no lines of its own); one that did is checked again on every
//! path that reaches it (its verdict could depend on the path). The first failure is reported
//! with its moves from the root and why. The symmetries are the one thing the verifier takes
//! from the game beyond its rules; the game's tests check that each maps lines onto lines.
//!

use super::class_of;
use super::format::{MAGIC, VERSION, moves_text};
use super::victor::{self, Witness};
use crate::error::Error;
use crate::game::{
    Goal, MoveList, Notation, Player, RepetitionRule, Status, one_line, play_moves, repetition_draw,
};
use std::collections::{HashMap, HashSet};
use std::fmt;

/// What a verified certificate proves, and how much was checked.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VerifySummary {
    /// The game, as the certificate's header names it ([`Rules::name`](crate::game::Rules::name)).
    pub game: String,
    /// The root's moves from the start ('-' for the start).
    pub root: String,
    /// What the certificate proves the prover reaches.
    pub goal: Goal,
    /// The side whose strategy the certificate gives.
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
    /// Positions settled by a rule line (Victor's threat rules), each counted in `positions`.
    pub rule_positions: usize,
    /// Repetitions judged by the rule.
    pub repetitions: usize,
    /// Move lines in the file.
    pub lines: usize,
    /// Of those, the lines the walk never needed.
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
        )?;
        if self.rule_positions > 0 {
            write!(f, "; {} settled by threat rules", self.rule_positions)?;
        }
        Ok(())
    }
}

/// Checks a certificate against the rules of `start`'s game, with the rule "a repeated
/// position is a draw". `start` is the game's start position (the header's root is played
/// from it).
///
/// # Errors
/// [`Error::Input`] with a one-line message naming the first failure: a malformed file, a
/// certificate for another game, or a position where the strategy does not reach its goal
/// (with its moves from the root).
pub fn verify<G: Notation>(start: G, text: &str) -> Result<VerifySummary, Error> {
    verify_with_rule(start, text, repetition_draw::<G>)
}

/// One position on the verifier's walk.
struct Frame<G: Notation> {
    pos: G,
    key: u128,
    /// What it is remembered as when verified ([`class_of`]).
    class: u128,
    moves: MoveList<G::Move>,
    next: usize,
    tainted: bool,
    /// The threat line its children follow (the key of the position that gave it) and the
    /// index of the next move of it.
    follows: Option<(u128, usize)>,
}

/// What the verifier found at a position.
enum Visit<G: Notation> {
    /// Settled at once (finished, repeated, or verified before); whether it was a repetition.
    Leaf(bool),
    /// Settled by a rule line: remembered as verified, with its class.
    Ruled(u128),
    Open(Frame<G>),
}

/// [`verify`] with another repetition rule.
///
/// # Errors
/// As [`verify`].
pub fn verify_with_rule<G: Notation>(
    start: G,
    text: &str,
    rule: RepetitionRule<G>,
) -> Result<VerifySummary, Error> {
    check(start, text, rule, &mut |_, _| {}).map_err(rejected)
}

/// [`verify`], telling `on_move` of every prover position the walk expands and the move the
/// strategy plays there, where that move is not a win at once (which needs no line): the whole
/// strategy as one move a position, threat lines followed, for a strategy book. A position
/// met again is told again only when its verdict depended on a repetition.
///
/// # Errors
/// As [`verify`]: `on_move` has then been told of part of the walk only.
pub fn verify_and_walk<G: Notation>(
    start: G,
    text: &str,
    on_move: &mut dyn FnMut(&G, G::Move),
) -> Result<VerifySummary, Error> {
    check(start, text, repetition_draw::<G>, on_move).map_err(rejected)
}

/// The error of a certificate [`check`] refused, why on one line.
fn rejected(why: String) -> Error {
    Error::Input(one_line(&why))
}

/// [`verify_with_rule`], `on_move` told as in [`verify_and_walk`]; the error is why the
/// certificate is refused, which the public functions make an error with [`rejected`].
fn check<G: Notation>(
    start: G,
    text: &str,
    rule: RepetitionRule<G>,
    on_move: &mut dyn FnMut(&G, G::Move),
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
    let (n, version_text) = header(MAGIC)?;
    let version = (1..=VERSION)
        .find(|v| version_text == v.to_string())
        .ok_or_else(|| {
            format!(
                "line {n}: format version '{version_text}', this verifier reads versions 1 to \
                 {VERSION}"
            )
        })?;
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

    // key -> (move, line number); key -> (threat line, line number)
    let mut strategy: HashMap<u128, (G::Move, usize)> = HashMap::new();
    let mut threat_lines: HashMap<u128, (Vec<&str>, usize)> = HashMap::new();
    // key -> (witness, line number)
    let mut witnesses: HashMap<u128, (Witness, victor::Goal, usize)> = HashMap::new();
    let mut line_count = 0;
    // The position a line's path reaches, which must still be in play.
    let node_at = |n: usize, path: &str| -> Result<G, String> {
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
        Ok(node)
    };
    for (n, line) in lines {
        line_count += 1;
        let rule_line = match line.split_once(" !! ") {
            Some((path, witness)) => Some((path, witness, victor::Goal::FollowerWins)),
            None => line
                .split_once(" ! ")
                .map(|(path, witness)| (path, witness, victor::Goal::MoverCannotWin)),
        };
        if let Some((path, witness, rule_goal)) = rule_line {
            let path = path.trim();
            let needed = match rule_goal {
                victor::Goal::MoverCannotWin => 4,
                victor::Goal::FollowerWins => 5,
            };
            if version < needed {
                return Err(format!(
                    "line {n}: this rule line needs format version {needed}"
                ));
            }
            if goal != Goal::NotLose && rule_goal == victor::Goal::MoverCannotWin {
                return Err(format!(
                    "line {n}: a rule line proves a draw at best, and the goal is a win"
                ));
            }
            let node = node_at(n, path)?;
            if node.side_to_move() == prover {
                return Err(format!(
                    "line {n}: after '{path}' the prover moves; a rule line needs the opponent to"
                ));
            }
            let (geometry, _, _) = node
                .gravity_position()
                .ok_or_else(|| format!("line {n}: this game has no gravity board for the rules"))?;
            let witness =
                Witness::parse(witness, geometry).map_err(|e| format!("line {n}: {e}"))?;
            if witnesses
                .insert(node.key(), (witness, rule_goal, n))
                .is_some()
            {
                return Err(format!(
                    "line {n}: the position after '{path}' has two rule lines"
                ));
            }
            continue;
        }
        if let Some((path, sequence)) = line.split_once(" : ") {
            let path = path.trim();
            let node = node_at(n, path)?;
            let sequence: Vec<&str> = sequence.split_whitespace().collect();
            if sequence.is_empty() {
                return Err(format!("line {n}: a threat line without moves"));
            }
            if threat_lines.insert(node.key(), (sequence, n)).is_some() {
                return Err(format!(
                    "line {n}: the position after '{path}' has two threat lines"
                ));
            }
            continue;
        }
        let (path, mv) = line
            .rsplit_once(char::is_whitespace)
            .ok_or_else(|| format!("line {n}: expected 'PATH MOVE', found '{line}'"))?;
        let path = path.trim();
        let node = node_at(n, path)?;
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
    let mut rule_positions = 0;
    let mut repetitions = 0;
    let mut on_path: HashSet<u128> = HashSet::new();
    let mut done: HashSet<u128> = HashSet::new();
    let mut visit = |pos: G,
                     follows: Option<(u128, usize)>,
                     on_path: &HashSet<u128>,
                     done: &HashSet<u128>|
     -> Result<Visit<G>, String> {
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
        let class = class_of(&pos);
        if done.contains(&class) {
            return Ok(Visit::Leaf(false));
        }
        if let Some((witness, rule_goal, line)) = witnesses.get(&key) {
            let (geometry, mover, follower) = pos
                .gravity_position()
                .expect("a rule line's position has a gravity board (checked when read)");
            victor::verify_goal(geometry, mover, follower, witness, *rule_goal)
                .map_err(|e| format!("the rule line {line} does not hold: {e}"))?;
            used.insert(*line);
            positions += 1;
            rule_positions += 1;
            return Ok(Visit::Ruled(class));
        }
        let mut legal = MoveList::new();
        pos.legal_moves(&mut legal);
        if legal.is_empty() {
            return Err("the game is not over, but there is no legal move".to_string());
        }
        positions += 1;
        // A threat line given here replaces the one followed so far.
        let mut follows = follows;
        if threat_lines.contains_key(&key) {
            follows = Some((key, 0));
        }
        let moves = if pos.side_to_move() == prover {
            prover_positions += 1;
            let win = legal
                .iter()
                .find(|&&m| pos.play(m).status() == Status::Win(prover));
            let mv = if let Some(&win) = win {
                // A win at once needs no line.
                follows = None;
                win
            } else if let Some(&(mv, line)) = strategy.get(&key) {
                if !legal.contains(&mv) {
                    return Err(format!("the move of line {line} is not legal here"));
                }
                used.insert(line);
                follows = None;
                mv
            } else if let Some((from, i)) = follows {
                let (sequence, line) = &threat_lines[&from];
                let token = sequence.get(i).ok_or_else(|| {
                    format!("the threat line of line {line} has no move left for this position")
                })?;
                let mv = pos.parse_move(token).map_err(|e| {
                    format!("move {} of the threat line of line {line}: {e}", i + 1)
                })?;
                if !legal.contains(&mv) {
                    return Err(format!(
                        "move {} of the threat line of line {line} is not legal here",
                        i + 1
                    ));
                }
                used.insert(*line);
                follows = Some((from, i + 1));
                mv
            } else {
                return Err("no move given for this position (the prover moves here)".into());
            };
            if win.is_none() {
                on_move(&pos, mv);
            }
            let mut one = MoveList::new();
            one.push(mv);
            one
        } else {
            legal
        };
        Ok(Visit::Open(Frame {
            pos,
            key,
            class,
            moves,
            next: 0,
            tainted: false,
            follows,
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
    match visit(root, None, &on_path, &done).map_err(|e| fail(&path, e))? {
        Visit::Leaf(_) | Visit::Ruled(_) => {}
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
            let follows = top.follows;
            path.push(mv);
            match visit(child, follows, &on_path, &done).map_err(|e| fail(&path, e))? {
                Visit::Leaf(tainted) => {
                    path.pop();
                    if let Some(top) = stack.last_mut() {
                        top.tainted |= tainted;
                    }
                }
                Visit::Ruled(class) => {
                    path.pop();
                    done.insert(class);
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
                done.insert(f.class);
            }
            if !stack.is_empty() {
                path.pop();
            }
        }
    }

    let claim = format!(
        "{} player {} from {}",
        prover.name(),
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
        rule_positions,
        repetitions,
        lines: line_count,
        unused_lines: line_count - used.len(),
    })
}
