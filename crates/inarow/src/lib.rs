//! inarow: solve, analyze and play k-in-a-row games: Connect Four on any board, PopOut,
//! Connect Four 3D, Qubic and Pentago.
//!
//! The layers import downward only: [`limits`], [`error`] and the memory helpers below everything;
//! the rules in [`game`] behind a few small traits ([`game::Rules`] and its companions), with
//! each game's entry in the catalog ([`game::GameSpec`], [`game::Variant`]); the algorithms in
//! [`search`], generic over the rules and naming no game; the solvers written for one game in
//! [`solvers`]; [`engine`], the facade over them (it asks books, databases and a game's own
//! solver before it searches); [`session`], the one door every front calls, a game read from
//! its spec and an agent of any level on it, whatever the game; `wire` and `draw`, the
//! JSON and the SVG every front writes; and [`certificate`], which checks proofs with nothing
//! but the rules. Errors are [`Error`]s: a kind, and the one-line message the command line
//! prints.
//!
//! # One session, any game: what every front calls
//! ```
//! use inarow::limits::Limits;
//! use inarow::session::{Session, Settings, game};
//!
//! let game = game("connect4:5x4")?; // any spec: "popout", "qubic", ...; "" is 7x6
//! let pos = game.read("33")?; // a move string, or a board
//! let session = Session::new(4, 1); // warm engines kept between calls
//! let settings = Settings::default(); // the best engine, the built-in books
//! let analysis = session.with_agent(game.as_ref(), &settings, |agent| {
//!     agent.analyze(pos.as_ref(), &Limits::default())
//! })??;
//! for m in &analysis.moves {
//!     println!("{} {}", m.mv, m.value); // best first, exact without limits
//! }
//! # Ok::<(), inarow::Error>(())
//! ```
//!
//! # Solve a position
//! ```
//! use inarow::engine::{Engine, Limits, Options};
//! use inarow::game::{play_moves, Connect, Standard};
//!
//! // A position of Pons' public set Test_L3_R1: the side to move loses with the last stone.
//! let start = Connect::<u64, _>::new(Standard);
//! let (pos, _) = play_moves(start, "2252576253462244111563365343671351441").unwrap();
//! let mut engine = Engine::new(&pos, Options::default());
//! assert_eq!(engine.solve(&pos, &Limits::default()).score, Some(-1));
//! ```
//!
//! # Analyze every move, any game by its spec
//! ```
//! use inarow::engine::{Engine, Limits, Options};
//! use inarow::game::{GameSpec, Notation, read_position};
//! use inarow::with_game;
//!
//! let spec: GameSpec = "connect4:5x4".parse()?;
//! with_game!(spec.start(), start => {
//!     let (_, pos, _) = read_position(start, "33")?;
//!     let mut engine = Engine::try_new(&pos, Options::default())?;
//!     // Best first: (move, exact score for the side to move after it, negated).
//!     let values: Vec<_> = engine
//!         .analyze(&pos, &Limits::default())
//!         .iter()
//!         .map(|m| (pos.format_move(m.mv), m.score.expect("no limits: exact")))
//!         .collect();
//!     assert_eq!(values.len(), 5);
//! });
//! # Ok::<(), inarow::Error>(())
//! ```
//!
//! # Play a move, in a game whose positions repeat
//! ```
//! use inarow::engine::Options;
//! use inarow::engine::agent::{Level, TypedAgent};
//! use inarow::game::{GameLine, Notation, PopOut, Standard};
//! use std::time::Duration;
//!
//! // PopOut: the positions passed count for the repetition rule, so a game is a line.
//! let mut game = GameLine::new(PopOut::<u64, _>::new(Standard));
//! for token in ["4", "4", "p4"] {
//!     game.play(game.position().parse_move(token)?);
//! }
//! let mut engine = TypedAgent::new(Level::Best, game.position(), Options::default(), 1)?;
//! let (mv, value) = engine.choose(&game, Duration::from_secs(1)).expect("a move");
//! println!("{} {value}", game.position().format_move(mv));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Errors
//! ```
//! use inarow::Error;
//! use inarow::game::GameSpec;
//!
//! let bad = "connect4:1x1".parse::<GameSpec>().unwrap_err();
//! assert!(matches!(bad, Error::Spec(_)));
//! assert_eq!(
//!     bad.to_string(),
//!     "bad game spec 'connect4:1x1': k = 4 does not fit a 1x1 board: a line of 4 needs a width or a height of at least 4"
//! );
//! ```

#![warn(missing_docs)]

pub mod certificate;
pub mod draw;
pub mod engine;
pub mod error;
pub mod game;
pub mod limits;
pub(crate) mod memory;
pub mod search;
pub mod session;
pub mod solvers;
#[cfg(feature = "wire")]
pub mod wire;

pub use error::Error;
