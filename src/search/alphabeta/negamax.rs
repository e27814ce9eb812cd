//! The search itself: fail-soft negamax with bounds from the plies left, the game's strategy
//! bounds and the table, enhanced transposition cutoffs, and move ordering.
//!
//! Invariant of [`AlphaBeta::negamax`]: the game goes on and the side to move has no immediate
//! win (the root checks; below it, `Tactics::safe_moves` never lets the opponent win at once).
//! A move may end the game at once in a draw or, in games where a move can make lines for both
//! players, in any way: such a child is scored as what it is, from its status.

use super::AlphaBeta;
use super::parallel::{Halt, SPLIT_MIN_PLIES_LEFT};
use crate::game::{Bounded, MAX_MOVES, MoveList, RankedMove, SafeChoice, Status, Tactics};
use crate::limits::Instant;
use crate::limits::Stop;
use crate::search::score::{final_score, win_at};
use crate::search::threats::wins_by_threats;
use crate::search::tt::Bound;
use crate::search::victor;
use arrayvec::ArrayVec;
use std::sync::atomic::Ordering;

/// Counts what a node did, by ply, when built with the `profile` feature (nothing otherwise).
macro_rules! count {
    ($self:ident, $ply:expr, $($field:ident),+) => {
        #[cfg(feature = "profile")]
        {
            let counts = $self.profile.at($ply as usize);
            $(counts.$field += 1;)+
        }
    };
}

/// Nodes between two checks of the limits.
const CHECK_INTERVAL: u64 = 0x1000;

