//! The search for Victor's threat rules (Allis, 1988) on any gravity board: the cover search
//! that finds a witness ([`mover_cannot_win`]), the claims it makes, and the bound the searches
//! use. The rules themselves, the witness and its checker ([`verify`]) are the certificate
//! layer's ([`crate::certificate::victor`]), so that a certificate citing them does not rest on
//! this search. [`audit`] checks every claim on every position of small boards against their
//! exact values.

pub mod audit;

pub use crate::certificate::victor::{
    Application, Goal, Loosen, Rule, Witness, verify, verify_win,
};
use crate::certificate::victor::{
    Board, aftereven_refutes, cells_of, follower_completes, refutes, split_pairs,
};
use crate::game::{Game, GravityGeometry};
use arrayvec::ArrayVec;

/// What the rules prove about a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Claim {
    /// The side to move cannot win: the other side follows by the witness.
    SideToMoveCannotWin(Witness),
    /// The other side cannot win: the side to move drops into `column`, then follows.
    OtherSideCannotWin {
        /// The first move, a column index.
        column: usize,
        /// The follower's applications after it.
        witness: Witness,
    },
}

/// The partial covers a search tries at each node where it asks the rules for a bound: most
/// positions have no cover, and a long look for one costs more than the subtree it would save.
pub const BOUND_BUDGET: u32 = 16;

/// The rules as a search's bound: whether, trying at most [`BOUND_BUDGET`] partial covers,
/// they prove that the side to move in `pos` cannot win, where `pos` is a gravity board
/// (`Game::gravity_position`) with at least `min_empty` empty cells.
pub fn side_to_move_cannot_win<G: Game>(pos: &G, min_empty: u32) -> bool {
    witness(pos, min_empty, BOUND_BUDGET, Goal::MoverCannotWin).is_some()
}

/// The rules as a search's bound, for a loss: whether, trying at most [`BOUND_BUDGET`] partial
/// covers, they prove that the side to move in `pos` loses (the other side follows and
/// completes a line), where `pos` is as for [`side_to_move_cannot_win`].
pub fn side_to_move_loses<G: Game>(pos: &G, min_empty: u32) -> bool {
    witness(pos, min_empty, BOUND_BUDGET, Goal::FollowerWins).is_some()
}

/// The rules' witness that the side to move in `pos` cannot win (`goal`
/// [`Goal::MoverCannotWin`]) or loses ([`Goal::FollowerWins`]), trying at most `budget`
/// partial covers, where `pos` is a gravity board with at least `min_empty` empty cells. A
/// larger budget finds every cover a smaller one does (the search only goes on further).
pub fn witness<G: Game>(pos: &G, min_empty: u32, budget: u32, goal: Goal) -> Option<Witness> {
    let (geometry, mine, theirs) = pos.gravity_position()?;
    if (geometry.board() & !(mine | theirs)).count_ones() < min_empty {
        return None;
    }
    let options = Options {
        budget,
        goal,
        ..Options::default()
    };
    mover_cannot_win(geometry, mine, theirs, &options)
}

/// What the search may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The rules allowed, a bit per [`Rule`] (`Rule as u16`).
    pub rules: u16,
    /// The most partial covers tried before giving up (no claim).
    pub budget: u32,
    /// What the cover proves.
    pub goal: Goal,
    /// Tests only: a precondition skipped.
    #[doc(hidden)]
    pub loosen: Option<Loosen>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rules: u16::MAX,
            budget: 20_000,
            goal: Goal::MoverCannotWin,
            loosen: None,
        }
    }
}

impl Options {
    /// These options without `rule`.
    pub fn without(self, rule: Rule) -> Options {
        Options {
            rules: self.rules & !rule.bit(),
            ..self
        }
    }

    fn allows(&self, rule: Rule) -> bool {
        self.rules & rule.bit() != 0
    }
}

/// How the cells of one column above an inverse's (or the base) are answered: pairs up to the
/// top, or up to a follower's winning cell with nothing needed above it.
#[derive(Copy, Clone, Debug)]
struct Stack {
    /// The pairs' cells are the column's from index `start` to `end` (excluded), bottom up.
    /// (Bytes, not words: a search copies these by the hundred.)
    start: u8,
    end: u8,
    /// Whether the last pair's upper cell is a follower's winning cell (the cells above it
    /// then need no answer).
    threat: bool,
}

/// The most ways tried to answer one column (a threat on any other cell, or none): every way
/// on columns up to 14 cells high. Trying fewer on taller columns loses covers, never
/// soundness, and keeps the lists small enough to copy at no cost.
const MAX_STACKS: usize = 8;

