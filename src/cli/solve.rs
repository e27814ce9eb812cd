//! `inarow solve`: the score of each position given, or of each line of standard input.

use super::{Outcome, SolverArgs, parse_with_history, show_moves};
use clap::Args;
use inarow::engine::{Engine, Report};
use inarow::game::{Game, format_moves, play_moves};
use inarow::search::proof::write_proof;
use inarow::with_game;
use serde::Serialize;
use std::io::{BufRead, Write};

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    solver: SolverArgs,
    /// Add `nodes=N us=T` to each line.
    #[arg(long)]
    stats: bool,
    /// One JSON object per position: moves, score, best moves, principal variation, nodes, time.
    #[arg(long)]
    json: bool,
    /// Write proof certificates of the position's win / draw / loss to FILE (one position
    /// only); `inarow verify FILE` checks them.
    #[arg(long, value_name = "FILE")]
    proof: Option<String>,
    /// Move strings (`4453`; `-` or "" = the empty board). Without any, reads standard input:
    /// the first field of each line.
    moves: Vec<String>,
}

/// The JSON form of one solved position.
#[derive(Serialize)]
struct JsonReport {
    game: String,
    moves: String,
    score: Option<i32>,
    /// win, draw or loss for the side to move.
    outcome: Option<&'static str>,
    /// Games that repeat: plies to the end of the game under perfect play.
    plies: Option<u32>,
    best_moves: Vec<String>,
    pv: String,
    nodes: u64,
    us: u128,
    stopped: Option<String>,
}

pub fn run(args: SolveArgs) -> Result<Outcome, String> {
    let options = args.solver.options()?;
    let proof_numbers = options.algorithm.is_weak_only();
    if args.proof.is_some() && args.moves.len() != 1 {
        return Err("--proof needs exactly one position on the command line".to_string());
    }
    with_game!(args.solver.spec()?.start(), start => {
        let mut engine = args.solver.engine(&start, options)?;
        let outcome = solve_all(start, &mut engine, &args, proof_numbers)?;
        if let Some(file) = &args.proof {
            write_certificates(start, &mut engine, &args.moves[0], file)?;
        }
        Ok(outcome)
    })
}

/// Writes the certificates of one position: to a temporary file first, renamed when complete.
fn write_certificates<G: Game>(
    start: G,
    engine: &mut Engine<G>,
    moves: &str,
    file: &str,
) -> Result<(), String> {
    let text = if moves.trim() == "-" { "" } else { moves };
    let (pos, root_moves) = play_moves(start, text).map_err(|e| e.to_string())?;
    let proofs = engine
        .certificates(&pos)
        .map_err(|e| format!("no certificate written: {e}"))?;
    let body: String = proofs
        .iter()
        .map(|p| write_proof(&start, &root_moves, p))
        .collect();
    let temporary = format!("{file}.tmp");
    std::fs::write(&temporary, body)
        .and_then(|_| std::fs::rename(&temporary, file))
        .map_err(|e| format!("cannot write '{file}': {e}"))?;
    eprintln!("inarow: wrote {} certificate(s) to {file}", proofs.len());
    Ok(())
}

fn solve_all<G: Game>(
    start: G,
    engine: &mut Engine<G>,
    args: &SolveArgs,
    proof_numbers: bool,
) -> Result<Outcome, String> {
    let from_stdin = args.moves.is_empty();
    let lines: Box<dyn Iterator<Item = std::io::Result<String>>> = if from_stdin {
        Box::new(std::io::stdin().lock().lines())
    } else {
        Box::new(args.moves.clone().into_iter().map(Ok))
    };
    let mut outcome = Outcome::Done;
    let mut out = std::io::stdout().lock();
    for (i, line) in lines.enumerate() {
        let line = line.map_err(|e| format!("cannot read standard input: {e}"))?;
        let text = if from_stdin {
            line.split_whitespace().next().unwrap_or("")
        } else {
            line.as_str()
        };
        let pos = match parse_with_history(start, text) {
            Ok((pos, history)) => {
                engine.set_history(history);
                pos
            }
            Err(e) => {
                let place = if from_stdin {
                    format!("line {}: ", i + 1)
                } else {
                    String::new()
                };
                eprintln!("inarow: {place}{e}");
                outcome = Outcome::Failed;
                continue;
            }
        };
        let report = if args.json {
            engine.solve_detailed(&pos)
        } else {
            engine.solve(&pos)
        };
        if let Some(stopped) = report.stopped {
            eprintln!(
                "inarow: {}: {stopped} after {} nodes; score unknown",
                show_moves(text),
                report.nodes
            );
            if matches!(outcome, Outcome::Done) {
                outcome = Outcome::Incomplete;
            }
        }
        let printed = if args.json {
            json_line(&start, &pos, text, &report)
        } else {
            plain_line(text, &report, args.stats, proof_numbers)
        };
        writeln!(out, "{printed}").map_err(|e| format!("cannot write: {e}"))?;
    }
    Ok(outcome)
}

/// `MOVES SCORE`, with `--stats` `nodes=N us=T` (and, for proof-number searches, the peak
/// memory of their tree or table: `peak_kb=K`).
fn plain_line<M>(text: &str, report: &Report<M>, stats: bool, proof_numbers: bool) -> String {
    let score = report.score.map_or("?".to_string(), |s| s.to_string());
    let mut line = format!("{} {score}", show_moves(text));
    if let Some(plies) = report.plies {
        line += &format!(" plies={plies}");
    }
    if stats {
        line += &format!(" nodes={} us={}", report.nodes, report.elapsed.as_micros());
        if proof_numbers {
            line += &format!(" peak_kb={}", report.peak_bytes / 1024);
        }
    }
    line
}

fn json_line<G: Game>(start: &G, pos: &G, text: &str, report: &Report<G::Move>) -> String {
    let json = JsonReport {
        game: start.name(),
        moves: text.trim().trim_start_matches('-').to_string(),
        score: report.score,
        outcome: report.score.map(|s| match s.signum() {
            1 => "win",
            0 => "draw",
            _ => "loss",
        }),
        plies: report.plies,
        best_moves: report
            .best_moves
            .iter()
            .map(|&m| pos.format_move(m))
            .collect(),
        pv: format_moves(*pos, &report.pv),
        nodes: report.nodes,
        us: report.elapsed.as_micros(),
        stopped: report.stopped.map(|s| s.to_string()),
    };
    serde_json::to_string(&json).expect("plain data serialises")
}
