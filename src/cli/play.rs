//! `inarow play`: a game in the terminal against the solver (either side) or between two humans.

use super::{GameArg, KnowledgeArgs, Outcome, RuleArgs, seconds};
use clap::{Args, ValueEnum};
use inarow::engine::heuristic::{self, Value};
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
    /// Seconds the engine may think per move. In a game with an evaluation (Pentago) the exact
    /// solver gets half and, if it cannot finish, the heuristic search the other half; in
    /// others the exact solver gets all, then the engine falls back to its move ordering.
    #[arg(long, default_value_t = 10.0)]
    think: f64,
}

pub fn run(args: PlayArgs) -> Result<Outcome, String> {
    let think = seconds("--think", Some(args.think))?;
    let repetition = args.rules.repetition;
    with_game!(args.game.start()?, start => {
        let share = if start.evaluate().is_some() { think.map(|t| t / 2) } else { think };
        let limits = Limits { time: share, nodes: None };
        let options = Options { limits, repetition, ..Options::default() };
        let engine = args.knowledge.engine(&start, options)?;
        play(start, engine, args.human, repetition as usize, limits)
    })
}

/// `repetition`: the occurrence of a position that draws, in games that repeat; `heuristic`:
/// the limits of the heuristic search where the exact one does not finish.
fn play<G: Tactics + Notation>(
    start: G,
    mut engine: Engine<G>,
    humans: Humans,
    repetition: usize,
    heuristic: Limits,
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
            let mv = engine_move(&mut engine, &pos, heuristic);
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
            "hint" | "h" | "?" => hint(&mut engine, &pos, heuristic),
            token => match pos.parse_move(token) {
                Ok(mv) => history.push(pos.play(mv)),
                Err(e) => println!("{e}"),
            },
        }
    }
}

/// The table of the heuristic search.
const HEURISTIC_TABLE_BYTES: usize = 64 << 20;

/// Every move's value: exact where the solver finishes; otherwise, in a game with an
/// evaluation, the heuristic search's (marked `~` unless exact).
fn hint<G: Tactics + Notation>(engine: &mut Engine<G>, pos: &G, limits: Limits) {
    let exact = engine.analyze(pos);
    if exact.iter().all(|s| s.score.is_none())
        && pos.evaluate().is_some()
        && let Some(choice) = heuristic::search(pos, limits, None, HEURISTIC_TABLE_BYTES, true)
    {
        println!("  (heuristic search, {} plies)", choice.depth);
        for (mv, value) in choice.moves {
            let shown = match value {
                Value::Exact(v) => v.to_string(),
                Value::Heuristic(v) => format!("~{v}"),
            };
            println!("  {} {shown}", pos.format_move(mv));
        }
        return;
    }
    for s in exact {
        let score = s.score.map_or("?".to_string(), |v| v.to_string());
        println!("  {} {score}", pos.format_move(s.mv));
    }
}

/// The engine's choice: a best move by exact analysis; when the time runs out, the heuristic
/// search's best in a game with an evaluation, else the first move of its ordering that does
/// not lose at once.
fn engine_move<G: Tactics>(engine: &mut Engine<G>, pos: &G, heuristic: Limits) -> G::Move {
    let report = engine.solve_detailed(pos);
    if let Some(&mv) = report.best_moves.first() {
        return mv;
    }
    if pos.evaluate().is_some()
        && let Some(choice) = heuristic::search(pos, heuristic, None, HEURISTIC_TABLE_BYTES, false)
    {
        return choice.best;
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
