//! `inarow match`: two engines play each other, alternating colours over pairs of games from
//! the same random opening, and the result is given as wins / draws / losses and an Elo
//! difference with its 95% interval.

use super::args::{GameArg, RuleArgs, seconds};
use super::io::Outcome;
use clap::Args;
use inarow::engine::Error;
use inarow::engine::Options;
use inarow::engine::agent::{Agent, GameResult, Level, Record, play_game};
use inarow::game::{GameLine, Kind, Notation, Repetition, Status, Tactics, format_moves};
use inarow::with_game;
use serde::Serialize;
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
pub(super) fn play_series<G: Tactics + Notation>(
    start: G,
    series: &Series,
    options: Options,
    mut on_game: impl FnMut(&JsonGame),
) -> Result<(Record, Vec<JsonGame>), Error> {
    let mut a = Agent::new(series.a, &start, options.clone(), series.seed)?;
    let mut b = Agent::new(series.b, &start, options.clone(), series.seed ^ 0x5eed)?;
    let mut opener = Agent::new(Level::Random, &start, options.clone(), series.seed)?;
    let mut record = Record::default();
    let mut games = Vec::new();
    let max_plies = G::Kind::max_plies(&start).unwrap_or(1000);
    let mut opening = Vec::new();
    for game in 0..series.games {
        if game % 2 == 0 {
            opening = random_opening(&start, &mut opener, series.opening);
        }
        let line = GameLine::from_moves(start, &opening);
        let a_first = game % 2 == 0;
        let players = if a_first {
            [&mut a, &mut b]
        } else {
            [&mut b, &mut a]
        };
        let rule = Repetition::new(options.repetition)?;
        let (result, moves) = play_game(players, &line, series.think, rule, max_plies);
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
        let line: Vec<_> = opening.iter().chain(&moves).copied().collect();
        let first = if a_first { series.a } else { series.b };
        let game = JsonGame {
            number: game + 1,
            first: first.to_string(),
            moves: format_moves(start, &line),
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
    let repetition = args.rules.repetition;
    with_game!(args.game.start()?, start => {
        let options = Options { repetition, ..Options::default() };
        play_match(start, &args, options, think)
    })
}

fn play_match<G: Tactics + Notation>(
    start: G,
    args: &MatchArgs,
    options: Options,
    think: Duration,
) -> Result<Outcome, String> {
    let series = Series {
        a: args.engine_a,
        b: args.engine_b,
        games: args.games,
        think,
        opening: args.opening,
        seed: args.seed,
    };
    let (record, games) = play_series(start, &series, options, |game| {
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
            game: start.name(),
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
            start.name(),
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
fn random_opening<G: Tactics>(start: &G, opener: &mut Agent<G>, plies: u32) -> Vec<G::Move> {
    let mut line = Vec::new();
    let mut p = *start;
    for _ in 0..plies {
        if p.status() != Status::Ongoing {
            break;
        }
        let Some((mv, _)) = opener.choose(&GameLine::new(p), Duration::ZERO) else {
            break;
        };
        // An opening that already ends the game teaches nothing: stop before it.
        if p.play(mv).status() != Status::Ongoing {
            break;
        }
        line.push(mv);
        p = p.play(mv);
    }
    line
}
