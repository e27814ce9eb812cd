//! Benchmarks: positions with known scores, solved with the table cleared before each and
//! tallied into one summary line; the built-in suite behind `inarow bench` and the bench
//! signature; and the full suite (`inarow bench --suite full`), the long checks that are too
//! slow for the test loop, each with a pass/fail line.

mod analysis;
mod convert;
pub mod positions;

pub use analysis::{
    ANALYSIS_GAMES, AnalysisTimes, MIDGAME_SETS, PENTAGO_ROOT, pentago_analysis, run_analysis,
};
pub use convert::{CONVERT_THINK, Conversion, WON_POSITIONS, run_conversions};

use super::{Engine, Options, Report};
use crate::error::Error;
use crate::game::{
    Game, GameLine, GameSpec, GravityGeometry, Notation, Pentago, Player, Tactics, one_line,
    read_position,
};
use crate::limits::{Instant, Limits, Stop};
use crate::search::cover;
pub use crate::search::cover::Rule as VictorRule;
use crate::with_game;
use std::collections::HashMap;
use std::path::Path;
use std::time::Duration;

/// The built-in suite: empty boards with their published values (Tromp; the size table in
/// `shared/data/tables/connect4_sizes.tsv`), every board of up to 35 cells that solves in about a
/// second. Its total node count is the bench signature: any change of search behaviour shows.
pub const BUILTIN_SUITE: [(&str, i32); 10] = [
    ("connect4:4x4", 0),
    ("connect4:5x4", 0),
    ("connect4:6x4", -1),
    ("connect4:7x4", 0),
    ("connect4:4x5", 0),
    ("connect4:5x5", 0),
    ("connect4:6x5", 0),
    ("connect4:4x6", 0),
    ("connect4:5x6", 0),
    ("connect4:4x7", 0),
];

/// The totals of one benchmark file or suite.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Tally {
    /// Lines counted, solved or not.
    pub n: usize,
    /// Positions solved to the expected score.
    pub correct: usize,
    /// The solving time of every position, in microseconds.
    pub total_us: f64,
    /// The longest solving time of one position, in microseconds.
    pub max_us: f64,
    /// Nodes searched, over every position.
    pub nodes: u64,
    /// Lines that could not be solved at all (malformed, illegal): bad input, not a wrong
    /// answer.
    pub bad_lines: usize,
}

impl Tally {
    /// Counts one solved position; returns whether its score was the expected one.
    pub fn record<M>(&mut self, report: &Report<M>, expected: i32) -> bool {
        let seconds = report.elapsed.as_secs_f64();
        self.record_solve(report.score, report.nodes, seconds, expected)
    }

    /// Counts one solve by its score, nodes and seconds; returns whether its score was the
    /// expected one.
    pub fn record_solve(
        &mut self,
        score: Option<i32>,
        nodes: u64,
        seconds: f64,
        expected: i32,
    ) -> bool {
        let us = seconds * 1e6;
        self.n += 1;
        self.total_us += us;
        self.max_us = self.max_us.max(us);
        self.nodes += nodes;
        let right = score == Some(expected);
        if right {
            self.correct += 1;
        }
        right
    }

    /// Counts a line that could not be solved at all (malformed, illegal).
    pub fn record_bad_line(&mut self) {
        self.n += 1;
        self.bad_lines += 1;
    }

    /// `NAME n=1000 correct=1000 mean_us=8.7 mean_nodes=51.3 max_us=225`
    pub fn summary(&self, name: &str) -> String {
        let n = self.n.max(1) as f64;
        format!(
            "{name} n={} correct={} mean_us={:.1} mean_nodes={:.1} max_us={:.0}",
            self.n,
            self.correct,
            self.total_us / n,
            self.nodes as f64 / n,
            self.max_us
        )
    }
}