/// The ways to answer the cells of column `c` from index `start` up.
fn stacks(board: &Board, c: usize, start: usize, options: &Options) -> ArrayVec<Stack, MAX_STACKS> {
    let column = board.column(c);
    let mut out = ArrayVec::new();
    if options.allows(Rule::Threat) {
        for j in (start + 1..column.len()).step_by(2) {
            if board.follower_wins >> column[j] & 1 == 1 && out.len() + 1 < MAX_STACKS {
                out.push(Stack {
                    start: start as u8,
                    end: (j + 1) as u8,
                    threat: true,
                });
            }
        }
    }
    let left = column.len() - start;
    if left.is_multiple_of(2) {
        out.push(Stack {
            start: start as u8,
            end: column.len() as u8,
            threat: false,
        });
    } else if options.loosen == Some(Loosen::OddStacks) {
        out.push(Stack {
            start: start as u8,
            end: (column.len() - 1) as u8,
            threat: false,
        });
    }
    out
}

/// A rule application while the search runs: no allocation.
#[derive(Copy, Clone, Debug)]
struct Applied {
    rule: Rule,
    cells: [u32; 6],
    len: usize,
}

impl Applied {
    fn new(rule: Rule, cells: &[u32]) -> Applied {
        let mut a = Applied {
            rule,
            cells: [0; 6],
            len: cells.len(),
        };
        a.cells[..cells.len()].copy_from_slice(cells);
        a
    }

    fn cells(&self) -> &[u32] {
        &self.cells[..self.len]
    }
}

/// The search for a cover: columns are settled lowest index first; a column is answered on its
/// own, or with one or two later columns by an inverse or a baseclaim.
struct Search<'b, 'g> {
    board: &'b Board<'g>,
    options: Options,
    left: u32,
    settled: u64,
    /// Cells the follower is sure to get (the pairs' upper cells).
    sure: u128,
    /// Cells the mover never gets (above a threat).
    dead: u128,
    /// Pairs of cells of which the mover gets at most one.
    split: Vec<u128>,
    chosen: Vec<Applied>,
}

impl Search<'_, '_> {
    /// The application that refutes the mover's `line`, by the cover so far: an index into
    /// `chosen`, or `usize::MAX` for an aftereven (found again when the witness is written).
    fn refuter(&self, line: u128) -> Option<usize> {
        self.chosen
            .iter()
            .position(|a| refutes(self.board, a.rule, a.cells(), line, self.options.loosen))
    }

    fn aftereven_refutes(&self, line: u128) -> Option<u128> {
        if !self.options.allows(Rule::Aftereven) {
            return None;
        }
        self.board
            .own
            .iter()
            .filter(|&&(own, _)| own & self.board.empty & !self.sure == 0)
            .map(|&(own, _)| own)
            .find(|&own| aftereven_refutes(self.board, own, line, self.options.loosen))
    }

    /// Whether every mover line within the settled columns is refuted.
    fn consistent(&self, newly: u64) -> bool {
        // The follower lines that can serve as afterevens, found once the cheap checks fail.
        let mut afterevens: Option<Vec<u128>> = None;
        self.board.targets.iter().all(|&(line, columns)| {
            if columns & !self.settled != 0
                || columns & newly == 0
                || line & (self.sure | self.dead) != 0
                || self.split.iter().any(|&p| p & !line == 0)
            {
                return true;
            }
            if !self.options.allows(Rule::Aftereven) {
                return false;
            }
            afterevens
                .get_or_insert_with(|| {
                    self.board
                        .own
                        .iter()
                        .filter(|&&(own, _)| own & self.board.empty & !self.sure == 0)
                        .map(|&(own, _)| own)
                        .collect()
                })
                .iter()
                .any(|&own| aftereven_refutes(self.board, own, line, self.options.loosen))
        })
    }

    fn push_stack(&mut self, c: usize, stack: &Stack) {
        let column = self.board.column(c);
        let (start, end) = (stack.start as usize, stack.end as usize);
        for i in (start..end).step_by(2) {
            let (lower, upper) = (column[i], column[i + 1]);
            let rule = if stack.threat && i + 2 == end {
                Rule::Threat
            } else if self.board.is_even(c, i + 1) {
                Rule::Claimeven
            } else {
                Rule::Vertical
            };
            self.sure |= 1 << upper;
            self.chosen.push(Applied::new(rule, &[lower, upper]));
        }
        if stack.threat {
            self.dead |= self.board.above(c, end - 1);
        }
    }

