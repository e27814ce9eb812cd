//! The rules of the games, and the vocabulary that searches and front-ends share.
//!
//! A game is five small pieces, so that a new one writes only its rules, its notation and a
//! description of its board, and is correct with every default:
//! - [`Rules`]: the rules (moves, play, status, keys);
//! - [`Notation`]: how moves are written and read, and how the board is drawn;
//! - [`Board`]: the board as data (its shape, who holds each cell, what a move changes), from
//!   which [`PositionView`] describes a position for pages and bindings;
//! - [`Tactics`]: optional accelerators (immediate wins, safe moves, move ranks, bounds), each
//!   with a default defined by the rules;
//! - its entry in the catalog ([`GameSpec`], [`AnyGame`], [`Variant`]): its spec, its start,
//!   and the facts about it that are not rules (the engine's default method, tuning);
//! - its kind, in the type: [`Bounded`] (every game ends by a known ply, which also sets the
//!   score scale) or [`Repeating`] (positions may repeat and play may go on for ever). A search
//!   that needs a length bound asks for `G: Bounded` and does not compile for the others;
//!   code that serves both reads [`Rules::Kind`] ([`Kind`]).
//!
//! [`Indexed`] (a dense numbering, for retrograde analysis and databases) is optional.

pub mod bits;
mod catalog;
pub mod connect;
pub mod cube;
pub mod geometry;
pub mod gravity;
pub mod grid;
mod line;
mod numbering;
pub mod pentago;
pub mod popout;
pub mod view;

use crate::error::Error;
pub use crate::error::{MoveError, one_line};
pub use catalog::{
    AnyGame, ConnectBoard, CountByFormula, GameSpec, Method, PopOutBoard, ShippedBook,
    ShippedStrategy, Variant,
};
pub use connect::Connect;
pub use cube::{Gravity, Qubic};
pub use geometry::Geometry;
pub use gravity::GravityGeometry;
pub use grid::{Grid, Runtime, Shape, Standard};
pub use line::{GameLine, Repetition, Start};
pub use pentago::Pentago;
pub use popout::{PopMove, PopOut};
pub use view::{Board, PositionView};

use arrayvec::ArrayVec;
use std::fmt::{self, Debug, Display};
use std::str::FromStr;

/// The most moves any position of any game may offer, and the bound on move codes
/// ([`Rules::move_code`]): Pentago has 36 cells x 8 rotations = 288.
pub const MAX_MOVES: usize = 320;

/// A fixed-capacity list of moves: no allocation in the search's inner loop.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// One of the two players; `First` moves at ply 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    /// The player who moves first.
    First,
    /// The player who moves second.
    Second,
}

impl Player {
    /// The player who moves at the given ply.
    pub fn at_ply(ply: u32) -> Player {
        if ply.is_multiple_of(2) {
            Player::First
        } else {
            Player::Second
        }
    }

    /// The other player.
    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }

    /// `first` or `second`.
    pub fn name(self) -> &'static str {
        match self {
            Player::First => "first",
            Player::Second => "second",
        }
    }
}

/// Whether a position is still being played, or how it ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    /// The game goes on: the side to move has a legal move.
    Ongoing,
    /// The game is over, won by this player.
    Win(Player),
    /// The game is over, drawn.
    Draw,
}

/// What a player tries to reach: the question a proof answers.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Goal {
    /// A win.
    Win,
    /// A win or a draw.
    NotLose,
}

impl Goal {
    /// The other player's goal when this one is out of reach: not reaching a win means the
    /// opponent does not lose, and failing not to lose means the opponent wins.
    pub fn complement(self) -> Goal {
        match self {
            Goal::Win => Goal::NotLose,
            Goal::NotLose => Goal::Win,
        }
    }

    /// Whether a finished game (or a repetition judged by the rule) reaches the goal for
    /// `player`.
    pub fn reached_by(self, status: Status, player: Player) -> bool {
        match status {
            Status::Win(p) => p == player,
            Status::Draw => self == Goal::NotLose,
            Status::Ongoing => false,
        }
    }
}

impl Display for Goal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Goal::Win => "win",
            Goal::NotLose => "notlose",
        })
    }
}

impl FromStr for Goal {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        match s {
            "win" => Ok(Goal::Win),
            "notlose" => Ok(Goal::NotLose),
            _ => Err(Error::Input(format!(
                "unknown goal '{s}': expected win or notlose"
            ))),
        }
    }
}