/// Solves the built-in suite, each board with its own engine (the options' table size and
/// techniques apply); `on_position` is told of each board as it is done.
///
/// # Errors
/// As [`Engine::try_new`], when `options` do not fit a board of the suite, or its table cannot
/// be allocated.
pub fn run_builtin(
    options: &Options,
    limits: &Limits,
    mut on_position: impl FnMut(&str, bool),
) -> Result<Tally, Error> {
    let mut tally = Tally::default();
    for (spec, expected) in BUILTIN_SUITE {
        let game: GameSpec = spec.parse()?;
        let expected = if options.weak {
            expected.signum()
        } else {
            expected
        };
        let right = with_game!(game.start(), start => {
            let mut engine = Engine::try_new(&start, options.clone())?;
            // Its table touched before the clock runs, as in every timed benchmark.
            engine.ready();
            let report = engine.solve(&start, limits);
            tally.record(&report, expected)
        });
        on_position(spec, right);
    }
    Ok(tally)
}

/// What a benchmark line expects.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Expected {
    /// A score for the side to move (compared by its sign when the engine gives only that).
    Score(i32),
    /// `win` / `nowin`: whether the first player, who moves, wins (a draw is no): the
    /// two-valued question.
    FirstWins(bool),
}

impl Expected {
    fn parse(token: &str) -> Option<Expected> {
        match token {
            "win" => Some(Expected::FirstWins(true)),
            "nowin" => Some(Expected::FirstWins(false)),
            _ => token.parse().ok().map(Expected::Score),
        }
    }
}

/// Solves the `MOVES EXPECTED` lines of a benchmark file's `text` (the first `limit` of them),
/// clearing the table before each; `name` prefixes the place of each problem
/// (`NAME:LINE: ...`, for a wrong score or a malformed line). `on_line` is called after each
/// line. EXPECTED is the score of the side to move (compared by its sign when the engine gives
/// only that), or `win` / `nowin` (the first player, to move, wins or not: the engine's
/// two-valued question, as in `shared/data/cube`).
pub fn bench_text<G: Tactics + Notation>(
    start: G,
    engine: &mut Engine<G>,
    name: &str,
    text: &str,
    limit: Option<usize>,
    limits: &Limits,
    mut on_line: impl FnMut(),
) -> (Tally, Vec<String>) {
    let weak = engine.is_weak();
    // Touched before the clock runs: the first touch of a page is no part of a search's time.
    engine.ready();
    let mut tally = Tally::default();
    let mut problems = Vec::new();
    let lines = text
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty())
        .take(limit.unwrap_or(usize::MAX));
    for (index, line) in lines {
        on_line();
        let place = format!("{name}:{}", index + 1);
        let mut fields = line.split_whitespace();
        let (moves, expected) = (fields.next().unwrap_or(""), fields.next());
        let text = if moves == "-" { "" } else { moves };
        let parsed = match expected.and_then(Expected::parse) {
            Some(v) => read_position(start, text)
                .map_err(|e| e.to_string())
                .and_then(|(root, pos, played)| {
                    if matches!(v, Expected::FirstWins(_)) && pos.side_to_move() != Player::First {
                        return Err(format!(
                            "'{line}': win / nowin need the first player to move"
                        ));
                    }
                    Ok((GameLine::from_moves(root, &played), v))
                }),
            _ => Err(format!(
                "bad line '{line}': expected MOVES SCORE or MOVES win|nowin"
            )),
        };
        let (line, expected) = match parsed {
            Ok(p) => p,
            Err(e) => {
                problems.push(one_line(&format!("{place}: {e}")));
                tally.record_bad_line();
                continue;
            }
        };
        engine.reset();
        let (report, expected) = match expected {
            Expected::Score(v) => (
                engine.solve(&line, limits),
                if weak { v.signum() } else { v },
            ),
            Expected::FirstWins(w) => (engine.wins(&line, limits), w as i32),
        };
        if !tally.record(&report, expected) {
            let got = match (report.score, report.stopped) {
                (Some(s), _) => format!("got {s}"),
                (None, Some(stopped)) => stopped.to_string(),
                (None, None) => "no score".to_string(),
            };
            problems.push(one_line(&format!(
                "{place}: {moves} expected {expected} {got}"
            )));
        }
    }
    (tally, problems)
}

