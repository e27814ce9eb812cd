//! Victor's threat rules (Allis, "A knowledge-based approach of Connect-Four", 1988) on any
//! gravity board ([`GravityGeometry`]: columns of cells, lines as cell masks; no game named).
//!
//! **The follower's strategy.** One side, the *follower*, answers every move of the other side,
//! the *mover* (the side to move), by a fixed local rule. The empty cells are split into
//! disjoint *rule applications*, each with its own answers, so that whatever cell the mover
//! takes, the follower answers in the same application and always can:
//! - a **claimeven** or **vertical** is two cells directly above each other: the mover can only
//!   take the lower one first, and the follower then takes the upper one. A claimeven's upper
//!   cell is an even cell (counting from the column's top: the top cell, two below it, ...; on
//!   boards of even height Allis' even rows), a vertical's an odd one;
//! - a **baseinverse** is two directly playable cells of two columns: the mover gets one;
//! - a **lowinverse** / **highinverse** is that pairing stacked two / three levels up the same
//!   two columns from their lowest empty cells: each level's cells become playable together,
//!   so the mover gets one of each level;
//! - a **baseclaim** is three directly playable cells `a`, `b`, `c` and `d` above `b`: the
//!   follower answers `a` by `c`, `b` by `c`, `c` by `b`, then pairs what is left; the mover
//!   never gets both `a` and `d`, nor both `b` and `c`;
//! - a **threat** (Allis' odd threat, in general): a follower's winning cell `t` with the cell
//!   below it empty, as the upper cell of a pair; the mover who takes the cell below loses at
//!   once, so it never gets `t` nor anything above it, and those cells need no answer;
//! - an **aftereven** is a follower line whose empty cells are all upper cells of the pairs
//!   above: the follower completes it when the last of them is filled, so a mover line that
//!   needs a cell above each of them comes too late.
//!
//! Every empty cell lies in one application (or above a threat), so the follower always has an
//! answer; a mover line is *refuted* when one application keeps the mover from holding all of
//! it. When every line the mover could still make is refuted, the mover cannot win. Which side
//! follows decides nothing here: the parity is in the cover (a column needs an even number of
//! its empty cells in pairs, unless a threat ends it or an inverse takes an odd number), so
//! Allis' zugzwang control comes out of the search for a cover. The side to move may also
//! become the follower after one move ([`Claim::OtherSideCannotWin`]).
//!
//! These are the rules in their static form: the follower's answers depend only on the cell
//! played, and applications never share a cell or (for inverses and baseclaims) a column below
//! them. Allis' before and specialbefore rest on answers that change with the play; in this
//! form a vertical already gives the follower its upper cell, so what they refute is refuted
//! by the verticals and aftereven. [`verify`] re-checks a witness from the position alone.
//! [`audit`] checks every claim on every position of small boards against their exact values.

pub mod audit;

use crate::game::{GravityGeometry, Tactics};
use arrayvec::ArrayVec;

/// A rule of Victor (see the module documentation).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// Two cells of a column, the upper one even: the follower gets it.
    Claimeven,
    /// Two cells of a column, the upper one odd: the follower gets it.
    Vertical,
    /// Two directly playable cells: the mover gets one.
    Baseinverse,
    /// Two columns' two lowest empty cells paired level by level.
    Lowinverse,
    /// Two columns' three lowest empty cells paired level by level.
    Highinverse,
    /// Three directly playable cells and the cell above the second.
    Baseclaim,
    /// A follower's winning cell above an empty cell: nothing at or above it goes to the mover.
    Threat,
    /// A follower line made of the pairs' upper cells, completed before any mover line above it.
    Aftereven,
}

impl Rule {
    /// Every rule, in order.
    pub const ALL: [Rule; 8] = [
        Rule::Claimeven,
        Rule::Vertical,
        Rule::Baseinverse,
        Rule::Lowinverse,
        Rule::Highinverse,
        Rule::Baseclaim,
        Rule::Threat,
        Rule::Aftereven,
    ];

    /// Its name in lower case, as Allis writes it.
    pub fn name(self) -> &'static str {
        match self {
            Rule::Claimeven => "claimeven",
            Rule::Vertical => "vertical",
            Rule::Baseinverse => "baseinverse",
            Rule::Lowinverse => "lowinverse",
            Rule::Highinverse => "highinverse",
            Rule::Baseclaim => "baseclaim",
            Rule::Threat => "threat",
            Rule::Aftereven => "aftereven",
        }
    }

    fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// One rule application of a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Application {
    /// The rule.
    pub rule: Rule,
    /// Its cells, in the rule's order: claimeven, vertical, threat: lower, upper; the
    /// inverses: the two columns' cells level by level (`a1, b1, a2, b2, ...`); baseclaim:
    /// `a, b, c, d`; aftereven: the follower line's empty cells.
    pub cells: Vec<u32>,
    /// The mover's lines (cell masks) it refutes.
    pub refutes: Vec<u128>,
}

