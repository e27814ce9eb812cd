//! Builds in half a byte per index ([`crate::search::retro::nibbles`]), for boards whose bytes
//! do not fit in memory but whose half-bytes do: PopOut 6x5's 31.3 G indices in 15.6 GB.
//!
//! Each round writes the positions it decided to `FILE.round-R` (R the distance), a block per
//! chunk of [`CHUNK`] indices in order: a little-endian `u32` count, then the offsets in the chunk
//! as `u16`s, or a bitset of the chunk when that is shorter. The last round's list done, the
//! database is written in one pass that joins the cells, the lists (their distances) and the
//! rules (where the game is over), then the lists go. Between rounds the cells, the round, the
//! counts so far and the lists' checksums are saved in `FILE.partial` (field `compact`); a new
//! build of the same file resumes from it.

use super::{
    BuildOptions, BuildReport, PARTIAL_MAGIC, checksum, db_header, for_each_frontier_block,
    frontier_from, header_crc, number, partial_header,
};
use crate::engine::knowledge::file::{
    read_head, remove_build_files, with_suffix, write_atomically_patched, write_atomically_with,
};
use crate::error::Error;
use crate::game::Indexed;
use crate::search::ranks::Solo;
use crate::search::retro::nibbles::{self, NibbleCells, Nibbles, decided_byte};
use crate::search::retro::rounds::{self, Storage};
use crate::search::retro::{CHUNK, Progress, Summary, in_parallel, value_with};
use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering::Relaxed};
use std::time::Duration;

/// Memory besides the cells: the chunks being written, and I/O buffers.
const BUFFERS: u64 = 16 << 20;

/// Chunks joined at a time when the database is written.
const BATCH: u64 = 64;

/// A chunk's list of offsets is a bitset from this many on.
const AS_BITSET: usize = (CHUNK / 16) as usize;

/// Bytes of memory a compact build of `len` indices holds.
pub(super) fn memory_needed(len: u64) -> u64 {
    nibbles::memory_needed(len) + BUFFERS
}

/// Where the positions decided at distance `round` are listed while `out` is built.
fn round_path(out: &Path, round: u32) -> PathBuf {
    with_suffix(out, &format!(".round-{round}"))
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::File(format!("cannot use '{}': {e}", path.display()))
}

/// The blocks of one round's list, written in chunk order whatever order the chunks finish in.
struct List {
    file: BufWriter<File>,
    /// The next chunk to write, and the chunks done before their turn.
    next: u64,
    waiting: BTreeMap<u64, Vec<u8>>,
    crc: crc32fast::Hasher,
    failed: Option<std::io::Error>,
}

impl List {
    /// The block of a chunk's offsets (in increasing order).
    fn block(offsets: &[u16]) -> Vec<u8> {
        let mut block = (offsets.len() as u32).to_le_bytes().to_vec();
        if offsets.len() < AS_BITSET {
            block.extend(offsets.iter().flat_map(|o| o.to_le_bytes()));
        } else {
            let mut bits = vec![0u8; CHUNK as usize / 8];
            offsets
                .iter()
                .for_each(|&o| bits[o as usize / 8] |= 1 << (o % 8));
            block.extend(bits);
        }
        block
    }

    fn add(&mut self, chunk: u64, block: Vec<u8>) {
        self.waiting.insert(chunk, block);
        while let Some(block) = self.waiting.remove(&self.next) {
            self.crc.update(&block);
            if self.failed.is_none()
                && let Err(e) = self.file.write_all(&block)
            {
                self.failed = Some(e);
            }
            self.next += 1;
        }
    }
}

