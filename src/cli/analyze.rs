//! `inarow analyze`: the value of every legal move of one position, best first: exact where
//! the solver settles it within the limits, the evaluation search's estimate (`~`) otherwise.
//! The answer comes from the library's session ([`inarow::session`]), and `--json` prints the
//! one JSON of an analysis that `/api/analyze` and the npm package give ([`wire::analysis`]).

use super::args::EngineArgs;
use super::io::{Outcome, long_search_notice, show_moves, with_progress_noting};
use clap::Args;
use inarow::wire;

#[derive(Args)]
pub struct AnalyzeArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// One JSON object: the position (as `/api/position` gives it), every move with its value,
    /// and the expected line (as `/api/analyze` gives them).
    #[arg(long)]
    json: bool,
    /// The position's move string (default: the empty board).
    #[arg(default_value = "")]
    moves: String,
}

pub fn run(args: AnalyzeArgs) -> Result<Outcome, String> {
    let limits = args.engine.limits()?;
    let rules = args.engine.game()?;
    let settings = args.engine.settings(rules.as_ref(), true)?;
    let given = args.moves.trim().trim_start_matches('-');
    let pos = rules.read(given)?;
    let mut solver = rules.agent(&settings, 1)?;
    let notice = long_search_notice(pos.rough_solve_seconds(), &args.moves, &limits);
    let label = format!("analyzing {}", show_moves(&args.moves));
    let analysis = with_progress_noting(&label, notice, None, || {
        solver.analyze(pos.as_ref(), &limits)
    })?;
    if args.json {
        let json = wire::analysis(pos.as_ref(), &analysis);
        println!(
            "{}",
            serde_json::to_string(&json).expect("plain data serialises")
        );
    } else {
        for m in &analysis.moves {
            println!("{} {}", m.mv, m.value);
        }
    }
    if analysis.moves.iter().any(|m| !m.exact()) {
        // Words appear only where the game's exact values carry the distance.
        let words = if analysis.weak {
            ""
        } else {
            " (win / loss: proven without the distance)"
        };
        eprintln!(
            "inarow: a limit stopped the exact analysis; values marked ~ are estimates{words}"
        );
        return Ok(Outcome::Incomplete);
    }
    Ok(Outcome::Done)
}