/// Why a side cannot win: the rule applications the follower plays by, each with the lines it
/// refutes; every line the mover could still make is among them.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Witness {
    /// The applications: first those that split the empty cells, then the aftereven ones.
    pub applications: Vec<Application>,
}

impl Witness {
    /// Whether some application is of this rule.
    pub fn uses(&self, rule: Rule) -> bool {
        self.applications.iter().any(|a| a.rule == rule)
    }
}

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

/// A precondition the search may be told to skip, so that tests can show that the exhaustive
/// check finds the false claims that follow. Never set outside tests.
#[doc(hidden)]
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Loosen {
    /// Let a column's pairs leave its top cell unanswered (claimeven without its parity).
    OddStacks,
    /// Let a baseclaim refute `a` with `b` too (the mover can take `a`, then `b`).
    BaseclaimFirstPair,
    /// Let an aftereven refute mover lines above any one of its cells, not all.
    AfterevenAnyColumn,
}

/// The partial covers a search tries at each node where it asks the rules for a bound: most
/// positions have no cover, and a long look for one costs more than the subtree it would save.
pub const BOUND_BUDGET: u32 = 16;

/// The rules as a search's bound: whether, trying at most [`BOUND_BUDGET`] partial covers,
/// they prove that the side to move in `pos` cannot win, where `pos` is a gravity board
/// (`Tactics::gravity_position`) with at least `min_empty` empty cells.
pub fn side_to_move_cannot_win<G: Tactics>(pos: &G, min_empty: u32) -> bool {
    let Some((geometry, mine, theirs)) = pos.gravity_position() else {
        return false;
    };
    let options = Options {
        budget: BOUND_BUDGET,
        ..Options::default()
    };
    (geometry.board() & !(mine | theirs)).count_ones() >= min_empty
        && mover_cannot_win(geometry, mine, theirs, &options).is_some()
}

/// What the search may use.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Options {
    /// The rules allowed, a bit per [`Rule`] (`Rule as u16`).
    pub rules: u16,
    /// The most partial covers tried before giving up (no claim).
    pub budget: u32,
    /// Tests only: a precondition skipped.
    #[doc(hidden)]
    pub loosen: Option<Loosen>,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            rules: u16::MAX,
            budget: 20_000,
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

/// The cells of a set, lowest first.
fn cells_of(mut set: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros();
            set &= set - 1;
            c
        })
    })
}

/// A position seen from the follower: the cells, columns and lines it needs, computed once.
struct Board<'g> {
    geometry: &'g GravityGeometry,
    empty: u128,
    /// The index of each column's lowest empty cell (its height if full).
    base: Vec<usize>,
    /// The mover's lines without a follower stone, with the columns they cross.
    targets: Vec<(u128, u64)>,
    /// The follower's lines without a mover stone, with the columns they cross.
    own: Vec<(u128, u64)>,
    /// Empty cells that complete a follower line.
    follower_wins: u128,
}

