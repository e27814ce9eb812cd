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

use crate::game::{Game, MoveList, Player, Status};
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

struct Node<G: Game> {
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
}

/// A job-level search in progress.
pub struct Jobs<G: Game> {
    nodes: Vec<Node<G>>,
    stats: JobStats,
}

/// A node's value under the assumptions of one pass: `Some` when decided by them.
type Memo = HashMap<usize, bool>;

impl<G: Game> Jobs<G> {
    /// The DAG of `root` to `depth` plies or more, so that every leaf has `player` to move (a
    /// job then asks whether the side to move wins).
    pub fn new(root: &G, player: Player, depth: u32) -> Jobs<G> {
        let mut jobs = Jobs {
            nodes: Vec::new(),
            stats: JobStats::default(),
        };
        let mut index: HashMap<u128, usize> = HashMap::new();
        jobs.nodes.push(Node {
            pos: *root,
            path: Vec::new(),
            kind: Kind::Leaf(Job::Waiting),
        });
        index.insert(root.canonical_key(), 0);
        // Breadth first: the node numbers are the creation order.
        let mut at = 0;
        while at < jobs.nodes.len() {
            let pos = jobs.nodes[at].pos;
            let plies = pos.ply() - root.ply();
            jobs.nodes[at].kind = match pos.status() {
                Status::Win(p) => Kind::Known(p == player),
                Status::Draw => Kind::Known(false),
                Status::Ongoing if plies >= depth && pos.side_to_move() == player => {
                    jobs.stats.leaves += 1;
                    Kind::Leaf(Job::Waiting)
                }
                Status::Ongoing => {
                    let mut moves = MoveList::new();
                    pos.legal_moves(&mut moves);
                    let mut children = Vec::with_capacity(moves.len());
                    for &m in moves.iter() {
                        let child = pos.play(m);
                        let id = *index.entry(child.canonical_key()).or_insert_with(|| {
                            let mut path = jobs.nodes[at].path.clone();
                            path.push(m);
                            jobs.nodes.push(Node {
                                pos: child,
                                path,
                                kind: Kind::Leaf(Job::Waiting),
                            });
                            jobs.nodes.len() - 1
                        });
                        if children.contains(&id) {
                            jobs.stats.merged += 1;
                        } else {
                            children.push(id);
                        }
                    }
                    Kind::Inner {
                        children,
                        any: pos.side_to_move() == player,
                    }
                }
            };
            at += 1;
        }
        jobs.stats.nodes = jobs.nodes.len();
        jobs.stats.merged += jobs.count_merged();
        jobs
    }

    /// Edges into nodes reached by more than one parent.
    fn count_merged(&self) -> usize {
        let mut parents = vec![0usize; self.nodes.len()];
        for node in &self.nodes {
            if let Kind::Inner { children, .. } = &node.kind {
                children.iter().for_each(|&c| parents[c] += 1);
            }
        }
        parents.iter().map(|&p| p.saturating_sub(1)).sum()
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
