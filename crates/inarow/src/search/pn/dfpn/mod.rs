//! Depth-first proof-number search (Nagai's df-pn) with the 1+ε trick, a bounded transposition
//! table, and repetition handling that never stores a path-dependent result as a fact.
//!
//! # Search
//! `mid(n, th_pn, th_dn)` searches below `n` while its proof number stays below `th_pn` and its
//! disproof number below `th_dn`. At an OR node (the attacker moves) it enters the child of least
//! proof number `c1` with thresholds
//! `th_pn(c1) = min(th_pn, pn2 + 1 + pn2/4)` (`pn2` = the second least: the 1+ε trick of
//! Pawlewicz & Lew with ε = 1/4, which keeps the search in one subtree a little longer instead of
//! switching between near-equal siblings) and `th_dn(c1) = th_dn - dn(n) + dn(c1)`; AND nodes
//! mirror this. The root is searched with both thresholds infinite, so `mid` returns only once
//! the root is solved. Children come from the game's safe moves, each evaluated at once by the
//! rules ([`pn`](super): a finished game, a win in one for the side to move, no safe move); the
//! children of a node live in one shared stack (`Vec`), so a node costs no allocation.
//!
//! # Threats (games with [`Tactics::THREATS`])
//! Before making the children of a node, df-pn asks what the opponent would win by threats if
//! the side to move passed ([`Tactics::pass`], threat-space search
//! with its answers remembered in a [`ThreatMemo`]). A child where that line still wins
//! ([`replays`]) is lost for the side to move and needs no search; if the opponent has no such
//! line, the children are not searched for one either. A new child is judged the same way one
//! level down: its moves that leave its opponent's line intact lose, so its first proof or
//! disproof number counts only the others (none left: solved). This is Allis' restriction of
//! the defence to the moves that meet the attacker's threats, each one checked by the rules.
//!
//! # Transposition table and replacement
//! Entries are 32 bytes: the full [`Rules::canonical_key`](crate::game::Rules::canonical_key) (two positions are never confused),
//! the proof and disproof numbers, the size of the subtree that produced them (the number of
//! `mid` calls, saturating), a generation and the question it answers. The table is an array of buckets of four entries;
//! a key hashes to one bucket. It starts at 8 MiB and doubles whenever three quarters of its
//! slots hold entries of the current generation, up to the memory budget. A store overwrites the
//! entry of the same key, else an empty (or other generation) entry, else an unsolved entry
//! if there is one, and of those the one with the smallest subtree: the bucketed form of
//! Nagai's SmallTreeGC (small subtrees are cheap to search again), as in Pawlewicz's Hex df-pn
//! (Beal & Smith's multiple probing). Solved entries go last because a certificate is
//! extracted from them: one lost had to be proved again, and a Qubic extraction spent more
//! nodes doing that than the search it came from (a 10-stone position: 151k nodes searched,
//! 92k proved again before; none now). "Can A reach NotLose?" is the complement of "can A's
//! opponent win?" (the same AND/OR graph with the roles exchanged), so both share one table,
//! stored as the Win question with proof and disproof numbers swapped for the other: the
//! certificate of a disproof (the opponent's strategy for the complementary goal) reuses the
//! table of the search that found it. The two such questions ("can the first player win?", "can
//! the second?") keep their entries side by side, told apart by a byte of the entry, so that
//! an analysis asking Win and NotLose of one child after another keeps every answer (before,
//! each change of question emptied the table). A new history starts a new generation, which
//! empties the table at once. That is what lets the engine race the two questions in slices
//! ([`Prover::answer_within`], [`raced_value`](super::raced_value)): a slice stops at a node
//! budget and the next slice of the same question goes on from what the table learnt. The
//! children of a node are read from the table on each pass of its loop, their buckets fetched
//! into the cache together first (in PopOut a miss after another was half the time).
//!
//! # Repetitions (the graph-history interaction)
//! Connect Four never repeats a position, but PopOut does, and its rule makes a repeated
//! position a draw. The exact keys ([`Rules::key`](crate::game::Rules::key)) of the positions on the current path (and of
//! the history the caller gives) are kept in a set. A move into one of them is a leaf judged by
//! the repetition rule (a [`RepetitionRule`]:
//! [`repetition_draw`](crate::game::repetition_draw) by default, game-independent) and
//! *tainted*, as in the PopOut thesis (§5.6): its value depends on the path.
//! Taint propagates as the thesis has it: a node solved by one child (an OR node proven, an AND
//! node disproven) is untainted if some untainted child suffices; a node solved by all children
//! is tainted if any of them is. A tainted solved result is never stored in the table; it lives
//! only in the parent's child stack for as long as the parent's `mid` runs (the path below the
//! parent is fixed then, so it stays valid), which also keeps the parent from looping on an
//! answer it cannot store. Unsolved numbers are stored whatever their taint: they only steer.
//!
//! The history before the root acts as a prefix of every path, and the table is kept between
//! `prove` calls only while *the history* (as a set) stays the same: a result is never read
//! under another history than the one it was found with (the tests show a position whose value
//! flips with its history), nor under another question (each entry says which it answers).
//!
//! Safe-move pruning is sound here: a position on the path was expanded, so its side to move had
//! no immediate win there, so no move that hands the opponent an immediate win can lead to it.
//! (A history position may have had one; the history is trusted not to hold such positions.)
//!
//! Known gap, as with every taint scheme: within one search an *untainted* solved entry may be
//! reused on a path that passes through a position of its proof tree, where the real game would
//! end in a repetition first (Kishimoto & Müller's general solution is not implemented). The
//! tests compare df-pn with an exhaustive path-aware reference on 60,000 random cyclic graphs
//! and find no wrong root value (storing tainted results instead gets about one graph in 10^4
//! wrong, which the test catches), and the proof certificates of [`extract`](super::extract) are checked by a verifier that
//! follows only the rules and the repetition rule, so such an error cannot hide in a verified
//! proof.

