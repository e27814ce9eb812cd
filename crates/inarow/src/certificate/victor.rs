//! Victor's threat rules (Allis, "A knowledge-based approach of Connect-Four", 1988) on any
//! gravity board ([`GravityGeometry`]: columns of cells, lines as cell masks; no game named), as
//! a certificate may cite them: the rules, a witness (the rule applications a follower plays
//! by), and [`verify`], which checks a witness from the position alone. The search for a
//! witness lives with the searches (`search::cover`); a certificate's worth does not rest on it.
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
//! become the follower after one move (the search's `Claim::OtherSideCannotWin`).
//!
//! **Wins.** A cover also proves a *win* for the follower when one of the follower's lines
//! (no mover stone in it) has every empty cell among the upper cells of the cover's pairs
//! (claimeven, vertical, threat), which the follower is sure to get: the mover never completes
//! a line, so the game goes on until the board fills, and by then the follower has completed
//! that one ([`Goal::FollowerWins`], checked by [`verify_win`]). This is how the side that
//! controls zugzwang wins: Allis' second player with claimeven on even rows, or a side with an
//! odd threat that the other cannot undo.
//!
//! These are the rules in their static form: the follower's answers depend only on the cell
//! played, and applications never share a cell or (for inverses and baseclaims) a column below
//! them. Allis' before and specialbefore rest on answers that change with the play; in this
//! form a vertical already gives the follower its upper cell, so what they refute is refuted
//! by the verticals and aftereven. The search's `audit` checks every claim on every position
//! of small boards against their exact values.

use crate::error::Error;
use crate::game::GravityGeometry;
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

    pub(crate) fn bit(self) -> u16 {
        1 << self as u16
    }
}

/// What a cover must prove.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub enum Goal {
    /// The mover cannot win.
    #[default]
    MoverCannotWin,
    /// The follower wins: the mover cannot win, and some follower line without a mover stone
    /// has every empty cell among the pairs' upper cells, which the follower gets; the game
    /// goes on until the follower completes it (Allis' zugzwang control turned into a win).
    FollowerWins,
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

    /// The witness as a certificate writes it: its applications separated by `;`, each its
    /// rule's name and its cells as `COLUMN.LEVEL` (the geometry's column index and the cell's
    /// place in it, both from 0, level 0 at the bottom), e.g. `claimeven 3.1 3.2; baseinverse
    /// 0.0 1.0`. The lines each refutes are left out: the checker finds them. An empty witness
    /// (no line left to refute) is `-`.
    pub fn to_text(&self, geometry: &GravityGeometry) -> String {
        if self.applications.is_empty() {
            return "-".to_string();
        }
        self.applications
            .iter()
            .map(|a| {
                let mut s = a.rule.name().to_string();
                for &x in &a.cells {
                    let (c, i) = locate(geometry, x);
                    s.push_str(&format!(" {c}.{i}"));
                }
                s
            })
            .collect::<Vec<_>>()
            .join("; ")
    }

    /// Reads what [`Witness::to_text`] writes.
    ///
    /// # Errors
    /// [`Error::Input`] for an unknown rule, or a cell that is not `COLUMN.LEVEL` on the board.
    pub fn parse(text: &str, geometry: &GravityGeometry) -> Result<Witness, Error> {
        let text = text.trim();
        if text == "-" {
            return Ok(Witness::default());
        }
        let mut applications = Vec::new();
        for part in text.split(';') {
            let mut words = part.split_whitespace();
            let name = words
                .next()
                .ok_or_else(|| Error::Input("an empty rule application".into()))?;
            let rule = Rule::ALL
                .into_iter()
                .find(|r| r.name() == name)
                .ok_or_else(|| Error::Input(format!("'{name}' is no rule")))?;
            let cells = words
                .map(|w| {
                    let (c, i) = w
                        .split_once('.')
                        .and_then(|(c, i)| {
                            Some((c.parse::<usize>().ok()?, i.parse::<usize>().ok()?))
                        })
                        .ok_or_else(|| {
                            Error::Input(format!("cell '{w}': expected COLUMN.LEVEL"))
                        })?;
                    geometry
                        .columns()
                        .get(c)
                        .and_then(|column| column.get(i))
                        .copied()
                        .ok_or_else(|| Error::Input(format!("cell '{w}' is off the board")))
                })
                .collect::<Result<Vec<u32>, Error>>()?;
            applications.push(Application {
                rule,
                cells,
                refutes: Vec::new(),
            });
        }
        Ok(Witness { applications })
    }
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
    /// Let a follower line with one empty cell the follower is not sure of prove a win.
    WinOneShort,
}

