//! The graph of [`Pns`](super::Pns) and [`Pn2`](super::Pn2): an arena of nodes with their proof
//! and disproof numbers, child blocks, parent links and the map of transpositions, and the
//! upkeep of the numbers (the descent and expansion are in [`pns`](super::pns)).
//!
//! # The graph
//! Nodes live in one arena (`Vec<Node>`, `u32` indices, a free list); a node holds its position,
//! its proof and disproof numbers (`u32`, `u32::MAX` = infinite = solved), a block of child
//! indices (children are made together and released together, so a block is one slice of a
//! shared `Vec<u32>`, with free lists per block size) and its parents (the first inline, the
//! others in a linked list).
//! Children are made from the game's safe moves ([`Tactics::safe_moves`](crate::game::Tactics::safe_moves)), each evaluated at once
//! (Allis' immediate evaluation: a finished game, a win in one for the side to move, or no safe
//! move solves the child on the spot).
//!
//! # Transpositions (DAG mode) and the over-counting they bring
//! Positions are merged through a map from [`Rules::canonical_key`] to node, so the graph is a
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
//! container), and a search that would pass the budget stops with [`Stop::Memory`](crate::limits::Stop::Memory).
//!

use super::prover::Question;
use super::{INF, Key, KeyBuild, pn_add};
use crate::game::{Goal, Player, Rules};
use std::collections::{BinaryHeap, HashMap};
use std::mem::size_of;

pub(super) const NONE: u32 = u32::MAX;

/// One position of the graph.
#[derive(Clone, Copy, Debug)]
pub(super) struct Node<G> {
    pub(super) pos: G,
    pub(super) pn: u32,
    pub(super) dn: u32,
    /// Start of the child block in `Tree::kids`; `NONE` while unexpanded.
    pub(super) kids: u32,
    pub(super) n_kids: u32,
    /// The first parent (`NONE` for the root); in a free slot, the next free slot.
    pub(super) parent: u32,
    /// Head of the list of the other parents in `Tree::links`.
    pub(super) more: u32,
    /// The update round that last queued this node.
    pub(super) stamp: u32,
}

/// One extra parent of a node.
#[derive(Clone, Copy, Debug)]
pub(super) struct Link {
    pub(super) parent: u32,
    pub(super) next: u32,
}

/// The arena, the map and the search over them; one per level.
pub(super) struct Tree<G: Rules> {
    pub(super) nodes: Vec<Node<G>>,
    pub(super) free_node: u32,
    pub(super) free_count: usize,
    pub(super) live: usize,
    pub(super) kids: Vec<u32>,
    /// Free child blocks, by size.
    pub(super) free_blocks: Vec<Vec<u32>>,
    pub(super) links: Vec<Link>,
    pub(super) free_link: u32,
    pub(super) free_links: usize,
    pub(super) map: HashMap<Key, u32, KeyBuild>,
    /// The buckets the map holds: its capacity says less once removals leave tombstones, so
    /// the count is kept from when the map last grew.
    map_buckets: usize,
    pub(super) dag: bool,
    pub(super) question: Question,
    pub(super) heuristic: bool,
    pub(super) epoch: u32,
    pub(super) heap: BinaryHeap<(u32, u32)>,
    /// Exact keys of the history and of the current descent path.
    pub(super) path: Vec<u128>,
    pub(super) scratch: Vec<u32>,
}

