//! Strong-solution databases on disk: [`crate::search::retro`]'s cells with a header and a
//! checksum, built with a memory budget, saved between rounds and resumed after an
//! interruption.
//!
//! File format (version 1): a text header, a blank line, then one byte per index.
//!
//! ```text
//! inarow-retro 1
//! game popout:5x5
//! cells 496343295
//! positions 496343295
//! wins 1234
//! losses 1234
//! draws 1234
//! longest 87
//! crc32 1a2b3c4d
//!
//! <cells bytes: see search::retro::code>
//! ```
//!
//! While building, `FILE.partial` holds the state after the last saved round (first line
//! `inarow-retro-partial 2`, fields `game`, `cells`, `round`, `crc32`, then the cells and the
//! frontier bitset as little-endian 64-bit words; the crc32 covers the header lines above it
//! and the data); a new build of the same file resumes from it. A build on several ranks
//! ([`build_ranked`]) keeps one such file per rank, `FILE.rank-R-of-P.partial`, of the rank's
//! share (with a field `first`, its first index).
//! Both files are written to a temporary file and renamed.

mod compact;
mod ranked;
mod sliced;

use super::file::{
    Fields, crc_field, field, header_fields, number_field, read_head, with_suffix,
    write_atomically_with,
};
use crate::error::Error;
use crate::game::{Indexed, IndexedVisitor, Rules};
use crate::limits::Limits;
pub use crate::search::ranks::{Ranks, Solo};
pub use crate::search::retro::Traffic;
use crate::search::retro::rounds::Checkpoints;
use crate::search::retro::{
    Lookup, Progress, RetroValue, State, StrongSolution, Summary, index_len, memory_needed,
    value_with,
};
use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};
use std::time::Duration;

const MAGIC: &str = "inarow-retro 1";
const PARTIAL_MAGIC: &str = "inarow-retro-partial 2";

/// A loaded database.
pub struct Database {
    game: String,
    cells: Cells,
    summary: Summary,
}

/// Where a database's cells are: in memory, or (larger than the memory there is) in its file.
enum Cells {
    Memory(StrongSolution),
    Disk { file: fs::File, start: u64 },
}

/// The game and the counts of a database's header, checked against `game` and the length of
/// the cells that follow it (`body_len`).
fn check_header<G: Indexed>(
    fields: &Fields,
    body_len: u64,
    what: &str,
    game: &G,
) -> Result<(String, Summary), Error> {
    let name = fields.get("game").cloned().unwrap_or_default();
    if name != game.name() {
        return Err(Error::File(format!(
            "{what} is for {name}, not for {}",
            game.name()
        )));
    }
    let cells = number(fields, "cells", what)?;
    if Some(cells) != game.index_len() || body_len != cells {
        return Err(Error::File(format!(
            "{what} is corrupt: {body_len} bytes of cells, expected {} (truncated?)",
            game.index_len().unwrap_or(0)
        )));
    }
    let summary = Summary {
        wins: number(fields, "wins", what)?,
        losses: number(fields, "losses", what)?,
        draws: number(fields, "draws", what)?,
        longest: number(fields, "longest", what)? as u32,
    };
    if number(fields, "positions", what)? != summary.positions() {
        return Err(Error::File(format!(
            "{what} is corrupt: its counts do not add up"
        )));
    }
    Ok((name, summary))
}

/// Whether a database of `bytes` is read into memory: when it takes at most half the memory
/// available (all of it when that cannot be told).
fn fits_in_memory(bytes: u64) -> bool {
    let available = fs::read_to_string("/proc/meminfo").ok().and_then(|info| {
        let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
        line.split_whitespace().nth(1)?.parse::<u64>().ok()
    });
    available.is_none_or(|kib| bytes <= kib * 1024 / 2)
}

impl std::fmt::Debug for Database {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Database({}, {:?})", self.game, self.summary)
    }
}

