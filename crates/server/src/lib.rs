//! The web page of `inarow serve` and its small JSON API, to play and analyse every game
//! ([`serve`]), and the JSON of positions and analyses ([`json`]), which the WebAssembly
//! package writes too, so that the page reads either backend alike. Like every front, it
//! reaches the library through [`inarow::session`].

pub mod json;
#[cfg(feature = "serve")]
mod serve;

#[cfg(feature = "serve")]
pub use serve::serve;
