//! `inarow retro build`: a strong solution by retrograde analysis, written to a database file
//! (see `inarow::engine::knowledge::database` for the format); `inarow retro query`: positions answered from
//! one, printed as `solve` prints them.

use super::args::{seconds, threads};
use super::io::{Outcome, ctrl_c, progress_bar};
use super::solve::{self, Format};
use super::with_ranks;
use clap::{Args, Subcommand};
use inarow::engine::knowledge::database::{self, BuildOptions, Database, Ranks};
use inarow::engine::{Progress, RetroValue};
use inarow::game::GameSpec;
use inarow::limits::Limits;
use inarow::session::{self, Settings};
use std::path::Path;
use std::time::{Duration, Instant};

#[derive(Subcommand)]
pub enum RetroCommand {
    /// Solve every position of a game backwards from the ends and write the database
    /// (win / draw / loss and the plies to the end, one byte per position); resumes an
    /// interrupted build of the same file. Built with the feature `mpi`, `mpirun -n P inarow
    /// retro build ...` shares the work among P ranks.
    Build(BuildArgs),
    /// Answer positions from a database: `MOVES SCORE` per position, as `solve` prints them.
    Query(QueryArgs),
}

#[derive(Args)]
pub struct BuildArgs {
    /// Game: connect4:WxH[:kK] or popout:WxH (boards small enough to number).
    #[arg(long, short, default_value = "popout:4x4")]
    game: String,
    /// The database file to write.
    #[arg(long, value_name = "FILE")]
    out: String,
    /// Threads.
    #[arg(long, default_value_t = 2)]
    threads: usize,
    /// Memory budget in MiB: a byte per index and two bits of frontier (on MPI: each rank's,
    /// for its share).
    #[arg(long, default_value_t = 16384)]
    mem_mb: u64,
    /// Save the build's state (FILE.partial) after a round when this many seconds have passed
    /// since the last save.
    #[arg(long, allow_negative_numbers = true, default_value_t = 60.0)]
    save_every: f64,
    /// Stop after the first round that ends this many seconds after the start, saving the
    /// state (exit 3); building again resumes. Ctrl-C does the same after the current round.
    #[arg(long, allow_negative_numbers = true)]
    time: Option<f64>,
    /// Half a byte per index in memory, the distances listed on disk as they are decided,
    /// even when a byte per index fits (chosen without this flag when only half a byte does).
    #[arg(long)]
    compact: bool,
}

#[derive(Args)]
pub struct QueryArgs {
    /// The database (`retro build --out`).
    file: String,
    /// One JSON object per position.
    #[arg(long)]
    json: bool,
    /// Move strings (`-` or "" = the empty board); without any, standard input.
    moves: Vec<String>,
}

pub fn run(command: RetroCommand) -> Result<Outcome, String> {
    match command {
        RetroCommand::Build(args) => build(args),
        RetroCommand::Query(args) => query(args),
    }
}

fn build(args: BuildArgs) -> Result<Outcome, String> {
    let spec: GameSpec = args.game.parse()?;
    let threads = threads(args.threads)?;
    if !(args.save_every.is_finite() && args.save_every >= 0.0) {
        return Err(format!(
            "--save-every {}: must be a number of seconds",
            args.save_every
        ));
    }
    let options = BuildOptions {
        threads,
        mem_bytes: args.mem_mb.saturating_mul(1 << 20),
        save_every: Duration::from_secs_f64(args.save_every),
        limits: Limits {
            time: seconds("--time", args.time)?,
            interrupt: Some(ctrl_c()),
            ..Limits::default()
        },
        compact: args.compact,
    };
    with_ranks(|ranks| build_on(&args, &options, spec, ranks))
}

