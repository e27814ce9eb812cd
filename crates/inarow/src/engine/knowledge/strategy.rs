//! Strategy books: a proven winning strategy, kept small enough to ship, so that the engine
//! plays a won game perfectly at once.
//!
//! The strategy is a book and a rule. At a position of the winner (the prover), looked at as
//! its least image over the board's symmetries ([`Rules::image`], at any number of stones, so
//! that play in any orientation meets the same position): a win at once; else the only move
//! that does not lose at once, if there is one; else the book's move; else the first move of
//! the win by threats that the threat-space search finds within [`THREATS`] (a win, since
//! every defence is forced). The book holds a move only where the threat search would not
//! play the proof's.
//!
//! Building it ([`Strategy::from_certificate`]) reads the whole strategy out of a proof that
//! the verifier accepts, in the verifier's own walk ([`verify_and_walk`]), then walks the proof's
//! moves against every reply of the loser, one position per symmetry class, keeping the proof's
//! move wherever the threat search would play another or none. (Playing the threat search's
//! own line instead, where it finds one, would keep a twentieth of the entries, but leads away
//! from the proof's positions to ones the search then cannot settle: a build that solved those
//! did not finish in 15 minutes.) The same walk of the book and the rule alone
//! ([`Strategy::check`]) plays the same moves, and shows that they answer every reply and end
//! every game in the winner's win.
//!
//! File format (version 1): a text header, a blank line, then the records.
//!
//! ```text
//! inarow-strategy 1
//! game qubic
//! prover first
//! entries 1234
//! key-bytes 16
//! crc32 1a2b3c4d
//!
//! <entries records: key (key-bytes, little-endian), move code (1 byte, Rules::move_code)>
//! ```
//!
//! Keys are in increasing order; `crc32` covers the records. A lookup is a binary search after
//! the position's images are keyed (192 for Qubic: a few microseconds).

use super::file::{crc_field, field, header_fields, number_field, write_atomically};
use crate::certificate::{VerifySummary, verify_and_walk};
use crate::error::Error;
use crate::game::{
    Goal, MoveList, Notation, Player, Rules, ShippedStrategy, Status, Tactics, Variant, one_line,
};
use crate::search::threats::{ThreatBudget, threat_line};
use std::collections::{HashMap, HashSet};
use std::path::Path;
use std::sync::{Arc, OnceLock, RwLock};

/// The threat-space search of the strategy's rule (df-pn's default, whose lines the proofs'
/// threat lines are). The book is built for it: a change here (or in the threat search's order
/// of moves) needs the book built again, which [`Strategy::check`] (a test) would show.
pub const THREATS: ThreatBudget = ThreatBudget {
    depth: 12,
    nodes: 2000,
};

const MAGIC: &str = "inarow-strategy 1";

/// The strategy books built into inarow, for the positions the catalog gives them to
/// ([`Variant::shipped_strategy`]), with the game their header names: `books/` in the
/// repository, made by `inarow book strategy` from the game's proof (docs/results.md gives the
/// commands). Qubic's (8.1 MB) comes with the feature `qubic-strategy` (on by default, and in
/// the Python package; not in the WebAssembly package, which it would make four times larger).
const SHIPPED: &[(ShippedStrategy, &str, &[u8])] = &[
    #[cfg(feature = "qubic-strategy")]
    (
        ShippedStrategy::Qubic,
        "qubic",
        include_bytes!("../../../books/qubic.strategy"),
    ),
];

/// Strategy books installed at run time ([`Strategy::install`]), one a game.
static INSTALLED: RwLock<Vec<Arc<Strategy>>> = RwLock::new(Vec::new());

/// A loaded strategy book.
pub struct Strategy {
    game: String,
    prover: Player,
    keys: Vec<u128>,
    moves: Vec<u8>,
}

impl std::fmt::Debug for Strategy {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Strategy({}, {} player, {} entries)",
            self.game,
            self.prover.name(),
            self.keys.len()
        )
    }
}

/// The least key over `pos`'s images and the first symmetry that gives it.
fn least_image<G: Rules>(pos: &G) -> (u128, usize) {
    (0..pos.symmetry_count())
        .map(|i| (pos.image_key(i), i))
        .min_by_key(|&(key, _)| key)
        .expect("the identity is a symmetry")
}

/// A move that wins at once.
fn winning_move<G: Rules>(pos: &G) -> Option<G::Move> {
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    let me = pos.side_to_move();
    moves
        .iter()
        .copied()
        .find(|&m| pos.play(m).status() == Status::Win(me))
}