use super::prover::{Bookkeeping, Eval, Question};
use super::{
    INF, KeyBuild, PnStats, Prover, Verdict, order_moves, pn_add, root_verdict, solved_numbers,
    verdict_of,
};
use crate::error::Error;
use crate::game::{GameLine, Goal, MoveList, Player, RepetitionRule, Status, Tactics};
use crate::limits::Instant;
use crate::limits::{Clock, MAX_DEPTH, Stop};
use crate::memory::{Zeroable, zeroed};
use crate::search::cover::CoverPath;
use crate::search::threats::{ThreatBudget, ThreatMemo, replays};
use std::collections::HashSet;
use std::mem::size_of;

/// One table entry: a position's numbers, the work behind them, and its generation.
#[derive(Copy, Clone, Debug)]
#[repr(C)]
struct Entry {
    key: u128,
    pn: u32,
    dn: u32,
    /// `mid` calls in the subtree that gave the numbers; 0 = empty.
    work: u32,
    generation: u16,
    /// The question: 0 "can the first player win?", 1 "can the second?".
    winner: u8,
}

const _: () = assert!(size_of::<Entry>() == 32);

// SAFETY: plain integers; all zeros is the empty entry.
unsafe impl Zeroable for Entry {}

const EMPTY: Entry = Entry {
    key: 0,
    pn: 0,
    dn: 0,
    work: 0,
    generation: 0,
    winner: 0,
};

/// Entries per bucket.
const BUCKET: usize = 4;
/// Buckets a table starts with (8 MiB): it doubles as it fills, up to the memory budget, so
/// that a small proof does not pay for a large table.
const FIRST_BUCKETS: usize = 1 << 16;

/// The most threat-space answers df-pn remembers (24 MiB for the 4x4x4 games); the memo takes
/// at most a sixteenth of the memory budget, and only in games with threats.
const THREAT_MEMO: usize = 1 << 19;

/// The work of a judged child that was never searched: less than any searched node's.
const LEAF_WORK: u32 = 1;

/// A child on the stack of the node being searched.
#[derive(Copy, Clone, Debug)]
struct Kid<M> {
    key: u128,
    pn: u32,
    dn: u32,
    mv: M,
    state: u8,
}

/// The child's numbers are its final, solved value (no table lookup needed).
const FINAL: u8 = 1;
/// The child's solved value depends on the current path.
const TAINTED: u8 = 2;

