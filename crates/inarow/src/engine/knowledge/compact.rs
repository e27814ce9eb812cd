//! The compact book: every position of a gravity game up to a depth, exact, in about a byte
//! and a quarter a position (issue 79). A position is not stored by its key but found by its
//! rank: among the positions of its ply, by its column heights and then by which of its
//! stones are the first player's, one mirror image of each (the least rank of its images).
//! A bit per rank says whether the book holds that position (the ranks of a ply are dense:
//! 5,832,236 of 14.2 M at ply 12 of 7x6), a count of the set bits every 512 finds its place,
//! and the scores are packed in a few bits each in rank order. A lookup ranks the position's
//! images, tests a bit and counts the set bits before it: well under a microsecond, with no
//! false hit (a position not in the book has its bit clear).
//!
//! File format (version 3 of `inarow-book`): a text header, a blank line, then the bits and
//! the scores as little-endian 64-bit words.
//!
//! ```text
//! inarow-book 3
//! game connect4:7x6:k4
//! depth 12
//! entries 1234
//! ranks 5678
//! score-bits 6
//! score-min -18
//! crc32 1a2b3c4d
//!
//! <ceil(ranks / 64) words: bit r set when the position of rank r is in the book>
//! <ceil(entries * score-bits / 64) words: the scores less score-min, in rank order>
//! ```
//!
//! Ranks: the positions of ply `p` come after those of the plies before it. Among them, a
//! position's column heights `h` rank first (the number of height lists of sum `p` that come
//! before `h`, column 0 the most significant), times `C(p, ceil(p / 2))`, plus the rank of
//! the set of the first player's stones among the `p` stones listed column by column from the
//! bottom (the colex rank: the sum over its members `j_1 < j_2 < ...` of `C(j_t, t)`).

use crate::error::Error;
use crate::game::{GravityGeometry, Rules, Status};
use std::borrow::Cow;
use std::sync::OnceLock;

/// How positions of a gravity board up to a depth are numbered (see the module's
/// documentation).
#[derive(Clone, Debug)]
pub struct Ranking {
    depth: u32,
    /// `ways[c][s]`: the height lists of columns `c..` that sum to `s`.
    ways: Vec<Vec<u64>>,
    /// `choose[n][k]` for `n` up to the depth.
    choose: Vec<Vec<u64>>,
    /// The first rank of each ply, and the count after the last.
    starts: Vec<u64>,
}

impl Ranking {
    /// The numbering of `geometry`'s positions up to `depth` plies.
    pub fn new(geometry: &GravityGeometry, depth: u32) -> Ranking {
        let heights: Vec<u32> = geometry.columns().iter().map(|c| c.len() as u32).collect();
        let d = depth as usize;
        let mut ways = vec![vec![0u64; d + 1]; heights.len() + 1];
        ways[heights.len()][0] = 1;
        for c in (0..heights.len()).rev() {
            for s in 0..=d {
                ways[c][s] = (0..=(heights[c] as usize).min(s))
                    .map(|h| ways[c + 1][s - h])
                    .fold(0u64, u64::saturating_add);
            }
        }
        let mut choose = vec![vec![0u64; d + 1]; d + 1];
        for n in 0..=d {
            choose[n][0] = 1;
            for k in 1..=n {
                choose[n][k] =
                    choose[n - 1][k - 1].saturating_add(choose[n - 1].get(k).copied().unwrap_or(0));
            }
        }
        let mut starts = vec![0u64];
        for p in 0..=d {
            let block = ways[0][p].saturating_mul(choose[p][p.div_ceil(2)]);
            starts.push(starts[p].saturating_add(block));
        }
        Ranking {
            depth,
            ways,
            choose,
            starts,
        }
    }

    /// The number of ranks: every position up to the depth has one below it.
    pub fn len(&self) -> u64 {
        self.starts[self.depth as usize + 1]
    }

