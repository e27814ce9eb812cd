//! `inarow table`: solves the empty board of every size in turn and prints the size table in the
//! format of the published one (shared/data/tables/connect4_sizes.tsv), with nodes and time:
//! `width height outcome last_move nodes seconds`, tab-separated, smallest boards first; with
//! `--verify ALGO` a last column `check` gives the outcome found by a second, independent method
//! (`dfpn=draw`, or `MISMATCH:dfpn=first`).

use super::args::EngineArgs;
use super::io::{Outcome, with_progress};
use clap::Args;
use inarow::game::GameSpec;
use inarow::session::{self, Algorithm, Ask, Game, Settings, Solution};
use std::sync::Arc;

#[derive(Args)]
pub struct TableArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Largest board, in cells.
    #[arg(long, default_value_t = 25)]
    max_cells: u32,
    /// Smallest width and height (default: k).
    #[arg(long)]
    min_side: Option<u32>,
    /// Line length (default: the game's, 4).
    #[arg(long)]
    k: Option<u32>,
    /// Check each outcome with a second method: dfpn, pns (proof-number searches, under the
    /// same limits and --mem-mb), or minimax (exhaustive negamax over every position, boards of
    /// at most 20 cells).
    #[arg(long, value_name = "ALGO")]
    verify: Option<String>,
}

/// The largest board the exhaustive check takes on (its memo holds every position).
const MINIMAX_MAX_CELLS: u32 = 20;

pub fn run(args: TableArgs) -> Result<Outcome, String> {
    let limits = args.engine.limits()?;
    let check = match args.verify.as_deref() {
        None => None,
        Some(algo) => match algo.parse::<Algorithm>() {
            Ok(a) if a != Algorithm::AlphaBeta => Some(a),
            _ => {
                return Err(format!(
                    "--verify {algo}: expected dfpn, pns, pn2 or minimax"
                ));
            }
        },
    };
    let spec_k = match args.engine.game.game.parse::<GameSpec>()? {
        GameSpec::Connect { k, .. } => k,
        other => {
            return Err(format!(
                "inarow table: only connect4 has a size table, not {other}"
            ));
        }
    };
    let k = args.k.unwrap_or(spec_k);
    let min_side = args.min_side.unwrap_or(k).max(1);
    println!("# connect4, k = {k}: the empty board of every size with {min_side} <= width, height");
    println!("# and width * height <= {}", args.max_cells);
    let check_column = if check.is_some() { "\tcheck" } else { "" };
    println!("width\theight\toutcome\tlast_move\tnodes\tseconds{check_column}");
    let mut outcome = Outcome::Done;
    for height in min_side..=args.max_cells / min_side {
        for width in min_side..=args.max_cells / height {
            let spec = format!("connect4:{width}x{height}:k{k}");
            // Too large for the bitboard, or k longer than the board.
            let Ok(rules) = session::game(&spec) else {
                continue;
            };
            let mut settings = args.engine.settings(rules.as_ref(), false)?;
            // The last move of perfect play comes from the distance.
            settings.distance = !settings.weak;
            let empty = rules.read("")?;
            let ask = Ask {
                limits: limits.clone(),
                ..Ask::default()
            };
            let mut solver = rules.agent(&settings, 1)?;
            let label = format!("solving {width}x{height}");
            let solution = with_progress(&label, || solver.solve(empty.as_ref(), &ask))?;
            let cells = width * height;
            let verdict = match check {
                None => None,
                Some(second) => Some(second_opinion(&rules, cells, second, &settings, &ask)?),
            };
            let (solved, agrees) = row(width, height, cells, &solution, verdict);
            if !agrees {
                outcome = Outcome::Failed;
            } else if !solved {
                outcome = outcome.and(Outcome::Incomplete);
            }
        }
    }
    Ok(outcome)
}

/// The outcome of the empty board by a second method, as `(method, outcome)`; the outcome is
/// `?` when the method could not finish (or, for the exhaustive reference, was not tried on a
/// board of more than [`MINIMAX_MAX_CELLS`] cells).
fn second_opinion(
    rules: &Arc<dyn Game>,
    cells: u32,
    algorithm: Algorithm,
    settings: &Settings,
    ask: &Ask,
) -> Result<(String, &'static str), String> {
    if algorithm == Algorithm::Minimax && cells > MINIMAX_MAX_CELLS {
        return Ok((algorithm.to_string(), "?"));
    }
    let settings = Settings {
        algorithm: Some(algorithm),
        weak: true,
        distance: false,
        threads: 1,
        ..settings.clone()
    };
    let score = rules
        .agent(&settings, 1)?
        .solve(rules.read("")?.as_ref(), ask)?
        .score;
    Ok((algorithm.to_string(), outcome_name(score)))
}

fn outcome_name(score: Option<i32>) -> &'static str {
    match score {
        None => "?",
        Some(0) => "draw",
        Some(s) if s > 0 => "first",
        Some(_) => "second",
    }
}

/// Prints one row; returns whether the solve finished, and whether the second method (if any)
/// agrees or could not tell.
fn row(
    width: u32,
    height: u32,
    cells: u32,
    report: &Solution,
    check: Option<(String, &'static str)>,
) -> (bool, bool) {
    let seconds = report.seconds;
    let outcome = outcome_name(report.score);
    let last = match (report.score, report.plies) {
        (Some(0), _) => cells.to_string(),
        (Some(_), Some(plies)) => plies.to_string(),
        _ => "-".to_string(),
    };
    let mut agrees = true;
    let check = match check {
        None => String::new(),
        Some((method, other)) => {
            agrees = other == "?" || outcome == "?" || other == outcome;
            let mark = if agrees { "" } else { "MISMATCH:" };
            format!("\t{mark}{method}={other}")
        }
    };
    println!(
        "{width}\t{height}\t{outcome}\t{last}\t{}\t{seconds:.3}{check}",
        report.nodes
    );
    (report.score.is_some(), agrees)
}
