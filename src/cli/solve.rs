//! `inarow solve`: the score of each position given, or of each line of standard input. `retro
//! query` answers through the same [`answer`].

use super::args::EngineArgs;
use super::io::{
    Outcome, ctrl_c, long_search_notice, show_moves, with_progress, with_progress_noting,
};
use super::with_ranks;
use clap::Args;
use inarow::Error;
use inarow::limits::Limits;
use inarow::session::{
    self, Agent, Algorithm, Ask, Checkpoint, Game, JobAsk, Journal, Ranks, Solution, Tools,
    release_workers,
};
use inarow::wire::{self, Value};
use std::io::{BufRead, IsTerminal, Write};
use std::path::Path;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

#[derive(Args)]
pub struct SolveArgs {
    #[command(flatten)]
    engine: EngineArgs,
    #[command(flatten)]
    format: Format,
    /// Write proof certificates of the position's win / draw / loss to FILE (one position
    /// only); `inarow verify FILE` checks them.
    #[arg(long, value_name = "FILE")]
    proof: Option<String>,
    /// Save the transposition table to FILE (from time to time, and when the run ends, reaches
    /// a limit or is stopped with Ctrl-C) and start from the table FILE holds: a stopped run
    /// started again with the same FILE and --tt-mb goes on from where it was. Alpha-beta only.
    /// With --jobs: FILE keeps every job's answer as it comes, and a run started again with it
    /// searches none of them again.
    #[arg(long, value_name = "FILE")]
    checkpoint: Option<String>,
    /// Job-level search: the tree to DEPTH plies kept as a DAG (transpositions and mirror
    /// images merged), its leaves solved as jobs by --threads engines of one thread each and,
    /// under `mpirun` (feature mpi), by as many on every rank. Answers win / draw / loss (1 / 0
    /// / -1), with a `jobs` line per question under --stats. Each move of the position is told
    /// on standard error as the jobs settle it. Games without repetitions.
    #[arg(long, value_name = "DEPTH")]
    jobs: Option<u32>,
    /// With --jobs: a job that searches this many nodes without an answer is given up, and its
    /// position grown two plies further into new jobs, so that the DAG deepens where the proof
    /// needs it (0: every job runs to its end).
    #[arg(long, value_name = "N", default_value_t = 100_000_000)]
    job_nodes: u64,
    /// Move strings (`4453`; `-` or "" = the empty board). Without any, reads standard input:
    /// the first field of each line.
    moves: Vec<String>,
}

/// How answers are printed.
#[derive(Args, Clone, Copy, Debug, Default)]
pub struct Format {
    /// Add `nodes=N us=T` to each line.
    #[arg(long)]
    pub stats: bool,
    /// One JSON object per position: moves, score, best moves, principal variation, nodes, time.
    #[arg(long)]
    pub json: bool,
}

pub fn run(args: SolveArgs) -> Result<Outcome, String> {
    if args.proof.is_some() && args.moves.len() != 1 {
        return Err("--proof needs exactly one position on the command line".to_string());
    }
    if let Some(file) = &args.proof {
        // Before the search, which may be long: where the certificates cannot be written.
        writable(file)?;
    }
    if let Some(depth) = args.jobs {
        return by_jobs(&args, depth);
    }
    let rules = args.engine.game()?;
    let tools = session::tools(rules.as_ref())?;
    let settings = args.engine.settings(rules.as_ref(), true)?;
    let mut solver = rules.agent(&settings, 0)?;
    // Ctrl-C stops the search (its score shown as `?`, exit 3, a checkpoint saved) instead
    // of ending the process; a second Ctrl-C ends it.
    let limits = Limits {
        interrupt: Some(ctrl_c()),
        ..args.engine.limits()?
    };
    if let Some(file) = &args.proof
        && solver.algorithm() == Some(Algorithm::DfPn)
        && !args.format.json
    {
        // The proof that writes the certificates answers too: one search, not two.
        return certify(
            rules.as_ref(),
            tools.as_ref(),
            solver.as_mut(),
            &args.moves[0],
            file,
            args.format.stats,
            &limits,
        );
    }
    let outcome = match &args.checkpoint {
        Some(file) => {
            let checkpoint = resume(tools.as_ref(), solver.as_mut(), file)?;
            saving(&checkpoint, || {
                answer(
                    rules.as_ref(),
                    solver.as_mut(),
                    &args.moves,
                    args.format,
                    &limits,
                )
            })?
        }
        None => answer(
            rules.as_ref(),
            solver.as_mut(),
            &args.moves,
            args.format,
            &limits,
        )?,
    };
    if let Some(file) = &args.proof {
        let pos = rules.read(&args.moves[0])?;
        let proven = tools
            .certify(solver.as_mut(), pos.as_ref(), &limits)
            .map_err(|e| format!("no certificate written: {e}"))?;
        save_certificates(&proven.text, file)?;
    }
    Ok(outcome)
}

