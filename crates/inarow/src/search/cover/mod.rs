//! The search for Victor's threat rules (Allis, 1988) on any gravity board: the cover search
//! that finds a witness ([`mover_cannot_win`]), the claims it makes, and the bound the searches
//! use. The rules themselves, the witness and its checker ([`verify`]) are the certificate
//! layer's ([`crate::certificate::victor`]), so that a certificate citing them does not rest on
//! this search. [`audit`] checks every claim on every position of small boards against their
//! exact values.

pub mod audit;
mod view;

pub use crate::certificate::victor::{
    Application, Goal, Loosen, Rule, Witness, verify, verify_win,
};
use crate::certificate::victor::{Board, aftereven_refutes, cells_of, refutes, split_pairs};
use crate::game::gravity::{LineSet, Lines};
use crate::game::{GravityGeometry, Rules};
use arrayvec::ArrayVec;
pub use view::{CoverPath, CoverView};

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
/// (`Rules::gravity_position`) with at least `min_empty` empty cells. (A search keeps the
/// views along its path instead: [`CoverPath`].)
pub fn side_to_move_cannot_win<G: Rules>(pos: &G, min_empty: u32) -> bool {
    view_of(pos).is_some_and(|v| v.side_to_move_cannot_win(min_empty))
}

/// The rules as a search's bound, for a loss: whether, trying at most [`BOUND_BUDGET`] partial
/// covers, they prove that the side to move in `pos` loses (the other side follows and
/// completes a line), where `pos` is as for [`side_to_move_cannot_win`].
pub fn side_to_move_loses<G: Rules>(pos: &G, min_empty: u32) -> bool {
    view_of(pos).is_some_and(|v| v.side_to_move_loses(min_empty))
}

fn view_of<G: Rules>(pos: &G) -> Option<CoverView<'static>> {
    let (geometry, mine, theirs) = pos.gravity_position()?;
    CoverView::new(geometry, mine, theirs)
}

impl CoverView<'_> {
    /// The rules as a search's bound: whether, trying at most [`BOUND_BUDGET`] partial covers,
    /// they prove that the side to move cannot win, on a board of at least `min_empty` empty
    /// cells.
    pub fn side_to_move_cannot_win(&self, min_empty: u32) -> bool {
        self.bound(min_empty, Goal::MoverCannotWin)
    }

    /// The rules as a search's bound, for a loss: whether, trying at most [`BOUND_BUDGET`]
    /// partial covers, they prove that the side to move loses.
    pub fn side_to_move_loses(&self, min_empty: u32) -> bool {
        self.bound(min_empty, Goal::FollowerWins)
    }

    fn bound(&self, min_empty: u32, goal: Goal) -> bool {
        let options = Options {
            budget: BOUND_BUDGET,
            goal,
            ..Options::default()
        };
        self.empty.count_ones() >= min_empty && cover(self, &options, false).is_some()
    }
}

/// The rules' witness that the side to move in `pos` cannot win (`goal`
/// [`Goal::MoverCannotWin`]) or loses ([`Goal::FollowerWins`]), trying at most `budget`
/// partial covers, where `pos` is a gravity board with at least `min_empty` empty cells. A
/// larger budget finds every cover a smaller one does (the search only goes on further).
pub fn witness<G: Rules>(pos: &G, min_empty: u32, budget: u32, goal: Goal) -> Option<Witness> {
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
    start: usize,
    end: usize,
    /// Whether the last pair's upper cell is a follower's winning cell (the cells above it
    /// then need no answer).
    threat: bool,
}

/// The most ways tried to answer one column (a threat on any other cell, or none): every way
/// on columns up to 14 cells high. Trying fewer on taller columns loses covers, never
/// soundness.
const MAX_STACKS: u32 = 8;

