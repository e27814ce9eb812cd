//! Opening books: the exact score of every position up to a depth, symmetry-reduced.
//!
//! File format (version 1): a text header, a blank line, then the records.
//!
//! ```text
//! inarow-book 1
//! game connect4:7x6:k4
//! depth 4
//! entries 1234
//! key-bytes 7
//! crc32 1a2b3c4d
//!
//! <entries records: key (key-bytes, little-endian), score (1 byte, two's complement)>
//! ```
//!
//! Keys are [`Game::canonical_key`]s in increasing order; the score is the exact score of the
//! side to move (the public convention, [`crate::search::score`]); `crc32` covers the records.
//! Positions that are already over are not stored.
//!
//! Building solves the positions at the book's depth with the engine, deepest first, and
//! derives every shallower score from its children's. Solved records are appended to
//! `FILE.partial` as they come (same header without `entries` and `crc32`, first line
//! `inarow-book-partial 2`; each record followed by the crc32 of its bytes, so that a damaged
//! record is refused rather than trusted), and an interrupted build resumes where it stopped;
//! the finished book is written to a temporary file and renamed.

use super::Engine;
use super::file::{
    crc_field, field, header_fields, number_field, remove_build_files, with_suffix,
    write_atomically, write_error,
};
use crate::error::Error;
use crate::game::{
    Bounded, Game, Kind, KindVisitor, MoveList, Repeating, ShippedBook, Status, Tactics, Variant,
    one_line,
};
use crate::search::alphabeta::KnownScores;
use crate::search::score::final_score;
use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use std::sync::{Arc, OnceLock};

const MAGIC: &str = "inarow-book 1";

/// The books built into inarow, for the positions the catalog gives them to
/// ([`Variant::shipped_book`]), with the game their header names: `books/` in the repository,
/// made by `inarow book build` (docs/results.md gives the command), so that the playing
/// engines answer the opening at once on a fresh install.
const SHIPPED: &[(ShippedBook, &str, &[u8])] = &[(
    // 7x6 to 8 plies, 1.0 MB.
    ShippedBook::Connect4Standard,
    "connect4:7x6:k4",
    include_bytes!("../../books/connect4-7x6.book"),
)];
const PARTIAL_MAGIC: &str = "inarow-book-partial 2";

/// A loaded book.
pub struct Book {
    game: String,
    depth: u32,
    keys: Vec<u128>,
    scores: Vec<i8>,
}

impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Book({}, depth {}, {} entries)",
            self.game,
            self.depth,
            self.keys.len()
        )
    }
}

impl KnownScores for Book {
    fn depth(&self) -> u32 {
        self.depth
    }

    fn score(&self, canonical_key: u128) -> Option<i32> {
        Book::score(self, canonical_key)
    }
}

/// How a build went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Positions in the book.
    pub entries: usize,
    /// Positions at the book's depth solved by search in this run.
    pub solved: usize,
    /// Positions at the book's depth found already solved in the partial file.
    pub resumed: usize,
    /// Nodes searched in this run.
    pub nodes: u64,
}

fn key_bytes(key_bits: u32) -> usize {
    key_bits.div_ceil(8).max(1) as usize
}

impl Book {
    /// The game the book is for (`Game::name`).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Positions with at most this many plies are in the book.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The number of positions in the book, one per canonical key.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The exact score of the side to move, for a canonical key of a position in the book.
    #[inline]
    pub fn score(&self, canonical_key: u128) -> Option<i32> {
        self.keys
            .binary_search(&canonical_key)
            .ok()
            .map(|i| self.scores[i] as i32)
    }

    /// The score of `pos`, if the book has it.
    pub fn lookup<G: Game>(&self, pos: &G) -> Option<i32> {
        if pos.ply() > self.depth {
            return None;
        }
        self.score(pos.canonical_key())
    }

