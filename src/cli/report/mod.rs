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
//!
//! This file holds the command, its data file and the files it writes; `measure` runs the
//! benchmarks, `plot` draws the plots and `page` writes the page's blocks.

mod measure;
mod page;
mod plot;

use super::io::Outcome;
use clap::{Args, ValueEnum};
use measure::{measure_cube, measure_elo, measure_pentago, measure_sizes};
use page::{
    block_cube, block_elo, block_pentago, block_sizes, find_blocks, plots_link, rewrite_blocks,
};
use plot::{plot_cube, plot_elo, plot_pentago, plot_sizes};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Instant;

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

    #[test]
    fn today_is_a_date() {
        assert_eq!(today().len(), 10);
    }
}