/// How a build was asked to run.
#[derive(Clone, Debug)]
pub struct BuildOptions {
    /// Threads that share each round's work (on each rank).
    pub threads: usize,
    /// Memory budget in bytes (cells and frontiers).
    pub mem_bytes: u64,
    /// Save the state after a round when this long has passed since the last save.
    pub save_every: Duration,
    /// When to stop early, saving the state: after the first round that ends `limits.time`
    /// after the start, or after the round during which `limits.interrupt` is cancelled
    /// (Ctrl-C). The rounds count no nodes: `limits.nodes` does not apply.
    pub limits: Limits,
    /// Half a byte per index in memory even when a byte fits (a build chooses it by itself
    /// when only half a byte does).
    pub compact: bool,
}

impl BuildOptions {
    /// When the rounds stop, and how often they save the state.
    fn checkpoints(&self) -> Checkpoints {
        Checkpoints {
            limits: self.limits.clone(),
            save_every: self.save_every,
        }
    }
}

/// How a build went.
#[derive(Clone, Debug, PartialEq)]
pub struct BuildReport {
    /// Wins, losses, draws and the longest distance (all zero when stopped).
    pub summary: Summary,
    /// The round a resumed build started from (`None`: from the start).
    pub resumed_at: Option<u32>,
    /// Rounds run.
    pub rounds: u32,
    /// Indices of the game's numbering, one cell each (positions and non-positions alike).
    pub cells: u64,
    /// The value of the game's start (`None` if stopped).
    pub start: Option<RetroValue>,
    /// Why the build stopped before the end (its state is saved; the next build resumes), or
    /// `None`: the database is written.
    pub stopped: Option<String>,
    /// What each round exchanged between ranks (a build on several ranks only).
    pub traffic: Vec<Traffic>,
}

impl BuildReport {
    /// The report of a build of `cells` indices whose rounds stopped before the end (`why`),
    /// the state saved.
    fn stopped(
        why: &str,
        resumed_at: Option<u32>,
        rounds: u32,
        cells: u64,
        traffic: Vec<Traffic>,
    ) -> BuildReport {
        BuildReport {
            summary: Summary::default(),
            resumed_at,
            rounds,
            cells,
            start: None,
            stopped: Some(why.to_string()),
            traffic,
        }
    }
}

/// Reads the fields of a header (`what` names the file in messages).
fn fields(bytes: &[u8], magic: &str, what: &str) -> Result<(Fields, usize), Error> {
    header_fields(bytes, magic)
        .map_err(|why| Error::File(format!("{what} is not an inarow database ({why})")))
}

fn number(fields: &Fields, name: &str, what: &str) -> Result<u64, Error> {
    number_field(fields, name).map_err(|why| Error::File(format!("{what} is corrupt: {why}")))
}

fn checksum(fields: &Fields, what: &str) -> Result<u32, Error> {
    crc_field(fields).map_err(|why| Error::File(format!("{what} is corrupt: {why}")))
}

/// Feeds the bytes of `cells` to `f` a block at a time (no copy of the whole).
fn for_each_block(
    cells: &[AtomicU8],
    mut f: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    let mut block = vec![0u8; 1 << 20];
    for chunk in cells.chunks(block.len()) {
        for (b, c) in block.iter_mut().zip(chunk) {
            *b = c.load(Relaxed);
        }
        f(&block[..chunk.len()])?;
    }
    Ok(())
}

/// Feeds a bitset's (or any atomic words'), little-endian, to `f` a block at a time.
fn for_each_frontier_block(
    frontier: &[AtomicU64],
    mut f: impl FnMut(&[u8]) -> std::io::Result<()>,
) -> std::io::Result<()> {
    for chunk in frontier.chunks(1 << 17) {
        let block: Vec<u8> = chunk
            .iter()
            .flat_map(|w| w.load(Relaxed).to_le_bytes())
            .collect();
        f(&block)?;
    }
    Ok(())
}

/// The refusal of a command that needs a numbering of positions, for a game without one.
fn no_numbering<G: Rules>(game: &G) -> String {
    format!(
        "{} has no numbering of its positions: retrograde analysis and databases need one",
        game.name()
    )
}