/// Reads the next block of a round's list into `offsets`.
fn read_block(from: &mut impl Read, offsets: &mut Vec<u16>) -> std::io::Result<()> {
    let mut count = [0u8; 4];
    from.read_exact(&mut count)?;
    let count = u32::from_le_bytes(count) as usize;
    offsets.clear();
    // A list of fewer than AS_BITSET offsets, or the bitset: at most a bitset's bytes.
    let mut block = [0u8; CHUNK as usize / 8];
    let data = &mut block[..if count < AS_BITSET {
        2 * count
    } else {
        CHUNK as usize / 8
    }];
    from.read_exact(data)?;
    if count < AS_BITSET {
        offsets.extend(
            data.chunks_exact(2)
                .map(|o| u16::from_le_bytes([o[0], o[1]])),
        );
    } else {
        for (i, &byte) in data.iter().enumerate() {
            let mut bits = byte;
            while bits != 0 {
                offsets.push((i * 8) as u16 + bits.trailing_zeros() as u16);
                bits &= bits - 1;
            }
        }
    }
    if offsets.len() != count {
        return Err(std::io::Error::other(
            "a block's count does not match its bits",
        ));
    }
    Ok(())
}

/// What a compact build knows besides its cells.
#[derive(Clone, Debug, Default)]
struct BuildState {
    /// Positions over, and those decided so far (at distance `1..round`).
    summary: Summary,
    /// Positions not yet decided.
    undecided: u64,
    /// The checksums of the lists of rounds `1..round`.
    lists: Vec<u32>,
}

fn partial_fields<G: Indexed>(game: &G, len: u64, round: u32, tally: &BuildState) -> String {
    let s = &tally.summary;
    let lists: Vec<String> = tally.lists.iter().map(|c| format!("{c:08x}")).collect();
    format!(
        "{PARTIAL_MAGIC}\ngame {}\ncells {len}\nround {round}\ncompact yes\nwins {}\nlosses {}\n\
         draws {}\nundecided {}\nlongest {}\nlists {}\n",
        game.name(),
        s.wins,
        s.losses,
        s.draws,
        tally.undecided,
        s.longest,
        if lists.is_empty() {
            "-".to_string()
        } else {
            lists.join(",")
        },
    )
}

fn save<G: Indexed>(
    partial: &Path,
    game: &G,
    len: u64,
    cells: &Nibbles,
    tally: &BuildState,
) -> Result<(), Error> {
    let fields = partial_fields(game, len, cells.round, tally);
    let mut crc = crc32fast::Hasher::new();
    crc.update(fields.as_bytes());
    for_each_frontier_block(&cells.words, |b| {
        crc.update(b);
        Ok(())
    })
    .expect("hashing does not fail");
    let header = format!("{fields}crc32 {:08x}\n\n", crc.finalize());
    write_atomically_with(
        partial,
        header.as_bytes(),
        cells.words.len() as u64 * 8,
        |w| for_each_frontier_block(&cells.words, |b| w.write_all(b)),
    )
}

/// Whether the partial file at `path` is a compact build's.
pub(super) fn is_compact(path: &Path) -> bool {
    read_head(path)
        .ok()
        .and_then(|head| super::header_fields(&head, PARTIAL_MAGIC).ok())
        .is_some_and(|(f, _)| f.contains_key("compact"))
}

