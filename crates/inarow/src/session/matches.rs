//! A game between two solvers of any game, move by move through the session.

use super::*;
pub use crate::engine::agent::{GameResult, Record};

/// Plays `players` (first, second) against each other from `from`, each move within `limits`.
/// A game that repeats is drawn by the line's repetition rule; one that goes on past
/// `max_plies` more plies is called a draw. Returns the result and the position it ended in
/// (its move string is the whole game).
///
/// # Errors
/// A player that finds no move in a game under way ([`Error::Search`]).
pub fn play_game(
    players: [&mut dyn Agent; 2],
    from: Arc<dyn Line>,
    limits: &Limits,
    max_plies: u32,
) -> Result<(GameResult, Arc<dyn Line>), Error> {
    let [first, second] = players;
    let mut pos = from;
    for _ in 0..max_plies {
        match pos.status() {
            Status::Win(Player::First) => return Ok((GameResult::FirstWins, pos)),
            Status::Win(Player::Second) => return Ok((GameResult::SecondWins, pos)),
            Status::Draw => return Ok((GameResult::Draw, pos)),
            Status::Ongoing => {}
        }
        let player = match pos.to_move() {
            Player::First => &mut *first,
            Player::Second => &mut *second,
        };
        let answer = player.best_move(pos.as_ref(), limits)?;
        pos = pos.play(&answer.mv)?;
    }
    Ok((GameResult::Draw, pos))
}
