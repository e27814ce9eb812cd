//! What a player waits for, and whether the engine keeps a won game won.
//!
//! The analysis benchmark (`inarow bench --suite analysis`): how long a player waits, from a
//! move to the exact value of every move, along games the `best` engine played against itself
//! from varied openings (good play makes the hard positions; random games are easy), and on
//! midgame positions nobody tuned for (the reasonable positions of `inarow gen` on a fixed
//! seed: the positions people paste into the page). One warm agent per game or set, as the web
//! page keeps one; the seconds until every value is exact, or the cap.
//!
//! The conversion benchmark (`inarow bench --suite convert`): from 7x6 positions the side to
//! move wins, the `best` engine plays the winning side at about a second a move against the
//! exact solver's replies (the longest resistance), and must win every game.

use super::tables::{ANALYSIS_GAMES, MIDGAME_SETS, PENTAGO_18, WON_POSITIONS};
use crate::cli::positions::reasonable_positions;
use inarow::Error;
use inarow::game::Status;
use inarow::limits::Limits;
use inarow::session::{self, Agent, Line, Settings};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// The seconds each analysis took until every value was exact (the cap where it was not).
#[derive(Clone, Debug)]
pub struct AnalysisTimes {
    /// The game spec.
    pub game: String,
    /// Seconds per position, in the order analyzed.
    pub seconds: Vec<f64>,
    /// Positions whose every move's value was exact within the cap.
    pub exact: usize,
}

impl AnalysisTimes {
    fn new(game: String) -> Self {
        AnalysisTimes {
            game,
            seconds: Vec::new(),
            exact: 0,
        }
    }

    /// The `q`-quantile of the seconds (nearest rank).
    pub fn quantile(&self, q: f64) -> f64 {
        let mut sorted = self.seconds.clone();
        sorted.sort_by(f64::total_cmp);
        let rank = ((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len().max(1));
        sorted.get(rank - 1).copied().unwrap_or(0.0)
    }

    /// One line: `analysis GAME positions=N exact=K median_s=X p95_s=Y max_s=Z`.
    pub fn summary(&self) -> String {
        format!(
            "analysis {} positions={} exact={} median_s={:.3} p95_s={:.3} max_s={:.3}",
            self.game,
            self.seconds.len(),
            self.exact,
            self.quantile(0.5),
            self.quantile(0.95),
            self.quantile(1.0)
        )
    }

    /// Times one position's analysis with `agent`; returns its seconds.
    fn time(&mut self, agent: &mut dyn Agent, line: &dyn Line, cap: Duration) -> f64 {
        let (seconds, exact) = time_to_exact(agent, line, cap);
        self.exact += exact as usize;
        self.seconds.push(seconds);
        seconds
    }
}

/// Analyzes every position of [`ANALYSIS_GAMES`] and then of [`MIDGAME_SETS`] (named
/// `GAME-midgames`) with agents of `settings` (its threads, table and book: the built-in book,
/// as the page has it), fitted to each game, with `cap` a position; `on_position` is told of
/// each.
///
/// # Errors
/// A game or an agent the settings do not fit.
pub fn run_analysis(
    settings: &Settings,
    cap: Duration,
    mut on_position: impl FnMut(&str, u32, f64),
) -> Result<Vec<AnalysisTimes>, Error> {
    let mut all = Vec::new();
    for (spec, games, plies) in ANALYSIS_GAMES {
        let game = session::game(spec)?;
        let settings = game.fitted(settings.clone());
        let mut times = AnalysisTimes::new(spec.to_string());
        for text in games.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let moves = game.read(text)?.move_list();
            let mut agent = game.agent(&settings, 1)?;
            for ply in 0..=plies.min(moves.len()) {
                let line = game.read_tokens(&moves[..ply])?;
                if line.status() != Status::Ongoing {
                    break;
                }
                let seconds = times.time(agent.as_mut(), line.as_ref(), cap);
                on_position(spec, ply as u32, seconds);
            }
        }
        all.push(times);
    }
    for (spec, plies, per_ply, seed) in MIDGAME_SETS {
        let game = session::game(spec)?;
        let name = format!("{spec}-midgames");
        let mut times = AnalysisTimes::new(name.clone());
        let mut agent = game.agent(&game.fitted(settings.clone()), 1)?;
        for ply in plies {
            for line in reasonable_positions(game.as_ref(), ply, per_ply, seed)? {
                let seconds = times.time(agent.as_mut(), line.as_ref(), cap);
                on_position(&name, ply, seconds);
            }
        }
        all.push(times);
    }
    Ok(all)
}

