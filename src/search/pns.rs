//! Proof-number search (Allis): best-first AND/OR search on an arena of nodes, and PN², its
//! two-level form that trades time for memory.
//!
//! # The graph
//! Nodes live in one arena (`Vec<Node>`, `u32` indices, a free list); a node holds its position,
//! its proof and disproof numbers (`u32`, `u32::MAX` = infinite = solved), a block of child
//! indices (children are made together and released together, so a block is one slice of a
//! shared `Vec<u32>`, with free lists per block size) and its parents (the first inline, the
//! others in a linked list).
//! Children are made from the game's safe moves ([`Game::safe_moves`]), each evaluated at once
//! (Allis' immediate evaluation: a finished game, a win in one for the side to move, or no safe
//! move solves the child on the spot).
//!
//! # Transpositions (DAG mode) and the over-counting they bring
//! Positions are merged through a map from [`Game::canonical_key`] to node, so the graph is a
//! DAG: a node may have several parents. Each iteration descends from the root to a
//! most-proving node (at OR nodes the child of least proof number, at AND nodes the child of least
//! disproof number, ties to the game's move order), expands it, and updates the numbers of every
//! ancestor through *all* parents: changed nodes are processed deepest ply first (a heap keyed by
//! ply, each node at most once per update, since every move adds one ply), and a node whose
//! numbers did not change stops the propagation.
//!
//! A node reached along several paths is counted once per path in its ancestors' sums: the
//! known DAG over-estimation of proof and disproof numbers. We accept it: the numbers only steer
//! the choice of the most-proving node, a proof found is still a proof, and the cures (exact
//! counting, or Müller's subtraction of shared terms) cost more than they save on Connect Four
//! like games whose transpositions are local.
//!
//! # Solved subtrees and memory
//! When a node is solved, its children are released: each loses the edge to it, and one left
//! without parents is freed with its whole subtree (removed from the map, its slot and child
//! block put on the free lists). The solved node itself stays, so a transposition into it is
//! answered at once. The memory budget (`mem_bytes`) covers the arena, the child blocks, the
//! parent links and the map; growth is checked *before* it happens (the next capacity of each
//! container), and a search that would pass the budget stops with [`StopReason::Memory`].
//!
//! # Repetitions
//! In a game without repetitions every key occurs at one ply only. The search starts in DAG mode;
//! the first time it meets a key at a different ply than the node already made for it (or a
//! position of the current path or the history before the root), the game has shown that it can
//! repeat positions, where a node's value may depend on the path that reached it. The search then
//! starts again in tree mode: no transpositions, every node has one path, and a move into a
//! position of that path (or of the history) is a leaf judged by the repetition rule
//! ([`RepetitionRule`], a draw by default). Tree mode is exact, and costs only memory.
//!
//! # PN²
//! [`Pn2`] is Allis' two-level search as Breuker describes it: the first level is the PNS above;
//! whenever it expands a node, each new child that the rules do not solve is searched by a
//! second-level PNS (its own arena, cleared after each use) limited to as many expansions as the
//! first-level tree has nodes (at least [`PN2_MIN_EXPANSIONS`], at most `level2_max`). The child
//! keeps only the numbers of the second-level root: solved if the second level solved it,
//! otherwise an unexpanded first-level leaf with those numbers; the second-level tree is
//! discarded either way (the first level grows by one generation of children per expansion, as
//! in PNS, but each child starts with well-informed numbers). The second level gets the
//! remaining memory budget, and when it runs out it simply reports the numbers it has.
//!
//! Every `prove` call builds its graph afresh (the allocations are kept for the next call).

use super::pn::{
    Clock, Eval, Goal, INF, Key, KeyBuild, PnStats, Prover, RepetitionRule, StopReason, Verdict,
    evaluate_into, order_moves, pn_add, repetition_draw, status_verdict,
};
use crate::game::{Game, MoveList, Player};
use crate::search::alphabeta::Limits;
use std::collections::{BinaryHeap, HashMap};
use std::mem::size_of;
use std::time::Instant;

/// The fewest expansions a second-level search of PN² may make.
pub const PN2_MIN_EXPANSIONS: u64 = 64;

