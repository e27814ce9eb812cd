//! The measuring runs behind each section: the cube's difficulty curve, the empty Connect Four
//! boards, Pentago's stone-count table (beside Irving's solver when asked) and the Elo ladder.

use super::{
    CubeCurve, CubeRow, EloData, MatchRow, PentagoData, PentagoRow, Provenance, ReportArgs, Rung,
    SideBySide, SideRow, SizeRow, Sizes,
};
use crate::cli::bench::pentago::{median, run_pentago_counts, solve_pentago};
use crate::cli::bench::tables::PENTAGO_STONES;
use crate::cli::io::{Outcome, progress_bar};
use crate::cli::matches::{Series, play_series};
use crate::cli::positions::reasonable_positions;
use inarow::game::Player;
use inarow::session::Level;
use inarow::session::{self, Ask, BookSource, Settings};
use std::path::Path;
use std::time::{Duration, Instant};

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

pub(super) fn measure_cube(
    args: &ReportArgs,
    prov: &dyn Fn(String) -> Provenance,
) -> Result<(CubeCurve, Outcome), String> {
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
    let game = session::game("cube")?;
    let settings = Settings {
        table_mb: tt_mb,
        book: BookSource::Off,
        ..Settings::default()
    };
    let mut agent = game.agent(&game.fitted(settings), 1)?;
    agent.ready();
    let mut rows = Vec::new();
    let mut outcome = Outcome::Done;
    for &n in &stones {
        // The seed of `gen --seed N` for the count N, as the hand-run table used.
        let lines = reasonable_positions(game.as_ref(), n, count, u64::from(n))?;
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
            agent.reset();
            // The two-valued question for the first player, as `gen` asks it.
            let first_to_move = line.to_move() == Player::First;
            let ask = Ask {
                win_only: first_to_move,
                ..Ask::default()
            };
            let report = agent.solve(line.as_ref(), &ask)?;
            let s = report.seconds;
            row.seconds += s;
            row.max_seconds = row.max_seconds.max(s);
            nodes += report.nodes;
            row.done += 1;
            let first_wins = match report.score {
                Some(v) if first_to_move => v > 0,
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

pub(super) fn measure_sizes(
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
    // Solved from scratch: no book, one thread, a 64 MiB table.
    let settings = Settings {
        table_mb: 64,
        threads: 1,
        book: BookSource::Off,
        ..Settings::default()
    };
    let mut rows = Vec::new();
    let mut outcome = Outcome::Done;
    let bar = progress_bar(boards.len(), "sizes");
    for (width, height) in boards {
        let rules = session::game(&format!("connect4:{width}x{height}"))?;
        let empty = rules.read("")?;
        let solution = rules
            .agent(&settings, 0)?
            .solve(empty.as_ref(), &Ask::default())?;
        let report = (
            solution.score,
            solution.nodes,
            Duration::from_secs_f64(solution.seconds),
        );
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

pub(super) fn measure_pentago(
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

pub(super) fn measure_elo(
    args: &ReportArgs,
    prov: &dyn Fn(String) -> Provenance,
) -> Result<EloData, String> {
    let games = args.games.unwrap_or(if args.quick { 2 } else { 20 });
    let think = args.think.unwrap_or(if args.quick { 0.01 } else { 0.2 });
    let rules = inarow::session::game("connect4")?;
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
        let (tally, _) = play_series(rules.as_ref(), &series, |_| bar.inc(1))?;
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
