//! The cube's 76 lines by shifts: the 13 directions as families of lines, the cells each
//! line passes through, and what the rules and the tactics ask of them (lines made, cells that
//! would make one, threats, the pairings that block a leader).

use arrayvec::ArrayVec;

/// The bottom level.
pub(super) const LEVEL0: u64 = 0xffff;

/// The 13 directions as (step, first cells): the line from `c` holds `c + i * step`, i < 4.
pub(super) const FAMILIES: [(u32, u64); 13] = families();

/// The 76 lines.
pub const LINES: [u64; 76] = lines();

/// The lines through each cell (at most 7), as indices into [`LINES`]; 255 ends a list.
pub(super) const LINES_THROUGH: [[u8; 7]; 64] = lines_through();

const fn coord(c: i32) -> [i32; 3] {
    [c % 4, c / 4 % 4, c / 16]
}

const fn lines() -> [u64; 76] {
    let mut out = [0u64; 76];
    let mut n = 0;
    let mut f = 0;
    let fam = families();
    while f < 13 {
        let (step, starts) = fam[f];
        let mut c = 0u32;
        while c < 64 {
            if starts >> c & 1 == 1 {
                let mut line = 0u64;
                let mut i = 0u32;
                while i < 4 {
                    line |= 1 << (c + i * step);
                    i += 1;
                }
                out[n] = line;
                n += 1;
            }
            c += 1;
        }
        f += 1;
    }
    assert!(n == 76);
    out
}

/// For each of the 13 directions (first nonzero component positive), its step and the cells a
/// line of four starts from, re-anchored at the line's lowest cell so that every step is
/// positive.
const fn families() -> [(u32, u64); 13] {
    let mut out = [(0u32, 0u64); 13];
    let mut n = 0;
    let mut d = 0;
    while d < 27 {
        let dir = [d % 3 - 1, d / 3 % 3 - 1, d / 9 - 1];
        // One of each pair of opposite directions: the first nonzero component positive.
        let first = if dir[0] != 0 {
            dir[0]
        } else if dir[1] != 0 {
            dir[1]
        } else {
            dir[2]
        };
        if first > 0 {
            let step = dir[0] + 4 * dir[1] + 16 * dir[2];
            let mut starts = 0u64;
            let mut c = 0;
            while c < 64 {
                let p = coord(c);
                let end = [p[0] + 3 * dir[0], p[1] + 3 * dir[1], p[2] + 3 * dir[2]];
                let inside = end[0] >= 0
                    && end[0] < 4
                    && end[1] >= 0
                    && end[1] < 4
                    && end[2] >= 0
                    && end[2] < 4;
                if inside {
                    // Anchor at the lowest cell of the line.
                    let low = if step > 0 { c } else { c + 3 * step };
                    starts |= 1 << low;
                }
                c += 1;
            }
            let step = if step > 0 { step } else { -step };
            out[n] = (step as u32, starts);
            n += 1;
        }
        d += 1;
    }
    assert!(n == 13);
    out
}

pub(super) const fn lines_through() -> [[u8; 7]; 64] {
    let mut out = [[255u8; 7]; 64];
    let all = lines();
    let mut l = 0;
    while l < 76 {
        let mut c = 0;
        while c < 64 {
            if all[l] >> c & 1 == 1 {
                let mut k = 0;
                while out[c][k] != 255 {
                    k += 1;
                }
                out[c][k] = l as u8;
            }
            c += 1;
        }
        l += 1;
    }
    out
}

/// The lowest cells of the lines of a family `(shift, starts)` that `p` holds whole.
#[inline(always)]
pub(super) fn whole_lines(p: u64, (s, starts): (u32, u64)) -> u64 {
    let pairs = p & (p >> s);
    pairs & (pairs >> (2 * s)) & starts
}

/// Whether the stones hold a line of four.
#[inline(always)]
pub fn has_line(p: u64) -> bool {
    FAMILIES.iter().fold(0, |any, &f| any | whole_lines(p, f)) != 0
}

/// The cells of every line of four that `p` holds whole.
#[inline(always)]
pub fn line_cells(p: u64) -> u64 {
    FAMILIES.iter().fold(0, |cells, &(s, starts)| {
        let whole = whole_lines(p, (s, starts));
        cells | whole | whole << s | whole << (2 * s) | whole << (3 * s)
    })
}

