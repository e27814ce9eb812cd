//! `inarow match`: two engines play each other, alternating colours over pairs of games from
//! the same random opening, and the result is given as wins / draws / losses and an Elo
//! difference with its 95% interval.

use super::args::{GameArg, RuleArgs, seconds};
use super::io::Outcome;
use clap::Args;
use inarow::Error;
use inarow::game::{Repetition, Status};
use inarow::limits::Limits;
use inarow::session::{self, Agent, Game, GameResult, Level, Line, Record, Settings, play_game};
use serde::Serialize;
use std::sync::Arc;
use std::time::Duration;

#[derive(Args)]
pub struct MatchArgs {
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    rules: RuleArgs,
    /// The first engine: random, depthN, mcts, alphabeta or best.
    engine_a: Level,
    /// The second engine.
    engine_b: Level,
    /// Games to play (pairs with colours swapped; an odd count ends with one game).
    #[arg(long, default_value_t = 10)]
    games: u32,
    /// Seconds each engine thinks per move.
    #[arg(long, allow_negative_numbers = true, default_value_t = 0.1)]
    time: f64,
    /// Random plies that open each pair of games, so that the pairs differ.
    #[arg(long, default_value_t = 2)]
    opening: u32,
    /// The seed of the openings and of the engines' random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// One JSON object with every game and the totals, instead of text.
    #[arg(long)]
    json: bool,
}

#[derive(Serialize)]
pub(super) struct JsonGame {
    #[serde(skip)]
    number: u32,
    first: String,
    moves: String,
    result: &'static str,
}

/// A match between two engines: what `inarow match` and `inarow report` play.
pub(super) struct Series {
    pub a: Level,
    pub b: Level,
    pub games: u32,
    pub think: Duration,
    pub opening: u32,
    pub seed: u64,
}

/// Plays `series` from `start`: `a`'s wins, draws and losses, and every game (told to
/// `on_game` as it ends).
pub(super) fn play_series(
    rules: &dyn Game,
    series: &Series,
    mut on_game: impl FnMut(&JsonGame),
) -> Result<(Record, Vec<JsonGame>), Error> {
    let solver = |level, seed| {
        let settings = Settings {
            level,
            ..Settings::default()
        };
        // Each plays every game of the series: its table is touched once, now.
        rules.agent(&settings, seed).map(|mut solver| {
            solver.ready();
            solver
        })
    };
    let mut a = solver(series.a, series.seed)?;
    let mut b = solver(series.b, series.seed ^ 0x5eed)?;
    let mut opener = solver(Level::Random, series.seed)?;
    let mut record = Record::default();
    let mut games = Vec::new();
    let max_plies = rules.max_plies().unwrap_or(1000);
    let limits = Limits::within(series.think);
    let empty = rules.read("")?;
    let mut opening = empty.clone();
    for game in 0..series.games {
        if game % 2 == 0 {
            opening = random_opening(&empty, opener.as_mut(), series.opening)?;
        }
        let a_first = game % 2 == 0;
        let (first, second) = if a_first {
            (&mut a, &mut b)
        } else {
            (&mut b, &mut a)
        };
        let players: [&mut dyn Agent; 2] = [first.as_mut(), second.as_mut()];
        let (result, end) = play_game(players, opening.clone(), &limits, max_plies)?;
        let a_wins = match result {
            GameResult::Draw => None,
            GameResult::FirstWins => Some(a_first),
            GameResult::SecondWins => Some(!a_first),
        };
        match a_wins {
            Some(true) => record.wins += 1,
            Some(false) => record.losses += 1,
            None => record.draws += 1,
        }
        let first = if a_first { series.a } else { series.b };
        let game = JsonGame {
            number: game + 1,
            first: first.to_string(),
            moves: end.moves(),
            result: match a_wins {
                Some(true) => "a wins",
                Some(false) => "b wins",
                None => "draw",
            },
        };
        on_game(&game);
        games.push(game);
    }
    Ok((record, games))
}

#[derive(Serialize)]
struct JsonMatch {
    game: String,
    engine_a: String,
    engine_b: String,
    seconds_per_move: f64,
    games: Vec<JsonGame>,
    wins: u32,
    draws: u32,
    losses: u32,
    score: f64,
    elo: Option<f64>,
    elo_error: Option<f64>,
}

pub fn run(args: MatchArgs) -> Result<Outcome, String> {
    let think = seconds("--time", Some(args.time))?.expect("given");
    let repetition = Repetition::new(args.rules.repetition)?;
    let rules = session::game_under(&args.game.game, repetition)?;
    play_match(rules.as_ref(), &args, think)
}

fn play_match(rules: &dyn Game, args: &MatchArgs, think: Duration) -> Result<Outcome, String> {
    let series = Series {
        a: args.engine_a,
        b: args.engine_b,
        games: args.games,
        think,
        opening: args.opening,
        seed: args.seed,
    };
    let (record, games) = play_series(rules, &series, |game| {
        if !args.json {
            println!(
                "game {} first {}: {} {}",
                game.number, game.first, game.result, game.moves
            );
        }
    })?;
    let elo = record.elo();
    if args.json {
        let json = JsonMatch {
            game: rules.name(),
            engine_a: args.engine_a.to_string(),
            engine_b: args.engine_b.to_string(),
            seconds_per_move: think.as_secs_f64(),
            games,
            wins: record.wins,
            draws: record.draws,
            losses: record.losses,
            score: record.score(),
            elo: elo.map(|e| e.0),
            elo_error: elo.map(|e| e.1),
        };
        println!(
            "{}",
            serde_json::to_string(&json).expect("plain data serialises")
        );
    } else {
        let elo = match elo {
            // An even score prints +0, not -0.
            Some((e, err)) => format!("{:+.0} +/- {err:.0}", e + 0.0),
            None if record.score() >= 1.0 => "+inf (all won)".into(),
            None => "-inf (all lost)".into(),
        };
        println!(
            "match {} {} vs {}: games {} wins {} draws {} losses {} score {:.1}% elo {elo}",
            rules.name(),
            args.engine_a,
            args.engine_b,
            record.games(),
            record.wins,
            record.draws,
            record.losses,
            100.0 * record.score(),
        );
    }
    Ok(Outcome::Done)
}

/// `plies` random moves from `start` that do not lose at once (fewer if the game ends).
fn random_opening(
    start: &Arc<dyn Line>,
    opener: &mut dyn Agent,
    plies: u32,
) -> Result<Arc<dyn Line>, Error> {
    let mut pos = start.clone();
    for _ in 0..plies {
        if pos.status() != Status::Ongoing {
            break;
        }
        let answer = opener.best_move(pos.as_ref(), &Limits::within(Duration::ZERO))?;
        let next = pos.play(&answer.mv)?;
        // An opening that already ends the game teaches nothing: stop before it.
        if next.status() != Status::Ongoing {
            break;
        }
        pos = next;
    }
    Ok(pos)
}
