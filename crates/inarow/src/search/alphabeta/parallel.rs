//! Several threads on one table: a search runs alone first, and if it lasts, every thread
//! solves the same position (lazy SMP), deferring near the root the moves another thread is
//! searching (simplified ABDADA); the first thread to finish gives the answer.

use super::AlphaBeta;
use crate::game::{Bounded, Tactics};
use crate::limits::{Clock, Limits, Stop};
use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

/// Nodes with at least this many plies left coordinate threads: a move another thread is
/// searching is deferred to the end of the list.
pub(super) const SPLIT_MIN_PLIES_LEFT: i32 = 6;
/// Slots of the table of subtrees being searched (a power of two).
const BUSY_SLOTS: usize = 1 << 14;

/// Why a search stopped before it finished.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub(super) enum Halt {
    Limit(Stop),
    /// Another thread finished first, or the solo run ended: the work is not needed.
    Yield,
    /// Another thread answered the root driver's test under way: the driver takes its answer.
    Answered,
}

/// What the threads of one search share besides the table.
pub(super) struct Shared {
    /// Set when one thread has the answer (or the solo run ends): the others stop.
    pub done: AtomicBool,
    /// Nodes of all threads, counted in steps of the limit-check interval, for the node limit:
    /// those of the caller's clock, during a race.
    pub nodes: AtomicU64,
    /// Keys of subtrees some thread is searching.
    busy: Vec<AtomicU64>,
    /// The null-window tests the root drivers made.
    pub tests: Arc<Tests>,
    /// Tests answered so far: a thread whose test another has answered stops it.
    pub answered: AtomicU64,
}

/// The results of the root drivers' null-window tests, by the root's canonical key and the
/// test: the table holds one bound per position, so a driver's next test overwrites the last
/// one's at the root; these keep every result, for the helpers that join a search and for a
/// run that resumes from a checkpoint.
#[derive(Debug, Default)]
pub struct Tests(Mutex<HashMap<(u128, i32), i32>>);

impl Tests {
    /// The most results kept (see [`Tests::record`]).
    pub const MAX: usize = 1 << 16;

    /// The result of the test "is the value above `test`?" on the position with this
    /// canonical key: at most `test` means the value is at most the result, else at least.
    pub fn get(&self, key: u128, test: i32) -> Option<i32> {
        self.0
            .lock()
            .expect("tests lock")
            .get(&(key, test))
            .copied()
    }

    /// Keeps a result. The map holds at most [`Tests::MAX`] of them: a program that solves
    /// without end (a server) starts it over when full, which costs a search at most.
    pub fn record(&self, key: u128, test: i32, result: i32) {
        let mut tests = self.0.lock().expect("tests lock");
        if tests.len() >= Self::MAX {
            tests.clear();
        }
        tests.insert((key, test), result);
    }

    /// Forgets every result.
    pub fn clear(&self) {
        self.0.lock().expect("tests lock").clear();
    }

    /// The results for the position with this canonical key: test, result.
    pub fn of(&self, key: u128) -> Vec<(i32, i32)> {
        (self.0.lock().expect("tests lock").iter())
            .filter(|&(&(k, _), _)| k == key)
            .map(|(&(_, test), &result)| (test, result))
            .collect()
    }

    /// Every result: key, test, result, in that order.
    pub fn entries(&self) -> Vec<(u128, i32, i32)> {
        let mut all: Vec<_> = (self.0.lock().expect("tests lock").iter())
            .map(|(&(key, test), &result)| (key, test, result))
            .collect();
        all.sort_unstable();
        all
    }
}

impl Shared {
    pub fn new() -> Arc<Shared> {
        Arc::new(Shared {
            done: AtomicBool::new(false),
            nodes: AtomicU64::new(0),
            busy: (0..BUSY_SLOTS).map(|_| AtomicU64::new(0)).collect(),
            tests: Arc::default(),
            answered: AtomicU64::new(0),
        })
    }

    /// The slot of `key` in the busy table and the tag that marks it there.
    #[inline(always)]
    fn busy_slot(key: u128) -> (usize, u64) {
        let tag = (key as u64 ^ (key >> 64) as u64) | 1;
        let hash = tag.wrapping_mul(0x9e37_79b9_7f4a_7c15);
        ((hash >> 50) as usize % BUSY_SLOTS, tag)
    }

