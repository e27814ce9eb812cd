//! Job-level search (the connect-four-3d seed's design): the game tree to a cut depth, kept as
//! a DAG in which transpositions and symmetric positions are one node, whose leaves are jobs,
//! each a whole search that some worker solves (a thread, or a rank). The question is two-valued,
//! "does `player` win?", as a proof-number search asks it: at `player`'s nodes one child must
//! win, at the opponent's all of them.
//!
//! A leaf not yet solved counts as a virtual win for `player`: the leaves of the proof tree
//! that this optimism builds are the jobs needed, taken in the order they were created. A job
//! that comes back a loss was a wrong guess; the proof tree is rebuilt around it (the repair),
//! which makes other jobs needed. When every needed job is running and a worker is idle, the
//! running jobs count as virtual losses instead, and the jobs that would then be needed are
//! started ahead (speculation). The answer is known when the solved leaves decide the root.
//!
//! This part knows neither threads nor ranks: [`Jobs::next`] hands out jobs, [`Jobs::solved`]
//! takes their answers.

use crate::game::{MoveList, Player, Rules, Status};
use std::collections::HashMap;

/// A node's place: `Known` when the rules or a job decided it, else a leaf waiting for its job,
/// or an inner node with its children.
#[derive(Clone, Debug, PartialEq, Eq)]
enum Kind {
    Known(bool),
    Leaf(Job),
    Inner { children: Vec<usize>, any: bool },
}

#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum Job {
    Waiting,
    Running,
}

struct Node<G: Rules> {
    pos: G,
    /// The moves from the root by which the node was first reached.
    path: Vec<G::Move>,
    kind: Kind,
}

/// What a job-level search did.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JobStats {
    /// Nodes of the DAG.
    pub nodes: usize,
    /// Positions reached again (by another order of moves or as a mirror image) and merged
    /// into one node.
    pub merged: usize,
    /// Leaves: the possible jobs.
    pub leaves: usize,
    /// Jobs started.
    pub started: usize,
    /// Of those, jobs started ahead, while the needed ones ran (speculation).
    pub speculative: usize,
    /// Jobs that came back a loss against their guess of a win.
    pub wrong_guesses: usize,
    /// Jobs given up at their budget, their positions grown two plies further into new jobs.
    pub splits: usize,
}

/// A job-level search in progress.
pub struct Jobs<G: Rules> {
    nodes: Vec<Node<G>>,
    /// Each node's number by its position's canonical key.
    index: HashMap<u128, usize>,
    /// Whose win the search asks for: every leaf has it to move.
    player: Player,
    stats: JobStats,
}

/// A node's value under the assumptions of one pass: `Some` when decided by them.
type Memo = HashMap<usize, bool>;

impl<G: Rules> Jobs<G> {
    /// The DAG of `root` to `depth` plies or more, so that every leaf has `player` to move (a
    /// job then asks whether the side to move wins).
    pub fn new(root: &G, player: Player, depth: u32) -> Jobs<G> {
        let mut jobs = Jobs {
            nodes: vec![Node {
                pos: *root,
                path: Vec::new(),
                kind: Kind::Leaf(Job::Waiting),
            }],
            index: HashMap::from([(root.canonical_key(), 0)]),
            player,
            stats: JobStats::default(),
        };
        jobs.grow(0, depth);
        jobs
    }

    /// Grows node `from` breadth first to `depth` plies below it or more, so that every new
    /// leaf has the player to move; positions already in the DAG are linked, not grown again.
    /// The node numbers are the creation order.
    fn grow(&mut self, from: usize, depth: u32) {
        let base = self.nodes[from].pos.ply();
        let first_new = self.nodes.len();
        let mut at = from;
        while at < self.nodes.len() {
            let pos = self.nodes[at].pos;
            self.nodes[at].kind = match pos.status() {
                Status::Win(p) => Kind::Known(p == self.player),
                Status::Draw => Kind::Known(false),
                Status::Ongoing
                    if pos.ply() - base >= depth && pos.side_to_move() == self.player =>
                {
                    self.stats.leaves += 1;
                    Kind::Leaf(Job::Waiting)
                }
                Status::Ongoing => {
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    let mut children = Vec::with_capacity(moves.len());
                    for &m in moves.iter() {
                        let child = pos.play(m);
                        let key = child.canonical_key();
                        let id = match self.index.get(&key) {
                            Some(&id) => {
                                // Reached before: by another order of moves, a mirror image
                                // or another move of this node.
                                self.stats.merged += 1;
                                id
                            }
                            None => {
                                let mut path = self.nodes[at].path.clone();
                                path.push(m);
                                self.nodes.push(Node {
                                    pos: child,
                                    path,
                                    kind: Kind::Leaf(Job::Waiting),
                                });
                                self.index.insert(key, self.nodes.len() - 1);
                                self.nodes.len() - 1
                            }
                        };
                        if !children.contains(&id) {
                            children.push(id);
                        }
                    }
                    Kind::Inner {
                        children,
                        any: pos.side_to_move() == self.player,
                    }
                }
            };
            at = if at == from { first_new } else { at + 1 };
        }
        self.stats.nodes = self.nodes.len();
    }

    /// Gives up the job of node `n` (too large for its budget): its position becomes an inner
    /// node grown two plies further, whose new leaves are jobs. The seed's DAG grew so, where
    /// the proof needed it.
    pub fn split(&mut self, n: usize) {
        self.stats.splits += 1;
        self.stats.leaves -= 1;
        self.grow(n, 2);
    }

