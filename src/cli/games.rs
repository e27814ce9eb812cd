//! `inarow games`: every game spec with how its moves are written (each game's
//! [`inarow::session::Game::describe_moves`]).

use super::io::Outcome;
use clap::Args;
use inarow::session;

#[derive(Args)]
pub struct GamesArgs {}

/// The games, as `--game` names them, with the other sizes each takes.
const GAMES: [(&str, &str); 5] = [
    (
        "connect4",
        "Connect Four 7x6; any size as connect4:WxH, k in a row as connect4:WxH:kK",
    ),
    (
        "popout",
        "PopOut 7x6: Connect Four where a player may pop their own bottom disc; popout:WxH",
    ),
    (
        "cube",
        "Connect Four 3D: four in a row in a 4x4x4 cube, discs falling",
    ),
    (
        "qubic",
        "Qubic: four in a row in a 4x4x4 cube, any empty cell",
    ),
    (
        "pentago",
        "Pentago 6x6: five in a row, each move places a stone and turns a quadrant",
    ),
];

pub fn run(_: GamesArgs) -> Result<Outcome, String> {
    for (name, about) in GAMES {
        let moves = session::game(name)?.describe_moves();
        println!("{name}\n  {about}\n  moves: {moves}");
    }
    println!("\nA move string of '-' or \"\" is the empty board. Example: inarow play --game cube");
    Ok(Outcome::Done)
}
