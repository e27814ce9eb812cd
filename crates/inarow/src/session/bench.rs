//! A benchmark text solved by an agent: `MOVES EXPECTED` lines, each position from a cleared
//! table, tallied into one summary line. One piece of code for `inarow bench FILE` and the
//! WebAssembly engine's `bench`, so that the two time the same work.

use super::{Agent, Ask, Game};
use crate::error::Error;
use crate::game::{Player, one_line};
use crate::limits::Limits;

/// The totals of one benchmark file or suite.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Lines counted, solved or not.
    pub n: usize,
    /// Positions solved to the expected score.
    pub correct: usize,
    /// The solving time of every position, in microseconds.
    pub total_us: f64,
    /// The longest solving time of one position, in microseconds.
    pub max_us: f64,
    /// Nodes searched, over every position.
    pub nodes: u64,
    /// Lines that could not be solved at all (malformed, illegal): bad input, not a wrong
    /// answer.
    pub bad_lines: usize,
}

impl Tally {
    /// Counts one solve by its score, nodes and seconds; returns whether its score was the
    /// expected one.
    pub fn record_solve(
        &mut self,
        score: Option<i32>,
        nodes: u64,
        seconds: f64,
        expected: i32,
    ) -> bool {
        let us = seconds * 1e6;
        self.n += 1;
        self.total_us += us;
        self.max_us = self.max_us.max(us);
        self.nodes += nodes;
        let right = score == Some(expected);
        if right {
            self.correct += 1;
        }
        right
    }

    /// Counts a line that could not be solved at all (malformed, illegal).
    pub fn record_bad_line(&mut self) {
        self.n += 1;
        self.bad_lines += 1;
    }

    /// `NAME n=1000 correct=1000 mean_us=8.7 mean_nodes=51.3 max_us=225`
    pub fn summary(&self, name: &str) -> String {
        let n = self.n.max(1) as f64;
        format!(
            "{name} n={} correct={} mean_us={:.1} mean_nodes={:.1} max_us={:.0}",
            self.n,
            self.correct,
            self.total_us / n,
            self.nodes as f64 / n,
            self.max_us
        )
    }
}

/// What a benchmark line expects.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Expected {
    /// A score for the side to move (compared by its sign when the agent gives only that).
    Score(i32),
    /// `win` / `nowin`: whether the first player, who moves, wins (a draw is no): the
    /// two-valued question.
    FirstWins(bool),
}

impl Expected {
    fn parse(token: &str) -> Option<Expected> {
        match token {
            "win" => Some(Expected::FirstWins(true)),
            "nowin" => Some(Expected::FirstWins(false)),
            _ => token.parse().ok().map(Expected::Score),
        }
    }
}

/// Solves the `MOVES EXPECTED` lines of a benchmark file's `text` (the first `limit` of them)
/// with `agent` (an exact agent of `game`), clearing its table before each; `name` prefixes the
/// place of each problem (`NAME:LINE: ...`, for a wrong score or a malformed line). `progress`
/// is called before each line. EXPECTED is the score of the side to move (compared by its
/// sign when the agent gives only that), or `win` / `nowin` (the first player, to move, wins
/// or not: the two-valued question, as in `shared/data/cube`). Returns the tally and the
/// problems, one line each.
///
/// # Errors
/// As [`Agent::solve`]: an agent without an exact solver.
pub fn bench(
    game: &dyn Game,
    agent: &mut dyn Agent,
    name: &str,
    text: &str,
    limit: Option<usize>,
    limits: &Limits,
    progress: &mut dyn FnMut(),
) -> Result<(Tally, Vec<String>), Error> {
    let weak = agent.is_weak();
    // Touched before the clock runs: the first touch of a page is no part of a search's time.
    agent.ready();
    let mut tally = Tally::default();
    let mut problems = Vec::new();
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(limit.unwrap_or(usize::MAX));
    for (index, line) in lines {
        progress();
        let place = format!("{name}:{}", index + 1);
        let mut fields = line.split_whitespace();
        let (moves, expected) = (fields.next().unwrap_or(""), fields.next());
        let text = if moves == "-" { "" } else { moves };
        let parsed = match expected.and_then(Expected::parse) {
            Some(v) => game.read(text).map_err(|e| e.to_string()).and_then(|pos| {
                if matches!(v, Expected::FirstWins(_)) && pos.to_move() != Player::First {
                    return Err(format!(
                        "'{line}': win / nowin need the first player to move"
                    ));
                }
                Ok((pos, v))
            }),
            _ => Err(format!(
                "bad line '{line}': expected MOVES SCORE or MOVES win|nowin"
            )),
        };
        let (pos, expected) = match parsed {
            Ok(p) => p,
            Err(e) => {
                problems.push(one_line(&format!("{place}: {e}")));
                tally.record_bad_line();
                continue;
            }
        };
        agent.reset();
        let ask = Ask {
            limits: limits.clone(),
            win_only: matches!(expected, Expected::FirstWins(_)),
            ..Ask::default()
        };
        let expected = match expected {
            Expected::Score(v) if weak => v.signum(),
            Expected::Score(v) => v,
            Expected::FirstWins(w) => w as i32,
        };
        let solution = agent.solve(pos.as_ref(), &ask)?;
        let right = tally.record_solve(solution.score, solution.nodes, solution.seconds, expected);
        if !right {
            let got = match (solution.score, &solution.stopped) {
                (Some(s), _) => format!("got {s}"),
                (None, Some(stopped)) => stopped.clone(),
                (None, None) => "no score".to_string(),
            };
            problems.push(one_line(&format!(
                "{place}: {moves} expected {expected} {got}"
            )));
        }
    }
    Ok((tally, problems))
}
