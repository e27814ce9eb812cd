//! inarow: solve, analyse and play k-in-a-row games.
//!
//! Rules live in [`game`] behind a few small traits ([`game::Game`] and its companions); the
//! algorithms in [`search`] are generic over them and name no game; [`engine`] is the facade
//! the front-ends call; [`certificate`] checks proofs with nothing but the rules.
//!
//! ```
//! use inarow::engine::{Engine, Options};
//! use inarow::game::{play_moves, Connect, Standard};
//!
//! // A position of Pons' public set Test_L3_R1: the side to move loses with the last stone.
//! let start = Connect::<u64, _>::new(Standard);
//! let (pos, _) = play_moves(start, "2252576253462244111563365343671351441").unwrap();
//! let mut engine = Engine::new(&pos, Options::default());
//! assert_eq!(engine.solve(&pos).score, Some(-1));
//! ```

pub mod certificate;
pub mod engine;
pub mod error;
pub mod game;
pub mod limits;
pub(crate) mod memory;
pub mod search;
pub mod solvers;

pub use error::Error;