/// Opens the database at `path` for `game`'s positions, ready for
/// [`Engine::set_database`](crate::engine::Engine::set_database); a game without a numbering is
/// refused.
///
/// # Errors
/// [`Error::Unsupported`] for a game without a numbering; as [`Database::load`] otherwise.
pub fn open<G: Rules>(path: &Path, game: &G) -> Result<Arc<dyn Lookup<G>>, Error> {
    struct Open<'a, G>(&'a Path, &'a G);
    impl<G: Rules> IndexedVisitor<G> for Open<'_, G> {
        type Output = Result<Arc<dyn Lookup<G>>, Error>;
        fn indexed(self) -> Self::Output
        where
            G: Indexed,
        {
            Ok(Arc::new(Database::load(self.0, self.1)?))
        }
    }
    G::visit_indexed(Open(path, game))
        .unwrap_or_else(|| Err(Error::Unsupported(no_numbering(game))))
}

/// Strongly solves `game` and writes the database to `out` ([`Database::build`]); a game
/// without a numbering is refused.
///
/// # Errors
/// [`Error::Unsupported`] when the game has no numbering or too many positions to number,
/// [`Error::Memory`] when the memory budget (or the machine) cannot hold the build,
/// [`Error::File`] when a saved state is damaged or does not match, or a file cannot be read
/// or written.
pub fn build<G: Rules>(
    game: &G,
    out: &Path,
    options: &BuildOptions,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<BuildReport, Error> {
    build_ranked(game, out, options, progress, &Solo)
}

/// [`build`] on every rank of `ranks` at once (called by each): each rank holds its share of
/// the indices in memory (`options.mem_bytes` is each rank's budget) and saves its own state;
/// rank 0 writes the database, the same file byte for byte as a build on one rank.
///
/// # Errors
/// [`Error::Unsupported`] when the game has no numbering or too many positions to number,
/// [`Error::Memory`] when the memory budget (or the machine) cannot hold the build,
/// [`Error::File`] when a saved state is damaged or does not match, or a file cannot be read
/// or written.
pub fn build_ranked<G: Rules>(
    game: &G,
    out: &Path,
    options: &BuildOptions,
    progress: &(dyn Fn(Progress) + Sync),
    ranks: &dyn Ranks,
) -> Result<BuildReport, Error> {
    struct Build<'a, G>(
        &'a G,
        &'a Path,
        &'a BuildOptions,
        &'a (dyn Fn(Progress) + Sync),
        &'a dyn Ranks,
    );
    impl<G: Rules> IndexedVisitor<G> for Build<'_, G> {
        type Output = Result<BuildReport, Error>;
        fn indexed(self) -> Self::Output
        where
            G: Indexed,
        {
            if self.4.size() == 1 {
                Database::build(self.0, self.1, self.2, self.3)
            } else {
                ranked::build(self.0, self.1, self.2, self.3, self.4)
            }
        }
    }
    G::visit_indexed(Build(game, out, options, progress, ranks))
        .unwrap_or_else(|| Err(Error::Unsupported(no_numbering(game))))
        .map_err(Error::one_line)
}

impl Database {
    /// Reads and checks the database of `game` at `path`.
    ///
    /// # Errors
    /// [`Error::File`] for a file that cannot be read, is damaged, or is for another game.
    pub fn load<G: Indexed>(path: &Path, game: &G) -> Result<Database, Error> {
        Self::read(path, game).map_err(Error::one_line)
    }

    fn read<G: Indexed>(path: &Path, game: &G) -> Result<Database, Error> {
        let what = format!("database '{}'", path.display());
        let size =
            fs::metadata(path).map_err(|e| Error::File(format!("cannot read {what}: {e}")))?;
        if !fits_in_memory(size.len()) {
            return Self::open_on_disk(path, &what, game).map_err(Error::one_line);
        }
        let bytes = fs::read(path).map_err(|e| Error::File(format!("cannot read {what}: {e}")))?;
        Self::decode(bytes, &what, game)
    }

    /// Checks and decodes the bytes of a database file of `game`; `what` names it in errors.
    ///
    /// # Errors
    /// As [`Database::load`].
    pub fn parse<G: Indexed>(bytes: Vec<u8>, what: &str, game: &G) -> Result<Database, Error> {
        Self::decode(bytes, what, game)
    }

    fn decode<G: Indexed>(bytes: Vec<u8>, what: &str, game: &G) -> Result<Database, Error> {
        Self::decode_file(bytes, what, game).map_err(Error::one_line)
    }