/// Nagai's df-pn with a bounded table. See the module documentation.
pub struct DfPn<G: Tactics> {
    table: Vec<Entry>,
    buckets: usize,
    /// The most buckets the memory budget allows; the table starts smaller and doubles.
    max_buckets: usize,
    /// Entries of the current generation in the table.
    live: usize,
    /// The deepest the search goes below its root.
    max_depth: u32,
    /// Threat-space search at every node, with its answers remembered (`None`: off).
    threats: Option<ThreatMemo<G::Move>>,
    /// The slots of that memo.
    memo_slots: usize,
    /// Victor's threat rules at positions with at least this many empty cells (`None`: off).
    victor_plies: Option<u32>,
    generation: u16,
    /// Whether the table's current generation holds a session: answers found after
    /// `session_history` (sorted exact keys), the prefix of every path.
    session: bool,
    session_history: Vec<u128>,
    /// The current question as "can this player win?" (see [`Question::canonical`]): 0 the
    /// first player, 1 the second. Entries are kept for both questions, each with its own.
    winner: u8,
    /// The current question is the complement of "can `winner` win?": the table's proof and
    /// disproof numbers are read and written swapped.
    flip: bool,
    question: Question,
    kids: Vec<Kid<G::Move>>,
    /// The opponent's threat line at the node being expanded (kept to reuse its allocation).
    line: Vec<G::Move>,
    /// A threat line nobody keeps.
    scratch: Vec<G::Move>,
    /// The rules' views along the path (with `victor_plies`).
    cover_path: CoverPath,
    path: HashSet<u128, KeyBuild>,
    book: Bookkeeping<G>,
    /// The clock's tick past which the current call yields ([`Prover::answer_within`]), and
    /// whether it did: the table keeps what the slice learnt.
    slice_end: Option<u64>,
    sliced_out: bool,
}

impl<G: Tactics> DfPn<G> {
    /// A search with a table of about `mem_bytes` bytes (32 bytes an entry, at least one
    /// bucket).
    ///
    /// # Panics
    /// Where [`DfPn::try_new`] returns an error.
    pub fn new(mem_bytes: usize) -> Self {
        Self::try_new(mem_bytes).unwrap_or_else(|e| panic!("{e}"))
    }

    /// Like [`DfPn::new`], but a table the machine cannot hold is an error.
    ///
    /// # Errors
    /// [`Error::Memory`] when the table cannot be allocated.
    pub fn try_new(mem_bytes: usize) -> Result<Self, Error> {
        Self::try_with_entries(mem_bytes / size_of::<Entry>())
    }

    /// A search with a table of about `entries` entries (rounded down to whole buckets).
    ///
    /// # Panics
    /// When the table cannot be allocated.
    pub fn with_entries(entries: usize) -> Self {
        Self::try_with_entries(entries).unwrap_or_else(|e| panic!("{e}"))
    }

    fn try_with_entries(entries: usize) -> Result<Self, Error> {
        let mem_bytes = entries * size_of::<Entry>();
        // A sixteenth of the budget for the threat memo, in a power of two of slots.
        let memo_slots = if G::THREATS {
            let share = mem_bytes / 16 / ThreatMemo::<G::Move>::slot_bytes();
            (1usize << (usize::BITS - 1 - share.max(64).leading_zeros())).min(THREAT_MEMO)
        } else {
            0
        };
        let memo_bytes = memo_slots * ThreatMemo::<G::Move>::slot_bytes();
        let entries = entries.saturating_sub(memo_bytes / size_of::<Entry>());
        let max_buckets = (entries / BUCKET).max(1);
        let buckets = max_buckets.min(FIRST_BUCKETS);
        let table = zeroed(buckets * BUCKET).ok_or_else(|| {
            Error::Memory(format!(
                "df-pn table of {} MiB cannot be allocated",
                (buckets * BUCKET * size_of::<Entry>()) >> 20
            ))
        })?;
        Ok(DfPn {
            table,
            buckets,
            max_buckets,
            live: 0,
            max_depth: MAX_DEPTH,
            threats: Some(ThreatMemo::new(memo_slots, ThreatBudget::default())),
            memo_slots,
            victor_plies: None,
            generation: 1,
            session: false,
            session_history: Vec::new(),
            winner: 0,
            flip: false,
            question: Question::new(Player::First, Goal::Win),
            kids: Vec::new(),
            line: Vec::new(),
            scratch: Vec::new(),
            cover_path: CoverPath::new(),
            slice_end: None,
            sliced_out: false,
            path: HashSet::default(),
            book: Bookkeeping::new(mem_bytes),
        })
    }

    /// Sets how a repeated position ends (default: a draw). Forgets the table.
    pub fn set_repetition_rule(&mut self, rule: RepetitionRule<G>) {
        self.book.rule = rule;
        self.session = false;
    }

