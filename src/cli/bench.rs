//! `inarow bench`: solves files of `MOVES EXPECTED` lines with the table cleared before each
//! position, compares, and prints one summary line per file:
//! `FILE n=1000 correct=1000 mean_us=8.7 mean_nodes=51.3 max_us=225`.

use super::{Outcome, SolverArgs, parse_position};
use clap::Args;
use inarow::engine::Engine;
use inarow::game::Game;
use inarow::with_game;
use indicatif::{ProgressBar, ProgressStyle};

#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    solver: SolverArgs,
    /// Only the first N positions of each file.
    #[arg(long)]
    limit: Option<usize>,
    /// Files of `MOVES EXPECTED` lines.
    #[arg(required = true)]
    files: Vec<String>,
}

/// The totals of one file.
#[derive(Default)]
struct Tally {
    n: usize,
    correct: usize,
    total_us: f64,
    max_us: f64,
    nodes: u64,
}

pub fn run(args: BenchArgs) -> Result<Outcome, String> {
    let options = args.solver.options()?;
    let weak = options.weak;
    with_game!(args.solver.game.start(), start => {
        let mut engine = Engine::new(&start, options);
        let mut outcome = Outcome::Done;
        for file in &args.files {
            match bench_file(start, &mut engine, file, args.limit, weak) {
                Ok(true) => {}
                Ok(false) => outcome = Outcome::Failed,
                Err(e) => {
                    eprintln!("inarow: {e}");
                    outcome = Outcome::Failed;
                }
            }
        }
        Ok(outcome)
    })
}

/// Benchmarks one file; `Ok(false)` when some line was bad or wrong.
fn bench_file<G: Game>(
    start: G,
    engine: &mut Engine<G>,
    file: &str,
    limit: Option<usize>,
    weak: bool,
) -> Result<bool, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(limit.unwrap_or(usize::MAX))
        .collect();
    let bar = ProgressBar::new(lines.len() as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {elapsed_precise} eta {eta}")
            .expect("template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(file.to_string());
    let mut tally = Tally::default();
    let mut problems = Vec::new();
    for (index, line) in lines {
        tally.n += 1;
        bar.inc(1);
        let place = format!("{file}:{}", index + 1);
        let mut fields = line.split_whitespace();
        let (moves, expected) = (fields.next().unwrap_or(""), fields.next());
        let expected: i32 = match expected.map(str::parse) {
            Some(Ok(v)) => v,
            _ => {
                problems.push(format!("{place}: bad line '{line}': expected MOVES SCORE"));
                continue;
            }
        };
        let pos = match parse_position(start, moves) {
            Ok(pos) => pos,
            Err(e) => {
                problems.push(format!("{place}: {e}"));
                continue;
            }
        };
        engine.reset();
        let report = engine.solve(&pos);
        let us = report.elapsed.as_secs_f64() * 1e6;
        tally.total_us += us;
        tally.max_us = tally.max_us.max(us);
        tally.nodes += report.nodes;
        let expected = if weak { expected.signum() } else { expected };
        match report.score {
            Some(s) if s == expected => tally.correct += 1,
            Some(s) => problems.push(format!("{place}: {moves} expected {expected} got {s}")),
            None => problems.push(format!(
                "{place}: {moves} expected {expected}: {}",
                report.stopped.map_or(String::new(), |s| s.to_string())
            )),
        }
    }
    bar.finish_and_clear();
    for p in &problems {
        eprintln!("inarow: {p}");
    }
    let n = tally.n.max(1) as f64;
    println!(
        "{file} n={} correct={} mean_us={:.1} mean_nodes={:.1} max_us={:.0}",
        tally.n,
        tally.correct,
        tally.total_us / n,
        tally.nodes as f64 / n,
        tally.max_us
    );
    Ok(problems.is_empty())
}
