//! The web page of `inarow serve` and its small JSON API, to play and analyze every game
//! ([`serve`]). Like every front, it reaches the library through [`inarow::session`] and
//! writes the library's wire format ([`inarow::wire`]), which the WebAssembly package writes
//! too, so that the page reads either backend alike.

mod serve;

pub use serve::serve;
