//! "Does this player win?": a two-valued depth-first search for games whose positions repeat
//! (PopOut), with the PopOut thesis' handicaps (§5.10) and its treatment of repetitions (§5.6).
//!
//! The attacker is a fixed player; a draw counts as "no". Alpha-beta over two values prunes a
//! node's remaining moves as soon as one decides it, as the thesis' version does; a table keeps
//! the answers. Two questions give the weak value: does the side to move win; if not, does the
//! other player; if neither, it is a draw.
//!
//! # Repetitions
//! The exact keys of the positions on the path (and of the history before the root) are kept
//! with their counts. A position reached for the `repetition`-th time (2: the thesis; 3: the
//! official rule) ends the game as a draw. Such an answer depends on the path, so it is
//! *tainted*: a node decided by one child (the attacker's win, the defender's refutation) is
//! tainted if that child was; a node decided by all its children is tainted if any of them was.
//! Tainted answers are never stored in the table.
//!
//! # Handicaps (thesis §5.10, §7.3)
//! They restrict the attacker only, so a win under a handicap is a win in the real game; any
//! other answer under a handicap proves nothing. `max_plies`: the attacker must win by that ply
//! (counted from the empty board). `backward_moves`: the attacker may play at most that many
//! moves that [`Repeating::is_backward`] (PopOut's pops) and that do not win at once. The remaining
//! allowance is part of the table's key, so answers under different allowances never mix.

use super::tt::{Bound, GrowingTable, Scheme, Table, WriteLog};
use crate::error::Error;
use crate::game::{GameLine, MAX_MOVES, MoveList, Player, Repeating, Repetition, Status, Tactics};
use crate::limits::{Clock, MAX_DEPTH, Stop};
use arrayvec::ArrayVec;

/// Restrictions on the attacker that make wins faster to prove.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Handicap {
    /// The attacker must have won by this ply (1-based, counted from the empty board).
    pub max_plies: Option<u32>,
    /// The attacker may play at most this many backward moves that do not win at once.
    pub backward_moves: Option<u32>,
}

impl Handicap {
    /// Whether neither restriction applies: the real game.
    pub fn is_none(&self) -> bool {
        self.max_plies.is_none() && self.backward_moves.is_none()
    }
}

/// Bits of the table key above the position's key: the attacker, the plies left under the
/// ply handicap (8 bits, 255 = none), the backward moves left (4 bits, 15 = none).
const EXTRA_BITS: u32 = 13;

/// The search and its table, kept between questions.
pub struct WinSearch<G: Repeating + Tactics> {
    tables: GrowingTable,
    log: WriteLog,
    symmetry: bool,
    repetition: Repetition,
    /// Exact keys of the history and the current path.
    path: Vec<u128>,
    /// The length of the history at the start of `path`.
    history_len: usize,
    /// The deepest the search goes below its root.
    max_depth: u32,
    history: [[u32; MAX_MOVES]; 2],
    attacker: Player,
    handicap: Handicap,
    /// Nodes since the last reset (the caller's clock counts those of its call).
    nodes: u64,
    _game: std::marker::PhantomData<G>,
}

impl<G: Repeating + Tactics> WinSearch<G> {
    /// A search with a table of `tt_mb` MiB, under the repetition rule `repetition`.
    ///
    /// # Errors
    /// [`Error::Memory`] when the table cannot be allocated.
    pub fn try_new(
        sample: &G,
        tt_mb: usize,
        symmetry: bool,
        repetition: Repetition,
    ) -> Result<Self, Error> {
        let key_bits = sample.key_bits() + EXTRA_BITS;
        let tables = GrowingTable::new(Table::try_new(tt_mb, Scheme::TwoBig, key_bits)?, key_bits);
        Ok(WinSearch {
            log: tables.current.write_log(),
            tables,
            symmetry,
            repetition,
            path: Vec::new(),
            history_len: 0,
            max_depth: MAX_DEPTH,
            history: [[0; MAX_MOVES]; 2],
            attacker: Player::First,
            handicap: Handicap::default(),
            nodes: 0,
            _game: std::marker::PhantomData,
        })
    }

