//! Job-level search run by workers ([`crate::search::jobs`] decides what to search): engines on
//! threads of this process and, under `mpirun`, on threads of the other ranks. Rank 0 leads:
//! it keeps the DAG, hands each job to a free worker and takes the answers as they come; the
//! other ranks serve ([`serve`]) until rank 0 says the search is over.
//!
//! Messages (bytes, [`Ranks::send`]): to a worker rank, `1`, the job's number (8 bytes,
//! little-endian) and the moves from the game's start to the job's position, or `0`: the end;
//! back to rank 0, the job's number, its answer (`0` no win, `1` a win, `2` stopped by a limit,
//! `3` given up at the job's own node budget) and the nodes it searched (8 bytes).

use super::journal::Journal;
use crate::engine::{Cancel, Engine, Limits, Stop};
use crate::error::Error;
use crate::game::{Notation, Tactics, play_moves};
use crate::limits::Instant;
use crate::search::jobs::{JobStats, Jobs};
use crate::search::ranks::Ranks;
use std::collections::HashMap;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::sync::{Arc, Mutex};
use std::time::Duration;

/// What a job-level search found.
#[derive(Clone, Debug)]
pub struct JobReport {
    /// Win, draw or loss for the side to move (1, 0, -1); `None` when stopped.
    pub value: Option<i32>,
    /// Why the search stopped before it answered (`None`: it answered).
    pub stopped: Option<Stop>,
    /// Nodes the jobs searched, on every worker.
    pub nodes: u64,
    /// Wall-clock time of the whole search.
    pub elapsed: Duration,
    /// One per question asked: does the side to move win, and, if not, does the opponent.
    pub questions: Vec<JobStats>,
    /// Workers: threads on every rank.
    pub workers: usize,
}

/// How a job ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
enum End {
    /// Whether its side to move wins.
    Answered(bool),
    /// Given up at its own node budget: the search splits it.
    OverBudget,
    /// Stopped by the search's limits.
    Stopped,
}

/// A job's answer: its number, how it ended and the nodes it searched.
type Answer = (u64, End, u64);

/// Engines on threads, each taking the next job from a shared queue.
struct Pool<G: Tactics> {
    jobs: Option<Sender<(u64, G)>>,
    answers: Receiver<Answer>,
    /// Cancelled once, when the search is over, to stop the jobs still running.
    stop: Cancel,
    threads: Vec<std::thread::JoinHandle<()>>,
}

impl<G: Tactics> Pool<G> {
    /// `job_nodes`: each job's own budget (`None`: none beyond `limits`).
    fn new(
        threads: usize,
        make: &(dyn Fn() -> Result<Engine<G>, Error> + Sync),
        limits: &Limits,
        job_nodes: Option<u64>,
    ) -> Result<Pool<G>, Error> {
        // Cancelled once, when the search is over, to stop the jobs still running; one per
        // pool (the search's own interrupt is watched by the leader, which then ends the pool).
        let stop = Cancel::new();
        let (jobs, queue) = channel::<(u64, G)>();
        let (done, answers) = channel();
        let queue = Arc::new(Mutex::new(queue));
        let mut handles = Vec::new();
        for _ in 0..threads.max(1) {
            let mut engine = make()?;
            // The job's budget binds when it is below the search's own node limit.
            let own_budget = job_nodes.filter(|&b| limits.nodes.is_none_or(|n| b < n));
            // Each job's limits, counted from its start.
            let job_limits = Limits {
                interrupt: Some(stop.clone()),
                nodes: own_budget.or(limits.nodes),
                ..limits.clone()
            };
            let (queue, done) = (Arc::clone(&queue), done.clone());
            let stop = stop.clone();
            handles.push(std::thread::spawn(move || {
                loop {
                    let job = queue.lock().expect("no worker panics holding it").recv();
                    let Ok((id, pos)) = job else { break };
                    let report = engine.wins(&pos, &job_limits);
                    let end = match (report.score, report.stopped) {
                        (Some(s), _) => End::Answered(s > 0),
                        (None, Some(Stop::Nodes))
                            if own_budget.is_some() && !stop.is_cancelled() =>
                        {
                            End::OverBudget
                        }
                        (None, _) => End::Stopped,
                    };
                    if done.send((id, end, report.nodes)).is_err() {
                        break;
                    }
                }
            }));
        }
        Ok(Pool {
            jobs: Some(jobs),
            answers,
            stop,
            threads: handles,
        })
    }

    fn submit(&self, id: u64, pos: G) {
        let jobs = self.jobs.as_ref().expect("a pool takes jobs until it ends");
        jobs.send((id, pos)).expect("the workers outlive the queue");
    }

    /// Stops the jobs still running and waits for the threads.
    fn end(mut self) {
        self.stop.cancel();
        self.jobs = None;
        for t in self.threads.drain(..) {
            let _ = t.join();
        }
    }
}

