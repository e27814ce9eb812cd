//! Rules of the games behind one small trait, [`Game`], and the game-independent vocabulary
//! (players, status, move lists, parse errors, game specs) that search and front-ends share.

pub mod bits;
pub mod connect;
mod numbering;
pub mod popout;
mod spec;

pub use connect::{Connect, Dims, Standard};
pub use popout::{PopMove, PopOut};
pub use spec::{AnyGame, GameSpec};

use arrayvec::ArrayVec;
use std::fmt::{self, Debug, Display};

/// The most moves any position of any game may offer (Pentago: 36 cells x 8 rotations).
pub const MAX_MOVES: usize = 320;

/// A fixed-capacity list of moves: no allocation in the search's inner loop.
pub type MoveList<M> = ArrayVec<M, MAX_MOVES>;

/// One of the two players; `First` moves at ply 0.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub enum Player {
    First,
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

    pub fn opponent(self) -> Player {
        match self {
            Player::First => Player::Second,
            Player::Second => Player::First,
        }
    }
}

/// Whether a position is still being played, or how it ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Status {
    Ongoing,
    Win(Player),
    Draw,
}

/// A move together with the game's ordering hint (higher = try earlier).
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct RankedMove<M> {
    pub mv: M,
    pub rank: i32,
}

/// The rules of a two-player, perfect-information game, as the search sees them.
///
/// Positions are small `Copy` values; [`Game::play`] returns the next position (copy-make), so the
/// search never undoes a move. Scores count from [`Game::max_plies`]: a win whose last move is ply
/// `e` (1-based) is worth `(max_plies + 2 - e) / 2` to the winner, so sooner wins score higher and a
/// position's score never depends on the path that reached it.
///
/// The methods with default bodies are accelerators: a game may override them with faster
/// equivalents (Connect Four does so with bitboards); the defaults are defined by the others.
pub trait Game: Copy + Eq + Debug + Send + Sync + 'static {
    type Move: Copy + Eq + Debug + Send + Sync + 'static;

    /// A short description of the game and its parameters, e.g. `connect4:7x6:k4`.
    fn name(&self) -> String;
    /// The number of moves played so far.
    fn ply(&self) -> u32;
    /// A bound on the game's length: every game has ended by this ply.
    fn max_plies(&self) -> u32;
    /// The legal moves, in the game's preferred search order; empty when the game is over.
    fn legal_moves(&self, out: &mut MoveList<Self::Move>);
    /// The position after `m`, which must be legal.
    fn play(&self, m: Self::Move) -> Self;
    /// Whether the game is over, decided by the last move.
    fn status(&self) -> Status;
    /// A code that identifies the position uniquely among positions of this game.
    fn key(&self) -> u128;
    /// The number of significant bits of any key: `key() < 2^key_bits()`.
    fn key_bits(&self) -> u32;
    /// The smallest key over the position's symmetries: equal for positions of equal value.
    fn canonical_key(&self) -> u128 {
        self.key()
    }
    /// A small number (below 128) naming the move in any position, or `None` beyond that range.
    fn move_code(&self, m: Self::Move) -> Option<u8>;

    /// Parses one move in this position's notation and checks that it is legal here.
    fn parse_move(&self, token: &str) -> Result<Self::Move, String>;
    /// Splits a move string into the tokens [`Game::parse_move`] reads.
    fn split_moves<'a>(&self, text: &'a str) -> Vec<&'a str>;
    /// Writes a move in the notation [`Game::parse_move`] reads.
    fn format_move(&self, m: Self::Move) -> String;
    /// Joins formatted moves into one move string.
    fn join_moves(&self, moves: &[String]) -> String;
    /// Draws the board for a terminal.
    fn render(&self) -> String;

    fn side_to_move(&self) -> Player {
        Player::at_ply(self.ply())
    }

    /// Whether positions can repeat (PopOut's pops), so that searches must follow the path and
    /// its repetition rule. Games that never repeat are bounded by [`Game::max_plies`].
    fn may_repeat(&self) -> bool {
        false
    }

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

    /// The number of discs on the board (the ply, in games where every move adds one).
    fn discs(&self) -> u32 {
        self.ply()
    }

    /// Whether the side to move can win with its next move.
    fn has_winning_move(&self) -> bool {
        let me = self.side_to_move();
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        moves
            .iter()
            .any(|&m| self.play(m).status() == Status::Win(me))
    }

    /// Bounds `(lowest, highest)` on the score of the side to move that follow from the rules or
    /// from a strategy one side can play to the end (Connect Four: no quick win; Allis'
    /// claimeven). Asked only when the side to move has no immediate win. The default knows
    /// nothing.
    fn strategy_bounds(&self) -> (i32, i32) {
        (i32::MIN, i32::MAX)
    }

    /// Sets the ordering hint of each move (higher = more promising); called on the lists that
    /// [`Game::safe_moves`] makes, only when the search is about to try them. The default leaves
    /// the game's order.
    fn rank_moves(&self, _moves: &mut [RankedMove<Self::Move>]) {}

    /// The moves after which the opponent cannot win at once, in the game's preferred order,
    /// with rank 0. Called only when the side to move has no winning move; an empty list means
    /// every move loses at the opponent's next turn.
    fn safe_moves(&self, out: &mut MoveList<RankedMove<Self::Move>>) {
        let mut moves = MoveList::new();
        self.legal_moves(&mut moves);
        for m in moves {
            let next = self.play(m);
            if next.status() != Status::Ongoing || !next.has_winning_move() {
                out.push(RankedMove { mv: m, rank: 0 });
            }
        }
    }
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
/// board relative to the side to move) may share an index.
pub trait Indexed: Game {
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
        if pos.is_claim(m) {
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

/// A move string that cannot be played from a position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    pub text: String,
    /// 1-based index of the offending move in the string.
    pub index: usize,
    pub reason: String,
}

impl Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "illegal move string '{}': move {}: {}",
            self.text, self.index, self.reason
        )
    }
}

impl std::error::Error for MoveError {}

/// Plays a move string from `start`, checking every move; returns the position and the moves.
pub fn play_moves<G: Game>(start: G, text: &str) -> Result<(G, Vec<G::Move>), MoveError> {
    let mut pos = start;
    let mut moves = Vec::new();
    for (i, token) in start.split_moves(text.trim()).into_iter().enumerate() {
        let fail = |reason: String| MoveError {
            text: text.trim().to_string(),
            index: i + 1,
            reason,
        };
        if pos.status() != Status::Ongoing {
            return Err(fail(format!("'{token}' comes after the game is over")));
        }
        let m = pos.parse_move(token).map_err(fail)?;
        moves.push(m);
        pos = pos.play(m);
    }
    Ok((pos, moves))
}

/// Writes a sequence of moves played from `start` as one move string.
pub fn format_moves<G: Game>(start: G, moves: &[G::Move]) -> String {
    let mut pos = start;
    let mut tokens = Vec::with_capacity(moves.len());
    for &m in moves {
        tokens.push(pos.format_move(m));
        pos = pos.play(m);
    }
    start.join_moves(&tokens)
}