/// Empty Connect Four boards of the full suite with their published exact scores (Tromp; the
/// size table `shared/data/tables/connect4_sizes.tsv`): the largest the test loop once solved.
pub const FULL_BOARDS: [(&str, i32); 5] = [
    ("connect4:5x7", 0),
    ("connect4:7x5", 0),
    ("connect4:8x4", -1),
    ("connect4:6x6", -1),
    ("connect4", 1),
];

/// Pons' public 7x6 sets of the full suite (files under `connect4/` of the public data) and how
/// many of their lines it solves: every line of the easier ones, the first 200 and 20 of the
/// harder ones.
pub const FULL_SETS: [(&str, usize); 6] = [
    ("Test_L3_R1", 1000),
    ("Test_L2_R1", 1000),
    ("Test_L2_R2", 1000),
    ("Test_L1_R1", 1000),
    ("Test_L1_R2", 200),
    ("Test_L1_R3", 20),
];

/// The Connect Four 3D difficulty sets of the full suite (files under `cube/` of the public
/// data, `win` / `nowin` for the first player to move), every line.
pub const FULL_CUBE_SETS: [&str; 2] = ["gravity_36.txt", "gravity_32.txt"];

/// The PopOut boards of the full suite with their published values for the first player
/// (popout-thesis Table 8; `shared/data/tables/popout_values.tsv`), solved with the default
/// method and no flag, each within [`POPOUT_SECONDS`].
pub const FULL_POPOUT: [(&str, i32); 12] = [
    ("popout:4x4", 0),
    ("popout:4x5", 1),
    ("popout:4x6", 1),
    ("popout:5x4", 0),
    ("popout:5x5", 1),
    ("popout:5x6", 1),
    ("popout:6x4", 1),
    ("popout:6x5", 1),
    ("popout:6x6", 1),
    ("popout:7x4", 1),
    ("popout:7x5", 1),
    ("popout:7x6", 1),
];

/// The most time a PopOut board of the full suite may take.
pub const POPOUT_SECONDS: u64 = 30;

/// What one check of the full suite found.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// The check found what it expected.
    Pass,
    /// The check found something else, or could not run its data.
    Fail,
    /// Not run: its data is not there.
    Skip,
}

/// One line of the full suite: `PASS NAME DETAIL`.
#[derive(Clone, Debug)]
pub struct Check {
    /// Whether the check passed.
    pub verdict: Verdict,
    /// What was checked: a file or a board.
    pub name: String,
    /// What the check found, in a few words.
    pub detail: String,
}

impl std::fmt::Display for Check {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let word = match self.verdict {
            Verdict::Pass => "PASS",
            Verdict::Fail => "FAIL",
            Verdict::Skip => "SKIP",
        };
        write!(f, "{word} {} {}", self.name, self.detail)
    }
}

fn check(name: &str, passed: bool, detail: String) -> Check {
    Check {
        verdict: if passed { Verdict::Pass } else { Verdict::Fail },
        name: name.to_string(),
        detail,
    }
}

/// Runs the full suite: the empty boards of [`FULL_BOARDS`] (exact and weak, with `threads`
/// threads), the public sets of [`FULL_SETS`] and [`FULL_CUBE_SETS`] found under `data` (the
/// public data folder; one thread, the table cleared before each position, as the published
/// timings), the PopOut boards of [`FULL_POPOUT`] with the default method, and Irving's
/// 18-stone Pentago benchmark ([`PENTAGO_18`]). `on_check` is told of each check as it
/// ends.
pub fn run_full(data: &Path, threads: usize, mut on_check: impl FnMut(&Check)) -> Vec<Check> {
    let mut checks = Vec::new();
    let mut done = |c: Check| {
        on_check(&c);
        checks.push(c);
    };
    for (spec, expected) in FULL_BOARDS {
        done(empty_board(spec, expected, threads));
    }
    for (set, lines) in FULL_SETS {
        done(public_set(
            data,
            "connect4",
            &format!("connect4/{set}"),
            lines,
        ));
    }
    for set in FULL_CUBE_SETS {
        done(public_set(data, "cube", &format!("cube/{set}"), 100));
    }
    for (spec, expected) in FULL_POPOUT {
        done(popout_board(spec, expected));
    }
    done(pentago_benchmark(data));
    done(conversions());
    done(victor_board());
    checks
}