/// How a position that repeats one earlier in the game ends, as a function of the position (so
/// that any game's rule fits); [`repetition_draw`] is PopOut's rule and the default everywhere.
pub type RepetitionRule<G> = fn(&G) -> Status;

/// The repetition rule "a repeated position is a draw".
pub fn repetition_draw<G>(_: &G) -> Status {
    Status::Draw
}

/// A move together with an ordering hint (higher = try earlier).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RankedMove<M> {
    /// The move.
    pub mv: M,
    /// Its ordering hint: higher is tried earlier.
    pub rank: i32,
}

/// The rules of a two-player game of perfect information, as the searches see them.
///
/// Positions are small `Copy` values; [`Rules::play`] returns the next position (copy-make), so a
/// search never undoes a move. A move may end the game in any way: a win for either player or a
/// draw; searches read [`Rules::status`] to know.
pub trait Rules: Copy + Eq + Debug + Send + Sync + 'static {
    /// A move of the game: a column, a cell, a pop, a placement with its quadrant turn.
    type Move: Copy + Eq + Debug + Send + Sync + 'static;
    /// [`Finite`] for a [`Bounded`] game, [`Cyclic`] for a [`Repeating`] one.
    type Kind: Kind<Self>;

    /// A short description of the game and its parameters, e.g. `connect4:7x6:k4`.
    fn name(&self) -> String;
    /// The number of moves played so far.
    fn ply(&self) -> u32;
    /// The player whose turn it is: by default, the one of [`Player::at_ply`].
    fn side_to_move(&self) -> Player {
        Player::at_ply(self.ply())
    }
    /// The legal moves, in the game's preferred search order; empty when the game is over.
    fn legal_moves(&self, out: &mut MoveList<Self::Move>);
    /// The position after `m`, which must be legal.
    fn play(&self, m: Self::Move) -> Self;
    /// Whether the game is over, and how.
    fn status(&self) -> Status;
    /// A code that identifies the position uniquely among positions of this game.
    fn key(&self) -> u128;
    /// The number of significant bits of any key: `key() < 2^key_bits()`.
    fn key_bits(&self) -> u32;
    /// The smallest key over the position's symmetries: equal for positions of equal value.
    fn canonical_key(&self) -> u128 {
        self.key()
    }
    /// The number of the board's symmetries that [`Rules::image_key`] and [`Rules::image_move`]
    /// take, the identity (0) among them; 1 where none is used.
    fn symmetry_count(&self) -> usize {
        1
    }
    /// The key of the position's image under symmetry `i` (`i < symmetry_count()`; 0 is the
    /// identity: [`Rules::key`]), at any number of stones: what a strategy book keys by.
    fn image_key(&self, i: usize) -> u128 {
        debug_assert_eq!(i, 0);
        self.key()
    }
    /// The position's image under symmetry `i` (0: the position itself).
    fn image(&self, i: usize) -> Self {
        debug_assert_eq!(i, 0);
        *self
    }
    /// Move `m` of this position as the same move of its image under symmetry `i`.
    fn image_move(&self, m: Self::Move, i: usize) -> Self::Move {
        debug_assert_eq!(i, 0);
        m
    }
    /// Whether play from here may reach a position and an image of it under another symmetry
    /// (so that [`Rules::canonical_key`] may merge something below it). Where stones are only
    /// ever added, both would hold this position and its preimage, so a game can answer no
    /// when every other image of this position puts a stone on a cell where this one has the
    /// other player's: searches then key by [`Rules::key`], which is cheaper.
    fn images_may_meet(&self) -> bool {
        true
    }
    /// A number below [`MAX_MOVES`] that names the move the same way in every position (a
    /// column, a cell): what the table's move field and the history heuristic hold.
    fn move_code(&self, m: Self::Move) -> u16;
    /// Runs `visitor` where this game is known to be [`Indexed`], if it is: the games with a
    /// numbering return `Some(visitor.indexed())`; the others keep this default.
    fn visit_indexed<V: IndexedVisitor<Self>>(visitor: V) -> Option<V::Output> {
        let _ = visitor;
        None
    }
    /// The position as a gravity board: the board's columns and lines, the stones of the side
    /// to move and the other side's. `None` (the default) where stones do not fall down columns.
    /// Part of the rules, not an accelerator: the threat rules ([`crate::certificate::victor`])
    /// read the board from it, and a certificate's checker trusts it as it trusts
    /// [`Rules::status`] (the games' tests check the two agree along random games).
    fn gravity_position(&self) -> Option<(&'static GravityGeometry, u128, u128)> {
        None
    }
}