    /// Lowers the depth limit below [`MAX_DEPTH`] (for tests: a line of play deeper than this
    /// stops the search, and proof extraction, with [`Stop::Depth`]).
    pub fn set_max_depth(&mut self, plies: u32) {
        self.max_depth = plies.min(MAX_DEPTH);
    }

    /// Sets the threat-space search run at every node (`None`: none). The table stays: what it
    /// holds as solved is true whatever found it.
    pub fn set_threat_search(&mut self, threats: Option<ThreatBudget>) {
        self.threats = threats.map(|budget| ThreatMemo::new(self.memo_slots, budget));
    }

    /// Sets where Victor's threat rules ([`crate::search::cover`]) settle a position before
    /// any search, on games that describe themselves as gravity boards: at positions with at
    /// least `plies` empty cells, a proof that the side to move cannot win (`None`: off). The
    /// table stays, as for the threat-space search.
    pub fn set_victor_plies(&mut self, plies: Option<u32>) {
        self.victor_plies = plies;
    }

    /// What [`DfPn::set_victor_plies`] set.
    pub fn victor_plies(&self) -> Option<u32> {
        self.victor_plies
    }

    /// Whether the side to move in `pos` wins by threats (its moves in `line`), by the search's
    /// own threat-space search and its memo; false when that search is off.
    pub fn threat_line(&mut self, pos: &G, line: &mut Vec<G::Move>) -> bool {
        line.clear();
        match &mut self.threats {
            Some(memo) => memo.line(pos, &mut self.book.stats.threat_nodes, line),
            None => false,
        }
    }

    /// [`DfPn::threat_line`] of the opponent of the side to move in `pos`, as if the side to
    /// move passed ([`Tactics::pass`]): false where the game has no pass, or the opponent could
    /// win at once (the side to move must answer that first).
    pub fn pass_line(&mut self, pos: &G, line: &mut Vec<G::Move>) -> bool {
        line.clear();
        match pos.pass() {
            Some(passed) if passed.status() == Status::Ongoing && !passed.has_winning_move() => {
                self.threat_line(&passed, line)
            }
            _ => false,
        }
    }

    /// The deepest the search and proof extraction go below their root.
    pub fn max_depth(&self) -> u32 {
        self.max_depth
    }

    /// The rule that judges repeated positions.
    pub fn repetition_rule(&self) -> RepetitionRule<G> {
        self.book.rule
    }

    /// The number of entries the table may grow to.
    pub fn table_entries(&self) -> usize {
        self.max_buckets * BUCKET
    }

    /// Forgets everything the table learnt.
    pub fn clear(&mut self) {
        self.new_generation();
        self.session = false;
        self.session_history.clear();
    }

    /// Hides every entry of the table at once (the sweep is needed only on wrap-around).
    fn new_generation(&mut self) {
        self.generation = self.generation.wrapping_add(1);
        self.live = 0;
        if self.generation == 0 {
            self.table.fill(EMPTY);
            self.generation = 1;
        }
    }

    /// The verdict the table holds for `pos` under this attacker and goal with no history, if
    /// any (a cheap look-up for proof extraction; no search).
    pub fn known(&self, pos: &G, attacker: Player, goal: Goal) -> Option<Verdict> {
        let (winner, flip) = Question::new(attacker, goal).canonical();
        if !self.session || !self.session_history.is_empty() {
            return None;
        }
        verdict_of(self.lookup_as(pos.canonical_key(), (winner == Player::Second) as u8, flip)?)
    }

    /// Searches below `pos` (open) for `attacker` and `goal` with no history, whatever the
    /// table holds for `pos` itself: for proof extraction where the table kept a solved position
    /// but lost its solved children. Best-first among the children, so that the moves that fail
    /// cost no full disproof each; afterwards the table holds the child that settled it.
    ///
    /// # Errors
    /// The [`Stop`] that ended the search before it answered.
    pub fn search_below(
        &mut self,
        pos: &G,
        attacker: Player,
        goal: Goal,
        clock: &mut Clock,
    ) -> Result<Verdict, Stop> {
        let started = Instant::now();
        self.begin(Question::new(attacker, goal), &[]);
        let r = self.mid(pos, pos.canonical_key(), INF, INF, 0, clock);
        self.book.end_proof(started);
        let (pn, dn, _) = r?;
        Ok(root_verdict(pn, dn))
    }

