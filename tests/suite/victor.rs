//! Victor's rules ([`inarow::search::victor`]) against exhaustive values: every reachable
//! position of small gravity boards is solved by plain memoized minimax, and every claim the
//! rules make must agree with its value, and every witness must pass the checker. The quick
//! boards run with the suite; `cargo test --release victor_full -- --ignored --nocapture`
//! runs the larger ones and prints the table (positions, claims, false claims, rules).

use inarow::game::GravityGeometry;
use inarow::search::victor::{self, Loosen, Options, Rule};
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// A multiplicative hasher for the position keys: the standard one costs more than the search.
#[derive(Default)]
struct KeyHasher(u64);

impl Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.0 = (self.0 ^ u64::from_le_bytes(word))
                .wrapping_mul(0x9e37_79b9_7f4a_7c15)
                .rotate_left(29);
        }
    }
}

type Values = HashMap<(u128, u128), i8, BuildHasherDefault<KeyHasher>>;

/// Every reachable position of a gravity board with its exact value for the side to move
/// (1 win, 0 draw, -1 loss), by minimax over the geometry's columns and lines.
struct Exhaustive<'g> {
    geometry: &'g GravityGeometry,
    values: Values,
}

impl Exhaustive<'_> {
    fn has_line(&self, stones: u128) -> bool {
        self.geometry.lines().iter().any(|&l| l & !stones == 0)
    }

    /// The value for the side to move, who holds `to_move`; `other` moved last.
    fn value(&mut self, to_move: u128, other: u128) -> i8 {
        if let Some(&v) = self.values.get(&(to_move, other)) {
            return v;
        }
        let v = if self.has_line(other) {
            -1
        } else {
            // The children first: recursing from inside the iteration over the columns was
            // miscompiled in the release profile (rustc 1.95, thin LTO: endless recursion).
            let filled = to_move | other;
            let moves: Vec<u128> = self
                .geometry
                .columns()
                .iter()
                .filter_map(|column| column.iter().find(|&&x| filled >> x & 1 == 0))
                .map(|&cell| to_move | 1 << cell)
                .collect();
            let mut best = None;
            for after in moves {
                let child = -self.value(other, after);
                best = Some(best.map_or(child, |b: i8| b.max(child)));
            }
            best.unwrap_or(0)
        };
        self.values.insert((to_move, other), v);
        v
    }
}

/// What the rules claimed on one board.
#[derive(Default, Debug)]
struct Tally {
    positions: u64,
    claims: u64,
    /// Claims where the other side holds a stone in every line of the side that cannot win.
    trivial: u64,
    mover_cannot_win: u64,
    other_cannot_win: u64,
    false_claims: u64,
    rejected_witnesses: u64,
    /// Positions whose witnesses use each rule.
    uses: [u64; Rule::ALL.len()],
    /// Positions whose claims need each rule (none without it), when counted.
    needs: [u64; Rule::ALL.len()],
}

/// Solves every position of `geometry` and checks every claim of the rules under `options`.
/// `needs`: also count, for each rule, the claimed positions that lose every claim without it.
fn check_board(geometry: &GravityGeometry, options: Options, needs: bool) -> Tally {
    let mut solver = Exhaustive {
        geometry,
        values: Values::default(),
    };
    solver.value(0, 0);
    let mut tally = Tally::default();
    let claims_of = |to_move: u128, other: u128, options: &Options| {
        (
            victor::mover_cannot_win(geometry, to_move, other, options),
            victor::other_side_cannot_win(geometry, to_move, other, options),
        )
    };
    for (&(to_move, other), &value) in &solver.values {
        let filled = to_move | other;
        if solver.has_line(other) || filled == geometry.board() {
            continue;
        }
        tally.positions += 1;
        let (mover, reply) = claims_of(to_move, other, &options);
        if mover.is_none() && reply.is_none() {
            continue;
        }
        tally.claims += 1;
        let empty_witness = |w: &victor::Witness| w.applications.is_empty();
        if mover.as_ref().is_some_and(empty_witness)
            || reply.as_ref().is_some_and(|(_, w)| empty_witness(w))
        {
            tally.trivial += 1;
        }
        let mut used = [false; Rule::ALL.len()];
        if let Some(w) = &mover {
            tally.mover_cannot_win += 1;
            if value == 1 {
                tally.false_claims += 1;
            }
            if let Err(e) = victor::verify(geometry, to_move, other, w) {
                if tally.rejected_witnesses == 0 {
                    println!("rejected: {e} ({to_move:#x} {other:#x}): {w:?}");
                }
                tally.rejected_witnesses += 1;
            }
            for (i, &r) in Rule::ALL.iter().enumerate() {
                used[i] |= w.uses(r);
            }
        }
        if let Some((column, w)) = &reply {
            tally.other_cannot_win += 1;
            if value == -1 {
                tally.false_claims += 1;
            }
            let cell = geometry.columns()[*column]
                .iter()
                .find(|&&x| filled >> x & 1 == 0)
                .copied()
                .unwrap();
            if victor::verify(geometry, other, to_move | 1 << cell, w).is_err() {
                tally.rejected_witnesses += 1;
            }
            for (i, &r) in Rule::ALL.iter().enumerate() {
                used[i] |= w.uses(r);
            }
        }
        for (i, &u) in used.iter().enumerate() {
            tally.uses[i] += u as u64;
        }
        if needs {
            for (i, &r) in Rule::ALL.iter().enumerate() {
                if used[i] {
                    let (m, o) = claims_of(to_move, other, &options.without(r));
                    tally.needs[i] += (m.is_none() && o.is_none()) as u64;
                }
            }
        }
    }
    tally
}