/// Victor's threat rules on every position of 5x4 (the tests run 4x4 and 4x5): no claim the
/// exact value contradicts, every witness accepted by the checker.
fn victor_board() -> Check {
    let geometry = GravityGeometry::grid(5, 4, 4).expect("a valid grid");
    let a = cover::audit::audit(&geometry, &cover::Options::default(), false);
    check(
        "victor rules on every 5x4 position",
        a.false_claims == 0 && a.rejected_witnesses == 0 && a.claims > 0,
        format!(
            "positions={} claims={} false={} rejected={}",
            a.positions, a.claims, a.false_claims, a.rejected_witnesses
        ),
    )
}

/// Victor's threat rules against exhaustive values on each board of
/// [`cover::audit::boards`], with the positions each rule is needed for: each board's name,
/// its audit and its seconds, as each ends.
pub fn run_victor(
    mut on_board: impl FnMut(&str, &cover::audit::Audit, f64),
) -> cover::audit::Audit {
    let mut total = cover::audit::Audit::default();
    for (name, geometry) in cover::audit::boards() {
        let began = std::time::Instant::now();
        let a = cover::audit::audit(&geometry, &cover::Options::default(), true);
        on_board(name, &a, began.elapsed().as_secs_f64());
        a.add_to(&mut total);
    }
    total
}

/// The default engine keeps every won position of [`WON_POSITIONS`] won at about a second a
/// move against perfect replies.
fn conversions() -> Check {
    let name = "engine converts won 7x6 positions at 1 s a move";
    match run_conversions(|_| {}) {
        Ok(games) => {
            let won = games.iter().filter(|g| g.won).count();
            let lost: Vec<_> = games
                .iter()
                .filter(|g| !g.won)
                .map(|g| g.position.clone())
                .collect();
            let longest = games.iter().map(|g| g.longest_move).fold(0.0, f64::max);
            check(
                name,
                won == games.len(),
                format!(
                    "{won} of {} won, longest move {longest:.2} s{}",
                    games.len(),
                    if lost.is_empty() {
                        String::new()
                    } else {
                        format!(", not won: {}", lost.join(" "))
                    }
                ),
            )
        }
        Err(e) => check(name, false, e.to_string()),
    }
}

/// Irving's 18-stone midgame benchmark (under the public data): its root and the positions
/// one turn below it, with their values for the side to move there.
pub const PENTAGO_18: (&str, &str) = (
    "pentago/irving_midsolve_benchmark_18.tsv",
    "274440791932540184",
);

