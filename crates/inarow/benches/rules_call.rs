//! One call of Victor's rules as the searches make it (`side_to_move_cannot_win` and
//! `side_to_move_loses` on the view a search keeps along its path, the search's budget of
//! partial covers), on fixed positions of 8x4, 7x5 and the cube: the time a call takes
//! (median, 95th percentile and slowest over the positions, each position's calls repeated
//! and averaged) and what the calls answered, so that a change to the rules' machinery shows
//! its speed and that it answers the same. Beside it, what keeping the view costs: one move's
//! update (`CoverView::after`), and a view made from the stones (`CoverView::new`).
//!
//! Run: `cargo bench -p inarow --bench rules_call` (one line a board and question; the
//! `claims` and `answers` fields must not change with a change of speed).

use inarow::game::{Bounded, Connect, Gravity, Grid, MoveList, Rules, Runtime, Status};
use inarow::search::cover::CoverView;
use std::hint::black_box;
use std::time::Instant;

/// Positions a board: random games from the empty board, cut at a ply drawn between
/// [`FIRST_PLY`] and the board's cells less [`LAST_EMPTY`], those still open.
const POSITIONS: usize = 400;
const FIRST_PLY: u32 = 6;
const LAST_EMPTY: u32 = 6;
/// Calls of one position, whose mean is that position's time.
const REPEATS: u32 = 20;
/// Empty cells below which the searches do not ask the rules (the searches' `victor_plies`
/// default).
const MIN_EMPTY: u32 = 8;
const SEED: u64 = 0x5eed_0077;

fn main() {
    let eight_four: Connect<u64, Runtime> =
        Connect::new(Runtime::new(Grid::new(8, 4, 4).expect("8x4")));
    let seven_five: Connect<u64, Runtime> =
        Connect::new(Runtime::new(Grid::new(7, 5, 4).expect("7x5")));
    report("8x4", &positions(eight_four));
    report("7x5", &positions(seven_five));
    report("cube", &positions(Gravity::new()));
}

/// A small generator of our own: the positions are the same on every run and machine.
struct SplitMix(u64);

impl SplitMix {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// Positions with their views, each view kept move by move from the empty board's as a search
/// keeps it, and the cell of the last move.
fn positions<G: Bounded>(start: G) -> Vec<(G, CoverView<'static>, u32)> {
    let (_, mine, theirs) = start.gravity_position().expect("a gravity board");
    let cells = start.max_plies();
    debug_assert_eq!(mine | theirs, 0);
    let mut rng = SplitMix(SEED);
    let mut found = Vec::with_capacity(POSITIONS);
    while found.len() < POSITIONS {
        let plies = FIRST_PLY as usize + rng.below((cells - LAST_EMPTY - FIRST_PLY) as usize);
        let mut pos = start;
        let (geometry, _, _) = start.gravity_position().expect("a gravity board");
        let mut view = CoverView::new(geometry, 0, 0).expect("the board's lines fit a view");
        let mut last = 0;
        for _ in 0..plies {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            if pos.status() != Status::Ongoing || moves.is_empty() {
                break;
            }
            let before = pos;
            pos = pos.play(moves[rng.below(moves.len())]);
            let (_, _, moved) = pos.gravity_position().expect("a gravity board");
            let (_, mine, _) = before.gravity_position().expect("a gravity board");
            last = (moved & !mine).trailing_zeros();
            view = view.after(last);
        }
        if pos.status() == Status::Ongoing && pos.ply() > 0 {
            found.push((pos, view, last));
        }
    }
    found
}

fn report<G: Rules>(board: &str, positions: &[(G, CoverView<'static>, u32)]) {
    type Question = fn(&CoverView<'static>, u32) -> bool;
    let questions: [(&str, Question); 2] = [
        ("cannot_win", CoverView::side_to_move_cannot_win),
        ("loses", CoverView::side_to_move_loses),
    ];
    for (name, ask) in questions {
        let mut claims = 0;
        // What each position's answer was, folded into one number.
        let mut answers = 0u64;
        let times = timed(positions, |(_, view, _)| ask(black_box(view), MIN_EMPTY));
        for (i, (_, view, _)) in positions.iter().enumerate() {
            let claim = ask(view, MIN_EMPTY);
            claims += claim as usize;
            answers = answers.rotate_left(7) ^ (claim as u64 * (i as u64 + 1));
        }
        println!(
            "{board} {name} positions={} claims={claims} answers={answers:016x} {}",
            positions.len(),
            summary(times)
        );
    }
    // What keeping the view costs: the last move's update from the parent's view, and the
    // view made from the stones.
    let parents: Vec<_> = positions
        .iter()
        .map(|(pos, view, cell)| {
            let (geometry, mine, theirs) = pos.gravity_position().expect("a gravity board");
            let parent = CoverView::new(geometry, theirs & !(1u128 << cell), mine).expect("a view");
            assert_eq!(parent.after(*cell).stones(), view.stones());
            (parent, *cell)
        })
        .collect();
    let times = timed(&parents, |(parent, cell)| {
        black_box(parent).after(black_box(*cell)).is_over()
    });
    println!("{board} update_one_move {}", summary(times));
    let times = timed(positions, |(pos, _, _)| {
        let (geometry, mine, theirs) = black_box(pos).gravity_position().expect("a gravity board");
        CoverView::new(geometry, mine, theirs).is_some()
    });
    println!("{board} view_from_stones {}", summary(times));
}

/// Each item's mean time over [`REPEATS`] calls of `f`, in microseconds, sorted.
fn timed<T>(items: &[T], f: impl Fn(&T) -> bool) -> Vec<f64> {
    let mut times: Vec<f64> = items
        .iter()
        .map(|item| {
            let started = Instant::now();
            for _ in 0..REPEATS {
                black_box(f(item));
            }
            started.elapsed().as_secs_f64() * 1e6 / REPEATS as f64
        })
        .collect();
    times.sort_by(f64::total_cmp);
    times
}

fn summary(times: Vec<f64>) -> String {
    let at = |q: f64| times[((times.len() - 1) as f64 * q).round() as usize];
    format!(
        "median_us={:.3} p95_us={:.3} max_us={:.3} mean_us={:.3}",
        at(0.5),
        at(0.95),
        at(1.0),
        times.iter().sum::<f64>() / times.len() as f64
    )
}
