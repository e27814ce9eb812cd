//! Pentago's midgame solver: the exact value of a position and of each of its moves, by
//! enumerating every position below it stone by stone, with the quadrant turns abstracted (the
//! idea of Irving's midgame solver; this is its own design).
//!
//! # The frame
//! The root's empty cells are the frame. Any position below the root is a filling of some frame
//! cells (which, and by whom) together with a rotation state: how many quarter turns clockwise
//! each quadrant has made since the root, 4^4 = 256 states. The board itself is the filling
//! with each quadrant turned by its state; a placement on an empty cell of the board is a
//! placement on the frame cell under it, and a turn changes only the state. So each filling is
//! stored once, with its values in all 256 states as bitsets ([`States`]): whether the side to
//! move wins, and whether it does not lose.
//!
//! # The sweep
//! Fillings of `k` stones form level `k`; the side that moves at the root places the stones of
//! even levels. Level `k` follows from level `k + 1` (the last level, a full board, is a draw
//! wherever no five ends the game first): for each empty frame cell, the fives of both players
//! in every state ([`Fives`]: per line, the states whose turned quadrants cover it) give the
//! placement's immediate wins and the outcome after each turn, and the child's bitsets give the
//! rest, all as 256-bit operations. Only two levels are in memory at once; each is numbered by
//! ranking its cell subsets, so a child is found by arithmetic.

use super::{BOARD, Pentago, QUADRANT, base, gather, lines, turn};
use crate::game::bits::cells;
use crate::game::{Game, Player, Status, WholeAnswer};
use arrayvec::ArrayVec;
use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

/// A set of rotation states: bit `r` for the state in which quadrant `q` has made
/// `(r >> 2q) & 3` quarter turns clockwise.
pub type States = [u64; 4];

const NONE: States = [0; 4];
const ALL: States = [!0; 4];

#[inline(always)]
fn and(a: States, b: States) -> States {
    std::array::from_fn(|i| a[i] & b[i])
}

#[inline(always)]
fn or(a: States, b: States) -> States {
    std::array::from_fn(|i| a[i] | b[i])
}

#[inline(always)]
fn not(a: States) -> States {
    a.map(|w| !w)
}

#[inline(always)]
fn has(s: &States, r: usize) -> bool {
    s[r >> 6] >> (r & 63) & 1 == 1
}

/// `out[r] = x[r']`, where `r'` is `r` with quadrant `q` turned once more clockwise
/// (`clockwise`) or anticlockwise: what a turn of `q` leads to, seen from before it.
#[inline(always)]
fn after_turn(x: States, q: u32, clockwise: bool) -> States {
    match q {
        0 | 1 => {
            // A field of two bits inside each word: blocks of `b` bits in groups of four.
            let b = 1u32 << (2 * q);
            let (low, high) = if q == 0 {
                (0x1111_1111_1111_1111u64, 0x8888_8888_8888_8888u64)
            } else {
                (0x000f_000f_000f_000fu64, 0xf000_f000_f000_f000u64)
            };
            x.map(|w| {
                if clockwise {
                    (w >> b) & !high | (w << (3 * b)) & high
                } else {
                    (w << b) & !low | (w >> (3 * b)) & low
                }
            })
        }
        2 => x.map(|w| {
            if clockwise {
                w.rotate_right(16)
            } else {
                w.rotate_left(16)
            }
        }),
        _ => {
            let d = if clockwise { 1 } else { 3 };
            std::array::from_fn(|i| x[(i + d) & 3])
        }
    }
}

/// Where each player has five, state by state.
struct Fives {
    /// `by_orientation[q][m]`: the states in which quadrant `q` has made a number of turns
    /// in the 4-bit set `m`.
    by_orientation: [[States; 16]; 4],
    /// For each line: the quadrants it crosses, with, for each of their 512 nine-cell patterns,
    /// the turns after which the pattern covers the line's cells there.
    lines: Vec<Vec<(u32, [u8; 512])>>,
}

