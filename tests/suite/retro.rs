//! Retrograde analysis: the numbering's moves backward are exactly the moves forward, and every
//! value of a strong solution agrees with the forward solvers (alpha-beta with exact scores on
//! Connect Four; the repetition-aware search and df-pn on PopOut) on random positions. The
//! command line: databases answer as `solve` does, an interrupted build resumes to the same
//! file, and damaged or foreign files are refused.

use super::cli::inarow;
use super::common::{SplitMix, start, temp_file};
use inarow::engine::{Algorithm, Engine, Options};
use inarow::game::{Bounded, Indexed, Kind, MoveList, Notation, Status, Tactics, outlook_by_moves};
use inarow::limits::Limits;
use inarow::search::retro::{self, RetroValue};
use inarow::search::score::win_at;

/// Edges `(from, to)` between indices.
type Edges = Vec<(u64, u64)>;

/// Every edge of the graph of indices, found forward (distinct successors of each position not
/// over) and backward (predecessors of every position), as sorted lists; and each outlook
/// against the rules' moves.
fn edges_both_ways<G: Indexed + Tactics + Notation>(game: &G) -> (Edges, Edges) {
    let len = game.index_len().unwrap();
    let (mut forward, mut backward) = (Vec::new(), Vec::new());
    for i in 0..len {
        let Some(pos) = game.at_index(i) else {
            continue;
        };
        assert_eq!(pos.index(), i, "{pos:?}");
        if pos.status() == Status::Ongoing {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let mut next: Vec<u64> = moves
                .iter()
                .filter(|&&m| !G::Kind::is_claim(&pos, m))
                .map(|&m| pos.play(m).index())
                .collect();
            next.sort_unstable();
            next.dedup();
            assert_eq!(pos.outlook(), outlook_by_moves(&pos), "{pos:?}");
            forward.extend(next.into_iter().map(|j| (i, j)));
        }
        let mut parents = Vec::new();
        pos.for_each_predecessor(|p| parents.push(p));
        let before = parents.len();
        parents.sort_unstable();
        parents.dedup();
        assert_eq!(before, parents.len(), "{pos:?}: a predecessor twice");
        backward.extend(
            parents
                .into_iter()
                .filter(|&p| game.at_index(p).is_some())
                .map(|p| (p, i)),
        );
    }
    forward.sort_unstable();
    backward.sort_unstable();
    (forward, backward)
}

#[test]
fn predecessors_are_the_inverse_of_moves() {
    for spec in [
        "connect4:4x4",
        "connect4:5x3",
        "connect4:3x4:k3",
        "popout:4x4",
        "popout:3x4",
        "popout:5x3",
    ] {
        with_indexed!(start(spec), g => {
            let (forward, backward) = edges_both_ways(&g);
            assert!(forward.len() > 1000, "{spec}: {} edges", forward.len());
            assert_eq!(forward.len(), backward.len(), "{spec}");
            assert!(forward == backward, "{spec}: the edges differ");
        });
    }
}

/// A random position reached by `plies` random moves that keep the game going.
fn random_position<G: Indexed + Tactics + Notation>(
    start: G,
    rng: &mut SplitMix,
    plies: usize,
) -> G {
    let mut pos = start;
    for _ in 0..plies {
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let open: Vec<_> = moves
            .iter()
            .copied()
            .filter(|&m| !G::Kind::is_claim(&pos, m) && pos.play(m).status() == Status::Ongoing)
            .collect();
        if open.is_empty() {
            break;
        }
        pos = pos.play(open[rng.below(open.len())]);
    }
    pos
}

/// Connect Four: the exact score that the database's value and distance make.
fn score_of<G: Indexed + Bounded>(pos: &G, value: RetroValue) -> i32 {
    let end = |d: u32| pos.ply() + d;
    match value {
        RetroValue::Draw => 0,
        RetroValue::Win(d) => win_at(pos.max_plies(), end(d)),
        RetroValue::Loss(d) => -win_at(pos.max_plies(), end(d)),
    }
}

