//! Root drivers: how a sequence of (mostly null-window) searches finds the exact score.

use super::parallel::Halt;
use super::{AlphaBeta, Driver};
use crate::game::{Bounded, Tactics};
use crate::search::score::{final_score, win_at};
use std::sync::atomic::Ordering;

/// Tests the galloping driver makes from the extremes (measured on the public sets).
const GALLOP_TESTS: u32 = 8;
/// In weak mode: fewer, as the tests nearest the value then decide nothing (measured likewise).
const WEAK_GALLOP_TESTS: u32 = 6;
/// The galloping driver leaves tests in `-NEAR_ZERO..NEAR_ZERO` to MTD(f): near the value of a
/// long game they are the costly ones, and MTD(f) from 0 makes them anyway (measured on the
/// public sets: L2_R2 9607 -> 9417 nodes, L1_R2 299 K -> 298 K; nothing else moves).
const NEAR_ZERO: i32 = 2;

impl<G: Bounded + Tactics> AlphaBeta<G> {
    /// The score of `pos` on this thread alone (see [`AlphaBeta::solve`]).
    pub(super) fn solve_alone(&mut self, pos: &G, weak: bool) -> i32 {
        let sign = |v: i32| if weak { v.signum() } else { v };
        if let Some(score) = final_score(pos) {
            return sign(score);
        }
        if pos.has_winning_move() {
            return sign(win_at(pos.max_plies(), pos.ply() + 1));
        }
        let (mut lo, mut hi) = score_range(pos);
        // In weak mode the search may stop once the sign is known.
        let settled = |lo: i32, hi: i32| lo >= hi || (weak && (lo > 0 || hi < 0));
        if weak && self.config.driver != Driver::Gallop {
            lo = lo.max(-1);
            hi = hi.min(1);
        }
        let value = match self.config.driver {
            Driver::FullWindow => {
                let r = self.negamax(pos, lo - 1, hi + 1);
                r.clamp(lo, hi)
            }
            Driver::Bisection => self.bisect(pos, lo, hi),
            Driver::Gallop => {
                // Exponential search inward from both ends, short of the scores near 0, then
                // MTD(f) in what is left. Weak mode gallops over the whole range too: a short
                // win or loss is the cheapest way to learn the sign.
                let mut step = [1, 1];
                let tests = if weak {
                    WEAK_GALLOP_TESTS
                } else {
                    GALLOP_TESTS
                };
                for i in 0..tests {
                    if settled(lo, hi) {
                        break;
                    }
                    let top = i % 2 == 0;
                    let test = if top {
                        (hi - step[0]).max(lo)
                    } else {
                        (lo + step[1] - 1).min(hi - 1)
                    };
                    if (-NEAR_ZERO..NEAR_ZERO).contains(&test) {
                        break;
                    }
                    self.narrow(pos, test, &mut lo, &mut hi);
                    step[!top as usize] *= 2;
                }
                if weak && !settled(lo, hi) {
                    lo = lo.max(-1);
                    hi = hi.min(1);
                }
                self.mtdf(pos, lo, hi, settled)
            }
            Driver::Mtdf => self.mtdf(pos, lo, hi, settled),
            Driver::Deepening => {
                let mut from_top = true;
                while lo < hi {
                    let test = if from_top { hi - 1 } else { lo };
                    self.narrow(pos, test, &mut lo, &mut hi);
                    from_top = !from_top;
                }
                lo
            }
        };
        sign(value)
    }

    /// MTD(f): null-window tests at the last one's fail-soft result, from a first guess of 0
    /// (the score of most long games is small), until `settled`.
    fn mtdf(
        &mut self,
        pos: &G,
        mut lo: i32,
        mut hi: i32,
        settled: impl Fn(i32, i32) -> bool,
    ) -> i32 {
        let mut guess = 0.clamp(lo, hi);
        while !settled(lo, hi) {
            let test = if guess <= lo { lo } else { guess - 1 };
            guess = self.narrow(pos, test, &mut lo, &mut hi);
        }
        lo
    }

    /// Null-window tests that halve `[lo, hi]`, biased towards 0 (Pons): draws and small
    /// scores are common and their tests are the costly ones.
    fn bisect(&mut self, pos: &G, mut lo: i32, mut hi: i32) -> i32 {
        while lo < hi {
            let mut med = lo + (hi - lo) / 2;
            if med <= 0 && lo / 2 < med {
                med = lo / 2;
            } else if med >= 0 && hi / 2 > med {
                med = hi / 2;
            }
            self.narrow(pos, med, &mut lo, &mut hi);
        }
        lo
    }

    /// One null-window test "is the value above `test`?", narrowing `[lo, hi]`; returns the
    /// bound it found. A test made before (by another thread, or by the run a checkpoint
    /// saved) is answered from its recorded result: the drivers are deterministic, so a run
    /// that resumes replays the tests made and goes on with the one that was under way.
    fn narrow(&mut self, pos: &G, test: i32, lo: &mut i32, hi: &mut i32) -> i32 {
        let key = pos.canonical_key();
        let r = loop {
            if let Some(r) = self.shared.tests.get(key, test) {
                break r;
            }
            self.test = Some((key, test));
            let r = self.negamax(pos, test, test + 1);
            self.test = None;
            match self.stopped {
                None => {
                    self.shared.tests.record(key, test, r);
                    self.shared.answered.fetch_add(1, Ordering::Relaxed);
                    break r;
                }
                // Another thread's answer, read above.
                Some(Halt::Answered) => self.stopped = None,
                Some(_) => {
                    *lo = *hi;
                    return r;
                }
            }
        };
        if r <= test {
            *hi = r.max(*lo);
        } else {
            *lo = r.min(*hi);
        }
        crate::limits::note_root_bounds(|| pos.key(), *lo, *hi);
        r.clamp(*lo, *hi)
    }

    /// The bounds `lo..=hi` on the exact score of `pos` that the root drivers' finished tests
    /// have proven, on every thread (`None` before the first test ends): what a solve that a
    /// limit stopped had learnt. Tests of earlier solves of `pos` count too.
    pub fn proven(&self, pos: &G) -> Option<(i32, i32)> {
        let key = pos.canonical_key();
        let (mut lo, mut hi) = score_range(pos);
        let mut tested = false;
        for (test, r) in self.shared.tests.of(key) {
            tested = true;
            if r <= test {
                hi = hi.min(r.max(lo));
            } else {
                lo = lo.max(r.min(hi));
            }
        }
        tested.then_some((lo, hi))
    }

    /// See [`AlphaBeta::value_at_most`].
    pub(super) fn value_at_most_alone(&mut self, pos: &G, bound: i32) -> bool {
        let exact = match final_score(pos) {
            Some(score) => Some(score),
            None if pos.has_winning_move() => Some(win_at(pos.max_plies(), pos.ply() + 1)),
            None => None,
        };
        match exact {
            Some(v) => v <= bound,
            None => self.negamax(pos, bound, bound + 1) <= bound,
        }
    }
}

/// The scores `lo..=hi` a position that is not over and has no win at once may have: no win
/// with this ply, and a loss by the next one at the earliest (by this one, if every move can
/// lose at once).
fn score_range<G: Bounded + Tactics>(pos: &G) -> (i32, i32) {
    let (m, n) = (pos.max_plies() as i32, pos.ply() as i32);
    let earliest_loss = if G::ONLY_MOVER_WINS { m - n } else { m + 1 - n };
    (-earliest_loss / 2, (m + 1 - n) / 2)
}