impl Fives {
    fn get() -> &'static Fives {
        static FIVES: OnceLock<Fives> = OnceLock::new();
        FIVES.get_or_init(|| {
            let by_orientation = std::array::from_fn(|q| {
                std::array::from_fn(|m| {
                    let mut s = NONE;
                    for r in 0..256 {
                        if m >> ((r >> (2 * q)) & 3) & 1 == 1 {
                            s[r >> 6] |= 1 << (r & 63);
                        }
                    }
                    s
                })
            });
            // Nine-cell patterns turned clockwise o times.
            let mut turned = [[0u16; 512]; 4];
            for p in 0..512 {
                let mut b = (p & 7 | (p >> 3 & 7) << 6 | (p >> 6 & 7) << 12) as u64;
                for t in turned.iter_mut() {
                    t[p] = gather(b, 0) as u16;
                    b = turn(b, 1);
                }
            }
            let lines = lines()
                .iter()
                .map(|&line| {
                    (0..4u32)
                        .filter(|&q| line & QUADRANT << base(q) != 0)
                        .map(|q| {
                            let need = gather(line, q) as u16;
                            let masks = std::array::from_fn(|p| {
                                (0..4).fold(0u8, |m, o| {
                                    m | (((turned[o][p] & need == need) as u8) << o)
                                })
                            });
                            (q, masks)
                        })
                        .collect()
                })
                .collect();
            Fives {
                by_orientation,
                lines,
            }
        })
    }

    /// The states in which the stones `side` (frame cells) make five.
    #[inline]
    fn of(&self, side: u64) -> States {
        let patterns = [0, 1, 2, 3].map(|q| gather(side, q));
        let mut out = NONE;
        'lines: for line in &self.lines {
            let mut s = ALL;
            for &(q, ref masks) in line {
                let m = masks[patterns[q as usize]];
                if m == 0 {
                    continue 'lines;
                }
                s = and(s, self.by_orientation[q as usize][m as usize]);
            }
            out = or(out, s);
        }
        out
    }
}

/// A set of the 128 rotation states of one turn parity (the parity of the total number of
/// quarter turns): bit `i` for the state `2i` or `2i + 1` of that parity.
type Half = [u64; 2];

/// The states of odd number selected by parity `p`: the state `2i + 1` where it has parity `p`
/// (the parity of a state is that of its bits 0, 2, 4 and 6).
fn odd_selected(p: usize) -> &'static States {
    static TABLE: OnceLock<[States; 2]> = OnceLock::new();
    &TABLE.get_or_init(|| {
        std::array::from_fn(|p| {
            let mut s = NONE;
            for r in (1..256).step_by(2) {
                if (r ^ r >> 2 ^ r >> 4 ^ r >> 6) & 1 == p {
                    s[r >> 6] |= 1 << (r & 63);
                }
            }
            s
        })
    })[p]
}

/// Bit `j` of `x` to bit `2j`.
#[inline(always)]
fn spread(x: u32) -> u64 {
    let mut x = x as u64;
    x = (x | x << 16) & 0x0000_ffff_0000_ffff;
    x = (x | x << 8) & 0x00ff_00ff_00ff_00ff;
    x = (x | x << 4) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x << 2) & 0x3333_3333_3333_3333;
    (x | x << 1) & 0x5555_5555_5555_5555
}

/// Bit `2j` of `x` to bit `j` (the odd bits are ignored).
#[inline(always)]
fn compact(x: u64) -> u32 {
    let mut x = x & 0x5555_5555_5555_5555;
    x = (x | x >> 1) & 0x3333_3333_3333_3333;
    x = (x | x >> 2) & 0x0f0f_0f0f_0f0f_0f0f;
    x = (x | x >> 4) & 0x00ff_00ff_00ff_00ff;
    x = (x | x >> 8) & 0x0000_ffff_0000_ffff;
    (x | x >> 16) as u32
}

