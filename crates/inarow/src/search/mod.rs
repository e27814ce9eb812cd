//! Game-independent search algorithms, generic over the traits of [`game`](crate::game); no
//! search names a game.
//!
//! - [`alphabeta`]: the exact solver of bounded games;
//! - [`winner`]: "does this player win?" for games whose positions repeat, with handicaps;
//! - [`pn`]: the proof-number family (PNS, PN², df-pn) and certificate extraction;
//! - [`heuristic`]: iterative-deepening alpha-beta over a game's evaluation, for play;
//!   [`mcts`]: MCTS-Solver, Monte-Carlo tree search that proves values as it goes;
//! - [`minimax`]: the exhaustive reference; [`census`]: exact position counts; [`retro`]:
//!   retrograde analysis;
//! - [`score`], [`tt`]: what they share (with the limits of [`crate::limits`]).

pub mod alphabeta;
pub mod census;
pub mod cover;
pub mod heuristic;
pub mod jobs;
pub mod mcts;
pub mod minimax;
pub mod pn;
pub mod ranks;
pub mod retro;
pub mod rng;
pub mod score;
pub mod threats;
pub mod tt;
pub mod winner;

pub use crate::limits::{Cancel, Limits, Stop};
pub use alphabeta::{AlphaBeta, Config, Driver};
pub use tt::{Bound, Scheme, Table};
