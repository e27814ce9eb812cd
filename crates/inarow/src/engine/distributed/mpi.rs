//! [`Ranks`] over MPI (cargo feature `mpi`): the processes `mpirun -n P` starts, on one
//! machine or many.

use crate::search::ranks::{Ranks, Reduce};
use mpi::Count;
use mpi::collective::SystemOperation;
use mpi::datatype::{Partition, PartitionMut};
use mpi::environment::Universe;
use mpi::topology::SimpleCommunicator;
use mpi::traits::*;

/// This process's place among the ranks of an MPI job; MPI is finalised when it is dropped.
pub struct Mpi {
    world: SimpleCommunicator,
    _universe: Universe,
}

impl Mpi {
    /// MPI, when an MPI launcher (`mpirun`, `mpiexec`, `srun`) started this process; `None`
    /// otherwise, so that a plain run stays a plain run.
    pub fn init() -> Option<Mpi> {
        let launched = ["OMPI_COMM_WORLD_SIZE", "PMI_SIZE", "PMIX_RANK"]
            .iter()
            .any(|v| std::env::var_os(v).is_some());
        let universe = launched.then(mpi::initialize)??;
        Some(Mpi {
            world: universe.world(),
            _universe: universe,
        })
    }
}

/// Displacements of consecutive blocks of `counts` elements.
fn displacements(counts: &[Count]) -> Vec<Count> {
    counts
        .iter()
        .scan(0, |at, &n| {
            let this = *at;
            *at += n;
            Some(this)
        })
        .collect()
}

/// An element count as MPI takes it.
fn count(n: usize) -> Count {
    Count::try_from(n).expect("a batch's message fits an MPI count")
}

impl Ranks for Mpi {
    fn rank(&self) -> usize {
        self.world.rank() as usize
    }

    fn size(&self) -> usize {
        self.world.size() as usize
    }

    fn exchange(&self, outgoing: &[Vec<u64>]) -> Vec<u64> {
        let send_counts: Vec<Count> = outgoing.iter().map(|v| count(v.len())).collect();
        let mut receive_counts = vec![0 as Count; outgoing.len()];
        self.world
            .all_to_all_into(&send_counts[..], &mut receive_counts[..]);
        let send: Vec<u64> = outgoing.concat();
        let total: usize = receive_counts.iter().map(|&n| n as usize).sum();
        let mut received = vec![0u64; total];
        let send_displs = displacements(&send_counts);
        let receive_displs = displacements(&receive_counts);
        self.world.all_to_all_varcount_into(
            &Partition::new(&send[..], send_counts, &send_displs[..]),
            &mut PartitionMut::new(&mut received[..], receive_counts, &receive_displs[..]),
        );
        received
    }

    fn reduce(&self, values: &mut [u64], op: Reduce) {
        let mut result = vec![0u64; values.len()];
        let op = match op {
            Reduce::Sum => SystemOperation::sum(),
            Reduce::Max => SystemOperation::max(),
        };
        self.world.all_reduce_into(&values[..], &mut result[..], op);
        values.copy_from_slice(&result);
    }

    fn send(&self, to: usize, bytes: &[u8]) {
        self.world.process_at_rank(to as i32).send(bytes);
    }

    fn receive(&self, from: usize) -> Vec<u8> {
        self.world
            .process_at_rank(from as i32)
            .receive_vec::<u8>()
            .0
    }

    fn poll(&self, from: usize) -> Option<Vec<u8>> {
        let process = self.world.process_at_rank(from as i32);
        process.immediate_probe()?;
        Some(process.receive_vec::<u8>().0)
    }
}