/// The ways to answer a column's cells from an index up, as a set tried in increasing order:
/// bit `e` below [`Ways::PAIRS`] the stack that ends at index `e` with a threat, bit
/// [`Ways::PAIRS`] the pairs up to the top. (A word, not a list: the search makes these by
/// the hundred, and a list in memory cost it more than the rest of the search.)
#[derive(Copy, Clone)]
struct Ways(u64);

impl Ways {
    const PAIRS: u32 = 63;

    /// The ways to answer the cells of column `c` from index `start` up.
    #[inline]
    fn of(view: &CoverView, c: usize, start: usize, options: &Options) -> Ways {
        let column = view.column(c);
        let mut ways = 0u64;
        if options.allows(Rule::Threat) && view.follower_wins != 0 {
            let mut threats = 0;
            for j in (start + 1..column.len().min(Ways::PAIRS as usize - 1)).step_by(2) {
                if view.follower_wins >> column[j] & 1 == 1 && threats + 1 < MAX_STACKS {
                    ways |= 1 << (j + 1);
                    threats += 1;
                }
            }
        }
        if (column.len() - start).is_multiple_of(2) || options.loosen == Some(Loosen::OddStacks) {
            ways |= 1 << Ways::PAIRS;
        }
        Ways(ways)
    }

    /// The first way, as a stack of the column (of `len` cells) from `start`.
    fn first(self, start: usize, len: usize) -> Stack {
        let e = self.0.trailing_zeros();
        if e == Ways::PAIRS {
            // Odd stacks (a loosened test only) leave the top cell.
            let end = start + (len - start) / 2 * 2;
            Stack {
                start,
                end,
                threat: false,
            }
        } else {
            Stack {
                start,
                end: e as usize,
                threat: true,
            }
        }
    }

    /// The ways after the first.
    fn rest(self) -> Ways {
        Ways(self.0 & (self.0 - 1))
    }
}

/// A rule application while the search runs: a few bytes, no allocation.
#[derive(Copy, Clone, Debug)]
struct Applied {
    rule: Rule,
    len: u8,
    cells: [u8; 6],
}

impl Applied {
    fn new(rule: Rule, cells: &[u32]) -> Applied {
        let mut a = Applied {
            rule,
            len: cells.len() as u8,
            cells: [0; 6],
        };
        for (to, &from) in a.cells.iter_mut().zip(cells) {
            *to = from as u8;
        }
        a
    }

    fn cells(&self) -> impl Iterator<Item = u32> + '_ {
        self.cells[..self.len as usize]
            .iter()
            .map(|&x| u32::from(x))
    }
}

/// The most applications a cover holds: each takes two empty cells or more, of at most 128.
const MAX_APPLIED: usize = 64;

/// The search for a cover: columns are settled lowest index first; a column is answered on its
/// own, or with one or two later columns by an inverse or a baseclaim. Whether the cover so far
/// refutes the mover's lines is kept as a set of lines ([`LineSet`]), so that a check is a few
/// words' operations, not a walk over the lines.
struct Search<'v, 'g, L: Lines> {
    view: &'v CoverView<'g>,
    /// The view's mover lines, as `L`.
    mover_open: L,
    /// Whether the applications are written down (for a witness) or only counted (a bound).
    record: bool,
    options: Options,
    left: u32,
    settled: u64,
    /// Cells the follower is sure to get (the pairs' upper cells).
    sure: u128,
    /// The mover lines refuted so far: through a sure cell or a cell above a threat (which the
    /// mover never gets), or through both cells of a split pair.
    refuted: L,
    /// The columns whose cells from `k` above their lowest empty one up have a way to be
    /// answered ([`stacks`] finds one), a bit a column, for `k` up to 3: a group whose columns
    /// have none is not tried, as [`Search::try_stacks`] would give it up before spending any
    /// budget.
    answerable: [u64; 4],
    /// The columns with an empty cell.
    nonempty: u64,
    /// The follower lines that may serve as afterevens: none of their empty cells is directly
    /// playable (such a cell is never a pair's upper cell, so never sure).
    aftereven_lines: L,
    chosen: ArrayVec<Applied, MAX_APPLIED>,
}

