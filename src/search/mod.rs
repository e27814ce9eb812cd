//! Game-independent search algorithms, generic over [`Game`](crate::game::Game).

pub mod alphabeta;
pub mod census;
pub mod dfpn;
mod memory;
pub mod minimax;
pub mod pn;
pub mod pns;
pub mod proof;
pub mod retro;
pub mod score;
pub mod tt;
pub mod winner;

pub use alphabeta::{AlphaBeta, Config, Driver, Stopped};
pub use tt::{Bound, Scheme, Table};