/// The states of parity `p` in `x`.
#[inline(always)]
fn pack(x: &States, p: usize) -> Half {
    let odd = odd_selected(p);
    let evens: States = std::array::from_fn(|w| x[w] & !(odd[w] >> 1) | (x[w] & odd[w]) >> 1);
    [
        compact(evens[0]) as u64 | (compact(evens[1]) as u64) << 32,
        compact(evens[2]) as u64 | (compact(evens[3]) as u64) << 32,
    ]
}

/// The inverse of [`pack`]: the states of parity `p`, none of the other.
#[inline(always)]
fn unpack(h: &Half, p: usize) -> States {
    let odd = odd_selected(p);
    std::array::from_fn(|w| {
        let e = spread((h[w / 2] >> (32 * (w % 2))) as u32);
        let moved = e & odd[w] >> 1;
        e & !moved | moved << 1
    })
}

/// The values of one side to move, state by state: where it wins, and where it does not lose.
#[derive(Copy, Clone, Default)]
struct Outcome {
    win: States,
    not_lose: States,
}

/// Starts loading `v` into the cache.
#[inline(always)]
fn prefetch(v: &Values) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: prefetching is a hint; the address is a reference's.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(v as *const Values as *const i8);
    }
}

/// What a level keeps of one filling: its [`Outcome`] in the states of the level's turn parity
/// (the only ones a game reaches there: every turn is one quarter turn); and where the other
/// side, which placed last, has five, in every state (what each parent would otherwise find
/// again for each of its moves that lead here, before and after its turn).
#[derive(Copy, Clone, Default)]
#[repr(align(64))]
struct Values {
    win: Half,
    not_lose: Half,
    placed_fives: States,
}

/// What the mover reaches by turning a quadrant after its placement, state by state of the
/// board after the turn: its own and the other's fives there (`mine`, `theirs`), and the
/// outcome of the other side to move in the filling (`None` on a full board: a draw).
#[inline(always)]
fn after_placement(mine: States, theirs: States, child: Option<&Outcome>) -> Outcome {
    let win_five = and(mine, not(theirs));
    let no_five = not(or(mine, theirs));
    match child {
        Some(c) => Outcome {
            win: or(win_five, and(no_five, not(c.not_lose))),
            not_lose: or(mine, and(no_five, not(c.win))),
        },
        None => Outcome {
            win: win_five,
            not_lose: or(mine, no_five),
        },
    }
}

/// The outcome before the turn: the best of the eight turns, state by state.
#[inline(always)]
fn best_turn(after: &Outcome) -> Outcome {
    let mut v = Outcome::default();
    for q in 0..4 {
        for clockwise in [false, true] {
            v.win = or(v.win, after_turn(after.win, q, clockwise));
            v.not_lose = or(v.not_lose, after_turn(after.not_lose, q, clockwise));
        }
    }
    v
}

/// Binomial coefficients up to 36.
fn choose(n: usize, k: usize) -> u64 {
    static TABLE: OnceLock<[[u64; 37]; 37]> = OnceLock::new();
    let t = TABLE.get_or_init(|| {
        let mut t = [[0u64; 37]; 37];
        for n in 0..37 {
            t[n][0] = 1;
            for k in 1..=n {
                t[n][k] = t[n - 1][k - 1] + t[n - 1][k];
            }
        }
        t
    });
    if k > n { 0 } else { t[n][k] }
}

/// The colex rank of the set of positions `set` (bit `i`: element `i`).
#[inline]
fn rank(mut set: u64) -> u64 {
    let mut r = 0;
    let mut i = 1;
    while set != 0 {
        r += choose(set.trailing_zeros() as usize, i);
        set &= set - 1;
        i += 1;
    }
    r
}