/// The saved state, read a block at a time (the cells are most of the memory there is).
fn load<G: Indexed>(
    partial: &Path,
    out: &Path,
    game: &G,
    len: u64,
) -> Result<Option<(Nibbles, BuildState)>, Error> {
    let afresh = format!("remove it and {}.round-* to start afresh", out.display());
    let head = match read_head(partial) {
        Ok(head) => head,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io_error(partial)(e)),
    };
    let what = format!("partial build '{}'", partial.display());
    let (f, start) = partial_header(&head, &what, game, len, &afresh)?;
    let round = number(&f, "round", &what)? as u32;
    let lists: Vec<u32> = match f.get("lists").map(String::as_str) {
        Some("-") => Vec::new(),
        Some(l) => l
            .split(',')
            .map(|c| u32::from_str_radix(c, 16))
            .collect::<Result<_, _>>()
            .map_err(|_| Error::File(format!("{what} is damaged; {afresh}")))?,
        None => return Err(Error::File(format!("{what} is damaged; {afresh}"))),
    };
    let tally = BuildState {
        summary: Summary {
            wins: number(&f, "wins", &what)?,
            losses: number(&f, "losses", &what)?,
            draws: number(&f, "draws", &what)?,
            longest: number(&f, "longest", &what)? as u32,
        },
        undecided: number(&f, "undecided", &what)?,
        lists,
    };
    if tally.lists.len() + 1 != round as usize {
        return Err(Error::File(format!("{what} is damaged; {afresh}")));
    }
    for r in 1..round {
        if !round_path(out, r).exists() {
            return Err(Error::File(format!(
                "{what} needs '{}', which is missing; {afresh}",
                round_path(out, r).display()
            )));
        }
    }
    let mut crc = header_crc(&head[..start])
        .ok_or_else(|| Error::File(format!("{what} is damaged; {afresh}")))?;
    let mut file = File::open(partial).map_err(io_error(partial))?;
    let body_len = file.metadata().map_err(io_error(partial))?.len() - start as u64;
    let words_len = len.div_ceil(16);
    if body_len != words_len * 8 {
        return Err(Error::File(format!("{what} is damaged; {afresh}")));
    }
    file.seek(SeekFrom::Start(start as u64))
        .map_err(io_error(partial))?;
    let mut words: Vec<std::sync::atomic::AtomicU64> =
        crate::search::retro::allocate(words_len, "cells")?;
    let mut reader = BufReader::with_capacity(1 << 20, file);
    let mut block = vec![0u8; 1 << 20];
    for chunk in words.chunks_mut(block.len() / 8) {
        let bytes = &mut block[..chunk.len() * 8];
        reader.read_exact(bytes).map_err(io_error(partial))?;
        crc.update(bytes);
        for (w, b) in chunk.iter_mut().zip(frontier_from(bytes)) {
            *w = b;
        }
    }
    if crc.finalize() != checksum(&f, &what)? {
        return Err(Error::File(format!("{what} is damaged; {afresh}")));
    }
    Ok(Some((Nibbles { words, round }, tally)))
}

/// The half-byte cells of a compact build as its rounds keep them: each round lists the
/// positions it expands in `FILE.round-R` ([`List`]) and counts them in the tally.
struct Compact<'a> {
    out: &'a Path,
    len: u64,
    cells: Nibbles,
    tally: BuildState,
}

impl Storage for Compact<'_> {
    type Cells<'a>
        = NibbleCells<'a>
    where
        Self: 'a;

    fn round(&self) -> u32 {
        self.cells.round
    }

    /// The frontier is in the cells: only the round finds it.
    fn has_frontier(&self) -> bool {
        true
    }

    fn decided(&self) -> u64 {
        self.tally.summary.wins + self.tally.summary.losses
    }

    fn run_round(
        &mut self,
        mut expand: impl FnMut(&NibbleCells<'_>) -> u64,
    ) -> Result<bool, Error> {
        let round = self.cells.round;
        let path = round_path(self.out, round);
        let tmp = with_suffix(&path, ".tmp");
        let file = File::create(&tmp).map_err(io_error(&tmp))?;
        let list = Mutex::new(List {
            file: BufWriter::with_capacity(1 << 20, file),
            next: 0,
            waiting: BTreeMap::new(),
            crc: crc32fast::Hasher::new(),
            failed: None,
        });
        let expanded = AtomicU64::new(0);
        expand(&self.cells.round_cells(self.len, &|chunk, offsets| {
            expanded.fetch_add(offsets.len() as u64, Relaxed);
            let block = List::block(offsets);
            list.lock()
                .expect("no thread panics holding it")
                .add(chunk, block);
        }));
        self.cells.advance();
        let decided = expanded.into_inner();
        let list = list.into_inner().expect("no thread panics holding it");
        if let Some(e) = list.failed {
            return Err(io_error(&tmp)(e));
        }
        list.file
            .into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
            .map_err(io_error(&tmp))?;
        if decided == 0 {
            let _ = fs::remove_file(&tmp);
            return Ok(false);
        }
        fs::rename(&tmp, &path).map_err(io_error(&path))?;
        let tally = &mut self.tally;
        tally.lists.push(list.crc.finalize());
        let s = &mut tally.summary;
        match round % 2 {
            1 => s.wins += decided,
            _ => s.losses += decided,
        }
        s.longest = round;
        tally.undecided -= decided;
        Ok(true)
    }

    /// Saving the cells takes a while: at most a tenth of the time goes to it.
    fn save_due(&self, since: Duration, every: Duration, cost: Duration) -> bool {
        since >= every.max(cost * 9)
    }
}

