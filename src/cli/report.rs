//! `inarow report`: runs the benchmarks behind docs/results.md's pictures, keeps their raw
//! figures in a data file (docs/results/report.json), draws SVG plots (docs/plots/*.svg) and
//! rewrites the generated blocks of docs/results.md, each between `<!-- report:NAME -->` and
//! `<!-- /report:NAME -->`, leaving every other line as it was. `--redraw` draws and writes from
//! the data file alone, without measuring.
//!
//! The sections: `cube-curve` (the seed's difficulty curve, as `inarow gen --game cube`),
//! `sizes` (empty Connect Four boards, as `inarow table`), `pentago` (the stone-count table of
//! `inarow bench --suite pentago`, beside Irving's midgame solver when `--irving` names his
//! driver) and `elo` (a ladder of `inarow match`es between neighbouring levels).

use super::io::{Outcome, progress_bar};
use super::matches::{Series, play_series};
use clap::{Args, ValueEnum};
use inarow::engine::agent::Level;
use inarow::engine::bench::{PENTAGO_STONES, median, run_pentago_counts, solve_pentago};
use inarow::engine::{Config, Engine, Options};
use inarow::game::{Game, GameSpec, Player};
use inarow::with_game;
use plotters::prelude::*;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// The sections of the report, each a block of docs/results.md and one or more plots.
#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Section {
    /// Connect Four 3D: seconds and nodes to generate and solve C positions of N stones.
    CubeCurve,
    /// Empty Connect Four boards: nodes and seconds against cells.
    Sizes,
    /// Pentago's midgame solver by stone count, beside Irving's.
    Pentago,
    /// The engines' Elo ladder on 7x6, from matches between neighbouring levels.
    Elo,
}

impl Section {
    const ALL: [Section; 4] = [
        Section::CubeCurve,
        Section::Sizes,
        Section::Pentago,
        Section::Elo,
    ];

    fn name(self) -> &'static str {
        match self {
            Section::CubeCurve => "cube-curve",
            Section::Sizes => "sizes",
            Section::Pentago => "pentago",
            Section::Elo => "elo",
        }
    }
}

#[derive(Args)]
pub struct ReportArgs {
    /// Only these sections (comma-separated; default: all): cube-curve, sizes, pentago, elo.
    #[arg(long, value_enum, value_delimiter = ',')]
    only: Vec<Section>,
    /// Small measurements that finish in seconds (for tests; the figures mean little).
    #[arg(long)]
    quick: bool,
    /// Measure nothing: redraw the plots and blocks from the data file.
    #[arg(long, conflicts_with_all = ["quick", "irving"])]
    redraw: bool,
    /// Irving's `midsolve_driver` (built by shared/anchors/pentago/build_irving_midsolve.sh):
    /// run it side by side with inarow, alternating on the same positions. Without it the
    /// figures last measured side by side are kept, marked as stored.
    #[arg(long, value_name = "PATH")]
    irving: Option<PathBuf>,
    /// The results page whose generated blocks are rewritten.
    #[arg(long, value_name = "FILE", default_value = "docs/results.md")]
    results: PathBuf,
    /// Where the SVG plots go.
    #[arg(long, value_name = "DIR", default_value = "docs/plots")]
    plots: PathBuf,
    /// The raw figures: read by --redraw, updated by every measuring run.
    #[arg(long, value_name = "FILE", default_value = "docs/results/report.json")]
    data: PathBuf,
    /// The public data folder (the published size table, to check each outcome against).
    #[arg(long, value_name = "DIR", default_value = "../shared/data")]
    shared_data: PathBuf,
    /// Cube stone counts (default: 36,34,32,30,28; quick: 40,38).
    #[arg(long, value_delimiter = ',')]
    cube_stones: Vec<u32>,
    /// Cube positions per stone count (default 1000; quick 5).
    #[arg(long)]
    cube_count: Option<usize>,
    /// Seconds each cube stone count may take; the count stops there and says how many it did.
    #[arg(long, default_value_t = 600.0)]
    cube_budget: f64,
    /// Games per match of the Elo ladder (default 20; quick 2).
    #[arg(long)]
    games: Option<u32>,
    /// Seconds a move in the Elo ladder's matches (default 0.2; quick 0.01).
    #[arg(long)]
    think: Option<f64>,
}

