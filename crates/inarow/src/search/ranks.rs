//! The processes a distributed computation runs on, as the searches see them: a rank among
//! `size`, collective exchanges and reductions, and point-to-point byte streams. MPI provides
//! them across machines (`engine::distributed::mpi`, cargo feature `mpi`); [`Solo`] is one process alone;
//! [`Local`] runs the ranks as threads of one process, so that a distributed computation can be
//! tested, and checked against the single-process one, without MPI.

use std::collections::{HashMap, VecDeque};
use std::sync::{Barrier, Condvar, Mutex};

/// How [`Ranks::reduce`] combines the ranks' values.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Reduce {
    /// The sum over the ranks.
    Sum,
    /// The maximum over the ranks.
    Max,
}

/// A rank's view of the job. Every method but [`send`](Ranks::send) and
/// [`receive`](Ranks::receive) is collective: every rank calls it, in the same order.
pub trait Ranks {
    /// This rank, `0..size()`.
    fn rank(&self) -> usize;
    /// The number of ranks.
    fn size(&self) -> usize;
    /// Sends `outgoing[r]` to rank `r` (one vector per rank) and returns what every rank sent
    /// to this one, concatenated in rank order.
    fn exchange(&self, outgoing: &[Vec<u64>]) -> Vec<u64>;
    /// Replaces each of `values` by its sum or maximum over the ranks.
    fn reduce(&self, values: &mut [u64], op: Reduce);
    /// Sends `bytes` to rank `to`, to be taken by one [`receive`](Ranks::receive) there.
    fn send(&self, to: usize, bytes: &[u8]);
    /// The next bytes rank `from` sent to this one.
    fn receive(&self, from: usize) -> Vec<u8>;
    /// The next bytes rank `from` sent to this one, if they have arrived.
    fn poll(&self, from: usize) -> Option<Vec<u8>>;
}

/// One process alone.
pub struct Solo;

impl Ranks for Solo {
    fn rank(&self) -> usize {
        0
    }
    fn size(&self) -> usize {
        1
    }
    fn exchange(&self, outgoing: &[Vec<u64>]) -> Vec<u64> {
        outgoing[0].clone()
    }
    fn reduce(&self, _: &mut [u64], _: Reduce) {}
    fn send(&self, _: usize, _: &[u8]) {
        unreachable!("a single rank sends to no other")
    }
    fn receive(&self, _: usize) -> Vec<u8> {
        unreachable!("a single rank receives from no other")
    }
    fn poll(&self, _: usize) -> Option<Vec<u8>> {
        None
    }
}

/// Byte messages under way, by (from, to), oldest first.
type Mailboxes = HashMap<(usize, usize), VecDeque<Vec<u8>>>;

/// What the threads of [`Local`] share.
struct Hub {
    size: usize,
    barrier: Barrier,
    /// `slots[from * size + to]`: what `from` sends `to` in the current exchange.
    slots: Mutex<Vec<Vec<u64>>>,
    /// Each rank's values in the current reduction.
    values: Mutex<Vec<Vec<u64>>>,
    mail: Mutex<Mailboxes>,
    posted: Condvar,
}

/// A rank run as a thread of this process ([`Local::run`]).
pub struct Local<'a> {
    rank: usize,
    hub: &'a Hub,
}

impl Local<'_> {
    /// Runs `job` on `size` ranks, each a thread, and returns their results in rank order.
    ///
    /// # Panics
    /// If `job` panics on a rank.
    pub fn run<T: Send>(size: usize, job: impl Fn(&Local) -> T + Sync) -> Vec<T> {
        let hub = Hub {
            size,
            barrier: Barrier::new(size),
            slots: Mutex::new(vec![Vec::new(); size * size]),
            values: Mutex::new(vec![Vec::new(); size]),
            mail: Mutex::new(HashMap::new()),
            posted: Condvar::new(),
        };
        std::thread::scope(|s| {
            let threads: Vec<_> = (0..size)
                .map(|rank| {
                    let (hub, job) = (&hub, &job);
                    s.spawn(move || job(&Local { rank, hub }))
                })
                .collect();
            threads
                .into_iter()
                .map(|t| t.join().expect("a rank's thread panicked"))
                .collect()
        })
    }
}

