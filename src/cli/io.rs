//! What the commands share to read and print: positions read from move strings, how moves are
//! shown, exit codes, progress on standard error, and Ctrl-C.

use console::Term;
use inarow::limits::{Cancel, Limits};
use indicatif::{HumanCount, ProgressBar, ProgressDrawTarget, ProgressStyle, TermLike};
use std::io::IsTerminal;
use std::sync::OnceLock;
use std::sync::mpsc::RecvTimeoutError;
use std::time::{Duration, Instant};

/// Runs `work` with a spinner on standard error (drawn only on a terminal, and only once the
/// work has taken a second): what it is doing, the nodes searched so far and their rate.
pub fn with_progress<T>(label: &str, work: impl FnOnce() -> T) -> T {
    with_progress_noting(label, None, None, work)
}

/// How long a search runs before its `notice` (that it may not end soon) is printed: quick
/// answers print nothing.
const NOTICE_AFTER: Duration = Duration::from_secs(2);

/// How often a search whose standard error is not a terminal (a log file) says how far it
/// has come, as the spinner cannot: every ten minutes, or every `INAROW_PROGRESS_EVERY`
/// seconds.
fn progress_line_every() -> Duration {
    std::env::var("INAROW_PROGRESS_EVERY")
        .ok()
        .and_then(|s| s.parse::<f64>().ok())
        .filter(|s| s.is_finite() && *s > 0.0)
        .map_or(Duration::from_secs(600), Duration::from_secs_f64)
}

