//! inarow: solve, analyse and play k-in-a-row games.
//!
//! Rules live in [`game`] behind one small trait, [`game::Game`]; the algorithms in [`search`]
//! are generic over it and name no game; [`engine`] is the facade the front-ends call.
//!
//! ```
//! use inarow::game::{play_moves, Connect, Standard};
//! use inarow::search::{AlphaBeta, Config};
//!
//! let start = Connect::<u64, _>::new(Standard);
//! let (pos, _) = play_moves(start, "4453").unwrap();
//! let config = Config { tt_mb: 16, ..Config::default() };
//! let mut solver = AlphaBeta::new(&pos, config);
//! let score = solver.solve(&pos, false).unwrap();
//! assert!((-21..=21).contains(&score));
//! ```

pub mod engine;
pub mod game;
pub mod search;