#[test]
fn connect_four_values_agree_with_alpha_beta() {
    let mut rng = SplitMix(0x7e7);
    for (spec, samples) in [
        ("connect4:4x4", 1500),
        ("connect4:5x4", 1500),
        ("connect4:4x5:k3", 500),
    ] {
        with_connect!(start(spec), g => {
            let (solution, summary) = retro::solve(&g, 2).unwrap();
            assert!(summary.wins > 0 && summary.losses > 0 && summary.draws > 0, "{spec}: {summary:?}");
            let mut engine = Engine::new(&g, Options::default());
            for n in 0..samples {
                let pos = random_position(g, &mut rng, n % (g.max_plies() as usize));
                let value = solution.value(&pos).unwrap_or_else(|| panic!("{spec} {pos:?}"));
                let want = engine.solve(&pos, &Limits::default()).score.unwrap();
                assert_eq!(score_of(&pos, value), want, "{spec} {pos:?}");
            }
        });
    }
}

#[test]
fn popout_values_and_distances_agree_with_the_forward_searches() {
    let mut rng = SplitMix(0x90b);
    for (spec, samples) in [
        ("popout:4x4", 300),
        ("popout:4x3", 600),
        ("popout:3x4", 300),
    ] {
        with_indexed!(start(spec), g => {
            let (solution, summary) = retro::solve(&g, 2).unwrap();
            let mut options = Options { mem_mb: 256, ..Options::default() };
            options.config.tt_mb = 64;
            let mut exact = Engine::new(&g, Options { distance: true, ..options.clone() });
            let mut dfpn = Engine::new(&g, Options { algorithm: Some(Algorithm::DfPn), ..options });
            let mut seen = [0; 3];
            for n in 0..samples {
                let pos = random_position(g, &mut rng, n % 30);
                let value = solution.value(&pos).unwrap_or_else(|| panic!("{spec} {pos:?}"));
                let report = exact.solve(&pos, &Limits::default());
                let (score, plies) = match value {
                    RetroValue::Win(d) => (1, Some(d)),
                    RetroValue::Loss(d) => (-1, Some(d)),
                    RetroValue::Draw => (0, None),
                };
                assert_eq!(report.score, Some(score), "{spec} {pos:?}: {summary:?}");
                assert_eq!(report.plies, plies, "{spec} {pos:?}: distance");
                assert_eq!(dfpn.solve(&pos, &Limits::default()).score, Some(score), "{spec} {pos:?}: df-pn");
                seen[(score + 1) as usize] += 1;
            }
            assert!(seen.iter().filter(|&&n| n > 0).count() >= 2, "{spec}: {seen:?}");
        });
    }
}

#[test]
fn strong_solutions_give_the_published_values_of_the_empty_boards() {
    // Connect Four: the exact score of the size table (Tromp).
    for (w, h) in [(4, 4), (5, 4), (4, 5)] {
        with_connect!(start(&format!("connect4:{w}x{h}")), g => {
            let (solution, _) = retro::solve(&g, 2).unwrap();
            let value = solution.value(&g).unwrap();
            assert_eq!(score_of(&g, value), super::sizes::published_score(w, h), "{w}x{h}");
        });
    }
    // PopOut: popout_values.tsv, restated (tests/suite/popout_solve.rs checks the restated
    // values against it where the data is), and the distance the forward search finds.
    for (w, h, want) in [
        (4, 4, RetroValue::Draw),
        (5, 4, RetroValue::Draw),
        (4, 5, RetroValue::Win(25)),
        (3, 4, RetroValue::Draw),
    ] {
        with_indexed!(start(&format!("popout:{w}x{h}")), g => {
            let (solution, _) = retro::solve(&g, 2).unwrap();
            assert_eq!(solution.value(&g), Some(want), "popout:{w}x{h}");
        });
    }
}

/// Runs `inarow` and expects exit code `code`; returns standard output.
fn run_ok(args: &[&str], code: i32) -> String {
    let r = inarow(args, None);
    r.assert_no_panic();
    assert_eq!(r.code, Some(code), "{args:?}: {}", r.stderr);
    r.stdout
}