    /// Whether there is no rank (never: the empty board has one).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The rank of the position of `geometry` where the first player holds `first` and the
    /// second `second`, of at most the depth's plies (a gravity position).
    pub fn rank(&self, geometry: &GravityGeometry, first: u128, second: u128) -> u64 {
        let filled = first | second;
        let p = filled.count_ones() as usize;
        debug_assert!(p <= self.depth as usize);
        let mut heights_rank = 0u64;
        let mut left = p;
        let mut colors_rank = 0u64;
        let (mut stone, mut firsts) = (0usize, 0usize);
        for (c, column) in geometry.columns().iter().enumerate() {
            let h = column.iter().take_while(|&&x| filled >> x & 1 == 1).count();
            for below in 0..h {
                heights_rank += self.ways[c + 1][left - below];
            }
            left -= h;
            for &x in &column[..h] {
                if first >> x & 1 == 1 {
                    firsts += 1;
                    colors_rank += self.choose[stone].get(firsts).copied().unwrap_or(0);
                }
                stone += 1;
            }
        }
        self.starts[p] + heights_rank * self.choose[p][p.div_ceil(2)] + colors_rank
    }

    /// The rank of `pos` as the book keeps it: the least of its images' ranks. `None` for a
    /// position past the depth or not of a gravity board.
    pub fn rank_of<G: Rules>(&self, pos: &G) -> Option<u64> {
        if pos.ply() > self.depth {
            return None;
        }
        (0..pos.symmetry_count().max(1))
            .map(|i| {
                let image = if i == 0 { *pos } else { pos.image(i) };
                let (geometry, mover, follower) = image.gravity_position()?;
                let (first, second) = if image.ply() % 2 == 0 {
                    (mover, follower)
                } else {
                    (follower, mover)
                };
                Some(self.rank(geometry, first, second))
            })
            .try_fold(u64::MAX, |least, r| r.map(|r| least.min(r)))
    }
}

/// A compact book in memory (see the module's documentation).
pub struct CompactBook {
    game: String,
    depth: u32,
    /// The ranks the file numbers, and their numbering, made from the board of the first
    /// position looked up (a file names its game, not its board's description).
    ranks: u64,
    ranking: OnceLock<Ranking>,
    /// The file's words, read where they lie (the built-in book is not copied at start): from
    /// `body`, a bit per rank in `present_words` words, then the scores.
    data: Cow<'static, [u8]>,
    body: usize,
    present_words: usize,
    /// The set bits before each run of 8 words.
    counts: Vec<u32>,
    score_bits: u32,
    score_min: i32,
    entries: usize,
}

impl std::fmt::Debug for CompactBook {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "CompactBook({}, depth {}, {} entries, {} bytes)",
            self.game,
            self.depth,
            self.entries,
            self.bytes()
        )
    }
}

const MAGIC: &str = "inarow-book 3";

impl CompactBook {
    /// The book of the positions `scored` (rank and score, any order, one per rank) of `game`
    /// (its name) numbered by `ranking`.
    ///
    /// # Errors
    /// [`Error::Input`] for a rank out of range or given twice.
    pub fn new(
        game: &str,
        ranking: Ranking,
        mut scored: Vec<(u64, i32)>,
    ) -> Result<CompactBook, Error> {
        scored.sort_unstable();
        if scored.windows(2).any(|w| w[0].0 == w[1].0)
            || scored.last().is_some_and(|&(r, _)| r >= ranking.len())
        {
            return Err(Error::Input("a rank out of range or given twice".into()));
        }
        let (lo, hi) = scored
            .iter()
            .fold((0, 0), |(lo, hi), &(_, s)| (s.min(lo), s.max(hi)));
        let score_bits = (32 - ((hi - lo) as u32).leading_zeros()).max(1);
        let mut present = vec![0u64; ranking.len().div_ceil(64) as usize];
        let mut scores = vec![0u64; (scored.len() * score_bits as usize).div_ceil(64)];
        for (i, &(rank, score)) in scored.iter().enumerate() {
            present[(rank / 64) as usize] |= 1 << (rank % 64);
            put_bits(
                &mut scores,
                i * score_bits as usize,
                score_bits,
                (score - lo) as u64,
            );
        }
        let data: Vec<u8> = present
            .iter()
            .chain(&scores)
            .flat_map(|w| w.to_le_bytes())
            .collect();
        let book = CompactBook {
            game: game.to_string(),
            depth: ranking.depth,
            ranks: ranking.len(),
            ranking: OnceLock::new(),
            counts: run_counts(&data, present.len()).0,
            data: Cow::Owned(data),
            body: 0,
            present_words: present.len(),
            score_bits,
            score_min: lo,
            entries: scored.len(),
        };
        let _ = book.ranking.set(ranking);
        Ok(book)
    }

