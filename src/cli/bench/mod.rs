//! `inarow bench`: solves files of `MOVES EXPECTED` lines with the table cleared before each
//! position, compares, and prints one summary line per file:
//! `FILE n=1000 correct=1000 mean_us=8.7 mean_nodes=51.3 max_us=225`.
//! Without files it runs the built-in suite and adds its node total: `signature N`; with
//! `--suite full` the long checks, one `PASS`/`FAIL`/`SKIP` line each; with `--suite pentago`
//! Pentago's stone-count table, one line a count of stones.

mod analysis;
mod full;
pub(super) mod pentago;
pub(super) mod tables;

use super::args::EngineArgs;
use super::io::{Outcome, progress_bar};
use analysis::{pentago_analysis, run_analysis, run_conversions};
use clap::{Args, ValueEnum};
use full::{Verdict, run_full};
use inarow::engine::victor;
use inarow::game::one_line;
use inarow::limits::Limits;
use inarow::session::{self, Agent, Ask, Game, Settings, Tally};
use pentago::run_pentago_counts;
use std::path::Path;
use tables::BUILTIN_SUITE;

/// The suites `inarow bench` runs without files.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Suite {
    /// Ten empty boards of known value, about two seconds; prints the bench signature.
    Builtin,
    /// The long checks: the empty 7x6 board and the largest boards of the size table, the
    /// public 7x6 sets, and every PopOut board of the published table with the default method.
    Full,
    /// What a player of the analysis board waits for: the seconds until every move's value is
    /// exact, position by position along self-play games (Connect Four, PopOut), on midgame
    /// positions of `inarow gen` (7x6 plies 6-12, PopOut plies 4-20, seed 52), and Pentago's
    /// analysis from 18 stones against one midgame solve.
    Analysis,
    /// Pentago's stone-count table: positions of 18, 19, 20 and 22 stones from Irving's games
    /// solved by the midgame solver within --mem-mb on --threads threads, one line a count with
    /// the median CPU and wall seconds of a position, the memory a solve held and the
    /// process's peak resident memory.
    Pentago,
    /// The engine's play: from won 7x6 positions of plies 6 to 8 the default engine, at about a
    /// second a move, plays the winning side against perfect replies; one line a game, and
    /// whether it won them all.
    Convert,
    /// Victor's threat rules against exhaustive values: every position of 4x4, 4x5, 5x4 and a
    /// 3x2x4 box with lines of three, one line a board (positions, claims, false claims,
    /// witnesses the checker rejects) and one a rule (the positions whose witnesses use it and
    /// those no claim is left for without it); about ten minutes.
    Victor,
}

#[derive(Args)]
pub struct BenchArgs {
    #[command(flatten)]
    engine: EngineArgs,
    /// Only the first N positions of each file.
    #[arg(long)]
    limit: Option<usize>,
    /// Without files: which suite to run.
    #[arg(long, value_enum, default_value = "builtin")]
    suite: Suite,
    /// The public data folder the full suite reads the benchmark sets from (a set not there
    /// is skipped, and said so).
    #[arg(long, value_name = "DIR", default_value = "../shared/data")]
    data: String,
    /// Files of `MOVES EXPECTED` lines; none = a suite.
    files: Vec<String>,
}

pub fn run(args: BenchArgs) -> Result<Outcome, String> {
    let limits = args.engine.limits()?;
    let rules = args.engine.game()?;
    // The flags' solver without a book (every position searched), and with the built-in book
    // where the suite measures what a player meets.
    let settings = args.engine.settings(rules.as_ref(), false)?;
    if args.files.is_empty() {
        return match args.suite {
            Suite::Builtin => builtin(&settings, &limits),
            Suite::Full => full(&args.data, settings.threads),
            Suite::Analysis => analysis(
                &settings,
                &args.engine.settings(rules.as_ref(), true)?,
                &limits,
            ),
            Suite::Pentago => pentago(&settings),
            Suite::Convert => convert(),
            Suite::Victor => audit_victor(),
        };
    }
    let mut solver = rules.agent(&settings, 1)?;
    let mut outcome = Outcome::Done;
    for file in &args.files {
        match bench_file(rules.as_ref(), solver.as_mut(), file, args.limit, &limits) {
            Ok(file_outcome) => outcome = outcome.and(file_outcome),
            Err(e) => {
                eprintln!("inarow: {}", one_line(&e));
                outcome = outcome.and(Outcome::BadInput);
            }
        }
    }
    Ok(outcome)
}

