//! The one door for what is known before searching: an [`Engine`](crate::engine::Engine) asks its
//! oracles in turn (an opening book, a strong solution, the game's own exact solver) before it
//! runs a search, each under the engine's limits (time, nodes, memory, interrupt).

use super::book::Book;
use crate::game::{Pentago, Rules, Status, Variant};
use crate::limits::{Clock, Limits, Started, Stop};
use crate::search::retro::{Lookup, RetroValue};
use crate::solvers;
use std::collections::{HashMap, HashSet};
use std::sync::Arc;

/// What an oracle knows of a position, for the side to move.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(crate) enum Known {
    /// The exact score of a bounded game.
    Score(i32),
    /// Win, draw or loss with the plies to the end under perfect play.
    Outcome(RetroValue),
    /// Win, draw or loss alone (1, 0, -1).
    Sign(i32),
}

/// The limits an oracle answers under: the engine's, with its clock started and the nodes
/// already spent taken off the node limit, and its memory budget.
#[derive(Clone, Debug)]
pub(crate) struct Budget {
    pub limits: Started,
    pub mem_bytes: usize,
}

/// A source of values the engine asks before it searches.
pub(crate) trait Oracle<G>: Send {
    /// What this oracle knows of `pos` (`None`: nothing); an error when it applies but a limit
    /// stopped it, or its memory budget cannot hold it.
    fn ask(&mut self, pos: &G, budget: &Budget) -> Result<Option<Known>, Stop>;
    /// Readies the answers for `pos`'s children, which the engine asks next: an oracle that
    /// answers a position with all its moves (the midgame solver) solves `pos` unless it has
    /// already; `pos` known only as a child of an earlier answer is not enough.
    fn learn_moves(&mut self, _pos: &G, _budget: &Budget) -> Result<(), Stop> {
        Ok(())
    }
    /// The nodes it has worked through since it was made.
    fn nodes(&self) -> u64 {
        0
    }
    /// Forgets what it has learnt.
    fn reset(&mut self) {}
    /// The bytes it needs to answer `pos` (`None`: it does not answer `pos`), so that a front
    /// end can offer a larger budget rather than give the exact answer up.
    fn bytes_needed(&self, _pos: &G) -> Option<u64> {
        None
    }
    /// Where [`Oracle::bytes_needed`] depends on the stones on the board: the fewest stones from
    /// which its answers fit in `bytes` (`None`: it does not depend on them), so that a front end
    /// whose budget cannot grow enough can say where exact answers start.
    fn fits_from(&self, _bytes: u64) -> Option<u32> {
        None
    }
}

/// An opening book: the exact scores of the positions up to its depth, and of the perfect
/// player's past it.
impl<G: Rules> Oracle<G> for Arc<Book> {
    fn ask(&mut self, pos: &G, _: &Budget) -> Result<Option<Known>, Stop> {
        // The ply first: most positions asked are past the book, and it costs nothing.
        if pos.ply() > self.perfect_to() || pos.status() != Status::Ongoing {
            return Ok(None);
        }
        Ok(self.lookup(pos).map(Known::Score))
    }
}

/// A strong solution (a retrograde database): every position's value and distance.
pub(crate) struct Database<G>(pub Arc<dyn Lookup<G>>);

impl<G> Oracle<G> for Database<G> {
    fn ask(&mut self, pos: &G, _: &Budget) -> Result<Option<Known>, Stop> {
        Ok(self.0.lookup(pos).map(Known::Outcome))
    }
}

/// The game's own exact solver (see [`solvers`]), where the catalog says `sample`'s game has
/// one ([`Variant::own_solver_board`]): it answers win / draw / loss, so the engine asks it
/// only for those.
pub(crate) fn own_solver<G: Variant>(sample: &G) -> Option<Box<dyn Oracle<G>>> {
    sample
        .own_solver_board()
        .map(|_| Box::new(Midgame::default()) as Box<dyn Oracle<G>>)
}