    /// Splits every waiting job whose position `split` names, and those of its new jobs that
    /// it names too (a journal's splits, replayed); returns how many.
    pub fn split_where(&mut self, mut split: impl FnMut(&G) -> bool) -> usize {
        let mut n = 0;
        let mut at = 0;
        while at < self.nodes.len() {
            if self.nodes[at].kind == Kind::Leaf(Job::Waiting) && split(&self.nodes[at].pos) {
                self.split(at);
                n += 1;
            }
            at += 1;
        }
        n
    }

    /// Marks the waiting jobs whose answers `known` gives (whether the side to move wins, by
    /// position: a journal of an earlier run); returns how many.
    pub fn know(&mut self, mut known: impl FnMut(&G) -> Option<bool>) -> usize {
        let mut marked = 0;
        for node in &mut self.nodes {
            if node.kind == Kind::Leaf(Job::Waiting)
                && let Some(wins) = known(&node.pos)
            {
                node.kind = Kind::Known(wins);
                marked += 1;
            }
        }
        marked
    }

    /// The root's moves (one of each set of moves to the same or a mirrored position) with
    /// whether `player` wins after each, where the solved jobs decide it.
    pub fn replies(&self) -> Vec<(G::Move, Option<bool>)> {
        let Kind::Inner { children, .. } = &self.nodes[0].kind else {
            return Vec::new();
        };
        let mut memo = HashMap::new();
        children
            .iter()
            .filter_map(|&c| {
                let first = *self.nodes[c].path.first()?;
                (self.nodes[c].path.len() == 1).then(|| (first, self.value(c, &mut memo, None)))
            })
            .collect()
    }

    /// What the search has done so far.
    pub fn stats(&self) -> &JobStats {
        &self.stats
    }

    /// Whether `player` wins, once the solved jobs decide it.
    pub fn answer(&self) -> Option<bool> {
        self.value(0, &mut HashMap::new(), None)
    }

    /// The value of node `n`: jobs not solved are unknown, or, with `guess`, the value of a
    /// waiting job (a virtual win) and of a running one (`guess`).
    fn value(&self, n: usize, memo: &mut Memo, guess: Option<bool>) -> Option<bool> {
        if let Some(&v) = memo.get(&n) {
            return Some(v);
        }
        let v = match &self.nodes[n].kind {
            Kind::Known(v) => Some(*v),
            Kind::Leaf(Job::Waiting) => guess.map(|_| true),
            Kind::Leaf(Job::Running) => guess,
            Kind::Inner { children, any } => {
                let mut unknown = false;
                let mut decided = None;
                for &c in children {
                    match self.value(c, memo, guess) {
                        Some(v) if v == *any => {
                            decided = Some(v);
                            break;
                        }
                        Some(_) => {}
                        None => unknown = true,
                    }
                }
                decided.or((!unknown).then_some(!*any))
            }
        };
        if let Some(v) = v {
            memo.insert(n, v);
        }
        v
    }

    /// The waiting leaves of the proof tree under the guesses (`running`: the guess for running
    /// jobs), into `out`.
    fn needed(
        &self,
        n: usize,
        memo: &mut Memo,
        running: bool,
        seen: &mut Vec<bool>,
        out: &mut Vec<usize>,
    ) {
        if seen[n] {
            return;
        }
        seen[n] = true;
        match &self.nodes[n].kind {
            Kind::Leaf(Job::Waiting) => out.push(n),
            Kind::Inner { children, any } => {
                if *any {
                    // One child that wins under the guesses, the first in order.
                    if let Some(&c) = children
                        .iter()
                        .find(|&&c| self.value(c, memo, Some(running)) == Some(true))
                    {
                        self.needed(c, memo, running, seen, out);
                    }
                } else if children
                    .iter()
                    .all(|&c| self.value(c, memo, Some(running)) == Some(true))
                {
                    for &c in children {
                        self.needed(c, memo, running, seen, out);
                    }
                }
            }
            _ => {}
        }
    }

    /// Up to `free` jobs to start, oldest first, each as its node and the moves from the root
    /// to it: the jobs the proof tree needs, then those it would need if the running ones were
    /// wrong guesses. Marks them running.
    pub fn next(&mut self, free: usize) -> Vec<(usize, G, Vec<G::Move>)> {
        let mut picked = Vec::new();
        for running in [true, false] {
            if picked.len() >= free || self.answer().is_some() {
                break;
            }
            let mut out = Vec::new();
            let mut seen = vec![false; self.nodes.len()];
            self.needed(0, &mut HashMap::new(), running, &mut seen, &mut out);
            out.sort_unstable();
            for n in out.into_iter().take(free - picked.len()) {
                self.nodes[n].kind = Kind::Leaf(Job::Running);
                self.stats.started += 1;
                if !running {
                    self.stats.speculative += 1;
                }
                picked.push((n, self.nodes[n].pos, self.nodes[n].path.clone()));
            }
        }
        picked
    }

    /// The answer of the job of node `n`: whether its side to move (`player`) wins.
    pub fn solved(&mut self, n: usize, wins: bool) {
        if !wins {
            self.stats.wrong_guesses += 1;
        }
        self.nodes[n].kind = Kind::Known(wins);
    }
}