/// The cells of a set, lowest first.
pub(crate) fn cells_of(mut set: u128) -> impl Iterator<Item = u32> {
    std::iter::from_fn(move || {
        (set != 0).then(|| {
            let c = set.trailing_zeros();
            set &= set - 1;
            c
        })
    })
}

/// A position seen from the follower: the cells, columns and lines it needs, computed once.
pub(crate) struct Board<'g> {
    pub(crate) geometry: &'g GravityGeometry,
    pub(crate) empty: u128,
    /// The index of each column's lowest empty cell (its height if full).
    pub(crate) base: Vec<usize>,
    /// The mover's lines without a follower stone, with the columns they cross.
    pub(crate) targets: Vec<(u128, u64)>,
    /// The follower's lines without a mover stone, with the columns they cross.
    pub(crate) own: Vec<(u128, u64)>,
}

impl<'g> Board<'g> {
    /// `None` when the game is over (a line made, or the board full) or the stones are no
    /// gravity position.
    pub(crate) fn new(
        geometry: &'g GravityGeometry,
        mover: u128,
        follower: u128,
    ) -> Option<Board<'g>> {
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
        for (i, &line) in geometry.lines().iter().enumerate() {
            if line & !mover == 0 || line & !follower == 0 {
                return None;
            }
            if line & follower == 0 {
                targets.push((line, geometry.line_columns(i)));
            }
            if line & mover == 0 {
                own.push((line, geometry.line_columns(i)));
            }
        }
        Some(Board {
            geometry,
            empty,
            base,
            targets,
            own,
        })
    }

    pub(crate) fn column(&self, c: usize) -> &[u32] {
        &self.geometry.columns()[c]
    }

    /// Whether the cell at index `i` of column `c` is even: an even number of cells above it.
    pub(crate) fn is_even(&self, c: usize, i: usize) -> bool {
        (self.column(c).len() - 1 - i).is_multiple_of(2)
    }

    /// The cells of column `c` above index `i`.
    pub(crate) fn above(&self, c: usize, i: usize) -> u128 {
        self.geometry.above(self.column(c)[i])
    }
}

/// How many pairs of cells an inverse or baseclaim splits.
pub(crate) fn split_count(rule: Rule) -> usize {
    match rule {
        Rule::Baseinverse => 1,
        Rule::Lowinverse | Rule::Baseclaim => 2,
        Rule::Highinverse => 3,
        _ => 0,
    }
}

/// The pairs of cells of which the mover gets at most one, for an inverse or a baseclaim.
#[inline(always)]
pub(crate) fn split_pairs(
    rule: Rule,
    cells: &[u32],
    loosen: Option<Loosen>,
) -> ArrayVec<(u32, u32), 3> {
    let mut pairs = ArrayVec::new();
    match rule {
        Rule::Baseinverse | Rule::Lowinverse | Rule::Highinverse => {
            for level in 0..cells.len().min(6) / 2 {
                pairs.push((cells[2 * level], cells[2 * level + 1]));
            }
        }
        Rule::Baseclaim if cells.len() == 4 => {
            let [a, b, c, d] = [cells[0], cells[1], cells[2], cells[3]];
            pairs.push((a, d));
            pairs.push((b, c));
            if loosen == Some(Loosen::BaseclaimFirstPair) {
                pairs.push((a, b));
            }
        }
        _ => {}
    }
    pairs
}

