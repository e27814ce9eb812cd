//! Pentago's stone-count table (`inarow bench --suite pentago`, and the report's Pentago
//! section): Irving's positions solved by the midgame solver, with the CPU time and memory the
//! process spent on them.

use super::tables::PENTAGO_STONES;
use inarow::Error;
use inarow::engine::pentago_midgame;
use inarow::game::{Notation, Pentago};
use inarow::limits::Stop;
use std::time::Instant;

/// One stone count of [`PENTAGO_STONES`]: medians of the CPU and wall time a position took,
/// the most memory a solve held, and the process's peak resident memory once the count is
/// done.
#[derive(Clone, Debug, PartialEq)]
pub struct StoneRow {
    /// Stones on the boards.
    pub stones: u32,
    /// Positions solved.
    pub n: usize,
    /// Positions whose value was the expected one.
    pub correct: usize,
    /// Median CPU seconds of a position (every thread's, user and system).
    pub cpu_s: f64,
    /// Median wall seconds of a position.
    pub wall_s: f64,
    /// The most bytes a solve of the count held.
    pub solve_bytes: u64,
    /// The process's peak resident memory so far, in bytes (0 where the system does not say).
    pub peak_rss: u64,
}

impl std::fmt::Display for StoneRow {
    fn fmt(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        write!(
            f,
            "pentago stones={} n={} correct={} cpu_s={:.3} wall_s={:.3} solve_mib={:.1} \
             peak_rss_mib={:.1}",
            self.stones,
            self.n,
            self.correct,
            self.cpu_s,
            self.wall_s,
            self.solve_bytes as f64 / (1 << 20) as f64,
            self.peak_rss as f64 / (1 << 20) as f64
        )
    }
}

/// The CPU seconds the process has used (user and system, every thread) and its peak resident
/// bytes; zeros where the system does not say.
fn process_usage() -> (f64, u64) {
    #[cfg(unix)]
    {
        // SAFETY: getrusage fills the struct it is given; all-zero bytes are a valid rusage.
        let mut u: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: a valid pointer to a rusage.
        if unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) } == 0 {
            let seconds = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
            // Linux gives the peak in KiB.
            return (
                seconds(u.ru_utime) + seconds(u.ru_stime),
                u.ru_maxrss as u64 * 1024,
            );
        }
    }
    (0.0, 0)
}

/// The process's peak resident memory so far, in bytes (0 where the system does not say).
fn peak_rss() -> u64 {
    process_usage().1
}

/// The median of `v` (0 when empty).
pub fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => 0.0,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// One Pentago position solved by the midgame solver: its value for the side to move, the CPU
/// and wall seconds it took and the most bytes the solve held.
#[derive(Clone, Debug, PartialEq)]
pub struct PentagoSolve {
    /// The value for the side to move (1 win, 0 draw, -1 loss).
    pub value: i32,
    /// CPU seconds of the process during the solve (every thread's, user and system).
    pub cpu_s: f64,
    /// Wall seconds of the solve.
    pub wall_s: f64,
    /// The most bytes the solve held.
    pub bytes: u64,
}

/// Solves the Pentago board `name` (Irving's board name) with the midgame solver within
/// `mem_bytes` on `threads` threads.
///
/// # Errors
/// [`Error::Input`] for a malformed name, [`Error::Memory`] for a position the solver refuses
/// (a budget below what it needs, or beyond the machine), [`Error::Search`] for a solve
/// stopped by a limit.
pub fn solve_pentago(name: &str, mem_bytes: u64, threads: usize) -> Result<PentagoSolve, Error> {
    let pos = match Pentago::new().parse_board(name) {
        Some(Ok(pos)) => pos,
        _ => return Err(Error::Input(format!("bad Pentago board {name}"))),
    };
    let (cpu0, _) = process_usage();
    let began = Instant::now();
    let answer = pentago_midgame::solve(&pos, mem_bytes, threads, Default::default(), |_, _| {})
        .map_err(|stop| {
            let message = format!("{name}: {stop}");
            match stop {
                Stop::Memory | Stop::MemoryNeeded(_) | Stop::BeyondMachine { .. } => {
                    Error::Memory(message)
                }
                _ => Error::Search(message),
            }
        })?;
    Ok(PentagoSolve {
        value: answer.value,
        wall_s: began.elapsed().as_secs_f64(),
        cpu_s: process_usage().0 - cpu0,
        bytes: answer.bytes,
    })
}

/// The stone-count table on the counts that `wanted` accepts: every position of
/// [`PENTAGO_STONES`] solved by the midgame solver within `mem_bytes` on `threads` threads, its
/// value checked; `on_row` is told of each count as it ends.
///
/// # Errors
/// As [`solve_pentago`]: a position the solver refuses (a budget below what it needs) or a
/// malformed name.
pub fn run_pentago_counts(
    mem_bytes: u64,
    threads: usize,
    wanted: impl Fn(u32) -> bool,
    mut on_row: impl FnMut(&StoneRow),
) -> Result<Vec<StoneRow>, Error> {
    let mut rows = Vec::new();
    for (stones, positions) in PENTAGO_STONES {
        if !wanted(stones) {
            continue;
        }
        let (mut cpu, mut wall) = (Vec::new(), Vec::new());
        let (mut correct, mut solve_bytes) = (0, 0);
        for &(name, value) in positions {
            let solved = solve_pentago(name, mem_bytes, threads)?;
            wall.push(solved.wall_s);
            cpu.push(solved.cpu_s);
            correct += usize::from(solved.value == value);
            solve_bytes = solve_bytes.max(solved.bytes);
        }
        let row = StoneRow {
            stones,
            n: positions.len(),
            correct,
            cpu_s: median(cpu),
            wall_s: median(wall),
            solve_bytes,
            peak_rss: peak_rss(),
        };
        on_row(&row);
        rows.push(row);
    }
    Ok(rows)
}
