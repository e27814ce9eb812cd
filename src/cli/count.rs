//! `inarow count`: the exact number of legal positions of a game, per number of discs
//! (`discs N positions`), then `total N`.

use super::Outcome;
use clap::Args;
use inarow::engine::count;
use inarow::game::{Game, GameSpec};
use inarow::with_game;

#[derive(Args)]
pub struct CountArgs {
    /// Game: connect4[:WxH[:kK]] or popout[:WxH] (boards whose keys fit the memory budget).
    #[arg(long, short, default_value = "connect4:4x4")]
    game: String,
    /// Memory budget in MiB (the set of keys takes 2^key_bits / 8 bytes).
    #[arg(long, default_value_t = 16384)]
    mem_mb: usize,
}

pub fn run(args: CountArgs) -> Result<Outcome, String> {
    let spec: GameSpec = args.game.parse()?;
    let bytes = args
        .mem_mb
        .checked_mul(1 << 20)
        .ok_or_else(|| format!("--mem-mb {} is too large", args.mem_mb))?;
    with_game!(spec.start(), start => {
        let bar = indicatif::ProgressBar::new_spinner();
        let census = count(start, bytes, |n| bar.set_message(format!("{n} positions")));
        bar.finish_and_clear();
        let census = census?;
        println!("# {}: legal positions by number of discs", start.name());
        for (discs, n) in census.by_discs.iter().enumerate() {
            println!("discs {discs} {n}");
        }
        println!("total {}", census.total);
        Ok(Outcome::Done)
    })
}
