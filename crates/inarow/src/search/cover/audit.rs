//! The rules against exhaustive values: every reachable position of a small gravity board is
//! solved by plain memoized minimax over its columns and lines, and every claim the rules make
//! there is compared with the exact value, and every witness goes through [`super::verify`].
//! The tests run the small boards, `inarow bench --suite full` a larger one and `inarow bench
//! --suite victor` the whole table of docs/results.md.

use super::{Goal, Options, Rule, Witness};
use crate::certificate::victor::verify_goal;
use crate::game::GravityGeometry;
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

/// Each position (the side to move's stones, the other side's) with its value for the side to
/// move: 1 win, 0 draw, -1 loss.
type Values = HashMap<(u128, u128), i8, BuildHasherDefault<KeyHasher>>;

/// Every position reachable from the empty board, with its exact value.
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
            // The children are gathered before recursing: recursing from inside the iteration
            // over the columns never returned under the release profile (thin LTO, rustc 1.95;
            // the cause was not found).
            let filled = to_move | other;
            let children: Vec<u128> = self
                .geometry
                .columns()
                .iter()
                .filter_map(|column| column.iter().find(|&&x| filled >> x & 1 == 0))
                .map(|&cell| to_move | 1 << cell)
                .collect();
            let mut best = None;
            for after in children {
                let child = -self.value(other, after);
                best = Some(best.map_or(child, |b: i8| b.max(child)));
            }
            best.unwrap_or(0)
        };
        self.values.insert((to_move, other), v);
        v
    }
}

/// What the rules claimed on one board, against the exact values.
#[derive(Clone, Default, Debug, PartialEq, Eq)]
pub struct Audit {
    /// Reachable positions not over.
    pub positions: u64,
    /// Positions where the rules claim something.
    pub claims: u64,
    /// Claims where the side that cannot win has no line left to make.
    pub trivial: u64,
    /// Claims that the side to move cannot win.
    pub mover_cannot_win: u64,
    /// Claims that, after some move, the other side cannot win.
    pub other_cannot_win: u64,
    /// Claims that the side to move loses ([`Goal::FollowerWins`], the other side follows).
    pub mover_loses: u64,
    /// Claims that the side to move wins (it drops a stone, then follows).
    pub mover_wins: u64,
    /// Claims the exact value contradicts, of either kind.
    pub false_claims: u64,
    /// Of those, claims of a win or a loss.
    pub false_wins: u64,
    /// Witnesses the checker rejects ([`super::verify`], or [`super::verify_win`] for a win or
    /// a loss), as the search wrote them or as a certificate
    /// writes them ([`Witness::to_text`], read back without the lines each refutes).
    pub rejected_witnesses: u64,
    /// False claims whose witness [`super::verify`] accepts, in either form: what would let a
    /// wrong certificate through (0 unless the rules are unsound).
    pub false_accepted: u64,
    /// Claimed positions whose witnesses use each rule ([`Rule::ALL`]'s order).
    pub uses: [u64; Rule::ALL.len()],
    /// Claimed positions that lose every claim without each rule, when counted.
    pub needs: [u64; Rule::ALL.len()],
}

impl Audit {
    /// This audit's counts added to `total`'s.
    pub fn add_to(&self, total: &mut Audit) {
        total.positions += self.positions;
        total.claims += self.claims;
        total.trivial += self.trivial;
        total.mover_cannot_win += self.mover_cannot_win;
        total.other_cannot_win += self.other_cannot_win;
        total.mover_loses += self.mover_loses;
        total.mover_wins += self.mover_wins;
        total.false_claims += self.false_claims;
        total.false_wins += self.false_wins;
        total.rejected_witnesses += self.rejected_witnesses;
        total.false_accepted += self.false_accepted;
        for i in 0..Rule::ALL.len() {
            total.uses[i] += self.uses[i];
            total.needs[i] += self.needs[i];
        }
    }
}