    /// The book that ships with inarow for `pos`'s game, if the catalog gives it one
    /// ([`Variant::shipped_book`]): every Connect Four 7x6 position up to 8 plies.
    pub fn builtin_for<G: Variant>(pos: &G) -> Option<Arc<Book>> {
        static LOADED: OnceLock<Vec<(ShippedBook, Arc<Book>)>> = OnceLock::new();
        let books = LOADED.get_or_init(|| {
            SHIPPED
                .iter()
                .map(|&(which, game, bytes)| {
                    let book = Book::parse(bytes, game, game).expect("the built-in book reads");
                    (which, Arc::new(book))
                })
                .collect()
        });
        let which = pos.shipped_book()?;
        let (_, book) = books.iter().find(|&&(w, _)| w == which)?;
        // The catalog and the header agree on the game, or the book is not for `pos`.
        (book.game == pos.name()).then(|| Arc::clone(book))
    }

    /// Reads and checks a book for `game` (a [`Game::name`]).
    ///
    /// # Errors
    /// [`Error::File`] for a file that cannot be read, is damaged, or is for another game.
    pub fn load(path: &Path, game: &str) -> Result<Book, Error> {
        let shown = path.display();
        let bytes = fs::read(path)
            .map_err(|e| Error::File(one_line(&format!("cannot read book '{shown}': {e}"))))?;
        Self::parse(&bytes, &shown.to_string(), game)
    }

    /// Checks and decodes the bytes of a book file for `game`; `shown` names the file in
    /// errors.
    ///
    /// # Errors
    /// As [`Book::load`].
    pub fn parse(bytes: &[u8], shown: &str, game: &str) -> Result<Book, Error> {
        Self::decode_file(bytes, shown, game).map_err(Error::one_line)
    }

