//! The proof-number family: [`pns`] (Allis' PNS on a DAG, over the arena of `graph`), [`pn2`]
//! (PN², its two-level form), [`dfpn`] (Nagai's depth-first version) and [`extract`] (proof
//! certificates from a df-pn table). This module holds what they share: the answer
//! ([`Verdict`]), statistics ([`PnStats`]), the [`Prover`] interface, the arithmetic of proof and
//! disproof numbers, move ordering and key hashing; `prover` holds the bookkeeping around a
//! search (the question, the leaf evaluation, the memory budget and statistics).
//!
//! Proof-number searches answer a yes/no question on an AND/OR graph. Here the question is
//! "can the *attacker* (a fixed player, usually the side to move at the root) reach the goal
//! ([`Goal`])?": positions where the attacker moves are OR nodes, the others AND nodes. Two
//! questions give the weak value of a position ([`weak_value`]): Win, then NotLose. They need no
//! length bound: a position that repeats one on the path is judged by the game's
//! [`RepetitionRule`](crate::game::RepetitionRule), so they serve every kind of game.

pub mod dfpn;
pub mod extract;
mod graph;
pub mod pn2;
pub mod pns;
mod prover;

pub use prover::Question;

pub use dfpn::DfPn;
pub use pn2::Pn2;
pub use pns::Pns;

use crate::game::{GameLine, Goal, MoveList, Player, RankedMove, Rules, Tactics};
use crate::limits::{Clock, Stop};
use std::hash::{BuildHasherDefault, Hasher};
use std::time::Duration;

/// The answer to "can the attacker reach the goal?".
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Verdict {
    /// Yes: the attacker has a strategy that reaches the goal against any defence.
    Proven,
    /// No: the opponent has a strategy that keeps the attacker from it.
    Disproven,
}

/// The result of one proof attempt, as one value: proven, disproven, or unknown and why.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// [`Verdict::Proven`].
    Proven,
    /// [`Verdict::Disproven`].
    Disproven,
    /// Neither: the search stopped first, for this reason.
    Unknown(Stop),
}

impl From<Result<Verdict, Stop>> for Outcome {
    fn from(r: Result<Verdict, Stop>) -> Self {
        match r {
            Ok(Verdict::Proven) => Outcome::Proven,
            Ok(Verdict::Disproven) => Outcome::Disproven,
            Err(s) => Outcome::Unknown(s),
        }
    }
}

/// What a proof-number search did, summed over its `prove` calls since it was made.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PnStats {
    /// Nodes expanded (children generated); for df-pn, calls of its recursive search.
    pub expanded: u64,
    /// The most memory the search's own structures held at once (arena, map, table), in bytes.
    pub peak_bytes: usize,
    /// Time spent inside `prove`.
    pub elapsed: Duration,
    /// Positions visited by threat-space searches (df-pn's win detector).
    pub threat_nodes: u64,
}

/// What the proof-number searches share; the engine and the certificate extractor drive any of
/// them through it. Every proof runs under the caller's `clock`: the proofs of one call (the
/// two of a weak value, a proof and its certificate) share its deadline and node budget.
pub trait Prover<G: Rules>: Send {
    /// The answer to `question` at the end of `line`, whose earlier positions count for the
    /// repetition rule.
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    fn answer(
        &mut self,
        line: &GameLine<G>,
        question: Question,
        clock: &mut Clock,
    ) -> Result<Verdict, Stop>;

    /// Whether `attacker` can reach `goal` at the end of `line`.
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    fn prove_for(
        &mut self,
        line: &GameLine<G>,
        attacker: Player,
        goal: Goal,
        clock: &mut Clock,
    ) -> Result<Verdict, Stop> {
        self.answer(line, Question::new(attacker, goal), clock)
    }

    /// [`Prover::answer`] within about `budget` more expanded nodes: `None` when they run out
    /// first. A search that keeps its table between questions under one history (df-pn) goes
    /// on from where the last call for the same question stopped; the default ignores the
    /// budget.
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    fn answer_within(
        &mut self,
        line: &GameLine<G>,
        question: Question,
        budget: u64,
        clock: &mut Clock,
    ) -> Result<Option<Verdict>, Stop> {
        let _ = budget;
        self.answer(line, question, clock).map(Some)
    }

    /// What the search did so far.
    fn stats(&self) -> PnStats;

    /// Forgets what the search learnt, as before a benchmark position (nothing is kept between
    /// proofs by default).
    fn clear(&mut self) {}

