//! What the engine knows before it searches: opening books ([`book`]), winning strategies
//! ([`strategy`]), retrograde databases ([`database`]), the oracles that ask them in turn
//! (`oracle`), a search's checkpoints ([`checkpoint`]), and the file handling they share
//! (headers, checksums, writes by temp file and rename).

pub mod book;
pub mod book_check;
pub mod checkpoint;
pub mod compact;
pub mod database;
mod file;
pub(crate) mod oracle;
pub mod strategy;
