//! inarow: solve, analyse and play k-in-a-row games.
//!
//! Rules live in [`game`] behind one small trait, [`game::Game`]; the algorithms in [`search`]
//! are generic over it and name no game; [`engine`] is the facade the front-ends call.
//!
//! ```
//! use inarow::game::{play_moves, Connect, Standard};
//! use inarow::search::{AlphaBeta, Config};
//!
//! // A position of Pons' public set Test_L3_R1: the side to move loses with the last stone.
//! let start = Connect::<u64, _>::new(Standard);
//! let (pos, _) = play_moves(start, "2252576253462244111563365343671351441").unwrap();
//! let config = Config { tt_mb: 16, ..Config::default() };
//! let mut solver = AlphaBeta::new(&pos, config);
//! assert_eq!(solver.solve(&pos, false), Ok(-1));
//! ```

pub mod engine;
pub mod game;
pub mod search;
