//! MCTS-Solver (Winands, Björnsson and Saito): Monte-Carlo tree search with UCT selection and
//! random playouts, in which game-theoretic values back up through the tree as in minimax. A
//! node whose side to move has a move to a lost position is won; one whose moves all lead to
//! proven positions takes the best of them. Proven values are exact (a win, a draw or a loss
//! under perfect play); the rest are estimates (the mean result of the playouts), and said to
//! be.
//!
//! The tree holds paths, not positions: a node is the line of moves from the root, so a
//! repetition on that line (in the games that repeat) is judged exactly, by the rule given.

use super::rng::SplitMix;
use crate::game::{GameLine, Kind, MoveList, Repetition, Status, Tactics};
use crate::limits::{Clock, Limits, Stop};

/// What the search says of a move, for the side that plays it.
#[derive(Copy, Clone, Debug, PartialEq)]
pub enum Estimate {
    /// The game-theoretic value: 1 win, 0 draw, -1 loss.
    Proven(i32),
    /// The mean playout result through the move (1 a win, 1/2 a draw, 0 a loss), after
    /// `visits` playouts.
    Mean {
        /// The mean result, 0 to 1.
        mean: f64,
        /// Playouts through the move.
        visits: u32,
    },
}

/// The answer of [`search`].
#[derive(Clone, Debug)]
pub struct Outcome<M> {
    /// The move to play: the first of [`Outcome::moves`].
    pub best: M,
    /// The root's value if proven (for its side to move).
    pub proven: Option<i32>,
    /// Every move with its estimate, best first.
    pub moves: Vec<(M, Estimate)>,
    /// The most visited line from the root.
    pub pv: Vec<M>,
    /// Playouts made.
    pub playouts: u64,
    /// Why the search stopped before proving the root (`None`: it proved it).
    pub stop: Option<Stop>,
}

const NONE: u32 = u32::MAX;
/// The exploration constant of UCT (Kocsis and Szepesvári's `C`, the usual sqrt(2) scaled to
/// results in 0..1).
const EXPLORE: f64 = 0.7;
/// A playout in a game that may never end is called a draw after this many plies.
const PLAYOUT_PLIES: u32 = 300;

struct Node<G: Tactics> {
    pos: G,
    mv: Option<G::Move>,
    parent: u32,
    /// The children are `first..first + count` (none until expanded).
    first: u32,
    count: u32,
    visits: u32,
    /// Playout results for the side that moved into this node.
    reward: f64,
    /// The proven value for the side to move here.
    proven: Option<i32>,
}

/// Searches the end of `line` (ongoing) until the limits stop it, the root is proven or the
/// tree holds `mem_bytes`. The positions before it count for the repetition rule of games that
/// repeat (`repetition`).
pub fn search<G: Tactics>(
    line: &GameLine<G>,
    repetition: Repetition,
    limits: &Limits,
    mem_bytes: usize,
    rng: &mut SplitMix,
) -> Option<Outcome<G::Move>> {
    let pos = line.position();
    if pos.status() != Status::Ongoing {
        return None;
    }
    let capacity = (mem_bytes / size_of::<Node<G>>()).max(2) as u32;
    let mut tree = Tree {
        nodes: vec![Node {
            pos: *pos,
            mv: None,
            parent: NONE,
            first: 0,
            count: 0,
            visits: 0,
            reward: 0.0,
            proven: None,
        }],
        capacity,
        earlier: line.earlier_keys().collect(),
        repetition,
        clock: Clock::new(limits.clone()),
    };
    let mut playouts = 0;
    let stop = loop {
        if tree.nodes[0].proven.is_some() {
            break None;
        }
        if let Err(stop) = tree.iterate(rng) {
            break Some(stop);
        }
        playouts += 1;
    };
    tree.outcome(playouts, stop)
}

struct Tree<G: Tactics> {
    nodes: Vec<Node<G>>,
    capacity: u32,
    earlier: Vec<u128>,
    repetition: Repetition,
    clock: Clock,
}

impl<G: Tactics> Tree<G> {
    /// One playout: down by UCT to a leaf, expand it, play out from one new child, back up.
    fn iterate(&mut self, rng: &mut SplitMix) -> Result<(), Stop> {
        self.clock.tick()?;
        let mut x = 0;
        while self.nodes[x].count > 0 && self.nodes[x].proven.is_none() {
            x = self.select(x);
        }
        if self.nodes[x].proven.is_none() && self.expand(x) {
            // Proven children may have settled the node at once.
            self.prove_up(x);
            if self.nodes[x].proven.is_none() {
                x = self.select(x);
            }
        }
        // The result for the side to move at `x`.
        let result = match self.nodes[x].proven {
            Some(v) => (v as f64 + 1.0) / 2.0,
            None => self.playout(&self.nodes[x].pos.clone(), rng)?,
        };
        self.back_up(x, result);
        Ok(())
    }