/// Pentago's midgame solver, from [`solvers::pentago::FROM_EMPTY`] empty cells on, on every
/// core, for the positions the catalog gives a Pentago board ([`Variant::own_solver_board`]).
/// It answers a position with all its moves, which it remembers by the boards' keys: an
/// analysis asks the children next.
#[derive(Default)]
struct Midgame {
    /// Values by exact key: each position solved and its children.
    known: HashMap<u128, i32>,
    /// The positions solved, whose children are known.
    solved: HashSet<u128>,
    nodes: u64,
}

impl Midgame {
    /// Solves `pos` and remembers its value and its children's (`None` where the solver does
    /// not apply).
    fn solve(&mut self, pos: &Pentago, budget: &Budget) -> Result<Option<i32>, Stop> {
        if !solvers::pentago::applies(pos) {
            return Ok(None);
        }
        // Spent limits stop here, before the solver's setup: an analysis asks every child.
        if let Some(stop) = budget.limits.stop(0) {
            return Err(stop);
        }
        let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
        refuse_beyond_machine(pos)?;
        let answer = solvers::pentago::solve(
            pos,
            budget.mem_bytes as u64,
            threads,
            budget.limits.clone(),
            |_, _| {},
        )?;
        self.nodes += answer.nodes;
        if self.known.len() > (1 << 20) {
            self.known.clear();
            self.solved.clear();
        }
        self.known.insert(pos.key(), answer.value);
        self.solved.insert(pos.key());
        for (mv, v) in answer.moves {
            self.known.insert(pos.play(mv).key(), -v);
        }
        Ok(Some(answer.value))
    }
}

/// [`Stop::BeyondMachine`] for a root whose solve needs more memory than the machine has,
/// whatever the budget: the message says from how many stones exact solves fit.
fn refuse_beyond_machine(pos: &Pentago) -> Result<(), Stop> {
    let [first, second] = pos.stones();
    let stones = (first | second).count_ones();
    let need = solvers::pentago::bytes_needed(36 - stones as usize);
    match crate::memory::machine_bytes() {
        Some(machine) if need > machine => Err(Stop::BeyondMachine {
            need_mib: need.div_ceil(1 << 20),
            machine_mib: machine >> 20,
            fits_from: solvers::pentago::fewest_stones_within(machine),
            stones,
        }),
        _ => Ok(()),
    }
}

impl<G: Variant> Oracle<G> for Midgame {
    fn ask(&mut self, pos: &G, budget: &Budget) -> Result<Option<Known>, Stop> {
        let Some(board) = pos.own_solver_board() else {
            return Ok(None);
        };
        if let Some(&v) = self.known.get(&board.key()) {
            return Ok(Some(Known::Sign(v)));
        }
        Ok(self.solve(&board, budget)?.map(Known::Sign))
    }

    fn bytes_needed(&self, pos: &G) -> Option<u64> {
        let board = pos.own_solver_board()?;
        let [first, second] = board.stones();
        let empty = 36 - (first | second).count_ones() as usize;
        solvers::pentago::applies(&board).then(|| solvers::pentago::bytes_needed(empty))
    }

    fn fits_from(&self, bytes: u64) -> Option<u32> {
        Some(solvers::pentago::fewest_stones_within(bytes))
    }

    fn learn_moves(&mut self, pos: &G, budget: &Budget) -> Result<(), Stop> {
        let Some(board) = pos.own_solver_board() else {
            return Ok(());
        };
        if !self.solved.contains(&board.key()) {
            self.solve(&board, budget)?;
        }
        Ok(())
    }

    fn nodes(&self) -> u64 {
        self.nodes
    }

    fn reset(&mut self) {
        self.known.clear();
        self.solved.clear();
    }
}

/// The budget for the oracles of a call under `clock`, after `spent` nodes of it.
pub(crate) fn budget(clock: &Clock, spent: u64, mem_bytes: usize) -> Budget {
    let remaining = Limits {
        nodes: clock.limits().nodes.map(|n| n.saturating_sub(spent)),
        ..clock.limits().clone()
    };
    Budget {
        limits: Started {
            limits: remaining,
            deadline: clock.deadline(),
        },
        mem_bytes,
    }
}