/// The seconds until every move of `line` has its exact value (`cap` when not all do within
/// it), and whether they all did.
fn time_to_exact(agent: &mut dyn Agent, line: &dyn Line, cap: Duration) -> (f64, bool) {
    let began = Instant::now();
    let exact = agent
        .analyze(line, &Limits::within(cap))
        .is_ok_and(|a| a.moves.iter().all(|m| m.value.is_exact()));
    let seconds = if exact {
        began.elapsed().as_secs_f64()
    } else {
        cap.as_secs_f64()
    };
    (seconds, exact)
}

/// Pentago's analysis from Irving's 18-stone root against one solve of it: the seconds of the
/// solve (an agent of `exact`: no book), of the analysis (an agent of `settings`, within 600 s)
/// and whether both came back exact.
///
/// # Errors
/// A setting Pentago does not take.
pub fn pentago_analysis(
    exact: &Settings,
    settings: &Settings,
    limits: &Limits,
) -> Result<(f64, f64, bool), Error> {
    let game = session::game("pentago")?;
    let root = game.read(PENTAGO_18.1)?;
    let began = Instant::now();
    let solved = game.agent(exact, 1)?.solve(
        root.as_ref(),
        &session::Ask {
            limits: limits.clone(),
            ..session::Ask::default()
        },
    )?;
    let solve = began.elapsed().as_secs_f64();
    let mut agent = game.agent(settings, 1)?;
    let (analyze, all_exact) =
        time_to_exact(agent.as_mut(), root.as_ref(), Duration::from_secs(600));
    Ok((solve, analyze, all_exact && solved.score.is_some()))
}

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
    /// Whether the engine won.
    pub won: bool,
    /// The moves played from it.
    pub moves: String,
    /// How many moves the engine made.
    pub engine_moves: usize,
    /// The engine's thinking time over the game, in seconds.
    pub engine_seconds: f64,
    /// The engine's longest move, in seconds.
    pub longest_move: f64,
}

impl std::fmt::Display for Conversion {
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

/// Plays each position of [`WON_POSITIONS`]: the default engine (thinking [`CONVERT_THINK`] a
/// move) for the side that wins, the exact solver's replies for the other; `on_game` is told of
/// each game as it ends.
///
/// # Errors
/// A position that does not read, or agents that cannot be made.
pub fn run_conversions(mut on_game: impl FnMut(&Conversion)) -> Result<Vec<Conversion>, Error> {
    let game = session::game("connect4")?;
    let settings = game.fitted(Settings::default());
    let mut out = Vec::new();
    for (i, text) in WON_POSITIONS.iter().enumerate() {
        let from = game.read(text)?;
        let engine = game.agent(&settings, i as u64)?;
        let opponent = game.agent(&settings, 1000 + i as u64)?;
        let played = convert(engine, opponent, from)?;
        on_game(&played);
        out.push(played);
    }
    Ok(out)
}

/// One conversion game from `from`.
fn convert(
    mut engine: Box<dyn Agent>,
    mut opponent: Box<dyn Agent>,
    from: Arc<dyn Line>,
) -> Result<Conversion, Error> {
    let winner = from.to_move();
    let mut line = from.clone();
    let (mut engine_moves, mut engine_seconds, mut longest_move) = (0, 0.0f64, 0.0f64);
    while line.status() == Status::Ongoing {
        let engine_moves_now = line.to_move() == winner;
        let began = Instant::now();
        let choice = if engine_moves_now {
            engine.best_move(line.as_ref(), &Limits::within(CONVERT_THINK))
        } else {
            opponent.best_move(line.as_ref(), &Limits::within(OPPONENT_THINK))
        };
        if engine_moves_now {
            let seconds = began.elapsed().as_secs_f64();
            engine_moves += 1;
            engine_seconds += seconds;
            longest_move = longest_move.max(seconds);
        }
        let Ok(choice) = choice else {
            break;
        };
        line = line.play(&choice.mv)?;
    }
    Ok(Conversion {
        position: from.moves(),
        won: line.status() == Status::Win(winner),
        moves: line.moves()[from.moves().len()..].to_string(),
        engine_moves,
        engine_seconds,
        longest_move,
    })
}