const NONE: u32 = u32::MAX;

/// One position of the graph.
#[derive(Clone, Copy, Debug)]
struct Node<G> {
    pos: G,
    pn: u32,
    dn: u32,
    /// Start of the child block in `Tree::kids`; `NONE` while unexpanded.
    kids: u32,
    n_kids: u32,
    /// The first parent (`NONE` for the root); in a free slot, the next free slot.
    parent: u32,
    /// Head of the list of the other parents in `Tree::links`.
    more: u32,
    /// The update round that last queued this node.
    stamp: u32,
}

/// One extra parent of a node.
#[derive(Clone, Copy, Debug)]
struct Link {
    parent: u32,
    next: u32,
}

/// Why a search returned early.
enum Interrupt {
    Stop(StopReason),
    /// The game repeated a position: start again in tree mode.
    Cyclic,
}

impl From<StopReason> for Interrupt {
    fn from(s: StopReason) -> Self {
        Interrupt::Stop(s)
    }
}

/// What a search does when its memory budget is spent.
#[derive(Copy, Clone, PartialEq, Eq)]
enum WhenFull {
    /// Stop with [`StopReason::Memory`] (a first level).
    Stop,
    /// Return the root's numbers (a second level).
    Return,
}

/// The second level handed to a first-level search: the tree to use and its size cap.
struct Level2<'a, G: Game> {
    tree: &'a mut Tree<G>,
    max: u64,
}

/// The arena, the map and the search over them; one per level.
struct Tree<G: Game> {
    nodes: Vec<Node<G>>,
    free_node: u32,
    free_count: usize,
    live: usize,
    kids: Vec<u32>,
    /// Free child blocks, by size.
    free_blocks: Vec<Vec<u32>>,
    links: Vec<Link>,
    free_link: u32,
    free_links: usize,
    map: HashMap<Key, u32, KeyBuild>,
    dag: bool,
    attacker: Player,
    goal: Goal,
    heuristic: bool,
    rule: RepetitionRule<G>,
    epoch: u32,
    heap: BinaryHeap<(u32, u32)>,
    /// Exact keys of the history and of the current descent path.
    path: Vec<u128>,
    scratch: Vec<u32>,
    expanded: u64,
    peak: usize,
}

impl<G: Game> Tree<G> {
    fn new(heuristic: bool) -> Self {
        Tree {
            nodes: Vec::new(),
            free_node: NONE,
            free_count: 0,
            live: 0,
            kids: Vec::new(),
            free_blocks: Vec::new(),
            links: Vec::new(),
            free_link: NONE,
            free_links: 0,
            map: HashMap::default(),
            dag: true,
            attacker: Player::First,
            goal: Goal::Win,
            heuristic,
            rule: repetition_draw::<G>,
            epoch: 0,
            heap: BinaryHeap::new(),
            path: Vec::new(),
            scratch: Vec::new(),
            expanded: 0,
            peak: 0,
        }
    }

    /// Forgets the graph (keeping the allocations) for a new question.
    fn reset(&mut self, attacker: Player, goal: Goal, dag: bool) {
        self.nodes.clear();
        self.free_node = NONE;
        self.free_count = 0;
        self.live = 0;
        self.kids.clear();
        for b in &mut self.free_blocks {
            b.clear();
        }
        self.links.clear();
        self.free_link = NONE;
        self.free_links = 0;
        self.map.clear();
        self.dag = dag;
        self.attacker = attacker;
        self.goal = goal;
        self.epoch = 0;
        self.heap.clear();
        self.path.clear();
    }

    fn map_bytes(capacity: usize) -> usize {
        if capacity == 0 {
            0
        } else {
            (capacity * 8 / 7).next_power_of_two() * (size_of::<(Key, u32)>() + 1)
        }
    }