    /// The child of `x` (open, expanded) to go down to: the UCT choice among the children not
    /// proven lost for the mover (all of them if all are).
    fn select(&self, x: usize) -> usize {
        let node = &self.nodes[x];
        let log_n = (node.visits.max(1) as f64).ln();
        let range = node.first as usize..(node.first + node.count) as usize;
        let all_lost = range.clone().all(|c| self.nodes[c].proven == Some(1));
        let mut best = (f64::MIN, range.start);
        for c in range {
            let child = &self.nodes[c];
            if child.proven == Some(1) && !all_lost {
                continue;
            }
            let score = match (child.proven, child.visits) {
                (Some(v), _) => (1.0 - v as f64) / 2.0,
                (None, 0) => f64::MAX,
                (None, n) => child.reward / n as f64 + EXPLORE * (log_n / n as f64).sqrt(),
            };
            if score > best.0 {
                best = (score, c);
            }
        }
        best.1
    }

    /// Adds the children of `x`; false when the tree is full (`x` stays a leaf).
    fn expand(&mut self, x: usize) -> bool {
        let pos = self.nodes[x].pos;
        let mut moves = MoveList::new();
        pos.legal_moves(&mut moves);
        if self.nodes.len() + moves.len() > self.capacity as usize {
            return false;
        }
        // Only games that repeat judge a child by the line that reached it.
        let path = if G::Kind::REPEATS {
            self.path_keys(x)
        } else {
            Vec::new()
        };
        let first = self.nodes.len() as u32;
        for &mv in &moves {
            let child = pos.play(mv);
            let proven = match child.status() {
                Status::Win(p) if p == child.side_to_move() => Some(1),
                Status::Win(_) => Some(-1),
                Status::Draw => Some(0),
                Status::Ongoing => {
                    let seen = path.iter().filter(|&&k| k == child.key()).count();
                    (G::Kind::REPEATS && self.repetition.draws(seen)).then_some(0)
                }
            };
            self.nodes.push(Node {
                pos: child,
                mv: Some(mv),
                parent: x as u32,
                first: 0,
                count: 0,
                visits: 0,
                reward: 0.0,
                proven,
            });
        }
        self.nodes[x].first = first;
        self.nodes[x].count = moves.len() as u32;
        true
    }

    /// The exact keys of the positions before `x`'s children: the game's and the tree's.
    fn path_keys(&self, mut x: usize) -> Vec<u128> {
        let mut keys = self.earlier.clone();
        let start = keys.len();
        loop {
            keys.push(self.nodes[x].pos.key());
            if self.nodes[x].parent == NONE {
                break;
            }
            x = self.nodes[x].parent as usize;
        }
        keys[start..].reverse();
        keys
    }

    /// A random game from `pos`: a side that can win at once does; otherwise it plays a random
    /// move, avoiding (in a few tries) one that lets the opponent win at once. The result for
    /// the side to move at `pos`.
    fn playout(&mut self, pos: &G, rng: &mut SplitMix) -> Result<f64, Stop> {
        let me = pos.side_to_move();
        let mut p = *pos;
        let mut moves = MoveList::new();
        for _ in 0..PLAYOUT_PLIES {
            self.clock.poll()?;
            match p.status() {
                Status::Win(w) => return Ok(if w == me { 1.0 } else { 0.0 }),
                Status::Draw => return Ok(0.5),
                Status::Ongoing => {}
            }
            if p.has_winning_move() {
                return Ok(if p.side_to_move() == me { 1.0 } else { 0.0 });
            }
            moves.clear();
            p.legal_moves(&mut moves);
            let mut next = p.play(moves[rng.below(moves.len())]);
            for _ in 0..3 {
                if next.status() != Status::Ongoing || !next.has_winning_move() {
                    break;
                }
                next = p.play(moves[rng.below(moves.len())]);
            }
            p = next;
        }
        Ok(0.5)
    }