/// `solve --jobs DEPTH`: each position on the command line by job-level search; under `mpirun`
/// rank 0 leads and prints, the other ranks serve.
fn by_jobs(args: &SolveArgs, depth: u32) -> Result<Outcome, String> {
    if args.moves.is_empty() || args.proof.is_some() || args.format.json {
        return Err(
            "--jobs: give the positions on the command line (no --proof or --json)".to_string(),
        );
    }
    with_ranks(|ranks| by_jobs_on(args, depth, ranks))
}

fn by_jobs_on(args: &SolveArgs, depth: u32, ranks: &dyn Ranks) -> Result<Outcome, String> {
    let rules = args.engine.game()?;
    let tools = session::tools(rules.as_ref())?;
    let settings = args.engine.settings(rules.as_ref(), true)?;
    let limits = Limits {
        interrupt: Some(ctrl_c()),
        ..args.engine.limits()?
    };
    let threads = args.engine.thread_count()?;
    let job_nodes = (args.job_nodes > 0).then_some(args.job_nodes);
    if ranks.rank() != 0 {
        tools.serve_jobs(&settings, ranks, threads, &limits, job_nodes)?;
        return Ok(Outcome::Done);
    }
    let mut journal = match &args.checkpoint {
        Some(file) => {
            let journal = Journal::open(Path::new(file), &rules.name())?;
            if !journal.is_empty() {
                eprintln!("inarow: {} job answers from {file}", journal.len());
            }
            Some(journal)
        }
        None => None,
    };
    let mut outcome = Outcome::Done;
    let mut out = std::io::stdout().lock();
    for (serial, text) in args.moves.iter().enumerate() {
        let pos = match rules.read(text) {
            Ok(pos) => pos,
            Err(e) => {
                eprintln!("inarow: {e}");
                outcome = outcome.and(Outcome::BadInput);
                continue;
            }
        };
        let began = Instant::now();
        let mut settled = |mv: String, what| {
            eprintln!(
                "inarow: {}: {mv} {what} ({:.1} s)",
                show_moves(text),
                began.elapsed().as_secs_f64()
            );
        };
        let report = tools.solve_by_jobs(
            &settings,
            pos.as_ref(),
            JobAsk {
                serial: serial as u32,
                depth,
                threads,
                ranks,
                limits: &limits,
                journal: journal.as_mut(),
                settled: &mut settled,
                job_nodes,
            },
        );
        let report = match report {
            Ok(r) => r,
            Err(e) => {
                release_workers(ranks);
                return Err(e.into());
            }
        };
        if let Some(stopped) = report.stopped {
            eprintln!(
                "inarow: {}: {stopped} after {} nodes; score unknown",
                show_moves(text),
                report.nodes
            );
            outcome = outcome.and(Outcome::Incomplete);
        }
        let value = report.value.map_or("?".to_string(), |v| v.to_string());
        let mut line = format!("{} {value}", show_moves(text));
        if args.format.stats {
            line += &format!(" nodes={} us={}", report.nodes, report.elapsed.as_micros());
        }
        writeln!(out, "{line}").map_err(|e| format!("cannot write: {e}"))?;
        if args.format.stats {
            for (q, s) in report.questions.iter().enumerate() {
                writeln!(
                    out,
                    "jobs question={} depth={depth} workers={} dag_nodes={} merged={} \
                     leaves={} started={} speculative={} wrong_guesses={} splits={}",
                    if q == 0 { "wins" } else { "loses" },
                    report.workers,
                    s.nodes,
                    s.merged,
                    s.leaves,
                    s.started,
                    s.speculative,
                    s.wrong_guesses,
                    s.splits
                )
                .map_err(|e| format!("cannot write: {e}"))?;
            }
        }
    }
    release_workers(ranks);
    Ok(outcome)
}