pub(super) fn build<G: Indexed>(
    game: &G,
    out: &Path,
    options: &BuildOptions,
    progress: &(dyn Fn(Progress) + Sync),
    len: u64,
) -> Result<BuildReport, Error> {
    if memory_needed(len) > options.mem_bytes {
        return Err(Error::Memory(format!(
            "a compact strong solution of {} needs {} MiB ({len} indices: half a byte each), \
             more than the memory budget of {} MiB (--mem-mb)",
            game.name(),
            memory_needed(len).div_ceil(1 << 20),
            options.mem_bytes >> 20
        )));
    }
    let partial = with_suffix(out, ".partial");
    let saved = load(&partial, out, game, len)?;
    let resumed_at = saved.as_ref().map(|(cells, _)| cells.round);
    let (cells, tally) = match saved {
        Some(state) => state,
        None => {
            let done = AtomicU64::new(0);
            let (cells, summary, undecided) = Nibbles::new(game, len, options.threads, &|n| {
                progress(Progress::Init {
                    done: done.fetch_add(n, Relaxed) + n,
                    total: len,
                })
            })?;
            let tally = BuildState {
                summary,
                undecided,
                lists: Vec::new(),
            };
            (cells, tally)
        }
    };
    let mut storage = Compact {
        out,
        len,
        cells,
        tally,
    };
    let run = rounds::run(
        game,
        &mut storage,
        &Solo,
        options.threads,
        progress,
        &options.checkpoints(),
        |r| save(&partial, game, len, &r.cells, &r.tally),
    )?;
    if let Some(why) = run.stopped {
        return Ok(BuildReport::stopped(
            why,
            resumed_at,
            run.rounds,
            len,
            Vec::new(),
        ));
    }
    let Compact { cells, tally, .. } = storage;
    let mut summary = tally.summary.clone();
    summary.draws += tally.undecided;
    let start = write(
        game,
        out,
        len,
        &cells,
        &tally,
        &summary,
        options.threads,
        progress,
    )?;
    remove_build_files(out);
    for r in 1..=summary.longest + 1 {
        let _ = fs::remove_file(round_path(out, r));
        let _ = fs::remove_file(with_suffix(&round_path(out, r), ".tmp"));
    }
    Ok(BuildReport {
        summary,
        resumed_at,
        rounds: run.rounds,
        cells: len,
        start: value_with(game, |_| Some(start)),
        stopped: None,
        traffic: Vec::new(),
    })
}