/// How far a search has come, for the spinner and for a log: `LABEL: N nodes, R nodes/s,
/// H:MM:SS`, the rate over the whole search so far, and where a solve's root driver has
/// narrowed the score, `, score LO..HI`.
fn progress_text(label: &str, nodes: u64, elapsed: Duration, bounds: Option<(i32, i32)>) -> String {
    let seconds = elapsed.as_secs();
    let mut text = format!(
        "{label}: {} nodes, {} nodes/s, {}:{:02}:{:02}",
        HumanCount(nodes),
        HumanCount((nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64),
        seconds / 3600,
        seconds / 60 % 60,
        seconds % 60
    );
    if let Some((lo, hi)) = bounds.filter(|(lo, hi)| lo < hi) {
        text += &format!(", score {lo}..{hi}");
    }
    text
}

/// [`with_progress`], printing `notice` on standard error (terminal or not) if the work is
/// still running after [`NOTICE_AFTER`], and, where `work` solves the position with the key
/// `solving`, the bounds its root driver has proven on the score so far.
pub fn with_progress_noting<T>(
    label: &str,
    notice: Option<String>,
    solving: Option<u128>,
    work: impl FnOnce() -> T,
) -> T {
    // The work's end wakes the drawing thread at once: a quick answer waits for nothing.
    let (done, finished) = std::sync::mpsc::channel::<()>();
    if solving.is_some() {
        inarow::limits::watch_root_bounds();
    }
    let bounds = move || solving.and_then(inarow::limits::root_bounds);
    std::thread::scope(|scope| {
        scope.spawn(move || {
            let start = Instant::now();
            let first = inarow::limits::nodes_searched();
            let mut bar: Option<ProgressBar> = None;
            let mut notice = notice;
            let log = !std::io::stderr().is_terminal();
            let every = progress_line_every();
            let mut next_line = every;
            while finished.recv_timeout(Duration::from_millis(100))
                == Err(RecvTimeoutError::Timeout)
            {
                if start.elapsed() >= NOTICE_AFTER
                    && let Some(text) = notice.take()
                {
                    match &bar {
                        Some(bar) => bar.suspend(|| eprintln!("{text}")),
                        None => eprintln!("{text}"),
                    }
                }
                let (nodes, elapsed) = (inarow::limits::nodes_searched() - first, start.elapsed());
                if log && elapsed >= next_line {
                    eprintln!("inarow: {}", progress_text(label, nodes, elapsed, bounds()));
                    // After a pause (a suspended machine), one line, not one per missed turn.
                    while next_line <= elapsed {
                        next_line += every;
                    }
                }
                if elapsed < Duration::from_secs(1) {
                    continue;
                }
                // The rate and the time are the whole search's, not the spinner's (which
                // starts a second late, and would count the nodes before it as its first).
                let bar = bar.get_or_insert_with(|| {
                    let style = ProgressStyle::with_template("{spinner} {msg}");
                    on_stderr(ProgressBar::new_spinner()).with_style(style.expect("valid"))
                });
                bar.set_message(progress_text(label, nodes, elapsed, bounds()));
                bar.tick();
            }
            if let Some(bar) = bar {
                bar.finish_and_clear();
            }
        });
        let result = work();
        drop(done);
        result
    })
}

/// The rough time from which a search without limits says, before it starts, that it may not
/// end soon.
const LONG_SEARCH_SECONDS: f64 = 60.0;

/// What a search with neither a time nor a node limit on the position `text` reaches says
/// if it has not ended after [`NOTICE_AFTER`] (see [`with_progress_noting`]): that it may not
/// end soon, when the game's rough guess of its time ([`inarow::game::Variant::rough_solve_seconds`]) is
/// over a minute.
pub fn long_search_notice(
    rough_seconds: Option<f64>,
    text: &str,
    limits: &Limits,
) -> Option<String> {
    if limits.time.is_some() || limits.nodes.is_some() {
        return None;
    }
    let seconds = rough_seconds?;
    (seconds >= LONG_SEARCH_SECONDS).then(|| {
        format!(
            "inarow: {}: no --time or --nodes limit, and this search may take {} on one core \
             (a rough guess from the positions measured); Ctrl-C stops it",
            show_moves(text),
            rough_duration(seconds)
        )
    })
}

/// A duration for people, to one significant figure: `about 3 minutes`, `about 2 days`.
fn rough_duration(seconds: f64) -> String {
    const UNITS: [(&str, f64); 5] = [
        ("years", 365.25 * 86_400.0),
        ("days", 86_400.0),
        ("hours", 3_600.0),
        ("minutes", 60.0),
        ("seconds", 1.0),
    ];
    let (unit, size) = UNITS
        .iter()
        .copied()
        .find(|&(_, size)| seconds >= size)
        .unwrap_or(UNITS[4]);
    let count = seconds / size;
    if unit == "years" && count >= 1000.0 {
        return "thousands of years or more".to_string();
    }
    let rounded = if count < 10.0 {
        count.round().max(1.0)
    } else {
        let step = 10f64.powf(count.log10().floor());
        (count / step).round() * step
    };
    format!(
        "about {rounded} {}",
        if rounded == 1.0 {
            &unit[..unit.len() - 1]
        } else {
            unit
        }
    )
}

/// A progress bar on standard error (drawn only on a terminal).
pub fn progress_bar(len: usize, name: &str) -> ProgressBar {
    let bar = on_stderr(ProgressBar::new(len as u64));
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:40}] {pos}/{len} {elapsed_precise} eta {eta}")
            .expect("template is valid")
            .progress_chars("=> "),
    );
    bar.set_message(name.to_string());
    bar
}

/// `bar`, drawn on standard error where it is a terminal (nothing otherwise), two columns
/// short of its width: indicatif fills a line to the terminal's width, so the `^C` a terminal
/// echoes would wrap to a line of its own, and clearing the display on Ctrl-C would then clear
/// that line and leave the display's last line on the screen.
pub fn on_stderr(bar: ProgressBar) -> ProgressBar {
    let target = if std::io::stderr().is_terminal() {
        ProgressDrawTarget::term_like_with_hz(Box::new(Narrowed(Term::buffered_stderr())), 20)
    } else {
        ProgressDrawTarget::hidden()
    };
    bar.set_draw_target(target);
    bar
}

/// A terminal that says it is two columns narrower than it is (see [`on_stderr`]).
#[derive(Debug)]
struct Narrowed(Term);

