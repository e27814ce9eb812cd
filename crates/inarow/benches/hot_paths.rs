//! Benchmarks of the search's hot paths (divan): move generation, win detection, table probes,
//! and whole solves of the same positions on the compile-time 7x6 board and on 7x6 chosen at
//! run time (64- and 128-bit words), which measures what the generic geometry costs.
//!
//! Run: `cargo bench --bench hot_paths`

use divan::{Bencher, black_box};
use inarow::game::{
    Bounded, Connect, Grid, MoveList, Notation, Rules, Runtime, Standard, Tactics, play_moves,
};
use inarow::limits::Clock;
use inarow::search::{AlphaBeta, Bound, Config, Scheme, Table};

fn main() {
    divan::main();
}

/// Mid-game positions from the public set Test_L2_R1 (move strings only).
const POSITIONS: [&str; 8] = [
    "5554224333234511764415115",
    "52753311433677442422121",
    "1233722555341451114725221333",
    "271713432331713132",
    "6672375354252731116762237724",
    "763452543756455357732314",
    "662222576343651642712157",
    "3455565261655364217",
];

fn positions<G: Notation>(start: G) -> Vec<G> {
    POSITIONS
        .iter()
        .map(|m| play_moves(start, m).expect("valid benchmark position").0)
        .collect()
}

fn standard() -> Vec<Connect<u64, Standard>> {
    positions(Connect::new(Standard))
}

fn sized<B: inarow::game::bits::Bits>() -> Vec<Connect<B, Runtime>> {
    positions(Connect::new(Runtime::new(Grid::new(7, 6, 4).unwrap())))
}

#[divan::bench]
fn safe_moves(bencher: Bencher) {
    let ps = standard();
    bencher.bench(|| {
        let mut total = 0;
        for p in &ps {
            let mut moves = MoveList::new();
            black_box(p).safe_moves(&mut moves);
            total += moves.len();
        }
        total
    });
}

#[divan::bench]
fn rank_moves(bencher: Bencher) {
    let ps = standard();
    bencher.bench(|| {
        let mut total = 0;
        for p in &ps {
            let mut moves = MoveList::new();
            p.safe_moves(&mut moves);
            black_box(p).rank_moves(&mut moves);
            total += moves.iter().map(|m| m.rank).sum::<i32>();
        }
        total
    });
}

#[divan::bench]
fn has_winning_move(bencher: Bencher) {
    let ps = standard();
    bencher.bench(|| {
        ps.iter()
            .filter(|p| black_box(*p).has_winning_move())
            .count()
    });
}

#[divan::bench]
fn status(bencher: Bencher) {
    let ps = standard();
    bencher.bench(|| {
        ps.iter()
            .filter(|p| black_box(**p).status() != inarow::game::Status::Ongoing)
            .count()
    });
}

#[divan::bench]
fn canonical_key(bencher: Bencher) {
    let ps = standard();
    bencher.bench(|| {
        ps.iter()
            .map(|p| black_box(*p).canonical_key())
            .fold(0, |a, k| a ^ k)
    });
}

#[divan::bench]
fn table_probe(bencher: Bencher) {
    let table = Table::new(64, Scheme::TwoBig, 49);
    let mut log = table.write_log();
    let keys: Vec<u128> = (0..4096u128)
        .map(|i| i.wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 15)
        .collect();
    for (i, &k) in keys.iter().enumerate().step_by(2) {
        table.store(
            &mut log,
            k,
            (i % 20) as i32 - 10,
            Bound::Exact,
            Some(3),
            i as u64,
        );
    }
    bencher.bench(|| {
        keys.iter()
            .filter(|&&k| black_box(&table).probe(k).is_some())
            .count()
    });
}

fn solve_all<G: Bounded + Tactics>(bencher: Bencher, ps: Vec<G>) {
    let mut solver = AlphaBeta::new(
        &ps[0],
        Config {
            tt_mb: 16,
            ..Config::default()
        },
    );
    bencher.bench_local(|| {
        let mut sum = 0;
        for p in &ps {
            solver.reset();
            sum += solver
                .solve(black_box(p), false, &mut Clock::default())
                .unwrap();
        }
        sum
    });
}

#[divan::bench]
fn solve_standard_7x6(bencher: Bencher) {
    solve_all(bencher, standard());
}

#[divan::bench]
fn solve_sized_7x6_u64(bencher: Bencher) {
    solve_all(bencher, sized::<u64>());
}

#[divan::bench]
fn solve_sized_7x6_u128(bencher: Bencher) {
    solve_all(bencher, sized::<u128>());
}