#[test]
fn databases_answer_as_the_solver_does() {
    let db = temp_file("retro-p44.db");
    let path = db.to_str().unwrap();
    let built = run_ok(
        &["retro", "build", "--game", "popout:4x4", "--out", path],
        0,
    );
    assert!(built.contains("\nstart draw\n"), "{built}");
    assert!(built.contains("\nlongest 25\n"), "{built}");
    let positions = ["-", "44", "44p4", "1212", "4444333"];
    let mut solve_args = vec!["solve", "--game", "popout:4x4", "--distance"];
    solve_args.extend(positions);
    let searched = run_ok(&solve_args, 0);
    let mut query = vec!["retro", "query", path];
    query.extend(positions);
    assert_eq!(run_ok(&query, 0), searched);
    solve_args.extend(["--db", path]);
    assert_eq!(run_ok(&solve_args, 0), searched);
    let json = run_ok(&["retro", "query", "--json", path, "44p4"], 0);
    assert!(
        json.contains("\"plies\":17") && json.contains("\"outcome\":\"win\""),
        "{json}"
    );

    // Connect Four: exact scores, the same analysis with and without the database.
    let c4 = temp_file("retro-c54.db");
    let c4_path = c4.to_str().unwrap();
    run_ok(
        &["retro", "build", "--game", "connect4:5x4", "--out", c4_path],
        0,
    );
    for moves in ["-", "3", "3313", "22"] {
        let analyze = ["analyze", "--game", "connect4:5x4", moves];
        let with_db = [&analyze[..], &["--db", c4_path]].concat();
        assert_eq!(run_ok(&with_db, 0), run_ok(&analyze, 0), "{moves}");
    }
    let with_db = run_ok(
        &[
            "solve",
            "--stats",
            "--game",
            "connect4:5x4",
            "--db",
            c4_path,
            "3",
        ],
        0,
    );
    assert!(
        with_db.contains(" nodes=0 "),
        "answered without search: {with_db}"
    );
    for f in [&db, &c4] {
        let _ = std::fs::remove_file(f);
    }
}

/// Builds the database of `spec` in one go, then again with `extra` flags, stopped after every
/// round (`--time 1e-9`: a nanosecond, over as a round ends, which saves the state) and resumed
/// until done; checks that the two files are the same byte for byte and that no partial state
/// is left. `after_a_stop(path)` looks at the second build's files after its first stop.
/// Returns the runs the second build took.
fn same_file_after_resuming(spec: &str, extra: &[&str], after_a_stop: impl Fn(&str)) -> usize {
    let whole = temp_file(&format!("retro-whole-{spec}.db"));
    let resumed = temp_file(&format!("retro-resumed-{spec}.db"));
    let (whole_path, resumed_path) = (whole.to_str().unwrap(), resumed.to_str().unwrap());
    let game = ["retro", "build", "--game", spec];
    run_ok(&[&game[..], &["--out", whole_path]].concat(), 0);
    let stepwise = [&game[..], &["--out", resumed_path, "--time", "1e-9"], extra].concat();
    let mut runs = 0;
    loop {
        let r = inarow(&stepwise, None);
        r.assert_no_panic();
        runs += 1;
        match r.code {
            Some(3) => assert!(
                r.stderr.contains("run the same command again"),
                "{}",
                r.stderr
            ),
            Some(0) => break,
            other => panic!("exit {other:?}: {}", r.stderr),
        }
        if runs == 1 {
            after_a_stop(resumed_path);
        }
        assert!(runs < 100, "the build does not progress");
    }
    assert!(std::fs::read(&whole).unwrap() == std::fs::read(&resumed).unwrap());
    for suffix in [".partial", ".cells", ".round-1", ".round-2"] {
        assert!(!std::path::Path::new(&format!("{resumed_path}{suffix}")).exists());
    }
    for f in [&whole, &resumed] {
        let _ = std::fs::remove_file(f);
    }
    runs
}

