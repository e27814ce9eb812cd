//! What a solver answers: plain data every front writes out.

use super::*;

/// What a solve asks for.
#[derive(Clone, Debug, Default)]
pub struct Ask {
    /// Limits of the search.
    pub limits: Limits,
    /// Every move that keeps the value.
    pub best_moves: bool,
    /// A line of perfect play (with the best moves).
    pub pv: bool,
    /// Only whether the side to move wins: score 1 (it wins) or 0 (it does not), by the
    /// two-valued search, cheaper than the value (no best moves, no line).
    pub win_only: bool,
}

/// The value of a position for the side to move, as a solve found it.
#[derive(Clone, Debug, PartialEq)]
pub struct Solution {
    /// The score for the side to move (positive: it wins, larger: sooner; 0: a draw; negative:
    /// it loses), or 1 / 0 / -1 where only win / draw / loss is known; `None` when a limit
    /// stopped the search.
    pub score: Option<i32>,
    /// For a win or a loss where the distance is known: plies to the end under perfect play.
    pub plies: Option<u32>,
    /// Every move that keeps the value (`None` when not asked for).
    pub best_moves: Option<Vec<String>>,
    /// A line of perfect play (`None` when not asked for).
    pub pv: Option<Vec<String>>,
    /// Whether `score` is the exact score rather than only win / draw / loss.
    pub exact: bool,
    /// Why the search stopped early, if it did.
    pub stopped: Option<String>,
    /// Nodes searched.
    pub nodes: u64,
    /// Seconds the solver spent.
    pub seconds: f64,
    /// The most memory a proof-number search's tree or table held, in bytes (0 for the
    /// other methods).
    pub peak_bytes: usize,
    /// Where a limit stopped the search before the score: the bounds `lo..=hi` on the exact
    /// score it had proven (`None` where none is known, or only win / draw / loss is asked).
    pub proven: Option<(i32, i32)>,
}

/// A move and its value for the side that plays it.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveValue {
    /// The move in the game's notation.
    pub mv: String,
    /// What it is worth.
    pub value: Valuation,
    /// The exact score, where the engine gives exact scores (not only win / draw / loss).
    pub score: Option<i32>,
    /// The ply on which the game ends with best play, for an exact score of a bounded game.
    pub end_ply: Option<u32>,
}

impl MoveValue {
    /// Whether the value is the game-theoretic one.
    pub fn exact(&self) -> bool {
        self.value.is_exact()
    }

    /// `"win"`, `"draw"` or `"loss"` for the mover where the value is exact.
    pub fn outcome(&self) -> Option<&'static str> {
        self.value.outcome()
    }
}

/// Every move of a position with its value, best first, and what the engine expects.
#[derive(Clone, Debug, PartialEq)]
pub struct PositionAnalysis {
    /// Every legal move, best first.
    pub moves: Vec<MoveValue>,
    /// The expected line from the position.
    pub pv: Vec<String>,
    /// What answered ("exact", "alphabeta depth N", ...).
    pub source: String,
    /// Whether exact values are win / draw / loss only.
    pub weak: bool,
}

impl PositionAnalysis {
    /// What its values mean, as `play` prints it under its hints: the writing every front
    /// gives them ([`Valuation::settled`], then `Display`), for its kind of game.
    pub fn legend(&self) -> &'static str {
        if self.weak {
            "1 wins, 0 draws, -1 loses; ~N is an estimate"
        } else {
            "> 0 wins, the larger the sooner; 0 draws; < 0 loses; win / loss: proven, \
             not how soon; ~N is an estimate"
        }
    }
}

/// One move valued alone ([`Agent::analyze_move`]).
#[derive(Clone, Debug, PartialEq)]
pub struct MoveAnalysis {
    /// The move and its value.
    pub value: MoveValue,
    /// The move and the expected replies.
    pub line: Vec<String>,
    /// Whether exact values are win / draw / loss only.
    pub weak: bool,
}

/// The engine's move in a position.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineMove {
    /// The move.
    pub mv: String,
    /// The position after it as a move string ([`Line::text`]).
    pub moves: Option<String>,
    /// What it is worth.
    pub value: Valuation,
}