impl<L: Lines> Search<'_, '_, L> {
    /// Whether every mover line within the settled columns and across one of `newly` is
    /// refuted.
    fn consistent(&self, newly: u64) -> bool {
        let tables = self.view.tables;
        let columns = self.view.geometry.columns().len();
        let across = |mut set: u64| {
            let mut lines = L::NONE;
            while set != 0 {
                lines = lines.or(L::narrow(&tables.across[set.trailing_zeros() as usize]));
                set &= set - 1;
            }
            lines
        };
        let open = self.mover_open.and(across(newly)).without(self.refuted);
        if open.is_empty() {
            return true;
        }
        // Lines that cross a column not yet settled are checked when it is. (Columns are
        // settled lowest first, and seldom one beyond the first unsettled.)
        let unsettled = !self.settled & (u64::MAX >> (64 - columns));
        let first = unsettled.trailing_zeros() as usize;
        let outside = if first == columns {
            L::NONE
        } else if unsettled == u64::MAX >> (64 - columns) >> first << first {
            L::narrow(&tables.across_from[first])
        } else {
            across(unsettled)
        };
        let open = open.without(outside);
        open.is_empty()
            || (self.options.allows(Rule::Aftereven)
                && !self.aftereven_lines.is_empty()
                && open.without(self.afterevens()).is_empty())
    }

    /// The mover lines the afterevens of the cover so far refute: those with a cell above each
    /// empty cell of a follower line whose empty cells are all sure.
    fn afterevens(&self) -> L {
        let view = self.view;
        let any = self.options.loosen == Some(Loosen::AfterevenAnyColumn);
        let mut refuted = L::NONE;
        self.aftereven_lines.each(|i| {
            let own = view.geometry.lines()[i] & view.empty;
            if own & !self.sure != 0 {
                return;
            }
            let mut lines = if any {
                L::NONE
            } else {
                L::narrow(&view.tables.all)
            };
            for e in cells_of(own) {
                let above = L::narrow(&view.tables.through_above[e as usize]);
                lines = if any {
                    lines.or(above)
                } else {
                    lines.and(above)
                };
            }
            refuted = refuted.or(lines);
        });
        refuted
    }

    fn push_stack(&mut self, c: usize, stack: &Stack) {
        let column = self.view.column(c);
        let tables = self.view.tables;
        let through = &tables.through;
        let (start, end) = (stack.start, stack.end);
        if !stack.threat && !self.record {
            // Pairs to the top: their upper cells, at once.
            if let Some(&bottom) = column.get(start) {
                self.sure |= tables.odd_above[bottom as usize];
                let lines = L::narrow(&tables.through_odd_above[bottom as usize]);
                self.refuted = self.refuted.or(lines);
            }
            return;
        }
        for i in (start..end).step_by(2) {
            let upper = column[i + 1];
            self.sure |= 1 << upper;
            self.refuted = self.refuted.or(L::narrow(&through[upper as usize]));
            if self.record {
                let rule = if stack.threat && i + 2 == end {
                    Rule::Threat
                } else if self.view.is_even(c, i + 1) {
                    Rule::Claimeven
                } else {
                    Rule::Vertical
                };
                self.chosen.push(Applied::new(rule, &[column[i], upper]));
            }
        }
        if stack.threat {
            let threat = column[end - 1] as usize;
            let above = L::narrow(&self.view.tables.through_above[threat]);
            self.refuted = self.refuted.or(above);
        }
    }