/// Where and when figures were measured.
#[derive(Serialize, Deserialize, Clone, Debug)]
struct Provenance {
    /// `git rev-parse --short HEAD` where the report ran (`-dirty` with uncommitted changes).
    commit: String,
    /// UTC date.
    date: String,
    /// `quick` or `full`.
    mode: String,
    /// What was run, as a command line of the benchmark it stands for.
    command: String,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct CubeRow {
    stones: u32,
    /// Positions asked for.
    count: usize,
    /// Positions generated and solved before the budget ran out.
    done: usize,
    /// Seconds for all of them (generation and solving, as `gen` reports them: solving).
    seconds: f64,
    mean_nodes: f64,
    max_seconds: f64,
    /// Positions the first player wins.
    wins: usize,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct CubeCurve {
    provenance: Provenance,
    rows: Vec<CubeRow>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct SizeRow {
    width: u32,
    height: u32,
    cells: u32,
    /// Exact score for the first player (`None`: not solved).
    score: Option<i32>,
    outcome: String,
    /// The published outcome (shared/data/tables/connect4_sizes.tsv), where it was read.
    published: Option<String>,
    nodes: u64,
    seconds: f64,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct Sizes {
    provenance: Provenance,
    rows: Vec<SizeRow>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct PentagoRow {
    stones: u32,
    n: usize,
    correct: usize,
    cpu_s: f64,
    wall_s: f64,
    solve_mib: f64,
}

/// Irving's midgame solver beside inarow, position by position.
#[derive(Serialize, Deserialize, Clone, Debug)]
struct SideBySide {
    /// Whether this run measured it (`false`: stored figures, see `source`).
    measured: bool,
    /// Where the figures come from.
    source: String,
    rows: Vec<SideRow>,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct SideRow {
    stones: u32,
    /// Median CPU seconds of a position.
    irving_cpu_s: f64,
    inarow_cpu_s: f64,
    /// Irving's peak RSS (stored figures) or his solver's workspace (measured), MiB.
    irving_mib: f64,
    /// Positions where the two values agree, of those run.
    agree: usize,
    n: usize,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct PentagoData {
    provenance: Provenance,
    rows: Vec<PentagoRow>,
    irving: SideBySide,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct MatchRow {
    a: String,
    b: String,
    wins: u32,
    draws: u32,
    losses: u32,
    /// A's Elo difference and its 95% half-width; with a score of 0 or 1 the difference is
    /// unbounded and this holds the bound a half game would give (`bound`).
    elo: f64,
    error: f64,
    bound: bool,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct Rung {
    level: String,
    /// Elo above the first (weakest) level, and the 95% half-width carried up the ladder.
    elo: f64,
    error: f64,
    /// Some match below this rung was all won or all lost: the Elo is a lower bound.
    bound: bool,
}

#[derive(Serialize, Deserialize, Clone, Debug)]
struct EloData {
    provenance: Provenance,
    game: String,
    seconds_per_move: f64,
    games: u32,
    matches: Vec<MatchRow>,
    ladder: Vec<Rung>,
}

/// The data file: each section's last figures.
#[derive(Serialize, Deserialize, Default, Debug)]
struct Data {
    #[serde(default, skip_serializing_if = "Option::is_none")]
    cube_curve: Option<CubeCurve>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sizes: Option<Sizes>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pentago: Option<PentagoData>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    elo: Option<EloData>,
}

/// The levels of the ladder, weakest first (as `play --engine` lists them).
const LADDER: [Level; 5] = [
    Level::Random,
    Level::Depth(2),
    Level::Mcts,
    Level::AlphaBeta,
    Level::Best,
];

/// Irving's midgame solver beside inarow's default, as last measured by hand (docs/results.md,
/// "Side by side with Irving's midgame solver": `taskset -c 1`, alternating, three rounds of
/// the `bench --suite pentago` positions, medians of CPU from /usr/bin/time). Stored anchor
/// figures, not measured by this command: `--irving` measures them again.
const IRVING_STORED: [(u32, f64, f64, f64); 4] = [
    (18, 8.36, 1.78, 499.4),
    (19, 2.22, 0.57, 182.6),
    (20, 0.65, 0.19, 67.3),
    (22, 0.07, 0.02, 11.5),
];
const IRVING_STORED_SOURCE: &str = "stored: measured by hand on this machine on 2026-11-25 \
    (docs/results.md, side by side with Irving's midgame solver; Irving's CPU and peak RSS, \
    inarow's default CPU; medians of three alternating rounds); not measured by this run";

pub fn run(args: ReportArgs) -> Result<Outcome, String> {
    let sections: Vec<Section> = if args.only.is_empty() {
        Section::ALL.to_vec()
    } else {
        Section::ALL
            .into_iter()
            .filter(|s| args.only.contains(s))
            .collect()
    };
    super::args::seconds("--cube-budget", Some(args.cube_budget))?;
    super::args::seconds("--think", args.think)?;
    if let Some(path) = &args.irving
        && !path.is_file()
    {
        return Err(format!("--irving '{}': no such file", path.display()));
    }
    // Every marker is checked before anything is measured: a page that cannot take the
    // blocks should not cost a long run first.
    let page = std::fs::read_to_string(&args.results)
        .map_err(|e| format!("cannot read '{}': {e}", args.results.display()))?;
    let names: Vec<&str> = sections.iter().map(|s| s.name()).collect();
    let file = args.results.display().to_string();
    find_blocks(&page, &names, &file)?;

    let mut data = match std::fs::read_to_string(&args.data) {
        Ok(text) => serde_json::from_str::<Data>(&text)
            .map_err(|e| format!("cannot read '{}': {e}", args.data.display()))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound && !args.redraw => Data::default(),
        Err(e) => return Err(format!("cannot read '{}': {e}", args.data.display())),
    };
    let mut outcome = Outcome::Done;
    if !args.redraw {
        let commit = commit();
        let mode = if args.quick { "quick" } else { "full" };
        let prov = |command: String| Provenance {
            commit: commit.clone(),
            date: today(),
            mode: mode.to_string(),
            command,
        };
        for &section in &sections {
            let began = Instant::now();
            let section_outcome = match section {
                Section::CubeCurve => {
                    let (curve, o) = measure_cube(&args, &prov)?;
                    data.cube_curve = Some(curve);
                    o
                }
                Section::Sizes => {
                    let (sizes, o) = measure_sizes(&args, &prov)?;
                    data.sizes = Some(sizes);
                    o
                }
                Section::Pentago => {
                    let (pentago, o) = measure_pentago(&args, &prov)?;
                    data.pentago = Some(pentago);
                    o
                }
                Section::Elo => {
                    data.elo = Some(measure_elo(&args, &prov)?);
                    Outcome::Done
                }
            };
            eprintln!(
                "inarow: report {}: measured in {:.1} s",
                section.name(),
                began.elapsed().as_secs_f64()
            );
            outcome = outcome.and(section_outcome);
            // Saved after each section: a later section that fails does not lose this one.
            let json = serde_json::to_string_pretty(&data).expect("plain data serialises") + "\n";
            write_file(&args.data, json.as_bytes())?;
        }
    }

    let link_dir = plots_link(&args.results, &args.plots);
    std::fs::create_dir_all(&args.plots)
        .map_err(|e| format!("cannot create '{}': {e}", args.plots.display()))?;
    let mut blocks = Vec::new();
    for &section in &sections {
        let missing = || {
            format!(
                "'{}' has no {} figures: run `inarow report --only {}` first",
                args.data.display(),
                section.name(),
                section.name()
            )
        };
        let (plots, block) = match section {
            Section::CubeCurve => {
                let c = data.cube_curve.as_ref().ok_or_else(missing)?;
                (
                    vec![("cube-curve", plot_cube(c)?)],
                    block_cube(c, &link_dir),
                )
            }
            Section::Sizes => {
                let s = data.sizes.as_ref().ok_or_else(missing)?;
                let plots = vec![
                    ("sizes-nodes", plot_sizes(s, true)?),
                    ("sizes-time", plot_sizes(s, false)?),
                ];
                (plots, block_sizes(s, &link_dir))
            }
            Section::Pentago => {
                let p = data.pentago.as_ref().ok_or_else(missing)?;
                (
                    vec![("pentago", plot_pentago(p)?)],
                    block_pentago(p, &link_dir),
                )
            }
            Section::Elo => {
                let e = data.elo.as_ref().ok_or_else(missing)?;
                (vec![("elo", plot_elo(e)?)], block_elo(e, &link_dir))
            }
        };
        for (name, svg) in plots {
            write_file(&args.plots.join(format!("{name}.svg")), svg.as_bytes())?;
        }
        blocks.push((section.name(), block));
    }
    let page = rewrite_blocks(&page, &blocks, &file)?;
    write_file(&args.results, page.as_bytes())?;
    println!(
        "report: {} rewritten ({}), plots in {}, figures in {}",
        args.results.display(),
        names.join(", "),
        args.plots.display(),
        args.data.display()
    );
    Ok(outcome)
}

// ---------------------------------------------------------------------------------------------
// The blocks of the results page.

fn start_marker(name: &str) -> String {
    format!("<!-- report:{name} -->")
}

fn end_marker(name: &str) -> String {
    format!("<!-- /report:{name} -->")
}

/// The byte ranges of each named block's inside (after its start marker's line, up to its end
/// marker), checked: each start marker once, followed by its end marker.
fn find_blocks(
    page: &str,
    names: &[&str],
    file: &str,
) -> Result<Vec<std::ops::Range<usize>>, String> {
    let line_of = |at: usize| page[..at].matches('\n').count() + 1;
    let mut ranges = Vec::new();
    for name in names {
        let (start, end) = (start_marker(name), end_marker(name));
        let Some(at) = page.find(&start) else {
            return Err(format!("{file}: no {start} marker (the block's place)"));
        };
        if let Some(again) = page[at + start.len()..].find(&start) {
            let line = line_of(at + start.len() + again);
            return Err(format!("{file}:{line}: a second {start} marker"));
        }
        let inside = at + start.len();
        let Some(close) = page[inside..].find(&end) else {
            return Err(format!(
                "{file}:{}: {start} has no end marker {end}",
                line_of(at)
            ));
        };
        ranges.push(inside..inside + close);
    }
    Ok(ranges)
}

/// `page` with each named block's inside replaced by its new text, the markers and everything
/// outside them kept byte for byte.
fn rewrite_blocks(page: &str, blocks: &[(&str, String)], file: &str) -> Result<String, String> {
    let names: Vec<&str> = blocks.iter().map(|b| b.0).collect();
    let ranges = find_blocks(page, &names, file)?;
    let mut order: Vec<usize> = (0..blocks.len()).collect();
    order.sort_by_key(|&i| ranges[i].start);
    let mut out = String::with_capacity(page.len());
    let mut at = 0;
    for i in order {
        if ranges[i].start < at {
            return Err(format!(
                "{file}: the block {} overlaps another",
                blocks[i].0
            ));
        }
        out.push_str(&page[at..ranges[i].start]);
        out.push('\n');
        out.push_str(blocks[i].1.trim_end());
        out.push('\n');
        at = ranges[i].end;
    }
    out.push_str(&page[at..]);
    Ok(out)
}

/// How the page links to the plots: the plots folder relative to the page's folder where it
/// lies below it, else its absolute path.
fn plots_link(results: &Path, plots: &Path) -> String {
    let absolute = |p: &Path| {
        std::path::absolute(p)
            .unwrap_or_else(|_| p.to_path_buf())
            .components()
            .collect::<PathBuf>()
    };
    let page_dir = absolute(results.parent().unwrap_or(Path::new(".")));
    let plots = absolute(plots);
    match plots.strip_prefix(&page_dir) {
        Ok(rel) if rel.as_os_str().is_empty() => ".".to_string(),
        Ok(rel) => rel.display().to_string(),
        Err(_) => plots.display().to_string(),
    }
}

fn generated_by(p: &Provenance, section: &str) -> String {
    format!(
        "*Generated by `inarow report --only {section}` ({} mode) on {}, commit {}: {}. Raw \
         figures: [results/report.json](results/report.json).*",
        p.mode, p.date, p.commit, p.command
    )
}

fn block_cube(c: &CubeCurve, plots: &str) -> String {
    let mut s = format!(
        "![Connect Four 3D: seconds and mean nodes against stones]({plots}/cube-curve.svg)\n\n"
    );
    s += "| stones | positions | seconds for all | mean nodes | slowest position | first player wins |\n";
    s += "|---|---|---|---|---|---|\n";
    for r in &c.rows {
        let positions = if r.done < r.count {
            format!("{} of {} (stopped by the budget)", r.done, r.count)
        } else {
            r.count.to_string()
        };
        s += &format!(
            "| {} | {positions} | {} | {} | {} | {} |\n",
            r.stones,
            seconds(r.seconds),
            thousands(r.mean_nodes.round() as u64),
            seconds(r.max_seconds),
            r.wins
        );
    }
    s + "\n" + &generated_by(&c.provenance, "cube-curve")
}

fn block_sizes(sz: &Sizes, plots: &str) -> String {
    let mut s = format!(
        "![Connect Four empty boards: nodes against cells]({plots}/sizes-nodes.svg)\n\
         ![Connect Four empty boards: seconds against cells]({plots}/sizes-time.svg)\n\n"
    );
    s += "| board | cells | score | outcome | published | nodes | time |\n";
    s += "|---|---|---|---|---|---|---|\n";
    for r in &sz.rows {
        let score = r.score.map_or("?".to_string(), |v| v.to_string());
        let published = r.published.clone().unwrap_or_else(|| "(not read)".into());
        s += &format!(
            "| {}x{} | {} | {score} | {} | {published} | {} | {} |\n",
            r.width,
            r.height,
            r.cells,
            r.outcome,
            thousands(r.nodes),
            seconds(r.seconds)
        );
    }
    s += "\nThe times of the smallest boards (a few thousand nodes) are mostly the first touches \
          of the 64 MiB table, not the search: compare the nodes.\n";
    s + "\n" + &generated_by(&sz.provenance, "sizes")
}

fn block_pentago(p: &PentagoData, plots: &str) -> String {
    let mut s = format!(
        "![Pentago: CPU seconds a position against stones, inarow and Irving]({plots}/pentago.svg)\n\n"
    );
    s += "| stones | positions | right | inarow CPU (median) | wall | memory the solve held |\n";
    s += "|---|---|---|---|---|---|\n";
    for r in &p.rows {
        s += &format!(
            "| {} | {} | {} | {} | {} | {:.1} MiB |\n",
            r.stones,
            r.n,
            r.correct,
            seconds(r.cpu_s),
            seconds(r.wall_s),
            r.solve_mib
        );
    }
    let i = &p.irving;
    s += &format!(
        "\nIrving's midgame solver beside inarow ({}):\n\n",
        if i.measured {
            "measured by this run, alternating position by position, one thread each"
        } else {
            "**stored figures**, not measured by this run"
        }
    );
    let memory = if i.measured {
        "Irving's workspace"
    } else {
        "Irving's peak RSS"
    };
    s += &format!(
        "| stones | Irving CPU | inarow CPU | inarow / Irving | {memory} | values agree |\n"
    );
    s += "|---|---|---|---|---|---|\n";
    for r in &i.rows {
        let agree = if i.measured {
            format!("{} of {}", r.agree, r.n)
        } else {
            "(stored)".to_string()
        };
        s += &format!(
            "| {} | {} | {} | {:.2}x | {:.1} MiB | {agree} |\n",
            r.stones,
            seconds(r.irving_cpu_s),
            seconds(r.inarow_cpu_s),
            r.inarow_cpu_s / r.irving_cpu_s,
            r.irving_mib
        );
    }
    s += &format!("\nSource of Irving's figures: {}.\n\n", i.source);
    s + &generated_by(&p.provenance, "pentago")
}

fn block_elo(e: &EloData, plots: &str) -> String {
    let mut s = format!(
        "![The engines' Elo ladder on {}]({plots}/elo.svg)\n\n",
        e.game
    );
    s += "| A vs B | W-D-L for A | Elo for A (95%) |\n|---|---|---|\n";
    for m in &e.matches {
        let elo = if m.bound {
            let side = if m.wins > 0 { "above" } else { "below" };
            format!("{side} {:+.0} (all games one way)", m.elo)
        } else {
            format!("{:+.0} +/- {:.0}", m.elo + 0.0, m.error)
        };
        s += &format!(
            "| {} vs {} | {}-{}-{} | {elo} |\n",
            m.a, m.b, m.wins, m.draws, m.losses
        );
    }
    s += "\n| level | Elo above random (95%) |\n|---|---|\n";
    for r in &e.ladder {
        let mark = if r.bound { " (at least)" } else { "" };
        s += &format!(
            "| {} | {:+.0} +/- {:.0}{mark} |\n",
            r.level,
            r.elo + 0.0,
            r.error
        );
    }
    s + "\n" + &generated_by(&e.provenance, "elo")
}

// ---------------------------------------------------------------------------------------------
// Measuring.

fn measure_cube(
    args: &ReportArgs,
    prov: &dyn Fn(String) -> Provenance,
) -> Result<(CubeCurve, Outcome), String> {
    use inarow::engine::bench::positions::reasonable_lines;
    let stones = if !args.cube_stones.is_empty() {
        args.cube_stones.clone()
    } else if args.quick {
        vec![40, 38]
    } else {
        vec![36, 34, 32, 30, 28]
    };
    let count = args.cube_count.unwrap_or(if args.quick { 5 } else { 1000 });
    let tt_mb = if args.quick { 16 } else { 1024 };
    let budget = Duration::from_secs_f64(args.cube_budget);
    let start = match "cube".parse::<GameSpec>()?.start() {
        inarow::game::AnyGame::Cube(g) => g,
        _ => return Err("the cube game spec names another game".to_string()),
    };
    let options = Options {
        config: Config {
            tt_mb,
            ..Config::default()
        },
        ..Options::default()
    };
    let mut engine = Engine::try_new(&start, options)?;
    engine.ready();
    let mut rows = Vec::new();
    let mut outcome = Outcome::Done;
    for &n in &stones {
        // The seed of `gen --seed N` for the count N, as the hand-run table used.
        let lines = reasonable_lines(start, n, count, u64::from(n))?;
        let bar = progress_bar(lines.len(), &format!("cube {n} stones"));
        let began = Instant::now();
        let mut row = CubeRow {
            stones: n,
            count,
            done: 0,
            seconds: 0.0,
            mean_nodes: 0.0,
            max_seconds: 0.0,
            wins: 0,
        };
        let mut nodes = 0u64;
        for line in &lines {
            if began.elapsed() > budget {
                break;
            }
            let pos = line.iter().fold(start, |p, &m| p.play(m));
            engine.reset();
            // The two-valued question for the first player, as `gen` asks it.
            let report = if pos.side_to_move() == Player::First {
                engine.wins(&pos)
            } else {
                engine.solve(&pos)
            };
            let s = report.elapsed.as_secs_f64();
            row.seconds += s;
            row.max_seconds = row.max_seconds.max(s);
            nodes += report.nodes;
            row.done += 1;
            let first_wins = match report.score {
                Some(v) if pos.side_to_move() == Player::First => v > 0,
                Some(v) => v < 0,
                None => {
                    outcome = Outcome::Incomplete;
                    false
                }
            };
            row.wins += usize::from(first_wins);
            bar.inc(1);
        }
        bar.finish_and_clear();
        if row.done < count {
            outcome = outcome.and(Outcome::Incomplete);
        }
        row.mean_nodes = nodes as f64 / row.done.max(1) as f64;
        println!(
            "report cube stones={n} done={} of {count} seconds={:.1} mean_nodes={:.0}",
            row.done, row.seconds, row.mean_nodes
        );
        rows.push(row);
    }
    let stones_list: Vec<String> = stones.iter().map(u32::to_string).collect();
    let command = format!(
        "`inarow gen --game cube --stones N --count {count} --seed N --tt-mb {tt_mb}` for N = {}, \
         one thread, at most {} s a count",
        stones_list.join(", "),
        args.cube_budget
    );
    Ok((
        CubeCurve {
            provenance: prov(command),
            rows,
        },
        outcome,
    ))
}

/// The published outcomes of the size table, by (width, height).
fn published_sizes(dir: &Path) -> std::collections::HashMap<(u32, u32), String> {
    let path = dir.join("tables/connect4_sizes.tsv");
    let text = std::fs::read_to_string(path).unwrap_or_default();
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .filter_map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let (w, h) = (f.first()?.parse().ok()?, f.get(1)?.parse().ok()?);
            Some(((w, h), f.get(2)?.to_string()))
        })
        .collect()
}

fn measure_sizes(
    args: &ReportArgs,
    prov: &dyn Fn(String) -> Provenance,
) -> Result<(Sizes, Outcome), String> {
    let max_cells = if args.quick { 20 } else { 36 };
    let mut boards = Vec::new();
    for height in 4..=max_cells / 4 {
        for width in 4..=max_cells / height {
            boards.push((width, height));
        }
    }
    // The standard board too: the one everyone knows, about 20 s.
    if !args.quick {
        boards.push((7, 6));
    }
    let published = published_sizes(&args.shared_data);
    let options = Options {
        config: Config {
            tt_mb: 64,
            threads: 1,
            ..Config::default()
        },
        ..Options::default()
    };
    let mut rows = Vec::new();
    let mut outcome = Outcome::Done;
    let bar = progress_bar(boards.len(), "sizes");
    for (width, height) in boards {
        let spec: GameSpec = format!("connect4:{width}x{height}").parse()?;
        let report = with_game!(spec.start(), start => {
            let r = Engine::try_new(&start, options.clone())?.solve(&start);
            (r.score, r.nodes, r.elapsed)
        });
        let (score, nodes, elapsed) = report;
        let outcome_name = match score {
            None => "?",
            Some(0) => "draw",
            Some(s) if s > 0 => "first",
            Some(_) => "second",
        };
        let published = published.get(&(width, height)).cloned();
        if score.is_none() {
            outcome = outcome.and(Outcome::Incomplete);
        } else if published.as_deref().is_some_and(|p| p != outcome_name) {
            eprintln!(
                "inarow: report sizes: {width}x{height} gives {outcome_name}, published {published:?}"
            );
            outcome = Outcome::Failed;
        }
        rows.push(SizeRow {
            width,
            height,
            cells: width * height,
            score,
            outcome: outcome_name.to_string(),
            published,
            nodes,
            seconds: elapsed.as_secs_f64(),
        });
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!(
        "report sizes boards={} (up to {max_cells} cells)",
        rows.len()
    );
    let seven = if args.quick { "" } else { " and 7x6" };
    let command = format!(
        "`inarow solve --stats --game connect4:WxH -` (64 MiB table, one thread) for every board \
         of at least 4x4 and at most {max_cells} cells{seven}"
    );
    Ok((
        Sizes {
            provenance: prov(command),
            rows,
        },
        outcome,
    ))
}

fn measure_pentago(
    args: &ReportArgs,
    prov: &dyn Fn(String) -> Provenance,
) -> Result<(PentagoData, Outcome), String> {
    let mem = 1024u64 << 20;
    // Quick: the 22-stone positions alone (hundredths of a second each).
    let wanted = |stones: u32| !args.quick || stones == 22;
    let mut outcome = Outcome::Done;
    let rows: Vec<PentagoRow> = run_pentago_counts(mem, 1, wanted, |row| println!("{row}"))?
        .iter()
        .map(|r| {
            if r.correct != r.n {
                outcome = Outcome::Failed;
            }
            PentagoRow {
                stones: r.stones,
                n: r.n,
                correct: r.correct,
                cpu_s: r.cpu_s,
                wall_s: r.wall_s,
                solve_mib: r.solve_bytes as f64 / (1 << 20) as f64,
            }
        })
        .collect();
    let irving = match &args.irving {
        Some(driver) => {
            let rounds = if args.quick { 1 } else { 3 };
            side_by_side(driver, rounds, mem, &wanted)?
        }
        None => SideBySide {
            measured: false,
            source: IRVING_STORED_SOURCE.to_string(),
            rows: IRVING_STORED
                .iter()
                .map(|&(stones, irving, inarow, mib)| SideRow {
                    stones,
                    irving_cpu_s: irving,
                    inarow_cpu_s: inarow,
                    irving_mib: mib,
                    agree: 0,
                    n: 0,
                })
                .collect(),
        },
    };
    let counts = if args.quick {
        "22"
    } else {
        "22, 20, 19 and 18"
    };
    let command = format!(
        "`inarow bench --suite pentago` (the midgame solver, 1 GiB budget, one thread) on the \
         positions of {counts} stones"
    );
    Ok((
        PentagoData {
            provenance: prov(command),
            rows,
            irving,
        },
        outcome,
    ))
}

/// Irving's driver and inarow alternating on each position of the stone-count table, `rounds`
/// times: the median CPU of a position for each.
fn side_by_side(
    driver: &Path,
    rounds: usize,
    mem: u64,
    wanted: &dyn Fn(u32) -> bool,
) -> Result<SideBySide, String> {
    let mut rows = Vec::new();
    for (stones, positions) in PENTAGO_STONES {
        if !wanted(stones) {
            continue;
        }
        let (mut his, mut ours, mut mib) = (Vec::new(), Vec::new(), 0f64);
        let mut agree = 0;
        for _ in 0..rounds {
            for &(name, value) in positions {
                let out = std::process::Command::new(driver)
                    .arg(name)
                    .output()
                    .map_err(|e| format!("cannot run '{}': {e}", driver.display()))?;
                // His answer is the line that starts with the board's name (his solver logs
                // other lines, such as its peak memory, before it).
                let stdout = String::from_utf8_lossy(&out.stdout).to_string();
                let text = stdout
                    .lines()
                    .find(|l| l.split_whitespace().next() == Some(name))
                    .unwrap_or(&stdout)
                    .to_string();
                let field = |key: &str| -> Option<f64> {
                    text.split_whitespace()
                        .find_map(|w| w.strip_prefix(key))
                        .and_then(|v| v.parse().ok())
                };
                let (Some(cpu), Some(his_value)) = (
                    field("cpu_s="),
                    text.split_whitespace()
                        .nth(1)
                        .and_then(|v| v.parse::<i32>().ok()),
                ) else {
                    return Err(format!(
                        "'{}' {name}: unexpected output '{}'",
                        driver.display(),
                        text.trim()
                    ));
                };
                his.push(cpu);
                // His workspace, not his peak RSS: a child keeps the peak of the process it was
                // forked from (ours) across exec, so its own peak is not his alone.
                mib = mib.max(field("workspace_MB=").unwrap_or(0.0));
                let solved = solve_pentago(name, mem, 1)?;
                ours.push(solved.cpu_s);
                agree += usize::from(his_value == solved.value && solved.value == value);
            }
        }
        let row = SideRow {
            stones,
            irving_cpu_s: median(his),
            inarow_cpu_s: median(ours),
            irving_mib: mib,
            agree,
            n: rounds * positions.len(),
        };
        println!(
            "report pentago side by side stones={stones} irving_cpu_s={:.3} inarow_cpu_s={:.3} agree={agree}/{}",
            row.irving_cpu_s, row.inarow_cpu_s, row.n
        );
        rows.push(row);
    }
    Ok(SideBySide {
        measured: true,
        source: format!(
            "measured by this run: `{} NAME` (his CPU and workspace as it prints them) and \
             inarow's midgame solver in this process, alternating, {rounds} round(s), medians",
            driver.display()
        ),
        rows,
    })
}

fn measure_elo(args: &ReportArgs, prov: &dyn Fn(String) -> Provenance) -> Result<EloData, String> {
    let games = args.games.unwrap_or(if args.quick { 2 } else { 20 });
    let think = args.think.unwrap_or(if args.quick { 0.01 } else { 0.2 });
    let start = match "connect4".parse::<GameSpec>()?.start() {
        inarow::game::AnyGame::Connect4(inarow::game::ConnectBoard::Standard(g)) => g,
        _ => return Err("connect4 is not the standard board".to_string()),
    };
    let mut matches = Vec::new();
    let mut ladder = vec![Rung {
        level: LADDER[0].to_string(),
        elo: 0.0,
        error: 0.0,
        bound: false,
    }];
    for pair in LADDER.windows(2) {
        let series = Series {
            a: pair[0],
            b: pair[1],
            games,
            think: Duration::from_secs_f64(think),
            opening: 2,
            seed: 1,
        };
        let bar = progress_bar(games as usize, &format!("{} vs {}", pair[0], pair[1]));
        let (tally, _) = play_series(start, &series, Options::default(), |_| bar.inc(1))?;
        bar.finish_and_clear();
        let (elo, error, bound) = match tally.elo() {
            Some((e, err)) => (e, err, false),
            None => {
                // All games one way: the difference is unbounded; half a game the other way
                // gives the least it could be.
                let n = f64::from(tally.games().max(1));
                let s = if tally.wins > 0 {
                    1.0 - 0.5 / n
                } else {
                    0.5 / n
                };
                (-400.0 * (1.0 / s - 1.0).log10(), 0.0, true)
            }
        };
        println!(
            "report elo {} vs {}: wins {} draws {} losses {} elo {elo:+.0} +/- {error:.0}{}",
            pair[0],
            pair[1],
            tally.wins,
            tally.draws,
            tally.losses,
            if bound { " (bound)" } else { "" }
        );
        let below = ladder.last().expect("the first rung").clone();
        ladder.push(Rung {
            level: pair[1].to_string(),
            // B is as far above A as A scored below B.
            elo: below.elo - elo,
            error: (below.error.powi(2) + error.powi(2)).sqrt(),
            bound: below.bound || bound,
        });
        matches.push(MatchRow {
            a: pair[0].to_string(),
            b: pair[1].to_string(),
            wins: tally.wins,
            draws: tally.draws,
            losses: tally.losses,
            elo,
            error,
            bound,
        });
    }
    let command = format!(
        "`inarow match --game connect4 A B --games {games} --time {think}` (seed 1, 2-ply random \
         openings, colours swapped in pairs) for each pair of neighbouring levels"
    );
    Ok(EloData {
        provenance: prov(command),
        game: "7x6 Connect Four".to_string(),
        seconds_per_move: think,
        games,
        matches,
        ladder,
    })
}

// ---------------------------------------------------------------------------------------------
// Plots.

/// Okabe and Ito's colour-blind-safe palette: blue, vermilion, bluish green, orange, reddish
/// purple, sky blue.
const PALETTE: [RGBColor; 6] = [
    RGBColor(0, 114, 178),
    RGBColor(213, 94, 0),
    RGBColor(0, 158, 115),
    RGBColor(230, 159, 0),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
];

const SIZE: (u32, u32) = (760, 480);
const FONT: &str = "sans-serif";

fn draw_error(e: impl std::fmt::Display) -> String {
    format!("cannot draw a plot: {e}")
}

/// The log axis range that holds `values` with some room, whole powers of ten.
fn log_range(values: impl Iterator<Item = f64>) -> std::ops::Range<f64> {
    let (mut lo, mut hi) = (f64::MAX, f64::MIN_POSITIVE);
    for v in values.filter(|v| *v > 0.0) {
        lo = lo.min(v);
        hi = hi.max(v);
    }
    if lo > hi {
        return 0.1..10.0;
    }
    let lo = 10f64.powf(lo.log10().floor());
    // At least two decades, so that at least three powers of ten are labelled.
    let hi = 10f64.powf(hi.log10().ceil()).max(lo * 100.0);
    // A little room beyond the powers of ten, so that both ends are drawn and labelled.
    lo / 1.25..hi * 1.25
}

/// Seconds as people read them: 12 ms, 3.4 s.
fn seconds(s: f64) -> String {
    if s == 0.0 {
        "0 s".into()
    } else if s < 1e-3 {
        format!("{:.0} us", s * 1e6)
    } else if s < 1.0 {
        let ms = s * 1e3;
        if ms < 10.0 {
            format!("{ms:.1} ms")
        } else {
            format!("{ms:.0} ms")
        }
    } else if s < 10.0 {
        format!("{s:.2} s")
    } else {
        format!("{s:.1} s")
    }
}

/// A log axis's label: 1 ms, 10 k, 1 M.
fn log_label(v: f64, unit_seconds: bool) -> String {
    // Only powers of ten are labelled: the ticks between them would crowd the axis.
    let exp = v.log10();
    if (exp - exp.round()).abs() > 1e-6 {
        return String::new();
    }
    if unit_seconds {
        return match v {
            v if v >= 1.0 => format!("{v:.0} s"),
            v if v >= 1e-3 => format!("{:.0} ms", v * 1e3),
            v => format!("{:.0} us", v * 1e6),
        };
    }
    match v {
        v if v >= 1e9 => format!("{:.0} G", v / 1e9),
        v if v >= 1e6 => format!("{:.0} M", v / 1e6),
        v if v >= 1e3 => format!("{:.0} k", v / 1e3),
        v => format!("{v}"),
    }
}

fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The legend box every plot draws, at `position` (a `SeriesLabelPosition`): a macro, as the
/// single and dual-axis charts are different types.
macro_rules! draw_legend {
    ($chart:ident, $position:ident) => {
        $chart
            .configure_series_labels()
            .position(SeriesLabelPosition::$position)
            .background_style(WHITE.mix(0.9))
            .border_style(BLACK.mix(0.5))
            .label_font((FONT, 14))
            .draw()
            .map_err(draw_error)?
    };
}

/// A line with a marker at each point (its legend a line): the marker shape differs from series
/// to series (circle, triangle, cross) so that the colours are not the only cue.
macro_rules! draw_points {
    ($chart:expr, $draw:ident, $points:expr, $index:expr, $label:expr) => {{
        let color = PALETTE[$index % PALETTE.len()];
        let points: Vec<(f64, f64)> = $points;
        let line = LineSeries::new(points.clone(), color.stroke_width(2));
        let stroke = color.stroke_width(2);
        // The legend shows the line and the marker, as the plot does (offsets from its place).
        let legend_line = move |x: i32, y: i32| {
            EmptyElement::at((x, y)) + PathElement::new(vec![(-8, 0), (12, 0)], stroke)
        };
        match $index % 3 {
            0 => {
                $chart
                    .$draw(points.iter().map(|&p| Circle::new(p, 4, color.filled())))
                    .map_err(draw_error)?;
                $chart
                    .$draw(line)
                    .map_err(draw_error)?
                    .label($label)
                    .legend(move |(x, y)| {
                        legend_line(x, y) + Circle::new((2, 0), 4, color.filled())
                    });
            }
            1 => {
                $chart
                    .$draw(
                        points
                            .iter()
                            .map(|&p| TriangleMarker::new(p, 6, color.filled())),
                    )
                    .map_err(draw_error)?;
                $chart
                    .$draw(line)
                    .map_err(draw_error)?
                    .label($label)
                    .legend(move |(x, y)| {
                        legend_line(x, y) + TriangleMarker::new((2, 0), 6, color.filled())
                    });
            }
            _ => {
                $chart
                    .$draw(points.iter().map(|&p| Cross::new(p, 5, stroke)))
                    .map_err(draw_error)?;
                $chart
                    .$draw(line)
                    .map_err(draw_error)?
                    .label($label)
                    .legend(move |(x, y)| legend_line(x, y) + Cross::new((2, 0), 5, stroke));
            }
        }
    }};
}

/// An axis label for whole numbers only (stones, cells): the ticks between them stay bare.
fn whole(v: &f64) -> String {
    if (v - v.round()).abs() < 1e-6 {
        format!("{v:.0}")
    } else {
        String::new()
    }
}

fn plot_cube(c: &CubeCurve) -> Result<String, String> {
    let xs: Vec<f64> = c.rows.iter().map(|r| f64::from(r.stones)).collect();
    let (x0, x1) = (
        xs.iter().copied().fold(f64::MAX, f64::min) - 1.0,
        xs.iter().copied().fold(f64::MIN, f64::max) + 1.0,
    );
    let y1 = log_range(c.rows.iter().map(|r| r.seconds));
    let y2 = log_range(c.rows.iter().map(|r| r.mean_nodes));
    let count = c.rows.first().map_or(0, |r| r.count);
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("Connect Four 3D: {count} positions of N stones, generated and solved"),
                (FONT, 20),
            )
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .right_y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y1.log_scale())
            .map_err(draw_error)?
            .set_secondary_coord(x0..x1, y2.log_scale());
        chart
            .configure_mesh()
            .x_desc("stones on the board (fewer = harder)")
            .y_desc(format!("seconds for all {count} (log)"))
            .x_label_formatter(&whole)
            .y_label_formatter(&|v| log_label(*v, true))
            .label_style((FONT, 14))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(draw_error)?;
        chart
            .configure_secondary_axes()
            .y_desc("mean nodes a position (log)")
            .y_label_formatter(&|v| log_label(*v, false))
            .label_style((FONT, 14))
            .draw()
            .map_err(draw_error)?;
        let secs: Vec<(f64, f64)> = c
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.seconds))
            .collect();
        let nodes: Vec<(f64, f64)> = c
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.mean_nodes))
            .collect();
        draw_points!(chart, draw_series, secs, 0, "seconds for all (left)");
        draw_points!(chart, draw_secondary_series, nodes, 1, "mean nodes (right)");
        draw_legend!(chart, UpperRight);
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

fn plot_sizes(s: &Sizes, nodes: bool) -> Result<String, String> {
    let value = |r: &SizeRow| {
        if nodes { r.nodes as f64 } else { r.seconds }
    };
    let cells: Vec<f64> = s.rows.iter().map(|r| f64::from(r.cells)).collect();
    let x0 = cells.iter().copied().fold(f64::MAX, f64::min) - 1.0;
    let x1 = cells.iter().copied().fold(f64::MIN, f64::max) + 1.0;
    let y = log_range(s.rows.iter().map(value));
    let mut heights: Vec<u32> = s.rows.iter().map(|r| r.height).collect();
    heights.sort_unstable();
    heights.dedup();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let what = if nodes { "nodes" } else { "seconds" };
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!("Connect Four, empty boards: {what} to the exact score"),
                (FONT, 20),
            )
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y.log_scale())
            .map_err(draw_error)?;
        chart
            .configure_mesh()
            .x_desc("cells (width x height)")
            .y_desc(if nodes {
                "nodes (log)"
            } else {
                "seconds, one thread (log)"
            })
            .x_label_formatter(&whole)
            .y_label_formatter(&|v| log_label(*v, !nodes))
            .label_style((FONT, 14))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(draw_error)?;
        for (i, &h) in heights.iter().enumerate() {
            let points: Vec<(f64, f64)> = s
                .rows
                .iter()
                .filter(|r| r.height == h)
                .map(|r| (f64::from(r.cells), value(r)))
                .collect();
            draw_points!(chart, draw_series, points, i, format!("height {h}"));
        }
        // Each point named, so that a reader can find a board.
        chart
            .draw_series(s.rows.iter().map(|r| {
                Text::new(
                    format!("{}x{}", r.width, r.height),
                    (f64::from(r.cells) + 0.3, value(r)),
                    (FONT, 11).into_font().color(&BLACK.mix(0.7)),
                )
            }))
            .map_err(draw_error)?;
        draw_legend!(chart, UpperLeft);
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

fn plot_pentago(p: &PentagoData) -> Result<String, String> {
    let mut stones: Vec<f64> = p.rows.iter().map(|r| f64::from(r.stones)).collect();
    stones.extend(p.irving.rows.iter().map(|r| f64::from(r.stones)));
    let x0 = stones.iter().copied().fold(f64::MAX, f64::min) - 0.5;
    let x1 = stones.iter().copied().fold(f64::MIN, f64::max) + 0.5;
    let y = log_range(
        p.rows
            .iter()
            .map(|r| r.cpu_s)
            .chain(p.irving.rows.iter().map(|r| r.irving_cpu_s))
            .chain(p.irving.rows.iter().map(|r| r.inarow_cpu_s)),
    );
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                "Pentago midgame solver: CPU seconds a position (median), one thread",
                (FONT, 20),
            )
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(x0..x1, y.log_scale())
            .map_err(draw_error)?;
        chart
            .configure_mesh()
            .x_desc("stones on the board (fewer = harder)")
            .y_desc("CPU seconds a position (log)")
            .x_label_formatter(&whole)
            .y_label_formatter(&|v| log_label(*v, true))
            .label_style((FONT, 14))
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(draw_error)?;
        let ours: Vec<(f64, f64)> = p
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.cpu_s))
            .collect();
        draw_points!(chart, draw_series, ours, 0, "inarow, stone-count table");
        let tag = if p.irving.measured {
            "measured side by side"
        } else {
            "stored figures"
        };
        let his: Vec<(f64, f64)> = p
            .irving
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.irving_cpu_s))
            .collect();
        draw_points!(chart, draw_series, his, 1, format!("Irving ({tag})"));
        let beside: Vec<(f64, f64)> = p
            .irving
            .rows
            .iter()
            .map(|r| (f64::from(r.stones), r.inarow_cpu_s))
            .collect();
        draw_points!(
            chart,
            draw_series,
            beside,
            2,
            format!("inarow beside Irving ({tag})")
        );
        draw_legend!(chart, UpperRight);
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