/// Irving's 18-stone benchmark solved as `solve` and `analyze` would, with the default method:
/// the root's value and every move's, each against the value Irving gives the position it
/// reaches.
fn pentago_benchmark(data: &Path) -> Check {
    let (relative, root_name) = PENTAGO_18;
    let name = format!("{relative} (root and moves, default method and memory)");
    let path = data.join(relative);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Check {
            verdict: Verdict::Skip,
            name,
            detail: format!("{} is not there", path.display()),
        };
    };
    let start = Pentago::new();
    let mut values = HashMap::new();
    for line in text.lines().skip(1) {
        let mut fields = line.split_whitespace();
        let parsed = fields.next().and_then(|n| start.parse_board(n)?.ok());
        match (parsed, fields.next().and_then(|v| v.parse::<i32>().ok())) {
            (Some(pos), Some(v)) => values.insert(pos.key(), v),
            _ => return check(&name, false, format!("bad line '{line}'")),
        };
    }
    let Some(Ok(root)) = start.parse_board(root_name) else {
        return check(&name, false, format!("bad root {root_name}"));
    };
    let mut engine = match Engine::try_new(&start, Options::default()) {
        Ok(e) => e,
        Err(e) => return check(&name, false, e.to_string()),
    };
    let began = Instant::now();
    let report = engine.solve(&root, &Limits::default());
    let moves = engine.analyze(&root, &Limits::default());
    let right = moves
        .iter()
        .filter(|m| {
            let want = values.get(&root.play(m.mv).key());
            m.score.is_some() && want.map(|v| -v) == m.score
        })
        .count();
    let want = values.get(&root.key()).copied();
    check(
        &name,
        report.score.is_some() && report.score == want && right == moves.len() && right > 100,
        format!(
            "value={} expected={} moves_right={right}/{} nodes={} seconds={:.1}",
            shown(report.score),
            shown(want),
            moves.len(),
            report.nodes,
            began.elapsed().as_secs_f64()
        ),
    )
}

/// The exact and the weak solve of an empty board.
fn empty_board(spec: &str, expected: i32, threads: usize) -> Check {
    let options = Options {
        config: super::Config {
            threads,
            ..super::Config::default()
        },
        ..Options::default()
    };
    let weak = Options {
        weak: true,
        ..options.clone()
    };
    let name = format!("empty {spec}");
    let game = match spec.parse::<GameSpec>() {
        Ok(game) => game,
        Err(e) => return check(&name, false, e.to_string()),
    };
    let solve = |options: Options| {
        with_game!(game.start(), start => {
            Engine::try_new(&start, options).map(|mut e| {
                let r = e.solve(&start, &Limits::default());
                (r.score, r.nodes, r.elapsed)
            })
        })
    };
    match solve(options).and_then(|exact| Ok((exact, solve(weak)?))) {
        Ok(((score, nodes, elapsed), (sign, _, weak_elapsed))) => check(
            &name,
            score == Some(expected) && sign == Some(expected.signum()),
            format!(
                "score={} weak={} expected={expected} nodes={nodes} seconds={:.1} \
                 weak_seconds={:.1}",
                shown(score),
                shown(sign),
                elapsed.as_secs_f64(),
                weak_elapsed.as_secs_f64()
            ),
        ),
        Err(e) => check(&name, false, e.to_string()),
    }
}

fn shown(score: Option<i32>) -> String {
    score.map_or("?".to_string(), |s| s.to_string())
}

/// The first `lines` positions of a public set.
/// The first `lines` positions of the public set `relative` (under `data`) of a game.
fn public_set(data: &Path, spec: &str, relative: &str, lines: usize) -> Check {
    let path = data.join(relative);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return Check {
            verdict: Verdict::Skip,
            name: relative.to_string(),
            detail: format!("{} is not there", path.display()),
        };
    };
    let Ok(game) = spec.parse::<GameSpec>() else {
        return check(relative, false, format!("bad spec {spec}"));
    };
    let result = with_game!(game.start(), start => {
        Engine::try_new(&start, Options::default()).map(|mut engine| {
            bench_text(start, &mut engine, relative, &text, Some(lines), &Limits::default(), || {})
        })
    });
    match result {
        Ok((tally, problems)) => {
            let mut detail = tally.summary("").trim_start().to_string();
            if let Some(first) = problems.first() {
                detail += &format!(" first_problem={first}");
            }
            check(relative, problems.is_empty() && tally.n == lines, detail)
        }
        Err(e) => check(relative, false, e.to_string()),
    }
}

