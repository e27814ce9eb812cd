//! The command line fuzzed: random commands built from every subcommand and flag, with valid,
//! borderline and malformed values (numbers out of range, bad specs, broken move strings,
//! missing, empty and corrupt files), run as a user would run them. Whatever the input,
//! `inarow` exits with one of its codes (0, 1, 2, 3): never a panic, an abort, a stack
//! overflow or a signal. A failure names the problem on its first line.
//!
//! `cargo test` runs a fixed sample of 60 commands, each stopped after 3 s;
//! `INAROW_CLI_FUZZ_CASES=N` and `INAROW_CLI_FUZZ_SECONDS=S` run more and longer. Every run is
//! under a limit on file size (64 MB) and address space (8 GiB).

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestRng, TestRunner};
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const COMMANDS: &[&[&str]] = &[
    &["solve"],
    &["analyze"],
    &["bench"],
    &["play"],
    &["verify"],
    &["table"],
    &["book", "build"],
    &["count"],
    &["retro", "build"],
    &["retro", "query"],
    &["gen"],
    &["match", "random", "depth2"],
    &["match", "mcts", "best"],
    &["help"],
    &["frobnicate"],
];

const GAMES: &[&str] = &[
    "connect4",
    "connect4:4x4",
    "connect4:5x4:k3",
    "connect4:0x0",
    "connect4:1x1:k1",
    "connect4:100x100",
    "connect4:7x6:k0",
    "connect4:3x3:k9",
    "connect4:16x7:k5",
    "popout",
    "popout:4x4",
    "popout:9x9",
    "cube",
    "qubic",
    "pentago",
    "pentago:6x6",
    "",
    "chess",
];

const NUMBERS: &[&str] = &[
    "0",
    "1",
    "2",
    "-1",
    "0.01",
    "1e3",
    "nan",
    "inf",
    "-inf",
    "99999999999",
    "18446744073709551616",
    "340282366920938463463374607431768211456",
    "abc",
    "",
    " 3",
];

const MOVES: &[&str] = &[
    "-",
    "4453",
    "44444444",
    "8",
    "0",
    "1,2,3",
    "p1",
    "44p4",
    "1234p1p1p1",
    "a11",
    "d44",
    "d11b23b14b22c31a42c41a11",
    "b11l",
    "b11lf30lc11le42lc33lb63rb52rd20re10lf62l",
    "3328453565555148888",
    "..ox............o..........x........",
    "2252576253462244111563365343671351441",
    "x",
    "",
    "💥",
    "99999999999999999999",
];

/// Flags and where their values come from.
const FLAGS: &[(&str, Pool)] = &[
    ("--game", Pool::Games),
    (
        "--algo",
        Pool::Words(&[
            "gallop",
            "bisect",
            "mtdf",
            "deepening",
            "ab",
            "pns",
            "pn2",
            "dfpn",
            "minimax",
            "tss",
            "foo",
        ]),
    ),
    ("--time", Pool::Numbers),
    ("--nodes", Pool::Numbers),
    ("--tt-mb", Pool::Numbers),
    ("--mem-mb", Pool::Numbers),
    ("--threads", Pool::Numbers),
    ("--weak", Pool::None),
    ("--distance", Pool::None),
    ("--json", Pool::None),
    ("--stats", Pool::None),
    ("--proof", Pool::Files),
    ("--book", Pool::Files),
    ("--db", Pool::Files),
    ("--out", Pool::Files),
    ("--data", Pool::Files),
    ("--repetition", Pool::Numbers),
    ("--handicap-depth", Pool::Numbers),
    ("--handicap-pops", Pool::Numbers),
    ("--threat-depth", Pool::Numbers),
    ("--threat-nodes", Pool::Numbers),
    ("--victor-plies", Pool::Numbers),
    (
        "--tt-scheme",
        Pool::Words(&["two-big", "depth", "always", "x"]),
    ),
    ("--limit", Pool::Numbers),
    ("--depth", Pool::Numbers),
    ("--think", Pool::Numbers),
    (
        "--human",
        Pool::Words(&["first", "second", "both", "none", "x"]),
    ),
    ("--k", Pool::Numbers),
    ("--max-cells", Pool::Numbers),
    ("--min-side", Pool::Numbers),
    ("--stones", Pool::Numbers),
    ("--count", Pool::Numbers),
    ("--seed", Pool::Numbers),
    ("--save-every", Pool::Numbers),
    ("--suite", Pool::Words(&["full", "x"])),
    (
        "--verify",
        Pool::Words(&["dfpn", "pns", "pn2", "minimax", "x"]),
    ),
    (
        "--engine",
        Pool::Words(&[
            "random",
            "depth0",
            "depth3",
            "mcts",
            "alphabeta",
            "best",
            "x",
        ]),
    ),
    ("--games", Pool::Numbers),
    ("--opening", Pool::Numbers),
    ("--no-such-flag", Pool::None),
];

#[derive(Copy, Clone, Debug)]
enum Pool {
    None,
    Games,
    Numbers,
    Files,
    Words(&'static [&'static str]),
}

/// Files a command may be given: missing, empty, a directory, garbage, a truncated book.
const FILES: &[&str] = &["missing", "empty", ".", "garbage", "cut.book", "out.bin"];

fn pick(list: &'static [&'static str]) -> BoxedStrategy<String> {
    prop::sample::select(list).prop_map(str::to_string).boxed()
}

fn value(pool: Pool, dir: &'static str) -> BoxedStrategy<Vec<String>> {
    match pool {
        Pool::None => Just(vec![]).boxed(),
        Pool::Games => pick(GAMES).prop_map(|v| vec![v]).boxed(),
        Pool::Numbers => pick(NUMBERS).prop_map(|v| vec![v]).boxed(),
        Pool::Words(words) => pick(words).prop_map(|v| vec![v]).boxed(),
        Pool::Files => prop::sample::select(FILES)
            .prop_map(move |f| vec![format!("{dir}/{f}")])
            .boxed(),
    }
}

