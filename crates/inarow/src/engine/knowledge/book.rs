//! Opening books: the exact score of every position up to a depth, symmetry-reduced, and
//! beyond it, to a further ply, the positions a perfect player meets against any replies.
//!
//! File format (version 2): a text header, a blank line, then the records.
//!
//! ```text
//! inarow-book 2
//! game connect4:7x6:k4
//! depth 4
//! perfect-to 6
//! entries 1234
//! key-bytes 7
//! crc32 1a2b3c4d
//!
//! <entries records: key (key-bytes, little-endian), score (1 byte, two's complement)>
//! ```
//!
//! Keys are [`Rules::canonical_key`]s in increasing order; the score is the exact score of the
//! side to move (the public convention, [`crate::search::score`]); `crc32` covers the records.
//! Positions that are already over are not stored. Every position of at most `depth` plies is
//! in the book. Past it, to `perfect-to` plies, are those of the lines on which one side plays
//! only moves that keep the value (a perfect player, against any replies): where that side is
//! to move, the position and every child its keeping moves reach, so that a perfect move
//! there needs no search ([`Engine::keeping_move`](crate::engine::Engine::keeping_move)). Version 1
//! (no `perfect-to`: it equals `depth`) still reads.
//!
//! Building solves the positions at the book's depth with the engine, deepest first, and
//! derives every shallower score from its children's; then, to `perfect-to`, it walks the
//! perfect player's lines, solving their positions and testing each move for the value. Solved
//! records are appended to `FILE.partial` as they come (same header without `entries` and
//! `crc32`, first line `inarow-book-partial 3`; each record followed by the crc32 of its bytes,
//! so that a damaged record is refused rather than trusted), and an interrupted build resumes
//! where it stopped; a book already at `FILE` of the same game and at least the depth gives its
//! scores (extending a book solves only what is new, and a deeper book is cut to the depth
//! without a search); the finished book is written to a temporary file and renamed.
//!
//! A build that takes more than a session also keeps a journal small enough to commit,
//! `FILE.journal`, rewritten (temporary file and rename) every [`JOURNAL_EVERY`] positions and
//! when the build stops: the scores of the positions at the book's depth solved so far, one
//! byte each, in the build's order (ply by ply from the start, each position's children in
//! move order; the header pins it by the count and a crc32 of their keys). A build whose
//! partial file is gone resumes from the journal:
//!
//! ```text
//! inarow-book-journal 1
//! game connect4:7x6:k4
//! depth 12
//! positions 1234567
//! order-crc32 1a2b3c4d
//! solved 20000
//! crc32 5e6f7a8b
//!
//! <solved bytes: the scores of the first `solved` positions, two's complement>
//! ```

use super::compact::{CompactBook, Ranking};
use super::file::{
    crc_field, field, header_fields, number_field, remove_build_files, with_suffix,
    write_atomically, write_error,
};
use crate::engine::Engine;
use crate::error::Error;
use crate::game::{
    Bounded, Kind, KindVisitor, MoveList, Player, Repeating, Rules, ShippedBook, Status, Tactics,
    Variant, one_line,
};
use crate::limits::Limits;
use crate::search::alphabeta::KnownScores;
use crate::search::score::final_score;
use std::borrow::Cow;
use std::collections::{HashMap, HashSet};
use std::fs::{self, File, OpenOptions};
use std::io::{BufWriter, Read, Write};
use std::path::Path;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock, mpsc};

const MAGIC: &str = "inarow-book 2";
/// The format before `perfect-to`, read as a book with nothing past its depth.
const MAGIC_1: &str = "inarow-book 1";

/// The books built into inarow, for the positions the catalog gives them to
/// ([`Variant::shipped_book`]), with the game their header names: `books/` in the repository,
/// made by `inarow book build` (docs/results.md gives the command), so that the playing
/// engines answer the opening at once on a fresh install.
const SHIPPED: &[(ShippedBook, &str, &[u8])] =
    &[(ShippedBook::Connect4Standard, "connect4:7x6:k4", BOOK_7X6)];
