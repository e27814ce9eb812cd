//! One score vocabulary for [`Bounded`] games (the public Connect Four convention, generalised):
//! positive = the side to move wins, larger = sooner; 0 = draw. A win whose last move is ply `e`
//! is worth `(max_plies + 2 - e) / 2`; on 7x6 a win with the first move would be 21.

use crate::game::{Bounded, Status};

/// The score, for the winner, of a game that ends with ply `end_ply` (1-based).
#[inline(always)]
pub fn win_at(max_plies: u32, end_ply: u32) -> i32 {
    (max_plies as i32 + 2 - end_ply as i32) / 2
}

/// The score of a finished game for the side to move (whoever made the line), or `None` while
/// it goes on.
#[inline(always)]
pub fn final_score<G: Bounded>(pos: &G) -> Option<i32> {
    match pos.status() {
        Status::Ongoing => None,
        Status::Draw => Some(0),
        Status::Win(p) => {
            let s = win_at(pos.max_plies(), pos.ply());
            Some(if p == pos.side_to_move() { s } else { -s })
        }
    }
}

/// The inverse of [`win_at`]: the ply on which a game ends when its score for the side to move at
/// `ply` is `score` (`None` for a draw).
pub fn end_ply(max_plies: u32, ply: u32, score: i32) -> Option<u32> {
    if score == 0 {
        return None;
    }
    // The winner moves at plies of one parity; find the one that gives this score.
    let winner_parity = (if score > 0 { ply + 1 } else { ply }) % 2;
    (ply + 1..=max_plies).find(|&e| e % 2 == winner_parity && win_at(max_plies, e) == score.abs())
}
