//! `inarow count`: the exact number of legal positions of a game, per number of discs
//! (`discs N positions`), then `total N`. A game whose positions are counted by formula
//! ([`inarow::session::Tools::count_by_formula`]: Pentago's, Irving's board counts) prints its columns
//! instead (`discs N boards classes8 classes2048`).

use super::io::{Outcome, on_stderr};
use clap::Args;
use inarow::session::{self, CountByFormula};

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
    let rules = session::game(&args.game)?;
    let tools = session::tools(rules.as_ref())?;
    if let Some(formula) = tools.count_by_formula() {
        return print_formula(&rules.name(), &formula);
    }
    let bytes = args
        .mem_mb
        .checked_mul(1 << 20)
        .ok_or_else(|| format!("--mem-mb {} is too large", args.mem_mb))?;
    let bar = on_stderr(indicatif::ProgressBar::new_spinner());
    let census = tools.count(bytes, &mut |n| bar.set_message(format!("{n} positions")));
    bar.finish_and_clear();
    let census = census?;
    println!("# {}: legal positions by number of discs", rules.name());
    for (discs, n) in census.by_discs.iter().enumerate() {
        println!("discs {discs} {n}");
    }
    println!("total {}", census.total);
    Ok(Outcome::Done)
}

fn print_formula(game: &str, formula: &CountByFormula) -> Result<Outcome, String> {
    println!("# {game}: {}", formula.columns);
    let mut total = 0;
    for (stones, row) in formula.rows.iter().enumerate() {
        total += row.first().copied().unwrap_or_default();
        let row: Vec<String> = row.iter().map(u128::to_string).collect();
        println!("discs {stones} {}", row.join(" "));
    }
    println!("total {total}");
    Ok(Outcome::Done)
}