fn print_table(name: &str, t: &Tally, seconds: f64) {
    println!(
        "{name}: {} positions, {} with claims ({} of them with no line left to refute; {} side to move cannot win, {} other side cannot win), {} false claims, {} witnesses rejected, {seconds:.1} s",
        t.positions,
        t.claims,
        t.trivial,
        t.mover_cannot_win,
        t.other_cannot_win,
        t.false_claims,
        t.rejected_witnesses
    );
    for (i, r) in Rule::ALL.iter().enumerate() {
        println!(
            "  {:<12} used in {:>9}   needed by {:>9}",
            r.name(),
            t.uses[i],
            t.needs[i]
        );
    }
}

fn check_and_print(name: &str, geometry: &GravityGeometry, needs: bool) -> Tally {
    let start = std::time::Instant::now();
    let t = check_board(geometry, Options::default(), needs);
    print_table(name, &t, start.elapsed().as_secs_f64());
    assert_eq!(t.false_claims, 0, "{name}: false claims");
    assert_eq!(
        t.rejected_witnesses, 0,
        "{name}: witnesses the checker rejects"
    );
    t
}

#[test]
fn every_claim_on_4x4_agrees_with_the_exhaustive_values() {
    let t = check_and_print("4x4 k4", &GravityGeometry::grid(4, 4, 4).unwrap(), false);
    // The rules must say something: a check of nothing passes trivially.
    assert!(t.claims > t.positions / 10, "{t:?}");
    for r in [
        Rule::Claimeven,
        Rule::Baseinverse,
        Rule::Lowinverse,
        Rule::Baseclaim,
        Rule::Threat,
    ] {
        assert!(t.uses[r as usize] > 0, "{} never used", r.name());
    }
}

#[test]
#[ignore]
fn victor_full() {
    let mut total = Tally::default();
    for (name, g) in [
        ("4x4 k4", GravityGeometry::grid(4, 4, 4).unwrap()),
        ("4x5 k4", GravityGeometry::grid(4, 5, 4).unwrap()),
        ("5x4 k4", GravityGeometry::grid(5, 4, 4).unwrap()),
        ("box 3x2x4 k3", GravityGeometry::cuboid(3, 2, 4, 3).unwrap()),
    ] {
        let t = check_and_print(name, &g, true);
        total.positions += t.positions;
        total.claims += t.claims;
        total.false_claims += t.false_claims;
    }
    println!(
        "total: {} positions, {} with claims, {} false claims",
        total.positions, total.claims, total.false_claims
    );
    // Baseclaims are too rare on 4x4 for a loosened one to show there.
    let options = Options {
        loosen: Some(Loosen::BaseclaimFirstPair),
        ..Options::default()
    };
    let t = check_board(&GravityGeometry::grid(4, 5, 4).unwrap(), options, false);
    println!("4x5 with BaseclaimFirstPair: {t:?}");
    assert!(t.false_claims > 0 && t.rejected_witnesses > 0, "{t:?}");
}

/// A loosened precondition must show as false claims on a board the check enumerates: the
/// check can fail.
#[test]
fn a_broken_rule_shows_as_false_claims() {
    let g = GravityGeometry::grid(4, 4, 4).unwrap();
    for loosen in [Loosen::AfterevenAnyColumn, Loosen::OddStacks] {
        let options = Options {
            loosen: Some(loosen),
            ..Options::default()
        };
        let t = check_board(&g, options, false);
        println!("{loosen:?}: {t:?}");
        assert!(t.false_claims > 0, "{loosen:?} made no false claim");
        assert!(
            t.rejected_witnesses > 0,
            "{loosen:?}: the checker accepted every loosened witness"
        );
    }
}