impl<G: Bounded + Tactics> AlphaBeta<G> {
    #[cold]
    fn check_limits(&mut self) {
        let all = self
            .shared
            .nodes
            .fetch_add(self.nodes - self.checked, Ordering::Relaxed)
            + (self.nodes - self.checked);
        crate::limits::count_nodes(self.nodes - self.checked);
        let nodes = self.nodes - self.checked;
        self.checked = self.nodes;
        if !self.parallel && self.tables.as_mut().is_some_and(|t| t.should_grow(nodes)) {
            self.grow();
        }
        if self.limits.nodes.is_some_and(|n| all >= n) {
            self.stopped = Some(Halt::Limit(Stop::Nodes));
        } else if self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.stopped = Some(Halt::Limit(Stop::Time));
        } else if self.limits.is_interrupted() {
            self.stopped = Some(Halt::Limit(Stop::Interrupted));
        } else if self.solo_until.is_some_and(|n| self.nodes >= n)
            || (self.parallel && self.shared.done.load(Ordering::Relaxed))
        {
            self.stopped = Some(Halt::Yield);
        }
    }

    #[inline(always)]
    fn key(&self, pos: &G) -> u128 {
        if self.symmetric {
            pos.canonical_key()
        } else {
            pos.key()
        }
    }

    /// The score of a child for the side to move at its parent: its final score if the move
    /// ended the game, else the search's.
    #[inline(always)]
    fn child_score(&mut self, child: &G, alpha: i32, beta: i32) -> i32 {
        if !G::ONLY_MOVER_WINS
            && let Some(score) = final_score(child)
        {
            return -score;
        }
        -self.negamax(child, -beta, -alpha)
    }

    /// The score of a position where every move loses within a ply: at the opponent's next move
    /// if some move leaves the game going, else at once.
    #[cold]
    fn lost_within_a_ply(&self, pos: &G) -> i32 {
        let (m, n) = (pos.max_plies(), pos.ply());
        if G::ONLY_MOVER_WINS {
            return -win_at(m, n + 2);
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if moves
            .iter()
            .any(|&mv| pos.play(mv).status() == Status::Ongoing)
        {
            -win_at(m, n + 2)
        } else {
            -win_at(m, n + 1)
        }
    }

    /// Bounds on the score of a position whose side to move has no immediate win and several
    /// safe moves. The opponent cannot win with the next ply, nor it with this one, so the
    /// earliest loss is its next move (at ply n + 3) and the earliest win the opponent's (n + 2)
    /// when any move can lose for its mover; two plies later each when only the mover wins. The
    /// game's strategy bounds may narrow them.
    #[inline(always)]
    fn own_bounds(&self, pos: &G) -> (i32, i32) {
        let (m, n) = (pos.max_plies(), pos.ply());
        let (lowest, highest) = if G::ONLY_MOVER_WINS {
            (-win_at(m, n + 4), win_at(m, n + 3))
        } else {
            (-win_at(m, n + 3), win_at(m, n + 2))
        };
        if self.config.strategy_bounds {
            let (lo, hi) = pos.strategy_bounds();
            (lowest.max(lo), highest.min(hi))
        } else {
            (lowest, highest)
        }
    }

    /// Bounds on the score of `pos` (whose side to move has no immediate win) from checks that
    /// search nothing: a line of forced moves (a single safe move each) followed to its end,
    /// which is exact if a side is left without a safe move or the game ends, else bounded by
    /// the plies left and the game's strategy bounds.
    #[inline(always)]
    fn quick_bounds(&self, pos: &G) -> (i32, i32) {
        let mut p = *pos;
        let mut negate = false;
        let (lo, hi) = loop {
            if !G::ONLY_MOVER_WINS
                && let Some(score) = final_score(&p)
            {
                break (score, score);
            }
            let (m, n) = (p.max_plies(), p.ply());
            match p.safe_choice() {
                SafeChoice::None => {
                    let score = self.lost_within_a_ply(&p);
                    break (score, score);
                }
                _ if G::ONLY_MOVER_WINS && n + 2 >= m => break (0, 0),
                // A forced move keeps the invariant: a safe move never lets the opponent win.
                SafeChoice::Forced(mv) if self.config.forced_lines => {
                    p = p.play(mv);
                    negate = !negate;
                }
                _ => break self.own_bounds(&p),
            }
        };
        if negate { (-hi, -lo) } else { (lo, hi) }
    }

    /// Fail-soft negamax with bounds from the number of plies left and from the table: a result
    /// at or below `alpha` is an upper bound on the score, one at or above `beta` a lower bound,
    /// and one between them the score.
    pub fn negamax(&mut self, pos: &G, mut alpha: i32, mut beta: i32) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(pos.status() == Status::Ongoing && !pos.has_winning_move());
        self.nodes += 1;
        if self.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.check_limits();
        }
        if self.stopped.is_some() {
            return 0;
        }
        let m = pos.max_plies() as i32;
        let n = pos.ply() as i32;
        count!(self, n, nodes);
        if let Some(oracle) = &self.oracle
            && n as u32 <= oracle.depth()
            && let Some(score) = oracle.score(pos.canonical_key())
        {
            count!(self, n, known);
            return score;
        }
        // The table's answer loads from memory while the moves are generated.
        let use_table = m - n >= self.config.table_min_plies_left as i32;
        let key = if use_table { self.key(pos) } else { 0 };
        if use_table {
            self.table.prefetch(key);
        }
        let mut moves = MoveList::new();
        pos.safe_moves(&mut moves);
        if moves.is_empty() {
            count!(self, n, forced);
            return self.lost_within_a_ply(pos);
        }
        // Neither side can win before the board is full.
        if G::ONLY_MOVER_WINS && n + 2 >= m {
            count!(self, n, bound_cuts);
            return 0;
        }
        let (lowest, highest) = self.own_bounds(pos);
        if alpha < lowest {
            alpha = lowest;
            if alpha >= beta {
                count!(self, n, bound_cuts);
                return alpha;
            }
        }
        if beta > highest {
            beta = highest;
            if alpha >= beta {
                count!(self, n, bound_cuts);
                return beta;
            }
        }
        if moves.len() == 1 {
            count!(self, n, forced);
            // A forced move: nothing to choose, so nothing worth a table entry.
            return self.child_score(&pos.play(moves[0].mv), alpha, beta);
        }

        // Every child's bucket is fetched at once, so that the memory latencies overlap one
        // another and the work below (most of the search's time is spent waiting for the
        // table); early in the game the children are also looked up (ETC, below).
        let (num, den) = G::CHILD_LOOKUPS_UNTIL;
        let child_lookups = den as i32 * n < num as i32 * m;
        let mut keys = ArrayVec::<u128, MAX_MOVES>::new();
        if use_table {
            for rm in &moves {
                let key = self.key(&pos.play(rm.mv));
                self.table.prefetch(key);
                if child_lookups {
                    keys.push(key);
                }
            }
        }

        let mut tt_move = None;
        if use_table {
            count!(self, n, table_probes);
        }
        if use_table && let Some(e) = self.table.probe(key) {
            count!(self, n, table_hits);
            tt_move = e.best;
            match e.bound {
                Bound::Exact => {
                    count!(self, n, table_cuts);
                    return e.value;
                }
                Bound::Lower if e.value > alpha => {
                    alpha = e.value;
                    if alpha >= beta {
                        count!(self, n, table_cuts);
                        return alpha;
                    }
                }
                Bound::Upper if e.value < beta => {
                    beta = e.value;
                    if alpha >= beta {
                        count!(self, n, table_cuts);
                        return beta;
                    }
                }
                _ => {}
            }
        }

        // Victor's rules where a proof would cut: a side to move that cannot win fails low
        // when even a draw does. (That the other side cannot win is the same proof at each
        // child, where the child's turn comes.)
        if let Some(plies) = self.config.victor_plies
            && alpha >= 0
            && victor::side_to_move_cannot_win(pos, plies)
        {
            count!(self, n, bound_cuts);
            // Kept, so that a transposition finds the bound without the rules.
            if use_table {
                self.table
                    .store(&mut self.log, key, 0, Bound::Upper, None, 1);
            }
            return 0;
        }

        if let Some(budget) = self.config.threat_search {
            // A win by at most `depth` threats ends by ply n + 2 depth + 1 (the last threat, the
            // forced reply, the winning move).
            let lowest_win = win_at(m as u32, n as u32 + 2 * budget.depth + 1);
            if beta <= lowest_win && wins_by_threats(pos, budget, &mut self.threat_nodes) {
                count!(self, n, threat_wins);
                return lowest_win;
            }
        }

        // The best score found so far, or an upper bound on it (fail-soft: a result outside the
        // window bounds the true score as tightly as the search found, for the table and for
        // the driver's next test).
        let mut value = i32::MIN;
        if self.config.child_bounds {
            // A child whose quick bounds already refute the window (it has no safe move, or the
            // opponent's strategy bound) ends the search before any child is searched
            // (Steininger): found at once, where the move order could put it last. A child
            // whose bounds say it cannot raise alpha is not searched at all.
            let mut kept = 0;
            for i in 0..moves.len() {
                let (lo, hi) = self.quick_bounds(&pos.play(moves[i].mv));
                self.child_checks += 1;
                if self.child_checks & (CHECK_INTERVAL - 1) == 0 {
                    self.check_limits();
                    if self.stopped.is_some() {
                        return 0;
                    }
                }
                if -hi >= beta {
                    count!(self, n, child_bound_cuts);
                    return -hi;
                }
                if -lo > alpha {
                    moves[kept] = moves[i];
                    if !keys.is_empty() {
                        keys[kept] = keys[i];
                    }
                    kept += 1;
                } else {
                    count!(self, n, child_bound_skips);
                    value = value.max(-lo);
                }
            }
            if kept == 0 {
                count!(self, n, all_ruled_out);
                return value;
            }
            moves.truncate(kept);
            keys.truncate(kept);
            // Every child has a safe move (a child without one would have cut: a win at ply
            // n + 3 is the highest score left), so the earliest win is at ply n + 5.
            if G::ONLY_MOVER_WINS {
                let highest = win_at(m as u32, n as u32 + 5);
                if beta > highest {
                    beta = highest;
                    if alpha >= beta {
                        count!(self, n, bound_cuts);
                        return beta;
                    }
                }
            }
        }

        // ETC: a child whose stored bound already refutes the window ends the search here, and
        // one whose stored bound says it cannot raise alpha is not searched.
        if self.config.etc && !keys.is_empty() {
            let mut kept = 0;
            for i in 0..moves.len() {
                if let Some(e) = self.table.probe(keys[i]) {
                    if e.bound != Bound::Lower && -e.value >= beta {
                        count!(self, n, etc_cuts);
                        return -e.value;
                    }
                    if e.bound != Bound::Upper && -e.value <= alpha {
                        count!(self, n, etc_skips);
                        value = value.max(-e.value);
                        continue;
                    }
                }
                moves[kept] = moves[i];
                kept += 1;
            }
            if kept == 0 {
                count!(self, n, all_ruled_out);
                return value;
            }
            moves.truncate(kept);
        }

        self.order(pos, &mut moves, tt_move);
        count!(self, n, searched);
        // Children are one ply deeper: this ply's count grows only by this node's children.
        #[cfg(feature = "profile")]
        let searched_before = self.profile.at(n as usize).children_searched;

        let nodes_before = self.nodes;
        let mut best = None;
        let split = self.parallel && m - n >= SPLIT_MIN_PLIES_LEFT;
        // Indices into `moves` (at most MAX_MOVES = 320): u16 keeps the frame small.
        let mut deferred = ArrayVec::<u16, MAX_MOVES>::new();
        let mut next = 0;
        loop {
            // Every move in order, then the ones deferred because another thread had them.
            let (i, first_pass) = if next < moves.len() {
                (next, true)
            } else if let Some(&i) = deferred.get(next - moves.len()) {
                (i as usize, false)
            } else {
                break;
            };
            next += 1;
            let rm = moves[i];
            let child = pos.play(rm.mv);
            let claim = if split && first_pass && i > 0 {
                match self.shared.claim(self.key(&child)) {
                    Some(claim) => Some(claim),
                    None => {
                        deferred.push(i as u16);
                        continue;
                    }
                }
            } else {
                None
            };
            let score = self.child_score(&child, alpha, beta);
            count!(self, n, children_searched);
            if let Some(claim) = claim {
                self.shared.release(claim);
            }
            if self.stopped.is_some() {
                return 0;
            }
            if score >= beta {
                count!(self, n, beta_cuts);
                #[cfg(feature = "profile")]
                if self.profile.at(n as usize).children_searched == searched_before + 1 {
                    count!(self, n, first_move_cuts);
                }
                let code = pos.move_code(rm.mv);
                if self.config.history {
                    let h = &mut self.history[n as usize & 1][code as usize];
                    *h = h.saturating_add(((m - n) * (m - n)) as u32);
                }
                if use_table {
                    self.table.store(
                        &mut self.log,
                        key,
                        score,
                        Bound::Lower,
                        Some(code),
                        self.nodes - nodes_before,
                    );
                }
                return score;
            }
            value = value.max(score);
            if score > alpha {
                alpha = score;
                best = Some(rm.mv);
            }
        }
        let (bound, code) = match best {
            Some(mv) => (Bound::Exact, Some(pos.move_code(mv))),
            None => (Bound::Upper, tt_move),
        };
        if use_table {
            self.table.store(
                &mut self.log,
                key,
                value,
                bound,
                code,
                self.nodes - nodes_before,
            );
        }
        value
    }

    /// Sorts moves best first: the table's move, then threat rank, then history; ties keep the
    /// game's order (a stable insertion sort: lists are short).
    #[inline(always)]
    fn order(&self, pos: &G, moves: &mut MoveList<RankedMove<G::Move>>, tt_move: Option<u16>) {
        if self.config.threat_order {
            pos.rank_moves(moves);
        }
        let history = &self.history[pos.ply() as usize & 1];
        for rm in moves.iter_mut() {
            let code = pos.move_code(rm.mv);
            let mut key = if self.config.threat_order {
                rm.rank << 20
            } else {
                0
            };
            if self.config.history {
                key += history[code as usize].min((1 << 20) - 1) as i32;
            }
            if self.config.tt_move && tt_move == Some(code) {
                key = i32::MAX;
            }
            rm.rank = key;
        }
        for i in 1..moves.len() {
            let mut j = i;
            while j > 0 && moves[j - 1].rank < moves[j].rank {
                moves.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}
