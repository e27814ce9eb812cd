//! `inarow table`: solves the empty board of every size in turn and prints the size table in the
//! format of the published one (shared/data/tables/connect4_sizes.tsv), with nodes and time:
//! `width height outcome last_move nodes seconds`, tab-separated, smallest boards first.

use super::{Outcome, SolverArgs};
use clap::Args;
use inarow::engine::{Engine, Report};
use inarow::game::{Game, GameSpec};
use inarow::search::score::end_ply;
use inarow::with_game;

#[derive(Args)]
pub struct TableArgs {
    #[command(flatten)]
    solver: SolverArgs,
    /// Largest board, in cells.
    #[arg(long, default_value_t = 25)]
    max_cells: u32,
    /// Smallest width and height (default: k).
    #[arg(long)]
    min_side: Option<u32>,
    /// Line length (default: the game's, 4).
    #[arg(long)]
    k: Option<u32>,
}

pub fn run(args: TableArgs) -> Result<Outcome, String> {
    let options = args.solver.options()?;
    let spec_k = match args.solver.spec()? {
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
    println!("width\theight\toutcome\tlast_move\tnodes\tseconds");
    let mut outcome = Outcome::Done;
    for height in min_side..=args.max_cells / min_side {
        for width in min_side..=args.max_cells / height {
            let spec = format!("connect4:{width}x{height}:k{k}");
            let Ok(spec) = spec.parse::<GameSpec>() else {
                // Too large for the bitboard, or k longer than the board.
                continue;
            };
            let report = with_game!(spec.start(), start => {
                let report = Engine::try_new(&start, options.clone())?.solve(&start);
                row(width, height, start.max_plies(), &report)
            });
            if report.is_none() {
                outcome = Outcome::Incomplete;
            }
        }
    }
    Ok(outcome)
}

/// Prints one row; `None` when a limit stopped the solve.
fn row<M>(width: u32, height: u32, cells: u32, report: &Report<M>) -> Option<()> {
    let seconds = report.elapsed.as_secs_f64();
    let (outcome, last) = match report.score {
        None => ("?", "-".to_string()),
        Some(0) => ("draw", cells.to_string()),
        Some(s) => (
            if s > 0 { "first" } else { "second" },
            end_ply(cells, 0, s).map_or("-".to_string(), |e| e.to_string()),
        ),
    };
    println!(
        "{width}\t{height}\t{outcome}\t{last}\t{}\t{seconds:.3}",
        report.nodes
    );
    report.score.map(|_| ())
}