/// A PopOut board solved as a user would: no flag, the default method, within the time.
fn popout_board(spec: &str, expected: i32) -> Check {
    let name = format!("default {spec}");
    let Ok(game) = spec.parse::<GameSpec>() else {
        return check(&name, false, "bad spec".into());
    };
    let began = Instant::now();
    let report = with_game!(game.start(), start => {
        Engine::try_new(&start, Options::default()).map(|mut e| {
            let r = e.solve(&start, &Limits::default());
            (r.score, r.nodes)
        })
    });
    let seconds = began.elapsed();
    match report {
        Ok((score, nodes)) => check(
            &name,
            score == Some(expected) && seconds < Duration::from_secs(POPOUT_SECONDS),
            format!(
                "value={} expected={expected} nodes={nodes} seconds={:.2} limit={POPOUT_SECONDS}",
                shown(score),
                seconds.as_secs_f64()
            ),
        ),
        Err(e) => check(&name, false, e.to_string()),
    }
}

/// The Pentago stone-count table (`inarow bench --suite pentago`): positions of Irving's games
/// (`shared/data/pentago/irving_game_values.tsv`, none waiting for its turn), by stones, each
/// with its name and value for the side to move. The counts are in the order they run: least
/// memory first, so that the process's peak after each is that count's.
pub const PENTAGO_STONES: [(u32, &[(&str, i32)]); 4] = [
    (
        22,
        &[
            ("2435059866445547608", 0),
            ("3313261793782807696", 0),
            ("3313244167237011544", 1),
            ("4135433025101237646", 1),
            ("505531725440627070", 1),
        ],
    ),
    (
        20,
        &[
            ("3313261793879196326", 0),
            ("4078856103986397862", 1),
            ("5362399624332772006", 1),
            ("434318556332821902", 1),
            ("94296784466358654", 1),
        ],
    ),
    (
        19,
        &[
            ("3313243007595250342", 0),
            ("4078854944345227942", 0),
            ("434318556331651454", -1),
            ("94296784960631166", 1),
            ("3313242079979307686", 1),
        ],
    ),
    (18, &[("274440791932540184", 1)]),
];

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
    /// The most bytes a solve of the count held ([`crate::solvers::pentago::MidAnswer::bytes`]).
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
    use crate::solvers::pentago;
    let pos = match Pentago::new().parse_board(name) {
        Some(Ok(pos)) => pos,
        _ => return Err(Error::Input(format!("bad Pentago board {name}"))),
    };
    let (cpu0, _) = process_usage();
    let began = Instant::now();
    let answer = pentago::solve(&pos, mem_bytes, threads, Default::default(), |_, _| {}).map_err(
        |stop| {
            let message = format!("{name}: {stop}");
            match stop {
                Stop::Memory | Stop::MemoryNeeded(_) | Stop::BeyondMachine { .. } => {
                    Error::Memory(message)
                }
                _ => Error::Search(message),
            }
        },
    )?;
    Ok(PentagoSolve {
        value: answer.value,
        wall_s: began.elapsed().as_secs_f64(),
        cpu_s: process_usage().0 - cpu0,
        bytes: answer.bytes,
    })
}

/// The process's peak resident memory so far, in bytes (0 where the system does not say).
pub fn peak_rss() -> u64 {
    process_usage().1
}

/// Runs the Pentago stone-count table: every position of [`PENTAGO_STONES`] solved by the
/// midgame solver within `mem_bytes` on `threads` threads, its value checked; `on_row` is told
/// of each count as it ends.
///
/// # Errors
/// As [`solve_pentago`]: a position the solver refuses (a budget below what it needs) or a
/// malformed name.
pub fn run_pentago(
    mem_bytes: u64,
    threads: usize,
    on_row: impl FnMut(&StoneRow),
) -> Result<Vec<StoneRow>, Error> {
    run_pentago_counts(mem_bytes, threads, |_| true, on_row)
}

/// [`run_pentago`] on the stone counts that `wanted` accepts.
///
/// # Errors
/// As [`run_pentago`].
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
            peak_rss: process_usage().1,
        };
        on_row(&row);
        rows.push(row);
    }
    Ok(rows)
}
