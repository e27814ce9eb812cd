//! Job-level search: the same win / draw / loss as the solver, on threads and on ranks (as
//! threads), at every cut depth; refused for games that repeat.

use super::cli::inarow;
use super::common::{SplitMix, start, temp_file};
use inarow::engine::distributed::workers;
use inarow::engine::{Engine, Limits, Options};
use inarow::game::{MoveList, Rules, Status};
use inarow::search::ranks::{Local, Solo};

/// The weak value of `pos` by job-level search on `ranks` ranks (threads) of `threads` workers,
/// each job given `job_nodes` nodes before it is split; and whether some job was split.
fn by_jobs<G: inarow::game::Tactics + inarow::game::Notation>(
    g: &G,
    moves: &[G::Move],
    depth: u32,
    threads: usize,
    ranks: usize,
    job_nodes: Option<u64>,
) -> (Option<i32>, bool) {
    let mut pos = *g;
    moves.iter().for_each(|&m| pos = pos.play(m));
    let make = || Ok(Engine::new(g, Options::default()));
    let run = |r: &dyn inarow::search::ranks::Ranks| {
        if r.rank() != 0 {
            workers::serve(g, r, threads, &make, &Limits::default(), job_nodes).unwrap();
            return (None, false);
        }
        let report = workers::solve(
            0,
            g,
            &pos,
            moves,
            depth,
            threads,
            r,
            &make,
            &Limits::default(),
            workers::Keeping {
                journal: None,
                settled: &mut |_, _| {},
                job_nodes,
            },
        )
        .unwrap();
        workers::release(r);
        assert!(report.stopped.is_none());
        assert_eq!(report.workers, threads * ranks);
        (report.value, report.questions.iter().any(|q| q.splits > 0))
    };
    if ranks == 1 {
        run(&Solo)
    } else {
        Local::run(ranks, |r| run(r))[0]
    }
}

#[test]
fn job_level_search_gives_the_solvers_value_on_threads_and_ranks() {
    let mut rng = SplitMix(0x70b5);
    with_connect!(start("connect4:5x4"), g => {
        let mut engine = Engine::new(&g, Options { weak: true, ..Options::default() });
        let mut splits = 0;
        for n in 0..24 {
            // A random opening of 0 to 5 plies that keeps the game going.
            let mut moves = Vec::new();
            let mut pos = g;
            for _ in 0..n % 6 {
                let mut list = MoveList::new();
                pos.legal_moves(&mut list);
                let m = list[rng.below(list.len())];
                if pos.play(m).status() != Status::Ongoing {
                    break;
                }
                moves.push(m);
                pos = pos.play(m);
            }
            let want = engine.solve(&pos, &Limits::default()).score;
            for (depth, threads, ranks) in [(0, 1, 1), (1, 2, 1), (2, 1, 2), (3, 2, 2), (4, 2, 3)] {
                assert_eq!(
                    by_jobs(&g, &moves, depth, threads, ranks, None).0, want,
                    "{moves:?} depth {depth}, {threads} threads, {ranks} ranks"
                );
            }
            // Jobs of at most 300 nodes: the DAG grows where they are too large.
            for (depth, threads, ranks) in [(0, 1, 1), (1, 2, 2)] {
                let (value, split) = by_jobs(&g, &moves, depth, threads, ranks, Some(300));
                assert_eq!(value, want, "{moves:?} depth {depth}, split at 300 nodes");
                splits += split as usize;
            }
        }
        assert!(splits > 0, "no job reached 300 nodes");
    });
}

#[test]
fn solve_jobs_answers_on_the_command_line_and_refuses_games_that_repeat() {
    let r = inarow(
        &[
            "solve",
            "--jobs",
            "4",
            "--threads",
            "2",
            "--stats",
            "--game",
            "connect4:6x4",
            "-",
            "33",
        ],
        None,
    );
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let lines: Vec<&str> = r.stdout.lines().collect();
    assert!(lines[0].starts_with("- -1 nodes="), "{}", r.stdout);
    assert!(
        lines[1].starts_with("jobs question=wins depth=4 workers=2 dag_nodes="),
        "{}",
        r.stdout
    );
    let plain = inarow(&["solve", "--weak", "--game", "connect4:6x4", "33"], None);
    let value = plain.stdout.split_whitespace().nth(1).unwrap().to_string();
    assert!(
        r.stdout
            .lines()
            .any(|l| l.starts_with(&format!("33 {value} "))),
        "{}",
        r.stdout
    );
    let refused = inarow(&["solve", "--jobs", "2", "--game", "popout:4x4", "-"], None);
    refused.assert_no_panic();
    assert_eq!(refused.code, Some(2));
    assert_eq!(refused.stderr.lines().count(), 1, "{}", refused.stderr);
    assert!(
        refused.stderr.contains("repeats positions"),
        "{}",
        refused.stderr
    );
}