fn plot_elo(e: &EloData) -> Result<String, String> {
    let n = e.ladder.len();
    let lo = e.ladder.iter().map(|r| r.elo - r.error).fold(0.0, f64::min);
    let hi = e.ladder.iter().map(|r| r.elo + r.error).fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.1).max(50.0);
    let names: Vec<String> = e.ladder.iter().map(|r| r.level.clone()).collect();
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, SIZE).into_drawing_area();
        root.fill(&WHITE).map_err(draw_error)?;
        let mut chart = ChartBuilder::on(&root)
            .caption(
                format!(
                    "Engines' Elo ladder, {} ({} s a move, {} games a match)",
                    e.game, e.seconds_per_move, e.games
                ),
                (FONT, 20),
            )
            .margin(12)
            .x_label_area_size(45)
            .y_label_area_size(70)
            .build_cartesian_2d(-0.5..(n as f64 - 0.5), (lo - pad)..(hi + pad))
            .map_err(draw_error)?;
        let label = |v: &f64| {
            let i = v.round();
            if (v - i).abs() < 1e-6 && i >= 0.0 && (i as usize) < names.len() {
                names[i as usize].clone()
            } else {
                String::new()
            }
        };
        chart
            .configure_mesh()
            .x_desc("engine level (play --engine), weakest first")
            .y_desc("Elo above random (95% interval)")
            .x_labels(2 * n + 1)
            .x_label_formatter(&label)
            .y_label_formatter(&|v| format!("{v:+.0}"))
            .label_style((FONT, 14))
            .disable_x_mesh()
            .light_line_style(WHITE.mix(0.0))
            .draw()
            .map_err(draw_error)?;
        let color = PALETTE[0];
        let bound_color = PALETTE[1];
        chart
            .draw_series(e.ladder.iter().enumerate().map(|(i, r)| {
                ErrorBar::new_vertical(
                    i as f64,
                    r.elo - r.error,
                    r.elo,
                    r.elo + r.error,
                    color.stroke_width(2),
                    12,
                )
            }))
            .map_err(draw_error)?;
        chart
            .draw_series(
                e.ladder
                    .iter()
                    .enumerate()
                    .filter(|(_, r)| !r.bound)
                    .map(|(i, r)| Circle::new((i as f64, r.elo), 5, color.filled())),
            )
            .map_err(draw_error)?
            .label("Elo, 95% interval")
            .legend(move |(x, y)| Circle::new((x, y), 5, color.filled()));
        if e.ladder.iter().any(|r| r.bound) {
            chart
                .draw_series(
                    e.ladder
                        .iter()
                        .enumerate()
                        .filter(|(_, r)| r.bound)
                        .map(|(i, r)| {
                            TriangleMarker::new((i as f64, r.elo), 7, bound_color.filled())
                        }),
                )
                .map_err(draw_error)?
                .label("at least (a match below was all one way)")
                .legend(move |(x, y)| TriangleMarker::new((x, y), 7, bound_color.filled()));
        }
        draw_legend!(chart, UpperLeft);
        root.present().map_err(draw_error)?;
    }
    Ok(svg)
}