    /// The bytes the search's structures hold.
    fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node<G>>()
            + self.kids.capacity() * size_of::<u32>()
            + self.links.capacity() * size_of::<Link>()
            + Self::map_bytes(self.map.capacity())
            + self
                .free_blocks
                .iter()
                .map(|b| b.capacity() * size_of::<u32>())
                .sum::<usize>()
            + self.heap.capacity() * size_of::<(u32, u32)>()
            + (self.path.capacity() + 1) * size_of::<u128>()
    }

    /// Makes room for an expansion with `n` children, unless that passes `budget` bytes.
    fn reserve(&mut self, n: usize, budget: usize) -> bool {
        fn grown(len: usize, cap: usize, extra: usize) -> usize {
            if len + extra <= cap {
                cap
            } else {
                (len + extra).max(cap * 2).max(64)
            }
        }
        let new_nodes = n.saturating_sub(self.free_count);
        let nodes_cap = grown(self.nodes.len(), self.nodes.capacity(), new_nodes);
        let block_free = self.free_blocks.get(n).is_some_and(|b| !b.is_empty());
        let kids_cap = grown(
            self.kids.len(),
            self.kids.capacity(),
            if block_free { 0 } else { n },
        );
        let new_links = if self.dag {
            n.saturating_sub(self.free_links)
        } else {
            0
        };
        let links_cap = grown(self.links.len(), self.links.capacity(), new_links);
        let map_cap = if self.dag && self.map.len() + n > self.map.capacity() {
            (self.map.len() + n).max(self.map.capacity() + 1)
        } else {
            self.map.capacity()
        };
        let extra = (nodes_cap - self.nodes.capacity()) * size_of::<Node<G>>()
            + (kids_cap - self.kids.capacity()) * size_of::<u32>()
            + (links_cap - self.links.capacity()) * size_of::<Link>()
            + Self::map_bytes(map_cap).saturating_sub(Self::map_bytes(self.map.capacity()))
            + size_of::<u32>() * 64;
        if self.bytes() + extra > budget {
            return false;
        }
        self.nodes.reserve_exact(nodes_cap - self.nodes.len());
        self.kids.reserve_exact(kids_cap - self.kids.len());
        self.links.reserve_exact(links_cap - self.links.len());
        if self.dag {
            self.map.reserve(n);
        }
        true
    }

    fn alloc_node(&mut self, pos: G, (pn, dn): (u32, u32), parent: u32) -> u32 {
        let node = Node {
            pos,
            pn,
            dn,
            kids: NONE,
            n_kids: 0,
            parent,
            more: NONE,
            stamp: 0,
        };
        self.live += 1;
        if self.free_node != NONE {
            let i = self.free_node;
            self.free_node = self.nodes[i as usize].parent;
            self.free_count -= 1;
            self.nodes[i as usize] = node;
            i
        } else {
            self.nodes.push(node);
            (self.nodes.len() - 1) as u32
        }
    }

    fn free_slot(&mut self, i: u32) {
        let node = &mut self.nodes[i as usize];
        node.parent = self.free_node;
        node.kids = NONE;
        node.n_kids = 0;
        self.free_node = i;
        self.free_count += 1;
        self.live -= 1;
    }

    fn alloc_block(&mut self, block: &[u32]) -> u32 {
        let n = block.len();
        if let Some(start) = self.free_blocks.get_mut(n).and_then(|b| b.pop()) {
            self.kids[start as usize..start as usize + n].copy_from_slice(block);
            start
        } else {
            let start = self.kids.len() as u32;
            self.kids.extend_from_slice(block);
            start
        }
    }

    fn free_block(&mut self, start: u32, n: u32) {
        let n = n as usize;
        if self.free_blocks.len() <= n {
            self.free_blocks.resize_with(n + 1, Vec::new);
        }
        self.free_blocks[n].push(start);
    }

    fn add_parent(&mut self, child: u32, parent: u32) {
        let c = child as usize;
        if self.nodes[c].parent == NONE {
            self.nodes[c].parent = parent;
            return;
        }
        let link = Link {
            parent,
            next: self.nodes[c].more,
        };
        let i = if self.free_link != NONE {
            let i = self.free_link;
            self.free_link = self.links[i as usize].next;
            self.free_links -= 1;
            self.links[i as usize] = link;
            i
        } else {
            self.links.push(link);
            (self.links.len() - 1) as u32
        };
        self.nodes[c].more = i;
    }

    fn free_link_slot(&mut self, i: u32) {
        self.links[i as usize].next = self.free_link;
        self.free_link = i;
        self.free_links += 1;
    }

    /// Removes the edge `parent -> child`; whether the child still has a parent.
    fn remove_parent(&mut self, child: u32, parent: u32) -> bool {
        let c = child as usize;
        if self.nodes[c].parent == parent {
            let head = self.nodes[c].more;
            if head == NONE {
                self.nodes[c].parent = NONE;
                return false;
            }
            self.nodes[c].parent = self.links[head as usize].parent;
            self.nodes[c].more = self.links[head as usize].next;
            self.free_link_slot(head);
            return true;
        }
        let mut prev = NONE;
        let mut i = self.nodes[c].more;
        while i != NONE {
            let Link { parent: p, next } = self.links[i as usize];
            if p == parent {
                if prev == NONE {
                    self.nodes[c].more = next;
                } else {
                    self.links[prev as usize].next = next;
                }
                self.free_link_slot(i);
                break;
            }
            prev = i;
            i = next;
        }
        true
    }

    #[inline]
    fn is_or(&self, pos: &G) -> bool {
        pos.side_to_move() == self.attacker
    }

    /// The numbers of a node that the rules solve.
    #[inline]
    fn solved(v: Verdict) -> (u32, u32) {
        match v {
            Verdict::Proven => (0, INF),
            Verdict::Disproven => (INF, 0),
        }
    }

    /// The numbers of an open leaf with `n` safe moves.
    #[inline]
    fn leaf_numbers(&self, pos: &G, n: u32) -> (u32, u32) {
        if !self.heuristic {
            (1, 1)
        } else if self.is_or(pos) {
            // One good move proves an OR node; all of them must fail to disprove it.
            (1, n)
        } else {
            (n, 1)
        }
    }

    /// The numbers of a node from its children's.
    fn summarize(&self, x: u32) -> (u32, u32) {
        let node = &self.nodes[x as usize];
        let or = self.is_or(&node.pos);
        let (mut least, mut sum) = (INF, 0);
        for &k in &self.kids[node.kids as usize..(node.kids + node.n_kids) as usize] {
            let kid = &self.nodes[k as usize];
            let (a, b) = if or {
                (kid.pn, kid.dn)
            } else {
                (kid.dn, kid.pn)
            };
            least = least.min(a);
            sum = pn_add(sum, b);
        }
        if or { (least, sum) } else { (sum, least) }
    }

    /// The child on the way to a most-proving node.
    fn best_kid(&self, x: u32) -> u32 {
        let node = &self.nodes[x as usize];
        let or = self.is_or(&node.pos);
        let block = &self.kids[node.kids as usize..(node.kids + node.n_kids) as usize];
        let mut best = block[0];
        let mut best_value = INF;
        for &k in block {
            let kid = &self.nodes[k as usize];
            let v = if or { kid.pn } else { kid.dn };
            if v < best_value {
                best_value = v;
                best = k;
            }
        }
        best
    }

    /// Updates the numbers from the expanded node `x` up through every parent.
    fn update(&mut self, x: u32) {
        self.epoch += 1;
        let epoch = self.epoch;
        self.heap.clear();
        self.nodes[x as usize].stamp = epoch;
        self.heap.push((self.nodes[x as usize].pos.ply(), x));
        while let Some((_, y)) = self.heap.pop() {
            let (pn, dn) = self.summarize(y);
            let node = &mut self.nodes[y as usize];
            if (pn, dn) == (node.pn, node.dn) {
                continue;
            }
            node.pn = pn;
            node.dn = dn;
            let mut p = node.parent;
            let mut link = node.more;
            while p != NONE {
                let parent = &mut self.nodes[p as usize];
                if parent.stamp != epoch {
                    parent.stamp = epoch;
                    self.heap.push((parent.pos.ply(), p));
                }
                if link == NONE {
                    break;
                }
                p = self.links[link as usize].parent;
                link = self.links[link as usize].next;
            }
            if pn == 0 || dn == 0 {
                self.release_kids(y);
            }
        }
    }

    /// Drops the children of a solved node, freeing those it alone kept.
    fn release_kids(&mut self, y: u32) {
        let (start, n) = (self.nodes[y as usize].kids, self.nodes[y as usize].n_kids);
        if start == NONE {
            return;
        }
        let mut stack = std::mem::take(&mut self.scratch);
        stack.clear();
        for i in start..start + n {
            let k = self.kids[i as usize];
            if !self.remove_parent(k, y) {
                stack.push(k);
            }
        }
        self.free_block(start, n);
        self.nodes[y as usize].kids = NONE;
        self.nodes[y as usize].n_kids = 0;
        while let Some(c) = stack.pop() {
            if self.dag {
                let key = Key::from(self.nodes[c as usize].pos.canonical_key());
                if self.map.get(&key) == Some(&c) {
                    self.map.remove(&key);
                }
            }
            let (s, n) = (self.nodes[c as usize].kids, self.nodes[c as usize].n_kids);
            if s != NONE {
                for i in s..s + n {
                    let k = self.kids[i as usize];
                    if !self.remove_parent(k, c) {
                        stack.push(k);
                    }
                }
                self.free_block(s, n);
            }
            self.free_slot(c);
        }
        self.scratch = stack;
    }

    /// Searches from `root` until it is solved, `max_expansions` expansions were made here, or a
    /// limit stops it. Returns the root's numbers. `outer_bytes` are held by other levels and
    /// count against `mem_bytes`.
    #[allow(clippy::too_many_arguments)]
    fn search(
        &mut self,
        root: &G,
        history: &[u128],
        max_expansions: u64,
        clock: &mut Clock,
        mut level2: Option<Level2<'_, G>>,
        mem_bytes: usize,
        outer_bytes: usize,
        when_full: WhenFull,
    ) -> Result<(u32, u32), Interrupt> {
        let mut moves = MoveList::new();
        let numbers = if history.contains(&root.key()) {
            Self::solved(status_verdict((self.rule)(root), self.attacker, self.goal))
        } else {
            match evaluate_into(root, self.attacker, self.goal, &mut moves) {
                Eval::Solved(v) => Self::solved(v),
                Eval::Open(n) => self.leaf_numbers(root, n),
            }
        };
        if !self.reserve(1, mem_bytes.saturating_sub(outer_bytes)) {
            return match when_full {
                WhenFull::Stop => Err(StopReason::Memory.into()),
                WhenFull::Return => Ok(numbers),
            };
        }
        let root_index = self.alloc_node(*root, numbers, NONE);
        if self.dag {
            self.map.insert(Key::from(root.canonical_key()), root_index);
        }
        let first = self.expanded;
        let mut block: MoveList<u32> = MoveList::new();
        loop {
            let r = &self.nodes[root_index as usize];
            if r.pn == 0 || r.dn == 0 || self.expanded - first >= max_expansions {
                return Ok((r.pn, r.dn));
            }
            self.path.clear();
            self.path.extend_from_slice(history);
            let mut x = root_index;
            loop {
                self.path.push(self.nodes[x as usize].pos.key());
                if self.nodes[x as usize].kids == NONE {
                    break;
                }
                x = self.best_kid(x);
            }
            clock.tick()?;
            let pos = self.nodes[x as usize].pos;
            moves.clear();
            pos.safe_moves(&mut moves);
            order_moves(&pos, &mut moves);
            let l2_bytes = level2.as_ref().map_or(0, |l| l.tree.bytes());
            let total = self.bytes() + l2_bytes + outer_bytes;
            self.peak = self.peak.max(total);
            if !self.reserve(
                moves.len(),
                mem_bytes.saturating_sub(outer_bytes + l2_bytes),
            ) {
                let r = &self.nodes[root_index as usize];
                return match when_full {
                    WhenFull::Stop => Err(StopReason::Memory.into()),
                    WhenFull::Return => Ok((r.pn, r.dn)),
                };
            }
            self.peak = self.peak.max(self.bytes() + l2_bytes + outer_bytes);
            block.clear();
            for rm in &moves {
                let child = pos.play(rm.mv);
                let exact = child.key();
                if self.path.contains(&exact) {
                    if self.dag {
                        return Err(Interrupt::Cyclic);
                    }
                    let v = status_verdict((self.rule)(&child), self.attacker, self.goal);
                    let y = self.alloc_node(child, Self::solved(v), x);
                    block.push(y);
                    continue;
                }
                let key = Key::from(child.canonical_key());
                if self.dag
                    && let Some(&y) = self.map.get(&key)
                {
                    if self.nodes[y as usize].pos.ply() != child.ply() {
                        return Err(Interrupt::Cyclic);
                    }
                    if !block.contains(&y) {
                        self.add_parent(y, x);
                        block.push(y);
                    }
                    continue;
                }
                let mut child_moves = MoveList::new();
                let numbers =
                    match evaluate_into(&child, self.attacker, self.goal, &mut child_moves) {
                        Eval::Solved(v) => Self::solved(v),
                        Eval::Open(n) => match level2.as_mut() {
                            None => self.leaf_numbers(&child, n),
                            Some(l2) => {
                                let limit = (self.live as u64).max(PN2_MIN_EXPANSIONS).min(l2.max);
                                l2.tree.reset(self.attacker, self.goal, self.dag);
                                l2.tree.rule = self.rule;
                                l2.tree.search(
                                    &child,
                                    &self.path,
                                    limit,
                                    clock,
                                    None,
                                    mem_bytes,
                                    outer_bytes + self.bytes(),
                                    WhenFull::Return,
                                )?
                            }
                        },
                    };
                let y = self.alloc_node(child, numbers, x);
                if self.dag {
                    self.map.insert(key, y);
                }
                block.push(y);
            }
            let start = self.alloc_block(&block);
            let node = &mut self.nodes[x as usize];
            node.kids = start;
            node.n_kids = block.len() as u32;
            self.expanded += 1;
            self.update(x);
        }
    }
}