/// The least time between two saves of a checkpoint while a search runs; a large table is
/// saved less often, so that saving takes at most a twentieth of the time.
const SAVE_EVERY: Duration = Duration::from_secs(60);

/// The checkpoint in `file` of the solver's table, loaded into it if the file exists.
fn resume(tools: &dyn Tools, solver: &mut dyn Agent, file: &str) -> Result<Checkpoint, Error> {
    let (checkpoint, loaded) = tools.checkpoint(solver, Path::new(file))?;
    if loaded {
        eprintln!("inarow: resuming from the table in {file}");
    }
    Ok(checkpoint)
}

/// Runs `work`, saving the checkpoint from time to time meanwhile and once more at the end.
fn saving<T>(
    checkpoint: &Checkpoint,
    work: impl FnOnce() -> Result<T, String>,
) -> Result<T, String> {
    let (done, finished) = mpsc::channel::<()>();
    let result = std::thread::scope(|scope| {
        let saver = scope.spawn(move || {
            let mut wait = SAVE_EVERY;
            // A log (standard error not a terminal) is told of every save, beside the lines of
            // progress; on a terminal that would break the spinner's line.
            let log = !std::io::stderr().is_terminal();
            while let Err(RecvTimeoutError::Timeout) = finished.recv_timeout(wait) {
                // A save that fails is reported at once; the search goes on, and the last
                // save (below) says whether the checkpoint could be written after all.
                let began = Instant::now();
                match checkpoint.save() {
                    Err(e) => eprintln!("inarow: {e}"),
                    Ok(bytes) if log => eprintln!("{}", saved(checkpoint, bytes, began)),
                    Ok(_) => {}
                }
                wait = SAVE_EVERY.max(began.elapsed() * 20);
            }
        });
        let result = work();
        drop(done);
        saver.join().expect("the saving thread does not panic");
        result
    });
    let began = Instant::now();
    let bytes = checkpoint.save()?;
    eprintln!("{}", saved(checkpoint, bytes, began));
    result
}

/// The line that tells of a save begun at `began`.
fn saved(checkpoint: &Checkpoint, bytes: u64, began: Instant) -> String {
    format!(
        "inarow: checkpoint {} saved ({bytes} bytes, {:.1} s)",
        checkpoint.path().display(),
        began.elapsed().as_secs_f64()
    )
}

/// Answers one position by the df-pn proof of its value and writes that proof's certificates.
fn certify(
    rules: &dyn Game,
    tools: &dyn Tools,
    solver: &mut dyn Agent,
    moves: &str,
    file: &str,
    stats: bool,
    limits: &Limits,
) -> Result<Outcome, String> {
    let pos = rules.read(moves)?;
    let proven = with_progress(&format!("proving {}", show_moves(moves)), || {
        tools.certify(solver, pos.as_ref(), limits)
    })
    .map_err(|e| format!("no certificate written: {e}"))?;
    println!("{}", plain_line(moves, &proven.solution, stats, true));
    save_certificates(&proven.text, file)?;
    Ok(Outcome::Done)
}

/// Whether `file` can be written, by creating (and removing) the temporary file that
/// [`save_certificates`] writes first.
fn writable(file: &str) -> Result<(), String> {
    let temporary = temporary(file);
    std::fs::File::create(&temporary)
        .and_then(|_| std::fs::remove_file(&temporary))
        .map_err(|e| format!("cannot write '{file}': {e}"))
}

/// The file certificates are written to before it is renamed `file`.
fn temporary(file: &str) -> String {
    format!("{file}.tmp")
}