    fn decode_file(bytes: &[u8], shown: &str, game: &str) -> Result<Book, Error> {
        let bad = |why: String| Error::File(format!("book '{shown}' is corrupt: {why}"));
        let (fields, start) = header_fields(bytes, MAGIC)
            .map_err(|why| Error::File(format!("'{shown}' is not an inarow book ({why})")))?;
        let body = &bytes[start..];
        let get = |name: &str| {
            field(&fields, name)
                .map(str::to_string)
                .map_err(|e| bad(e.to_string()))
        };
        let number = |name: &str| number_field(&fields, name).map_err(|e| bad(e.to_string()));
        let book_game = get("game")?;
        if book_game != game {
            return Err(Error::File(format!(
                "book '{shown}' is for {book_game}, not for {game}"
            )));
        }
        let depth = number("depth")? as u32;
        let entries = number("entries")? as usize;
        let width = number("key-bytes")? as usize;
        if !(1..=16).contains(&width) {
            return Err(bad(format!("key-bytes {width} is out of range")));
        }
        let crc = crc_field(&fields).map_err(|e| bad(e.to_string()))?;
        if body.len() as u128 != entries as u128 * (width as u128 + 1) {
            return Err(bad(format!(
                "{} bytes of records, expected {entries} records of {} bytes (truncated?)",
                body.len(),
                width + 1
            )));
        }
        if crc32fast::hash(body) != crc {
            return Err(bad("checksum mismatch".into()));
        }
        let (keys, scores) = decode(body, width);
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad("keys are not in increasing order".into()));
        }
        Ok(Book {
            game: book_game,
            depth,
            keys,
            scores,
        })
    }

    /// Builds the book of `start`'s game to `depth` plies and writes it to `out`, solving with
    /// `engine` (its limits apply to each position). `progress(done, total)` follows the
    /// positions at the book's depth. An interrupted build keeps `out.partial` and resumes
    /// from it.
    ///
    /// # Errors
    /// [`Error::Search`] when a limit stops the build (the solved positions are kept),
    /// [`Error::File`] when a file cannot be read or written, [`Error::Unsupported`] for a
    /// game without a length bound.
    pub fn build<G: Tactics>(
        start: G,
        depth: u32,
        out: &Path,
        engine: &mut Engine<G>,
        progress: impl FnMut(usize, usize),
    ) -> Result<BuildStats, Error> {
        G::Kind::visit(BuildBook {
            start,
            depth,
            out,
            engine,
            progress,
        })
    }

    fn build_bounded<G: Bounded + Tactics>(
        start: G,
        depth: u32,
        out: &Path,
        engine: &mut Engine<G>,
        mut progress: impl FnMut(usize, usize),
    ) -> Result<BuildStats, Error> {
        let file = |e: String| Error::File(one_line(&e));
        let game = start.name();
        let width = key_bytes(start.key_bits());
        let levels = positions_by_ply(start, depth);
        let partial_path = with_suffix(out, ".partial");
        let deepest = levels.last().map_or(&[][..], |l| &l[..]);
        let deepest_keys: HashSet<u128> = deepest.iter().map(|p| p.canonical_key()).collect();
        let mut known = read_partial(&partial_path, &game, depth, width, &deepest_keys)
            .map_err(Error::one_line)?;
        let mut stats = BuildStats {
            resumed: deepest
                .iter()
                .filter(|p| known.contains_key(&p.canonical_key()))
                .count(),
            ..BuildStats::default()
        };

        // The costly part: search every position at the book's depth, saving each answer.
        let total = deepest.len();
        let partial_len =
            (partial_header(&game, depth, width).len() + total * partial_record_len(width)) as u64;
        let mut partial = open_partial(&partial_path, &game, depth, width, known.len())
            .map_err(|e| file(write_error(&partial_path, partial_len, &e)))?;
        let mut done = stats.resumed;
        progress(done, total);
        for pos in deepest {
            let key = pos.canonical_key();
            if known.contains_key(&key) {
                continue;
            }
            let report = engine.solve(pos);
            stats.nodes += report.nodes;
            let Some(score) = report.score else {
                let why = report
                    .stopped
                    .map_or("stopped".to_string(), |s| s.to_string());
                return Err(Error::Search(one_line(&format!(
                    "book build stopped at {} of {total} positions ({why}); '{}' keeps the \
                     solved ones: run the same command again to resume",
                    done,
                    partial_path.display()
                ))));
            };
            let mut record = key.to_le_bytes()[..width].to_vec();
            record.push(score as i8 as u8);
            record.extend_from_slice(&crc32fast::hash(&record).to_le_bytes());
            partial
                .write_all(&record)
                .and_then(|_| partial.flush())
                .map_err(|e| file(write_error(&partial_path, partial_len, &e)))?;
            known.insert(key, score as i8);
            stats.solved += 1;
            done += 1;
            progress(done, total);
        }
        drop(partial);

        // Every shallower position from its children, which are all in the book by now.
        for level in levels.iter().rev().skip(1) {
            for pos in level {
                let score = best_from_children(pos, |child| {
                    known.get(&child.canonical_key()).map(|&s| s as i32)
                })
                .ok_or_else(|| {
                    Error::Internal(format!(
                        "internal error: a child of a ply-{} position is missing from the book",
                        pos.ply()
                    ))
                })?;
                known.insert(pos.canonical_key(), score as i8);
            }
        }

        let mut records: Vec<(u128, i8)> = known.into_iter().collect();
        records.sort_unstable();
        let mut body = Vec::with_capacity(records.len() * (width + 1));
        for (key, score) in &records {
            body.extend_from_slice(&key.to_le_bytes()[..width]);
            body.push(*score as u8);
        }
        let header = format!(
            "{MAGIC}\ngame {game}\ndepth {depth}\nentries {}\nkey-bytes {width}\ncrc32 {:08x}\n\n",
            records.len(),
            crc32fast::hash(&body)
        );
        write_atomically(out, header.as_bytes(), &body).map_err(Error::one_line)?;
        remove_build_files(out);
        stats.entries = records.len();
        Ok(stats)
    }
}

/// A book build, for the game's kind: books hold exact scores, which only bounded games have.
struct BuildBook<'a, G: Tactics, P> {
    start: G,
    depth: u32,
    out: &'a Path,
    engine: &'a mut Engine<G>,
    progress: P,
}

impl<G: Tactics, P: FnMut(usize, usize)> KindVisitor<G> for BuildBook<'_, G, P> {
    type Output = Result<BuildStats, Error>;

    fn bounded(self) -> Self::Output
    where
        G: Bounded,
    {
        Book::build_bounded(self.start, self.depth, self.out, self.engine, self.progress)
    }

    fn repeating(self) -> Self::Output
    where
        G: Repeating,
    {
        Err(Error::Unsupported(format!(
            "a book holds exact scores, and {} has none: its positions repeat",
            self.start.name()
        )))
    }
}