    /// Nodes searched since the last [`WinSearch::reset`].
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// Memory held by the transposition table, in bytes.
    pub fn table_bytes(&self) -> usize {
        self.tables.full().bytes()
    }

    /// Lowers the depth limit below [`MAX_DEPTH`] (for tests: a line of play deeper than
    /// this stops the search with [`Stop::Depth`]).
    pub fn set_max_depth(&mut self, plies: u32) {
        self.max_depth = plies.min(MAX_DEPTH);
    }

    /// Touches every page of the table now (see [`Table::ready`]).
    pub fn ready(&mut self) {
        self.tables.ready(&mut self.log);
    }

    /// Forgets the table, the history heuristic and the node count.
    pub fn reset(&mut self) {
        self.tables.current.clear(&mut self.log);
        self.history = [[0; MAX_MOVES]; 2];
        self.nodes = 0;
    }

    /// Whether `attacker` wins from the end of `line` under `handicap` (a draw is no), the
    /// positions before it counting for repetitions, under the limits of `clock` (a stop,
    /// the depth limit's too, stops every later question under it).
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    pub fn wins(
        &mut self,
        line: &GameLine<G>,
        attacker: Player,
        handicap: Handicap,
        clock: &mut Clock,
    ) -> Result<bool, Stop> {
        if let Some(s) = clock.stop {
            return Err(s);
        }
        self.attacker = attacker;
        self.handicap = handicap;
        self.path.clear();
        self.path.extend(line.earlier_keys());
        self.history_len = self.path.len();
        let backward = handicap.backward_moves.unwrap_or(0);
        let (win, _) = self.search(line.position(), backward, clock);
        match clock.stop {
            Some(s) => Err(s),
            None => Ok(win),
        }
    }

    /// The weak value for the side to move at the end of `line` (1 win, 0 draw, -1 loss),
    /// without handicaps.
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    pub fn value(&mut self, line: &GameLine<G>, clock: &mut Clock) -> Result<i32, Stop> {
        let me = line.position().side_to_move();
        if self.wins(line, me, Handicap::default(), clock)? {
            Ok(1)
        } else if self.wins(line, me.opponent(), Handicap::default(), clock)? {
            Ok(-1)
        } else {
            Ok(0)
        }
    }

    /// The fewest plies (from the end of `line`) in which `winner` can force a win, searching
    /// win-by-ply limits of `ply + 1, + 3, …` up to `most` plies; `None` if none is within
    /// reach.
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    pub fn distance(
        &mut self,
        line: &GameLine<G>,
        winner: Player,
        most: u32,
        clock: &mut Clock,
    ) -> Result<Option<u32>, Stop> {
        let pos = line.position();
        let first = if pos.side_to_move() == winner { 1 } else { 2 };
        for plies in (first..=most).step_by(2) {
            let handicap = Handicap {
                max_plies: Some(pos.ply() + plies),
                backward_moves: None,
            };
            if self.wins(line, winner, handicap, clock)? {
                return Ok(Some(plies));
            }
        }
        Ok(None)
    }

    /// The table key: the position (canonical or exact), the attacker and the allowances left.
    #[inline]
    fn table_key(&self, pos: &G, backward_left: u32) -> u128 {
        let base = if self.symmetry {
            pos.canonical_key()
        } else {
            pos.key()
        };
        let plies_left = match self.handicap.max_plies {
            Some(limit) => limit.saturating_sub(pos.ply()).min(254),
            None => 255,
        };
        let backward = match self.handicap.backward_moves {
            Some(_) => backward_left.min(14),
            None => 15,
        };
        let extra = (self.attacker == Player::Second) as u128
            | (plies_left as u128) << 1
            | (backward as u128) << 9;
        base | extra << pos.key_bits()
    }

