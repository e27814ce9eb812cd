//! Proof certificates: a strategy that shows a position's value, written as a small text file
//! ([`format`](mod@format)), and a verifier that checks it with nothing but the rules
//! ([`verify`](mod@verify)). The searches that make them live elsewhere
//! ([`extract`](crate::search::pn::extract)); this module imports nothing from them, so that a
//! certificate's worth does not rest on the code that found it.
//!
//! A certificate is a strategy for the *prover*: the side to move at the root when the goal was
//! proven, the other side when it was disproven (then the other side has the complementary goal:
//! a disproven Win is a proven NotLose for the opponent, a disproven NotLose a proven Win). It
//! gives one move for every position where the prover moves; where the opponent moves, every
//! legal reply must be covered. Positions are merged by [`Rules::key`], so the strategy is a DAG
//! and the file lists each prover position once; in a game that never repeats, a position whose
//! symmetric image (same [`Rules::canonical_key`]) was settled earlier in the walk needs nothing
//! more (version 3, see [`class_of`]: in Qubic, with 192 symmetries, this is what makes the
//! empty board's proof small enough to write). A position where the prover wins at once needs
//! no line, and a threat line (a sequence of the prover's moves, each answered by the one reply
//! that does not lose at once) covers a whole forced win in one line. In a gravity game, a
//! position where the opponent moves may be settled by a *rule line*: a witness of Victor's
//! threat rules ([`victor`]) that the opponent cannot win there (where the prover need only
//! not lose; version 4) or that it loses (version 5), which the verifier checks from the
//! position alone.

pub mod format;
pub mod verify;
pub mod victor;

pub use format::{MAGIC, VERSION, write};
pub use verify::{VerifySummary, verify, verify_and_walk, verify_with_rule};

use crate::game::{Goal, Kind, Player, Rules};

/// The class under which the walk (of the verifier, and of the extraction that writes what it
/// will walk) remembers a settled position: its symmetry class ([`Rules::canonical_key`]) in a
/// game that never repeats; in one that does, the position itself ([`Rules::key`]), since what
/// a repetition settles depends on the exact positions of the path.
pub fn class_of<G: Rules>(pos: &G) -> u128 {
    if <G::Kind as Kind<G>>::REPEATS {
        pos.key()
    } else {
        pos.canonical_key()
    }
}

/// A strategy for the prover from the root: one move for each prover position it reaches.
#[derive(Clone, Debug)]
pub struct Certificate<G: Rules> {
    /// The position the strategy proves the goal from.
    pub root: G,
    /// The side the strategy is for: the side to move at the root if the goal was proven.
    pub prover: Player,
    /// What the prover reaches against any defence.
    pub goal: Goal,
    /// One line per position where the prover moves: a path of moves from the root reaching
    /// it, and the move chosen there.
    pub lines: Vec<(Vec<G::Move>, G::Move)>,
    /// Threat lines: a path from the root reaching a position, and the prover's moves to play
    /// in order below it wherever no line gives a move (see [`format`](mod@format)).
    pub threat_lines: Vec<ThreatLine<G::Move>>,
    /// Rule lines (gravity games only): a path from the root reaching a position where the
    /// opponent moves, the witness by which Victor's threat rules settle it ([`victor`]), and
    /// what the witness shows: that the opponent cannot win there (a `notlose` certificate
    /// only) or that it loses ([`victor::Goal::FollowerWins`], any goal).
    pub witnesses: Vec<(Vec<G::Move>, victor::Witness, victor::Goal)>,
}

/// A path from the root and the prover's moves of a threat line below the position it reaches.
pub type ThreatLine<M> = (Vec<M>, Vec<M>);