/// Runs one question on a first-level tree, restarting in tree mode if the game repeats.
#[allow(clippy::too_many_arguments)]
fn run<G: Game>(
    tree: &mut Tree<G>,
    mut level2: Option<(&mut Tree<G>, u64)>,
    clock: &mut Clock,
    mem_bytes: usize,
    pos: &G,
    attacker: Player,
    goal: Goal,
    history: &[u128],
) -> Result<Verdict, StopReason> {
    let mut dag = true;
    loop {
        tree.reset(attacker, goal, dag);
        let l2 = level2.as_mut().map(|(t, max)| Level2 {
            tree: &mut **t,
            max: *max,
        });
        match tree.search(
            pos,
            history,
            u64::MAX,
            clock,
            l2,
            mem_bytes,
            0,
            WhenFull::Stop,
        ) {
            Ok((pn, dn)) => {
                debug_assert!(pn == 0 || dn == 0);
                return Ok(if pn == 0 {
                    Verdict::Proven
                } else {
                    Verdict::Disproven
                });
            }
            Err(Interrupt::Stop(s)) => return Err(s),
            Err(Interrupt::Cyclic) => {
                debug_assert!(dag, "tree mode never reports a repetition");
                dag = false;
            }
        }
    }
}

/// Allis' proof-number search with transpositions, solved-subtree release and a memory budget.
/// See the module documentation.
pub struct Pns<G: Game> {
    tree: Tree<G>,
    mem_bytes: usize,
    clock: Clock,
    stats: PnStats,
}