#[test]
fn an_interrupted_build_resumes_to_the_same_file() {
    let runs = same_file_after_resuming("popout:4x3", &[], |_| {});
    assert!(runs > 3, "stopped and resumed {runs} times");
}

#[test]
fn a_build_checks_its_time_limit_as_solve_does() {
    // Zero, negative and infinite times are refused with solve's message, before anything is
    // written.
    let db = temp_file("retro-bad-time.db");
    for time in ["0", "-1", "inf"] {
        let solve = inarow(&["solve", "--time", time, "4"], None);
        let build = inarow(
            &[
                "retro",
                "build",
                "--game",
                "popout:4x3",
                "--out",
                db.to_str().unwrap(),
                "--time",
                time,
            ],
            None,
        );
        for r in [&solve, &build] {
            r.assert_no_panic();
            assert_eq!(r.code, Some(2), "--time {time}: {}", r.stderr);
            assert_eq!(r.stdout, "", "--time {time}");
        }
        assert!(
            build
                .stderr
                .contains("must be a positive number of seconds"),
            "{}",
            build.stderr
        );
        assert_eq!(build.stderr, solve.stderr, "--time {time}");
        assert!(!db.exists(), "a refused build writes nothing");
    }
}

#[test]
fn a_small_memory_budget_keeps_the_cells_on_disk_and_gives_the_same_file() {
    // popout:5x4 needs 17.9 MB in memory; 14 MiB leaves slices of about 2.7 MB on disk.
    let runs = same_file_after_resuming("popout:5x4", &["--mem-mb", "14"], |path| {
        assert!(std::path::Path::new(&format!("{path}.cells")).exists());
    });
    assert!(runs > 3, "stopped and resumed {runs} times");
    let sliced = temp_file("retro-sliced.db");
    let sliced_path = sliced.to_str().unwrap();
    let game = ["retro", "build", "--game", "popout:5x4"];
    // Below two bits an index (and the buffers) nothing can be done: refused with the minimum.
    let r = inarow(
        &[&game[..], &["--out", sliced_path, "--mem-mb", "4"]].concat(),
        None,
    );
    assert_eq!(r.code, Some(2));
    assert!(r.stderr.contains("needs at least 13 MiB"), "{}", r.stderr);
    assert!(!sliced.exists(), "a refused build writes nothing");
}

#[test]
fn a_compact_build_gives_the_same_file_and_resumes() {
    let runs = same_file_after_resuming("popout:4x5", &["--compact"], |path| {
        let partial = std::fs::read(format!("{path}.partial")).unwrap();
        assert!(partial.windows(12).any(|w| w == b"\ncompact yes"));
        assert!(std::path::Path::new(&format!("{path}.round-1")).exists());
    });
    assert!(runs > 3, "stopped and resumed {runs} times");
    for spec in ["connect4:5x4", "popout:5x4"] {
        let (bytes, halves) = (temp_file("retro-bytes.db"), temp_file("retro-halves.db"));
        let report = |file: &std::path::Path, extra: &[&str]| {
            let args = [
                "retro",
                "build",
                "--game",
                spec,
                "--out",
                file.to_str().unwrap(),
            ];
            let out = run_ok(&[&args[..], extra].concat(), 0);
            out.lines()
                .filter(|l| !l.starts_with("written"))
                .collect::<Vec<_>>()
                .join("\n")
        };
        assert_eq!(
            report(&bytes, &[]),
            report(&halves, &["--compact"]),
            "{spec}"
        );
        assert!(
            std::fs::read(&bytes).unwrap() == std::fs::read(&halves).unwrap(),
            "{spec}"
        );
        for f in [&bytes, &halves] {
            let _ = std::fs::remove_file(f);
        }
    }
}

