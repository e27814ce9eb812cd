//! Exact counts of legal positions: every position reachable from the start by legal moves,
//! the game stopping at a win (popout-thesis Table 10; Tromp's Connect Four counts), by
//! breadth-first search over a bitset of keys. A claimed draw ([`Repeating::is_claim`]) is not a new
//! position. Boards whose key space does not fit the memory budget are refused.

use crate::error::Error;
#[cfg(doc)]
use crate::game::Repeating;
use crate::game::{Kind, MoveList, Rules, Status};

/// Positions by number of stones, and in total.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Census {
    /// `by_discs[d]`: positions with `d` discs on the board.
    pub by_discs: Vec<u64>,
    /// Positions in all.
    pub total: u64,
}

/// Counts the positions reachable from `start` within `mem_bytes` of memory (the bitset of keys
/// takes `2^key_bits / 8` bytes, the frontier the rest); `progress(total)` is called after each
/// layer.
///
/// # Errors
/// [`Error::Memory`] when the bitset of keys or the frontier needs more than `mem_bytes`, or
/// the bitset cannot be allocated.
pub fn count<G: Rules>(
    start: G,
    mem_bytes: usize,
    mut progress: impl FnMut(u64),
) -> Result<Census, Error> {
    let bits = start.key_bits();
    let set_bytes = if bits >= 64 {
        usize::MAX
    } else {
        ((1u128 << bits) / 8).min(usize::MAX as u128) as usize
    };
    if set_bytes > mem_bytes {
        return Err(Error::Memory(format!(
            "counting {} by enumeration needs a set of 2^{bits} keys ({} MiB), more than the \
             memory budget of {} MiB (--mem-mb)",
            start.name(),
            set_bytes.div_ceil(1 << 20),
            mem_bytes >> 20
        )));
    }
    let mut seen: Vec<u64> = Vec::new();
    seen.try_reserve_exact(set_bytes.div_ceil(8).max(1))
        .map_err(|_| {
            Error::Memory(format!(
                "cannot allocate {} MiB for the key set",
                set_bytes >> 20
            ))
        })?;
    seen.resize(set_bytes.div_ceil(8).max(1), 0);
    let mut insert = |key: u128| {
        let (word, bit) = ((key >> 6) as usize, 1u64 << (key & 63));
        let new = seen[word] & bit == 0;
        seen[word] |= bit;
        new
    };
    let mut census = Census::default();
    let record = |pos: &G, census: &mut Census| {
        let d = G::Kind::stones(pos) as usize;
        if census.by_discs.len() <= d {
            census.by_discs.resize(d + 1, 0);
        }
        census.by_discs[d] += 1;
        census.total += 1;
    };
    insert(start.key());
    record(&start, &mut census);
    // The two layers of the frontier share what the key set leaves of the budget.
    let max_frontier = (mem_bytes - set_bytes) / std::mem::size_of::<G>().max(1);
    let outgrown = |discs: usize| {
        Error::Memory(format!(
            "counting {} needs more than the memory budget of {} MiB: the frontier outgrew it at \
             {discs} discs (raise --mem-mb)",
            start.name(),
            mem_bytes >> 20
        ))
    };
    let mut layer = vec![start];
    while !layer.is_empty() {
        let mut next: Vec<G> = Vec::new();
        for pos in &layer {
            if pos.status() != Status::Ongoing {
                continue;
            }
            let mut moves = MoveList::new();
            pos.legal_moves(&mut moves);
            for &m in &moves {
                if G::Kind::is_claim(pos, m) {
                    continue;
                }
                let child = pos.play(m);
                if insert(child.key()) {
                    record(&child, &mut census);
                    if next.len() == next.capacity() {
                        let room = max_frontier.saturating_sub(layer.len());
                        let grown = (2 * next.capacity()).max(1024).min(room);
                        if grown <= next.len() {
                            return Err(outgrown(G::Kind::stones(&child) as usize));
                        }
                        next.reserve_exact(grown - next.len());
                    }
                    next.push(child);
                }
            }
        }
        progress(census.total);
        layer = next;
    }
    Ok(census)
}