/// How a game's moves are written and read, and its board drawn.
pub trait Notation: Rules {
    /// Parses one move and checks that it is legal in this position.
    ///
    /// # Errors
    /// [`Error::Input`] that says why `token` is no move here: not one of the notation, or not
    /// legal in this position (the reason of the [`MoveError`] of a move string).
    fn parse_move(&self, token: &str) -> Result<Self::Move, Error>;
    /// Writes a move in the notation [`Notation::parse_move`] reads.
    fn format_move(&self, m: Self::Move) -> String;
    /// Draws the board for a terminal.
    fn render(&self) -> String;
    /// How a move is written, in one line for people (`play`'s banner, `inarow games`): what
    /// [`Notation::parse_move`] reads, with an example move string.
    fn describe_moves(&self) -> String;
    /// Splits a move string into the tokens [`Notation::parse_move`] reads. By default the
    /// moves are separated by commas.
    fn split_moves<'a>(&self, text: &'a str) -> Vec<&'a str> {
        text.split(',')
            .map(str::trim)
            .filter(|t| !t.is_empty())
            .collect()
    }
    /// Reads a whole position written as a board rather than as moves from the start, in a
    /// game that has such notations (Pentago's grids and board names): `None` when `text` is
    /// not one (it is then read as moves); `Some(Err)` ([`Error::Input`]) says why a text of the
    /// board notation is no position.
    fn parse_board(&self, _text: &str) -> Option<Result<Self, Error>> {
        None
    }
    /// The position written whole as [`Notation::parse_board`] reads it, in a game that has a
    /// board notation (`None` otherwise).
    fn format_board(&self) -> Option<String> {
        None
    }
    /// Joins formatted moves into one move string (by default with commas).
    fn join_moves(&self, moves: &[String]) -> String {
        moves.join(",")
    }
}

/// Whether `mover`'s move to `next` is safe ([`Tactics::safe_moves`]): it wins or draws, or
/// leaves the opponent no winning move.
pub(crate) fn plays_safe<G: Tactics>(next: &G, mover: Player) -> bool {
    match next.status() {
        Status::Ongoing => !next.has_winning_move(),
        Status::Draw => true,
        Status::Win(p) => p == mover,
    }
}

/// How many of a position's moves are safe ([`Tactics::safe_moves`]).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum SafeChoice<M> {
    /// Every move loses within a ply.
    None,
    /// Exactly one move is safe: it is forced.
    Forced(M),
    /// Two safe moves or more.
    Several,
}

impl<M> SafeChoice<M> {
    /// The choice that the safe moves `moves` leave (read no further than the second).
    pub fn counting(moves: impl IntoIterator<Item = M>) -> Self {
        let mut moves = moves.into_iter();
        match (moves.next(), moves.next()) {
            (None, _) => SafeChoice::None,
            (Some(m), None) => SafeChoice::Forced(m),
            _ => SafeChoice::Several,
        }
    }
}

/// Accelerators: faster equivalents of what the rules define, and knowledge beyond them. Every
/// method has a default that follows from [`Rules`] alone, so `impl Tactics for MyGame {}` is
/// correct; a game overrides what it can do faster (Connect Four does so with bitboards).
pub trait Tactics: Variant {
    /// A promise that a move ends the game only with a win for its mover, or, in a [`Bounded`]
    /// game, with a draw on ply `max_plies` (Connect Four's drops). Searches then skip reading
    /// the status of positions they reach through [`Tactics::safe_moves`]. The default, false,
    /// is right for every game.
    const ONLY_MOVER_WINS: bool = false;

    /// Whether [`Tactics::threat_moves`] knows the game's threats: without them threat-space
    /// search finds nothing, and searches do not run it.
    const THREATS: bool = false;

    /// Whether the side to move can win with its next move.
    fn has_winning_move(&self) -> bool {
        let me = self.side_to_move();
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .any(|&m| self.play(m).status() == Status::Win(me))
    }

    /// The moves that lose neither at once nor to the opponent's next move: after each, the
    /// game is drawn, or goes on with no winning move for the opponent. In the game's preferred
    /// order, with rank 0. Called only when the side to move has no winning move; an empty list
    /// means that every move loses within a ply.
    fn safe_moves(&self, out: &mut MoveList<RankedMove<Self::Move>>) {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        for m in moves {
            if plays_safe(&self.play(m), self.side_to_move()) {
                out.push(RankedMove { mv: m, rank: 0 });
            }
        }
    }