    /// Tries `stacks` (one per column of `columns`) on top of an inverse or baseclaim
    /// (`group`, already pushed), then the rest.
    fn try_stacks(&mut self, columns: &[(usize, usize)], group_columns: u64) -> bool {
        let mut all = [Ways(0); 3];
        for (ways, &(c, start)) in all.iter_mut().zip(columns) {
            *ways = Ways::of(self.view, c, start, &self.options);
            if ways.0 == 0 {
                return false;
            }
        }
        // Every combination of one way per column, the first column's changing fastest.
        let mut left = all;
        loop {
            // The budget counts the partial covers tried; spent, the search gives up at once.
            if self.left == 0 {
                return false;
            }
            self.left -= 1;
            let saved = (self.sure, self.refuted, self.chosen.len());
            let stack = |i: usize| {
                let (c, start) = columns[i];
                (c, left[i].first(start, self.view.column(c).len()))
            };
            let allowed = (0..columns.len()).all(|i| {
                let (c, s) = stack(i);
                self.stack_allowed(c, &s)
            });
            if allowed {
                for i in 0..columns.len() {
                    let (c, s) = stack(i);
                    self.push_stack(c, &s);
                }
                self.settled |= group_columns;
                if self.consistent(group_columns) && self.next() {
                    return true;
                }
                self.settled &= !group_columns;
            }
            (self.sure, self.refuted) = (saved.0, saved.1);
            self.chosen.truncate(saved.2);
            // The next combination.
            let mut i = 0;
            loop {
                if i == columns.len() {
                    return false;
                }
                left[i] = left[i].rest();
                if left[i].0 != 0 {
                    break;
                }
                left[i] = all[i];
                i += 1;
            }
        }
    }