// ---------------------------------------------------------------------------------------------
// Files and provenance.

/// Writes `bytes` to a temporary file beside `path` and renames it over `path`, so that a
/// reader (or a stopped run) never leaves a half-written page, plot or data file.
fn write_file(path: &Path, bytes: &[u8]) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create '{}': {e}", dir.display()))?;
    }
    let mut tmp = path.as_os_str().to_owned();
    tmp.push(format!(".tmp{}", std::process::id()));
    let tmp = PathBuf::from(tmp);
    let written = std::fs::write(&tmp, bytes).and_then(|_| std::fs::rename(&tmp, path));
    written.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        format!("cannot write '{}': {e}", path.display())
    })
}

/// The commit the report runs on, `-dirty` with uncommitted changes to tracked files; `unknown`
/// outside a git checkout.
fn commit() -> String {
    let git = |args: &[&str]| {
        std::process::Command::new("git")
            .args(args)
            .output()
            .ok()
            .filter(|o| o.status.success())
            .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
    };
    match git(&["rev-parse", "--short", "HEAD"]) {
        Some(hash) => {
            let dirty = git(&["status", "--porcelain", "--untracked-files=no"])
                .is_some_and(|s| !s.is_empty());
            if dirty { format!("{hash}-dirty") } else { hash }
        }
        None => "unknown".to_string(),
    }
}