/// 7x6: every position to 12 plies (9.6 MB, compact).
#[cfg(not(target_arch = "wasm32"))]
const BOOK_7X6: &[u8] = include_bytes!("../../../books/connect4-7x6.book");
/// WebAssembly's: every position to 10 plies (1.3 MB, compact), which keeps the page's
/// download under 2 MB gzipped.
#[cfg(target_arch = "wasm32")]
const BOOK_7X6: &[u8] = include_bytes!("../../../books/connect4-7x6-web.book");
const PARTIAL_MAGIC: &str = "inarow-book-partial 3";
const JOURNAL_MAGIC: &str = "inarow-book-journal 1";
/// Positions solved between two rewrites of the journal (a few minutes of a 7x6 build).
pub const JOURNAL_EVERY: usize = 20_000;

/// A loaded book.
pub struct Book {
    game: String,
    depth: u32,
    perfect_to: u32,
    entries: Entries,
}

/// A book's positions: sorted keys with their scores (version 2, any game), or ranks
/// ([`CompactBook`], version 3: a gravity game, complete to its depth).
enum Entries {
    Sorted { keys: Vec<u128>, scores: Vec<i8> },
    Ranked(CompactBook),
}

impl std::fmt::Debug for Book {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Book({}, depth {}, perfect to {}, {} entries)",
            self.game,
            self.depth,
            self.perfect_to,
            self.len()
        )
    }
}

impl<G: Rules> KnownScores<G> for Book {
    fn most_plies(&self) -> u32 {
        self.perfect_to
    }

    fn score(&self, pos: &G) -> Option<i32> {
        self.lookup(pos)
    }
}

/// How a build went.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct BuildStats {
    /// Positions in the book.
    pub entries: usize,
    /// Positions at the book's depth solved by search in this run.
    pub solved: usize,
    /// Positions at the book's depth found already solved in the partial file (or in the
    /// book being extended).
    pub resumed: usize,
    /// Positions past the book's depth on the perfect player's lines.
    pub perfect: usize,
    /// Nodes searched in this run.
    pub nodes: u64,
}

fn key_bytes(key_bits: u32) -> usize {
    key_bits.div_ceil(8).max(1) as usize
}

impl Book {
    /// The game the book is for (`Rules::name`).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Positions with at most this many plies are in the book.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The book holds, to this many plies, the positions a perfect player meets against any
    /// replies (see the module's documentation); its depth where it holds none past it.
    pub fn perfect_to(&self) -> u32 {
        self.perfect_to
    }