/// Solves every position of `geometry` and checks every claim of the rules under `options`
/// (its goal aside): that a side cannot win, and that a side wins or loses. `needs`: also
/// count, for each rule, the claimed positions that lose every claim that a side cannot win
/// without it (a second search per rule used).
pub fn audit(geometry: &GravityGeometry, options: &Options, needs: bool) -> Audit {
    let options = &Options {
        goal: Goal::MoverCannotWin,
        ..*options
    };
    let win_options = Options {
        goal: Goal::FollowerWins,
        ..*options
    };
    let mut solver = Exhaustive {
        geometry,
        values: Values::default(),
    };
    solver.value(0, 0);
    let claims_of = |to_move: u128, other: u128, options: &Options| {
        (
            super::mover_cannot_win(geometry, to_move, other, options),
            super::other_side_cannot_win(geometry, to_move, other, options),
        )
    };
    let mut audit = Audit::default();
    for (&(to_move, other), &value) in &solver.values {
        let filled = to_move | other;
        if solver.has_line(other) || filled == geometry.board() {
            continue;
        }
        audit.positions += 1;
        let (mover, reply) = claims_of(to_move, other, options);
        if mover.is_none() && reply.is_none() {
            continue;
        }
        audit.claims += 1;
        let empty = |w: &Witness| w.applications.is_empty();
        if mover.as_ref().is_some_and(empty) || reply.as_ref().is_some_and(|(_, w)| empty(w)) {
            audit.trivial += 1;
        }
        // Checks a witness in both forms: (rejected in either, false and accepted in either).
        let check = |mover: u128, follower: u128, w: &Witness, wrong: bool, goal: Goal| {
            let written = Witness::parse(&w.to_text(geometry), geometry).expect("reads back");
            let ok = [w, &written].map(|w| verify_goal(geometry, mover, follower, w, goal).is_ok());
            (
                ok.contains(&false) as u64,
                (wrong && ok.contains(&true)) as u64,
            )
        };
        let mut used = [false; Rule::ALL.len()];
        if let Some(w) = &mover {
            audit.mover_cannot_win += 1;
            audit.false_claims += (value == 1) as u64;
            let (rejected, accepted) = check(to_move, other, w, value == 1, Goal::MoverCannotWin);
            audit.rejected_witnesses += rejected;
            audit.false_accepted += accepted;
            for (i, &r) in Rule::ALL.iter().enumerate() {
                used[i] |= w.uses(r);
            }
        }
        if let Some((column, w)) = &reply {
            audit.other_cannot_win += 1;
            audit.false_claims += (value == -1) as u64;
            let cell = geometry.columns()[*column]
                .iter()
                .find(|&&x| filled >> x & 1 == 0)
                .copied()
                .expect("the claim's column has room");
            let (rejected, accepted) = check(
                other,
                to_move | 1 << cell,
                w,
                value == -1,
                Goal::MoverCannotWin,
            );
            audit.rejected_witnesses += rejected;
            audit.false_accepted += accepted;
            for (i, &r) in Rule::ALL.iter().enumerate() {
                used[i] |= w.uses(r);
            }
        }
        // A win or a loss needs a cover that the side cannot win: searched only where one is.
        if mover.is_some()
            && let Some(w) = super::mover_cannot_win(geometry, to_move, other, &win_options)
        {
            audit.mover_loses += 1;
            let wrong = value != -1;
            audit.false_claims += wrong as u64;
            audit.false_wins += wrong as u64;
            let (rejected, accepted) = check(to_move, other, &w, wrong, Goal::FollowerWins);
            audit.rejected_witnesses += rejected;
            audit.false_accepted += accepted;
        }
        if reply.is_some()
            && let Some((column, w)) =
                super::other_side_cannot_win(geometry, to_move, other, &win_options)
        {
            audit.mover_wins += 1;
            let wrong = value != 1;
            audit.false_claims += wrong as u64;
            audit.false_wins += wrong as u64;
            let cell = geometry.columns()[column]
                .iter()
                .find(|&&x| filled >> x & 1 == 0)
                .copied()
                .expect("the claim's column has room");
            let (rejected, accepted) =
                check(other, to_move | 1 << cell, &w, wrong, Goal::FollowerWins);
            audit.rejected_witnesses += rejected;
            audit.false_accepted += accepted;
        }
        for (i, &u) in used.iter().enumerate() {
            audit.uses[i] += u as u64;
            if needs && u {
                let (m, o) = claims_of(to_move, other, &options.without(Rule::ALL[i]));
                audit.needs[i] += (m.is_none() && o.is_none()) as u64;
            }
        }
    }
    audit
}

/// The boards of the whole table (docs/results.md), by name: 2D grids and a box whose lines of
/// three run in the 13 directions of space, as the cube's do.
pub fn boards() -> Vec<(&'static str, GravityGeometry)> {
    let grid = |w, h| GravityGeometry::grid(w, h, 4).expect("a valid grid");
    vec![
        ("4x4 k4", grid(4, 4)),
        ("4x5 k4", grid(4, 5)),
        ("5x4 k4", grid(5, 4)),
        (
            "box 3x2x4 k3",
            GravityGeometry::cuboid(3, 2, 4, 3).expect("a valid box"),
        ),
    ]
}
