//! The analysis benchmark (`inarow bench --suite analysis`): how long a player waits, from a
//! move to the exact value of every move, along games the `best` engine played against itself
//! from varied openings (good play makes the hard positions; random games are easy), and on
//! midgame positions nobody tuned for (the reasonable positions of `inarow gen` on a fixed
//! seed: the positions people paste into the page). One warm engine per game or set, as the web
//! page keeps one; the seconds until every value is exact, or the cap.

use super::super::{Limits, Options};
use super::positions::reasonable_lines;
use crate::engine::agent::{Agent, Level};
use crate::error::Error;
use crate::game::{GameLine, GameSpec, Notation, Pentago, Repetition, Status, Tactics, read_line};
use crate::limits::Instant;
use crate::with_game;
use std::ops::RangeInclusive;
use std::time::Duration;

/// The games of the benchmark, by game spec, and the plies of each it analyzes (from 0): made
/// by `inarow match --game G best best --games 1 --opening 2 --time 0.5 --seed S` for seeds
/// 1 to 8 (Connect Four) and 1 to 4 (PopOut), the distinct games kept.
pub const ANALYSIS_GAMES: [(&str, &str, usize); 2] = [
    (
        "connect4",
        include_str!("../../../benches/games/connect4.txt"),
        30,
    ),
    (
        "popout",
        include_str!("../../../benches/games/popout.txt"),
        20,
    ),
];

/// The midgame sets of the benchmark: game spec, plies, positions per ply, and the seed of
/// [`reasonable_lines`] (the positions of `inarow gen --game G --stones P --count N --seed S`).
pub const MIDGAME_SETS: [(&str, RangeInclusive<u32>, usize, u64); 2] =
    [("connect4", 6..=12, 4, 52), ("popout", 4..=20, 2, 52)];

/// The Pentago position of the benchmark: Irving's 18-stone root ([`super::PENTAGO_18`]).
pub const PENTAGO_ROOT: &str = super::PENTAGO_18.1;

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
}

/// Analyzes every position of [`ANALYSIS_GAMES`] and then of [`MIDGAME_SETS`] (named
/// `GAME-midgames`) under `options` (its threads, table and book: the built-in book is used, as
/// the page does) with `cap` a position; `on_position` is told of each.
///
/// # Errors
/// As [`Agent::new`] for the options.
pub fn run_analysis(
    options: &Options,
    cap: Duration,
    mut on_position: impl FnMut(&str, usize, f64),
) -> Result<Vec<AnalysisTimes>, Error> {
    let mut all = Vec::new();
    for (spec, games, plies) in ANALYSIS_GAMES {
        let start = spec.parse::<GameSpec>()?.start();
        let mut times = AnalysisTimes {
            game: spec.to_string(),
            seconds: Vec::new(),
            exact: 0,
        };
        with_game!(start, start => {
            for text in games.lines().map(str::trim).filter(|l| !l.is_empty()) {
                let game = read_line(start, text)?;
                let mut player = Agent::new(Level::Best, &start, options.clone().fitted_to(&start), 1)?;
                for ply in 0..=plies.min(game.moves().len()) {
                    let line = GameLine::from_moves(start, &game.moves()[..ply]);
                    if line.status(Repetition::default()) != Status::Ongoing {
                        break;
                    }
                    let (seconds, exact) = time_to_exact(&mut player, &line, cap);
                    times.exact += exact as usize;
                    times.seconds.push(seconds);
                    on_position(spec, ply, seconds);
                }
            }
        });
        all.push(times);
    }
    for (spec, plies, per_ply, seed) in MIDGAME_SETS {
        let start = spec.parse::<GameSpec>()?.start();
        let name = format!("{spec}-midgames");
        let mut times = AnalysisTimes {
            game: name.clone(),
            seconds: Vec::new(),
            exact: 0,
        };
        with_game!(start, start => {
            let mut player = Agent::new(Level::Best, &start, options.clone().fitted_to(&start), 1)?;
            for ply in plies.clone() {
                for moves in reasonable_lines(start, ply, per_ply, seed)? {
                    let line = GameLine::from_moves(start, &moves);
                    let (seconds, exact) = time_to_exact(&mut player, &line, cap);
                    times.exact += exact as usize;
                    times.seconds.push(seconds);
                    on_position(&name, ply as usize, seconds);
                }
            }
        });
        all.push(times);
    }
    Ok(all)
}

/// The seconds `player` takes to give every move of the end of `line` an exact value, or the
/// cap; and whether it did.
fn time_to_exact<G: Tactics + Notation>(
    player: &mut Agent<G>,
    line: &GameLine<G>,
    cap: Duration,
) -> (f64, bool) {
    let began = Instant::now();
    let analysis = player.analyze(line, &Limits::within(cap));
    let exact = analysis.moves.iter().all(|(_, v)| v.is_exact());
    let seconds = if exact {
        began.elapsed().as_secs_f64()
    } else {
        cap.as_secs_f64()
    };
    (seconds, exact)
}

/// Pentago from 18 stones: the seconds of one solve of [`PENTAGO_ROOT`] (the midgame solver)
/// and of the analysis of every move, each with a fresh engine under `options`, the solve under
/// `limits`.
///
/// # Errors
/// As [`Agent::new`] for the options.
pub fn pentago_analysis(options: &Options, limits: &Limits) -> Result<(f64, f64, bool), Error> {
    let start = Pentago::new();
    let root = read_line(start, PENTAGO_ROOT)?;
    let began = Instant::now();
    let solved = super::super::Engine::try_new(&start, options.clone())?.solve(&root, limits);
    let solve = began.elapsed().as_secs_f64();
    let mut player = Agent::new(Level::Best, &start, options.clone(), 1)?;
    let (analyze, exact) = time_to_exact(&mut player, &root, Duration::from_secs(600));
    Ok((solve, analyze, exact && solved.score.is_some()))
}