    /// Whether [`Tactics::safe_moves`] would give no move, one, or several, and the one (called
    /// only when the side to move has no winning move). Searches ask it of every child and follow
    /// forced moves, so games may answer it faster.
    fn safe_choice(&self) -> SafeChoice<Self::Move> {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        SafeChoice::counting(
            moves
                .into_iter()
                .filter(|&m| plays_safe(&self.play(m), self.side_to_move())),
        )
    }

    /// Whether `m` is one of [`Tactics::safe_moves`] (called only when the side to move has no
    /// winning move).
    fn is_safe_move(&self, m: Self::Move) -> bool {
        let mut safe = MoveList::new();
        self.safe_moves(&mut safe);
        safe.iter().any(|rm| rm.mv == m)
    }

    /// Sets the ordering hint of each move (higher = more promising); called on the lists that
    /// [`Tactics::safe_moves`] makes, only when a search is about to try them. The default
    /// leaves the game's order.
    fn rank_moves(&self, _moves: &mut [RankedMove<Self::Move>]) {}

    /// The ordering hint [`Tactics::rank_moves`] gives the move `mv`, from `child`, the
    /// position it leads to: for a search that has played the move already. The default asks
    /// [`Tactics::rank_moves`].
    fn rank_child(&self, mv: Self::Move, _child: &Self) -> i32 {
        let mut one = [RankedMove { mv, rank: 0 }];
        self.rank_moves(&mut one);
        one[0].rank
    }

    /// The moves that do not lose within a ply (as [`Tactics::safe_moves`]) and make a threat:
    /// a move after which the mover could win at once if the opponent did nothing, so that the
    /// opponent must answer it. What threat-space search plays; the default knows none, and
    /// that search then finds nothing.
    fn threat_moves(&self, _out: &mut MoveList<Self::Move>) {}

    /// The same board with the other side to move, as if the side to move passed, where the
    /// game can say so (none by default). Not a move of the game: searches use it only to ask
    /// what the opponent threatens, so as to find the defences that matter.
    fn pass(&self) -> Option<Self> {
        None
    }

    /// A zero-sum heuristic value of the position for the side to move (positive favours it),
    /// for the playing engine ([`crate::search::heuristic`]) where exact search cannot finish.
    /// `None` where the game has none.
    fn evaluate(&self) -> Option<i32> {
        None
    }

    /// Bounds `(lowest, highest)` on the score of the side to move in a [`Bounded`] game that
    /// follow from a strategy one side can play to the end (Connect Four: no quick win; Allis'
    /// claimeven). Asked only when the side to move has no immediate win, by a search with the
    /// window `(alpha, beta)`: a game may leave out (as `i32::MIN` / `i32::MAX`) a bound that
    /// could not fall inside it, an upper bound that could not be below `beta` or a lower bound
    /// that could not be above `alpha`. `(i32::MIN, i32::MAX)` asks for every bound. The
    /// default knows nothing.
    fn strategy_bounds(&self, _alpha: i32, _beta: i32) -> (i32, i32) {
        (i32::MIN, i32::MAX)
    }
}

/// A game in which every play ends by a known ply.
///
/// Scores count from it: a win whose last move is ply `e` (1-based) is worth
/// `(max_plies + 2 - e) / 2` to the winner, so sooner wins score higher and a position's score
/// never depends on the path that reached it.
pub trait Bounded: Rules<Kind = Finite> {
    /// Every game has ended by this ply.
    fn max_plies(&self) -> u32;
}

/// A game whose positions may repeat, so that play may go on for ever (PopOut's pops). A
/// repeated position ends the game by a [`RepetitionRule`] that the searches apply, since it
/// depends on the path; [`Rules::status`] never reports it.
pub trait Repeating: Rules<Kind = Cyclic> {
    /// Whether `m` undoes progress (PopOut's pop): the moves that handicaps may deny the
    /// stronger player.
    fn is_backward(&self, _m: Self::Move) -> bool {
        false
    }
    /// Whether `m` ends the game by agreement without changing the board (PopOut's draw claim
    /// on a full board): what it leads to is not a new position of the game.
    fn is_claim(&self, _m: Self::Move) -> bool {
        false
    }
    /// The number of stones on the board.
    fn stones(&self) -> u32;
}

/// The kind of [`Bounded`] games.
pub enum Finite {}