    /// Tries `stacks` (one per column of `columns`) on top of an inverse or baseclaim
    /// (`group`, already pushed), then the rest.
    fn try_stacks(&mut self, columns: &[(usize, usize)], group_columns: u64) -> bool {
        let options: ArrayVec<ArrayVec<Stack, MAX_STACKS>, 3> = columns
            .iter()
            .map(|&(c, start)| stacks(self.board, c, start, &self.options))
            .collect();
        if options.iter().any(ArrayVec::is_empty) {
            return false;
        }
        // Every combination of one stack per column.
        let mut pick = [0usize; 3];
        loop {
            // The budget counts the partial covers tried; spent, the search gives up at once.
            if self.left == 0 {
                return false;
            }
            self.left -= 1;
            let saved = (self.sure, self.dead, self.chosen.len());
            let allowed = columns
                .iter()
                .enumerate()
                .all(|(i, &(c, _))| self.stack_allowed(c, &options[i][pick[i]]));
            if allowed {
                for (i, &(c, _)) in columns.iter().enumerate() {
                    let s = options[i][pick[i]];
                    self.push_stack(c, &s);
                }
                self.settled |= group_columns;
                if self.consistent(group_columns) && self.next() {
                    return true;
                }
                self.settled &= !group_columns;
            }
            (self.sure, self.dead) = (saved.0, saved.1);
            self.chosen.truncate(saved.2);
            // The next combination.
            let mut i = 0;
            loop {
                if i == columns.len() {
                    return false;
                }
                pick[i] += 1;
                if pick[i] < options[i].len() {
                    break;
                }
                pick[i] = 0;
                i += 1;
            }
        }
    }

    /// Whether a stack uses only rules allowed.
    fn stack_allowed(&self, c: usize, s: &Stack) -> bool {
        let (start, end) = (s.start as usize, s.end as usize);
        (start..end).step_by(2).all(|i| {
            if s.threat && i + 2 == end {
                return true;
            }
            self.options.allows(if self.board.is_even(c, i + 1) {
                Rule::Claimeven
            } else {
                Rule::Vertical
            })
        })
    }

    /// Whether the cover, complete, proves the goal (else the search goes on to the next).
    fn goal_met(&self) -> bool {
        match self.options.goal {
            Goal::MoverCannotWin => true,
            Goal::FollowerWins => {
                follower_completes(self.board, self.sure, self.options.loosen).is_some()
            }
        }
    }

    /// Settles the lowest unsettled column, every way, then the rest; true when a cover
    /// refutes every mover line.
    fn next(&mut self) -> bool {
        let n = self.board.geometry.columns().len();
        let Some(c) = (0..n).find(|&c| self.settled >> c & 1 == 0) else {
            return self.goal_met();
        };
        if self.board.empties(c) == 0 {
            self.settled |= 1 << c;
            if self.consistent(1 << c) && self.next() {
                return true;
            }
            self.settled &= !(1 << c);
            return false;
        }
        if self.try_stacks(&[(c, self.board.base[c])], 1 << c) {
            return true;
        }
        let later: ArrayVec<usize, 64> = (c + 1..n)
            .filter(|&d| self.settled >> d & 1 == 0 && self.board.empties(d) > 0)
            .collect();
        // Inverses: c and d paired level by level.
        for &d in &later {
            if self.left == 0 {
                return false;
            }
            for (levels, rule) in [
                (1, Rule::Baseinverse),
                (2, Rule::Lowinverse),
                (3, Rule::Highinverse),
            ] {
                if !self.options.allows(rule)
                    || self.board.empties(c) < levels
                    || self.board.empties(d) < levels
                {
                    continue;
                }
                let (bc, bd) = (self.board.base[c], self.board.base[d]);
                let mut cells = ArrayVec::<u32, 6>::new();
                for l in 0..levels {
                    cells.push(self.board.column(c)[bc + l]);
                    cells.push(self.board.column(d)[bd + l]);
                }
                if self.with_group(rule, &cells, &[(c, bc + levels), (d, bd + levels)]) {
                    return true;
                }
            }
        }
        // Baseclaims with c as a, b or c.
        if self.options.allows(Rule::Baseclaim) {
            for &x in &later {
                for &y in &later {
                    if self.left == 0 {
                        return false;
                    }
                    if x == y {
                        continue;
                    }
                    for roles in [[c, x, y], [x, c, y], [x, y, c]] {
                        let [a, b, cc] = roles;
                        if self.board.empties(b) < 2 {
                            continue;
                        }
                        let cell = |col: usize, up: usize| {
                            self.board.column(col)[self.board.base[col] + up]
                        };
                        let cells = [cell(a, 0), cell(b, 0), cell(cc, 0), cell(b, 1)];
                        let tops = [
                            (a, self.board.base[a] + 1),
                            (b, self.board.base[b] + 2),
                            (cc, self.board.base[cc] + 1),
                        ];
                        if self.with_group(Rule::Baseclaim, &cells, &tops) {
                            return true;
                        }
                    }
                }
            }
        }
        false
    }