#[test]
fn solve_jobs_keeps_each_answer_on_disk_and_a_killed_run_resumes_to_the_same_value() {
    let file = temp_file("jobs.answers");
    let _ = std::fs::remove_file(&file);
    let file_arg = file.to_str().unwrap();
    let args = [
        "solve",
        "--jobs",
        "4",
        "--threads",
        "2",
        "--stats",
        "--game",
        "connect4:6x5",
        "--checkpoint",
        file_arg,
        "-",
    ];
    // Killed while its jobs run (or after it ends: either way the file must serve).
    let mut child = std::process::Command::new(env!("CARGO_BIN_EXE_inarow"))
        .args(args)
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::null())
        .spawn()
        .unwrap();
    std::thread::sleep(std::time::Duration::from_millis(300));
    child.kill().unwrap();
    child.wait().unwrap();
    let resumed = inarow(&args, None);
    resumed.assert_no_panic();
    assert_eq!(resumed.code, Some(0), "{}", resumed.stderr);
    assert!(
        resumed.stdout.starts_with("- 0 nodes="),
        "{}",
        resumed.stdout
    );
    // Each move of the root is told as the jobs settle it.
    assert!(
        resumed.stderr.contains("inarow: -: 4 does not win ("),
        "{}",
        resumed.stderr
    );
    // A third run searches nothing: every answer it needs is on disk.
    let again = inarow(&args, None);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(again.stdout.starts_with("- 0 nodes=0 "), "{}", again.stdout);
    assert!(again.stdout.contains(" started=0 "), "{}", again.stdout);
    let kept = again.stderr.lines().next().unwrap();
    assert!(
        kept.starts_with("inarow: ") && kept.ends_with(&format!(" job answers from {file_arg}")),
        "{}",
        again.stderr
    );
    // Another game's run refuses the file in one line.
    let other = inarow(
        &[
            "solve",
            "--jobs",
            "2",
            "--game",
            "connect4:5x4",
            "--checkpoint",
            file_arg,
            "-",
        ],
        None,
    );
    assert_eq!(other.code, Some(2), "{}", other.stderr);
    assert_eq!(
        other.stderr.trim(),
        format!("inarow: {file_arg} holds the jobs of connect4:6x5:k4, not of connect4:5x4:k4")
    );
    std::fs::remove_file(&file).unwrap();
}

/// Jobs over their node budget are split two plies further, the value stays the solver's, and
/// the splits are kept on disk with the answers: a run started again replays them and
/// searches nothing.
#[test]
fn jobs_over_their_budget_are_split_and_the_splits_kept_on_disk() {
    let file = temp_file("split.answers");
    let _ = std::fs::remove_file(&file);
    let args = [
        "solve",
        "--jobs",
        "2",
        "--job-nodes",
        "20000",
        "--threads",
        "2",
        "--stats",
        "--game",
        "connect4:6x5",
        "--checkpoint",
        file.to_str().unwrap(),
        "-",
    ];
    let first = inarow(&args, None);
    first.assert_no_panic();
    assert_eq!(first.code, Some(0), "{}", first.stderr);
    assert!(first.stdout.starts_with("- 0 nodes="), "{}", first.stdout);
    // Each question's DAG nodes and splits, from the `jobs` lines.
    let stats = |out: &str| -> Vec<(usize, usize)> {
        let field = |l: &str, name: &str| -> usize {
            let rest = l.split(&format!(" {name}=")).nth(1).unwrap();
            rest.split(' ').next().unwrap().parse().unwrap()
        };
        out.lines()
            .filter(|l| l.starts_with("jobs "))
            .map(|l| (field(l, "dag_nodes"), field(l, "splits")))
            .collect()
    };
    let before = stats(&first.stdout);
    assert!(before.iter().any(|&(_, s)| s > 0), "{}", first.stdout);
    let again = inarow(&args, None);
    assert_eq!(again.code, Some(0), "{}", again.stderr);
    assert!(again.stdout.starts_with("- 0 nodes=0 "), "{}", again.stdout);
    assert!(again.stdout.contains(" started=0 "), "{}", again.stdout);
    // Every split kept is replayed, so each question's DAG is at least the first run's. (It
    // may be larger: a job of the first question split after that question was decided is
    // replayed in the second.)
    let after = stats(&again.stdout);
    assert_eq!(after.len(), before.len(), "{}", again.stdout);
    for (a, b) in after.iter().zip(&before) {
        assert!(a.0 >= b.0 && a.1 >= b.1, "{after:?} against {before:?}");
    }
}
