//! Builds under a memory budget smaller than a byte per index: the cells live in `FILE.cells`
//! on disk and are worked on a slice (a range of indices) at a time. Each round reads every
//! slice, expands the whole frontier (kept in memory: two bits per index) once per slice,
//! applies the news that falls in that slice, and writes the slice to a new cells file, renamed
//! over the old at the round's end; the frontier and the round are then saved in
//! `FILE.partial`. An interrupted build resumes from the last complete round.

use super::{
    BuildOptions, BuildReport, PARTIAL_MAGIC, db_header, for_each_block, for_each_frontier_block,
    frontier_from, number, saved_state,
};
use crate::engine::knowledge::file::{
    check_room, remove_build_files, with_suffix, write_atomically_with, write_error,
};
use crate::error::Error;
use crate::game::Indexed;
use crate::search::ranks::Solo;
use crate::search::retro::rounds::{self, Storage};
use crate::search::retro::{
    ByteCells, Frontier, Progress, Summary, allocate, finished, init_cells, value_with,
};
use std::fs::{self, File};
use std::io::{BufReader, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::Path;
use std::sync::atomic::{AtomicU8, AtomicU64, Ordering::Relaxed};

/// Memory besides the frontiers and the slice: I/O buffers.
const BUFFERS: u64 = 8 << 20;

/// The largest slice the budget allows after the two frontiers (`None`: not even a MiB).
pub(super) fn slice_len(len: u64, mem_bytes: u64) -> Option<u64> {
    let frontiers = 2 * len.div_ceil(64) * 8;
    let slice = mem_bytes.checked_sub(frontiers + BUFFERS)?;
    (slice >= 1 << 20).then_some(slice.min(len))
}

fn io_error(path: &Path) -> impl Fn(std::io::Error) -> Error + '_ {
    move |e| Error::File(format!("cannot use '{}': {e}", path.display()))
}

/// The saved round and frontier, if the partial file is one of a sliced build.
fn read_saved<G: Indexed>(
    partial: &Path,
    cells_path: &Path,
    game: &G,
    len: u64,
) -> Result<Option<(u32, Vec<AtomicU64>)>, Error> {
    let afresh = "remove it and the .cells file to start afresh";
    let body_len = len.div_ceil(64) * 8;
    let Some((fields, body)) = saved_state(partial, game, len, body_len, afresh)? else {
        return Ok(None);
    };
    let what = format!("partial build '{}'", partial.display());
    let want = number(&fields, "cells-crc32", &what)? as u32;
    // A build stopped between saving the partial file and renaming the new cells file over the
    // old one left the cells that go with it under the temporary name.
    let next = with_suffix(cells_path, ".tmp");
    if file_crc(cells_path)? != (len, want) {
        if !next.exists() || file_crc(&next)? != (len, want) {
            return Err(Error::File(format!(
                "'{}' does not match {what}; {afresh}",
                cells_path.display()
            )));
        }
        fs::rename(&next, cells_path).map_err(io_error(cells_path))?;
    }
    Ok(Some((
        number(&fields, "round", &what)? as u32,
        frontier_from(&body),
    )))
}

/// The size and crc32 of a file.
pub(super) fn file_crc(path: &Path) -> Result<(u64, u32), Error> {
    let mut crc = crc32fast::Hasher::new();
    let mut file = File::open(path).map_err(io_error(path))?;
    let mut block = vec![0u8; 1 << 20];
    let mut size = 0u64;
    loop {
        let n = file.read(&mut block).map_err(io_error(path))?;
        if n == 0 {
            break;
        }
        crc.update(&block[..n]);
        size += n as u64;
    }
    Ok((size, crc.finalize()))
}