    /// Starts a question after `history`: a new generation when the history changes (or no
    /// session is open), while a change of question keeps the table (each entry says which
    /// question it answers); the path starts with the history.
    fn begin(&mut self, question: Question, history: &[u128]) {
        let mut sorted = history.to_vec();
        sorted.sort_unstable();
        sorted.dedup();
        let (winner, flip) = question.canonical();
        let winner = (winner == Player::Second) as u8;
        if !self.session || self.session_history != sorted {
            self.session_history = sorted;
            self.new_generation();
            self.session = true;
        }
        self.winner = winner;
        self.flip = flip;
        self.question = question;
        self.path.clear();
        self.path.extend(history.iter().copied());
        self.kids.clear();
    }

    fn prove_root(&mut self, pos: &G, clock: &mut Clock) -> Result<Verdict, Stop> {
        if self.path.contains(&pos.key()) {
            return Ok(self.question.repeated(pos, self.book.rule));
        }
        if let Eval::Solved(v) = self.judge(pos, true) {
            return Ok(v);
        }
        let key = pos.canonical_key();
        if let Some(v) = self.lookup(key).and_then(verdict_of) {
            return Ok(v);
        }
        let (pn, dn, _) = self.mid(pos, key, INF, INF, 0, clock)?;
        Ok(root_verdict(pn, dn))
    }

    /// The bytes the search's structures hold.
    fn bytes(&self) -> usize {
        self.table.len() * size_of::<Entry>()
            + self.threats.as_ref().map_or(0, |memo| memo.bytes())
            + self.kids.capacity() * size_of::<Kid<G::Move>>()
            + self.path.capacity() * (size_of::<u128>() + 1)
    }

    #[inline(always)]
    fn bucket(&self, key: u128) -> usize {
        bucket_of(key, self.buckets)
    }

    /// Starts loading the bucket of `key` into the cache, ahead of a look-up.
    #[inline(always)]
    fn prefetch(&self, key: u128) {
        // Elsewhere (the web) there is no prefetch instruction to give.
        #[cfg(not(target_arch = "x86_64"))]
        let _ = key;
        #[cfg(target_arch = "x86_64")]
        {
            let b = self.bucket(key);
            let at = self.table[b..b + BUCKET].as_ptr() as *const i8;
            // SAFETY: prefetching is a hint; both addresses are inside the bucket (a bucket is
            // 128 bytes, two cache lines).
            unsafe {
                use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
                _mm_prefetch::<_MM_HINT_T0>(at);
                _mm_prefetch::<_MM_HINT_T0>(at.add(64));
            }
        }
    }

    /// The numbers stored for `key`, for the current question.
    #[inline]
    fn lookup(&self, key: u128) -> Option<(u32, u32)> {
        self.lookup_as(key, self.winner, self.flip)
    }

    /// The numbers stored for `key` under "can `winner` win?", swapped with `flip`.
    #[inline]
    fn lookup_as(&self, key: u128, winner: u8, flip: bool) -> Option<(u32, u32)> {
        let b = self.bucket(key);
        self.table[b..b + BUCKET]
            .iter()
            .find(|e| {
                e.work != 0 && e.generation == self.generation && e.key == key && e.winner == winner
            })
            .map(|e| if flip { (e.dn, e.pn) } else { (e.pn, e.dn) })
    }

    /// Stores the numbers of the current question for `key`; grows the table when three
    /// quarters of it hold entries of this generation.
    #[inline]
    fn store(&mut self, key: u128, pn: u32, dn: u32, work: u32) {
        let (pn, dn) = if self.flip { (dn, pn) } else { (pn, dn) };
        let b = self.bucket(key);
        let entry = Entry {
            key,
            pn,
            dn,
            work: work.max(1),
            generation: self.generation,
            winner: self.winner,
        };
        if place(&mut self.table[b..b + BUCKET], entry) {
            self.live += 1;
            if self.live * 4 > self.table.len() * 3 && self.buckets < self.max_buckets {
                self.grow();
            }
        }
    }