fn job_message(id: u64, moves: &str) -> Vec<u8> {
    let mut m = vec![1u8];
    m.extend(id.to_le_bytes());
    m.extend(moves.as_bytes());
    m
}

fn answer_message((id, end, nodes): Answer) -> Vec<u8> {
    let mut m = id.to_le_bytes().to_vec();
    m.push(match end {
        End::Answered(false) => 0,
        End::Answered(true) => 1,
        End::Stopped => 2,
        End::OverBudget => 3,
    });
    m.extend(nodes.to_le_bytes());
    m
}

fn read_answer(m: &[u8]) -> Answer {
    let word = |at: usize| u64::from_le_bytes(m[at..at + 8].try_into().expect("8 bytes"));
    let end = match m[8] {
        0 => End::Answered(false),
        1 => End::Answered(true),
        3 => End::OverBudget,
        _ => End::Stopped,
    };
    (word(0), end, word(9))
}

/// The moves from `start` to `pos`'s path, as one move string.
fn move_text<G: Notation>(start: &G, moves: &[G::Move]) -> String {
    let mut pos = *start;
    let texts: Vec<String> = moves
        .iter()
        .map(|&m| {
            let t = pos.format_move(m);
            pos = pos.play(m);
            t
        })
        .collect();
    start.join_moves(&texts)
}

/// Serves jobs on a rank other than 0 until rank 0 says the search is over.
///
/// # Errors
/// The error of `make` when an engine cannot be made; [`Error::Internal`] when a job from rank
/// 0 cannot be read (its moves are not text, or cannot be played).
pub fn serve<G: Tactics + Notation>(
    start: &G,
    ranks: &dyn Ranks,
    threads: usize,
    make: &(dyn Fn() -> Result<Engine<G>, Error> + Sync),
    limits: &Limits,
    job_nodes: Option<u64>,
) -> Result<(), Error> {
    let pool = Pool::new(threads, make, limits, job_nodes)?;
    loop {
        while let Ok(answer) = pool.answers.try_recv() {
            ranks.send(0, &answer_message(answer));
        }
        match ranks.poll(0) {
            Some(m) if m.first() == Some(&1) => {
                let id = u64::from_le_bytes(m[1..9].try_into().expect("8 bytes"));
                let text =
                    std::str::from_utf8(&m[9..]).map_err(|e| Error::Internal(e.to_string()))?;
                let (pos, _) =
                    play_moves(*start, text).map_err(|e| Error::Internal(e.to_string()))?;
                pool.submit(id, pos);
            }
            Some(_) => break,
            None => std::thread::sleep(Duration::from_micros(200)),
        }
    }
    pool.end();
    Ok(())
}

/// Tells the other ranks that the searches are over: they stop serving.
pub fn release(ranks: &dyn Ranks) {
    for r in 1..ranks.size() {
        ranks.send(r, &[0]);
    }
}

/// What a job-level search keeps and tells as it goes.
pub struct Keeping<'a, G: Tactics> {
    /// The jobs' answers on disk: those it holds are not searched again, and each new one is
    /// added as it comes.
    pub journal: Option<&'a mut Journal>,
    /// Called when the jobs settle a move of the root: the move, and what it does for the
    /// root's side to move (`wins`, `does not win`, `loses`, `does not lose`).
    pub settled: &'a mut dyn FnMut(G::Move, &'static str),
    /// Each job's own node budget: a job that spends it without an answer is given up and its
    /// position grown two plies further into new jobs (`None`: every job runs to its end, or
    /// to the search's limits).
    pub job_nodes: Option<u64>,
}

/// What the journal holds for the waiting jobs: the splits first (so the DAG grows as it did),
/// then the answers.
fn recall<G: Tactics>(jobs: &mut Jobs<G>, journal: &Journal) {
    jobs.split_where(|leaf| journal.was_split(leaf.canonical_key()));
    jobs.know(|leaf| journal.get(leaf.canonical_key()));
}