    /// Whether the side to move in `pos` can reach `goal`.
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    fn prove(&mut self, pos: &G, goal: Goal, clock: &mut Clock) -> Result<Verdict, Stop> {
        self.prove_for(&GameLine::new(*pos), pos.side_to_move(), goal, clock)
    }
}

/// The weak value of a position (1 win, 0 draw, -1 loss for the side to move) from at most two
/// proofs: Win, and if it is disproven, NotLose.
///
/// # Errors
/// The [`Stop`] of a proof that ended before it answered.
pub fn weak_value(mut prove: impl FnMut(Goal) -> Result<Verdict, Stop>) -> Result<i32, Stop> {
    match prove(Goal::Win)? {
        Verdict::Proven => Ok(1),
        Verdict::Disproven => match prove(Goal::NotLose)? {
            Verdict::Proven => Ok(0),
            Verdict::Disproven => Ok(-1),
        },
    }
}

/// The first budget of [`raced_value`]'s slices, in expanded nodes.
pub const FIRST_SLICE: u64 = 4096;

/// The weak value of a position as [`weak_value`] gives it, with the two questions raced: Win
/// and NotLose are searched in turn, in slices of doubling budgets (`prove(goal, budget)`,
/// `None` when the slice ran out), until one settles the value alone (Win proven: a win;
/// NotLose disproven: a loss) or both have answered (a draw); once one question has answered,
/// the other is asked without a budget. A loss needs only the disproof of NotLose (the
/// opponent's win, a proof that does not depend on the path), where asking Win first needs a
/// disproof of the loser's win, whose draws by repetition cannot be stored as facts and are
/// searched again and again. A race costs at most about twice the quicker of the two.
///
/// # Errors
/// The [`Stop`] that ended a search before the value was known.
pub fn raced_value(
    mut prove: impl FnMut(Goal, Option<u64>) -> Result<Option<Verdict>, Stop>,
) -> Result<i32, Stop> {
    let (mut win, mut not_lose) = (None, None);
    let mut budget = FIRST_SLICE;
    loop {
        for goal in [Goal::Win, Goal::NotLose] {
            match (win, not_lose) {
                (Some(Verdict::Proven), _) => return Ok(1),
                (_, Some(Verdict::Disproven)) => return Ok(-1),
                (Some(Verdict::Disproven), Some(Verdict::Proven)) => return Ok(0),
                _ => {}
            }
            // The other question answered: this one alone is left, without a budget.
            let other_known = match goal {
                Goal::Win => not_lose.is_some(),
                Goal::NotLose => win.is_some(),
            };
            let slot = match goal {
                Goal::Win => &mut win,
                Goal::NotLose => &mut not_lose,
            };
            if slot.is_none() {
                *slot = prove(goal, (!other_known).then_some(budget))?;
            }
        }
        budget = budget.saturating_mul(2);
    }
}

/// The proof or disproof number of a solved node: no number of leaves suffices.
pub(crate) const INF: u32 = u32::MAX;

/// `a + b` for proof numbers: infinite if either is, else capped just below infinity, so that
/// a sum of finite numbers never reads as a solved node.
#[inline(always)]
pub(crate) fn pn_add(a: u32, b: u32) -> u32 {
    if a == INF || b == INF {
        INF
    } else {
        a.saturating_add(b).min(INF - 1)
    }
}

/// The numbers of a solved node: 0 for what its verdict settles, infinite for the other.
#[inline(always)]
pub(crate) fn solved_numbers(v: Verdict) -> (u32, u32) {
    match v {
        Verdict::Proven => (0, INF),
        Verdict::Disproven => (INF, 0),
    }
}

/// The verdict that numbers show: proven at proof number 0, disproven at disproof number 0,
/// none while the node is open.
#[inline]
pub(crate) fn verdict_of((pn, dn): (u32, u32)) -> Option<Verdict> {
    match (pn, dn) {
        (0, _) => Some(Verdict::Proven),
        (_, 0) => Some(Verdict::Disproven),
        _ => None,
    }
}

/// The verdict of a root that a search has solved (one of its numbers is 0).
pub(crate) fn root_verdict(pn: u32, dn: u32) -> Verdict {
    debug_assert!(pn == 0 || dn == 0);
    if pn == 0 {
        Verdict::Proven
    } else {
        Verdict::Disproven
    }
}