/// The score of `pos` from its children's scores (`child_score` gives the score of an unfinished
/// child for the side to move there); `None` if a child is unknown.
fn best_from_children<G: Bounded>(pos: &G, child_score: impl Fn(&G) -> Option<i32>) -> Option<i32> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let mut best = i32::MIN;
    for m in moves {
        let child = pos.play(m);
        let score = match final_score(&child) {
            Some(score) => -score,
            None => -child_score(&child)?,
        };
        best = best.max(score);
    }
    Some(best)
}

/// One representative of every symmetry class of unfinished positions, by ply, up to `depth`.
fn positions_by_ply<G: Game>(start: G, depth: u32) -> Vec<Vec<G>> {
    let mut levels = vec![vec![start]];
    if start.status() != Status::Ongoing {
        return vec![];
    }
    for _ in 0..depth {
        let mut seen = HashSet::new();
        let mut next = Vec::new();
        for pos in levels.last().expect("at least the start") {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            for m in moves {
                let child = pos.play(m);
                if child.status() == Status::Ongoing && seen.insert(child.canonical_key()) {
                    next.push(child);
                }
            }
        }
        if next.is_empty() {
            break;
        }
        levels.push(next);
    }
    levels
}

fn decode(body: &[u8], width: usize) -> (Vec<u128>, Vec<i8>) {
    body.chunks_exact(width + 1)
        .map(|record| {
            let mut key = [0u8; 16];
            key[..width].copy_from_slice(&record[..width]);
            (u128::from_le_bytes(key), record[width] as i8)
        })
        .unzip()
}

fn partial_header(game: &str, depth: u32, width: usize) -> String {
    format!("{PARTIAL_MAGIC}\ngame {game}\ndepth {depth}\nkey-bytes {width}\n\n")
}

/// The bytes of one record of the partial file: key, score, crc32 of the two.
fn partial_record_len(width: usize) -> usize {
    width + 1 + 4
}

/// The records of an earlier, interrupted build (none if there is no partial file), each a
/// position at the book's depth (`deepest`) and checked by its crc32.
fn read_partial(
    path: &Path,
    game: &str,
    depth: u32,
    width: usize,
    deepest: &HashSet<u128>,
) -> Result<HashMap<u128, i8>, Error> {
    let mut bytes = Vec::new();
    match File::open(path) {
        Ok(mut f) => f
            .read_to_end(&mut bytes)
            .map_err(|e| Error::File(format!("cannot read '{}': {e}", path.display())))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(HashMap::new()),
        Err(e) => {
            return Err(Error::File(format!(
                "cannot read '{}': {e}",
                path.display()
            )));
        }
    };
    let expected = partial_header(game, depth, width);
    if !bytes.starts_with(expected.as_bytes()) {
        return Err(Error::File(format!(
            "'{}' is not a partial build of this book ({game}, depth {depth}); remove it to \
             start afresh",
            path.display()
        )));
    }
    // A record cut short by an interruption is dropped (and overwritten on resume).
    let mut known = HashMap::new();
    for (i, record) in bytes[expected.len()..]
        .chunks_exact(partial_record_len(width))
        .enumerate()
    {
        let (data, check) = record.split_at(width + 1);
        let (keys, scores) = decode(data, width);
        if crc32fast::hash(data).to_le_bytes() != check || !deepest.contains(&keys[0]) {
            return Err(Error::File(format!(
                "'{}' is damaged (record {}); remove it to start afresh",
                path.display(),
                i + 1
            )));
        }
        known.insert(keys[0], scores[0]);
    }
    Ok(known)
}

/// The partial file, ready to append after its `records` whole records.
fn open_partial(
    path: &Path,
    game: &str,
    depth: u32,
    width: usize,
    records: usize,
) -> std::io::Result<BufWriter<File>> {
    let header = partial_header(game, depth, width);
    let mut file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path)?;
    let length = (header.len() + records * partial_record_len(width)) as u64;
    file.set_len(length)?;
    if records == 0 {
        file.write_all(header.as_bytes())?;
    }
    use std::io::Seek;
    file.seek(std::io::SeekFrom::Start(length))?;
    Ok(BufWriter::new(file))
}
