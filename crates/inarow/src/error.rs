//! The library's one error type: what went wrong as data (its kind, and what it names), whose
//! `Display` is the one-line message the command line prints after `inarow: `. The command
//! line, the web server's JSON errors and the bindings all read it.

use std::fmt;

/// What went wrong. Each message is one line; the kinds say who can mend it: the caller's input
/// ([`Error::Spec`], [`Error::Move`], [`Error::Input`], [`Error::Unsupported`]), a file
/// ([`Error::File`]), the memory budget ([`Error::Memory`]), more limits
/// ([`Error::Search`]), or nobody but the library's authors ([`Error::Internal`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A game spec that names no game, or a board out of range.
    Spec(String),
    /// A move string that cannot be played from its position (the move's index and the
    /// reason), or a board given whole that is no position of the game (index 0).
    Move(MoveError),
    /// A value that is not what it must be (a number out of range, an unknown name).
    Input(String),
    /// A request that does not fit the game, the method or another setting.
    Unsupported(String),
    /// A file that cannot be read or written, or that is damaged or made for something else.
    File(String),
    /// The memory budget (or the machine) cannot hold what was asked.
    Memory(String),
    /// A search stopped before it gave what was asked (a limit), or could not give it (a
    /// certificate where no proof survives).
    Search(String),
    /// Something that should not happen whatever the input: a bug, or a message between the
    /// ranks of a distributed run that cannot be read.
    Internal(String),
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Move(e) => e.fmt(f),
            Error::Spec(m)
            | Error::Input(m)
            | Error::Unsupported(m)
            | Error::File(m)
            | Error::Memory(m)
            | Error::Search(m)
            | Error::Internal(m) => f.write_str(m),
        }
    }
}

impl Error {
    /// The same kind of error with its message rewritten by `f` (a prefix that says where it
    /// happened, say). A move error's message is no longer made from its parts: it becomes an
    /// [`Error::Input`].
    pub(crate) fn map_message(self, f: impl FnOnce(String) -> String) -> Error {
        match self {
            Error::Spec(m) => Error::Spec(f(m)),
            Error::Move(e) => Error::Input(f(e.to_string())),
            Error::Input(m) => Error::Input(f(m)),
            Error::Unsupported(m) => Error::Unsupported(f(m)),
            Error::File(m) => Error::File(f(m)),
            Error::Memory(m) => Error::Memory(f(m)),
            Error::Search(m) => Error::Search(f(m)),
            Error::Internal(m) => Error::Internal(f(m)),
        }
    }

    /// The same error with its message on one line ([`one_line`]).
    pub(crate) fn one_line(self) -> Error {
        match self {
            Error::Move(e) => Error::Move(e),
            e => e.map_message(|m| one_line(&m)),
        }
    }
}

impl std::error::Error for Error {}

impl From<MoveError> for Error {
    fn from(e: MoveError) -> Error {
        Error::Move(e)
    }
}

/// The message, for code that reports errors as text (the command line).
impl From<Error> for String {
    fn from(e: Error) -> String {
        e.to_string()
    }
}

/// A move string that cannot be played from a position, or a board that is no position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MoveError {
    /// The whole move string (or board) as given.
    pub text: String,
    /// 1-based index of the offending move in the string (0: the text is a board, and wrong).
    pub index: usize,
    /// The offending move as written (empty for a board).
    pub token: String,
    /// Why the move cannot be played (or the board is no position), in a few words.
    pub reason: String,
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let message = if self.index == 0 {
            format!("bad position '{}': {}", self.text, self.reason)
        } else {
            format!(
                "illegal move string '{}': move {}: {}",
                self.text, self.index, self.reason
            )
        };
        f.write_str(&one_line(&message))
    }
}

impl std::error::Error for MoveError {}

/// `text` with its control characters (line breaks among them) escaped: a message that quotes
/// what a user typed stays one printable line.
pub fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| {
            if c.is_control() {
                c.escape_default().to_string()
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A result whose error is an [`Error`].
pub type Result<T> = std::result::Result<T, Error>;