/// The kind of [`Repeating`] games.
pub enum Cyclic {}

/// What code generic over every game needs to know of its kind: implemented by [`Finite`] for
/// [`Bounded`] games and by [`Cyclic`] for [`Repeating`] ones.
pub trait Kind<G: Rules>: 'static {
    /// Whether positions may repeat.
    const REPEATS: bool;
    /// The ply by which every game has ended, in a bounded game.
    fn max_plies(pos: &G) -> Option<u32>;
    /// Whether `m` ends the game by agreement without changing the board.
    fn is_claim(pos: &G, m: G::Move) -> bool;
    /// The number of stones on the board.
    fn stones(pos: &G) -> u32;
    /// Calls the visitor's method for this kind, where the game is known to be of it.
    fn visit<V: KindVisitor<G>>(visitor: V) -> V::Output;
}

/// Code that differs by kind and needs the kind's trait ([`Bounded`] or [`Repeating`]), run by
/// [`Kind::visit`].
pub trait KindVisitor<G: Rules> {
    /// What the visit returns.
    type Output;
    /// The code for a [`Bounded`] game.
    fn bounded(self) -> Self::Output
    where
        G: Bounded;
    /// The code for a [`Repeating`] game.
    fn repeating(self) -> Self::Output
    where
        G: Repeating;
}

impl<G: Bounded> Kind<G> for Finite {
    const REPEATS: bool = false;
    fn max_plies(pos: &G) -> Option<u32> {
        Some(pos.max_plies())
    }
    fn is_claim(_: &G, _: G::Move) -> bool {
        false
    }
    fn stones(pos: &G) -> u32 {
        pos.ply()
    }
    fn visit<V: KindVisitor<G>>(visitor: V) -> V::Output {
        visitor.bounded()
    }
}

impl<G: Repeating> Kind<G> for Cyclic {
    const REPEATS: bool = true;
    fn max_plies(_: &G) -> Option<u32> {
        None
    }
    fn is_claim(pos: &G, m: G::Move) -> bool {
        pos.is_claim(m)
    }
    fn stones(pos: &G) -> u32 {
        pos.stones()
    }
    fn visit<V: KindVisitor<G>>(visitor: V) -> V::Output {
        visitor.repeating()
    }
}

/// Code that needs [`Indexed`], run by [`Rules::visit_indexed`] for the games that are.
pub trait IndexedVisitor<G: Rules> {
    /// What the visit returns.
    type Output;
    /// The code, where the game is [`Indexed`].
    fn indexed(self) -> Self::Output
    where
        G: Indexed;
}

/// Where the moves of a position lead, one ply ahead.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Outlook {
    /// A move wins at once.
    WinNow,
    /// Every move loses at once (a PopOut pop that makes only the opponent's line).
    LoseNow,
    /// Neither: this many distinct indices of positions whose game goes on or is drawn (a
    /// claim counts as one).
    Open(u32),
}

/// What retrograde analysis needs beyond the rules: a dense numbering of positions and the
/// moves backward. Positions of equal value by the game's symmetries (a mirror image; the same
/// board relative to the side to move) may share an index. Optional: a game that implements it
/// says so in [`Rules::visit_indexed`].
pub trait Indexed: Rules {
    /// Every position's index is below this; `None` when the numbering does not fit 64 bits.
    fn index_len(&self) -> Option<u64>;
    /// This position's index.
    fn index(&self) -> u64;
    /// A position of this game with the given index, or `None` if there is none (or none that
    /// play can reach). A position whose game is over is one.
    fn at_index(&self, index: u64) -> Option<Self>;
    /// What the moves of this position (not over) lead to, as retrograde analysis starts from
    /// it. The default plays every move.
    fn outlook(&self) -> Outlook {
        outlook_by_moves(self)
    }
    /// Calls `f` once with each distinct index of the positions, not over, that have a move to
    /// this one.
    fn for_each_predecessor(&self, f: impl FnMut(u64));
}

/// [`Indexed::outlook`] by playing every move: the default, and the reference the games'
/// faster versions are tested against.
pub fn outlook_by_moves<G: Indexed>(pos: &G) -> Outlook {
    let me = pos.side_to_move();
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut open: ArrayVec<u64, MAX_MOVES> = ArrayVec::new();
    for &m in &moves {
        if G::Kind::is_claim(pos, m) {
            open.push(u64::MAX);
            continue;
        }
        let next = pos.play(m);
        match next.status() {
            Status::Win(p) if p == me => return Outlook::WinNow,
            Status::Win(_) => {}
            _ => open.push(next.index()),
        }
    }
    open.sort_unstable();
    let repeats = open.windows(2).filter(|w| w[0] == w[1]).count();
    match open.len() - repeats {
        0 => Outlook::LoseNow,
        n => Outlook::Open(n as u32),
    }
}