impl<'g> Board<'g> {
    /// `None` when the game is over (a line made, or the board full) or the stones are no
    /// gravity position.
    fn new(geometry: &'g GravityGeometry, mover: u128, follower: u128) -> Option<Board<'g>> {
        let filled = mover | follower;
        let empty = geometry.board() & !filled;
        if mover & follower != 0 || filled & !geometry.board() != 0 || empty == 0 {
            return None;
        }
        let mut base = Vec::with_capacity(geometry.columns().len());
        for column in geometry.columns() {
            let f = column.iter().take_while(|&&c| filled >> c & 1 == 1).count();
            if column[f..].iter().any(|&c| filled >> c & 1 == 1) {
                return None;
            }
            base.push(f);
        }
        let mut targets = Vec::new();
        let mut own = Vec::new();
        let mut follower_wins = 0;
        for (i, &line) in geometry.lines().iter().enumerate() {
            if line & !mover == 0 || line & !follower == 0 {
                return None;
            }
            if line & follower == 0 {
                targets.push((line, geometry.line_columns(i)));
            }
            if line & mover == 0 {
                own.push((line, geometry.line_columns(i)));
                let missing = line & !follower;
                if missing.count_ones() == 1 {
                    follower_wins |= missing;
                }
            }
        }
        Some(Board {
            geometry,
            empty,
            base,
            targets,
            own,
            follower_wins,
        })
    }

    fn column(&self, c: usize) -> &[u32] {
        &self.geometry.columns()[c]
    }

    fn empties(&self, c: usize) -> usize {
        self.column(c).len() - self.base[c]
    }

    /// Whether the cell at index `i` of column `c` is even: an even number of cells above it.
    fn is_even(&self, c: usize, i: usize) -> bool {
        (self.column(c).len() - 1 - i).is_multiple_of(2)
    }

    /// The cells of column `c` above index `i`.
    fn above(&self, c: usize, i: usize) -> u128 {
        self.geometry.above(self.column(c)[i])
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

    /// Settles the lowest unsettled column, every way, then the rest; true when a cover
    /// refutes every mover line.
    fn next(&mut self) -> bool {
        let n = self.board.geometry.columns().len();
        let Some(c) = (0..n).find(|&c| self.settled >> c & 1 == 0) else {
            return true;
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

/// How many pairs of cells an inverse or baseclaim splits.
fn split_count(rule: Rule) -> usize {
    match rule {
        Rule::Baseinverse => 1,
        Rule::Lowinverse | Rule::Baseclaim => 2,
        Rule::Highinverse => 3,
        _ => 0,
    }
}

/// The pairs of cells of which the mover gets at most one, for an inverse or a baseclaim.
fn split_pairs(rule: Rule, cells: &[u32], loosen: Option<Loosen>) -> ArrayVec<u128, 3> {
    let two = |x: u32, y: u32| 1u128 << x | 1u128 << y;
    match rule {
        Rule::Baseinverse | Rule::Lowinverse | Rule::Highinverse => {
            cells.chunks(2).map(|p| two(p[0], p[1])).collect()
        }
        Rule::Baseclaim if cells.len() == 4 => {
            let [a, b, c, d] = [cells[0], cells[1], cells[2], cells[3]];
            let mut pairs: ArrayVec<u128, 3> = [two(a, d), two(b, c)].into_iter().collect();
            if loosen == Some(Loosen::BaseclaimFirstPair) {
                pairs.push(two(a, b));
            }
            pairs
        }
        _ => ArrayVec::new(),
    }
}

/// Whether the follower line `own` (every empty cell of it sure to the follower) refutes the
/// mover's `line` as an aftereven: the line holds a cell above each of its empty cells.
fn aftereven_refutes(board: &Board, own: u128, line: u128, loosen: Option<Loosen>) -> bool {
    let mut needed = cells_of(own & board.empty).map(|x| {
        let (c, i) = locate(board.geometry, x);
        line & board.above(c, i) != 0
    });
    if loosen == Some(Loosen::AfterevenAnyColumn) {
        needed.any(|b| b)
    } else {
        needed.all(|b| b)
    }
}

/// The column and index of a cell.
fn locate(geometry: &GravityGeometry, cell: u32) -> (usize, usize) {
    geometry.place(cell)
}

/// Whether application `a` refutes the mover's `line` (for a cover's applications; aftereven
/// is judged by [`aftereven_refutes`]).
fn refutes(board: &Board, rule: Rule, cells: &[u32], line: u128, loosen: Option<Loosen>) -> bool {
    match rule {
        Rule::Claimeven | Rule::Vertical => line >> cells[1] & 1 == 1,
        Rule::Threat => line & (1 << cells[1] | board.geometry.above(cells[1])) != 0,
        Rule::Baseinverse | Rule::Lowinverse | Rule::Highinverse | Rule::Baseclaim => {
            split_pairs(rule, cells, loosen)
                .iter()
                .any(|&p| p & !line == 0)
        }
        Rule::Aftereven => {
            let own = cells.iter().fold(0u128, |m, &x| m | 1 << x);
            aftereven_refutes(board, own, line, loosen)
        }
    }
}

/// Whether the follower (`follower`'s stones; the other side, `mover`, to move) can keep the
/// mover from making any line, by the rules: the witness, or `None` when the rules find no
/// cover (or the game is over).
pub fn mover_cannot_win(
    geometry: &GravityGeometry,
    mover: u128,
    follower: u128,
    options: &Options,
) -> Option<Witness> {
    let board = Board::new(geometry, mover, follower)?;
    if board.targets.is_empty() {
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
/// that the other side cannot win, with it as the follower: the column and the witness.
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

/// Checks a witness from the position alone, trusting nothing the search computed: the cover's
/// applications lie where their rules allow, answer every empty cell once (or lie above a
/// threat), and refute the lines they list; every line the mover could still make is listed.
///
/// # Errors
/// What is wrong, in words.
pub fn verify(
    geometry: &GravityGeometry,
    mover: u128,
    follower: u128,
    witness: &Witness,
) -> Result<(), String> {
    let board =
        Board::new(geometry, mover, follower).ok_or("the game is over or no gravity position")?;
    if board.targets.is_empty() {
        // Nothing to refute: every line holds a follower stone.
        return Ok(());
    }
    let bit = |x: u32| 1u128 << x;
    let mut covered = 0u128;
    let mut dead = 0u128;
    let mut sure = 0u128;
    let playable = |x: u32| {
        let (c, i) = locate(geometry, x);
        board.empty >> x & 1 == 1 && i == board.base[c]
    };
    let directly_above = |lower: u32, upper: u32| {
        let (c, i) = locate(geometry, lower);
        geometry.columns()[c].get(i + 1) == Some(&upper)
    };
    let cover = witness
        .applications
        .iter()
        .filter(|a| a.rule != Rule::Aftereven);
    for a in cover {
        let cells = a.cells.iter().fold(0u128, |m, &x| m | bit(x));
        if cells.count_ones() as usize != a.cells.len() || cells & !board.empty != 0 {
            return Err(format!("{}: cells not distinct and empty", a.rule.name()));
        }
        if cells & (covered | dead) != 0 {
            return Err(format!("{}: a cell answered twice", a.rule.name()));
        }
        covered |= cells;
        match a.rule {
            Rule::Claimeven | Rule::Vertical | Rule::Threat => {
                let [lower, upper] = a.cells[..] else {
                    return Err(format!("{}: two cells", a.rule.name()));
                };
                if !directly_above(lower, upper) {
                    return Err(format!("{}: not one above the other", a.rule.name()));
                }
                let (c, i) = locate(geometry, upper);
                if a.rule == Rule::Threat {
                    let wins = geometry
                        .lines()
                        .iter()
                        .any(|&l| l & !follower == bit(upper));
                    if !wins {
                        return Err("threat: no follower line ends on its upper cell".into());
                    }
                    dead |= board.above(c, i);
                } else if board.is_even(c, i) != (a.rule == Rule::Claimeven) {
                    return Err(format!("{}: the upper cell's parity", a.rule.name()));
                }
                sure |= bit(upper);
            }
            Rule::Baseinverse | Rule::Lowinverse | Rule::Highinverse => {
                let levels = split_count(a.rule);
                if a.cells.len() != 2 * levels {
                    return Err(format!("{}: {} cells", a.rule.name(), 2 * levels));
                }
                for l in 0..levels {
                    let (x, y) = (a.cells[2 * l], a.cells[2 * l + 1]);
                    let ok = if l == 0 {
                        playable(x) && playable(y) && locate(geometry, x).0 != locate(geometry, y).0
                    } else {
                        directly_above(a.cells[2 * l - 2], x)
                            && directly_above(a.cells[2 * l - 1], y)
                    };
                    if !ok {
                        return Err(format!("{}: level {l} misplaced", a.rule.name()));
                    }
                }
            }
            Rule::Baseclaim => {
                let [a_, b, c, d] = a.cells[..] else {
                    return Err("baseclaim: four cells".into());
                };
                let columns = [a_, b, c].map(|x| locate(geometry, x).0);
                if ![a_, b, c].iter().all(|&x| playable(x))
                    || columns[0] == columns[1]
                    || columns[1] == columns[2]
                    || columns[0] == columns[2]
                    || !directly_above(b, d)
                {
                    return Err("baseclaim: misplaced".into());
                }
            }
            Rule::Aftereven => unreachable!(),
        }
    }
    if covered & dead != 0 || (covered | dead) & board.empty != board.empty {
        return Err("some empty cell has no answer, or one above a threat has".into());
    }
    let mut listed = Vec::new();
    for a in &witness.applications {
        if a.rule == Rule::Aftereven {
            let own = a.cells.iter().fold(0u128, |m, &x| m | bit(x));
            let is_line = geometry
                .lines()
                .iter()
                .any(|&l| l & mover == 0 && l & board.empty == own);
            if !is_line || own & !sure != 0 {
                return Err("aftereven: not a follower line of sure cells".into());
            }
        }
        for &line in &a.refutes {
            if !refutes(&board, a.rule, &a.cells, line, None) {
                return Err(format!("{} does not refute line {line:#x}", a.rule.name()));
            }
            listed.push(line);
        }
    }
    if let Some(&(line, _)) = board.targets.iter().find(|(l, _)| !listed.contains(l)) {
        return Err(format!("line {line:#x} is not refuted"));
    }
    Ok(())
}