    /// The number of positions in the book, one per canonical key.
    pub fn len(&self) -> usize {
        match &self.entries {
            Entries::Sorted { keys, .. } => keys.len(),
            Entries::Ranked(book) => book.len(),
        }
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The exact score of the side to move in `pos`, if the book has it.
    #[inline]
    pub fn lookup<G: Rules>(&self, pos: &G) -> Option<i32> {
        if pos.ply() > self.perfect_to {
            return None;
        }
        match &self.entries {
            Entries::Sorted { keys, scores } => keys
                .binary_search(&pos.canonical_key())
                .ok()
                .map(|i| scores[i] as i32),
            Entries::Ranked(book) => book.score(pos),
        }
    }

    /// The book that ships with inarow for `pos`'s game, if the catalog gives it one
    /// ([`Variant::shipped_book`]): every Connect Four 7x6 position up to 12 plies (in
    /// WebAssembly: up to 10 plies).
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

    /// Reads and checks a book for `game` (a [`Rules::name`]).
    ///
    /// # Errors
    /// [`Error::File`] for a file that cannot be read, is damaged, or is for another game.
    pub fn load(path: &Path, game: &str) -> Result<Book, Error> {
        let shown = path.display();
        let bytes = fs::read(path)
            .map_err(|e| Error::File(one_line(&format!("cannot read book '{shown}': {e}"))))?;
        Self::parse(bytes, &shown.to_string(), game)
    }

    /// Checks and decodes the bytes of a book file for `game`; `shown` names the file in
    /// errors.
    ///
    /// # Errors
    /// As [`Book::load`].
    pub fn parse(
        bytes: impl Into<Cow<'static, [u8]>>,
        shown: &str,
        game: &str,
    ) -> Result<Book, Error> {
        Self::decode_file(bytes.into(), shown, game).map_err(Error::one_line)
    }

    fn decode_file(data: Cow<'static, [u8]>, shown: &str, game: &str) -> Result<Book, Error> {
        if CompactBook::is_compact(&data) {
            let book = CompactBook::parse(data, shown, game)?;
            return Ok(Book {
                game: book.game().to_string(),
                depth: book.depth(),
                perfect_to: book.depth(),
                entries: Entries::Ranked(book),
            });
        }
        let bytes = &data[..];
        let bad = |why: String| Error::File(format!("book '{shown}' is corrupt: {why}"));
        let version_1 = bytes.starts_with(MAGIC_1.as_bytes());
        let magic = if version_1 { MAGIC_1 } else { MAGIC };
        let (fields, start) = header_fields(bytes, magic)
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
        let perfect_to = if version_1 {
            depth
        } else {
            number("perfect-to")? as u32
        };
        if perfect_to < depth {
            return Err(bad(format!(
                "perfect-to {perfect_to} is below depth {depth}"
            )));
        }
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
            perfect_to,
            entries: Entries::Sorted { keys, scores },
        })
    }

    /// Builds the book of `start`'s game to `depth` plies and writes it to `out`, solving with
    /// `engine` under `limits` for each position. `progress(done, total)` follows the
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
        limits: &Limits,
        progress: impl FnMut(usize, usize),
    ) -> Result<BuildStats, Error> {
        Self::build_for_perfect_play(
            start,
            depth,
            depth,
            out,
            std::slice::from_mut(engine),
            limits,
            progress,
        )
    }

    /// [`Book::build`], and past `depth` to `perfect_to` plies the positions a perfect player
    /// meets against any replies (the module's documentation): after the positions at the
    /// book's depth, `progress` follows those of each further ply. A book of the same game and
    /// at least the depth already at `out` gives its scores, so extending it solves only what
    /// is new, and a deeper one is cut to the depth. The positions at the book's depth are
    /// solved by all of `engines` at once, each on its own thread (the first engine does the
    /// rest), so that a build takes every core without sharing a table between searches that
    /// gain little from it.
    ///
    /// # Errors
    /// As [`Book::build`]; [`Error::Input`] for `perfect_to` below `depth` or no engine.
    pub fn build_for_perfect_play<G: Tactics>(
        start: G,
        depth: u32,
        perfect_to: u32,
        out: &Path,
        engines: &mut [Engine<G>],
        limits: &Limits,
        progress: impl FnMut(usize, usize),
    ) -> Result<BuildStats, Error> {
        if perfect_to < depth {
            return Err(Error::Input(format!(
                "--perfect-to {perfect_to}: must be at least the depth, {depth}"
            )));
        }
        if engines.is_empty() {
            return Err(Error::Input("a book build needs an engine".into()));
        }
        G::Kind::visit(BuildBook {
            start,
            depth,
            perfect_to,
            out,
            engines,
            limits,
            progress,
        })
    }

    fn build_bounded<G: Bounded + Tactics>(
        build: BuildBook<'_, G, impl FnMut(usize, usize)>,
    ) -> Result<BuildStats, Error> {
        let BuildBook {
            start,
            depth,
            perfect_to,
            out,
            engines,
            limits,
            mut progress,
        } = build;
        let game = start.name();
        let width = key_bytes(start.key_bits());
        let levels = positions_by_ply(start, depth);
        let partial_path = with_suffix(out, ".partial");
        let deepest = levels.last().map_or(&[][..], |l| &l[..]);
        let deepest_keys: HashSet<u128> = deepest.iter().map(|p| p.canonical_key()).collect();
        let header = partial_header(&game, depth, perfect_to, width);
        // Past the depth, the perfect player's positions are not known in advance: the partial
        // file's records are checked by their crc32 alone.
        let expected = (perfect_to == depth).then_some(&deepest_keys);
        let (mut known, records) =
            read_partial(&partial_path, &header, expected, width).map_err(Error::one_line)?;
        let journal_path = with_suffix(out, ".journal");
        let order = Order::of(&game, depth, deepest);
        for (pos, score) in deepest.iter().zip(order.read(&journal_path)?) {
            known.entry(pos.canonical_key()).or_insert(score);
        }
        if let Ok(earlier) = Book::load(out, &game)
            && earlier.depth >= depth
        {
            for pos in deepest {
                if let Some(score) = earlier.lookup(pos) {
                    known.entry(pos.canonical_key()).or_insert(score as i8);
                }
            }
        }
        let mut stats = BuildStats {
            resumed: deepest
                .iter()
                .filter(|p| known.contains_key(&p.canonical_key()))
                .count(),
            ..BuildStats::default()
        };
        let mut journal = Journal {
            file: open_partial(&partial_path, &header, width, records)
                .map_err(|e| Error::File(one_line(&write_error(&partial_path, 0, &e))))?,
            path: &partial_path,
            width,
        };

        // The costly part: search every position at the book's depth, saving each answer.
        let total = deepest.len();
        let mut done = stats.resumed;
        progress(done, total);
        let save_journal = |known: &HashMap<u128, i8>| {
            let scores: Vec<i8> = deepest
                .iter()
                .map_while(|p| known.get(&p.canonical_key()).copied())
                .collect();
            order.write(&journal_path, &scores)
        };
        // Each engine on its own thread takes the next unsolved position; this thread records
        // the answers as they come (out of order by at most one position an engine).
        let todo: Vec<&G> = deepest
            .iter()
            .filter(|p| !known.contains_key(&p.canonical_key()))
            .collect();
        let next = AtomicUsize::new(0);
        let halt = AtomicBool::new(false);
        let mut failed = None;
        std::thread::scope(|scope| {
            let (answers, answered) = mpsc::channel();
            for engine in engines.iter_mut() {
                let (answers, todo, next, halt) = (answers.clone(), &todo, &next, &halt);
                scope.spawn(move || {
                    while !halt.load(Ordering::Relaxed) {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some(&pos) = todo.get(i) else { break };
                        let report = engine.solve(pos, limits);
                        if answers.send((pos, report)).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(answers);
            for (pos, report) in answered {
                stats.nodes += report.nodes;
                // An answer that came after another stopped the build is still kept.
                let recorded = solved(report.score, report.stopped, done, total, &partial_path)
                    .and_then(|score| {
                        let key = pos.canonical_key();
                        journal.record(key, score)?;
                        known.insert(key, score as i8);
                        stats.solved += 1;
                        done += 1;
                        progress(done, total);
                        if stats.solved.is_multiple_of(JOURNAL_EVERY) {
                            save_journal(&known)?;
                        }
                        Ok(())
                    });
                if let Err(e) = recorded {
                    halt.store(true, Ordering::Relaxed);
                    failed.get_or_insert(e);
                }
            }
        });
        if let Some(e) = failed {
            save_journal(&known)?;
            return Err(e);
        }
        if stats.solved > 0 {
            save_journal(&known)?;
        }

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

        // Past the depth, the perfect player's lines, for each side as the perfect player.
        if perfect_to > depth {
            let engine = &mut engines[0];
            for perfect in [Player::First, Player::Second] {
                let mut frontier = perfect_lines(start, depth, perfect, &known);
                for _ in depth..perfect_to {
                    let total = frontier.len();
                    progress(0, total);
                    let mut next: HashMap<u128, G> = HashMap::new();
                    for (i, pos) in frontier.iter().enumerate() {
                        let mut moves = MoveList::new();
                        if pos.side_to_move() == perfect {
                            let key = pos.canonical_key();
                            let score = match known.get(&key) {
                                Some(&s) => s as i32,
                                None => {
                                    let report = engine.solve(pos, limits);
                                    stats.nodes += report.nodes;
                                    let score = solved(
                                        report.score,
                                        report.stopped,
                                        i,
                                        total,
                                        &partial_path,
                                    )?;
                                    journal.record(key, score)?;
                                    known.insert(key, score as i8);
                                    stats.perfect += 1;
                                    score
                                }
                            };
                            let report = engine.moves_keeping(pos, score, limits);
                            stats.nodes += report.nodes;
                            if let Some(stop) = report.stopped {
                                solved(None, Some(stop), i, total, &partial_path)?;
                            }
                            for &m in &report.best_moves {
                                let child = pos.play(m);
                                let key = child.canonical_key();
                                if child.status() == Status::Ongoing && !known.contains_key(&key) {
                                    journal.record(key, -score)?;
                                    known.insert(key, (-score) as i8);
                                    stats.perfect += 1;
                                }
                                moves.push(m);
                            }
                        } else {
                            pos.legal_moves(&mut moves);
                        }
                        for m in moves {
                            let child = pos.play(m);
                            if child.status() == Status::Ongoing {
                                next.entry(child.canonical_key()).or_insert(child);
                            }
                        }
                        progress(i + 1, total);
                    }
                    frontier = sorted_positions(next);
                }
            }
        }
        drop(journal);

        // A gravity game's book complete to its depth is written compact.
        if perfect_to == depth
            && let Some((geometry, _, _)) = start.gravity_position()
        {
            let ranking = Ranking::new(geometry, depth);
            let mut scored = Vec::with_capacity(known.len());
            for pos in levels.iter().flatten() {
                let rank = ranking.rank_of(pos).ok_or_else(|| {
                    Error::Internal("internal error: a book position has no rank".into())
                })?;
                scored.push((rank, known[&pos.canonical_key()] as i32));
            }
            let book = CompactBook::new(&game, ranking, scored)?;
            let bytes = book.to_bytes();
            let split = bytes
                .windows(2)
                .position(|w| w == b"\n\n")
                .map_or(0, |i| i + 2);
            write_atomically(out, &bytes[..split], &bytes[split..]).map_err(Error::one_line)?;
            remove_build_files(out);
            let _ = fs::remove_file(&journal_path);
            stats.entries = book.len();
            return Ok(stats);
        }

        let mut records: Vec<(u128, i8)> = known.into_iter().collect();
        records.sort_unstable();
        let mut body = Vec::with_capacity(records.len() * (width + 1));
        for (key, score) in &records {
            body.extend_from_slice(&key.to_le_bytes()[..width]);
            body.push(*score as u8);
        }
        let header = format!(
            "{MAGIC}\ngame {game}\ndepth {depth}\nperfect-to {perfect_to}\nentries {}\nkey-bytes \
             {width}\ncrc32 {:08x}\n\n",
            records.len(),
            crc32fast::hash(&body)
        );
        write_atomically(out, header.as_bytes(), &body).map_err(Error::one_line)?;
        remove_build_files(out);
        let _ = fs::remove_file(&journal_path);
        stats.entries = records.len();
        Ok(stats)
    }
}

/// The score a search of a book position found, or the error that stops the build there (its
/// `done` of `total` positions kept in the partial file).
fn solved(
    score: Option<i32>,
    stopped: Option<crate::limits::Stop>,
    done: usize,
    total: usize,
    partial: &Path,
) -> Result<i32, Error> {
    score.ok_or_else(|| {
        let why = stopped.map_or("stopped".to_string(), |s| s.to_string());
        Error::Search(one_line(&format!(
            "book build stopped at {done} of {total} positions ({why}); '{}' keeps the solved \
             ones: run the same command again to resume",
            partial.display()
        )))
    })
}

/// The order in which a build solves the positions at its book's depth, as a journal's header
/// names it.
struct Order {
    header: String,
}

impl Order {
    fn of<G: Rules>(game: &str, depth: u32, deepest: &[G]) -> Order {
        let mut crc = crc32fast::Hasher::new();
        for pos in deepest {
            crc.update(&pos.canonical_key().to_le_bytes());
        }
        Order {
            header: format!(
                "{JOURNAL_MAGIC}\ngame {game}\ndepth {depth}\npositions {}\norder-crc32 {:08x}\n",
                deepest.len(),
                crc.finalize()
            ),
        }
    }

    /// The scores a journal at `path` holds (none if there is none), in this order.
    fn read(&self, path: &Path) -> Result<Vec<i8>, Error> {
        let bytes = match fs::read(path) {
            Ok(bytes) => bytes,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
            Err(e) => {
                return Err(Error::File(format!(
                    "cannot read '{}': {e}",
                    path.display()
                )));
            }
        };
        let refuse = |why: &str| {
            Error::File(format!(
                "'{}' is not a journal of this build ({why}); remove it to start afresh",
                path.display()
            ))
        };
        if !bytes.starts_with(self.header.as_bytes()) {
            return Err(refuse("another game, depth or order"));
        }
        let (fields, start) =
            header_fields(&bytes, JOURNAL_MAGIC).map_err(|e| refuse(&e.to_string()))?;
        let solved = number_field(&fields, "solved").map_err(|e| refuse(&e.to_string()))?;
        let body = &bytes[start..];
        if body.len() as u64 != solved
            || crc_field(&fields).map_err(|e| refuse(&e.to_string()))? != crc32fast::hash(body)
        {
            return Err(refuse("damaged"));
        }
        Ok(body.iter().map(|&b| b as i8).collect())
    }

    /// Writes the journal of `scores`, the first positions' in this order.
    fn write(&self, path: &Path, scores: &[i8]) -> Result<(), Error> {
        let body: Vec<u8> = scores.iter().map(|&s| s as u8).collect();
        let header = format!(
            "{}solved {}\ncrc32 {:08x}\n\n",
            self.header,
            body.len(),
            crc32fast::hash(&body)
        );
        write_atomically(path, header.as_bytes(), &body).map_err(Error::one_line)
    }
}

/// The partial file of a build, taking each solved record as it comes.
struct Journal<'a> {
    file: BufWriter<File>,
    path: &'a Path,
    width: usize,
}

impl Journal<'_> {
    fn record(&mut self, key: u128, score: i32) -> Result<(), Error> {
        let mut record = key.to_le_bytes()[..self.width].to_vec();
        record.push(score as i8 as u8);
        record.extend_from_slice(&crc32fast::hash(&record).to_le_bytes());
        self.file
            .write_all(&record)
            .and_then(|_| self.file.flush())
            .map_err(|e| Error::File(one_line(&write_error(self.path, 0, &e))))
    }
}

/// The positions at ply `depth` (one per symmetry class, in key order) of the lines from
/// `start` on which `perfect` plays only moves that keep the value (`known` holds every score to
/// `depth`) and the other side any move.
fn perfect_lines<G: Bounded>(
    start: G,
    depth: u32,
    perfect: Player,
    known: &HashMap<u128, i8>,
) -> Vec<G> {
    let mut frontier = vec![start];
    for _ in 0..depth {
        let mut next: HashMap<u128, G> = HashMap::new();
        for pos in &frontier {
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            let score = known.get(&pos.canonical_key()).map(|&s| s as i32);
            for m in moves {
                let child = pos.play(m);
                let child_score = match final_score(&child) {
                    Some(s) => Some(s),
                    None => known.get(&child.canonical_key()).map(|&s| s as i32),
                };
                let keeps = pos.side_to_move() != perfect
                    || (score.is_some() && child_score.map(|c| -c) == score);
                if keeps && child.status() == Status::Ongoing {
                    next.entry(child.canonical_key()).or_insert(child);
                }
            }
        }
        frontier = sorted_positions(next);
    }
    frontier
}

/// The positions in the order of their keys: a build walks them the same way every time.
fn sorted_positions<G>(positions: HashMap<u128, G>) -> Vec<G> {
    let mut keyed: Vec<(u128, G)> = positions.into_iter().collect();
    keyed.sort_unstable_by_key(|&(k, _)| k);
    keyed.into_iter().map(|(_, p)| p).collect()
}

/// A book build, for the game's kind: books hold exact scores, which only bounded games have.
struct BuildBook<'a, G: Tactics, P> {
    start: G,
    depth: u32,
    perfect_to: u32,
    out: &'a Path,
    engines: &'a mut [Engine<G>],
    limits: &'a Limits,
    progress: P,
}