    /// The body's word `i` (the present bits' first, then the scores').
    fn word(&self, i: usize) -> u64 {
        let at = self.body + 8 * i;
        u64::from_le_bytes(self.data[at..at + 8].try_into().expect("8 bytes"))
    }

    /// The positions in the book.
    pub fn len(&self) -> usize {
        self.entries
    }

    /// Whether the book holds no position.
    pub fn is_empty(&self) -> bool {
        self.entries == 0
    }

    /// The game the book is for.
    pub fn game(&self) -> &str {
        &self.game
    }

    /// Every position with at most this many plies (not over) is in the book.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The bytes the book takes in memory (and, within its header, on disk).
    pub fn bytes(&self) -> usize {
        (self.data.len() - self.body) + 4 * self.counts.len()
    }

    /// The exact score of `pos`'s side to move, if the book holds `pos`.
    pub fn score<G: Rules>(&self, pos: &G) -> Option<i32> {
        if pos.ply() > self.depth || pos.status() != Status::Ongoing {
            return None;
        }
        let ranking = match self.ranking.get() {
            Some(r) => r,
            None => {
                let ranking = Ranking::new(pos.gravity_position()?.0, self.depth);
                self.ranking.get_or_init(|| ranking)
            }
        };
        // A board whose ranks are not the file's (a damaged header) holds nothing.
        if ranking.len() != self.ranks {
            return None;
        }
        self.score_at(ranking.rank_of(pos)?)
    }

    /// The score of the position of rank `rank`, if the book holds it.
    pub fn score_at(&self, rank: u64) -> Option<i32> {
        let word = (rank / 64) as usize;
        let bit = rank % 64;
        if word >= self.present_words {
            return None;
        }
        let w = self.word(word);
        if w >> bit & 1 == 0 {
            return None;
        }
        let run = word / 8;
        let before = self.counts[run]
            + (run * 8..word)
                .map(|i| self.word(i).count_ones())
                .sum::<u32>()
            + (w & ((1u64 << bit) - 1)).count_ones();
        // The score's bits, which may straddle two words.
        let at = before as usize * self.score_bits as usize;
        let (i, shift) = (self.present_words + at / 64, at % 64);
        let mut value = self.word(i) >> shift;
        if shift + self.score_bits as usize > 64 {
            value |= self.word(i + 1) << (64 - shift);
        }
        let value = value & ((1u64 << self.score_bits) - 1);
        Some(value as i32 + self.score_min)
    }

    /// The file's bytes.
    pub fn to_bytes(&self) -> Vec<u8> {
        let body = &self.data[self.body..];
        let mut out = format!(
            "{MAGIC}\ngame {}\ndepth {}\nentries {}\nranks {}\nscore-bits {}\nscore-min {}\ncrc32 {:08x}\n\n",
            self.game,
            self.depth,
            self.entries,
            self.ranks,
            self.score_bits,
            self.score_min,
            crc32fast::hash(body)
        )
        .into_bytes();
        out.extend_from_slice(body);
        out
    }

