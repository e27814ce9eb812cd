//! The compact book format (`engine::knowledge::compact`) on real scores: every 7x6 position
//! up to 8 plies with the exact score of the built-in book, written compact, read back, and
//! looked up: entries, bytes against the sorted-keys format, and the time of one lookup
//! (median, 95th percentile and slowest over the positions, in a shuffled order, each the
//! mean of 20), beside the sorted-keys book's own lookup of the same positions. Every score
//! read must equal the built-in book's (the run stops otherwise).
//!
//! Run: `cargo bench -p inarow --bench book_lookup`.

use inarow::engine::knowledge::book::{Book, positions_by_ply};
use inarow::engine::knowledge::compact::{CompactBook, Ranking};
use inarow::game::{Connect, Grid, Rules, Runtime};
use std::hint::black_box;
use std::time::Instant;

type C4 = Connect<u64, Runtime>;
const DEPTH: u32 = 8;
const REPEATS: u32 = 20;

fn main() {
    let start: C4 = Connect::new(Runtime::new(Grid::new(7, 6, 4).expect("7x6")));
    let book = Book::builtin_for(&start).expect("the built-in 7x6 book");
    let geometry = start.gravity_position().expect("a gravity board").0;
    let all: Vec<C4> = positions_by_ply(start, DEPTH).concat();
    let ranking = Ranking::new(geometry, DEPTH);
    let ranks = ranking.len();
    let scored: Vec<(u64, i32)> = all
        .iter()
        .map(|p| {
            let score = book
                .lookup(p)
                .expect("every position to 8 plies is in the book");
            (ranking.rank_of(p).expect("a rank"), score)
        })
        .collect();
    let compact = CompactBook::new(&start.name(), ranking, scored).expect("a compact book");
    let bytes = compact.to_bytes();
    let size = bytes.len();
    let read = CompactBook::parse(bytes, "bench", &start.name()).expect("it reads");
    for p in &all {
        assert_eq!(read.score(p), book.lookup(p), "the same score");
    }
    // A shuffled order, so that lookups do not walk the memory in rank order.
    let mut order: Vec<usize> = (0..all.len()).collect();
    let mut seed = 0x0079u64;
    for i in (1..order.len()).rev() {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        order.swap(i, (seed >> 33) as usize % (i + 1));
    }
    let compact_times = timed(&order, |i| read.score(black_box(&all[i])).is_some());
    let sorted_times = timed(&order, |i| book.lookup(black_box(&all[i])).is_some());
    println!(
        "compact depth={DEPTH} entries={} ranks={ranks} file_bytes={} sorted_keys_bytes={} {}",
        read.len(),
        size,
        all.len() * 8,
        summary("lookup", compact_times)
    );
    println!("sorted-keys {}", summary("lookup", sorted_times));
}

fn timed(order: &[usize], f: impl Fn(usize) -> bool) -> Vec<f64> {
    let mut times: Vec<f64> = order
        .iter()
        .map(|&i| {
            let started = Instant::now();
            for _ in 0..REPEATS {
                black_box(f(i));
            }
            started.elapsed().as_secs_f64() * 1e6 / REPEATS as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

fn summary(name: &str, times: Vec<f64>) -> String {
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    format!(
        "{name}_median_us={:.3} p95_us={:.3} max_us={:.3} mean_us={:.3}",
        at(0.5),
        at(0.95),
        at(1.0),
        times.iter().sum::<f64>() / times.len() as f64
    )
}
