//! What every prover of the family does around its search proper, written once: the question it
//! answers ([`Question`]: an attacker and a goal, with the verdicts and first proof and disproof
//! numbers that the rules give a position for it) and its [`Bookkeeping`] (the memory budget,
//! the repetition rule and the statistics; the limits are the caller's, lent to each proof as a
//! [`Clock`](crate::limits::Clock)). [`Pns`](super::Pns), [`Pn2`](super::Pn2) and
//! [`DfPn`](super::DfPn) keep only their algorithms.

use super::{PnStats, Verdict};
use crate::game::{
    Goal, MoveList, Player, RankedMove, RepetitionRule, Rules, Status, Tactics, repetition_draw,
};
use crate::limits::Instant;

/// "Can `attacker` reach `goal`?": positions where the attacker moves are OR nodes, the others
/// AND nodes.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Question {
    pub(crate) attacker: Player,
    pub(crate) goal: Goal,
}

/// What a position is worth for a question before any search.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Eval {
    /// Solved by the rules: over, or the side to move wins at once, or every move of the side
    /// to move lets the other win at once.
    Solved(Verdict),
    /// Open, with this many safe moves for the side to move (at least one).
    Open(u32),
}

impl Question {
    /// Whether `attacker` can reach `goal`.
    pub fn new(attacker: Player, goal: Goal) -> Question {
        Question { attacker, goal }
    }

    /// Whether the attacker moves in `pos` (an OR node).
    #[inline(always)]
    pub(crate) fn is_or<G: Rules>(&self, pos: &G) -> bool {
        pos.side_to_move() == self.attacker
    }

    /// The verdict a finished game (or a judged repetition) gives the question.
    #[inline(always)]
    pub(crate) fn verdict(&self, status: Status) -> Verdict {
        if self.goal.reached_by(status, self.attacker) {
            Verdict::Proven
        } else {
            Verdict::Disproven
        }
    }

    /// The verdict of a game that `winner` has won (or will win by force).
    #[inline(always)]
    pub(crate) fn won_by(&self, winner: Player) -> Verdict {
        self.verdict(Status::Win(winner))
    }

    /// The verdict of `pos` reached again on the path: the game ends there by `rule`.
    #[inline]
    pub(crate) fn repeated<G>(&self, pos: &G, rule: RepetitionRule<G>) -> Verdict {
        self.verdict(rule(pos))
    }

    /// Evaluates `pos` by the rules and the immediate-win shortcuts:
    /// - over: a win for the attacker proves both goals, a draw proves NotLose and disproves
    ///   Win, a win for the opponent disproves both;
    /// - the side to move has a winning move: as if it had won;
    /// - the side to move has no safe move (every move lets the other side win at once): as if
    ///   the other side had won.
    ///
    /// `moves` receives the safe moves of an open position (it must be empty on entry).
    #[inline]
    pub(crate) fn evaluate_into<G: Tactics>(
        &self,
        pos: &G,
        moves: &mut MoveList<RankedMove<G::Move>>,
    ) -> Eval {
        let status = pos.status();
        if status != Status::Ongoing {
            return Eval::Solved(self.verdict(status));
        }
        let me = pos.side_to_move();
        if pos.has_winning_move() {
            return Eval::Solved(self.won_by(me));
        }
        pos.safe_moves(moves);
        if moves.is_empty() {
            return Eval::Solved(self.won_by(me.opponent()));
        }
        Eval::Open(moves.len() as u32)
    }

    /// The first numbers of an open position with `n` safe moves by its mobility (Allis'
    /// initialisation, df-pn+): one good move may prove an OR node, every move must be refuted
    /// to disprove it, and the reverse at AND nodes.
    #[inline]
    pub(crate) fn mobility_numbers<G: Rules>(&self, pos: &G, n: u32) -> (u32, u32) {
        if self.is_or(pos) { (1, n) } else { (n, 1) }
    }

    /// The verdict a proof that `player` cannot win gives the question, if any: it disproves
    /// the attacker's win and proves its opponent's draw.
    #[inline]
    pub(crate) fn cannot_win(&self, player: Player) -> Option<Verdict> {
        match self.goal {
            Goal::Win if player == self.attacker => Some(Verdict::Disproven),
            Goal::NotLose if player != self.attacker => Some(Verdict::Proven),
            _ => None,
        }
    }

    /// The question as "can `winner` win?", and whether it is that question's complement: "can
    /// A reach NotLose?" is "can't A's opponent win?", with the AND and OR nodes exchanged, so
    /// its proof number is the other's disproof number and the other way round.
    pub(crate) fn canonical(&self) -> (Player, bool) {
        match self.goal {
            Goal::Win => (self.attacker, false),
            Goal::NotLose => (self.attacker.opponent(), true),
        }
    }
}

/// What a prover keeps around its search, the same for every algorithm of the family.
pub(crate) struct Bookkeeping<G> {
    /// The bytes the search's own structures may hold.
    pub(crate) mem_bytes: usize,
    /// How a position repeated on the path (or from the history) ends.
    pub(crate) rule: RepetitionRule<G>,
    /// What the search did, summed over its proofs.
    pub(crate) stats: PnStats,
}

impl<G> Bookkeeping<G> {
    /// A memory budget of `mem_bytes`, a repetition a draw.
    pub(crate) fn new(mem_bytes: usize) -> Self {
        Bookkeeping {
            mem_bytes,
            rule: repetition_draw::<G>,
            stats: PnStats::default(),
        }
    }

    /// One more expansion.
    #[inline(always)]
    pub(crate) fn count_expansion(&mut self) {
        self.stats.expanded += 1;
    }

    /// The search's structures hold `bytes` at this moment.
    #[inline]
    pub(crate) fn note_bytes(&mut self, bytes: usize) {
        self.stats.peak_bytes = self.stats.peak_bytes.max(bytes);
    }

    /// A proof begun at `started` ends: its time counts.
    pub(crate) fn end_proof(&mut self, started: Instant) {
        self.stats.elapsed += started.elapsed();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complements_share_one_win_question() {
        use Player::*;
        assert_eq!(Question::new(First, Goal::Win).canonical(), (First, false));
        assert_eq!(
            Question::new(First, Goal::NotLose).canonical(),
            (Second, true)
        );
        assert_eq!(
            Question::new(Second, Goal::NotLose).canonical(),
            (First, true)
        );
    }
}
