//! `inarow serve`: starts the web server ([`crate::web`]), which serves the page and its JSON API.

use super::io::Outcome;
use clap::Args;
use std::net::SocketAddr;

#[derive(Args)]
pub struct ServeArgs {
    /// Where to listen (loopback by default: the page runs searches for anyone who reaches it).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
}

pub fn run(args: ServeArgs) -> Result<Outcome, String> {
    crate::web::serve(args.addr)?;
    Ok(Outcome::Done)
}