    /// Whether `bytes` begin as a compact book's.
    pub fn is_compact(bytes: &[u8]) -> bool {
        bytes.starts_with(MAGIC.as_bytes()) && bytes.get(MAGIC.len()) == Some(&b'\n')
    }

    /// Reads what [`CompactBook::to_bytes`] writes, for the game named `game`, and keeps the
    /// bytes (borrowed for the built-in book: nothing is copied).
    ///
    /// # Errors
    /// [`Error::File`] saying what is wrong: another game or format, a damaged or truncated
    /// file.
    pub fn parse(
        data: impl Into<Cow<'static, [u8]>>,
        shown: &str,
        game: &str,
    ) -> Result<CompactBook, Error> {
        use super::file::{crc_field, field, header_fields, number_field};
        let data = data.into();
        let bytes = &data[..];
        let bad = |why: String| Error::File(format!("book '{shown}' is corrupt: {why}"));
        let (fields, start) = header_fields(bytes, MAGIC).map_err(|why| {
            Error::File(format!("'{shown}' is not a compact inarow book ({why})"))
        })?;
        let text = |name: &str| {
            field(&fields, name)
                .map(str::to_string)
                .map_err(|e| bad(e.to_string()))
        };
        let number = |name: &str| number_field(&fields, name).map_err(|e| bad(e.to_string()));
        let book_game = text("game")?;
        if book_game != game {
            return Err(Error::File(format!(
                "book '{shown}' is for {book_game}, not for {game}"
            )));
        }
        let depth = number("depth")? as u32;
        let ranks = number("ranks")?;
        let entries = number("entries")? as usize;
        if entries as u64 > ranks || ranks > 1 << 40 {
            return Err(bad(format!("{entries} entries in {ranks} ranks")));
        }
        let score_bits = number("score-bits")? as u32;
        let score_min: i32 = text("score-min")?
            .parse()
            .map_err(|_| bad("score-min is no number".into()))?;
        if !(1..=16).contains(&score_bits) {
            return Err(bad(format!("score-bits {score_bits} is out of range")));
        }
        let crc = crc_field(&fields).map_err(|e| bad(e.to_string()))?;
        let body = &bytes[start..];
        let present_words = ranks.div_ceil(64) as usize;
        let score_words = (entries * score_bits as usize).div_ceil(64);
        if body.len() != 8 * (present_words + score_words) {
            return Err(bad(format!(
                "{} bytes of data, expected {} (truncated?)",
                body.len(),
                8 * (present_words + score_words)
            )));
        }
        if crc32fast::hash(body) != crc {
            return Err(bad("checksum mismatch".into()));
        }
        let (counts, total) = run_counts(body, present_words);
        if total as usize != entries {
            return Err(bad("the bits do not count the entries".into()));
        }
        Ok(CompactBook {
            game: book_game,
            depth,
            ranks,
            ranking: OnceLock::new(),
            counts,
            body: start,
            data,
            present_words,
            score_bits,
            score_min,
            entries,
        })
    }
}

/// The set bits before each run of 8 of the first `words` little-endian words of `body`, and
/// in all of them: a pass over the book at its first lookup (7 MB for 12 plies of 7x6).
fn run_counts(body: &[u8], words: usize) -> (Vec<u32>, u32) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("popcnt") {
        // SAFETY: the processor has the instruction, as just checked.
        return unsafe { run_counts_popcnt(body, words) };
    }
    count_runs(body, words)
}

/// [`run_counts`] with the processor's own bit count (the baseline x86-64 build has none: a
/// third of the book's load time went to counting by shifts).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "popcnt")]
unsafe fn run_counts_popcnt(body: &[u8], words: usize) -> (Vec<u32>, u32) {
    count_runs(body, words)
}

