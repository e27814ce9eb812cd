//! A game as played ([`GameLine`]): where it started, the moves, and the positions passed,
//! which in a game whose positions repeat decide when a repetition ends it ([`Repetition`], the
//! one judgement of the rule that searches, play, the server and the command line all ask).

use super::{Kind, Notation, Rules, Status};
use crate::error::Error;

/// The repetition rule of a game whose positions repeat: the occurrence of a position that ends
/// the game as a draw. 2 (the PopOut thesis: the first return draws) or 3 (the official rule).
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
pub struct Repetition(u32);

impl Repetition {
    /// The rule of the PopOut thesis: a position that comes back draws.
    pub const SECOND: Repetition = Repetition(2);
    /// The official rule: a position that occurs a third time draws.
    pub const THIRD: Repetition = Repetition(3);

    /// The rule under which the `occurrence`-th occurrence of a position draws (2 or 3).
    ///
    /// # Errors
    /// [`Error::Input`] for any other number.
    pub fn new(occurrence: u32) -> Result<Repetition, Error> {
        match occurrence {
            2 | 3 => Ok(Repetition(occurrence)),
            _ => Err(Error::Input(format!(
                "repetition rule {occurrence}: a position must repeat 2 or 3 times to draw"
            ))),
        }
    }

    /// The occurrence that draws.
    pub fn occurrence(self) -> u32 {
        self.0
    }

    /// Whether a position that occurred `earlier` times before now ends the game.
    #[inline]
    pub fn draws(self, earlier: usize) -> bool {
        earlier + 1 >= self.0 as usize
    }
}

impl Default for Repetition {
    fn default() -> Self {
        Repetition::SECOND
    }
}

/// A game as played: the position it started from, the moves played, and every position on
/// the way. Its last position is the one to move from; the positions before it count for the
/// repetition rule in a game whose positions repeat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GameLine<G: Rules> {
    start: G,
    moves: Vec<G::Move>,
    /// The positions before the current one, oldest first (`start` first, when there are any).
    earlier: Vec<G>,
    current: G,
}

impl<G: Rules> GameLine<G> {
    /// A line of no moves from `start`.
    pub fn new(start: G) -> GameLine<G> {
        GameLine {
            start,
            moves: Vec::new(),
            earlier: Vec::new(),
            current: start,
        }
    }

    /// The line of `moves` (each legal where it is played) from `start`.
    pub fn from_moves(start: G, moves: &[G::Move]) -> GameLine<G> {
        let mut line = GameLine::new(start);
        for &m in moves {
            line.play(m);
        }
        line
    }

    /// The position the line started from.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The position at the end of the line: the one to move from.
    pub fn position(&self) -> &G {
        &self.current
    }

    /// The moves played, in order.
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// Plays `m`, which must be legal in [`GameLine::position`].
    pub fn play(&mut self, m: G::Move) {
        self.earlier.push(self.current);
        self.moves.push(m);
        self.current = self.current.play(m);
    }

    /// The line with `m` played.
    pub fn played(&self, m: G::Move) -> GameLine<G> {
        let mut next = self.clone();
        next.play(m);
        next
    }

    /// Takes the last move back, and returns it (`None` at the start).
    pub fn undo(&mut self) -> Option<G::Move> {
        let m = self.moves.pop()?;
        self.current = self.earlier.pop().expect("a position before each move");
        Some(m)
    }

    /// The exact keys ([`Rules::key`]) of the positions before the current one, oldest first,
    /// where they count: in a game whose positions repeat (none otherwise).
    pub fn earlier_keys(&self) -> impl ExactSizeIterator<Item = u128> + '_ {
        let counted = if G::Kind::REPEATS {
            &self.earlier[..]
        } else {
            &[]
        };
        counted.iter().map(Rules::key)
    }

    /// How many times the position with exact key `key` occurred before the current one (in a
    /// game whose positions repeat; 0 otherwise).
    pub fn occurrences_before(&self, key: u128) -> usize {
        self.earlier_keys().filter(|&k| k == key).count()
    }

    /// Whether the game is over at the end of the line, and how: by the rules, or drawn by
    /// `rule` where the current position repeats.
    pub fn status(&self, rule: Repetition) -> Status {
        match self.current.status() {
            Status::Ongoing if rule.draws(self.occurrences_before(self.current.key())) => {
                Status::Draw
            }
            status => status,
        }
    }
}

impl<G: Notation> GameLine<G> {
    /// The moves in the game's notation, as one move string.
    pub fn move_string(&self) -> String {
        super::format_moves(self.start, &self.moves)
    }
}

/// Where a search starts: a position (a line of no moves) or a game line (whose earlier
/// positions count for the repetition rule).
pub trait Start<G: Rules> {
    /// The game line from here.
    fn to_line(&self) -> GameLine<G>;
}

impl<G: Rules> Start<G> for G {
    fn to_line(&self) -> GameLine<G> {
        GameLine::new(*self)
    }
}

impl<G: Rules> Start<G> for GameLine<G> {
    fn to_line(&self) -> GameLine<G> {
        self.clone()
    }
}
