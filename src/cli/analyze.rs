//! `inarow analyze`: the value of every legal move of one position, best first: exact where
//! the solver settles it within the limits, the evaluation search's estimate (`~`) otherwise.

use super::args::SolverArgs;
use super::io::{Outcome, long_search_notice, read_line, show_moves, with_progress_noting};
use clap::Args;
use inarow::engine::Limits;
use inarow::engine::play::{Agent, Valuation};
use inarow::game::{Notation, Tactics, format_moves};
use inarow::with_game;
use serde::Serialize;

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    solver: SolverArgs,
    /// One JSON object: the position, every move with its value, and the principal variation.
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
    /// The exact score; `null` where the limits left only an estimate.
    score: Option<i32>,
    /// As the text output shows it: an exact score, win / draw / loss, `~N` or `?`.
    value: String,
    exact: bool,
}

#[derive(Serialize)]
struct JsonAnalysis {
    game: String,
    moves: String,
    analysis: Vec<JsonMove>,
    /// A line of play from the position, exact if the best move's value is.
    pv: String,
    source: String,
}

pub fn run(args: AnalyzeArgs) -> Result<Outcome, String> {
    let options = args.solver.options()?;
    with_game!(args.solver.game.start()?, start => {
        let player = Agent::with_engine(args.solver.engine(&start, true)?, &options, 1)?;
        analyze(start, player, options.limits, &args)
    })
}

fn analyze<G: Tactics + Notation>(
    start: G,
    mut player: Agent<G>,
    limits: Limits,
    args: &AnalyzeArgs,
) -> Result<Outcome, String> {
    let line = read_line(start, &args.moves).map_err(|e| e.to_string())?;
    let pos = *line.position();
    let notice = long_search_notice(&pos, &args.moves, &limits);
    let label = format!("analysing {}", show_moves(&args.moves));
    let analysis = with_progress_noting(&label, notice, || player.analyse(&line, &limits));
    if analysis.moves.is_empty() {
        return Err(inarow::session::game_over(&args.moves).to_string());
    }
    let incomplete = analysis.moves.iter().any(|m| !m.1.is_exact());
    if args.json {
        let json = JsonAnalysis {
            game: start.name(),
            moves: args.moves.trim().trim_start_matches('-').to_string(),
            analysis: analysis
                .moves
                .iter()
                .map(|&(mv, value)| JsonMove {
                    mv: pos.format_move(mv),
                    score: match value {
                        Valuation::Exact(v) => Some(v),
                        _ => None,
                    },
                    value: value.to_string(),
                    exact: value.is_exact(),
                })
                .collect(),
            pv: format_moves(pos, &analysis.pv),
            source: analysis.source,
        };
        println!(
            "{}",
            serde_json::to_string(&json).expect("plain data serialises")
        );
    } else {
        for (mv, value) in &analysis.moves {
            println!("{} {value}", pos.format_move(*mv));
        }
    }
    if incomplete {
        eprintln!(
            "inarow: a limit stopped the exact analysis; values marked ~ are estimates \
             (win / draw / loss: proven without the distance)"
        );
        return Ok(Outcome::Incomplete);
    }
    Ok(Outcome::Done)
}