    fn decode_file<G: Indexed>(
        mut bytes: Vec<u8>,
        what: &str,
        game: &G,
    ) -> Result<Database, Error> {
        let (fields, start) = fields(&bytes, MAGIC, what)?;
        let body = &bytes[start..];
        let (game_name, summary) = check_header(&fields, body.len() as u64, what, game)?;
        if crc32fast::hash(body) != checksum(&fields, what)? {
            return Err(Error::File(format!("{what} is corrupt: checksum mismatch")));
        }
        // The cells in place: no second copy of a large file.
        bytes.drain(..start);
        Ok(Database {
            game: game_name,
            cells: Cells::Memory(StrongSolution::new(bytes)),
            summary,
        })
    }

    /// Opens the database of `game` at `path` to answer from the file, a byte at a time (as
    /// [`load`](Database::load) does when the file is larger than half the memory available),
    /// checked as it is read once.
    ///
    /// # Errors
    /// As [`Database::load`].
    pub fn load_on_disk<G: Indexed>(path: &Path, game: &G) -> Result<Database, Error> {
        let what = format!("database '{}'", path.display());
        Self::open_on_disk(path, &what, game).map_err(Error::one_line)
    }

    fn open_on_disk<G: Indexed>(path: &Path, what: &str, game: &G) -> Result<Database, Error> {
        use std::io::{Read, Seek, SeekFrom};
        let cannot = |e: std::io::Error| Error::File(format!("cannot read {what}: {e}"));
        let head = read_head(path).map_err(cannot)?;
        let (fields, start) = fields(&head, MAGIC, what)?;
        let mut file = fs::File::open(path).map_err(cannot)?;
        let body_len = file.metadata().map_err(cannot)?.len() - start as u64;
        let (game_name, summary) = check_header(&fields, body_len, what, game)?;
        file.seek(SeekFrom::Start(start as u64)).map_err(cannot)?;
        let mut crc = crc32fast::Hasher::new();
        let mut reader = std::io::BufReader::with_capacity(1 << 22, &file);
        let mut block = vec![0u8; 1 << 22];
        loop {
            let n = reader.read(&mut block).map_err(cannot)?;
            if n == 0 {
                break;
            }
            crc.update(&block[..n]);
        }
        if crc.finalize() != checksum(&fields, what)? {
            return Err(Error::File(format!("{what} is corrupt: checksum mismatch")));
        }
        Ok(Database {
            game: game_name,
            cells: Cells::Disk {
                file,
                start: start as u64,
            },
            summary,
        })
    }

    /// The game a database file is for, from its header alone.
    ///
    /// # Errors
    /// [`Error::File`] for a file that cannot be read or is not a database.
    pub fn game_of(path: &Path) -> Result<String, Error> {
        Self::read_game(path).map_err(Error::one_line)
    }

    fn read_game(path: &Path) -> Result<String, Error> {
        let what = format!("database '{}'", path.display());
        let head = read_head(path).map_err(|e| Error::File(format!("cannot read {what}: {e}")))?;
        let (fields, _) = fields(&head, MAGIC, &what)?;
        field(&fields, "game")
            .map(str::to_string)
            .map_err(|why| Error::File(format!("{what} is corrupt: {why}")))
    }

    /// The game the database is for ([`Rules::name`]).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Wins, losses, draws and the longest distance over the database's positions.
    pub fn summary(&self) -> &Summary {
        &self.summary
    }

    /// The value of `pos`, a position of the database's game.
    pub fn value<G: Indexed>(&self, pos: &G) -> Option<RetroValue> {
        match &self.cells {
            Cells::Memory(solution) => solution.value(pos),
            Cells::Disk { file, start } => value_with(pos, |index| {
                let mut byte = [0u8];
                read_at(file, &mut byte, start + index)?;
                Some(byte[0])
            }),
        }
    }