/// Today's UTC date, YYYY-MM-DD (the civil date of the days since 1970; Hinnant's algorithm).
fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "# Title\n\nhand text\n<!-- report:elo -->\nold\n<!-- /report:elo -->\n\
                        after\n<!-- report:sizes -->\n<!-- /report:sizes -->\nend\n";

    #[test]
    fn blocks_are_rewritten_and_nothing_else() {
        let blocks = [("sizes", "S1\nS2".to_string()), ("elo", "E".to_string())];
        let out = rewrite_blocks(PAGE, &blocks, "p.md").unwrap();
        assert_eq!(
            out,
            "# Title\n\nhand text\n<!-- report:elo -->\nE\n<!-- /report:elo -->\n\
             after\n<!-- report:sizes -->\nS1\nS2\n<!-- /report:sizes -->\nend\n"
        );
        // Rewriting again gives the same page.
        assert_eq!(rewrite_blocks(&out, &blocks, "p.md").unwrap(), out);
    }

    #[test]
    fn a_missing_end_marker_is_one_line_naming_it() {
        let page = "a\n<!-- report:elo -->\nold\n";
        let e = rewrite_blocks(page, &[("elo", "E".into())], "p.md").unwrap_err();
        assert_eq!(
            e,
            "p.md:2: <!-- report:elo --> has no end marker <!-- /report:elo -->"
        );
        let e = rewrite_blocks(page, &[("pentago", "P".into())], "p.md").unwrap_err();
        assert!(e.contains("no <!-- report:pentago --> marker"), "{e}");
        assert!(!e.contains('\n'));
        let twice = "<!-- report:elo --><!-- /report:elo -->\n<!-- report:elo -->";
        let e = rewrite_blocks(twice, &[("elo", "E".into())], "p.md").unwrap_err();
        assert_eq!(e, "p.md:2: a second <!-- report:elo --> marker");
    }

    #[test]
    fn labels_and_numbers() {
        assert_eq!(thousands(1_035_299), "1,035,299");
        assert_eq!(thousands(12), "12");
        assert_eq!(seconds(0.0123), "12 ms");
        assert_eq!(seconds(480.1), "480.1 s");
        assert_eq!(log_label(1e6, false), "1 M");
        assert_eq!(log_label(2e6, false), "");
        assert_eq!(log_label(1e-3, true), "1 ms");
        assert_eq!(log_label(10.0, true), "10 s");
        let r = log_range([0.02, 3.0].into_iter());
        assert!(
            (r.start - 0.008).abs() < 1e-12 && (r.end - 12.5).abs() < 1e-9,
            "{r:?}"
        );
        let r = log_range([2.0, 3.0].into_iter());
        assert!(
            (r.start - 0.8).abs() < 1e-12 && (r.end - 125.0).abs() < 1e-9,
            "{r:?}"
        );
        assert_eq!(today().len(), 10);
    }
}