    /// Marks the subtree of `key` as being searched, unless another thread has it (`None`).
    #[inline]
    pub fn claim(&self, key: u128) -> Option<(usize, u64)> {
        let (slot, tag) = Self::busy_slot(key);
        if self.busy[slot].load(Ordering::Relaxed) == tag {
            return None;
        }
        self.busy[slot].store(tag, Ordering::Relaxed);
        Some((slot, tag))
    }

    /// Unmarks a subtree this thread claimed (unless another thread has taken the slot since).
    #[inline]
    pub fn release(&self, (slot, tag): (usize, u64)) {
        let _ = self.busy[slot].compare_exchange(tag, 0, Ordering::Relaxed, Ordering::Relaxed);
    }
}

impl<G: Bounded + Tactics> AlphaBeta<G> {
    /// Runs `job` under the limits of `clock`, which every thread checks during the race: the
    /// nodes it counts against them, and the limit that stops it, go back to the clock, where
    /// the caller's next search under it (an analysis' next move) goes on from them.
    pub(super) fn race<R: Send>(
        &mut self,
        clock: &mut Clock,
        job: impl Fn(&mut Self) -> R + Sync,
    ) -> Result<R, Stop> {
        if let Some(stop) = clock.stop {
            return Err(stop);
        }
        self.shared.nodes.store(clock.ticks, Ordering::Relaxed);
        let (limits, deadline) = (clock.limits(), clock.deadline());
        self.each_worker(|worker| {
            worker.limits = limits.clone();
            worker.deadline = deadline;
        });
        let result = self.race_threads(job);
        self.each_worker(|worker| {
            worker.limits = Limits::default();
            worker.deadline = None;
        });
        clock.ticks = self.shared.nodes.load(Ordering::Relaxed);
        clock.stop = result.as_ref().err().copied();
        result
    }

    /// Runs `job` to completion: alone at first, then, if it is still running after
    /// `Config::solo_nodes` nodes, on every thread at once (on the full table),
    /// taking the first thread's answer.
    fn race_threads<R: Send>(&mut self, job: impl Fn(&mut Self) -> R + Sync) -> Result<R, Stop> {
        if !self.helpers.is_empty() {
            self.solo_until = Some(self.nodes + self.config.solo_nodes);
        }
        let solo = job(self);
        self.solo_until = None;
        match self.stopped.take() {
            None => return Ok(solo),
            Some(Halt::Limit(s)) => return Err(s),
            Some(Halt::Yield | Halt::Answered) => {}
        }
        // Every thread on the full table from here on.
        self.grow_full();
        self.shared.done.store(false, Ordering::Relaxed);
        let mut helpers = std::mem::take(&mut self.helpers);
        let job = &job;
        let stack = self.helper_stack;
        let results = std::thread::scope(|scope| {
            let running: Vec<_> = helpers
                .iter_mut()
                .map(|helper| {
                    std::thread::Builder::new()
                        .stack_size(stack)
                        .spawn_scoped(scope, move || helper.run_shared(job))
                        .expect("a search thread starts")
                })
                .collect();
            let mut results = vec![self.run_shared(job)];
            results.extend(
                running
                    .into_iter()
                    .map(|t| t.join().expect("helper panicked")),
            );
            results
        });
        self.helpers = helpers;
        let mut limit = None;
        for (result, halt) in results {
            match halt {
                None => return Ok(result),
                Some(Halt::Limit(s)) => limit = Some(s),
                Some(Halt::Yield | Halt::Answered) => {}
            }
        }
        Err(limit.unwrap_or(Stop::Time))
    }

    /// One thread's part of [`AlphaBeta::race`]: the job, then the signal that stops the others.
    fn run_shared<R>(&mut self, job: &impl Fn(&mut Self) -> R) -> (R, Option<Halt>) {
        self.parallel = true;
        let result = job(self);
        self.parallel = false;
        self.shared.done.store(true, Ordering::Relaxed);
        let halt = self.stopped.take();
        (result, halt)
    }
}
