//! Warm solvers kept between requests.

use super::*;

/// Warm solvers kept between requests, by game and settings, most recently used first and at
/// most `capacity` of them: the positions of one game asked in turn reuse what the earlier
/// searches learnt.
pub struct Session {
    idle: Mutex<Vec<(String, Box<dyn Agent>)>>,
    capacity: usize,
    seed: AtomicU64,
}

impl Session {
    /// A session keeping at most `capacity` idle solvers; new ones are seeded from `seed` on.
    pub const fn new(capacity: usize, seed: u64) -> Session {
        Session {
            idle: Mutex::new(Vec::new()),
            capacity,
            seed: AtomicU64::new(seed),
        }
    }

    /// `n` solvers of the game with these settings: idle ones first, new ones for the rest.
    /// Where new ones are needed, the oldest idle solvers go first to make room for them.
    pub fn take(
        &self,
        rules: &dyn Game,
        settings: &Settings,
        n: usize,
    ) -> Result<Vec<Box<dyn Agent>>, Error> {
        let name = key(rules);
        let mut taken = Vec::with_capacity(n);
        let dropped = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            let mut i = 0;
            while i < idle.len() && taken.len() < n {
                if idle[i].0 == name && idle[i].1.settings() == settings {
                    taken.push(idle.remove(i).1);
                } else {
                    i += 1;
                }
            }
            let room = self
                .capacity
                .saturating_sub(n - taken.len())
                .min(idle.len());
            idle.split_off(room)
        };
        drop(dropped);
        while taken.len() < n {
            let seed = self.seed.fetch_add(1, Ordering::Relaxed);
            // Warm solvers are reused: each table is touched once now, not in its first searches.
            let mut solver = rules.agent(settings, seed)?;
            solver.ready();
            taken.push(solver);
        }
        Ok(taken)
    }

    /// Keeps solvers of `rules`' game for later calls (the least recently used beyond the
    /// capacity go).
    pub fn give_back(&self, rules: &dyn Game, solvers: Vec<Box<dyn Agent>>) {
        let name = key(rules);
        let dropped = {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            for solver in solvers {
                idle.insert(0, (name.clone(), solver));
            }
            let keep = idle.len().min(self.capacity);
            idle.split_off(keep)
        };
        drop(dropped);
    }

    /// Runs `f` with an agent of the game with these settings, kept warm for later calls.
    pub fn with_agent<R>(
        &self,
        rules: &dyn Game,
        settings: &Settings,
        f: impl FnOnce(&mut dyn Agent) -> R,
    ) -> Result<R, Error> {
        let mut solvers = self.take(rules, settings, 1)?;
        let result = f(solvers[0].as_mut());
        self.give_back(rules, solvers);
        Ok(result)
    }

    /// Drops every idle solver (and its tables).
    pub fn clear(&self) -> usize {
        let idle = std::mem::take(&mut *self.idle.lock().unwrap_or_else(|e| e.into_inner()));
        idle.len()
    }
}

/// What the idle solvers of a game are kept by: the game and its repetition rule.
fn key(rules: &dyn Game) -> String {
    format!("{} {}", rules.name(), rules.repetition().occurrence())
}
