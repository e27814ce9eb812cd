//! Whether the default engine keeps a won game won: from 7x6 positions the side to move wins,
//! the `best` engine plays the winning side at about a second a move against the exact
//! solver's replies (the longest resistance), and must win every game.

use super::super::Options;
use crate::engine::agent::{Agent, GameResult, Level};
use crate::error::Error;
use crate::game::{GameLine, GameSpec, Notation, Player, Repetition, Tactics, read_line};
use crate::with_game;
use std::time::{Duration, Instant};

/// Won 7x6 positions of plies 6 to 8, each won by the side to move by the least margin (a
/// score of 1 or 2: the win comes with the last discs, so every move until then must keep
/// it). Drawn by `inarow gen --stones N --count 16 --seed 11` and kept where `inarow solve`
/// gave 1 or 2.
pub const WON_POSITIONS: [&str; 6] = [
    "324425", "545655", "7145514", "6575144", "25163472", "43347265",
];

/// The thinking time of the engine under test: about a second a move.
pub const CONVERT_THINK: Duration = Duration::from_secs(1);

/// The opponent's thinking time: enough for the exact solver to settle every reply (a cap;
/// it answers as soon as it knows).
const OPPONENT_THINK: Duration = Duration::from_secs(120);

/// One game of the conversion benchmark.
#[derive(Clone, Debug)]
pub struct Conversion {
    /// The won position, as a move string.
    pub position: String,
    /// Whether the engine won it.
    pub won: bool,
    /// The moves played from it.
    pub moves: String,
    /// The engine's moves.
    pub engine_moves: usize,
    /// Seconds the engine thought, in all.
    pub engine_seconds: f64,
    /// The longest single move of the engine, in seconds.
    pub longest_move: f64,
}

/// Plays every position of [`WON_POSITIONS`] out, the engine at [`CONVERT_THINK`] a move;
/// `on_game` is told of each game as it ends.
///
/// # Errors
/// An engine that cannot be built (memory).
pub fn run_conversions(mut on_game: impl FnMut(&Conversion)) -> Result<Vec<Conversion>, Error> {
    let mut out = Vec::new();
    with_game!("connect4".parse::<GameSpec>()?.start(), start => {
        for (i, text) in WON_POSITIONS.iter().enumerate() {
            let line = read_line(start, text)?;
            let options = Options::default().fitted_to(&start);
            let engine = Agent::new(Level::Best, &start, options.clone(), i as u64)?;
            let opponent = Agent::new(Level::Best, &start, options, 1000 + i as u64)?;
            let game = convert(engine, opponent, &line);
            on_game(&game);
            out.push(game);
        }
    });
    Ok(out)
}

/// One game from `line` (won by its side to move), `engine` playing that side.
fn convert<G: Tactics + Notation>(
    mut engine: Agent<G>,
    mut opponent: Agent<G>,
    from: &GameLine<G>,
) -> Conversion {
    let winner = from.position().side_to_move();
    let mut line = from.clone();
    let (mut engine_moves, mut engine_seconds, mut longest_move) = (0, 0.0f64, 0.0f64);
    let result = loop {
        match line.status(Repetition::default()) {
            crate::game::Status::Win(Player::First) => break GameResult::FirstWins,
            crate::game::Status::Win(_) => break GameResult::SecondWins,
            crate::game::Status::Draw => break GameResult::Draw,
            crate::game::Status::Ongoing => {}
        }
        let engine_moves_now = line.position().side_to_move() == winner;
        let began = Instant::now();
        let choice = if engine_moves_now {
            engine.choose(&line, CONVERT_THINK)
        } else {
            opponent.choose(&line, OPPONENT_THINK)
        };
        if engine_moves_now {
            let seconds = began.elapsed().as_secs_f64();
            engine_moves += 1;
            engine_seconds += seconds;
            longest_move = longest_move.max(seconds);
        }
        let Some((mv, _)) = choice else {
            break GameResult::Draw;
        };
        line.play(mv);
    };
    let won = matches!(
        (result, winner),
        (GameResult::FirstWins, Player::First) | (GameResult::SecondWins, Player::Second)
    );
    Conversion {
        position: from.move_string(),
        won,
        moves: line.move_string()[from.move_string().len()..].to_string(),
        engine_moves,
        engine_seconds,
        longest_move,
    }
}

impl std::fmt::Display for Conversion {
    /// `324425 won moves=... engine_moves=8 engine_s=3.2 longest_s=1.01`
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "{} {} then={} engine_moves={} engine_s={:.2} longest_s={:.2}",
            self.position,
            if self.won { "won" } else { "NOT-won" },
            self.moves,
            self.engine_moves,
            self.engine_seconds,
            self.longest_move
        )
    }
}