/// The only move that does not lose at once, if there is one (as a [`Rules::move_code`]).
fn forced_move<G: Tactics>(pos: &G) -> Option<u16> {
    let mut safe = MoveList::new();
    pos.safe_moves(&mut safe);
    (safe.len() == 1).then(|| pos.move_code(safe[0].mv))
}

/// The first move of a win by threats within [`THREATS`], if the search finds one.
fn threat_move<G: Tactics>(pos: &G) -> Option<u16> {
    let mut line = Vec::new();
    threat_line(pos, THREATS, &mut 0, &mut line).then(|| pos.move_code(line[0]))
}

/// How a walk of a strategy went.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WalkStats {
    /// Positions walked, one per symmetry class.
    pub positions: u64,
    /// Of those, the winner's: with one move that does not lose at once.
    pub forced: u64,
    /// The winner's, with a move from the book or the threat search.
    pub chosen: u64,
    /// Replies after which the winner wins at once (not walked further).
    pub won_at_once: u64,
}

/// Walks the strategy of `prover` from `start`, each position as its least image (and its key),
/// one per class: at the prover's, a win at once, the forced move, else `choose`'s (a move
/// code); at the other side's, every reply. The error ([`Error::Search`]) names the first
/// position where the strategy has no move, or the first game it does not win.
fn walk<G: Tactics>(
    start: G,
    prover: Player,
    mut choose: impl FnMut(u128, &G) -> Option<u16>,
) -> Result<WalkStats, Error> {
    let mut stats = WalkStats::default();
    let mut done: HashSet<u128> = HashSet::new();
    let (key, i) = least_image(&start);
    let mut stack = vec![(key, start.image(i))];
    done.insert(key);
    while let Some((key, pos)) = stack.pop() {
        stats.positions += 1;
        let mut next = MoveList::new();
        if pos.side_to_move() == prover {
            let code = match forced_move(&pos) {
                Some(code) => {
                    stats.forced += 1;
                    code
                }
                None => {
                    stats.chosen += 1;
                    choose(key, &pos).ok_or_else(|| {
                        Error::Search(format!(
                            "the strategy has no move at {pos:?} (after {} moves)",
                            pos.ply()
                        ))
                    })?
                }
            };
            let mut legal = MoveList::new();
            pos.legal_moves(&mut legal);
            let mv = legal
                .iter()
                .copied()
                .find(|&m| pos.move_code(m) == code)
                .ok_or_else(|| {
                    Error::Search(format!("the strategy's move at {pos:?} is not legal"))
                })?;
            next.push(mv);
        } else {
            pos.legal_moves(&mut next);
        }
        for &m in &next {
            let child = pos.play(m);
            match child.status() {
                Status::Win(p) if p == prover => continue,
                Status::Ongoing => {}
                other => {
                    return Err(Error::Search(format!(
                        "the strategy reaches {other:?} at {child:?}"
                    )));
                }
            }
            if child.side_to_move() == prover && child.has_winning_move() {
                stats.won_at_once += 1;
                continue;
            }
            let (key, i) = least_image(&child);
            if done.insert(key) {
                stack.push((key, child.image(i)));
            }
        }
    }
    Ok(stats)
}

fn key_bytes<G: Rules>(sample: &G) -> usize {
    sample.key_bits().div_ceil(8).max(1) as usize
}

impl Strategy {
    /// Verifies the winning certificate `text` of `start`'s game (from the start, `goal win`)
    /// and reads its strategy out: the book holds the proof's move where the threat search
    /// would play another or none, over every reply of the loser. Also returns the verifier's
    /// summary and the walk's.
    ///
    /// # Errors
    /// [`Error::Input`] for a certificate the verifier rejects, or one that does not prove a
    /// win from the game's start; [`Error::Search`] where the rule leaves the proof's positions
    /// (a proof whose moves do not fit a byte).
    pub fn from_certificate<G: Tactics + Notation>(
        start: G,
        text: &str,
    ) -> Result<(Strategy, VerifySummary, WalkStats), Error> {
        let mut proof: HashMap<u128, u16> = HashMap::new();
        let summary = verify_and_walk(start, text, &mut |pos: &G, mv| {
            let (key, i) = least_image(pos);
            proof
                .entry(key)
                .or_insert_with(|| pos.move_code(pos.image_move(mv, i)));
        })?;
        if summary.goal != Goal::Win || summary.root != "-" {
            return Err(Error::Input(format!(
                "a strategy book needs a proof that a player wins from the start; this one \
                 proves: {}",
                summary.claim
            )));
        }
        let mut book: Vec<(u128, u8)> = Vec::new();
        let stats = walk(start, summary.prover, |key, pos| {
            let code = *proof.get(&key)?;
            if threat_move(pos) != Some(code) {
                book.push((key, u8::try_from(code).ok()?));
            }
            Some(code)
        })?;
        book.sort_unstable();
        book.dedup();
        let (keys, moves) = book.into_iter().unzip();
        let strategy = Strategy {
            game: start.name(),
            prover: summary.prover,
            keys,
            moves,
        };
        Ok((strategy, summary, stats))
    }

