//! The search itself: fail-soft negamax with bounds from the plies left, the game's strategy
//! bounds and the table, enhanced transposition cutoffs, and move ordering.
//!
//! Invariant of [`AlphaBeta::negamax`]: the game goes on and the side to move has no immediate
//! win (the root checks; below it, `Tactics::safe_moves` never lets the opponent win at once).
//! A move may end the game at once in a draw or, in games where a move can make lines for both
//! players, in any way: such a child is scored as what it is, from its status.

use super::AlphaBeta;
use super::parallel::{Halt, SPLIT_MIN_PLIES_LEFT};
use crate::game::{Bounded, MoveList, RankedMove, Rules, SafeChoice, Status, Tactics};
use crate::limits::Instant;
use crate::limits::Stop;
use crate::search::score::{final_score, win_at};
use crate::search::threats::wins_by_threats;
use crate::search::tt::Bound;
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
/// Nodes after which a search looks children up further into the game (three quarters of it,
/// where `Variant::CHILD_LOOKUPS_UNTIL` stops): a long search finds more of the deep positions
/// in the table (the empty 7x6 board: 100.2 M -> 88.8 M nodes, 18.9 -> 18.1 s on one core),
/// where a short one pays more for the lookups than they save (L1_R3 at three quarters
/// throughout: 4.9 M -> 4.3 M nodes, 0.69 -> 0.75 s a position).
const LONG_SEARCH: u64 = 1 << 24;

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
        } else if self.parallel && self.answered_by_another() {
            self.stopped = Some(Halt::Answered);
        }
    }

    /// Whether another thread has answered the root driver's test this one is making.
    fn answered_by_another(&mut self) -> bool {
        let answered = self.shared.answered.load(Ordering::Relaxed);
        if answered == self.answered_seen {
            return false;
        }
        self.answered_seen = answered;
        self.test
            .is_some_and(|(key, test)| self.shared.tests.get(key, test).is_some())
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
    /// ended the game, else the search's of the end of its forced line.
    #[inline(always)]
    fn child_score(&mut self, child: &G, alpha: i32, beta: i32) -> i32 {
        let line = self.follow_line(child, alpha, beta);
        let (lo, hi) = line.score_bounds();
        if lo == hi {
            return lo;
        }
        self.search_line(&line, alpha, beta)
    }

    /// The score, for the side to move at the parent, of the child whose forced line is
    /// `line`: a search of the line's end, whose value is the child's or its negation.
    #[inline(always)]
    fn search_line(&mut self, line: &ForcedLine<G>, alpha: i32, beta: i32) -> i32 {
        if line.flipped {
            self.node(&line.end, alpha, beta, line.bounds)
        } else {
            -self.node(&line.end, -beta, -alpha, line.bounds)
        }
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
    fn own_bounds(&self, pos: &G, alpha: i32, beta: i32) -> (i32, i32) {
        let (m, n) = (pos.max_plies(), pos.ply());
        let (lowest, highest) = if G::ONLY_MOVER_WINS {
            (-win_at(m, n + 4), win_at(m, n + 3))
        } else {
            (-win_at(m, n + 3), win_at(m, n + 2))
        };
        if self.config.strategy_bounds {
            let (lo, hi) = pos.strategy_bounds(alpha.max(lowest), beta.min(highest));
            (lowest.max(lo), highest.min(hi))
        } else {
            (lowest, highest)
        }
    }

    /// `child`'s line of forced moves (a single safe move each) followed to its end, where a
    /// side has a choice, or none, or the game ends; with bounds on the end's value from
    /// checks that search nothing: exact if a side is left without a safe move or the game
    /// ends, else the end's plies left and the game's strategy bounds (for the parent's window
    /// `(alpha, beta)`). Positions inside the line are never searched: nothing is stored for
    /// them, and their values are the end's.
    #[inline(always)]
    fn follow_line(&self, child: &G, alpha: i32, beta: i32) -> ForcedLine<G> {
        let mut p = *child;
        let mut flipped = false;
        // The window of the position reached, for its side to move.
        let (mut alpha, mut beta) = (-beta, -alpha);
        let bounds = loop {
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
                    flipped = !flipped;
                    (alpha, beta) = (beta.saturating_neg(), alpha.saturating_neg());
                }
                _ => break self.own_bounds(&p, alpha, beta),
            }
        };
        ForcedLine {
            end: p,
            flipped,
            bounds,
        }
    }

    /// Fail-soft negamax with bounds from the number of plies left and from the table: a result
    /// at or below `alpha` is an upper bound on the score, one at or above `beta` a lower bound,
    /// and one between them the score.
    ///
    /// Below the root every position searched is the end of a forced line: its side to move
    /// has several safe moves.
    pub fn negamax(&mut self, pos: &G, alpha: i32, beta: i32) -> i32 {
        let bounds = self.own_bounds(pos, alpha, beta);
        self.node(pos, alpha, beta, bounds)
    }

    /// [`AlphaBeta::negamax`] with the position's own bounds (see [`AlphaBeta::own_bounds`])
    /// known: a line's end comes with those its parent found.
    fn node(
        &mut self,
        pos: &G,
        mut alpha: i32,
        mut beta: i32,
        (lowest, highest): (i32, i32),
    ) -> i32 {
        debug_assert!(alpha < beta);
        debug_assert!(pos.status() == Status::Ongoing && !pos.has_winning_move());
        self.nodes += 1;
        if self.nodes & (CHECK_INTERVAL - 1) == 0 {
            self.check_limits();
        }
        if self.stopped.is_some() {
            return 0;
        }
        let (alpha_in, beta_in) = (alpha, beta);
        let m = pos.max_plies() as i32;
        let n = pos.ply() as i32;
        count!(self, n, nodes);
        if let Some(oracle) = &self.oracle
            && n as u32 <= oracle.most_plies()
            && let Some(score) = oracle.score(pos)
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
        let mut frame = self.take_frame(n);
        if moves.is_empty() {
            count!(self, n, forced);
            let score = self.lost_within_a_ply(pos);
            return self.give_frame(n, frame, score);
        }
        // Neither side can win before the board is full.
        if G::ONLY_MOVER_WINS && n + 2 >= m {
            count!(self, n, bound_cuts);
            return self.give_frame(n, frame, 0);
        }
        if alpha < lowest {
            alpha = lowest;
            if alpha >= beta {
                count!(self, n, bound_cuts);
                return self.give_frame(n, frame, alpha);
            }
        }
        if beta > highest {
            beta = highest;
            if alpha >= beta {
                count!(self, n, bound_cuts);
                return self.give_frame(n, frame, beta);
            }
        }
        if moves.len() == 1 {
            // Only at the root (below it forced lines are followed by the parent), or with
            // forced lines not followed: nothing to choose, so nothing worth a table entry.
            count!(self, n, forced);
            let only = moves[0].mv;
            let score = self.child_score(&pos.play(only), alpha, beta);
            return self.give_frame(n, frame, score);
        }

        // The best score found so far (a lower bound on the position's score, from children
        // settled without a search), or, from the searches, an upper bound on it (fail-soft: a
        // result outside the window bounds the true score as tightly as the search found, for
        // the table and for the driver's next test).
        let mut value = i32::MIN;
        let mut best = None;

        // Every child's forced line is followed to its end. A child whose bounds refute the
        // window ends the search before any child is searched (Steininger): found at once,
        // where the move order could put it last. A child whose bounds say it cannot raise
        // alpha is not searched, nor one whose value they settle. The ends to search have
        // their buckets fetched at once, so that the memory latencies overlap one another and
        // the work below (most of the search's time is spent waiting for the table); early in
        // the game they are also looked up (ETC, below).
        let (num, den) = G::CHILD_LOOKUPS_UNTIL;
        let child_lookups =
            den as i32 * n < num as i32 * m || (self.nodes > LONG_SEARCH && 4 * n < 3 * m);
        let table_plies = self.config.table_min_plies_left as i32;
        for &rm in &moves {
            let child = pos.play(rm.mv);
            let line = self.follow_line(&child, alpha, beta);
            self.child_checks += 1;
            if self.child_checks & (CHECK_INTERVAL - 1) == 0 {
                self.check_limits();
                if self.stopped.is_some() {
                    return self.give_frame(n, frame, 0);
                }
            }
            let (lo, hi) = line.score_bounds();
            if lo == hi || self.config.child_bounds {
                if lo >= beta {
                    count!(self, n, child_bound_cuts);
                    return self.give_frame(n, frame, lo);
                }
                if hi <= alpha {
                    count!(self, n, child_bound_skips);
                    value = value.max(hi);
                    continue;
                }
                if lo == hi {
                    // Settled, and inside the window: it raises alpha.
                    count!(self, n, child_bound_skips);
                    value = lo;
                    alpha = lo;
                    best = Some(rm.mv);
                    continue;
                }
            }
            let key = if use_table && m - line.end.ply() as i32 >= table_plies {
                let key = self.key(&line.end);
                self.table.prefetch(key);
                key
            } else {
                0
            };
            let rank = if self.config.threat_order {
                pos.rank_child(rm.mv, &child)
            } else {
                0
            };
            frame.push(Child {
                mv: RankedMove { mv: rm.mv, rank },
                line,
                key,
            });
        }
        if frame.is_empty() {
            count!(self, n, all_ruled_out);
            return self.give_frame(n, frame, value);
        }
        // Every child has a safe move (a child without one would have cut: a win at ply n + 3
        // is the highest score left), so the earliest win is at ply n + 5.
        if G::ONLY_MOVER_WINS && self.config.child_bounds {
            let highest = win_at(m as u32, n as u32 + 5);
            if beta > highest {
                beta = highest;
                if alpha >= beta {
                    count!(self, n, bound_cuts);
                    return self.give_frame(n, frame, beta);
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
                    return self.give_frame(n, frame, e.value);
                }
                Bound::Lower if e.value > alpha => {
                    alpha = e.value;
                    if alpha >= beta {
                        count!(self, n, table_cuts);
                        return self.give_frame(n, frame, alpha);
                    }
                }
                Bound::Upper if e.value < beta => {
                    beta = e.value;
                    if alpha >= beta {
                        count!(self, n, table_cuts);
                        return self.give_frame(n, frame, beta);
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
            && self
                .cover_path
                .at(pos, plies)
                .is_some_and(|view| view.side_to_move_cannot_win(plies))
        {
            count!(self, n, bound_cuts);
            // Kept, so that a transposition finds the bound without the rules.
            if use_table {
                self.table
                    .store(&mut self.log, key, 0, Bound::Upper, None, 1);
            }
            return self.give_frame(n, frame, 0);
        }
        // And where a proof of a loss would cut: a loss scores at most the slowest one's.
        if let Some(plies) = self.config.victor_plies
            && let slowest_loss = -win_at(m as u32, m as u32)
            && (slowest_loss..0).contains(&alpha)
            && self
                .cover_path
                .at(pos, plies)
                .is_some_and(|view| view.side_to_move_loses(plies))
        {
            count!(self, n, bound_cuts);
            if use_table {
                self.table
                    .store(&mut self.log, key, slowest_loss, Bound::Upper, None, 1);
            }
            return self.give_frame(n, frame, slowest_loss);
        }

        if let Some(budget) = self.config.threat_search {
            // A win by at most `depth` threats ends by ply n + 2 depth + 1 (the last threat, the
            // forced reply, the winning move).
            let lowest_win = win_at(m as u32, n as u32 + 2 * budget.depth + 1);
            if beta <= lowest_win && wins_by_threats(pos, budget, &mut self.threat_nodes) {
                count!(self, n, threat_wins);
                return self.give_frame(n, frame, lowest_win);
            }
        }

        // ETC at the lines' ends: a child whose stored bound already refutes the window ends
        // the search here, and one whose stored bound says it cannot raise alpha is not
        // searched.
        if self.config.etc && child_lookups {
            let mut kept = 0;
            for i in 0..frame.len() {
                let child = frame[i];
                if child.key != 0
                    && let Some(e) = self.table.probe(child.key)
                {
                    // Bounds on the end's value, then on the move's score.
                    let (lo, hi) = match e.bound {
                        Bound::Exact => (e.value, e.value),
                        Bound::Lower => (e.value, i32::MAX),
                        Bound::Upper => (i32::MIN, e.value),
                    };
                    let (lo, hi) = if child.line.flipped {
                        (lo, hi)
                    } else {
                        (hi.saturating_neg(), lo.saturating_neg())
                    };
                    if lo >= beta {
                        count!(self, n, etc_cuts);
                        return self.give_frame(n, frame, lo);
                    }
                    if hi <= alpha {
                        count!(self, n, etc_skips);
                        value = value.max(hi);
                        continue;
                    }
                }
                frame[kept] = child;
                kept += 1;
            }
            if kept == 0 {
                count!(self, n, all_ruled_out);
                return self.give_frame(n, frame, value);
            }
            frame.truncate(kept);
        }

        self.order(pos, &mut frame, tt_move);
        let children = &frame;
        count!(self, n, searched);
        // Children are one ply deeper: this ply's count grows only by this node's children.
        #[cfg(feature = "profile")]
        let searched_before = self.profile.at(n as usize).children_searched;

        let nodes_before = self.nodes;
        let split = self.parallel && m - n >= SPLIT_MIN_PLIES_LEFT;
        // Places in `frame` of the moves deferred because another thread had them.
        let mut deferred_list = Vec::new();
        let mut next = 0;
        loop {
            // Every move in order, then the ones deferred because another thread had them.
            let (i, first_pass) = if next < children.len() {
                (next, true)
            } else if let Some(&i) = deferred_list.get(next - children.len()) {
                (i, false)
            } else {
                break;
            };
            next += 1;
            let child = children[i];
            let claim = if split && first_pass && i > 0 {
                match self.shared.claim(self.key(&child.line.end)) {
                    Some(claim) => Some(claim),
                    None => {
                        deferred_list.push(i);
                        continue;
                    }
                }
            } else {
                None
            };
            let score = self.search_line(&child.line, alpha, beta);
            count!(self, n, children_searched);
            if let Some(claim) = claim {
                self.shared.release(claim);
            }
            if self.stopped.is_some() {
                return self.give_frame(n, frame, 0);
            }
            if score >= beta {
                count!(self, n, beta_cuts);
                #[cfg(feature = "profile")]
                if self.profile.at(n as usize).children_searched == searched_before + 1 {
                    count!(self, n, first_move_cuts);
                }
                let code = pos.move_code(child.mv.mv);
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
                return self.give_frame(n, frame, score);
            }
            value = value.max(score);
            if score > alpha {
                alpha = score;
                best = Some(child.mv.mv);
            }
        }
        // Every bound used above is true of the position, so a value inside the window the
        // search was given is exact, whichever bound raised alpha (Steininger).
        let bound = if value <= alpha_in {
            Bound::Upper
        } else if value >= beta_in {
            Bound::Lower
        } else {
            Bound::Exact
        };
        let code = match best {
            Some(mv) => Some(pos.move_code(mv)),
            None => tt_move,
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
        self.give_frame(n, frame, value)
    }

    /// The list of children of a node at ply `ply`, empty. Each ply keeps its own, so that
    /// the recursion's stack frames stay small and the lists' memory is reused.
    #[inline(always)]
    fn take_frame(&mut self, ply: i32) -> Vec<Child<G>> {
        let mut children = std::mem::take(&mut self.frames[ply as usize]);
        children.clear();
        children
    }

    /// Gives the list back to its ply and returns `result`.
    #[inline(always)]
    fn give_frame(&mut self, ply: i32, children: Vec<Child<G>>, result: i32) -> i32 {
        self.frames[ply as usize] = children;
        result
    }

    /// Sorts the children best first: the table's move, then threat rank, then history; ties
    /// keep the game's order (a stable insertion sort: lists are short).
    #[inline(always)]
    fn order(&self, pos: &G, children: &mut [Child<G>], tt_move: Option<u16>) {
        let history = &self.history[pos.ply() as usize & 1];
        for c in children.iter_mut() {
            let code = pos.move_code(c.mv.mv);
            let mut key = if self.config.threat_order {
                c.mv.rank << 20
            } else {
                0
            };
            if self.config.history {
                key += history[code as usize].min((1 << 20) - 1) as i32;
            }
            if self.config.tt_move && tt_move == Some(code) {
                key = i32::MAX;
            }
            c.mv.rank = key;
        }
        for i in 1..children.len() {
            let mut j = i;
            while j > 0 && children[j - 1].mv.rank < children[j].mv.rank {
                children.swap(j - 1, j);
                j -= 1;
            }
        }
    }
}

/// A child's line of forced moves, followed by [`AlphaBeta::follow_line`].
#[derive(Copy, Clone)]
struct ForcedLine<G> {
    /// Where the line ends: a side to move with several safe moves (or none, or the game over).
    end: G,
    /// Whether the line has an odd number of moves: the child's value is then the negation of
    /// the end's.
    flipped: bool,
    /// Bounds on the end's value, for its side to move (equal: the value).
    bounds: (i32, i32),
}

impl<G> ForcedLine<G> {
    /// Bounds on the score of the move that led to the line, for the side that made it.
    #[inline(always)]
    fn score_bounds(&self) -> (i32, i32) {
        let (lo, hi) = self.bounds;
        if self.flipped { (lo, hi) } else { (-hi, -lo) }
    }
}

/// A child to search: its move, its forced line, and the table key of the line's end (0: none).
#[derive(Copy, Clone)]
pub(super) struct Child<G: Rules> {
    mv: RankedMove<G::Move>,
    line: ForcedLine<G>,
    key: u128,
}
