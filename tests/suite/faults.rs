//! Faults on long work: builds killed with SIGKILL at arbitrary moments and run again, writes
//! that hit a file-size limit (a full disk), memory budgets measured as the peak resident size
//! of the process; and determinism of answers and node counts.

use super::cli::{Run, inarow};
use super::common::temp_file;
use std::os::unix::process::CommandExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn binary() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_inarow"));
    command
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    command
}

/// `path` with `suffix` appended.
fn suffixed(path: &Path, suffix: &str) -> PathBuf {
    PathBuf::from(format!("{}{suffix}", path.display()))
}

/// What a build keeps while it runs; none of it may be left once the build is done.
const WORK_FILES: [&str; 5] = [".partial", ".partial.tmp", ".cells", ".cells.tmp", ".tmp"];

fn remove_all(out: &Path) {
    let _ = std::fs::remove_file(out);
    for suffix in WORK_FILES {
        let _ = std::fs::remove_file(suffixed(out, suffix));
    }
}

/// When to kill, as fractions in `0..1` of the uninterrupted build's time, from a fixed
/// generator: the same on every run, and landing as often whatever the machine's or the
/// search's speed (a faster search once let most kills come after the build had ended).
fn kill_fractions(count: usize, seed: u64) -> Vec<f64> {
    let mut state = seed;
    (0..count)
        .map(|_| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 11) as f64 / (1u64 << 53) as f64
        })
        .collect()
}

/// Runs the build `args` (which write `out`) to the end once, timed; then again from nothing,
/// killed with SIGKILL after each of `kills` (fractions of that time, measured from each start)
/// and started again, then run to the end. After every kill, `out` is either absent or the whole file; in the end it is
/// the same byte for byte as the uninterrupted build's, and no work file is left. Returns how
/// many kills landed before the build finished.
fn same_file_after_kills(args: &[&str], out: &Path, kills: &[f64]) -> usize {
    remove_all(out);
    let timed = Instant::now();
    let status = binary().args(args).status().expect("the build runs");
    let whole_time = timed.elapsed();
    assert!(status.success(), "{args:?}");
    let whole = std::fs::read(out).expect("the uninterrupted build's file");
    remove_all(out);
    let mut landed = 0;
    for &fraction in kills {
        let delay = whole_time.mul_f64(fraction);
        let mut child = binary().args(args).spawn().expect("the build starts");
        let start = Instant::now();
        while start.elapsed() < delay {
            if child.try_wait().expect("wait").is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(2));
        }
        if child.try_wait().expect("wait").is_none() {
            child.kill().expect("SIGKILL");
            landed += 1;
        }
        let status = child.wait().expect("wait");
        if let Ok(bytes) = std::fs::read(out) {
            assert!(
                bytes == whole,
                "after a kill, '{}' is damaged",
                out.display()
            );
        }
        if status.success() {
            remove_all(out);
        }
    }
    let r = binary().args(args).output().expect("the build runs");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(
        std::fs::read(out).expect("the file") == whole,
        "{args:?} differs"
    );
    for suffix in WORK_FILES {
        assert!(!suffixed(out, suffix).exists(), "'{suffix}' left behind");
    }
    remove_all(out);
    landed
}

#[test]
#[ignore = "long: run by `cargo test --release -- --ignored` (CI runs it)"]
fn retrograde_builds_killed_at_any_moment_resume_to_the_same_file() {
    // popout:5x4 takes about 2 s in memory, 4 s with its cells on disk (--mem-mb 14), saving
    // its state after every round.
    let out = temp_file("kill-retro.db");
    let path = out.to_str().unwrap();
    let build = [
        "retro",
        "build",
        "--game",
        "popout:5x4",
        "--out",
        path,
        "--save-every",
        "0",
    ];
    let landed = same_file_after_kills(&build, &out, &kill_fractions(8, 1));
    assert!(landed >= 4, "only {landed} kills landed");
    let sliced = [&build[..], &["--mem-mb", "14"]].concat();
    let landed = same_file_after_kills(&sliced, &out, &kill_fractions(8, 2));
    assert!(landed >= 4, "only {landed} kills landed");
}

/// The book build of the kill and full-disk tests, writing `out`: 1125 positions solved at
/// depth 5 in about a second, each saved as it is solved.
fn book_build(out: &Path) -> Vec<&str> {
    let mut args = vec!["book", "build", "--game", "connect4:6x4", "--depth", "5"];
    args.extend(["--tt-mb", "4", "--out", out.to_str().unwrap()]);
    args
}