impl TermLike for Narrowed {
    fn width(&self) -> u16 {
        TermLike::width(&self.0).saturating_sub(2).max(1)
    }
    fn height(&self) -> u16 {
        TermLike::height(&self.0)
    }
    fn move_cursor_up(&self, n: usize) -> std::io::Result<()> {
        TermLike::move_cursor_up(&self.0, n)
    }
    fn move_cursor_down(&self, n: usize) -> std::io::Result<()> {
        TermLike::move_cursor_down(&self.0, n)
    }
    fn move_cursor_right(&self, n: usize) -> std::io::Result<()> {
        TermLike::move_cursor_right(&self.0, n)
    }
    fn move_cursor_left(&self, n: usize) -> std::io::Result<()> {
        TermLike::move_cursor_left(&self.0, n)
    }
    fn write_line(&self, s: &str) -> std::io::Result<()> {
        TermLike::write_line(&self.0, s)
    }
    fn write_str(&self, s: &str) -> std::io::Result<()> {
        TermLike::write_str(&self.0, s)
    }
    fn clear_line(&self) -> std::io::Result<()> {
        TermLike::clear_line(&self.0)
    }
    fn flush(&self) -> std::io::Result<()> {
        TermLike::flush(&self.0)
    }
}

pub(crate) use inarow::session::show_moves;

/// How a command ended, and so its exit code: the one table every command uses.
///
/// | code | meaning |
/// |------|---------|
/// | 0 | done |
/// | 1 | internal: a wrong answer (a benchmark line, a certificate rejected, a second opinion that disagrees) |
/// | 2 | bad input: a move string, game spec, flag, file or line that cannot be used |
/// | 3 | stopped by a limit (time, nodes, memory, Ctrl-C): some answers are `?` or estimates |
///
/// A command that goes on past a problem (one bad line of many) ends with its most serious
/// one: internal before bad input before a limit. A fatal error (`Err` from a command) is bad
/// input: exit 2.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Done,
    /// Exit 1.
    Failed,
    /// Exit 2.
    BadInput,
    /// Exit 3.
    Incomplete,
}

impl Outcome {
    /// The exit code of this outcome.
    pub fn code(self) -> u8 {
        match self {
            Outcome::Done => 0,
            Outcome::Failed => 1,
            Outcome::BadInput => 2,
            Outcome::Incomplete => 3,
        }
    }

    /// The more serious of two outcomes: internal, then bad input, then a limit, then done.
    pub fn and(self, other: Outcome) -> Outcome {
        let rank = |o: Outcome| match o {
            Outcome::Done => 0,
            Outcome::Incomplete => 1,
            Outcome::BadInput => 2,
            Outcome::Failed => 3,
        };
        if rank(other) > rank(self) {
            other
        } else {
            self
        }
    }
}

/// The exit code of a fatal error (a command that returns `Err`): bad input.
pub const FATAL: u8 = 2;

/// The token Ctrl-C cancels (instead of ending the process), so that a long run can save its
/// state and stop: a build between rounds, a search at its next check of the limits. One for
/// the process: the signal handler reaches it through a static.
pub fn ctrl_c() -> Cancel {
    static CTRL_C: OnceLock<Cancel> = OnceLock::new();
    // A second Ctrl-C ends the process at once.
    extern "C" fn on_interrupt(_: libc::c_int) {
        // Set before the handler is installed: `get` only loads atomics, it never initialises.
        if let Some(token) = CTRL_C.get() {
            if token.is_cancelled() {
                // SAFETY: _exit is async-signal-safe.
                unsafe { libc::_exit(130) };
            }
            token.cancel();
        }
    }
    let token = CTRL_C.get_or_init(Cancel::new).clone();
    #[cfg(unix)]
    // SAFETY: the handler only loads and stores atomics and calls _exit, which are
    // async-signal-safe (SIGINT is blocked while its handler runs, so the load and the store
    // do not race with a second Ctrl-C).
    unsafe {
        libc::signal(
            libc::SIGINT,
            on_interrupt as *const () as libc::sighandler_t,
        );
    }
    token
}

#[cfg(test)]
mod tests {
    use super::rough_duration;

    #[test]
    fn durations_read_as_people_say_them() {
        assert_eq!(rough_duration(61.0), "about 1 minute");
        assert_eq!(rough_duration(150.0), "about 3 minutes");
        assert_eq!(rough_duration(3.2 * 3600.0), "about 3 hours");
        assert_eq!(rough_duration(40.0 * 86_400.0), "about 40 days");
        assert_eq!(rough_duration(1e13), "thousands of years or more");
    }
}
