//! Search spread over threads, processes and machines: job-level search over a DAG of settled
//! leaves run by threads and ranks ([`workers`]), its journal that a later run resumes from
//! ([`journal`]), and the ranks over MPI (`mpi`, feature `mpi`).

pub mod journal;
#[cfg(feature = "mpi")]
pub mod mpi;
pub mod workers;
