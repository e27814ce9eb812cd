//! The reference solver of [`Bounded`] games: plain exhaustive negamax that uses nothing but the
//! rules (`legal_moves`, `play`, `status`), memoised by key. No pruning, no accelerators: what the
//! fast solvers are checked against on small boards.

use super::score::final_score;
use crate::game::{Bounded, MoveList};
use crate::limits::{Clock, Limits, Stop};
use std::collections::HashMap;

/// Exact scores of every position reached, by key.
pub struct Minimax {
    memo: HashMap<u128, i32>,
}

impl Default for Minimax {
    fn default() -> Self {
        Self::new()
    }
}

impl Minimax {
    /// A solver that knows no position yet.
    pub fn new() -> Self {
        Minimax {
            memo: HashMap::new(),
        }
    }

    /// The number of distinct positions evaluated so far.
    pub fn positions(&self) -> usize {
        self.memo.len()
    }

    /// The exact score of `pos` for the side to move.
    pub fn value<G: Bounded>(&mut self, pos: &G) -> i32 {
        self.value_within(pos, &mut Clock::new(Limits::default()), usize::MAX)
            .expect("no limits")
    }

    /// [`Minimax::value`] under the clock's limits and with at most `max_positions` remembered
    /// ([`Stop::Memory`] beyond).
    pub(crate) fn value_within<G: Bounded>(
        &mut self,
        pos: &G,
        clock: &mut Clock,
        max_positions: usize,
    ) -> Result<i32, Stop> {
        if let Some(score) = final_score(pos) {
            return Ok(score);
        }
        if let Some(&v) = self.memo.get(&pos.key()) {
            return Ok(v);
        }
        clock.tick()?;
        if self.memo.len() >= max_positions {
            return Err(Stop::Memory);
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut v = i32::MIN;
        for &mv in &moves {
            v = v.max(-self.value_within(&pos.play(mv), clock, max_positions)?);
        }
        let v = if moves.is_empty() { 0 } else { v };
        self.memo.insert(pos.key(), v);
        Ok(v)
    }
}
