//! `inarow count`: the exact number of legal positions of a game, per number of discs
//! (`discs N positions`), then `total N`. Pentago's are Irving's board counts, by formula
//! (`discs N boards classes8 classes2048`).

use super::io::Outcome;
use clap::Args;
use inarow::engine::count;
use inarow::game::pentago::board_counts;
use inarow::game::{Game, GameSpec};
use inarow::with_game;

#[derive(Args)]
pub struct CountArgs {
    /// Game: connect4[:WxH[:kK]] or popout[:WxH] (boards whose keys fit the memory budget), or
    /// pentago (every board by its number of stones, counted by formula).
    #[arg(long, short, default_value = "connect4:4x4")]
    game: String,
    /// Memory budget in MiB (the set of keys takes 2^key_bits / 8 bytes).
    #[arg(long, default_value_t = 16384)]
    mem_mb: usize,
}

pub fn run(args: CountArgs) -> Result<Outcome, String> {
    let spec: GameSpec = args.game.parse()?;
    if spec == GameSpec::Pentago {
        return count_pentago();
    }
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

/// Pentago's boards by number of stones as Irving counts them (every board with the first
/// player's half rounded up, reached by a game or not), and their classes under the 8 symmetries
/// and under the 2048 maps that also turn quadrants.
fn count_pentago() -> Result<Outcome, String> {
    println!(
        "# pentago: boards by number of stones: all, up to the 8 symmetries, up to the 2048 with quadrant turns"
    );
    let mut total = 0;
    for stones in 0..=36 {
        let [all, sym8, sym2048] = board_counts(stones);
        println!("discs {stones} {all} {sym8} {sym2048}");
        total += all;
    }
    println!("total {total}");
    Ok(Outcome::Done)
}