/// The checker trusts nothing in a witness: an application dropped, or a line it does not
/// refute listed under it, is rejected.
#[test]
fn the_checker_rejects_tampered_witnesses() {
    let g = GravityGeometry::grid(4, 4, 4).unwrap();
    // 4x4 after 2 2 3 3 (columns 1, 1, 2, 2): the second player's rules have work to do.
    let col = |c: u32, r: u32| 1u128 << (c * 5 + r);
    let (first, second) = (col(1, 0) | col(2, 0), col(1, 1) | col(2, 1));
    let w = victor::mover_cannot_win(&g, first, second, &Options::default())
        .expect("the second player follows");
    assert!(!w.applications.is_empty());
    victor::verify(&g, first, second, &w).unwrap();
    for i in 0..w.applications.len() {
        let mut dropped = w.clone();
        dropped.applications.remove(i);
        assert!(
            victor::verify(&g, first, second, &dropped).is_err(),
            "{i} dropped"
        );
    }
    // A claimeven called a vertical: the parity of its upper cell is checked.
    let mut renamed = w.clone();
    let i = renamed
        .applications
        .iter()
        .position(|a| a.rule == Rule::Claimeven)
        .expect("a claimeven");
    renamed.applications[i].rule = Rule::Vertical;
    assert!(victor::verify(&g, first, second, &renamed).is_err());
    // A line listed under an application that does not refute it.
    let mut misplaced = w.clone();
    let upper = misplaced.applications[i].cells[1];
    let elsewhere = *g.lines().iter().find(|&&l| l >> upper & 1 == 0).unwrap();
    misplaced.applications[i].refutes.push(elsewhere);
    assert!(victor::verify(&g, first, second, &misplaced).is_err());
}

/// What Connect Four and the cube hand the rules (`Tactics::gravity_position`) is their board:
/// along random games, the stones fill each column from the bottom, and a line of the
/// description is complete exactly when the game says the last mover won.
#[test]
fn the_games_describe_their_boards_to_the_rules() {
    fn check<G: inarow::game::Tactics>(start: G) {
        use inarow::game::{MoveList, Status};
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..200 {
            let mut pos = start;
            loop {
                let (g, mine, theirs) = pos.gravity_position().expect("a gravity board");
                assert_eq!(mine & theirs, 0);
                let filled = mine | theirs;
                for column in g.columns() {
                    let n = column.iter().take_while(|&&c| filled >> c & 1 == 1).count();
                    assert!(column[n..].iter().all(|&c| filled >> c & 1 == 0));
                }
                let won = g.lines().iter().any(|&l| l & !theirs == 0);
                assert_eq!(won, matches!(pos.status(), Status::Win(_)));
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                if moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[seed as usize % moves.len()]);
            }
        }
    }
    inarow::with_game!(super::common::start("connect4"), g => check(g));
    inarow::with_game!(super::common::start("connect4:9x7"), g => check(g));
    inarow::with_game!(super::common::start("cube"), g => check(g));
}

/// Claims on positions of random games of boards too large to enumerate, against the
/// alpha-beta solver's weak value: `count` positions of `spec` with at least `min_stones`.
fn check_sampled(spec: &str, count: usize, min_stones: u32) -> (usize, usize) {
    fn run<G: inarow::game::Bounded + inarow::game::Tactics>(
        start: G,
        count: usize,
        min_stones: u32,
    ) -> (usize, usize) {
        use inarow::game::{MoveList, Status};
        use inarow::search::{AlphaBeta, Config};
        let mut solver = AlphaBeta::new(&start, Config::default());
        let (mut seen, mut claims) = (0, 0);
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        while seen < count {
            let mut pos = start;
            while pos.status() == Status::Ongoing {
                if pos.ply() >= min_stones {
                    let (g, mine, theirs) = pos.gravity_position().unwrap();
                    let options = Options::default();
                    let mover = victor::mover_cannot_win(g, mine, theirs, &options);
                    let reply = victor::other_side_cannot_win(g, mine, theirs, &options);
                    if mover.is_some() || reply.is_some() {
                        let value = solver.solve(&pos, true).unwrap();
                        assert!(mover.is_none() || value <= 0, "{pos:?}: mover wins");
                        assert!(reply.is_none() || value >= 0, "{pos:?}: mover loses");
                        if let Some(w) = &mover {
                            victor::verify(g, mine, theirs, w).unwrap();
                        }
                        claims += 1;
                    }
                    seen += 1;
                }
                let mut moves = MoveList::new();
                pos.legal_moves(&mut moves);
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                pos = pos.play(moves[seed as usize % moves.len()]);
            }
        }
        (seen, claims)
    }
    with_connect!(super::common::start(spec), g => run(g, count, min_stones))
}

#[test]
fn sampled_claims_on_6x4_and_7x6_agree_with_the_solver() {
    for (spec, count, min_stones) in [("connect4:6x4", 3000, 0), ("connect4", 300, 24)] {
        let (seen, claims) = check_sampled(spec, count, min_stones);
        println!("{spec}: {seen} positions, {claims} with claims, 0 false");
        assert!(claims > 0);
    }
}

#[test]
#[ignore]
fn victor_sampled() {
    for (spec, count, min_stones) in [
        ("connect4:6x4", 200_000, 0),
        ("connect4", 20_000, 16),
        ("connect4:6x6", 20_000, 12),
    ] {
        let start = std::time::Instant::now();
        let (seen, claims) = check_sampled(spec, count, min_stones);
        println!(
            "{spec}: {seen} positions of random games ({min_stones}+ stones), {claims} with claims, 0 false, {:.1} s",
            start.elapsed().as_secs_f64()
        );
    }
}