    /// Pushes an inverse or baseclaim, then tries the columns' stacks above it.
    fn with_group(&mut self, rule: Rule, cells: &[u32], tops: &[(usize, usize)]) -> bool {
        let group_columns = tops.iter().fold(0u64, |m, &(c, _)| m | 1 << c);
        let before = self.split.len();
        self.split
            .extend(split_pairs(rule, cells, self.options.loosen));
        self.chosen.push(Applied::new(rule, cells));
        if self.try_stacks(tops, group_columns) {
            return true;
        }
        self.chosen.pop();
        self.split.truncate(before);
        false
    }
}

/// Whether the follower (`follower`'s stones; the other side, `mover`, to move) can keep the
/// mover from making any line, by the rules, and with `options.goal` [`Goal::FollowerWins`]
/// also complete one of its own: the witness, or `None` when the rules find no such cover (or
/// the game is over).
pub fn mover_cannot_win(
    geometry: &GravityGeometry,
    mover: u128,
    follower: u128,
    options: &Options,
) -> Option<Witness> {
    let board = Board::new(geometry, mover, follower)?;
    if board.targets.is_empty() && options.goal == Goal::MoverCannotWin {
        return Some(Witness::default());
    }
    let mut search = Search {
        board: &board,
        options: *options,
        left: options.budget,
        settled: 0,
        sure: 0,
        dead: 0,
        split: Vec::new(),
        chosen: Vec::new(),
    };
    if !search.next() {
        return None;
    }
    // Write the witness: each mover line under the first application that refutes it.
    let mut applications: Vec<Application> = search
        .chosen
        .iter()
        .map(|a| Application {
            rule: a.rule,
            cells: a.cells().to_vec(),
            refutes: Vec::new(),
        })
        .collect();
    for &(line, _) in &board.targets {
        if let Some(i) = search.refuter(line) {
            applications[i].refutes.push(line);
        } else {
            let own = search
                .aftereven_refutes(line)
                .expect("the cover refutes every line");
            let cells: Vec<u32> = cells_of(own & board.empty).collect();
            match applications
                .iter_mut()
                .find(|a| a.rule == Rule::Aftereven && a.cells == cells)
            {
                Some(a) => a.refutes.push(line),
                None => applications.push(Application {
                    rule: Rule::Aftereven,
                    cells,
                    refutes: vec![line],
                }),
            }
        }
    }
    // Keep every application of the cover (it answers moves) but drop nothing else.
    Some(Witness { applications })
}

/// The claim the rules make about the position where `to_move` holds the stones of the side
/// to move and `other` the other side's: first whether the side to move cannot win, then
/// whether, after some move of it, the other side cannot.
pub fn claim(
    geometry: &GravityGeometry,
    to_move: u128,
    other: u128,
    options: &Options,
) -> Option<Claim> {
    if let Some(w) = mover_cannot_win(geometry, to_move, other, options) {
        return Some(Claim::SideToMoveCannotWin(w));
    }
    other_side_cannot_win(geometry, to_move, other, options)
        .map(|(column, witness)| Claim::OtherSideCannotWin { column, witness })
}

/// Whether the side to move (`to_move`'s stones) can drop a stone after which the rules prove
/// that the other side cannot win (with `options.goal` [`Goal::FollowerWins`]: that the side
/// to move wins), with it as the follower: the column and the witness.
pub fn other_side_cannot_win(
    geometry: &GravityGeometry,
    to_move: u128,
    other: u128,
    options: &Options,
) -> Option<(usize, Witness)> {
    Board::new(geometry, to_move, other)?;
    let filled = to_move | other;
    for (c, column) in geometry.columns().iter().enumerate() {
        let Some(&cell) = column.iter().find(|&&x| filled >> x & 1 == 0) else {
            continue;
        };
        let after = to_move | 1 << cell;
        if let Some(w) = mover_cannot_win(geometry, other, after, options) {
            return Some((c, w));
        }
    }
    None
}