impl<G: Game> Pns<G> {
    /// A search that may hold `mem_bytes` bytes of nodes and map, stops at `limits` (counted
    /// from now, over every later `prove`, until [`Pns::set_limits`]), and with
    /// `heuristic_init` starts a leaf with `n` safe moves at (pn, dn) = (1, n) when the attacker
    /// moves there and (n, 1) when the opponent does (Allis' mobility initialisation), instead
    /// of (1, 1).
    pub fn new(mem_bytes: usize, limits: Limits, heuristic_init: bool) -> Self {
        Pns {
            tree: Tree::new(heuristic_init),
            mem_bytes,
            clock: Clock::new(limits),
            stats: PnStats::default(),
        }
    }

    /// Sets how a repeated position ends (default: a draw).
    pub fn set_repetition_rule(&mut self, rule: RepetitionRule<G>) {
        self.tree.rule = rule;
    }
}

impl<G: Game> Prover<G> for Pns<G> {
    fn set_limits(&mut self, limits: Limits) {
        self.clock = Clock::new(limits);
    }

    fn prove_for(
        &mut self,
        pos: &G,
        attacker: Player,
        goal: Goal,
        history: &[u128],
    ) -> Result<Verdict, StopReason> {
        let t = Instant::now();
        let before = self.tree.expanded;
        let r = run(
            &mut self.tree,
            None,
            &mut self.clock,
            self.mem_bytes,
            pos,
            attacker,
            goal,
            history,
        );
        self.stats.expanded += self.tree.expanded - before;
        self.stats.peak_bytes = self.stats.peak_bytes.max(self.tree.peak);
        self.stats.elapsed += t.elapsed();
        r
    }
    fn stats(&self) -> PnStats {
        self.stats
    }
}