/// Whether the follower line `own` (every empty cell of it sure to the follower) refutes the
/// mover's `line` as an aftereven: the line holds a cell above each of its empty cells.
pub(crate) fn aftereven_refutes(
    board: &Board,
    own: u128,
    line: u128,
    loosen: Option<Loosen>,
) -> bool {
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
pub(crate) fn refutes(
    board: &Board,
    rule: Rule,
    cells: &[u32],
    line: u128,
    loosen: Option<Loosen>,
) -> bool {
    match rule {
        Rule::Claimeven | Rule::Vertical => line >> cells[1] & 1 == 1,
        Rule::Threat => line & (1 << cells[1] | board.geometry.above(cells[1])) != 0,
        Rule::Baseinverse | Rule::Lowinverse | Rule::Highinverse | Rule::Baseclaim => {
            split_pairs(rule, cells, loosen)
                .iter()
                .any(|&(x, y)| line >> x & 1 == 1 && line >> y & 1 == 1)
        }
        Rule::Aftereven => {
            let own = cells.iter().fold(0u128, |m, &x| m | 1 << x);
            aftereven_refutes(board, own, line, loosen)
        }
    }
}

/// Checks a witness from the position alone, trusting nothing the search computed: the cover's
/// applications lie where their rules allow, answer every empty cell once (or lie above a
/// threat), and refute the lines they list; every line the mover could still make is refuted
/// (by an application that lists it, or, unlisted, by any).
///
/// # Errors
/// [`Error::Input`] that says what is wrong, in words.
pub fn verify(
    geometry: &GravityGeometry,
    mover: u128,
    follower: u128,
    witness: &Witness,
) -> Result<(), Error> {
    checked(geometry, mover, follower, witness, false).map(|_| ())
}

/// Checks a witness of `goal`: [`verify`] or [`verify_win`].
///
/// # Errors
/// As theirs.
pub fn verify_goal(
    geometry: &GravityGeometry,
    mover: u128,
    follower: u128,
    witness: &Witness,
    goal: Goal,
) -> Result<(), Error> {
    match goal {
        Goal::MoverCannotWin => verify(geometry, mover, follower, witness),
        Goal::FollowerWins => verify_win(geometry, mover, follower, witness),
    }
}

/// Checks a witness that the follower wins: a cover as [`verify`] checks it (whole, even where
/// the mover has no line left), and a follower line without a mover stone whose empty cells
/// are all upper cells of its pairs (a claimeven's, a vertical's or a threat's), which the
/// follower gets: as the mover cannot win, the game goes on until the follower completes it.
///
/// # Errors
/// [`Error::Input`] that says what is wrong, in words.
pub fn verify_win(
    geometry: &GravityGeometry,
    mover: u128,
    follower: u128,
    witness: &Witness,
) -> Result<(), Error> {
    let (board, sure) = checked(geometry, mover, follower, witness, true)?;
    follower_completes(&board, sure, None)
        .map(|_| ())
        .ok_or_else(|| Error::Input("no follower line is made of cells the follower gets".into()))
}

/// A follower line (no mover stone) whose empty cells are all in `sure`, the cells a cover
/// gives the follower.
pub(crate) fn follower_completes(
    board: &Board,
    sure: u128,
    loosen: Option<Loosen>,
) -> Option<u128> {
    let slack = u32::from(loosen == Some(Loosen::WinOneShort));
    board
        .own
        .iter()
        .map(|&(own, _)| own)
        .find(|&own| (own & board.empty & !sure).count_ones() <= slack)
}

/// [`verify`]'s checks, and the cells the cover gives the follower; `whole_cover`: check the
/// cover even where the mover has no line left to refute.
fn checked<'g>(
    geometry: &'g GravityGeometry,
    mover: u128,
    follower: u128,
    witness: &Witness,
    whole_cover: bool,
) -> Result<(Board<'g>, u128), Error> {
    let board = Board::new(geometry, mover, follower)
        .ok_or_else(|| Error::Input("the game is over or no gravity position".into()))?;
    if board.targets.is_empty() && !whole_cover {
        // Nothing to refute: every line holds a follower stone.
        return Ok((board, 0));
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
            return Err(Error::Input(format!(
                "{}: cells not distinct and empty",
                a.rule.name()
            )));
        }
        if cells & (covered | dead) != 0 {
            return Err(Error::Input(format!(
                "{}: a cell answered twice",
                a.rule.name()
            )));
        }
        covered |= cells;
        match a.rule {
            Rule::Claimeven | Rule::Vertical | Rule::Threat => {
                let [lower, upper] = a.cells[..] else {
                    return Err(Error::Input(format!("{}: two cells", a.rule.name())));
                };
                if !directly_above(lower, upper) {
                    return Err(Error::Input(format!(
                        "{}: not one above the other",
                        a.rule.name()
                    )));
                }
                let (c, i) = locate(geometry, upper);
                if a.rule == Rule::Threat {
                    let wins = geometry
                        .lines()
                        .iter()
                        .any(|&l| l & !follower == bit(upper));
                    if !wins {
                        return Err(Error::Input(
                            "threat: no follower line ends on its upper cell".into(),
                        ));
                    }
                    dead |= board.above(c, i);
                } else if board.is_even(c, i) != (a.rule == Rule::Claimeven) {
                    return Err(Error::Input(format!(
                        "{}: the upper cell's parity",
                        a.rule.name()
                    )));
                }
                sure |= bit(upper);
            }
            Rule::Baseinverse | Rule::Lowinverse | Rule::Highinverse => {
                let levels = split_count(a.rule);
                if a.cells.len() != 2 * levels {
                    return Err(Error::Input(format!(
                        "{}: {} cells",
                        a.rule.name(),
                        2 * levels
                    )));
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
                        return Err(Error::Input(format!(
                            "{}: level {l} misplaced",
                            a.rule.name()
                        )));
                    }
                }
            }
            Rule::Baseclaim => {
                let [a_, b, c, d] = a.cells[..] else {
                    return Err(Error::Input("baseclaim: four cells".into()));
                };
                let columns = [a_, b, c].map(|x| locate(geometry, x).0);
                if ![a_, b, c].iter().all(|&x| playable(x))
                    || columns[0] == columns[1]
                    || columns[1] == columns[2]
                    || columns[0] == columns[2]
                    || !directly_above(b, d)
                {
                    return Err(Error::Input("baseclaim: misplaced".into()));
                }
            }
            Rule::Aftereven => unreachable!(),
        }
    }
    if covered & dead != 0 || (covered | dead) & board.empty != board.empty {
        return Err(Error::Input(
            "some empty cell has no answer, or one above a threat has".into(),
        ));
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
                return Err(Error::Input(
                    "aftereven: not a follower line of sure cells".into(),
                ));
            }
        }
        for &line in &a.refutes {
            if !refutes(&board, a.rule, &a.cells, line, None) {
                return Err(Error::Input(format!(
                    "{} does not refute line {line:#x}",
                    a.rule.name()
                )));
            }
            listed.push(line);
        }
    }
    // A line no application lists may still be refuted by one (a witness read from a
    // certificate lists none).
    let refuted = |line: u128| {
        listed.contains(&line)
            || witness
                .applications
                .iter()
                .any(|a| refutes(&board, a.rule, &a.cells, line, None))
    };
    if let Some(&(line, _)) = board.targets.iter().find(|&&(l, _)| !refuted(l)) {
        return Err(Error::Input(format!("line {line:#x} is not refuted")));
    }
    Ok((board, sure))
}