#[test]
fn every_storage_builds_the_byte_builds_file_on_one_thread_or_two() {
    // Connect Four 5x4's 14.3 M indices: a byte each in memory, half a byte (--compact), or
    // on disk in slices of about 1.7 MB (--mem-mb 13), each on one thread and on two.
    let spec = "connect4:5x4";
    let build = |name: &str, extra: &[&str]| {
        let file = temp_file(&format!("retro-storage-{name}.db"));
        let args = [
            "retro",
            "build",
            "--game",
            spec,
            "--out",
            file.to_str().unwrap(),
        ];
        let out = run_ok(&[&args[..], extra].concat(), 0);
        let report: Vec<_> = out.lines().filter(|l| !l.starts_with("written")).collect();
        let bytes = std::fs::read(&file).unwrap();
        let _ = std::fs::remove_file(&file);
        (report.join("\n"), bytes)
    };
    let want = build("bytes", &[]);
    for (name, extra) in [
        ("bytes-1", &["--threads", "1"][..]),
        ("halves-1", &["--compact", "--threads", "1"]),
        ("halves-2", &["--compact", "--threads", "2"]),
        ("slices-1", &["--mem-mb", "13", "--threads", "1"]),
        ("slices-2", &["--mem-mb", "13", "--threads", "2"]),
    ] {
        let got = build(name, extra);
        assert_eq!(got.0, want.0, "{name}");
        assert!(got.1 == want.1, "{name}: a different file");
    }
}

#[test]
fn a_database_answers_the_same_from_its_file_as_from_memory() {
    use inarow::engine::knowledge::database::Database;
    let db = temp_file("retro-on-disk.db");
    let path = db.to_str().unwrap();
    run_ok(
        &["retro", "build", "--game", "popout:4x5", "--out", path],
        0,
    );
    let mut rng = SplitMix(0xd15c);
    with_popout!(start("popout:4x5"), g => {
        let (memory, disk) = (Database::load(&db, &g).unwrap(), Database::load_on_disk(&db, &g).unwrap());
        assert_eq!(memory.summary(), disk.summary());
        for n in 0..2000 {
            let pos = random_position(g, &mut rng, n % 30);
            assert!(disk.value(&pos).is_some());
            assert_eq!(memory.value(&pos), disk.value(&pos), "{pos:?}");
        }
        let mut bytes = std::fs::read(&db).unwrap();
        let middle = bytes.len() / 2;
        bytes[middle] ^= 1;
        std::fs::write(&db, &bytes).unwrap();
        let refused = Database::load_on_disk(&db, &g).unwrap_err();
        assert!(matches!(refused, inarow::Error::File(_)), "{refused:?}");
        assert!(refused.to_string().contains("checksum mismatch"), "{refused}");
    });
    let _ = std::fs::remove_file(&db);
}

#[test]
fn a_compact_build_with_a_damaged_list_or_state_writes_nothing() {
    let db = temp_file("retro-compact-bad.db");
    let path = db.to_str().unwrap();
    let build = [
        "retro",
        "build",
        "--compact",
        "--game",
        "popout:4x3",
        "--out",
        path,
    ];
    // Stopped after the first round (a nanosecond is over as it ends).
    let stop = [&build[..], &["--time", "1e-9"]].concat();
    let refused = |args: &[&str], expect: &str| {
        let r = inarow(args, None);
        r.assert_no_panic();
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(expect), "{expect}: {}", r.stderr);
        assert!(!db.exists(), "nothing written");
    };
    // A flipped bit in the first round's list: found when the database is written.
    run_ok(&stop, 3);
    let list = format!("{path}.round-1");
    let mut bytes = std::fs::read(&list).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x10;
    std::fs::write(&list, &bytes).unwrap();
    refused(&build, "round-1");
    // A damaged state, or a missing list: refused before anything is done.
    let partial = format!("{path}.partial");
    let mut state = std::fs::read(&partial).unwrap();
    let last = state.len() - 1;
    state[last] ^= 1;
    std::fs::write(&partial, &state).unwrap();
    refused(&build, "is damaged; remove it and");
    state[last] ^= 1;
    std::fs::write(&partial, &state).unwrap();
    std::fs::remove_file(&list).unwrap();
    refused(&build, "which is missing");
    for suffix in [".partial", ".round-1", ".round-2"] {
        let _ = std::fs::remove_file(format!("{path}{suffix}"));
    }
}

