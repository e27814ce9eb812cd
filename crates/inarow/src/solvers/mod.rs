//! Exact solvers written for one game, where they beat the generic searches: Pentago's midgame
//! solver ([`pentago`]). They work on the game's own layout, so they live neither in the rules
//! (which import no solver) nor in [`search`](crate::search) (which names no game); the engine
//! asks them through its oracles, under its limits, before it searches.

pub mod pentago;
