//! `inarow analyze`: the score of every legal move of one position, best first.

use super::{Outcome, SolverArgs, parse_position, show_moves};
use clap::Args;
use inarow::engine::Engine;
use inarow::game::{Notation, Tactics};
use inarow::with_game;
use serde::Serialize;

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    solver: SolverArgs,
    /// One JSON object: the position and every move with its score.
    #[arg(long)]
    json: bool,
    /// The position's move string (default: the empty board).
    #[arg(default_value = "")]
    moves: String,
}

#[derive(Serialize)]
struct JsonMove {
    #[serde(rename = "move")]
    mv: String,
    score: Option<i32>,
}

#[derive(Serialize)]
struct JsonAnalysis {
    game: String,
    moves: String,
    analysis: Vec<JsonMove>,
}

pub fn run(args: AnalyzeArgs) -> Result<Outcome, String> {
    with_game!(args.solver.game.start()?, start => analyze(start, args.solver.engine(&start)?, &args))
}

fn analyze<G: Tactics + Notation>(
    start: G,
    mut engine: Engine<G>,
    args: &AnalyzeArgs,
) -> Result<Outcome, String> {
    let read = parse_position(start, &args.moves).map_err(|e| e.to_string())?;
    engine.set_history(read.history);
    let pos = read.pos;
    let scores = engine.analyze(&pos);
    if scores.is_empty() {
        return Err(format!(
            "{}: the game is over; no moves to analyse",
            show_moves(&args.moves)
        ));
    }
    let incomplete = scores.iter().any(|s| s.score.is_none());
    if args.json {
        let json = JsonAnalysis {
            game: start.name(),
            moves: args.moves.trim().trim_start_matches('-').to_string(),
            analysis: scores
                .iter()
                .map(|s| JsonMove {
                    mv: pos.format_move(s.mv),
                    score: s.score,
                })
                .collect(),
        };
        println!(
            "{}",
            serde_json::to_string(&json).expect("plain data serialises")
        );
    } else {
        for s in &scores {
            let score = s.score.map_or("?".to_string(), |v| v.to_string());
            println!("{} {score}", pos.format_move(s.mv));
        }
    }
    if incomplete {
        eprintln!("inarow: a limit stopped the analysis; moves marked ? have no score");
        return Ok(Outcome::Incomplete);
    }
    Ok(Outcome::Done)
}