/// Whether a leader (see `strategy_bounds`) cannot make a line when it gets at most `cells`, and
/// of the `bottoms` in them only one of each pair, the follower choosing the pairs. The follower
/// may also pair two `bases` (the lowest empty cells of columns with an even number of them, on
/// levels 1 and 3: the leader's), Allis' baseinverse: the leader gets one of them, and then one
/// of the two cells above them, which the follower would otherwise have had.
pub(super) fn leader_cannot_win(cells: u64, bottoms: u64, bases: u64) -> bool {
    if !has_line(cells) {
        return true;
    }
    // Only lines through two paired cells or more can be blocked.
    let special = bottoms | bases;
    let plain = cells & !special;
    if special.count_ones() < 2 || has_line(plain) {
        return false;
    }
    let mut rest = special;
    while rest != 0 {
        let cell = rest & rest.wrapping_neg();
        rest &= rest - 1;
        if has_line(plain | cell) {
            return false;
        }
    }
    let mut pairs = ArrayVec::new();
    pairing_blocks(cells, bottoms, bases, &mut pairs, &mut 64)
}

/// Whether the `free` bottoms and bases can be paired so that every line within `cells` holds a
/// whole pair. The first line left open chooses its pair among its own cells, so the search is
/// small; `budget` bounds it.
pub(super) fn pairing_blocks(
    cells: u64,
    bottoms: u64,
    bases: u64,
    pairs: &mut ArrayVec<u64, 32>,
    budget: &mut u32,
) -> bool {
    if *budget == 0 {
        return false;
    }
    *budget -= 1;
    let open = LINES
        .iter()
        .find(|&&line| line & !cells == 0 && pairs.iter().all(|&pair| line & pair != pair));
    let Some(&line) = open else {
        return true;
    };
    for (free, inverse) in [(line & bottoms, false), (line & bases, true)] {
        let mut a = free;
        while a != 0 {
            let first = a & a.wrapping_neg();
            a &= a - 1;
            let mut b = a;
            while b != 0 {
                let pair = first | (b & b.wrapping_neg());
                b &= b - 1;
                if pairs.remaining_capacity() < 2 {
                    return false;
                }
                let blocked = if inverse {
                    pairs.push(pair);
                    pairs.push(pair << 16);
                    let blocked =
                        pairing_blocks(cells | pair << 16, bottoms, bases & !pair, pairs, budget);
                    pairs.pop();
                    blocked
                } else {
                    pairs.push(pair);
                    pairing_blocks(cells, bottoms & !pair, bases, pairs, budget)
                };
                pairs.pop();
                if blocked {
                    return true;
                }
            }
        }
    }
    false
}

/// The empty cells that would complete a line of four for the stones `p`.
#[inline(always)]
pub fn winning_cells(p: u64, empty: u64) -> u64 {
    let mut cells = 0;
    let mut f = 0;
    while f < 13 {
        let (s, starts) = FAMILIES[f];
        let (a, b, c, d) = (p, p >> s, p >> (2 * s), p >> (3 * s));
        // The line from each start with its j-th cell missing.
        cells |= starts & b & c & d;
        cells |= (starts & a & c & d) << s;
        cells |= (starts & a & b & d) << (2 * s);
        cells |= (starts & a & b & c) << (3 * s);
        f += 1;
    }
    cells & empty
}

/// The empty cells where a stone of `p` would make a line of three with the fourth cell empty:
/// the empty cells of the lines that hold two of `p`'s stones and none of `theirs`.
#[inline(always)]
pub fn threat_cells(p: u64, theirs: u64) -> u64 {
    let mut cells = 0;
    let mut f = 0;
    while f < 13 {
        let (s, starts) = FAMILIES[f];
        let m = [p, p >> s, p >> (2 * s), p >> (3 * s)];
        let t = theirs | theirs >> s | theirs >> (2 * s) | theirs >> (3 * s);
        let open = starts & !t;
        // Cell j is empty and the other three hold exactly two of `p`'s stones.
        let exactly_two = |x: u64, y: u64, z: u64| (x & y | x & z | y & z) & !(x & y & z);
        cells |= open & !m[0] & exactly_two(m[1], m[2], m[3]);
        cells |= (open & !m[1] & exactly_two(m[0], m[2], m[3])) << s;
        cells |= (open & !m[2] & exactly_two(m[0], m[1], m[3])) << (2 * s);
        cells |= (open & !m[3] & exactly_two(m[0], m[1], m[2])) << (3 * s);
        f += 1;
    }
    cells
}