/// PN²: a first-level PNS whose new leaves are initialised by a bounded second-level PNS. See
/// the module documentation.
pub struct Pn2<G: Game> {
    level1: Tree<G>,
    level2: Tree<G>,
    level2_max: u64,
    mem_bytes: usize,
    clock: Clock,
    stats: PnStats,
}

impl<G: Game> Pn2<G> {
    /// Like [`Pns::new`]; both levels share the memory budget and the limits (which count the
    /// expansions of both levels).
    pub fn new(mem_bytes: usize, limits: Limits, heuristic_init: bool) -> Self {
        Pn2 {
            level1: Tree::new(heuristic_init),
            level2: Tree::new(heuristic_init),
            level2_max: 1 << 20,
            mem_bytes,
            clock: Clock::new(limits),
            stats: PnStats::default(),
        }
    }

    /// Caps the expansions of one second-level search (default 2^20).
    pub fn set_level2_max(&mut self, max: u64) {
        self.level2_max = max.max(1);
    }

    /// Sets how a repeated position ends (default: a draw).
    pub fn set_repetition_rule(&mut self, rule: RepetitionRule<G>) {
        self.level1.rule = rule;
        self.level2.rule = rule;
    }
}

impl<G: Game> Prover<G> for Pn2<G> {
    fn set_limits(&mut self, limits: Limits) {
        self.clock = Clock::new(limits);
    }