impl<G: Tactics, P: FnMut(usize, usize)> KindVisitor<G> for BuildBook<'_, G, P> {
    type Output = Result<BuildStats, Error>;

    fn bounded(self) -> Self::Output
    where
        G: Bounded,
    {
        Book::build_bounded(self)
    }

    fn repeating(self) -> Self::Output
    where
        G: Repeating,
    {
        Err(no_exact_scores(&self.start))
    }
}

/// Why a game whose positions repeat has no book: a book holds exact scores.
pub(super) fn no_exact_scores<G: Rules>(start: &G) -> Error {
    Error::Unsupported(format!(
        "a book holds exact scores, and {} has none: its positions repeat",
        start.name()
    ))
}

/// The score of `pos` from its children's scores (`child_score` gives the score of an unfinished
/// child for the side to move there); `None` if a child is unknown.
pub(super) fn best_from_children<G: Bounded>(
    pos: &G,
    child_score: impl Fn(&G) -> Option<i32>,
) -> Option<i32> {
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

/// One representative of every symmetry class of unfinished positions, by ply, up to `depth`:
/// the positions a book to `depth` holds.
pub fn positions_by_ply<G: Rules>(start: G, depth: u32) -> Vec<Vec<G>> {
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

fn partial_header(game: &str, depth: u32, perfect_to: u32, width: usize) -> String {
    format!(
        "{PARTIAL_MAGIC}\ngame {game}\ndepth {depth}\nperfect-to {perfect_to}\nkey-bytes {width}\n\n"
    )
}

/// The bytes of one record of the partial file: key, score, crc32 of the two.
fn partial_record_len(width: usize) -> usize {
    width + 1 + 4
}

/// The records of an earlier, interrupted build (none if there is no partial file), each
/// checked by its crc32 and, where `expected` is given, a position of the book's depth; and how
/// many whole records the file holds.
fn read_partial(
    path: &Path,
    header: &str,
    expected: Option<&HashSet<u128>>,
    width: usize,
) -> Result<(HashMap<u128, i8>, usize), Error> {
    let mut bytes = Vec::new();
    match File::open(path) {
        Ok(mut f) => f
            .read_to_end(&mut bytes)
            .map_err(|e| Error::File(format!("cannot read '{}': {e}", path.display())))?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok((HashMap::new(), 0)),
        Err(e) => {
            return Err(Error::File(format!(
                "cannot read '{}': {e}",
                path.display()
            )));
        }
    };
    if !bytes.starts_with(header.as_bytes()) {
        return Err(Error::File(format!(
            "'{}' is not a partial build of this book; remove it to start afresh",
            path.display()
        )));
    }
    // A record cut short by an interruption is dropped (and overwritten on resume).
    let mut known = HashMap::new();
    let records = bytes[header.len()..].chunks_exact(partial_record_len(width));
    let count = records.len();
    for (i, record) in records.enumerate() {
        let (data, check) = record.split_at(width + 1);
        let (keys, scores) = decode(data, width);
        if crc32fast::hash(data).to_le_bytes() != check
            || expected.is_some_and(|e| !e.contains(&keys[0]))
        {
            return Err(Error::File(format!(
                "'{}' is damaged (record {}); remove it to start afresh",
                path.display(),
                i + 1
            )));
        }
        known.insert(keys[0], scores[0]);
    }
    Ok((known, count))
}

/// The partial file with `header`, ready to append after its `records` whole records.
fn open_partial(
    path: &Path,
    header: &str,
    width: usize,
    records: usize,
) -> std::io::Result<BufWriter<File>> {
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