    /// Doubles the table (up to the budget), moving the entries of this generation over; stays
    /// as it is if the memory cannot be had.
    ///
    /// In place: a new table beside the old one would hold one and a half times the memory
    /// budget at the last doubling. A key's bucket never moves down as the table grows
    /// (`spread` is monotone in the bucket count), so the old buckets are emptied from the top
    /// and their entries placed at or above where they were.
    #[cold]
    fn grow(&mut self) {
        let old = self.buckets;
        let buckets = (old * 2).min(self.max_buckets);
        if self
            .table
            .try_reserve_exact((buckets - old) * BUCKET)
            .is_err()
        {
            self.max_buckets = old;
            return;
        }
        self.table.resize(buckets * BUCKET, EMPTY);
        self.live = 0;
        for i in (0..old).rev() {
            let here = i * BUCKET..(i + 1) * BUCKET;
            let mut moving = [EMPTY; BUCKET];
            moving.copy_from_slice(&self.table[here.clone()]);
            self.table[here].fill(EMPTY);
            for e in moving {
                if e.work != 0 && e.generation == self.generation {
                    let b = bucket_of(e.key, buckets);
                    self.live += place(&mut self.table[b..b + BUCKET], e) as usize;
                }
            }
        }
        self.buckets = buckets;
    }

    /// What `pos` is worth before any search ([`Question::evaluate_into`]), and, with `threats`
    /// and the threat-space search on, whether its side to move wins by threats.
    fn judge(&mut self, pos: &G, threats: bool) -> Eval {
        let mut moves = MoveList::new();
        let eval = self.question.evaluate_into(pos, &mut moves);
        if let (Eval::Open(_), true, Some(memo)) = (eval, threats, &mut self.threats)
            && memo.line(pos, &mut self.book.stats.threat_nodes, &mut self.scratch)
        {
            return Eval::Solved(self.question.won_by(pos.side_to_move()));
        }
        if let (Eval::Open(_), Some(plies)) = (eval, self.victor_plies) {
            // Where a side to move that cannot win settles the question, that is asked; else
            // whether it loses, which settles any.
            let side = pos.side_to_move();
            match self.question.cannot_win(side) {
                Some(verdict) => {
                    let view = self.cover_path.at(pos, plies);
                    if view.is_some_and(|v| v.side_to_move_cannot_win(plies)) {
                        return Eval::Solved(verdict);
                    }
                }
                None => {
                    let view = self.cover_path.at(pos, plies);
                    if view.is_some_and(|v| v.side_to_move_loses(plies)) {
                        return Eval::Solved(self.question.won_by(side.opponent()));
                    }
                }
            }
        }
        eval
    }

    /// An open position's moves that survive what its opponent would win by threats if it
    /// passed; none: it is lost.
    fn count_defences(&mut self, pos: &G, eval: Eval) -> Eval {
        let mut line = std::mem::take(&mut self.scratch);
        if !matches!(eval, Eval::Open(_)) || !self.pass_line(pos, &mut line) {
            self.scratch = line;
            return eval;
        }
        let mut moves = MoveList::new();
        pos.safe_moves(&mut moves);
        let left = moves
            .iter()
            .filter(|rm| !replays(&pos.play(rm.mv), &line))
            .count() as u32;
        self.scratch = line;
        if left == 0 {
            Eval::Solved(self.question.won_by(pos.side_to_move().opponent()))
        } else {
            Eval::Open(left)
        }
    }