    fn prove_for(
        &mut self,
        pos: &G,
        attacker: Player,
        goal: Goal,
        history: &[u128],
    ) -> Result<Verdict, StopReason> {
        let t = Instant::now();
        let before = self.level1.expanded + self.level2.expanded;
        let r = run(
            &mut self.level1,
            Some((&mut self.level2, self.level2_max)),
            &mut self.clock,
            self.mem_bytes,
            pos,
            attacker,
            goal,
            history,
        );
        self.stats.expanded += self.level1.expanded + self.level2.expanded - before;
        self.stats.peak_bytes = self
            .stats
            .peak_bytes
            .max(self.level1.peak)
            .max(self.level2.peak);
        self.stats.elapsed += t.elapsed();
        r
    }
    /// What the search did so far (both levels).
    fn stats(&self) -> PnStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::dfpn::tests::{GraphGame, ghi_graph};
    use crate::search::pn::testing::{BOARDS, Reference, Rng, board, random_positions};
    use crate::search::pn::weak_value;

    const MIB: usize = 1 << 20;

    #[test]
    fn agrees_with_minimax_and_alphabeta() {
        for &(w, h, k) in BOARDS {
            let start = board(w, h, k);
            let mut reference = Reference::new(&start);
            let mut positions = vec![(start, Vec::new())];
            positions.extend(random_positions(start, 24, 1, w * h - 2, 17 + w as u64));
            for (i, (pos, moves)) in positions.into_iter().enumerate() {
                let want = reference.weak(&pos);
                let heuristic = i % 2 == 1;
                let mut pns = Pns::new(64 * MIB, Limits::default(), heuristic);
                let got = weak_value(|g| pns.prove(&pos, g)).expect("no limits");
                assert_eq!(got, want, "PNS, {w}x{h} k{k} after {moves:?}");
                let mut pn2 = Pn2::new(64 * MIB, Limits::default(), heuristic);
                let got = weak_value(|g| pn2.prove(&pos, g)).expect("no limits");
                assert_eq!(got, want, "PN2, {w}x{h} k{k} after {moves:?}");
                assert!(pns.stats().expanded > 0 || pns.stats().peak_bytes == 0);
            }
        }
    }