/// A move string: one of the pool, or one of them with a few bytes changed.
fn moves() -> BoxedStrategy<String> {
    prop_oneof![
        pick(MOVES),
        (
            pick(MOVES),
            "[0-9a-z,.\\-]{0,6}",
            any::<prop::sample::Index>()
        )
            .prop_map(|(m, junk, at)| {
                let cut = at.index(m.chars().count() + 1);
                let mut s: String = m.chars().take(cut).collect();
                s.push_str(&junk);
                s
            }),
    ]
    .boxed()
}

fn command(dir: &'static str) -> BoxedStrategy<Vec<String>> {
    let flag = prop::sample::select(FLAGS).prop_flat_map(move |(name, pool)| {
        value(pool, dir).prop_map(move |mut v| {
            v.insert(0, name.to_string());
            v
        })
    });
    (
        prop::sample::select(COMMANDS),
        prop::collection::vec(flag, 0..5),
        prop::collection::vec(moves(), 0..3),
    )
        .prop_map(|(cmd, flags, moves)| {
            let mut args: Vec<String> = cmd.iter().map(|s| s.to_string()).collect();
            args.extend(flags.into_iter().flatten());
            args.extend(moves);
            args
        })
        .boxed()
}

/// How a run ended.
enum Ending {
    Exited(i32, String),
    /// Still running after the time allowed ([`seconds_allowed`]): stopped by the test (not a
    /// failure: a valid command may well run long).
    Slow,
}

fn run(args: &[String], dir: &Path) -> Ending {
    let mut command = Command::new(env!("CARGO_BIN_EXE_inarow"));
    command
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        command.pre_exec(|| {
            let limit = |resource, bytes: u64| {
                let l = libc::rlimit {
                    rlim_cur: bytes,
                    rlim_max: bytes,
                };
                libc::setrlimit(resource, &l)
            };
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            limit(libc::RLIMIT_FSIZE, 64 << 20);
            limit(libc::RLIMIT_AS, 8 << 30);
            Ok(())
        });
    }
    let mut child = command.spawn().expect("inarow runs");
    let mut stderr = child.stderr.take().expect("piped");
    let reader = std::thread::spawn(move || {
        let mut s = Vec::new();
        std::io::Read::read_to_end(&mut stderr, &mut s).ok();
        String::from_utf8_lossy(&s).into_owned()
    });
    let deadline = Instant::now() + seconds_allowed();
    loop {
        if let Some(status) = child.try_wait().expect("wait") {
            use std::os::unix::process::ExitStatusExt;
            let err = reader.join().expect("stderr");
            return match status.code() {
                Some(code) => Ending::Exited(code, err),
                None => panic!(
                    "inarow {args:?} was killed by signal {:?}: {err}",
                    status.signal()
                ),
            };
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            let _ = child.wait();
            return Ending::Slow;
        }
        std::thread::sleep(Duration::from_millis(2));
    }
}

/// How long a command may run before the test stops it: 3 s, or `INAROW_CLI_FUZZ_SECONDS`.
fn seconds_allowed() -> Duration {
    let seconds = std::env::var("INAROW_CLI_FUZZ_SECONDS")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(3);
    Duration::from_secs(seconds)
}

fn scratch() -> &'static str {
    use std::sync::OnceLock;
    static DIR: OnceLock<String> = OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::env::temp_dir().join(format!("inarow-cli-fuzz-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("a scratch directory");
        std::fs::write(dir.join("empty"), b"").unwrap();
        std::fs::write(dir.join("garbage"), b"inarow-book 1\ngame \xff\n\n\x01\x02").unwrap();
        std::fs::write(
            dir.join("cut.book"),
            b"inarow-book 1\ngame connect4:7x6:k4\ndepth 2\nentries 9\nkey-bytes 7\ncrc32 0\n\n\x01",
        )
        .unwrap();
        dir.to_str().expect("a UTF-8 path").to_string()
    })
}

#[test]
fn no_command_line_crashes_inarow() {
    let cases = std::env::var("INAROW_CLI_FUZZ_CASES")
        .ok()
        .and_then(|n| n.parse().ok())
        .unwrap_or(60);
    let dir = scratch();
    let config = Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    };
    let rng = TestRng::deterministic_rng(RngAlgorithm::ChaCha);
    let mut runner = TestRunner::new_with_rng(config, rng);
    // Tallies, from a closure proptest may call again while shrinking.
    let exits = std::cell::RefCell::new([0u32; 4]);
    let slow = std::cell::Cell::new(0u32);
    runner
        .run(&command(dir), |args| {
            match run(&args, Path::new(dir)) {
                Ending::Slow => slow.set(slow.get() + 1),
                Ending::Exited(code, err) => {
                    prop_assert!(
                        (0..=3).contains(&code),
                        "inarow {args:?}: exit {code}: {err}"
                    );
                    prop_assert!(
                        !err.contains("panicked") && !err.contains("overflowed"),
                        "inarow {args:?}: {err}"
                    );
                    if code == 2 {
                        let first = err.lines().next().unwrap_or("");
                        prop_assert!(
                            first.starts_with("inarow: ") || first.starts_with("error: "),
                            "inarow {args:?}: no message naming the problem: {err}"
                        );
                    }
                    exits.borrow_mut()[code as usize] += 1;
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    eprintln!(
        "cli fuzz: {cases} commands, exits 0/1/2/3: {:?}, stopped after {:?}: {}",
        exits.borrow(),
        seconds_allowed(),
        slow.get()
    );
    let _ = std::fs::remove_dir_all(dir);
}