/// The built-in suite (the flags' game is not used: the suite names its boards), each board
/// with its own agent of `settings` (its table size and techniques apply).
fn builtin(settings: &Settings, limits: &Limits) -> Result<Outcome, String> {
    let bar = progress_bar(BUILTIN_SUITE.len(), "builtin");
    let mut tally = Tally::default();
    for (spec, expected) in BUILTIN_SUITE {
        let game = session::game(spec)?;
        let mut agent = game.agent(&game.fitted(settings.clone()), 1)?;
        let expected = if agent.is_weak() {
            expected.signum()
        } else {
            expected
        };
        // Its table touched before the clock runs, as in every timed benchmark.
        agent.ready();
        let ask = Ask {
            limits: limits.clone(),
            ..Ask::default()
        };
        let solved = agent.solve(game.read("")?.as_ref(), &ask)?;
        let right = tally.record_solve(solved.score, solved.nodes, solved.seconds, expected);
        bar.inc(1);
        if !right {
            bar.suspend(|| eprintln!("inarow: builtin: {spec}: wrong value"));
        }
    }
    bar.finish_and_clear();
    println!("{}", tally.summary("builtin"));
    println!("signature {}", tally.nodes);
    Ok(if tally.correct == tally.n {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}

/// Benchmarks one file: [`Outcome::Failed`] when some line's answer was wrong, else
/// [`Outcome::BadInput`] when some line could not be read.
fn bench_file(
    game: &dyn Game,
    solver: &mut dyn Agent,
    file: &str,
    limit: Option<usize>,
    limits: &Limits,
) -> Result<Outcome, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read '{file}': {e}"))?;
    let lines = text.lines().filter(|l| !l.trim().is_empty()).count();
    let bar = progress_bar(lines.min(limit.unwrap_or(usize::MAX)), file);
    let (tally, problems) =
        session::bench(game, solver, file, &text, limit, limits, &mut || bar.inc(1))?;
    bar.finish_and_clear();
    for p in &problems {
        eprintln!("inarow: {p}");
    }
    println!("{}", tally.summary(file));
    Ok(if problems.len() > tally.bad_lines {
        Outcome::Failed
    } else if tally.bad_lines > 0 {
        Outcome::BadInput
    } else {
        Outcome::Done
    })
}

/// The analysis suite: a summary line per game (median, 95th percentile, most), then
/// Pentago's line (its solve by `exact`, without a book).
fn analysis(exact: &Settings, settings: &Settings, limits: &Limits) -> Result<Outcome, String> {
    let cap = limits.time.unwrap_or(std::time::Duration::from_secs(10));
    let times = run_analysis(settings, cap, |game, ply, seconds| {
        eprintln!("inarow: analysis {game} ply {ply}: {seconds:.3} s");
    })?;
    for t in &times {
        println!("{}", t.summary());
    }
    let (solve, analyze, exact) = pentago_analysis(exact, settings, limits)?;
    println!(
        "analysis pentago stones=18 solve_s={solve:.3} analysis_s={analyze:.3} ratio={:.2} exact={exact}",
        analyze / solve
    );
    Ok(Outcome::Done)
}

/// The Pentago stone-count table: one line a count, then whether every value was right.
fn pentago(settings: &Settings) -> Result<Outcome, String> {
    let mem = (settings.memory_mb as u64).saturating_mul(1 << 20);
    let rows = run_pentago_counts(
        mem,
        settings.threads.max(1),
        |_| true,
        |row| println!("{row}"),
    )?;
    Ok(if rows.iter().all(|r| r.correct == r.n) {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}

/// The conversion games: one line a game, then how many were won.
fn convert() -> Result<Outcome, String> {
    let games = run_conversions(|game| println!("{game}")).map_err(|e| e.to_string())?;
    let won = games.iter().filter(|g| g.won).count();
    println!("convert won={won} of={}", games.len());
    Ok(if won == games.len() {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}

/// Victor's threat rules against exhaustive values on each board small enough to enumerate,
/// with the positions each rule is needed for: a line a board and a line a rule of it, then
/// the total.
fn audit_victor() -> Result<Outcome, String> {
    let mut total = victor::Audit::default();
    for (name, geometry) in victor::boards() {
        let began = std::time::Instant::now();
        let a = victor::audit(&geometry, &victor::Options::default(), true);
        let seconds = began.elapsed().as_secs_f64();
        println!(
            "victor {name}: positions={} claims={} trivial={} false={} rejected={} losses={} wins={} false_wins={} seconds={seconds:.1}",
            a.positions,
            a.claims,
            a.trivial,
            a.false_claims,
            a.rejected_witnesses,
            a.mover_loses,
            a.mover_wins,
            a.false_wins
        );
        for (i, rule) in victor::Rule::ALL.iter().enumerate() {
            println!(
                "victor {name}: {} used={} needed={}",
                rule.name(),
                a.uses[i],
                a.needs[i]
            );
        }
        a.add_to(&mut total);
    }
    println!(
        "victor total: positions={} claims={} false={} rejected={} losses={} wins={}",
        total.positions,
        total.claims,
        total.false_claims,
        total.rejected_witnesses,
        total.mover_loses,
        total.mover_wins
    );
    Ok(
        if total.false_claims == 0 && total.rejected_witnesses == 0 {
            Outcome::Done
        } else {
            Outcome::Failed
        },
    )
}

/// The full suite: one `PASS`/`FAIL`/`SKIP` line per check, then a total.
fn full(data: &str, threads: usize) -> Result<Outcome, String> {
    let began = std::time::Instant::now();
    let checks = run_full(Path::new(data), threads, |c| println!("{c}"));
    let count = |v: Verdict| checks.iter().filter(|c| c.verdict == v).count();
    let failed = count(Verdict::Fail);
    println!(
        "full passed={} failed={failed} skipped={} seconds={:.0}",
        count(Verdict::Pass),
        count(Verdict::Skip),
        began.elapsed().as_secs_f64()
    );
    Ok(if failed == 0 {
        Outcome::Done
    } else {
        Outcome::Failed
    })
}