impl<G: Rules> Tree<G> {
    pub(super) fn new(heuristic: bool) -> Self {
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
            map_buckets: 0,
            dag: true,
            question: Question::new(Player::First, Goal::Win),
            heuristic,
            epoch: 0,
            heap: BinaryHeap::new(),
            path: Vec::new(),
            scratch: Vec::new(),
        }
    }

    /// Forgets the graph (keeping the allocations) for a new question.
    pub(super) fn reset(&mut self, question: Question, dag: bool) {
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
        self.question = question;
        self.epoch = 0;
        self.heap.clear();
        self.path.clear();
    }

    /// The buckets a hash map of `capacity` entries holds (seven eighths of them used).
    fn buckets(capacity: usize) -> usize {
        if capacity == 0 {
            0
        } else {
            (capacity * 8 / 7).next_power_of_two()
        }
    }

    fn map_bytes(buckets: usize) -> usize {
        buckets * (size_of::<(Key, u32)>() + 1)
    }

    /// The bytes the search's structures hold.
    pub(super) fn bytes(&self) -> usize {
        self.nodes.capacity() * size_of::<Node<G>>()
            + self.kids.capacity() * size_of::<u32>()
            + self.links.capacity() * size_of::<Link>()
            + Self::map_bytes(self.map_buckets)
            + self
                .free_blocks
                .iter()
                .map(|b| b.capacity() * size_of::<u32>())
                .sum::<usize>()
            + self.heap.capacity() * size_of::<(u32, u32)>()
            + (self.path.capacity() + 1) * size_of::<u128>()
    }

    /// Makes room for an expansion with `n` children, unless that passes `budget` bytes.
    pub(super) fn reserve(&mut self, n: usize, budget: usize) -> bool {
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
        // A map that grows at least doubles its buckets.
        let map_buckets = if self.dag && self.map.len() + n > self.map.capacity() {
            Self::buckets(self.map.len() + n).max(2 * self.map_buckets)
        } else {
            self.map_buckets
        };
        let extra = (nodes_cap - self.nodes.capacity()) * size_of::<Node<G>>()
            + (kids_cap - self.kids.capacity()) * size_of::<u32>()
            + (links_cap - self.links.capacity()) * size_of::<Link>()
            + Self::map_bytes(map_buckets - self.map_buckets)
            + size_of::<u32>() * 64;
        if self.bytes() + extra > budget {
            return false;
        }
        self.nodes.reserve_exact(nodes_cap - self.nodes.len());
        self.kids.reserve_exact(kids_cap - self.kids.len());
        self.links.reserve_exact(links_cap - self.links.len());
        if self.dag {
            self.map.reserve(n);
            self.map_buckets = self.map_buckets.max(Self::buckets(self.map.capacity()));
        }
        true
    }

    pub(super) fn alloc_node(&mut self, pos: G, (pn, dn): (u32, u32), parent: u32) -> u32 {
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

    pub(super) fn free_slot(&mut self, i: u32) {
        let node = &mut self.nodes[i as usize];
        node.parent = self.free_node;
        node.kids = NONE;
        node.n_kids = 0;
        self.free_node = i;
        self.free_count += 1;
        self.live -= 1;
    }

    pub(super) fn alloc_block(&mut self, block: &[u32]) -> u32 {
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

    pub(super) fn free_block(&mut self, start: u32, n: u32) {
        let n = n as usize;
        if self.free_blocks.len() <= n {
            self.free_blocks.resize_with(n + 1, Vec::new);
        }
        self.free_blocks[n].push(start);
    }

    pub(super) fn add_parent(&mut self, child: u32, parent: u32) {
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

    pub(super) fn free_link_slot(&mut self, i: u32) {
        self.links[i as usize].next = self.free_link;
        self.free_link = i;
        self.free_links += 1;
    }

    /// Removes the edge `parent -> child`; whether the child still has a parent.
    pub(super) fn remove_parent(&mut self, child: u32, parent: u32) -> bool {
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

    /// The numbers of an open leaf with `n` safe moves: by its mobility with the heuristic
    /// initialisation, else (1, 1).
    #[inline]
    pub(super) fn leaf_numbers(&self, pos: &G, n: u32) -> (u32, u32) {
        if self.heuristic {
            self.question.mobility_numbers(pos, n)
        } else {
            (1, 1)
        }
    }

    /// The numbers of a node from its children's.
    pub(super) fn summarize(&self, x: u32) -> (u32, u32) {
        let node = &self.nodes[x as usize];
        let or = self.question.is_or(&node.pos);
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
    pub(super) fn best_kid(&self, x: u32) -> u32 {
        let node = &self.nodes[x as usize];
        let or = self.question.is_or(&node.pos);
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
    pub(super) fn update(&mut self, x: u32) {
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
    pub(super) fn release_kids(&mut self, y: u32) {
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
}
