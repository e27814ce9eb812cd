//! Integration tests of the `inarow` library and command line, one module per area.

#[macro_use]
mod common;
/// The benchmarks' positions and their published values, as the command line holds them.
#[allow(dead_code)]
#[path = "../../src/cli/bench/tables.rs"]
mod bench_tables;
mod cube;
mod faults;
mod jobs;

mod agreement;
mod book;
mod census;
mod checkpoint;
mod cli;
mod cli_fuzz;
mod draw;
mod layout;
mod pentago;
mod popout_rules;
mod popout_solve;
mod proof_numbers;
mod public_sets;
mod readme;
mod report;
mod retro;
mod rules;
mod serve;
mod signature;
mod sizes;
mod strategy;
mod table_pages;
mod twist;
mod victor;
