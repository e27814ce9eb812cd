//! One score vocabulary for every game (the public Connect Four convention, generalised):
//! positive = the side to move wins, larger = sooner; 0 = draw. A win whose last move is ply `e`
//! is worth `(max_plies + 2 - e) / 2`; on 7x6 a win with the first move would be 21.

/// The score, for the winner, of a game that ends with ply `end_ply` (1-based).
#[inline(always)]
pub fn win_at(max_plies: u32, end_ply: u32) -> i32 {
    (max_plies as i32 + 2 - end_ply as i32) / 2
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
