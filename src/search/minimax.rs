//! The reference solver of [`Bounded`] games: plain exhaustive negamax that uses nothing but the
//! rules (`legal_moves`, `play`, `status`), memoised by key. No pruning, no accelerators: what the
//! fast solvers are checked against on small boards.

use super::score::final_score;
use crate::game::{Bounded, MoveList};
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
        if let Some(score) = final_score(pos) {
            return score;
        }
        if let Some(&v) = self.memo.get(&pos.key()) {
            return v;
        }
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let v = moves
            .iter()
            .map(|&mv| -self.value(&pos.play(mv)))
            .max()
            .unwrap_or(0);
        self.memo.insert(pos.key(), v);
        v
    }
}