/// Saves the round and the frontier beside the cells file whose checksum is `cells_crc`.
fn save<G: Indexed>(
    partial: &Path,
    game: &G,
    len: u64,
    round: u32,
    frontier: &[AtomicU64],
    cells_crc: u32,
) -> Result<(), Error> {
    let fields = format!(
        "{PARTIAL_MAGIC}\ngame {}\ncells {len}\nround {round}\nsliced yes\ncells-crc32 {cells_crc}\n",
        game.name(),
    );
    let mut crc = crc32fast::Hasher::new();
    crc.update(fields.as_bytes());
    for_each_frontier_block(frontier, |b| {
        crc.update(b);
        Ok(())
    })
    .expect("hashing does not fail");
    let header = format!("{fields}crc32 {:08x}\n\n", crc.finalize());
    write_atomically_with(partial, header.as_bytes(), frontier.len() as u64 * 8, |w| {
        for_each_frontier_block(frontier, |b| w.write_all(b))
    })
}

/// Writes a new cells file slice by slice beside `cells_path` (its `.tmp`): `fill(first,
/// slice)` sets each slice's cells (from the old file, or from scratch); returns the new file's
/// checksum. [`save`] the state that goes with it before [`commit_cells`], so that a build
/// stopped at any moment finds a partial file and cells that match.
fn rewrite_cells(
    cells_path: &Path,
    len: u64,
    slice: &[AtomicU8],
    mut fill: impl FnMut(u64, &[AtomicU8]) -> Result<(), Error>,
) -> Result<u32, Error> {
    let tmp = with_suffix(cells_path, ".tmp");
    check_room(&tmp, len)?;
    let mut crc = crc32fast::Hasher::new();
    let mut write = || -> Result<(), Error> {
        let file = File::create(&tmp).map_err(|e| Error::File(write_error(&tmp, len, &e)))?;
        let mut out = BufWriter::with_capacity(1 << 20, file);
        let mut first = 0;
        while first < len {
            let n = (slice.len() as u64).min(len - first);
            let part = &slice[..n as usize];
            fill(first, part)?;
            for_each_block(part, |b| {
                crc.update(b);
                out.write_all(b)
            })
            .map_err(|e| Error::File(write_error(&tmp, len, &e)))?;
            first += n;
        }
        out.into_inner()
            .map_err(|e| e.into_error())
            .and_then(|f| f.sync_all())
            .map_err(|e| Error::File(write_error(&tmp, len, &e)))
    };
    if let Err(e) = write() {
        let _ = fs::remove_file(&tmp);
        return Err(e);
    }
    Ok(crc.finalize())
}

/// Puts the cells [`rewrite_cells`] wrote in place of the old ones.
fn commit_cells(cells_path: &Path) -> Result<(), Error> {
    fs::rename(with_suffix(cells_path, ".tmp"), cells_path).map_err(io_error(cells_path))
}

/// Reads the next `part.len()` cells of `reader` into `part`.
fn read_slice(reader: &mut impl Read, part: &[AtomicU8], path: &Path) -> Result<(), Error> {
    let mut block = vec![0u8; 1 << 20];
    for chunk in part.chunks(block.len()) {
        reader
            .read_exact(&mut block[..chunk.len()])
            .map_err(io_error(path))?;
        for (c, &b) in chunk.iter().zip(&block) {
            c.store(b, Relaxed);
        }
    }
    Ok(())
}

/// The cells of a sliced build as its rounds keep them: on disk, a slice at a time in memory,
/// with the frontiers of every index. Each round writes a new cells file and saves the state
/// that goes with it before putting it in place.
struct Sliced<'a, G> {
    game: &'a G,
    partial: &'a Path,
    cells_path: &'a Path,
    len: u64,
    slice: Vec<AtomicU8>,
    frontier: Frontier,
    round: u32,
    /// Positions the rounds of this run decided.
    decided: u64,
}

