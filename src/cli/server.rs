//! `inarow serve`: starts the web server ([`inarow_server`]), which serves the page and its JSON API.

use super::io::Outcome;
use clap::Args;
use std::net::SocketAddr;

#[derive(Args)]
pub struct ServeArgs {
    /// Where to listen (loopback by default: the page runs searches for anyone who reaches it).
    #[arg(long, default_value = "127.0.0.1:8080")]
    addr: SocketAddr,
    /// Search threads of each search (default: every core; games whose positions repeat use
    /// one).
    #[arg(long, value_name = "N")]
    threads: Option<usize>,
}

pub fn run(args: ServeArgs) -> Result<Outcome, String> {
    let threads = match args.threads {
        Some(n) => super::args::threads(n)?,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    inarow_server::serve(args.addr, threads)?;
    Ok(Outcome::Done)
}