    /// Pushes the children of `pos` on the kid stack (a separate frame, so that the move list
    /// is off the stack before the search recurses).
    #[inline(never)]
    fn make_kids(&mut self, pos: &G, clock: &mut Clock) -> Result<(), Stop> {
        let base = self.kids.len();
        // The children's views for the rules are made from this one by a move each.
        if let Some(plies) = self.victor_plies {
            self.cover_path.at(pos, plies);
        }
        let mut moves = MoveList::new();
        pos.safe_moves(&mut moves);
        order_moves(pos, &mut moves);
        // The children's keys first, their buckets fetched at once (a table miss after
        // another was most of PopOut's time), then the children made in that order.
        let mut keys: MoveList<u128> = MoveList::new();
        for rm in &moves {
            let key = pos.play(rm.mv).canonical_key();
            self.prefetch(key);
            keys.push(key);
        }
        // What the opponent would win by threats if the side to move passed: every move that
        // leaves that line intact loses to it (checked move by move), and needs no search.
        // If it has none, it is not looked for after each move either: a move of the side to
        // move seldom gives the opponent a line it did not have.
        let mut line = std::mem::take(&mut self.line);
        line.clear();
        let child_threats =
            moves.len() <= 1 || pos.pass().is_none() || self.pass_line(pos, &mut line);
        for (rm, &key) in moves.iter().zip(&keys) {
            let child = pos.play(rm.mv);
            let (pn, dn, state) = if self.path.contains(&child.key()) {
                let (pn, dn) = solved_numbers(self.question.repeated(&child, self.book.rule));
                (pn, dn, FINAL | TAINTED)
            } else {
                // A mirror image of an earlier child adds nothing (it has the same value).
                if self.kids[base..]
                    .iter()
                    .any(|k| k.key == key && k.state & TAINTED == 0)
                {
                    continue;
                }
                if !line.is_empty() && replays(&child, &line) {
                    let (pn, dn) = solved_numbers(self.question.won_by(child.side_to_move()));
                    (pn, dn, FINAL)
                } else if let Some((pn, dn)) = self.lookup(key) {
                    // Searched or judged before: what the table knows beats a new judgement.
                    (pn, dn, if pn == 0 || dn == 0 { FINAL } else { 0 })
                } else {
                    if let Err(stop) = clock.poll() {
                        self.line = line;
                        return Err(stop);
                    }
                    let eval = self.judge(&child, child_threats);
                    let (pn, dn, state) = match self.count_defences(&child, eval) {
                        Eval::Solved(v) => {
                            let (pn, dn) = solved_numbers(v);
                            (pn, dn, FINAL)
                        }
                        // df-pn+: the first numbers by mobility.
                        Eval::Open(moves) => {
                            let (pn, dn) = self.question.mobility_numbers(&child, moves);
                            (pn, dn, 0)
                        }
                    };
                    // In games with threats a judgement costs threat-space searches: kept, it
                    // is not made again each time df-pn comes back to the parent (a quarter
                    // less time on the 4x4x4 games). Its work is the least, so it is the first
                    // to be replaced. Elsewhere it is cheaper to judge again than to store.
                    if G::THREATS {
                        self.store(key, pn, dn, LEAF_WORK);
                    }
                    (pn, dn, state)
                }
            };
            self.kids.push(Kid {
                key,
                pn,
                dn,
                mv: rm.mv,
                state,
            });
        }
        self.line = line;
        Ok(())
    }

    /// Searches below `pos` (open, not on the path, `depth` plies below the root) until its
    /// proof number reaches `th_pn` or its disproof number reaches `th_dn`; returns its numbers
    /// and whether a solved result depends on the path.
    fn mid(
        &mut self,
        pos: &G,
        key: u128,
        th_pn: u32,
        th_dn: u32,
        depth: u32,
        clock: &mut Clock,
    ) -> Result<(u32, u32, bool), Stop> {
        if depth >= self.max_depth {
            return Err(Stop::Depth);
        }
        clock.tick()?;
        if self.slice_end.is_some_and(|end| clock.ticks > end) {
            self.sliced_out = true;
            return Err(Stop::Nodes);
        }
        self.book.count_expansion();
        let first_tick = clock.ticks;
        let or = self.question.is_or(pos);
        let exact = pos.key();
        self.path.insert(exact);
        let base = self.kids.len();
        self.make_kids(pos, clock)?;
        debug_assert!(self.kids.len() > base, "an open position has a safe move");
        // `a` is the number a child must make small for this node to be solved by it alone
        // (proof at OR nodes, disproof at AND nodes); `b` the number summed over children.
        let (pn, dn) = loop {
            let mut best = base;
            let mut least = INF;
            let mut second = INF;
            let mut sum = 0;
            // The table is read again for every open child (a transposition may have moved
            // its numbers): their buckets are fetched at once, not one miss after another.
            for k in &self.kids[base..] {
                if k.state == 0 {
                    self.prefetch(k.key);
                }
            }
            for i in base..self.kids.len() {
                if self.kids[i].state == 0
                    && let Some((p, d)) = self.lookup(self.kids[i].key)
                {
                    let k = &mut self.kids[i];
                    k.pn = p;
                    k.dn = d;
                    if p == 0 || d == 0 {
                        k.state = FINAL;
                    }
                }
                let k = &self.kids[i];
                let (a, b) = if or { (k.pn, k.dn) } else { (k.dn, k.pn) };
                if a < least {
                    second = least;
                    least = a;
                    best = i;
                } else if a < second {
                    second = a;
                }
                sum = pn_add(sum, b);
            }
            let (pn, dn) = if or { (least, sum) } else { (sum, least) };
            if pn >= th_pn || dn >= th_dn {
                break (pn, dn);
            }
            let (th_a, th_b) = if or { (th_pn, th_dn) } else { (th_dn, th_pn) };
            let kid = self.kids[best];
            let kid_b = if or { kid.dn } else { kid.pn };
            let child_a = th_a.min(second.saturating_add(1 + second / 4));
            let child_b = if th_b == INF {
                INF
            } else {
                (th_b as u64 - sum as u64 + kid_b as u64).min(INF as u64) as u32
            };
            let (cth_pn, cth_dn) = if or {
                (child_a, child_b)
            } else {
                (child_b, child_a)
            };
            let child = pos.play(kid.mv);
            let (cp, cd, tainted) = self.mid(&child, kid.key, cth_pn, cth_dn, depth + 1, clock)?;
            let k = &mut self.kids[best];
            k.pn = cp;
            k.dn = cd;
            if cp == 0 || cd == 0 {
                k.state = FINAL | if tainted { TAINTED } else { 0 };
            }
        };
        let solved = pn == 0 || dn == 0;
        let tainted = solved && {
            let kids = &self.kids[base..];
            let a = |k: &Kid<G::Move>| if or { k.pn } else { k.dn };
            if kids.iter().any(|k| a(k) == 0) {
                // Solved by one child: clean if some clean child suffices.
                !kids.iter().any(|k| a(k) == 0 && k.state & TAINTED == 0)
            } else {
                // Solved by all children: tainted if any of them is.
                kids.iter().any(|k| k.state & TAINTED != 0)
            }
        };
        if !(solved && tainted) {
            let work =
                (clock.ticks - first_tick + 1 + LEAF_WORK as u64).min(u32::MAX as u64) as u32;
            self.store(key, pn, dn, work);
        }
        self.kids.truncate(base);
        self.path.remove(&exact);
        Ok((pn, dn, tainted))
    }
}