/// The set of `k` positions of colex rank `r` among `n`.
fn unrank(mut r: u64, k: usize, n: usize) -> u64 {
    let mut set = 0;
    let mut top = n;
    for i in (1..=k).rev() {
        let mut c = top - 1;
        while choose(c, i) > r {
            c -= 1;
        }
        set |= 1 << c;
        r -= choose(c, i);
        top = c;
    }
    set
}

/// `bits` of `within`, as positions in `within` (the lowest set bit of `within` is position 0).
#[inline]
fn positions(bits: u64, within: u64) -> u64 {
    let mut out = 0;
    let mut w = within;
    let mut i = 0;
    while w != 0 {
        let low = w & w.wrapping_neg();
        if bits & low != 0 {
            out |= 1 << i;
        }
        w ^= low;
        i += 1;
    }
    out
}

/// The inverse of [`positions`]: the members of `within` at the positions `set`.
#[inline]
fn members(set: u64, within: u64) -> u64 {
    let mut out = 0;
    let mut w = within;
    let mut i = 0;
    while w != 0 {
        let low = w & w.wrapping_neg();
        if set >> i & 1 == 1 {
            out |= low;
        }
        w ^= low;
        i += 1;
    }
    out
}

/// The fillings of one level: `k` of the frame's `m` cells, `a` of them the root mover's.
#[derive(Copy, Clone)]
struct Level {
    k: usize,
    a: usize,
    m: usize,
}

impl Level {
    fn new(m: usize, k: usize) -> Level {
        Level {
            k,
            a: k.div_ceil(2),
            m,
        }
    }

    fn len(&self) -> u64 {
        choose(self.m, self.k) * choose(self.k, self.a)
    }

    /// The index of the filling `filled` (frame positions), `mine` those of the root mover.
    #[inline]
    fn index(&self, filled: u64, mine: u64) -> u64 {
        rank(filled) * choose(self.k, self.a) + rank(positions(mine, filled))
    }

    /// The filling of `index` (what [`Fillings`] steps through).
    #[cfg(test)]
    fn filling(&self, index: u64) -> (u64, u64) {
        let per = choose(self.k, self.a);
        let filled = unrank(index / per, self.k, self.m);
        let mine = members(unrank(index % per, self.a, self.k), filled);
        (filled, mine)
    }
}

/// The next set of as many elements in colex order (the next larger number with as many bits:
/// Gosper's hack); `set` is not empty.
#[inline(always)]
fn next_set(set: u64) -> u64 {
    let low = set & set.wrapping_neg();
    let ripple = set + low;
    (((ripple ^ set) >> 2) / low) | ripple
}

/// The fillings of a level in index order, from `index` on.
struct Fillings {
    level: Level,
    filled: u64,
    /// The root mover's cells, as positions among `filled`.
    mine: u64,
}

impl Fillings {
    fn from(level: Level, index: u64) -> Fillings {
        let per = choose(level.k, level.a);
        Fillings {
            level,
            filled: unrank(index / per, level.k, level.m),
            mine: unrank(index % per, level.a, level.k),
        }
    }

    /// The current filling (frame positions of its cells, and of the root mover's), then a
    /// step to the next.
    #[inline]
    fn step(&mut self) -> (u64, u64) {
        let current = (self.filled, members(self.mine, self.filled));
        let next_mine = if self.mine == 0 {
            0
        } else {
            next_set(self.mine)
        };
        if next_mine == 0 || next_mine >> self.level.k != 0 {
            self.mine = (1 << self.level.a) - 1;
            if self.filled != 0 {
                self.filled = next_set(self.filled);
            }
        } else {
            self.mine = next_mine;
        }
        current
    }
}

/// The answer for a root: its value for the side to move (1 win, 0 draw, -1 loss) and each
/// move's.
pub type MidAnswer = WholeAnswer<u16>;