#[inline(always)]
fn count_runs(body: &[u8], words: usize) -> (Vec<u32>, u32) {
    let mut counts = Vec::with_capacity(words / 8 + 1);
    let mut total = 0u32;
    for run in body[..8 * words].chunks(64) {
        counts.push(total);
        total += run
            .chunks_exact(8)
            .map(|w| u64::from_le_bytes(w.try_into().expect("8 bytes")).count_ones())
            .sum::<u32>();
    }
    (counts, total)
}

fn put_bits(words: &mut [u64], at: usize, bits: u32, value: u64) {
    let (i, shift) = (at / 64, at % 64);
    words[i] |= value << shift;
    if shift + bits as usize > 64 {
        words[i + 1] |= value >> (64 - shift);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::{Connect, Grid, Runtime};

    type C4 = Connect<u64, Runtime>;

    fn board(w: u32, h: u32) -> C4 {
        Connect::new(Runtime::new(Grid::new(w, h, 4).unwrap()))
    }

    fn positions(start: C4, depth: u32) -> Vec<C4> {
        super::super::book::positions_by_ply(start, depth).concat()
    }

    #[test]
    fn ranks_are_distinct_below_the_count_and_one_per_mirror_pair() {
        for (w, h, depth) in [(7, 6, 7), (5, 4, 20), (4, 4, 16)] {
            let start = board(w, h);
            let geometry = start.gravity_position().unwrap().0;
            let ranking = Ranking::new(geometry, depth);
            let all = positions(start, depth);
            let mut ranks: Vec<u64> = all.iter().map(|p| ranking.rank_of(p).unwrap()).collect();
            for (p, &r) in all.iter().zip(&ranks) {
                assert!(r < ranking.len());
                assert_eq!(
                    ranking.rank_of(&p.image(1)),
                    Some(r),
                    "a mirror image ranks the same"
                );
            }
            ranks.sort_unstable();
            ranks.dedup();
            assert_eq!(ranks.len(), all.len(), "{w}x{h}: one rank per position");
        }
    }

    #[test]
    fn a_compact_book_gives_every_score_and_nothing_else() {
        let start = board(5, 4);
        let geometry = start.gravity_position().unwrap().0;
        let depth = 9;
        let all = positions(start, depth);
        // Any score will do for the format: one drawn from the key.
        let score = |p: &C4| (p.canonical_key() % 37) as i32 - 18;
        let ranking = Ranking::new(geometry, depth);
        let scored = all
            .iter()
            .map(|p| (ranking.rank_of(p).unwrap(), score(p)))
            .collect();
        let book = CompactBook::new("connect4:5x4:k4", ranking, scored).unwrap();
        assert_eq!(book.len(), all.len());
        let read = CompactBook::parse(book.to_bytes(), "test", "connect4:5x4:k4").unwrap();
        for p in &all {
            assert_eq!(read.score(p), Some(score(p)));
            assert_eq!(read.score(&p.image(1)), Some(score(p)));
        }
        // Past the depth, or over: not in the book.
        let deeper = positions(start, depth + 1);
        assert!(
            deeper
                .iter()
                .filter(|p| p.ply() > depth)
                .all(|p| read.score(p).is_none())
        );
        // A damaged or truncated file is refused in one line.
        let mut bytes = book.to_bytes();
        let last = bytes.len() - 1;
        bytes[last] ^= 1;
        let e = CompactBook::parse(bytes, "test", "connect4:5x4:k4")
            .unwrap_err()
            .to_string();
        assert!(e.contains("checksum") && !e.contains('\n'), "{e}");
        let e = CompactBook::parse(book.to_bytes()[..last].to_vec(), "test", "connect4:5x4:k4")
            .unwrap_err();
        assert!(e.to_string().contains("truncated"), "{e}");
        let e = CompactBook::parse(book.to_bytes(), "test", "connect4:7x6:k4").unwrap_err();
        assert!(e.to_string().contains("not for"), "{e}");
    }
}