fn build_on(
    args: &BuildArgs,
    options: &BuildOptions,
    spec: GameSpec,
    ranks: &dyn Ranks,
) -> Result<Outcome, String> {
    let out = Path::new(&args.out);
    // Only rank 0 shows progress and writes the report.
    let lead = ranks.rank() == 0;
    let rules = session::game(&spec.to_string())?;
    let tools = session::tools(rules.as_ref())?;
    let name = rules.name();
    {
        let began = Instant::now();
        let bar = progress_bar(0, &format!("{name} retro"));
        if !lead {
            bar.set_draw_target(indicatif::ProgressDrawTarget::hidden());
        }
        let progress = |p: Progress| match p {
            Progress::Init { done, total } => {
                bar.set_length(total);
                bar.set_position(done);
                // Nothing is saved before the first round: an interruption just ends.
                if options.limits.is_interrupted() {
                    bar.abandon();
                    eprintln!("inarow: interrupted while setting up; nothing saved");
                    std::process::exit(130);
                }
            }
            Progress::Round { round, decided } => {
                bar.set_message(format!("round {round}, {decided} decided"));
            }
            Progress::Write { done, total } => {
                bar.set_length(total);
                bar.set_position(done);
                bar.set_message("writing");
            }
        };
        let report = tools.build_database(out, options, &progress, ranks);
        bar.finish_and_clear();
        let report = report?;
        if !lead {
            return Ok(if report.stopped.is_some() {
                Outcome::Incomplete
            } else {
                Outcome::Done
            });
        }
        if let Some(why) = &report.stopped {
            let saved = match ranks.size() {
                1 => format!("{}.partial", args.out),
                p => format!("{}.rank-*-of-{p}.partial", args.out),
            };
            eprintln!(
                "inarow: stopped by {why} after {} rounds; the state is saved in {saved}: \
                 run the same command again to resume",
                report.rounds
            );
            return Ok(Outcome::Incomplete);
        }
        let s = &report.summary;
        println!("# {name}: strong solution by retrograde analysis");
        println!("cells {}", report.cells);
        println!("positions {}", s.positions());
        println!("wins {}", s.wins);
        println!("losses {}", s.losses);
        println!("draws {}", s.draws);
        println!("longest {}", s.longest);
        match report.resumed_at {
            Some(round) => println!("rounds {} resumed_at {round}", report.rounds),
            None => println!("rounds {}", report.rounds),
        }
        let value = match report.start {
            Some(RetroValue::Win(d)) => format!("win plies={d}"),
            Some(RetroValue::Loss(d)) => format!("loss plies={d}"),
            Some(RetroValue::Draw) => "draw".to_string(),
            None => "?".to_string(),
        };
        println!("start {value}");
        if ranks.size() > 1 {
            print_traffic(ranks.size(), &report.traffic);
        }
        println!(
            "written {} seconds={:.1}",
            args.out,
            began.elapsed().as_secs_f64()
        );
        Ok(Outcome::Done)
    }
}

/// A build on several ranks: what each round exchanged, and the time split, per round and in
/// all (rounds resumed from a saved state are not counted).
fn print_traffic(ranks: usize, traffic: &[database::Traffic]) {
    println!("ranks {ranks}");
    for t in traffic {
        println!(
            "round {} predecessors={} exchanged_bytes={} exchanges={} compute_seconds={:.3} \
             communicate_seconds={:.3}",
            t.round, t.predecessors, t.bytes, t.exchanges, t.compute, t.communicate
        );
    }
    let sum = |f: fn(&database::Traffic) -> f64| traffic.iter().map(f).fold(0.0, |a, b| a + b);
    println!(
        "exchanged predecessors={} bytes={} compute_seconds={:.3} communicate_seconds={:.3}",
        traffic.iter().map(|t| t.predecessors).sum::<u64>(),
        traffic.iter().map(|t| t.bytes).sum::<u64>(),
        sum(|t| t.compute),
        sum(|t| t.communicate)
    );
}

/// Answers positions from a database, as `solve --db FILE --distance` does: the same
/// function, with the game the file names, no table and the distance (which the database holds).
fn query(args: QueryArgs) -> Result<Outcome, String> {
    let path = Path::new(&args.file);
    let rules = session::game(&Database::game_of(path)?)?;
    let settings = Settings {
        table_mb: 0,
        distance: true,
        database: Some(path.to_path_buf()),
        ..Settings::default()
    };
    let mut solver = rules.agent(&settings, 0)?;
    let format = Format {
        stats: false,
        json: args.json,
    };
    solve::answer(
        rules.as_ref(),
        solver.as_mut(),
        &args.moves,
        format,
        &Limits::default(),
    )
}