/// Writes the database: the cells joined with the lists of every round and with the rules,
/// checked against the counts the rounds kept (`summary`) and the lists' checksums. Returns
/// the start's byte.
#[allow(clippy::too_many_arguments)]
fn write<G: Indexed>(
    game: &G,
    out: &Path,
    len: u64,
    cells: &Nibbles,
    tally: &BuildState,
    summary: &Summary,
    threads: usize,
    progress: &(dyn Fn(Progress) + Sync),
) -> Result<u8, Error> {
    let rounds = summary.longest;
    // The lists checked first, so that a damaged one is named before anything is written.
    for r in 1..=rounds {
        let path = round_path(out, r);
        let (_, crc) = super::sliced::file_crc(&path)?;
        if crc != tally.lists[r as usize - 1] {
            return Err(Error::File(format!(
                "'{}' is damaged; remove {}.partial and {}.round-* to start afresh",
                path.display(),
                out.display(),
                out.display()
            )));
        }
    }
    let mut lists = (1..=rounds)
        .map(|r| {
            let path = round_path(out, r);
            File::open(&path)
                .map(|f| BufReader::with_capacity(1 << 16, f))
                .map_err(io_error(&path))
        })
        .collect::<Result<Vec<_>, _>>()?;
    // The counts and the checksum go in the header once the body is written.
    let header = db_header(game, len, summary, 0);
    let start_index = game.index();
    let mut start = 0;
    let chunks = len.div_ceil(CHUNK);
    let afresh = format!(
        "remove {0}.partial and {0}.round-* to start afresh",
        out.display()
    );
    // The lists' and the cells' faults, told apart from the file's own (a full disk).
    let mut damage = None;
    let mut damaged = |what: String| {
        damage = Some(format!("{what}; {afresh}"));
        std::io::Error::other("damaged")
    };
    let result = write_atomically_patched(out, header.as_bytes(), len, |w| {
        let mut found = Summary::default();
        let mut crc = crc32fast::Hasher::new();
        let mut bytes = vec![0u8; (BATCH * CHUNK) as usize];
        let mut offsets = vec![Vec::new(); BATCH as usize * rounds as usize];
        for batch in (0..chunks).step_by(BATCH as usize) {
            let count = BATCH.min(chunks - batch);
            for c in 0..count {
                for (r, list) in lists.iter_mut().enumerate() {
                    read_block(list, &mut offsets[(c * u64::from(rounds)) as usize + r]).map_err(
                        |e| {
                            damaged(format!(
                                "'{}' is damaged ({e})",
                                round_path(out, r as u32 + 1).display()
                            ))
                        },
                    )?;
                }
            }
            let first = batch * CHUNK;
            let end = (first + count * CHUNK).min(len);
            let batch_bytes = &mut bytes[..(end - first) as usize];
            batch_bytes.fill(0);
            let bad = std::sync::atomic::AtomicU64::new(u64::MAX);
            let parts: Vec<Mutex<&mut [u8]>> = batch_bytes
                .chunks_mut(CHUNK as usize)
                .map(Mutex::new)
                .collect();
            let counted = Mutex::new(Summary::default());
            in_parallel(threads, count, |c| {
                let mut part = parts[c as usize].lock().expect("one thread per part");
                for r in 0..rounds as usize {
                    for &o in &offsets[c as usize * rounds as usize + r] {
                        part[o as usize] = decided_byte(r as u32 + 1);
                    }
                }
                if let Err(index) = cells.finish_bytes(game, first + c * CHUNK, &mut part) {
                    bad.fetch_min(index, Relaxed);
                }
                let mut here = Summary::default();
                part.iter().for_each(|&b| here.add(b));
                counted
                    .lock()
                    .expect("no thread panics holding it")
                    .merge(&here);
            });
            found.merge(&counted.into_inner().expect("no thread panics holding it"));
            drop(parts);
            if bad.into_inner() != u64::MAX {
                return Err(damaged(format!(
                    "the lists of the rounds ('{}.round-*') do not match the saved cells",
                    out.display()
                )));
            }
            if (first..end).contains(&start_index) {
                start = batch_bytes[(start_index - first) as usize];
            }
            crc.update(batch_bytes);
            w.write_all(batch_bytes)?;
            progress(Progress::Write {
                done: end,
                total: len,
            });
        }
        // Their checksums were checked before: all that is left is that nothing is left.
        for (r, list) in lists.iter_mut().enumerate() {
            let mut rest = Vec::new();
            list.read_to_end(&mut rest)?;
            if !rest.is_empty() {
                return Err(damaged(format!(
                    "'{}' is damaged",
                    round_path(out, r as u32 + 1).display()
                )));
            }
        }
        if &found != summary {
            return Err(damaged(format!(
                "the database's counts ({found:?}) do not match the rounds' ({summary:?})"
            )));
        }
        Ok(Some(
            db_header(game, len, summary, crc.finalize()).into_bytes(),
        ))
    });
    match (result, damage) {
        (_, Some(why)) => Err(Error::File(why)),
        (Err(e), None) => Err(e),
        (Ok(()), None) => Ok(start),
    }
}