    /// Strongly solves `game` and writes the database to `out`, resuming from `out.partial`
    /// if an earlier build left one: in memory when the budget allows (one rank of
    /// [`build_ranked`]), else with the cells on disk.
    ///
    /// # Errors
    /// As [`build`].
    pub fn build<G: Indexed>(
        game: &G,
        out: &Path,
        options: &BuildOptions,
        progress: &(dyn Fn(Progress) + Sync),
    ) -> Result<BuildReport, Error> {
        let len = index_len(game)?;
        let partial = with_suffix(out, ".partial");
        // A saved state goes on as it was built; else the fastest build that fits: a byte per
        // index, half a byte, or the cells on disk.
        let saved = partial
            .exists()
            .then(|| (is_sliced(&partial), compact::is_compact(&partial)));
        let bytes_fit = memory_needed(len) <= options.mem_bytes;
        let halves_fit = compact::memory_needed(len) <= options.mem_bytes;
        let compact = match saved {
            Some((_, compact)) => compact,
            None => halves_fit && (options.compact || !bytes_fit),
        };
        if compact {
            return compact::build(game, out, options, progress, len);
        }
        if saved.is_some_and(|(sliced, _)| sliced) || (saved.is_none() && !bytes_fit) {
            let Some(slice) = sliced::slice_len(len, options.mem_bytes) else {
                return Err(Error::Memory(format!(
                    "a strong solution of {} needs at least {} MiB ({len} indices: two bits of \
                     frontier each in memory, the cells on disk), more than the memory budget \
                     of {} MiB (--mem-mb)",
                    game.name(),
                    (2 * len.div_ceil(64) * 8 + (9 << 20)).div_ceil(1 << 20),
                    options.mem_bytes >> 20
                )));
            };
            return sliced::build(game, out, options, progress, len, slice);
        }
        ranked::build(game, out, options, progress, &Solo)
    }
}

/// The header of a finished database.
fn db_header<G: Indexed>(game: &G, len: u64, s: &Summary, crc: u32) -> String {
    format!(
        "{MAGIC}\ngame {}\ncells {len}\npositions {}\nwins {}\nlosses {}\ndraws {}\n\
         longest {}\ncrc32 {crc:08x}\n\n",
        game.name(),
        s.positions(),
        s.wins,
        s.losses,
        s.draws,
        s.longest,
    )
}

/// Whether a partial build in `path` was sliced (its cells on disk).
fn is_sliced(path: &Path) -> bool {
    read_head(path)
        .ok()
        .and_then(|head| header_fields(&head, PARTIAL_MAGIC).ok())
        .is_some_and(|(f, _)| f.contains_key("sliced"))
}

impl<G: Indexed> Lookup<G> for Database {
    fn lookup(&self, pos: &G) -> Option<RetroValue> {
        self.value(pos)
    }
}

fn write_partial<G: Indexed>(path: &Path, game: &G, state: &State) -> Result<(), Error> {
    let first = match state.first {
        0 => String::new(),
        first => format!("first {first}\n"),
    };
    let fields = format!(
        "{PARTIAL_MAGIC}\ngame {}\ncells {}\n{first}round {}\n",
        game.name(),
        state.cells.len(),
        state.round,
    );
    let mut crc = crc32fast::Hasher::new();
    crc.update(fields.as_bytes());
    let mut hash = |b: &[u8]| {
        crc.update(b);
        Ok(())
    };
    let frontier = &state.frontier.now;
    for_each_block(&state.cells, &mut hash)
        .and_then(|_| for_each_frontier_block(frontier, &mut hash))
        .expect("hashing does not fail");
    let header = format!("{fields}crc32 {:08x}\n\n", crc.finalize());
    let body_len = state.cells.len() as u64 + frontier.len() as u64 * 8;
    write_atomically_with(path, header.as_bytes(), body_len, |w| {
        for_each_block(&state.cells, |b| w.write_all(b))?;
        for_each_frontier_block(frontier, |b| w.write_all(b))
    })
}

/// The fields and data of the partial file an interrupted build of `game` saved, if there is
/// one, checked: its game, size, data length (`body_len`) and checksum. Anything else is an
/// error that says how to start afresh (`afresh`).
fn saved_state<G: Indexed>(
    path: &Path,
    game: &G,
    len: u64,
    body_len: u64,
    afresh: &str,
) -> Result<Option<(Fields, Vec<u8>)>, Error> {
    let mut bytes = match fs::read(path) {
        Ok(b) => b,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(Error::File(format!(
                "cannot read '{}': {e}",
                path.display()
            )));
        }
    };
    let what = format!("partial build '{}'", path.display());
    let (fields, start) = partial_header(&bytes, &what, game, len, afresh)?;
    let body = &bytes[start..];
    if body.len() as u64 != body_len || state_crc(&bytes, start) != Some(checksum(&fields, &what)?)
    {
        return Err(Error::File(format!("{what} is damaged; {afresh}")));
    }
    bytes.drain(..start);
    Ok(Some((fields, bytes)))
}