/// The bytes the solver needs for a root with `empty` empty cells: two buffers of its largest
/// level.
pub fn bytes_needed(empty: usize) -> u64 {
    2 * (0..empty)
        .map(|k| Level::new(empty, k).len())
        .max()
        .unwrap_or(1)
        * size_of::<Values>() as u64
}

/// The rotation state `r` with quadrant `q` turned once more.
#[inline]
fn turn_state(r: usize, q: u32, clockwise: bool) -> usize {
    let shift = 2 * q;
    let o = (r >> shift) & 3;
    let o = if clockwise { (o + 1) & 3 } else { (o + 3) & 3 };
    r & !(3 << shift) | o << shift
}

/// The value of `v` in state `r`: 1 win, 0 draw, -1 loss.
fn value_at(v: &Outcome, r: usize) -> i32 {
    if has(&v.win, r) {
        1
    } else if has(&v.not_lose, r) {
        0
    } else {
        -1
    }
}

/// The frame and the root's stones, split by who places at even levels.
#[derive(Copy, Clone)]
struct Frame {
    cells: u64,
    m: usize,
    /// The stones of the side that places at level 0, and of the other.
    first_mover: u64,
    other: u64,
}

impl Frame {
    /// The stones of the side to move at a filling of `level` and of the other, and whether
    /// the side to move is the level-0 mover.
    #[inline]
    fn sides(&self, level: &Level, filled: u64, mine: u64) -> (u64, u64, bool) {
        let filled_cells = members(filled, self.cells);
        let mine_cells = members(mine, self.cells);
        let a = self.first_mover | mine_cells;
        let b = self.other | (filled_cells & !mine_cells);
        if level.k.is_multiple_of(2) {
            (a, b, true)
        } else {
            (b, a, false)
        }
    }
}

/// The values of the filling (`filled`, `mine`: frame positions) of `level`, from the next
/// level's. `parity` is the turn parity of the level's states.
#[inline]
fn settle(
    fives: &Fives,
    frame: &Frame,
    level: &Level,
    parity: usize,
    (filled, mine): (u64, u64),
    next: &[Values],
) -> Values {
    let child_level = Level::new(frame.m, level.k + 1);
    let (me, them, first_mover) = frame.sides(level, filled, mine);
    let empty = frame.cells & !members(filled, frame.cells);
    // The children first, their loads started before any is read: the level below is far
    // larger than the caches, and reading it is most of the time.
    let mut children: ArrayVec<(u64, usize), 36> = ArrayVec::new();
    if child_level.k < frame.m {
        for at in cells(empty) {
            let cell = 1u64 << at;
            let p = positions(cell, frame.cells);
            let child_mine = if first_mover { mine | p } else { mine };
            let index = child_level.index(filled | p, child_mine) as usize;
            prefetch(&next[index]);
            children.push((cell, index));
        }
    } else {
        children.extend(cells(empty).map(|at| (1u64 << at, usize::MAX)));
    }
    let theirs = fives.of(them);
    let mut v = Outcome::default();
    let mut after_all = Outcome::default();
    for (cell, index) in children {
        let (placed, child) = match next.get(index) {
            Some(c) => {
                let outcome = Outcome {
                    win: unpack(&c.win, parity ^ 1),
                    not_lose: unpack(&c.not_lose, parity ^ 1),
                };
                (c.placed_fives, Some(outcome))
            }
            None => (fives.of(me | cell), None),
        };
        // A turn permutes the states, so the best turn of the union of the children's
        // outcomes is the union of their best turns: one turn for all of them, after the loop.
        let after = after_placement(placed, theirs, child.as_ref());
        after_all.win = or(after_all.win, after.win);
        after_all.not_lose = or(after_all.not_lose, after.not_lose);
        v.win = or(v.win, placed);
        v.not_lose = or(v.not_lose, placed);
    }
    let turned = best_turn(&after_all);
    v.win = or(v.win, turned.win);
    v.not_lose = or(v.not_lose, turned.not_lose);
    Values {
        win: pack(&v.win, parity),
        not_lose: pack(&v.not_lose, parity),
        placed_fives: theirs,
    }
}

