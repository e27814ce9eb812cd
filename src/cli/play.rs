//! `inarow play`: a game in the terminal against the solver (either side) or between two humans.

use super::{GameArg, KnowledgeArgs, Outcome, RuleArgs, seconds};
use clap::{Args, ValueEnum};
use inarow::engine::{Engine, Limits, Options};
use inarow::game::{Kind, MoveList, Notation, Status, Tactics};
use inarow::with_game;
use std::io::{BufRead, Write};

#[derive(Copy, Clone, Debug, PartialEq, Eq, ValueEnum)]
enum Humans {
    /// The human moves first, the engine second.
    First,
    /// The engine moves first.
    Second,
    /// Two humans; the engine only answers `hint`.
    Both,
    /// The engine plays itself.
    None,
}

#[derive(Args)]
pub struct PlayArgs {
    #[command(flatten)]
    game: GameArg,
    #[command(flatten)]
    knowledge: KnowledgeArgs,
    #[command(flatten)]
    rules: RuleArgs,
    /// Who is human.
    #[arg(long, value_enum, default_value = "first")]
    human: Humans,
    /// Seconds the engine may think per move before it falls back to its move ordering.
    #[arg(long, default_value_t = 10.0)]
    think: f64,
}

pub fn run(args: PlayArgs) -> Result<Outcome, String> {
    let options = Options {
        limits: Limits {
            time: seconds("--think", Some(args.think))?,
            nodes: None,
        },
        repetition: args.rules.repetition,
        ..Options::default()
    };
    let repetition = options.repetition as usize;
    with_game!(args.game.start()?, start => {
        let engine = args.knowledge.engine(&start, options)?;
        play(start, engine, args.human, repetition)
    })
}

/// `repetition`: the occurrence of a position that draws, in games that repeat.
fn play<G: Tactics + Notation>(
    start: G,
    mut engine: Engine<G>,
    humans: Humans,
    repetition: usize,
) -> Result<Outcome, String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut history = vec![start];
    println!("Moves: a column number; 'hint' scores every move; 'undo'; 'quit'.");
    loop {
        let pos = *history.last().expect("history starts with the empty board");
        println!("\n{}", pos.render());
        match pos.status() {
            Status::Win(p) => {
                println!("{p:?} player wins.");
                return Ok(Outcome::Done);
            }
            Status::Draw => {
                println!("Draw.");
                return Ok(Outcome::Done);
            }
            Status::Ongoing => {}
        }
        if G::Kind::REPEATS {
            let earlier: Vec<u128> = history[..history.len() - 1]
                .iter()
                .map(|p| p.key())
                .collect();
            if earlier.iter().filter(|&&k| k == pos.key()).count() + 1 >= repetition {
                println!("Draw by repetition.");
                return Ok(Outcome::Done);
            }
            engine.set_history(earlier);
        }
        let first_to_move = pos.ply() % 2 == 0;
        let human_turn = match humans {
            Humans::First => first_to_move,
            Humans::Second => !first_to_move,
            Humans::Both => true,
            Humans::None => false,
        };
        if !human_turn {
            let mv = engine_move(&mut engine, &pos);
            println!("engine plays {}", pos.format_move(mv));
            history.push(pos.play(mv));
            continue;
        }
        print!("{:?} to move> ", pos.side_to_move());
        std::io::stdout().flush().ok();
        let Some(line) = input.next() else {
            return Ok(Outcome::Done);
        };
        let line = line.map_err(|e| format!("cannot read standard input: {e}"))?;
        match line.trim() {
            "quit" | "q" => return Ok(Outcome::Done),
            "undo" | "u" => {
                // Take back to the human's previous turn.
                let back = if humans == Humans::Both { 1 } else { 2 };
                for _ in 0..back {
                    if history.len() > 1 {
                        history.pop();
                    }
                }
            }
            "hint" | "h" | "?" => {
                for s in engine.analyze(&pos) {
                    let score = s.score.map_or("?".to_string(), |v| v.to_string());
                    println!("  {} {score}", pos.format_move(s.mv));
                }
            }
            token => match pos.parse_move(token) {
                Ok(mv) => history.push(pos.play(mv)),
                Err(e) => println!("{e}"),
            },
        }
    }
}

/// The engine's choice: a best move by exact analysis, or, when the time runs out, the first
/// move of its ordering that does not lose at once.
fn engine_move<G: Tactics>(engine: &mut Engine<G>, pos: &G) -> G::Move {
    let report = engine.solve_detailed(pos);
    if let Some(&mv) = report.best_moves.first() {
        return mv;
    }
    if !pos.has_winning_move() {
        let mut safe = MoveList::new();
        pos.safe_moves(&mut safe);
        if let Some(best) = safe.iter().max_by_key(|m| m.rank) {
            return best.mv;
        }
    }
    let mut moves = MoveList::new();
    pos.legal_moves(&mut moves);
    // An immediate win is found by the solver at once; otherwise every move loses.
    moves[0]
}