/// The fields of a partial file's header (`bytes` from its start) and where its data starts,
/// checked to be for `game`'s `len` indices; the errors say how to start afresh (`afresh`).
fn partial_header<G: Indexed>(
    bytes: &[u8],
    what: &str,
    game: &G,
    len: u64,
    afresh: &str,
) -> Result<(Fields, usize), Error> {
    let (fields, start) = fields(bytes, PARTIAL_MAGIC, what)?;
    let name = fields.get("game").cloned().unwrap_or_default();
    if name != game.name() || number(&fields, "cells", what)? != len {
        return Err(Error::File(format!(
            "{what} is for {name}, not for {}; {afresh}",
            game.name()
        )));
    }
    Ok((fields, start))
}

/// A partial file's checksum so far: of its header lines above the `crc32` line (`head` ends
/// where the data starts); `None` if the header has no `crc32` line. The data goes on it.
fn header_crc(head: &[u8]) -> Option<crc32fast::Hasher> {
    let crc_line = head.windows(7).position(|w| w == b"\ncrc32 ")?;
    let mut crc = crc32fast::Hasher::new();
    crc.update(&head[..crc_line + 1]);
    Some(crc)
}

/// The checksum of a partial file: of its header lines above the `crc32` line, and of its
/// data (from `start`); `None` if the header has no `crc32` line.
fn state_crc(bytes: &[u8], start: usize) -> Option<u32> {
    let mut crc = header_crc(&bytes[..start])?;
    crc.update(&bytes[start..]);
    Some(crc.finalize())
}

/// A frontier bitset from its little-endian words.
fn frontier_from(bytes: &[u8]) -> Vec<AtomicU64> {
    bytes
        .chunks_exact(8)
        .map(|w| AtomicU64::new(u64::from_le_bytes(w.try_into().expect("8 bytes"))))
        .collect()
}

/// The state an interrupted build of the indices `share` (all of them, or a rank's share)
/// saved, if there is one.
fn read_partial<G: Indexed>(
    path: &Path,
    game: &G,
    share: std::ops::Range<u64>,
) -> Result<Option<State>, Error> {
    let len = share.end - share.start;
    let body_len = len + len.div_ceil(64) * 8;
    let afresh = "remove it to start afresh";
    let Some((fields, body)) = saved_state(path, game, len, body_len, afresh)? else {
        return Ok(None);
    };
    let what = format!("partial build '{}'", path.display());
    let first = match fields.get("first") {
        Some(_) => number(&fields, "first", &what)?,
        None => 0,
    };
    if first != share.start {
        return Err(Error::File(format!(
            "{what} holds the indices from {first}, not from {}; {afresh}",
            share.start
        )));
    }
    let (cells, frontier) = body.split_at(len as usize);
    State::resume(
        first,
        cells.iter().map(|&b| AtomicU8::new(b)).collect(),
        frontier_from(frontier),
        number(&fields, "round", &what)? as u32,
    )
    .map(Some)
}

/// Reads `buf` at `offset` of `file` without moving a shared cursor (Unix).
#[cfg(unix)]
fn read_at(file: &std::fs::File, buf: &mut [u8], offset: u64) -> Option<()> {
    use std::os::unix::fs::FileExt;
    file.read_exact_at(buf, offset).ok()
}

/// Reads `buf` at `offset` of `file`, by seeking: where there is no positioned read (the web,
/// which has no files anyway).
#[cfg(not(unix))]
fn read_at(mut file: &std::fs::File, buf: &mut [u8], offset: u64) -> Option<()> {
    use std::io::{Read, Seek, SeekFrom};
    file.seek(SeekFrom::Start(offset)).ok()?;
    file.read_exact(buf).ok()
}