    /// Whether a stack uses only rules allowed.
    fn stack_allowed(&self, c: usize, s: &Stack) -> bool {
        if self.options.allows(Rule::Claimeven) && self.options.allows(Rule::Vertical) {
            return true;
        }
        let (start, end) = (s.start, s.end);
        (start..end).step_by(2).all(|i| {
            if s.threat && i + 2 == end {
                return true;
            }
            self.options.allows(if self.view.is_even(c, i + 1) {
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
            Goal::FollowerWins => self.follower_completes().is_some(),
        }
    }

    /// A follower line (no mover stone) whose empty cells are all sure to the follower.
    fn follower_completes(&self) -> Option<u128> {
        let view = self.view;
        let slack = u32::from(self.options.loosen == Some(Loosen::WinOneShort));
        view.follower_open
            .iter()
            .map(|i| view.geometry.lines()[i])
            .find(|&own| (own & view.empty & !self.sure).count_ones() <= slack)
    }

    /// Settles the lowest unsettled column, every way, then the rest; true when a cover
    /// refutes every mover line.
    fn next(&mut self) -> bool {
        let n = self.view.geometry.columns().len();
        let c = (!self.settled).trailing_zeros() as usize;
        if c >= n {
            return self.goal_met();
        }
        if self.view.empties(c) == 0 {
            self.settled |= 1 << c;
            if self.consistent(1 << c) && self.next() {
                return true;
            }
            self.settled &= !(1 << c);
            return false;
        }
        if self.try_stacks(&[(c, self.view.base(c))], 1 << c) {
            return true;
        }
        // The columns after c still to settle that have an empty cell.
        let later = self.nonempty & !self.settled & (u64::MAX << c << 1);
        // Inverses: c and d paired level by level.
        for d in columns_of(later) {
            if self.left == 0 {
                return false;
            }
            for (levels, rule) in [
                (1, Rule::Baseinverse),
                (2, Rule::Lowinverse),
                (3, Rule::Highinverse),
            ] {
                if !self.options.allows(rule)
                    || self.view.empties(c) < levels
                    || self.view.empties(d) < levels
                {
                    continue;
                }
                let (bc, bd) = (self.view.base(c), self.view.base(d));
                if self.answerable[levels] & (1 << c | 1 << d) != 1 << c | 1 << d {
                    continue;
                }
                let mut cells = ArrayVec::<u32, 6>::new();
                for l in 0..levels {
                    cells.push(self.view.column(c)[bc + l]);
                    cells.push(self.view.column(d)[bd + l]);
                }
                if self.with_group(rule, &cells, &[(c, bc + levels), (d, bd + levels)]) {
                    return true;
                }
            }
        }
        // Baseclaims with c as a, b or c.
        if self.options.allows(Rule::Baseclaim) {
            // Only the columns some role allows: x is b in the first and a in the others, y is
            // c in the first two and b in the last.
            let (one, two) = (self.answerable[1], self.answerable[2]);
            let c_one = if one >> c & 1 == 1 { two } else { 0 };
            for x in columns_of(later & (one | c_one)) {
                for y in columns_of(later & (one | c_one) & !(1 << x)) {
                    if self.left == 0 {
                        return false;
                    }
                    for roles in [[c, x, y], [x, c, y], [x, y, c]] {
                        let [a, b, cc] = roles;
                        if self.answerable[1] & (1 << a | 1 << cc) != 1 << a | 1 << cc
                            || self.answerable[2] >> b & 1 == 0
                        {
                            continue;
                        }
                        let cell =
                            |col: usize, up: usize| self.view.column(col)[self.view.base(col) + up];
                        let cells = [cell(a, 0), cell(b, 0), cell(cc, 0), cell(b, 1)];
                        let tops = [
                            (a, self.view.base(a) + 1),
                            (b, self.view.base(b) + 2),
                            (cc, self.view.base(cc) + 1),
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
        let saved = (self.refuted, self.chosen.len());
        let through = &self.view.tables.through;
        for (x, y) in split_pairs(rule, cells, self.options.loosen) {
            let both = L::narrow(&through[x as usize]).and(L::narrow(&through[y as usize]));
            self.refuted = self.refuted.or(both);
        }
        if self.record {
            self.chosen.push(Applied::new(rule, cells));
        }
        if self.try_stacks(tops, group_columns) {
            return true;
        }
        self.chosen.truncate(saved.1);
        self.refuted = saved.0;
        false
    }
}

/// [`Search::answerable`]: a column with `k` empty cells or more is answerable from `k` up
/// when an even number of cells is left above, or a follower's winning cell an odd number of
/// cells up ends its pairs.
fn answerable(view: &CoverView, options: &Options) -> [u64; 4] {
    let mut out = [0u64; 4];
    for c in 0..view.geometry.columns().len() {
        let empties = view.empties(c);
        for (k, mask) in out.iter_mut().enumerate() {
            if empties >= k
                && ((empties - k).is_multiple_of(2) || options.loosen == Some(Loosen::OddStacks))
            {
                *mask |= 1 << c;
            }
        }
    }
    if options.allows(Rule::Threat) {
        for cell in cells_of(view.follower_wins) {
            let (c, j) = view.geometry.place(cell);
            // A threat at index j ends the pairs from j - 1, j - 3, ...
            for (k, mask) in out.iter_mut().enumerate() {
                let start = view.base(c) + k;
                if start < j && (j - start) % 2 == 1 {
                    *mask |= 1 << c;
                }
            }
        }
    }
    out
}

/// The columns of a set, a bit a column, lowest first.
fn columns_of(mut set: u64) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros() as usize;
            set &= set - 1;
            c
        })
    })
}

/// The follower lines none of whose empty cells is directly playable.
fn aftereven_lines<L: Lines>(view: &CoverView) -> L {
    let mut playable = LineSet::EMPTY;
    for (c, column) in view.geometry.columns().iter().enumerate() {
        if let Some(&cell) = column.get(view.base(c)) {
            playable = playable.or(view.tables.through[cell as usize]);
        }
    }
    L::narrow(&view.follower_open.without(playable))
}

/// The applications a cover chose and the cells it makes sure to the follower.
type Cover = (ArrayVec<Applied, MAX_APPLIED>, u128);

/// The search for a cover of the view's position by `options`, with its applications written
/// down when `record`; `None` when there is none within the budget.
fn cover(view: &CoverView, options: &Options, record: bool) -> Option<Cover> {
    if view.is_over() {
        return None;
    }
    if view.mover_open.is_empty() && options.goal == Goal::MoverCannotWin {
        return Some((ArrayVec::new(), 0));
    }
    if parity_forbids(view, options) {
        return None;
    }
    // The narrowest sets that hold the board's lines.
    match view.geometry.lines().len() {
        0..=64 => cover_with::<u64>(view, options, record),
        65..=128 => cover_with::<u128>(view, options, record),
        _ => cover_with::<LineSet>(view, options, record),
    }
}

/// Whether no cover can exist for the parity of the columns: a column's cells are answered
/// by pairs, after what a group takes from it, unless a threat ends its pairs. Each group takes
/// an odd number of cells from none or two of its columns (a base- or highinverse from both, a
/// baseclaim from its first and third), and a column is in one group at most. So without a
/// follower's winning cell above a column's lowest empty cell, a cover needs an even number of
/// columns with an odd number of empty cells. Half the positions of an even board fail this
/// (the mover's, when it makes the last move), and the search need not look at them.
fn parity_forbids(view: &CoverView, options: &Options) -> bool {
    if options.loosen == Some(Loosen::OddStacks) || view.odd_columns.count_ones().is_multiple_of(2)
    {
        return false;
    }
    let threat_possible = options.allows(Rule::Threat)
        && cells_of(view.follower_wins).any(|cell| {
            let (c, i) = view.geometry.place(cell);
            i > view.base(c)
        });
    !threat_possible
}

fn cover_with<L: Lines>(view: &CoverView, options: &Options, record: bool) -> Option<Cover> {
    let mut search = Search::<L> {
        view,
        mover_open: L::narrow(&view.mover_open),
        record,
        options: *options,
        left: options.budget,
        settled: 0,
        sure: 0,
        refuted: L::NONE,
        answerable: answerable(view, options),
        nonempty: (0..view.geometry.columns().len())
            .filter(|&c| view.empties(c) > 0)
            .fold(0, |m, c| m | 1 << c),
        aftereven_lines: aftereven_lines(view),
        chosen: ArrayVec::new(),
    };
    // A win needs a follower line of sure cells, never directly playable ones.
    if options.goal == Goal::FollowerWins
        && options.loosen != Some(Loosen::WinOneShort)
        && search.aftereven_lines.is_empty()
    {
        return None;
    }
    search.next().then_some((search.chosen, search.sure))
}

/// Whether the follower (`follower`'s stones; the other side, `mover`, to move) can keep the
/// mover from making any line, by the rules, and with `options.goal` [`Goal::FollowerWins`]
/// also complete one of its own: the witness, or `None` when the rules find no such cover (or
/// the game is over, or the board has more lines than the rules' view keeps).
pub fn mover_cannot_win(
    geometry: &GravityGeometry,
    mover: u128,
    follower: u128,
    options: &Options,
) -> Option<Witness> {
    let view = CoverView::new(geometry, mover, follower)?;
    let (chosen, sure) = cover(&view, options, true)?;
    // Write the witness, by the certificate's own reading of the rules: each mover line
    // under the first application that refutes it.
    let board = Board::new(geometry, mover, follower)?;
    let mut applications: Vec<Application> = chosen
        .iter()
        .map(|a| Application {
            rule: a.rule,
            cells: a.cells().collect(),
            refutes: Vec::new(),
        })
        .collect();
    let afterevens: Vec<u128> = board
        .own
        .iter()
        .map(|&(own, _)| own)
        .filter(|&own| own & board.empty & !sure == 0)
        .collect();
    for &(line, _) in &board.targets {
        let refuter = applications[..chosen.len()]
            .iter()
            .position(|a| refutes(&board, a.rule, &a.cells, line, options.loosen));
        if let Some(i) = refuter {
            applications[i].refutes.push(line);
            continue;
        }
        let own = afterevens
            .iter()
            .copied()
            .find(|&own| aftereven_refutes(&board, own, line, options.loosen))
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