impl Ranks for Local<'_> {
    fn rank(&self) -> usize {
        self.rank
    }
    fn size(&self) -> usize {
        self.hub.size
    }
    fn exchange(&self, outgoing: &[Vec<u64>]) -> Vec<u64> {
        let size = self.hub.size;
        {
            let mut slots = self.hub.slots.lock().expect("no rank panics holding it");
            for (to, data) in outgoing.iter().enumerate() {
                slots[self.rank * size + to] = data.clone();
            }
        }
        self.hub.barrier.wait();
        let received = {
            let mut slots = self.hub.slots.lock().expect("no rank panics holding it");
            (0..size)
                .flat_map(|from| std::mem::take(&mut slots[from * size + self.rank]))
                .collect()
        };
        // No rank writes the next exchange's slots before every rank has taken its own.
        self.hub.barrier.wait();
        received
    }
    fn reduce(&self, values: &mut [u64], op: Reduce) {
        self.hub.values.lock().expect("no rank panics holding it")[self.rank] = values.to_vec();
        self.hub.barrier.wait();
        {
            let all = self.hub.values.lock().expect("no rank panics holding it");
            for (i, v) in values.iter_mut().enumerate() {
                let each = all.iter().map(|r| r[i]);
                *v = match op {
                    Reduce::Sum => each.sum(),
                    Reduce::Max => each.max().unwrap_or(0),
                };
            }
        }
        self.hub.barrier.wait();
    }
    fn send(&self, to: usize, bytes: &[u8]) {
        let mut mail = self.hub.mail.lock().expect("no rank panics holding it");
        mail.entry((self.rank, to))
            .or_default()
            .push_back(bytes.to_vec());
        self.hub.posted.notify_all();
    }
    fn receive(&self, from: usize) -> Vec<u8> {
        let mut mail = self.hub.mail.lock().expect("no rank panics holding it");
        loop {
            if let Some(bytes) = mail
                .get_mut(&(from, self.rank))
                .and_then(VecDeque::pop_front)
            {
                return bytes;
            }
            mail = self
                .hub
                .posted
                .wait(mail)
                .expect("no rank panics holding it");
        }
    }
    fn poll(&self, from: usize) -> Option<Vec<u8>> {
        let mut mail = self.hub.mail.lock().expect("no rank panics holding it");
        mail.get_mut(&(from, self.rank))
            .and_then(VecDeque::pop_front)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_ranks_exchange_reduce_and_send() {
        let results = Local::run(3, |ranks| {
            let me = ranks.rank() as u64;
            let outgoing: Vec<Vec<u64>> = (0..3)
                .map(|to| vec![me * 10 + to; to as usize + 1])
                .collect();
            let received = ranks.exchange(&outgoing);
            let mut values = [me + 1, me];
            ranks.reduce(&mut values, Reduce::Sum);
            let mut most = [me * 7];
            ranks.reduce(&mut most, Reduce::Max);
            if ranks.rank() > 0 {
                ranks.send(0, &[ranks.rank() as u8; 3]);
            }
            let mail: Vec<Vec<u8>> = if ranks.rank() == 0 {
                (1..3).map(|from| ranks.receive(from)).collect()
            } else {
                Vec::new()
            };
            (received, values, most, mail)
        });
        assert_eq!(results[1].0, vec![1, 1, 11, 11, 21, 21]);
        assert_eq!(results[2].0, vec![2, 2, 2, 12, 12, 12, 22, 22, 22]);
        assert!(results.iter().all(|r| r.1 == [6, 3] && r.2 == [14]));
        assert_eq!(results[0].3, vec![vec![1; 3], vec![2; 3]]);
    }
}
