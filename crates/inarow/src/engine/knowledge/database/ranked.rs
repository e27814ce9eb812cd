//! A database built in memory on one rank or several at once ([`super::build_ranked`]): each
//! rank holds its share of the indices and saves it between rounds (`FILE.partial` alone,
//! `FILE.rank-R-of-P.partial` among several); at the end the ranks agree on the summary, and
//! rank 0 writes the file, taking the other shares from their ranks a block at a time.

use super::{BuildOptions, BuildReport, db_header, read_partial, write_partial};
use crate::engine::knowledge::file::{remove_build_files, with_suffix, write_atomically_with};
use crate::error::Error;
use crate::game::Indexed;
use crate::search::ranks::{Ranks, Reduce};
use crate::search::retro::rounds;
use crate::search::retro::{
    Progress, State, Summary, index_len, memory_needed, shares, value_with,
};
use std::path::{Path, PathBuf};

/// Bytes of finished cells a rank sends rank 0 at a time.
const BLOCK: usize = 16 << 20;

/// Where rank `rank` of `size` keeps its state while building `out`.
fn partial_path(out: &Path, rank: usize, size: usize) -> PathBuf {
    match size {
        1 => with_suffix(out, ".partial"),
        _ => with_suffix(out, &format!(".rank-{rank}-of-{size}.partial")),
    }
}

pub(super) fn build<G: Indexed>(
    game: &G,
    out: &Path,
    options: &BuildOptions,
    progress: &(dyn Fn(Progress) + Sync),
    ranks: &dyn Ranks,
) -> Result<BuildReport, Error> {
    let (me, size) = (ranks.rank(), ranks.size());
    let len = index_len(game)?;
    let bounds = shares(len, size);
    // Every rank judges the largest share, so that all of them refuse or none.
    let largest = (0..size)
        .map(|r| bounds[r + 1] - bounds[r])
        .max()
        .unwrap_or(0);
    if memory_needed(largest) > options.mem_bytes {
        return Err(Error::Memory(format!(
            "a strong solution of {} on {size} ranks needs {} MiB on each ({largest} indices \
             of {len}: a byte and two bits each), more than the memory budget of {} MiB \
             (--mem-mb); use more ranks",
            game.name(),
            memory_needed(largest).div_ceil(1 << 20),
            options.mem_bytes >> 20
        )));
    }
    let partial = partial_path(out, me, size);
    let saved = read_partial(&partial, game, bounds[me]..bounds[me + 1]);
    let round = match &saved {
        Ok(Some(state)) => u64::from(state.round),
        _ => 0,
    };
    // Whether some rank cannot use its saved state, whether some has one, whether some has none,
    // and the rounds (the largest, and the smallest as the largest of their complements).
    let mut agree = [
        u64::from(saved.is_err()),
        u64::from(matches!(saved, Ok(Some(_)))),
        u64::from(matches!(saved, Ok(None))),
        round,
        u64::from(u32::MAX) - round,
    ];
    ranks.reduce(&mut agree, Reduce::Max);
    if agree[0] == 1 {
        return Err(saved.err().unwrap_or_else(|| {
            Error::File("another rank cannot use its saved state (see its message)".to_string())
        }));
    }
    let saved = saved?;
    if agree[1] == 1 && (agree[2] == 1 || agree[3] != u64::from(u32::MAX) - agree[4]) {
        return Err(Error::File(format!(
            "the saved states of the {size} ranks do not match (a rank stopped while saving?): \
             remove {}.rank-*-of-{size}.partial to start afresh",
            out.display()
        )));
    }
    let resumed_at = saved.as_ref().map(|s| s.round);
    let mut state = match saved {
        Some(state) => state,
        None => State::share(game, bounds[me]..bounds[me + 1], options.threads, progress)?,
    };
    let run = rounds::run(
        game,
        &mut state,
        ranks,
        options.threads,
        progress,
        &options.checkpoints(),
        |state| write_partial(&partial, game, state),
    )?;
    if let Some(why) = run.stopped {
        return Ok(BuildReport::stopped(
            why,
            resumed_at,
            run.rounds,
            len,
            run.traffic,
        ));
    }
    // The share's finished cells and their counts.
    let (cells, summary) = state.finish();
    let mut counts = [summary.wins, summary.losses, summary.draws];
    ranks.reduce(&mut counts, Reduce::Sum);
    let mut longest = [u64::from(summary.longest)];
    ranks.reduce(&mut longest, Reduce::Max);
    let summary = Summary {
        wins: counts[0],
        losses: counts[1],
        draws: counts[2],
        longest: longest[0] as u32,
    };
    let start_index = game.index();
    let mut start_byte = [match (bounds[me]..bounds[me + 1]).contains(&start_index) {
        true => u64::from(cells[(start_index - bounds[me]) as usize]),
        false => 0,
    }];
    ranks.reduce(&mut start_byte, Reduce::Sum);
    let start = value_with(game, |_| Some(start_byte[0] as u8));
    // Rank 0 joins the shares' checksums into the file's: crc(a || b) from crc(a) and crc(b).
    let mut to_root = vec![Vec::new(); size];
    to_root[0].push(u64::from(crc32fast::hash(&cells)));
    let crcs = ranks.exchange(&to_root);
    if me == 0 {
        let mut whole = crc32fast::Hasher::new();
        for (r, &share_crc) in crcs.iter().enumerate() {
            whole.combine(&crc32fast::Hasher::new_with_initial_len(
                share_crc as u32,
                bounds[r + 1] - bounds[r],
            ));
        }
        let header = db_header(game, len, &summary, whole.finalize());
        write_atomically_with(out, header.as_bytes(), len, |w| {
            w.write_all(&cells)?;
            for r in 1..size {
                let mut left = bounds[r + 1] - bounds[r];
                while left > 0 {
                    let block = ranks.receive(r);
                    w.write_all(&block)?;
                    left -= block.len() as u64;
                }
            }
            Ok(())
        })?;
    } else {
        cells.chunks(BLOCK).for_each(|block| ranks.send(0, block));
    }
    // Each rank's state goes only once the file is written.
    let mut written = [1];
    ranks.reduce(&mut written, Reduce::Sum);
    match size {
        1 => remove_build_files(out),
        _ => {
            let _ = std::fs::remove_file(&partial);
        }
    }
    Ok(BuildReport {
        summary,
        resumed_at,
        rounds: run.rounds,
        cells: len,
        start,
        stopped: None,
        traffic: run.traffic,
    })
}