    #[test]
    fn memory_budget_stops_the_search() {
        let start = board(5, 4, 4);
        let budget = 64 << 10;
        let mut pns = Pns::new(budget, Limits::default(), false);
        assert_eq!(pns.prove(&start, Goal::NotLose), Err(StopReason::Memory));
        let stats = pns.stats();
        assert!(
            stats.peak_bytes <= budget,
            "peak {} bytes",
            stats.peak_bytes
        );
        assert!(stats.expanded > 100);
        // PN² holds far fewer nodes for the same work, so a budget that stops PNS lets it
        // finish.
        let mut pns = Pns::new(MIB, Limits::default(), false);
        let mut pn2 = Pn2::new(MIB, Limits::default(), false);
        let pos = crate::game::play_moves(board(5, 4, 4), "33").unwrap().0;
        assert_eq!(pns.prove(&pos, Goal::NotLose), Err(StopReason::Memory));
        assert!(pns.stats().peak_bytes <= MIB);
        assert_eq!(pn2.prove(&pos, Goal::NotLose), Ok(Verdict::Proven));
        assert!(pn2.stats().peak_bytes <= MIB);
    }

    #[test]
    fn limits_stop_the_search() {
        let start = board(5, 4, 4);
        let limits = Limits {
            nodes: Some(50),
            ..Limits::default()
        };
        let mut pns = Pns::new(64 * MIB, limits, false);
        assert_eq!(pns.prove(&start, Goal::Win), Err(StopReason::Nodes));
        let mut pn2 = Pn2::new(64 * MIB, limits, false);
        assert_eq!(pn2.prove(&start, Goal::Win), Err(StopReason::Nodes));
        let limits = Limits {
            time: Some(std::time::Duration::ZERO),
            ..Limits::default()
        };
        let mut pns = Pns::new(64 * MIB, limits, false);
        assert_eq!(pns.prove(&start, Goal::Win), Err(StopReason::Time));
    }

    #[test]
    fn solved_subtrees_are_released() {
        let pos = board(4, 4, 4);
        let mut tree = Tree::new(false);
        tree.reset(pos.side_to_move(), Goal::NotLose, true);
        let mut clock = Clock::new(Limits::default());
        let (pn, _) = tree
            .search(
                &pos,
                &[],
                u64::MAX,
                &mut clock,
                None,
                1 << 30,
                0,
                WhenFull::Stop,
            )
            .unwrap_or_else(|_| panic!("no limits"));
        assert_eq!(pn, 0);
        assert!(
            tree.live * 4 < tree.nodes.len(),
            "{} live nodes of {} made",
            tree.live,
            tree.nodes.len()
        );
    }

    #[test]
    fn repetitions_switch_to_tree_mode() {
        let mut rng = Rng::new(5);
        for i in 0..3000 {
            let g = if i % 2 == 0 {
                GraphGame::random(&mut rng)
            } else {
                GraphGame::random_n(&mut rng, 6 + i % 9, 5 - i % 3)
            };
            let want = g.reference(&mut Vec::new());
            let mut pns = Pns::new(MIB, Limits::default(), i % 3 == 0);
            assert_eq!(
                weak_value(|goal| pns.prove(&g, goal)),
                Ok(want),
                "PNS on {:?}",
                g.graph
            );
            let mut pn2 = Pn2::new(MIB, Limits::default(), i % 3 == 0);
            pn2.set_level2_max(1 + i as u64 % 4);
            assert_eq!(
                weak_value(|goal| pn2.prove(&g, goal)),
                Ok(want),
                "PN2 on {:?}",
                g.graph
            );
        }
        let g = ghi_graph();
        let b = g.play(1);
        let mut pns = Pns::new(MIB, Limits::default(), false);
        for _ in 0..2 {
            assert_eq!(
                pns.prove_for(&b, Player::First, Goal::Win, &[4]),
                Ok(Verdict::Disproven)
            );
            assert_eq!(pns.prove(&g, Goal::Win), Ok(Verdict::Proven));
        }
    }
}