#[test]
fn damaged_and_foreign_files_are_refused() {
    let db = temp_file("retro-bad.db");
    let path = db.to_str().unwrap();
    run_ok(
        &["retro", "build", "--game", "connect4:4x4", "--out", path],
        0,
    );
    let good = std::fs::read(&db).unwrap();
    let refused = |bytes: &[u8], args: &[&str], expect: &str| {
        std::fs::write(&db, bytes).unwrap();
        let r = inarow(args, None);
        r.assert_no_panic();
        assert_eq!(r.code, Some(2), "{args:?}");
        assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
        assert!(r.stderr.contains(expect), "{expect}: {}", r.stderr);
    };
    let query = ["retro", "query", path, "1"];
    refused(&[&good[..], b"x"].concat(), &query, "corrupt");
    refused(&good[..good.len() - 10], &query, "truncated");
    let mut flipped = good.clone();
    *flipped.last_mut().unwrap() ^= 1;
    refused(&flipped, &query, "checksum mismatch");
    refused(b"hello\n\nworld", &query, "not an inarow database");
    refused(
        &good,
        &["solve", "--game", "connect4:5x4", "--db", path, "1"],
        "is for connect4:4x4:k4, not for connect4:5x4:k4",
    );
    refused(
        &good,
        &[
            "retro",
            "build",
            "--game",
            "popout:5x5",
            "--out",
            path,
            "--mem-mb",
            "100",
        ],
        "more than the memory budget of 100 MiB",
    );
    // A partial build of another game, or a damaged one, is not resumed.
    let partial = format!("{path}.partial");
    let build = ["retro", "build", "--game", "connect4:4x4", "--out", path];
    std::fs::write(
        &partial,
        b"inarow-retro-partial 2\ngame popout:4x4\ncells 3\n\n",
    )
    .unwrap();
    refused(&good, &build, "remove it to start afresh");
    std::fs::write(
        &partial,
        b"inarow-retro-partial 2\ngame connect4:4x4:k4\ncells 462241\nround 2\ncrc32 0\n\n",
    )
    .unwrap();
    refused(&good, &build, "damaged; remove it to start afresh");
    let _ = std::fs::remove_file(&partial);
    let _ = std::fs::remove_file(&db);
}

/// Builds `spec`'s database on `size` ranks run as threads, stopped after every round when
/// `stop` (and resumed until done); returns the file's bytes and the reports of the last run.
fn build_on_ranks(
    spec: &str,
    size: usize,
    stop: bool,
) -> (
    Vec<u8>,
    Vec<inarow::engine::knowledge::database::BuildReport>,
) {
    use inarow::engine::knowledge::database::{BuildOptions, build_ranked};
    use inarow::search::ranks::Local;
    let path = temp_file(&format!("retro-ranks-{size}-{stop}-{spec}.db"));
    let options = BuildOptions {
        threads: 1,
        mem_bytes: 1 << 30,
        save_every: std::time::Duration::from_secs(3600),
        limits: inarow::engine::Limits {
            time: stop.then_some(std::time::Duration::ZERO),
            ..Default::default()
        },
        compact: false,
    };
    let quiet = |_: retro::Progress| {};
    let mut runs = 0;
    let reports = loop {
        runs += 1;
        assert!(runs < 100, "{spec} on {size} ranks does not progress");
        let reports = inarow::with_game!(start(spec), g => Local::run(size, |ranks| {
            build_ranked(&g, &path, &options, &quiet, ranks).unwrap()
        }));
        // Every rank decides alike: all stopped, or all done.
        assert!(
            reports.iter().all(|r| r.stopped == reports[0].stopped),
            "{reports:?}"
        );
        if reports[0].stopped.is_none() {
            break reports;
        }
    };
    if stop {
        assert!(runs > 3, "{spec}: stopped and resumed {runs} times");
    }
    let bytes = std::fs::read(&path).unwrap();
    let _ = std::fs::remove_file(&path);
    for rank in 0..size {
        let partial = format!("{}.rank-{rank}-of-{size}.partial", path.display());
        assert!(!std::path::Path::new(&partial).exists(), "{partial} left");
    }
    (bytes, reports)
}