    /// Whether the attacker wins from `pos` (which is not on the path yet), and whether that
    /// answer depends on the path.
    /// A limit (or the depth limit) that stops it is left in `clock`.
    fn search(&mut self, pos: &G, backward_left: u32, clock: &mut Clock) -> (bool, bool) {
        self.nodes += 1;
        if self.nodes & 0xfff == 0 && self.tables.should_grow(0x1000) {
            self.tables.grow(&mut self.log);
        }
        if let Err(reason) = clock.tick() {
            clock.stop = Some(reason);
        } else if self.path.len() - self.history_len >= self.max_depth as usize {
            clock.stop = Some(Stop::Depth);
        }
        if clock.stop.is_some() {
            return (false, true);
        }
        match pos.status() {
            Status::Win(p) => return (p == self.attacker, false),
            Status::Draw => return (false, false),
            Status::Ongoing => {}
        }
        let exact = pos.key();
        let seen = self.path.iter().filter(|&&k| k == exact).count();
        if self.repetition.draws(seen) {
            return (false, true);
        }
        let attacking = pos.side_to_move() == self.attacker;
        if pos.has_winning_move() {
            let win = attacking
                && self
                    .handicap
                    .max_plies
                    .is_none_or(|limit| pos.ply() < limit);
            return (win, false);
        }
        if let Some(limit) = self.handicap.max_plies {
            // The attacker's next move is ply n + 1 (or n + 2); past the limit it is too late.
            let next = pos.ply() + if attacking { 1 } else { 2 };
            if next > limit {
                return (false, false);
            }
        }
        let key = self.table_key(pos, backward_left);
        let mut tt_move = None;
        if let Some(e) = self.tables.current.probe(key) {
            if e.bound == Bound::Exact {
                return (e.value > 0, false);
            }
            tt_move = e.best;
        }

        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let side = pos.side_to_move() as usize;
        let mut ordered: ArrayVec<(i64, G::Move), MAX_MOVES> = moves
            .iter()
            .map(|&m| {
                let code = pos.move_code(m);
                let rank = if tt_move == Some(code) {
                    i64::MAX
                } else if pos.is_backward(m) {
                    // Pops last (thesis §5.7: the history heuristic misjudges them).
                    -1
                } else {
                    self.history[side][code as usize] as i64
                };
                (rank, m)
            })
            .collect();
        ordered.sort_by_key(|&(rank, _)| std::cmp::Reverse(rank));

        self.path.push(exact);
        let nodes_before = self.nodes;
        // The answer if no move decides the node: the attacker has no win / the defender no
        // refutation.
        let mut result = !attacking;
        let mut tainted = false;
        let mut deciding = None;
        for &(_, m) in &ordered {
            let child = pos.play(m);
            let mut left = backward_left;
            if attacking
                && self.handicap.backward_moves.is_some()
                && pos.is_backward(m)
                && child.status() != Status::Win(self.attacker)
            {
                if left == 0 {
                    continue; // forbidden to the attacker: as if it lost
                }
                left -= 1;
            }
            let (win, child_tainted) = self.search(&child, left, clock);
            if clock.stop.is_some() {
                self.path.pop();
                return (false, true);
            }
            if win == attacking {
                // The attacker found a win, or the defender a refutation.
                result = win;
                tainted = child_tainted;
                deciding = Some(m);
                break;
            }
            tainted |= child_tainted;
        }
        self.path.pop();
        if let Some(m) = deciding {
            let h = &mut self.history[side][pos.move_code(m) as usize];
            *h = h.saturating_add(1 + (self.nodes - nodes_before).min(1 << 20) as u32);
        }
        if !tainted {
            let code = deciding.map(|m| pos.move_code(m));
            self.tables.current.store(
                &mut self.log,
                key,
                result as i32,
                Bound::Exact,
                code,
                self.nodes - nodes_before,
            );
        }
        (result, tainted)
    }
}