/// Sorts moves by the game's ranks, best first; ties keep the game's order.
pub(crate) fn order_moves<G: Tactics>(pos: &G, moves: &mut MoveList<RankedMove<G::Move>>) {
    if moves.len() < 2 {
        return;
    }
    pos.rank_moves(moves);
    for i in 1..moves.len() {
        let mut j = i;
        while j > 0 && moves[j - 1].rank < moves[j].rank {
            moves.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// A fast hasher for position keys (they are already well mixed in their low bits for most
/// games, but not all: the mix below spreads every bit).
#[derive(Default, Clone, Copy)]
pub(crate) struct KeyHasher(u64);

impl Hasher for KeyHasher {
    #[inline(always)]
    fn finish(&self) -> u64 {
        let mut x = self.0;
        x ^= x >> 32;
        x = x.wrapping_mul(0xd6e8_feb8_6659_fd93);
        x ^= x >> 32;
        x
    }

    #[inline(always)]
    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(b as u64);
        }
    }

    #[inline(always)]
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(23) ^ v).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }

    #[inline(always)]
    fn write_u128(&mut self, v: u128) {
        self.write_u64(v as u64);
        self.write_u64((v >> 64) as u64);
    }

    #[inline(always)]
    fn write_u32(&mut self, v: u32) {
        self.write_u64(v as u64);
    }

    #[inline(always)]
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

/// The hasher builder for maps and sets of keys.
pub(crate) type KeyBuild = BuildHasherDefault<KeyHasher>;

/// A 128-bit key as two words, so that map entries need only 8-byte alignment.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub(crate) struct Key(pub u64, pub u64);

impl From<u128> for Key {
    #[inline(always)]
    fn from(k: u128) -> Key {
        Key(k as u64, (k >> 64) as u64)
    }
}

/// Shared by the tests of the proof-number family: small boards, random positions, and the
/// reference values they are checked against.
#[cfg(test)]
pub(crate) mod testing {
    use crate::game::{Connect, Grid, MoveList, Rules, Runtime, Status};
    use crate::limits::Clock;
    use crate::search::minimax::Minimax;
    use crate::search::{AlphaBeta, Config};
    use std::collections::HashMap;
    use std::sync::{Mutex, OnceLock};

    pub type Board = Connect<u64, Runtime>;

    /// The small boards the tests use: (width, height, k).
    pub const BOARDS: &[(u32, u32, u32)] = &[(3, 3, 3), (4, 4, 3), (4, 4, 4), (5, 4, 4), (4, 5, 4)];

    pub fn board(w: u32, h: u32, k: u32) -> Board {
        Connect::new(Runtime::new(Grid::new(w, h, k).expect("valid size")))
    }

    /// A small deterministic generator (xorshift64*).
    pub struct Rng(u64);

    impl Rng {
        pub fn new(seed: u64) -> Rng {
            Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
        }

        pub fn next(&mut self) -> u64 {
            self.0 ^= self.0 >> 12;
            self.0 ^= self.0 << 25;
            self.0 ^= self.0 >> 27;
            self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
        }

        pub fn below(&mut self, n: usize) -> usize {
            (self.next() % n as u64) as usize
        }
    }

    /// `count` positions reached from `start` by `min..=max` random legal moves (fewer when the
    /// game ends first), with the moves that reach them.
    pub fn random_positions<G: Rules>(
        start: G,
        count: usize,
        min: u32,
        max: u32,
        seed: u64,
    ) -> Vec<(G, Vec<G::Move>)> {
        let mut rng = Rng::new(seed);
        (0..count)
            .map(|_| {
                let plies = min + rng.below((max - min + 1) as usize) as u32;
                let mut pos = start;
                let mut moves = Vec::new();
                for _ in 0..plies {
                    if pos.status() != Status::Ongoing {
                        break;
                    }
                    let mut legal = MoveList::new();
                    pos.legal_moves(&mut legal);
                    let m = legal[rng.below(legal.len())];
                    moves.push(m);
                    pos = pos.play(m);
                }
                (pos, moves)
            })
            .collect()
    }

    /// Exhaustive memos by board name, shared by every test (the empty 5x4 board alone takes
    /// seconds to enumerate).
    static MEMOS: OnceLock<Mutex<HashMap<String, Minimax>>> = OnceLock::new();

    /// Weak values from the exhaustive reference, checked against alpha-beta's weak solve.
    pub struct Reference {
        alphabeta: AlphaBeta<Board>,
    }

    impl Reference {
        pub fn new(sample: &Board) -> Reference {
            let config = Config {
                tt_mb: 2,
                ..Config::default()
            };
            Reference {
                alphabeta: AlphaBeta::new(sample, config),
            }
        }

