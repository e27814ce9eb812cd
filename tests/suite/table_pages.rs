//! The transposition table's memory is touched before a timed search, never inside one: an
//! engine readied once takes no page fault in its table while it solves.

use super::common::SplitMix;
use inarow::engine::{Config, Engine, Options};
use inarow::game::{Connect, MoveList, Rules, Standard, Tactics};
use inarow::limits::Limits;

/// Minor page faults of the calling thread so far.
fn minor_faults() -> i64 {
    // SAFETY: getrusage writes the struct it is given.
    unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        assert_eq!(libc::getrusage(libc::RUSAGE_THREAD, &mut usage), 0);
        usage.ru_minflt
    }
}

/// `count` positions of random play to ply 30 to 36 (the kind of the public set L3_R1), each
/// still going and without an immediate win.
fn endgames(count: usize, seed: u64) -> Vec<Connect<u64, Standard>> {
    let mut rng = SplitMix(seed);
    let mut out = Vec::new();
    while out.len() < count {
        let plies = 30 + rng.below(7) as u32;
        let mut pos = Connect::<u64, _>::new(Standard);
        while pos.ply() < plies && pos.status() == inarow::game::Status::Ongoing {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            pos = pos.play(moves[rng.below(moves.len())]);
        }
        if pos.status() == inarow::game::Status::Ongoing && !pos.has_winning_move() {
            out.push(pos);
        }
    }
    out
}

#[test]
fn a_readied_table_takes_no_page_fault_in_a_timed_search() {
    let start = Connect::<u64, _>::new(Standard);
    let positions = endgames(1000, 48);
    // The same searches on a small table first, so that the stack and the heap have grown to
    // what they need: the faults counted below can only be the table's.
    let small = Options {
        config: Config {
            tt_mb: 1,
            ..Config::default()
        },
        ..Options::default()
    };
    let mut warm = Engine::new(&start, small);
    for pos in &positions {
        warm.reset();
        warm.solve(pos, &Limits::default());
    }
    drop(warm);
    let mut engine = Engine::new(&start, Options::default());
    engine.ready();
    let before = minor_faults();
    for pos in &positions {
        engine.reset();
        assert!(engine.solve(pos, &Limits::default()).score.is_some());
    }
    let faults = minor_faults() - before;
    // The 64 MiB table is 32 huge pages or 16,384 small ones, and a thousand searches reach all
    // of them; an engine not readied starts on a first table of 256 small pages.
    assert!(
        faults <= 4,
        "{faults} minor page faults in 1000 searches on a readied table"
    );
}