/// Solves `root` (an open position) within `mem_bytes` on `threads` threads;
/// `progress(done, total)` counts the fillings settled. Stops between levels once `deadline`
/// has passed (`Ok(None)`).
pub fn solve(
    root: &Pentago,
    mem_bytes: u64,
    threads: usize,
    deadline: Option<Instant>,
    mut progress: impl FnMut(u64, u64),
) -> Result<Option<MidAnswer>, String> {
    if root.status() != Status::Ongoing {
        return Err("the game is over".to_string());
    }
    let [first, second] = root.stones();
    let cells = !(first | second) & BOARD;
    let m = cells.count_ones() as usize;
    let need = bytes_needed(m);
    if need > mem_bytes {
        return Err(format!(
            "the midgame solver needs {} MiB for {m} empty cells, more than the memory budget \
             of {} MiB (--mem-mb)",
            need.div_ceil(1 << 20),
            mem_bytes >> 20
        ));
    }
    let placer = root.side_to_move();
    let stones_of = |p: Player| if p == Player::First { first } else { second };
    // After a pending root's turn, the other side places first.
    let level_mover = if root.pending() {
        placer.opponent()
    } else {
        placer
    };
    let frame = Frame {
        cells,
        m,
        first_mover: stones_of(level_mover),
        other: stones_of(level_mover.opponent()),
    };
    let fives = Fives::get();
    let total: u64 = (0..m).map(|k| Level::new(m, k).len()).sum();
    let mut done = 0;
    // Two buffers of the largest level, swapped level by level (new pages each level cost a
    // sixth of the time in zeroing).
    let largest = (0..m).map(|k| Level::new(m, k).len()).max().unwrap_or(0) as usize;
    let mut next: Vec<Values> = vec![Values::default(); largest];
    let mut current: Vec<Values> = vec![Values::default(); largest];
    let mut next_len = 0;
    let mut level1: Vec<Values> = Vec::new();
    let stopped = AtomicBool::new(false);
    let pending = root.pending() as usize;
    for k in (0..m).rev() {
        let level = Level::new(m, k);
        // Every turn is a quarter turn: the states of level k have k turns' parity (one more
        // after a pending root's turn).
        let parity = (k + pending) & 1;
        let len = level.len() as usize;
        let chunk = len.div_ceil(threads.max(1)).max(1);
        std::thread::scope(|s| {
            for (c, part) in current[..len].chunks_mut(chunk).enumerate() {
                let (next, frame, level, stopped) = (&next[..next_len], &frame, &level, &stopped);
                s.spawn(move || {
                    let mut fillings = Fillings::from(*level, (c * chunk) as u64);
                    for (i, v) in part.iter_mut().enumerate() {
                        if i % 4096 == 0 && deadline.is_some_and(|d| Instant::now() >= d) {
                            stopped.store(true, Ordering::Relaxed);
                        }
                        if stopped.load(Ordering::Relaxed) {
                            return;
                        }
                        *v = settle(fives, frame, level, parity, fillings.step(), next);
                    }
                });
            }
        });
        if stopped.load(Ordering::Relaxed) {
            return Ok(None);
        }
        done += level.len();
        progress(done, total);
        if k == 0 {
            level1 = next[..next_len].to_vec();
        }
        std::mem::swap(&mut next, &mut current);
        next_len = len;
    }
    // Level 0 and level 1 in every state (the other parity's are never read).
    let outcome = |v: &Values, parity: usize| Outcome {
        win: unpack(&v.win, parity),
        not_lose: unpack(&v.not_lose, parity),
    };
    let level0 = next[..next_len].first().map(|v| outcome(v, pending));
    let (mine, theirs) = (stones_of(placer), stones_of(placer.opponent()));
    let mut list = crate::game::MoveList::new();
    root.legal_moves(&mut list);
    let mut moves = Vec::new();
    for mv in list {
        let v = if root.pending() {
            let after = after_placement(fives.of(mine), fives.of(theirs), level0.as_ref());
            let r = (mv - super::ROTATION_ONLY) as u32;
            value_at(&after, turn_state(0, r / 2, r % 2 == 1))
        } else {
            let cell = 1u64 << (mv / 8);
            let placed = fives.of(mine | cell);
            if has(&placed, 0) {
                1
            } else {
                let at = positions(cell, cells);
                let child = level1
                    .get(Level::new(m, 1).index(at, at) as usize)
                    .map(|v| outcome(v, 1));
                let after = after_placement(placed, fives.of(theirs), child.as_ref());
                let r = (mv % 8) as u32;
                value_at(&after, turn_state(0, r / 2, r % 2 == 1))
            }
        };
        moves.push((mv, v));
    }
    let value = match (root.pending(), level0) {
        (false, Some(v)) => value_at(&v, 0),
        _ => moves.iter().map(|&(_, v)| v).max().unwrap_or(-1),
    };
    Ok(Some(MidAnswer {
        value,
        moves,
        nodes: total,
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn turns_of_states_move_the_right_bits() {
        let mut x = NONE;
        let picks = [0usize, 5, 77, 130, 255, 200, 63, 64];
        for &r in &picks {
            x[r >> 6] |= 1 << (r & 63);
        }
        for q in 0..4 {
            for clockwise in [false, true] {
                let y = after_turn(x, q, clockwise);
                for r in 0..256 {
                    assert_eq!(has(&y, r), has(&x, turn_state(r, q, clockwise)), "{q} {r}");
                }
            }
        }
    }

    #[test]
    fn fives_by_state_are_the_turned_boards() {
        let fives = Fives::get();
        let mut seed = 99u64;
        for _ in 0..300 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let side = (seed | seed >> 17) & BOARD;
            let by_state = fives.of(side);
            for r in 0..256 {
                let mut b = side;
                for q in 0..4 {
                    for _ in 0..(r >> (2 * q)) & 3 {
                        b = turn(b, 2 * q as u32 + 1);
                    }
                }
                assert_eq!(has(&by_state, r), super::super::five(b), "{side:x} {r}");
            }
        }
    }

    #[test]
    fn halves_keep_the_states_of_their_parity() {
        let mut seed = 5u64;
        for _ in 0..200 {
            let x: States = std::array::from_fn(|_| {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                seed
            });
            for p in 0..2 {
                let y = unpack(&pack(&x, p), p);
                for r in 0..256 {
                    let parity = (r ^ r >> 2 ^ r >> 4 ^ r >> 6) & 1;
                    let want = parity == p && has(&x, r);
                    assert_eq!(has(&y, r), want, "{r} {p}");
                }
            }
        }
    }

    #[test]
    fn fillings_step_in_index_order() {
        for (m, k) in [(10, 4), (7, 6), (12, 5), (5, 0), (9, 1), (8, 3)] {
            let level = Level::new(m, k);
            let mut fillings = Fillings::from(level, 0);
            for index in 0..level.len() {
                assert_eq!(fillings.step(), level.filling(index), "{m} {k} {index}");
            }
            let mut later = Fillings::from(level, level.len() / 2);
            assert_eq!(later.step(), level.filling(level.len() / 2));
        }
    }

    #[test]
    fn ranks_round_trip() {
        for (m, k) in [(10, 4), (7, 7), (12, 5), (5, 0)] {
            let level = Level::new(m, k);
            for index in 0..level.len() {
                let (filled, mine) = level.filling(index);
                assert_eq!(filled.count_ones() as usize, k);
                assert_eq!(mine & !filled, 0);
                assert_eq!(level.index(filled, mine), index);
            }
        }
    }
}