/// Plays a move string from `start`, checking every move; returns the position and the moves.
///
/// # Errors
/// A [`MoveError`] for the first move that cannot be read, is not legal, or comes after the
/// game is over.
pub fn play_moves<G: Notation>(start: G, text: &str) -> Result<(G, Vec<G::Move>), MoveError> {
    let mut pos = start;
    let mut moves = Vec::new();
    for (i, token) in start.split_moves(text.trim()).into_iter().enumerate() {
        let fail = |reason: String| MoveError {
            text: text.trim().to_string(),
            index: i + 1,
            token: token.to_string(),
            reason,
        };
        if pos.status() != Status::Ongoing {
            return Err(fail(format!("'{token}' comes after the game is over")));
        }
        let m = pos.parse_move(token).map_err(|e| fail(e.to_string()))?;
        moves.push(m);
        pos = pos.play(m);
    }
    Ok((pos, moves))
}

/// Reads a position: a whole board, where the game has a notation for one
/// ([`Notation::parse_board`]), optionally followed by `/` and the moves played from it
/// (`BOARD/MOVES`), or a move string from `start`. Returns the root the moves are played from
/// (the board, or `start`), the position and the moves.
///
/// # Errors
/// As [`play_moves`] for the moves; for a board that is no position, or `/` in a game without
/// boards, a [`MoveError`] of index 0 saying why.
pub fn read_position<G: Notation>(start: G, text: &str) -> Result<(G, G, Vec<G::Move>), MoveError> {
    let text = text.trim();
    let (board, moves) = match text.split_once('/') {
        Some((board, moves)) => (board.trim(), Some(moves)),
        None => (text, None),
    };
    let bad = |reason: String| MoveError {
        text: text.to_string(),
        index: 0,
        token: String::new(),
        reason,
    };
    match (start.parse_board(board), moves) {
        (Some(Ok(board)), moves) => {
            play_moves(board, moves.unwrap_or("")).map(|(pos, moves)| (board, pos, moves))
        }
        (Some(Err(reason)), _) => Err(bad(reason.to_string())),
        (None, None) => play_moves(start, text).map(|(pos, moves)| (start, pos, moves)),
        (None, Some(_)) => Err(bad(format!(
            "'{board}' is not a board of {}: BOARD/MOVES needs a whole board before the /",
            start.name()
        ))),
    }
}

/// Reads a position as the game line that reaches it: a move string from `start` (`-` and the
/// empty string are the start itself), or a whole board where the game has a notation for one
/// ([`Notation::parse_board`]; the line then starts there).
///
/// # Errors
/// As [`read_position`].
pub fn read_line<G: Notation>(start: G, text: &str) -> Result<GameLine<G>, MoveError> {
    let text = text.trim();
    let text = if text == "-" { "" } else { text };
    let (root, _, moves) = read_position(start, text)?;
    Ok(GameLine::from_moves(root, &moves))
}

/// Writes a sequence of moves played from `start` as one move string.
pub fn format_moves<G: Notation>(start: G, moves: &[G::Move]) -> String {
    let mut pos = start;
    let mut tokens = Vec::with_capacity(moves.len());
    for &m in moves {
        tokens.push(pos.format_move(m));
        pos = pos.play(m);
    }
    start.join_moves(&tokens)
}

#[cfg(test)]
mod tests {
    use super::SafeChoice;

    /// The tests of every game's `safe_choice` compare it with this count of their safe moves,
    /// so the count is checked here on its own.
    #[test]
    fn counting_safe_moves() {
        assert_eq!(SafeChoice::<u8>::counting([]), SafeChoice::None);
        assert_eq!(SafeChoice::counting([7u8]), SafeChoice::Forced(7));
        assert_eq!(SafeChoice::counting([7u8, 2]), SafeChoice::Several);
        // It reads no further than the second move: the default plays each one it reads.
        let mut read = 0;
        let choice = SafeChoice::counting((0u8..).inspect(|_| read += 1));
        assert_eq!((choice, read), (SafeChoice::Several, 2));
    }
}