#[test]
#[ignore = "long: run by `cargo test --release -- --ignored` (CI runs it)"]
fn book_builds_killed_at_any_moment_resume_to_the_same_file() {
    let out = temp_file("kill.book");
    let build = book_build(&out);
    let landed = same_file_after_kills(&build, &out, &kill_fractions(8, 3));
    assert!(landed >= 4, "only {landed} kills landed");
}

/// Runs `args` with files limited to `max_bytes` (RLIMIT_FSIZE, its signal ignored, so that a
/// write past the limit fails as on a full disk).
fn with_file_limit(args: &[&str], max_bytes: u64) -> Run {
    let mut command = binary();
    command.stdout(Stdio::piped()).args(args);
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(move || {
            let limit = libc::rlimit {
                rlim_cur: max_bytes,
                rlim_max: max_bytes,
            };
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            if libc::setrlimit(libc::RLIMIT_FSIZE, &limit) != 0 {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
    let out = command.output().expect("the build runs");
    Run {
        code: out.status.code(),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs the build `args` (which write `out`) under a file-size limit of `max_bytes`: it fails
/// with one line naming the file and the bytes it needs, leaves nothing under `out`, and a run
/// without the limit then resumes from what was saved to the same file as a build from
/// scratch. Returns the resumed run's standard output.
fn full_disk_then_resume(args: &[&str], out: &Path, max_bytes: u64, file: &str) -> String {
    remove_all(out);
    let status = binary().args(args).status().expect("the build runs");
    assert!(status.success(), "{args:?}");
    let whole = std::fs::read(out).expect("the build's file");
    remove_all(out);

    let r = with_file_limit(args, max_bytes);
    r.assert_no_panic();
    assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    let shown = format!("cannot write '{}{file}'", out.display());
    assert!(r.stderr.contains(&shown), "{shown}: {}", r.stderr);
    assert!(
        r.stderr.contains("bytes"),
        "the bytes it needs: {}",
        r.stderr
    );
    assert!(!out.exists(), "a failed build left '{}'", out.display());
    for suffix in [".tmp", ".partial.tmp", ".cells.tmp"] {
        assert!(!suffixed(out, suffix).exists(), "'{suffix}' left behind");
    }

    let r = binary()
        .args(args)
        .stdout(Stdio::piped())
        .output()
        .expect("the build runs");
    assert!(r.status.success(), "{}", String::from_utf8_lossy(&r.stderr));
    assert!(
        std::fs::read(out).expect("the file") == whole,
        "{args:?} differs"
    );
    remove_all(out);
    String::from_utf8_lossy(&r.stdout).into_owned()
}

#[test]
#[ignore = "long: run by `cargo test --release -- --ignored` (CI runs it)"]
fn a_full_disk_stops_a_build_with_one_line_and_keeps_what_was_saved() {
    // Retrograde analysis: its saved state (520 KB for popout:4x4) does not fit in 300 KB.
    let out = temp_file("full-retro.db");
    let path = out.to_str().unwrap();
    let retro = ["retro", "build", "--game", "popout:4x4", "--out", path];
    let build = [&retro[..], &["--save-every", "0"]].concat();
    full_disk_then_resume(&build, &out, 300_000, ".partial");
    // With its cells on disk: the 14 MB cells file does not fit in 5 MB.
    let sliced = [
        "retro",
        "build",
        "--game",
        "popout:5x4",
        "--out",
        path,
        "--mem-mb",
        "14",
    ];
    full_disk_then_resume(&sliced, &out, 5_000_000, ".cells.tmp");

    // A book: the records saved before the disk filled up are kept, and the next run resumes
    // from them.
    let book = temp_file("full.book");
    let build = book_build(&book);
    let resumed = full_disk_then_resume(&build, &book, 4_000, ".partial");
    let count = resumed
        .split_whitespace()
        .find_map(|f| f.strip_prefix("resumed="))
        .and_then(|n| n.parse::<u32>().ok())
        .unwrap_or_else(|| panic!("no resumed= in {resumed}"));
    assert!(count > 100, "resumed from {count} positions: {resumed}");
}

/// The peak resident memory of `inarow ARGS`, in MiB, and how it ended. Read from the
/// process' own high-water mark (`VmHWM`) while it runs: the resource usage `wait4` reports
/// would include the test process' memory, which a child inherits at `fork`. (The commands
/// measured all run long enough to be read.)
fn peak_mib(args: &[&str]) -> (f64, Option<i32>) {
    let mut child = binary()
        .stderr(Stdio::null())
        .args(args)
        .spawn()
        .expect("inarow runs");
    let status_file = format!("/proc/{}/status", child.id());
    let mut peak_kb = 0u64;
    let status = loop {
        // Until it has started `inarow` (its name), the child's memory is still the test's.
        if let Ok(text) = std::fs::read_to_string(&status_file)
            && text.lines().next() == Some("Name:\tinarow")
        {
            let hwm = text
                .lines()
                .find_map(|l| l.strip_prefix("VmHWM:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok());
            peak_kb = peak_kb.max(hwm.unwrap_or(0));
        }
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        std::thread::sleep(Duration::from_millis(1));
    };
    assert!(peak_kb > 0, "{args:?}: no reading of its memory");
    (peak_kb as f64 / 1024.0, status.code())
}

#[test]
#[ignore = "long: run by `cargo test --release -- --ignored` (CI runs it)"]
fn memory_budgets_are_honoured() {
    // What the process needs besides the budget: its code, stacks, buffers and allocator.
    const OVERHEAD_MIB: f64 = 24.0;
    let out = temp_file("memory.db");
    let out_path = out.to_str().unwrap();
    let cases: [(&[&str], f64); 4] = [
        // Alpha-beta's table, filled by a search long enough to be read (the empty 6x5 board,
        // 0.1 s: a position of Test_L2 now ends in microseconds, before its memory is read).
        (
            &["solve", "--game", "connect4:6x5", "--tt-mb", "16", "-"],
            16.0,
        ),
        // df-pn on PopOut, by default.
        (
            &["solve", "--game", "popout", "--mem-mb", "32", "1234"],
            32.0,
        ),
        // Retrograde analysis that keeps its cells on disk (they need 17.9 MB).
        (
            &[
                "retro",
                "build",
                "--game",
                "popout:5x4",
                "--mem-mb",
                "14",
                "--out",
                out_path,
            ],
            14.0,
        ),
        // Counting by enumeration (its key set takes 4 MiB, its frontier the rest).
        (&["count", "--game", "connect4:5x4", "--mem-mb", "64"], 64.0),
    ];
    for (args, budget) in cases {
        let (peak, code) = peak_mib(args);
        assert!(matches!(code, Some(0) | Some(3)), "{args:?}: exit {code:?}");
        assert!(
            peak <= budget + OVERHEAD_MIB,
            "{args:?}: peak {peak:.1} MiB for a budget of {budget} MiB"
        );
    }
    remove_all(&out);
    // A budget too small stops the work with one line, and stays within the budget.
    let small = ["count", "--game", "connect4:5x4", "--mem-mb", "16"];
    let r = inarow(&small, None);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
    assert!(r.stderr.contains("raise --mem-mb"), "{}", r.stderr);
    let (peak, _) = peak_mib(&small);
    assert!(peak <= 16.0 + OVERHEAD_MIB, "{small:?}: peak {peak:.1} MiB");
}

/// `solve --stats` output without its times.
fn without_times(stdout: &str) -> String {
    stdout
        .split_whitespace()
        .filter(|f| !f.starts_with("us=") && !f.starts_with("peak_kb="))
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
#[ignore = "long: run by `cargo test --release -- --ignored` (CI runs it)"]
fn the_same_command_gives_the_same_answer_and_nodes() {
    let pentago = "3328453565555148888"; // Irving's name of a 26-stone board
    let cases: [&[&str]; 6] = [
        &["solve", "--stats", "52753311433677442422121"],
        &[
            "solve",
            "--stats",
            "--weak",
            "--algo",
            "dfpn",
            "52753311433677442422121",
        ],
        &["solve", "--stats", "--game", "popout", "1234"],
        &[
            "solve",
            "--stats",
            "--game",
            "popout:5x4",
            "--distance",
            "33",
        ],
        &[
            "solve",
            "--stats",
            "--game",
            "qubic",
            "d11b23b14b22c31a42c41a11",
        ],
        &["solve", "--stats", "--game", "pentago", pentago],
    ];
    for args in cases {
        let first = inarow(args, None);
        assert_eq!(first.code, Some(0), "{args:?}: {}", first.stderr);
        let second = inarow(args, None);
        assert_eq!(
            without_times(&first.stdout),
            without_times(&second.stdout),
            "{args:?}"
        );
    }
    // With two threads the nodes vary with the timing of the threads; the answer does not.
    let answer = |threads: &str| {
        let r = inarow(&["solve", "--threads", threads, "5554224333234511"], None);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        r.stdout
    };
    let one = answer("1");
    for _ in 0..3 {
        assert_eq!(answer("2"), one);
    }
}
