//! The full suite (`inarow bench --suite full`): the long checks that are too slow for the
//! test loop, each with a `PASS` / `FAIL` / `SKIP` line.

use super::analysis::run_conversions;
use super::tables::{
    FULL_BOARDS, FULL_CUBE_SETS, FULL_POPOUT, FULL_SETS, PENTAGO_18, POPOUT_SECONDS,
};
use inarow::Error;
use inarow::engine::victor;
use inarow::game::GravityGeometry;
use inarow::limits::Limits;
use inarow::session::{self, Ask, BookSource, Settings, Solution, Valuation};
use std::collections::HashMap;
use std::path::Path;
use std::time::{Duration, Instant};

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

fn skip(name: &str, path: &Path) -> Check {
    Check {
        verdict: Verdict::Skip,
        name: name.to_string(),
        detail: format!("{} is not there", path.display()),
    }
}

/// The solver the full suite measures: the default one without a book (as the published
/// timings: nothing looked up).
fn no_book() -> Settings {
    Settings {
        book: BookSource::Off,
        ..Settings::default()
    }
}

/// `spec`'s position `text` solved from a fresh agent of `settings` (fitted to the game).
fn solve(spec: &str, text: &str, settings: Settings) -> Result<Solution, Error> {
    let game = session::game(spec)?;
    let pos = game.read(text)?;
    game.agent(&game.fitted(settings), 1)?
        .solve(pos.as_ref(), &Ask::default())
}

/// Runs the full suite: the empty boards of [`FULL_BOARDS`] (exact and weak, with `threads`
/// threads), the public sets of [`FULL_SETS`] and [`FULL_CUBE_SETS`] found under `data` (the
/// public data folder; one thread, the table cleared before each position, as the published
/// timings), the PopOut boards of [`FULL_POPOUT`] with the default method, Irving's 18-stone
/// Pentago benchmark ([`PENTAGO_18`]), the conversion games and Victor's rules on 5x4.
/// `on_check` is told of each check as it ends.
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

fn shown(score: Option<i32>) -> String {
    score.map_or("?".to_string(), |s| s.to_string())
}

/// The exact and the weak solve of an empty board.
fn empty_board(spec: &str, expected: i32, threads: usize) -> Check {
    let exact = Settings {
        threads,
        ..no_book()
    };
    let weak = Settings {
        weak: true,
        ..exact.clone()
    };
    let name = format!("empty {spec}");
    match solve(spec, "", exact).and_then(|e| Ok((e, solve(spec, "", weak)?))) {
        Ok((exact, weak)) => check(
            &name,
            exact.score == Some(expected) && weak.score == Some(expected.signum()),
            format!(
                "score={} weak={} expected={expected} nodes={} seconds={:.1} \
                 weak_seconds={:.1}",
                shown(exact.score),
                shown(weak.score),
                exact.nodes,
                exact.seconds,
                weak.seconds
            ),
        ),
        Err(e) => check(&name, false, e.to_string()),
    }
}

/// The first `lines` positions of the public set `relative` (under `data`) of a game.
fn public_set(data: &Path, spec: &str, relative: &str, lines: usize) -> Check {
    let path = data.join(relative);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return skip(relative, &path);
    };
    let result = session::game(spec).and_then(|game| {
        let mut agent = game.agent(&no_book(), 1)?;
        session::bench(
            game.as_ref(),
            agent.as_mut(),
            relative,
            &text,
            Some(lines),
            &Limits::default(),
            &mut || {},
        )
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
    let began = Instant::now();
    let solved = solve(spec, "", no_book());
    let seconds = began.elapsed();
    match solved {
        Ok(s) => check(
            &name,
            s.score == Some(expected) && seconds < Duration::from_secs(POPOUT_SECONDS),
            format!(
                "value={} expected={expected} nodes={} seconds={:.2} limit={POPOUT_SECONDS}",
                shown(s.score),
                s.nodes,
                seconds.as_secs_f64()
            ),
        ),
        Err(e) => check(&name, false, e.to_string()),
    }
}

/// Irving's 18-stone benchmark solved as `solve` and `analyze` would, with the default method:
/// the root's value and every move's, each against the value Irving gives the position it
/// reaches.
fn pentago_benchmark(data: &Path) -> Check {
    let (relative, root_name) = PENTAGO_18;
    let name = format!("{relative} (root and moves, default method and memory)");
    let path = data.join(relative);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return skip(&name, &path);
    };
    pentago_values(&name, &text, root_name).unwrap_or_else(|e| check(&name, false, e.to_string()))
}

/// The Pentago check `name` on Irving's values `text` (a header, then `BOARD VALUE` lines).
fn pentago_values(name: &str, text: &str, root_name: &str) -> Result<Check, Error> {
    let game = session::game("pentago")?;
    let mut values = HashMap::new();
    for line in text.lines().skip(1) {
        let mut fields = line.split_whitespace();
        let pos = game.read(fields.next().unwrap_or(""))?;
        let value = fields
            .next()
            .and_then(|v| v.parse::<i32>().ok())
            .ok_or_else(|| Error::Input(format!("bad line '{line}'")))?;
        values.insert(pos.key(), value);
    }
    let root = game.read(root_name)?;
    let mut agent = game.agent(&no_book(), 1)?;
    let began = Instant::now();
    let solved = agent.solve(root.as_ref(), &Ask::default())?;
    let analysis = agent.analyze(root.as_ref(), &Limits::default())?;
    let mut right = 0;
    for m in &analysis.moves {
        // Irving's value is the reply's, for the side to move after the move.
        let want = values.get(&root.play(&m.mv)?.key()).map(|v| -v);
        let got = match m.value {
            Valuation::Exact(v) | Valuation::Proven(v) => Some(v.signum()),
            _ => None,
        };
        right += usize::from(got.is_some() && got == want);
    }
    let seconds = began.elapsed().as_secs_f64();
    let want = values.get(&root.key()).copied();
    let moves = analysis.moves.len();
    Ok(check(
        name,
        solved.score.is_some() && solved.score == want && right == moves && right > 100,
        format!(
            "value={} expected={} moves_right={right}/{moves} nodes={} seconds={seconds:.1}",
            shown(solved.score),
            shown(want),
            solved.nodes,
        ),
    ))
}

/// The default engine keeps every won position of the conversion benchmark won at about a
/// second a move against perfect replies.
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

/// Victor's threat rules on every position of 5x4 (the tests run 4x4 and 4x5): no claim the
/// exact value contradicts (that a side cannot win, wins or loses), every witness accepted by
/// the checker.
fn victor_board() -> Check {
    let geometry = GravityGeometry::grid(5, 4, 4).expect("a valid grid");
    let a = victor::audit(&geometry, &victor::Options::default(), false);
    check(
        "victor rules on every 5x4 position",
        a.false_claims == 0 && a.rejected_witnesses == 0 && a.claims > 0 && a.mover_loses > 0,
        format!(
            "positions={} claims={} false={} rejected={} losses={} wins={}",
            a.positions,
            a.claims,
            a.false_claims,
            a.rejected_witnesses,
            a.mover_loses,
            a.mover_wins
        ),
    )
}