    /// Walks the strategy (the rule and this book) from `start` against every reply of the
    /// loser: every position of the winner gets a move, and every game ends in the winner's
    /// win.
    ///
    /// # Errors
    /// [`Error::Search`] naming the first position of the winner where neither the rule nor
    /// the book has a move, or the first game that ends otherwise.
    pub fn check<G: Tactics>(&self, start: G) -> Result<WalkStats, Error> {
        walk(start, self.prover, |key, pos| {
            self.book_move(key).or_else(|| threat_move(pos))
        })
    }

    fn book_move(&self, key: u128) -> Option<u16> {
        let i = self.keys.binary_search(&key).ok()?;
        Some(self.moves[i] as u16)
    }

    /// The game the strategy is for ([`Rules::name`]).
    pub fn game(&self) -> &str {
        &self.game
    }

    /// The player the strategy wins for.
    pub fn prover(&self) -> Player {
        self.prover
    }

    /// The number of positions it holds a move for.
    pub fn len(&self) -> usize {
        self.keys.len()
    }

    /// Whether it holds no position.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty()
    }

    /// The strategy's move at `pos` (the prover to move, the game on), if `pos` is on the
    /// strategy's paths (see [`Strategy::followed`]): a win at once, else the rule's or the
    /// book's move in `pos`'s least image, as the move of `pos`; `None` where the other side
    /// is to move, or where neither has a move (the position is not on the strategy's paths).
    pub fn move_at<G: Tactics>(&self, pos: &G) -> Option<G::Move> {
        if pos.status() != Status::Ongoing || pos.side_to_move() != self.prover {
            return None;
        }
        if let Some(win) = winning_move(pos) {
            return Some(win);
        }
        let (key, i) = least_image(pos);
        let image = pos.image(i);
        let code = forced_move(&image)
            .or_else(|| self.book_move(key))
            .or_else(|| threat_move(&image))?;
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        moves
            .iter()
            .copied()
            .find(|&m| pos.move_code(pos.image_move(m, i)) == code)
    }

    /// Every move at `pos` that wins by the strategy: [`Strategy::move_at`]'s, and each other
    /// move that reaches the same position in another orientation (the board's symmetries),
    /// which [`Strategy::followed`] accepts as the strategy's. Empty where it has no move.
    pub fn moves_at<G: Tactics>(&self, pos: &G) -> Vec<G::Move> {
        let Some(want) = self.move_at(pos) else {
            return Vec::new();
        };
        let image = least_image(&pos.play(want)).0;
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        let mut winning = vec![want];
        winning.extend(
            moves
                .iter()
                .copied()
                .filter(|&m| m != want && least_image(&pos.play(m)).0 == image),
        );
        winning
    }

    /// Whether the winner's moves of `moves`, played from the game's start `start`, are the
    /// strategy's (up to the board's symmetries: each reaches the position the strategy's move
    /// reaches, in some orientation), from move `from` on (the ones before are known to be):
    /// then the position they reach is on the strategy's paths, and its move wins. Elsewhere
    /// the rule's forced move proves nothing.
    pub fn followed<G: Tactics>(&self, start: G, moves: &[G::Move], from: usize) -> bool {
        if start.ply() != 0 {
            return false;
        }
        let mut pos = start;
        for (i, &m) in moves.iter().enumerate() {
            if i >= from && pos.side_to_move() == self.prover {
                let Some(want) = self.move_at(&pos) else {
                    return false;
                };
                if want != m && least_image(&pos.play(want)).0 != least_image(&pos.play(m)).0 {
                    return false;
                }
            }
            pos = pos.play(m);
        }
        true
    }

    /// The strategy built into inarow for `pos`'s game, if the catalog gives it one
    /// ([`Variant::shipped_strategy`]) and this build includes it (Qubic's comes with the
    /// feature `qubic-strategy`), or one installed for the game ([`Strategy::install`]), which
    /// comes first.
    pub fn builtin_for<G: Variant>(pos: &G) -> Option<Arc<Strategy>> {
        let installed = INSTALLED.read().unwrap_or_else(|e| e.into_inner());
        if let Some(strategy) = installed.iter().find(|s| s.game == pos.name()) {
            return Some(Arc::clone(strategy));
        }
        drop(installed);
        // Before the shipped strategies are read (once): a game the catalog gives none.
        let which = pos.shipped_strategy()?;
        static LOADED: OnceLock<Vec<(ShippedStrategy, Arc<Strategy>)>> = OnceLock::new();
        let books = LOADED.get_or_init(|| {
            SHIPPED
                .iter()
                .map(|&(which, game, bytes)| {
                    let strategy =
                        Strategy::parse(bytes, game, game).expect("the built-in strategy reads");
                    (which, Arc::new(strategy))
                })
                .collect()
        });
        let (_, strategy) = books.iter().find(|&&(w, _)| w == which)?;
        // The catalog and the header agree on the game, or the strategy is not for `pos`.
        (strategy.game == pos.name()).then(|| Arc::clone(strategy))
    }

    /// Makes this strategy its game's for the engines made from now on, as if it were built in
    /// ([`Strategy::builtin_for`]), in place of one installed before: for a build without the
    /// book (the WebAssembly package, whose page reads Qubic's from the file beside it).
    pub fn install(self) {
        let mut installed = INSTALLED.write().unwrap_or_else(|e| e.into_inner());
        installed.retain(|s| s.game != self.game);
        installed.push(Arc::new(self));
    }

    /// Reads and checks a strategy book for `game` ([`Rules::name`]).
    ///
    /// # Errors
    /// [`Error::File`] for a file that cannot be read, is damaged, or is for another game.
    pub fn load(path: &Path, game: &str) -> Result<Strategy, Error> {
        let shown = path.display().to_string();
        let bytes = std::fs::read(path)
            .map_err(|e| Error::File(one_line(&format!("cannot read '{shown}': {e}"))))?;
        Self::parse(&bytes, &shown, game)
    }

    /// Checks and decodes the bytes of a strategy book for `game`; `shown` names it in errors.
    ///
    /// # Errors
    /// As [`Strategy::load`].
    pub fn parse(bytes: &[u8], shown: &str, game: &str) -> Result<Strategy, Error> {
        Self::decode(bytes, shown, game).map_err(Error::one_line)
    }

    fn decode(bytes: &[u8], shown: &str, game: &str) -> Result<Strategy, Error> {
        let bad = |why: String| Error::File(format!("strategy book '{shown}' is corrupt: {why}"));
        let (fields, start) = header_fields(bytes, MAGIC).map_err(|why| {
            Error::File(format!("'{shown}' is not an inarow strategy book ({why})"))
        })?;
        let body = &bytes[start..];
        let book_game = field(&fields, "game").map_err(|e| bad(e.to_string()))?;
        if book_game != game {
            return Err(Error::File(format!(
                "strategy book '{shown}' is for {book_game}, not for {game}"
            )));
        }
        let prover = match field(&fields, "prover").map_err(|e| bad(e.to_string()))? {
            "first" => Player::First,
            "second" => Player::Second,
            other => return Err(bad(format!("prover '{other}'"))),
        };
        let entries = number_field(&fields, "entries").map_err(|e| bad(e.to_string()))? as usize;
        let width = number_field(&fields, "key-bytes").map_err(|e| bad(e.to_string()))? as usize;
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
        let mut keys = Vec::with_capacity(entries);
        let mut moves = Vec::with_capacity(entries);
        for record in body.chunks_exact(width + 1) {
            let mut key = [0u8; 16];
            key[..width].copy_from_slice(&record[..width]);
            keys.push(u128::from_le_bytes(key));
            moves.push(record[width]);
        }
        if keys.windows(2).any(|w| w[0] >= w[1]) {
            return Err(bad("keys are not in increasing order".into()));
        }
        Ok(Strategy {
            game: book_game.to_string(),
            prover,
            keys,
            moves,
        })
    }

    /// Writes the strategy book to `out` (a temporary file, then renamed); `sample` is a
    /// position of its game (for the key's width).
    ///
    /// # Errors
    /// [`Error::File`] when the file cannot be written.
    pub fn write<G: Rules>(&self, sample: &G, out: &Path) -> Result<(), Error> {
        let width = key_bytes(sample);
        let mut body = Vec::with_capacity(self.keys.len() * (width + 1));
        for (key, mv) in self.keys.iter().zip(&self.moves) {
            body.extend_from_slice(&key.to_le_bytes()[..width]);
            body.push(*mv);
        }
        let header = format!(
            "{MAGIC}\ngame {}\nprover {}\nentries {}\nkey-bytes {width}\ncrc32 {:08x}\n\n",
            self.game,
            self.prover.name(),
            self.keys.len(),
            crc32fast::hash(&body)
        );
        write_atomically(out, header.as_bytes(), &body).map_err(Error::one_line)
    }
}