        pub fn weak(&mut self, pos: &Board) -> i32 {
            let exhaustive = {
                let mut memos = MEMOS
                    .get_or_init(|| Mutex::new(HashMap::new()))
                    .lock()
                    .unwrap_or_else(|e| e.into_inner());
                memos.entry(pos.name()).or_default().value(pos).signum()
            };
            let alphabeta = self
                .alphabeta
                .solve(pos, true, &mut Clock::default())
                .expect("no limits");
            assert_eq!(exhaustive, alphabeta, "minimax and alpha-beta disagree");
            exhaustive
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Status;

    #[test]
    fn weak_value_combines_two_proofs() {
        let answer = |win: Verdict, notlose: Verdict| {
            weak_value(|g| match g {
                Goal::Win => Ok(win),
                Goal::NotLose => Ok(notlose),
            })
        };
        assert_eq!(answer(Verdict::Proven, Verdict::Proven), Ok(1));
        assert_eq!(answer(Verdict::Disproven, Verdict::Proven), Ok(0));
        assert_eq!(answer(Verdict::Disproven, Verdict::Disproven), Ok(-1));
        assert_eq!(weak_value(|_| Err(Stop::Memory)), Err(Stop::Memory));
    }

    #[test]
    fn raced_value_agrees_with_weak_value() {
        // Each question answers once its budgets reach its cost (none: at once); the race
        // gives weak_value's value whatever the costs, asks nothing once the value is known,
        // and asks the question left without a budget.
        use Verdict::{Disproven, Proven};
        for (win, not_lose) in [
            (Proven, Proven),
            (Disproven, Proven),
            (Disproven, Disproven),
        ] {
            for win_cost in [0, 1, FIRST_SLICE, 5 * FIRST_SLICE, 1 << 40] {
                for not_lose_cost in [0, 1, FIRST_SLICE, 3 * FIRST_SLICE, 1 << 40] {
                    let mut spent = [0u64; 2];
                    let mut asked = Vec::new();
                    let value = raced_value(|goal, budget| {
                        let (i, cost, verdict) = match goal {
                            Goal::Win => (0, win_cost, win),
                            Goal::NotLose => (1, not_lose_cost, not_lose),
                        };
                        asked.push((goal, budget));
                        spent[i] += budget.unwrap_or(u64::MAX).min(cost.max(1));
                        Ok((spent[i] >= cost).then_some(verdict))
                    });
                    let want = weak_value(|g| Ok(if g == Goal::Win { win } else { not_lose }));
                    assert_eq!(
                        value, want,
                        "{win:?} {not_lose:?} {win_cost} {not_lose_cost}"
                    );
                    // The value decided by one answer asks no more after it.
                    let (last, _) = *asked.last().unwrap();
                    let decisive = match value {
                        Ok(1) => last == Goal::Win,
                        Ok(-1) => last == Goal::NotLose,
                        _ => true,
                    };
                    assert!(decisive, "{asked:?}");
                }
            }
        }
        assert_eq!(raced_value(|_, _| Err(Stop::Time)), Err(Stop::Time));
    }

    #[test]
    fn terminal_verdicts() {
        use Player::*;
        let v = |s, g| prover::Question::new(First, g).verdict(s);
        assert_eq!(v(Status::Win(First), Goal::Win), Verdict::Proven);
        assert_eq!(v(Status::Win(First), Goal::NotLose), Verdict::Proven);
        assert_eq!(v(Status::Draw, Goal::Win), Verdict::Disproven);
        assert_eq!(v(Status::Draw, Goal::NotLose), Verdict::Proven);
        assert_eq!(v(Status::Win(Second), Goal::Win), Verdict::Disproven);
        assert_eq!(v(Status::Win(Second), Goal::NotLose), Verdict::Disproven);
        assert_eq!(Goal::Win.complement(), Goal::NotLose);
        assert_eq!("notlose".parse::<Goal>(), Ok(Goal::NotLose));
        assert_eq!(Outcome::from(Err(Stop::Time)), Outcome::Unknown(Stop::Time));
    }

    #[test]
    fn sums_saturate_below_infinity() {
        assert_eq!(pn_add(INF - 1, 5), INF - 1);
        assert_eq!(pn_add(INF, 0), INF);
        assert_eq!(pn_add(3, 4), 7);
    }

    #[test]
    fn numbers_show_verdicts() {
        for v in [Verdict::Proven, Verdict::Disproven] {
            assert_eq!(verdict_of(solved_numbers(v)), Some(v));
            let (pn, dn) = solved_numbers(v);
            assert_eq!(root_verdict(pn, dn), v);
        }
        assert_eq!(verdict_of((1, 1)), None);
        assert_eq!(verdict_of((INF - 1, 3)), None);
    }
}