/// Solves `pos` (reached from `start` by `moves`) by job-level search to `depth` plies, on
/// `threads` workers here and as many on each other rank (which must be [`serve`]-ing until
/// [`release`]): whether the side to move wins, and if not whether the opponent does. Rank 0
/// calls it; `serial` tells this search's jobs from an earlier search's (a different number
/// for each search).
///
/// # Errors
/// The error of `make` when an engine cannot be made; the journal's ([`Error::File`]) when it
/// cannot be written.
#[allow(clippy::too_many_arguments)]
pub fn solve<G: Tactics + Notation>(
    serial: u32,
    start: &G,
    pos: &G,
    moves: &[G::Move],
    depth: u32,
    threads: usize,
    ranks: &dyn Ranks,
    make: &(dyn Fn() -> Result<Engine<G>, Error> + Sync),
    limits: &Limits,
    keeping: Keeping<'_, G>,
) -> Result<JobReport, Error> {
    let Keeping {
        mut journal,
        settled,
        job_nodes,
    } = keeping;
    let began = Instant::now();
    let pool = Pool::new(threads, make, limits, job_nodes)?;
    let threads = threads.max(1);
    // Jobs out on each rank (rank 0: this pool), by number.
    let mut out: Vec<Vec<u64>> = vec![Vec::new(); ranks.size()];
    let mut nodes = 0;
    let mut questions = Vec::new();
    let mut value = None;
    let mut stopped = None;
    // The positions of the jobs out, by number: their answers go to the journal.
    let mut keys: HashMap<u64, u128> = HashMap::new();
    // A job's number: the search and its question above bit 32, the node below.
    'questions: for (q, player) in [pos.side_to_move(), pos.side_to_move().opponent()]
        .into_iter()
        .enumerate()
    {
        let mut jobs = Jobs::new(pos, player, depth);
        if let Some(journal) = journal.as_deref() {
            recall(&mut jobs, journal);
        }
        let tag = (u64::from(serial) << 33) | ((q as u64) << 32);
        // The root's moves told so far.
        let mut told: Vec<G::Move> = Vec::new();
        let words = if player == pos.side_to_move() {
            ["wins", "does not win"]
        } else {
            ["loses", "does not lose"]
        };
        loop {
            for (mv, wins) in jobs.replies() {
                if let Some(w) = wins
                    && !told.contains(&mv)
                {
                    told.push(mv);
                    settled(mv, words[usize::from(!w)]);
                }
            }
            if jobs.answer().is_some() {
                break;
            }
            let free: usize = out.iter().map(|o| threads.saturating_sub(o.len())).sum();
            for (node, leaf, path) in jobs.next(free) {
                let id = tag | node as u64;
                let rank = (0..ranks.size())
                    .find(|&r| out[r].len() < threads)
                    .expect("no more jobs than free workers");
                out[rank].push(id);
                keys.insert(id, leaf.canonical_key());
                if rank == 0 {
                    pool.submit(id, leaf);
                } else {
                    let all: Vec<G::Move> = moves.iter().chain(&path).copied().collect();
                    ranks.send(rank, &job_message(id, &move_text(start, &all)));
                }
            }
            // The next answer, from whichever worker.
            let (rank, (id, end, searched)) = loop {
                if let Ok(answer) = pool.answers.try_recv() {
                    break (0, answer);
                }
                if let Some((r, m)) = (1..ranks.size()).find_map(|r| ranks.poll(r).map(|m| (r, m)))
                {
                    break (r, read_answer(&m));
                }
                let late = limits.time.is_some_and(|t| began.elapsed() >= t);
                if late || limits.is_interrupted() {
                    stopped = Some(if late { Stop::Time } else { Stop::Interrupted });
                    questions.push(jobs.stats().clone());
                    break 'questions;
                }
                std::thread::sleep(Duration::from_micros(200));
            };
            out[rank].retain(|&j| j != id);
            nodes += searched;
            let kept = match (journal.as_deref_mut(), keys.remove(&id), end) {
                (Some(journal), Some(key), End::Answered(w)) => journal.add(key, w),
                (Some(journal), Some(key), End::OverBudget) => journal.add_split(key),
                _ => Ok(()),
            };
            if let Err(e) = kept {
                pool.end();
                return Err(e);
            }
            // An answer to an earlier question (a job still running when it was decided).
            if id >> 32 != tag >> 32 {
                continue;
            }
            match end {
                End::Answered(w) => jobs.solved((id & 0xffff_ffff) as usize, w),
                End::OverBudget => {
                    jobs.split((id & 0xffff_ffff) as usize);
                    if let Some(journal) = journal.as_deref() {
                        recall(&mut jobs, journal);
                    }
                }
                End::Stopped => {
                    stopped = Some(if limits.is_interrupted() {
                        Stop::Interrupted
                    } else if limits.nodes.is_some() {
                        Stop::Nodes
                    } else {
                        Stop::Time
                    });
                    questions.push(jobs.stats().clone());
                    break 'questions;
                }
            }
        }
        questions.push(jobs.stats().clone());
        match (q, jobs.answer()) {
            (0, Some(true)) => {
                value = Some(1);
                break;
            }
            (1, Some(wins)) => value = Some(if wins { -1 } else { 0 }),
            _ => {}
        }
    }
    pool.end();
    // The other ranks' last answers, of jobs stopped at the end, are not waited for.
    Ok(JobReport {
        value,
        stopped,
        nodes,
        elapsed: began.elapsed(),
        questions,
        workers: threads * ranks.size(),
    })
}