impl<G: Indexed> Storage for Sliced<'_, G> {
    type Cells<'a>
        = ByteCells<'a>
    where
        Self: 'a;

    fn round(&self) -> u32 {
        self.round
    }

    fn has_frontier(&self) -> bool {
        !self.frontier.is_empty()
    }

    fn decided(&self) -> u64 {
        self.decided
    }

    fn run_round(&mut self, mut expand: impl FnMut(&ByteCells<'_>) -> u64) -> Result<bool, Error> {
        let cells_path = self.cells_path;
        let old = File::open(cells_path).map_err(io_error(cells_path))?;
        let mut reader = BufReader::with_capacity(1 << 20, old);
        let frontier = &self.frontier;
        let crc = rewrite_cells(cells_path, self.len, &self.slice, |first, part| {
            read_slice(&mut reader, part, cells_path)?;
            self.decided += expand(&frontier.cells(first, part, 0));
            Ok(())
        })?;
        self.frontier.advance();
        self.round += 1;
        save(
            self.partial,
            self.game,
            self.len,
            self.round,
            &self.frontier.now,
            crc,
        )?;
        commit_cells(cells_path)?;
        Ok(true)
    }
}

pub(super) fn build<G: Indexed>(
    game: &G,
    out: &Path,
    options: &BuildOptions,
    progress: &(dyn Fn(Progress) + Sync),
    len: u64,
    slice_len: u64,
) -> Result<BuildReport, Error> {
    let partial = with_suffix(out, ".partial");
    let cells_path = with_suffix(out, ".cells");
    let slice: Vec<AtomicU8> = allocate(slice_len, "slice of cells")?;
    let saved = read_saved(&partial, &cells_path, game, len)?;
    let resumed_at = saved.as_ref().map(|s| s.0);
    let (round, frontier) = match saved {
        Some((round, frontier)) => (round, Frontier::resume(frontier)?),
        None => {
            let frontier = Frontier::new(len)?;
            let done = AtomicU64::new(0);
            let crc = rewrite_cells(&cells_path, len, &slice, |first, part| {
                init_cells(game, first, part, &frontier.now, 0, options.threads, &|n| {
                    progress(Progress::Init {
                        done: done.fetch_add(n, Relaxed) + n,
                        total: len,
                    })
                })
            })?;
            save(&partial, game, len, 1, &frontier.now, crc)?;
            commit_cells(&cells_path)?;
            (1, frontier)
        }
    };
    let mut storage = Sliced {
        game,
        partial: &partial,
        cells_path: &cells_path,
        len,
        slice,
        frontier,
        round,
        decided: 0,
    };
    // Each round saves the state: there is nothing more to save when the rounds stop.
    let run = rounds::run(
        game,
        &mut storage,
        &Solo,
        options.threads,
        progress,
        &options.checkpoints(),
        |_| Ok(()),
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
    // Two passes over the cells file: the counts and checksum for the header, then the file.
    let finished_blocks = |f: &mut dyn FnMut(&[u8]) -> Result<(), Error>| {
        let mut reader = File::open(&cells_path).map_err(io_error(&cells_path))?;
        let mut block = vec![0u8; 1 << 20];
        loop {
            let n = reader.read(&mut block).map_err(io_error(&cells_path))?;
            if n == 0 {
                return Ok::<(), Error>(());
            }
            block[..n].iter_mut().for_each(|b| *b = finished(*b));
            f(&block[..n])?;
        }
    };
    let mut summary = Summary::default();
    let mut crc = crc32fast::Hasher::new();
    finished_blocks(&mut |b| {
        b.iter().for_each(|&byte| summary.add(byte));
        crc.update(b);
        Ok(())
    })?;
    let header = db_header(game, len, &summary, crc.finalize());
    write_atomically_with(out, header.as_bytes(), len, |w| {
        finished_blocks(&mut |b| w.write_all(b).map_err(|e| Error::File(e.to_string())))
            .map_err(std::io::Error::other)
    })?;
    let start = {
        let mut file = File::open(&cells_path).map_err(io_error(&cells_path))?;
        let mut byte = [0u8];
        file.seek(SeekFrom::Start(game.index()))
            .and_then(|_| file.read_exact(&mut byte))
            .map_err(io_error(&cells_path))?;
        value_with(game, |_| Some(finished(byte[0])))
    };
    remove_build_files(out);
    Ok(BuildReport {
        summary,
        resumed_at,
        rounds: run.rounds,
        cells: len,
        start,
        stopped: None,
        traffic: Vec::new(),
    })
}