impl<G: Tactics> Prover<G> for DfPn<G> {
    fn clear(&mut self) {
        DfPn::clear(self);
    }

    /// The table is kept between calls with the same history (as a set), whatever the question
    /// (each entry says which it answers), and forgotten when the history changes: a result is
    /// only ever reused under the history and the question it was found with.
    fn answer(
        &mut self,
        line: &GameLine<G>,
        question: Question,
        clock: &mut Clock,
    ) -> Result<Verdict, Stop> {
        let started = Instant::now();
        let before: Vec<u128> = line.earlier_keys().collect();
        self.begin(question, &before);
        let r = self.prove_root(line.position(), clock);
        self.book.end_proof(started);
        self.book.note_bytes(self.bytes());
        r
    }

    /// [`Prover::answer`] within `budget` more expansions: `None` when they run out first, with
    /// what the search learnt kept in the table for the next call under the same history.
    fn answer_within(
        &mut self,
        line: &GameLine<G>,
        question: Question,
        budget: u64,
        clock: &mut Clock,
    ) -> Result<Option<Verdict>, Stop> {
        self.slice_end = Some(clock.ticks.saturating_add(budget));
        self.sliced_out = false;
        let r = self.answer(line, question, clock);
        self.slice_end = None;
        match r {
            Err(Stop::Nodes) if self.sliced_out => Ok(None),
            r => r.map(Some),
        }
    }

    fn stats(&self) -> PnStats {
        self.book.stats
    }
}

/// The first entry of the bucket of `key` among `buckets`.
#[inline(always)]
fn bucket_of(key: u128, buckets: usize) -> usize {
    crate::search::tt::spread(key, buckets) * BUCKET
}

/// Puts `entry` in its bucket: over the entry of the same key, else an empty (or other
/// generation) slot, else the unsolved entry with the smallest subtree, else the solved one
/// with the smallest. Returns whether it took a slot that held no entry of its generation.
#[inline]
fn place(bucket: &mut [Entry], entry: Entry) -> bool {
    let mut victim = 0;
    let mut victim_cost = u64::MAX;
    for (i, e) in bucket.iter().enumerate() {
        let live = e.work != 0 && e.generation == entry.generation;
        if live && e.key == entry.key && e.winner == entry.winner {
            victim = i;
            victim_cost = 1;
            break;
        }
        let solved = e.pn == 0 || e.dn == 0;
        let cost = if live {
            ((solved as u64) << 32 | e.work as u64) + 1
        } else {
            0
        };
        if cost < victim_cost {
            victim_cost = cost;
            victim = i;
        }
    }
    bucket[victim] = entry;
    victim_cost == 0
}

#[cfg(test)]
pub(crate) mod tests;