    /// Adds a playout's result (for the side to move at `x`) to `x` and its ancestors, and
    /// proves what the new values settle.
    fn back_up(&mut self, mut x: usize, mut result: f64) {
        loop {
            let node = &mut self.nodes[x];
            node.visits += 1;
            // The reward is kept for the side that moved into the node.
            node.reward += 1.0 - result;
            result = 1.0 - result;
            if node.parent == NONE {
                break;
            }
            x = node.parent as usize;
            self.prove_up(x);
        }
    }

    /// Proves `x` from its children where they settle it: a move to a lost position wins; when
    /// every child is proven, the best of them.
    fn prove_up(&mut self, x: usize) {
        let node = &self.nodes[x];
        if node.proven.is_some() || node.count == 0 {
            return;
        }
        let range = node.first as usize..(node.first + node.count) as usize;
        let mut best = Some(-1);
        for c in range {
            match self.nodes[c].proven {
                Some(-1) => {
                    best = Some(1);
                    break;
                }
                Some(v) => best = best.map(|b| b.max(-v)),
                None => best = None,
            }
        }
        if best.is_some() {
            self.nodes[x].proven = best;
        }
    }

    fn outcome(&self, playouts: u64, stop: Option<Stop>) -> Option<Outcome<G::Move>> {
        let root = &self.nodes[0];
        if root.count == 0 {
            return None;
        }
        let estimate = |c: usize| {
            let n = &self.nodes[c];
            match n.proven {
                Some(v) => Estimate::Proven(-v),
                None => Estimate::Mean {
                    mean: if n.visits == 0 {
                        0.5
                    } else {
                        n.reward / n.visits as f64
                    },
                    visits: n.visits,
                },
            }
        };
        // Proven wins first, then unproven moves by visits, proven draws by their value in
        // between, proven losses last.
        let rank = |c: usize| -> (i32, u32) {
            match estimate(c) {
                Estimate::Proven(1) => (3, 0),
                Estimate::Proven(0) => (1, u32::MAX),
                Estimate::Proven(_) => (0, 0),
                Estimate::Mean { visits, mean } => {
                    if mean > 0.5 {
                        (2, visits)
                    } else {
                        (1, visits)
                    }
                }
            }
        };
        let mut children: Vec<usize> = (root.first..root.first + root.count)
            .map(|c| c as usize)
            .collect();
        children.sort_by_key(|&c| std::cmp::Reverse(rank(c)));
        let mut pv = Vec::new();
        let mut x = children[0];
        loop {
            pv.push(self.nodes[x].mv.expect("a child has its move"));
            let n = &self.nodes[x];
            if n.count == 0 {
                break;
            }
            x = (n.first..n.first + n.count)
                .map(|c| c as usize)
                .max_by_key(|&c| rank(c))
                .expect("children");
        }
        Some(Outcome {
            best: pv[0],
            proven: root.proven,
            moves: children
                .iter()
                .map(|&c| (self.nodes[c].mv.expect("a child has its move"), estimate(c)))
                .collect(),
            pv,
            playouts,
            stop,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::connect::Connect;
    use crate::game::grid::{Grid, Runtime};
    use crate::game::{Notation, Rules, play_moves};
    use crate::search::minimax::Minimax;

    #[test]
    fn proves_small_boards_like_the_exhaustive_reference() {
        let lines = ["12213443", "2323414", "3232414", "1234", "3"];
        for (w, h, k, lines) in [(4, 4, 4, &lines[..3]), (5, 4, 3, &lines[..])] {
            let start: Connect<u64, Runtime> =
                Connect::new(Runtime::new(Grid::new(w, h, k).expect("a board")));
            let mut rng = SplitMix(7);
            // Deep enough that the tree of paths, which does not merge transpositions, proves
            // them in moments.
            for line in lines {
                let (pos, _) = play_moves(start, line).expect("moves");
                let out = search(
                    &GameLine::new(pos),
                    Repetition::SECOND,
                    &Limits::default(),
                    256 << 20,
                    &mut rng,
                )
                .expect("an open position");
                let exact = Minimax::new().value(&pos).signum();
                assert_eq!(out.proven, Some(exact), "{w}x{h} k{k} {line}");
                assert_eq!(out.stop, None);
                // The chosen move keeps the value, and every proven move's value is right.
                let after = Minimax::new().value(&pos.play(out.best)).signum();
                assert_eq!(-after, exact, "{line}: {}", pos.format_move(out.best));
                for (mv, estimate) in out.moves {
                    if let Estimate::Proven(v) = estimate {
                        assert_eq!(v, -Minimax::new().value(&pos.play(mv)).signum());
                    }
                }
            }
        }
    }
}
