//! `inarow bench`: solves files of `MOVES EXPECTED` lines with the table cleared before each
//! position, compares, and prints one summary line per file:
//! `FILE n=1000 correct=1000 mean_us=8.7 mean_nodes=51.3 max_us=225`.
//! Without files it runs the built-in suite and adds its node total: `signature N`.

use super::{Outcome, SolverArgs, parse_position, progress_bar};
use clap::Args;
use inarow::engine::bench::{BUILTIN_SUITE, Tally, run_builtin};
use inarow::engine::{Engine, Options};
use inarow::game::{Notation, Tactics};
use inarow::with_game;

#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    solver: SolverArgs,
    /// Only the first N positions of each file.
    #[arg(long)]
    limit: Option<usize>,
    /// Files of `MOVES EXPECTED` lines; none = the built-in suite (empty boards of known value).
    files: Vec<String>,
}

pub fn run(args: BenchArgs) -> Result<Outcome, String> {
    let options = args.solver.options()?;
    if args.files.is_empty() {
        return builtin(&options);
    }
    with_game!(args.solver.game.start()?, start => {
        let mut engine = args.solver.engine(&start)?;
        let mut outcome = Outcome::Done;
        for file in &args.files {
            match bench_file(start, &mut engine, file, args.limit) {
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

/// The built-in suite (the options' game is not used: the suite names its boards).
fn builtin(options: &Options) -> Result<Outcome, String> {
    let bar = progress_bar(BUILTIN_SUITE.len(), "builtin");
    let tally = run_builtin(options, |spec, right| {
        bar.inc(1);
        if !right {
            bar.suspend(|| eprintln!("inarow: builtin: {spec}: wrong value"));
        }
    })?;
    bar.finish_and_clear();
    println!("{}", tally.summary("builtin"));
    println!("signature {}", tally.nodes);
    Ok(if tally.correct == tally.n {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}

/// Benchmarks one file; `Ok(false)` when some line was bad or wrong.
fn bench_file<G: Tactics + Notation>(
    start: G,
    engine: &mut Engine<G>,
    file: &str,
    limit: Option<usize>,
) -> Result<bool, String> {
    let weak = engine.is_weak();
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let lines: Vec<(usize, &str)> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(limit.unwrap_or(usize::MAX))
        .collect();
    let bar = progress_bar(lines.len(), file);
    let mut tally = Tally::default();
    let mut problems = Vec::new();
    for (index, line) in lines {
        bar.inc(1);
        let place = format!("{file}:{}", index + 1);
        let mut fields = line.split_whitespace();
        let (moves, expected) = (fields.next().unwrap_or(""), fields.next());
        let parsed = match expected.map(str::parse::<i32>) {
            Some(Ok(v)) => parse_position(start, moves)
                .map(|read| {
                    engine.set_history(read.history);
                    (read.pos, v)
                })
                .map_err(|e| e.to_string()),
            _ => Err(format!("bad line '{line}': expected MOVES SCORE")),
        };
        let (pos, expected) = match parsed {
            Ok(p) => p,
            Err(e) => {
                problems.push(format!("{place}: {e}"));
                tally.record_bad_line();
                continue;
            }
        };
        engine.reset();
        let report = engine.solve(&pos);
        let expected = if weak { expected.signum() } else { expected };
        if !tally.record(&report, expected) {
            let got = match (report.score, report.stopped) {
                (Some(s), _) => format!("got {s}"),
                (None, Some(stopped)) => stopped.to_string(),
                (None, None) => "no score".to_string(),
            };
            problems.push(format!("{place}: {moves} expected {expected} {got}"));
        }
    }
    bar.finish_and_clear();
    for p in &problems {
        eprintln!("inarow: {p}");
    }
    println!("{}", tally.summary(file));
    Ok(problems.is_empty())
}