/// Saves certificate text: to a temporary file first, renamed when complete.
fn save_certificates(body: &str, file: &str) -> Result<(), String> {
    let temporary = temporary(file);
    std::fs::write(&temporary, body)
        .and_then(|_| std::fs::rename(&temporary, file))
        .map_err(|e| format!("cannot write '{file}': {e}"))?;
    let count = body.matches(inarow::session::CERTIFICATE_MAGIC).count();
    eprintln!("inarow: wrote {count} certificate(s) to {file}");
    Ok(())
}

/// Answers each position of `moves` (or of standard input, when there is none) with
/// `solver`, printing one line (or JSON object) each; the plies to the end where the solver
/// was asked for them.
pub fn answer(
    rules: &dyn Game,
    solver: &mut dyn Agent,
    moves: &[String],
    format: Format,
    limits: &Limits,
) -> Result<Outcome, String> {
    let from_stdin = moves.is_empty();
    if from_stdin && std::io::IsTerminal::is_terminal(&std::io::stdin()) {
        eprintln!(
            "inarow: reading positions from standard input, one move string per line \
             (Ctrl-D to end)"
        );
    }
    let lines: Box<dyn Iterator<Item = std::io::Result<String>>> = if from_stdin {
        Box::new(std::io::stdin().lock().lines())
    } else {
        Box::new(moves.iter().cloned().map(Ok))
    };
    let proof_numbers = solver.algorithm().is_some_and(Algorithm::is_weak_only);
    let distance = solver.settings().distance;
    let ask = Ask {
        limits: limits.clone(),
        pv: format.json,
        ..Ask::default()
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
        let pos = match rules.read(text) {
            Ok(pos) => pos,
            Err(e) => {
                let place = if from_stdin {
                    format!("line {}: ", i + 1)
                } else {
                    String::new()
                };
                eprintln!("inarow: {place}{e}");
                outcome = outcome.and(Outcome::BadInput);
                continue;
            }
        };
        let notice = long_search_notice(pos.rough_solve_seconds(), text, limits);
        let label = format!("solving {}", show_moves(text));
        let mut solution = with_progress_noting(&label, notice, Some(pos.key()), || {
            solver.solve(pos.as_ref(), &ask)
        })?;
        if !distance {
            // Free with a bounded game's exact score, but shown only where asked for.
            solution.plies = None;
        }
        if let Some(stopped) = &solution.stopped {
            let lost = match (solution.score, solution.proven) {
                (Some(_), _) => "the best moves or the line are incomplete".to_string(),
                // What the tests made so far have proven, for a long run cut short.
                (None, Some((lo, hi))) => format!("score unknown, proven {lo}..{hi}"),
                (None, None) => "score unknown".to_string(),
            };
            eprintln!(
                "inarow: {}: {stopped} after {} nodes; {lost}",
                show_moves(text),
                solution.nodes
            );
            outcome = outcome.and(Outcome::Incomplete);
        }
        if format.stats
            && let Some(profile) = solver.profile_table()
        {
            eprint!("{profile}");
        }
        let printed = if format.json {
            json_line(rules, text, &solution)
        } else {
            plain_line(text, &solution, format.stats, proof_numbers)
        };
        writeln!(out, "{printed}").map_err(|e| format!("cannot write: {e}"))?;
    }
    Ok(outcome)
}

/// `MOVES SCORE`, with `plies=N` when the distance is known, and with `--stats` `nodes=N us=T`
/// (and, for proof-number searches, the peak memory of their tree or table: `peak_kb=K`).
fn plain_line(text: &str, solution: &Solution, stats: bool, proof_numbers: bool) -> String {
    let score = solution.score.map_or("?".to_string(), |s| s.to_string());
    let mut line = format!("{} {score}", show_moves(text));
    if let Some(plies) = solution.plies {
        line += &format!(" plies={plies}");
    }
    if stats {
        line += &format!(
            " nodes={} us={}",
            solution.nodes,
            (solution.seconds * 1e6).round() as u128
        );
        if proof_numbers {
            line += &format!(" peak_kb={}", solution.peak_bytes / 1024);
        }
    }
    line
}

fn json_line(rules: &dyn Game, text: &str, solution: &Solution) -> String {
    let moves = text.trim().trim_start_matches('-');
    Value::Object(wire::solution(&rules.name(), moves, solution)).to_string()
}