#[test]
fn ranks_build_the_same_file_as_one_process() {
    for spec in ["popout:4x5", "popout:5x4", "connect4:5x4"] {
        let one = temp_file(&format!("retro-one-{spec}.db"));
        run_ok(
            &[
                "retro",
                "build",
                "--game",
                spec,
                "--out",
                one.to_str().unwrap(),
            ],
            0,
        );
        let want = std::fs::read(&one).unwrap();
        let _ = std::fs::remove_file(&one);
        let mut found = Vec::new();
        for size in [2, 3] {
            let (got, reports) = build_on_ranks(spec, size, false);
            assert!(got == want, "{spec} on {size} ranks: a different file");
            let traffic = &reports[0].traffic;
            assert!(traffic.iter().all(|t| t.exchanges > 0), "{traffic:?}");
            // Something crosses between ranks, never more than every predecessor found.
            let bytes: u64 = traffic.iter().map(|t| t.bytes).sum();
            let predecessors: u64 = traffic.iter().map(|t| t.predecessors).sum();
            assert!(bytes > 0 && bytes <= 8 * predecessors, "{traffic:?}");
            found.push(predecessors);
            assert!(
                reports
                    .iter()
                    .all(|r| r.summary == reports[0].summary && r.start == reports[0].start)
            );
        }
        // The same frontiers are expanded however the indices are shared.
        assert_eq!(found[0], found[1], "{spec}");
    }
    // Stopped after every round and resumed, on three ranks.
    let (got, _) = build_on_ranks("popout:4x3", 3, true);
    let one = temp_file("retro-one-popout43.db");
    run_ok(
        &[
            "retro",
            "build",
            "--game",
            "popout:4x3",
            "--out",
            one.to_str().unwrap(),
        ],
        0,
    );
    assert!(
        got == std::fs::read(&one).unwrap(),
        "popout:4x3 resumed on 3 ranks: a different file"
    );
    let _ = std::fs::remove_file(&one);
}

#[test]
fn a_rank_with_a_damaged_or_missing_state_stops_every_rank_with_one_line() {
    use inarow::engine::knowledge::database::{BuildOptions, build_ranked};
    use inarow::search::ranks::Local;
    let path = temp_file("retro-ranks-damaged.db");
    let options = BuildOptions {
        threads: 1,
        mem_bytes: 1 << 30,
        save_every: std::time::Duration::from_secs(3600),
        limits: inarow::engine::Limits::within(std::time::Duration::ZERO),
        compact: false,
    };
    let quiet = |_: retro::Progress| {};
    let build = || {
        inarow::with_game!(start("popout:4x3"), g => Local::run(2, |ranks| {
            build_ranked(&g, &path, &options, &quiet, ranks)
        }))
    };
    let stopped = build();
    assert!(
        stopped
            .iter()
            .all(|r| r.as_ref().unwrap().stopped.is_some())
    );
    let partial = |rank: usize| format!("{}.rank-{rank}-of-2.partial", path.display());
    let mut bytes = std::fs::read(partial(1)).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 1;
    std::fs::write(partial(1), &bytes).unwrap();
    let refused = build();
    let message = |rank: usize| {
        let e = refused[rank].as_ref().unwrap_err();
        assert!(matches!(e, inarow::Error::File(_)), "{e:?}");
        e.to_string()
    };
    assert!(message(1).contains("is damaged"), "{}", message(1));
    assert!(message(0).contains("another rank"), "{}", message(0));
    assert!(
        std::fs::read(partial(1)).unwrap() == bytes,
        "a refused state is left as it was"
    );
    // A rank without a state beside one with it: the states do not match.
    std::fs::remove_file(partial(1)).unwrap();
    for r in build() {
        let e = r.unwrap_err();
        assert!(matches!(e, inarow::Error::File(_)), "{e:?}");
        let e = e.to_string();
        assert!(e.contains("do not match") && !e.contains('\n'), "{e}");
    }
    assert!(!path.exists());
    let _ = std::fs::remove_file(partial(0));
}
