//! `inarow play`: a game in the terminal against the solver (either side) or between two humans.

use super::args::{GameArg, KnowledgeArgs, RuleArgs, seconds};
use super::io::{Outcome, with_progress};
use clap::{Args, ValueEnum};
use inarow::engine::play::{Agent, Level};
use inarow::engine::{Limits, Options};
use inarow::game::{GameLine, Notation, Repetition, Status, Tactics};
use inarow::with_game;
use std::io::{BufRead, Write};
use std::time::Duration;

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
    /// The engine: random, depthN (N plies of alpha-beta over the evaluation), mcts
    /// (MCTS-Solver), alphabeta (iterative deepening over the evaluation) or best (the exact
    /// solver, with any book or database, then alphabeta for the rest of the time).
    #[arg(long, default_value = "best")]
    engine: Level,
    /// Seconds the engine may think per move.
    #[arg(long, allow_negative_numbers = true, default_value_t = 10.0)]
    think: f64,
    /// The seed of the engine's random choices.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run(args: PlayArgs) -> Result<Outcome, String> {
    let think = seconds("--think", Some(args.think))?.expect("given");
    let repetition = args.rules.repetition;
    with_game!(args.game.start()?, start => {
        let options = Options { repetition, ..Options::default() };
        // `hint` asks the strongest engine, whatever the opponent's level.
        let advisor = Agent::with_engine(
            args.knowledge.engine(&start, options.clone(), true)?,
            &options,
            args.seed,
        )?;
        let (player, advisor) = match args.engine {
            Level::Best => (advisor, None),
            level => (Agent::new(level, &start, options, args.seed)?, Some(advisor)),
        };
        let rule = Repetition::new(repetition)?;
        play(start, player, advisor, args.human, rule, think)
    })
}

/// The most moves `hint` lists (the best ones).
const HINTS_SHOWN: usize = 10;

/// A side as the web page names it, with the mark the terminal draws.
fn colour(first: bool) -> &'static str {
    if first { "Red (X)" } else { "Yellow (O)" }
}

impl Humans {
    /// Who plays which colour, for the banner.
    fn sides(self) -> &'static str {
        match self {
            Humans::First => "You are Red (X) and move first; the engine is Yellow (O).",
            Humans::Second => "The engine is Red (X) and moves first; you are Yellow (O).",
            Humans::Both => "Two players: Red (X) moves first, Yellow (O) second.",
            Humans::None => "The engine plays both sides: Red (X) first, Yellow (O) second.",
        }
    }
}

/// `repetition`: the rule that draws a repeated position, in games that repeat.
/// `advisor`: the engine that answers `hint`, if not `engine` itself.
fn play<G: Tactics + Notation>(
    start: G,
    mut engine: Agent<G>,
    mut advisor: Option<Agent<G>>,
    humans: Humans,
    repetition: Repetition,
    think: Duration,
) -> Result<Outcome, String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    let mut game = GameLine::new(start);
    println!(
        "{}: moves are {}.\n{}\nCommands: 'hint' values every move; 'undo'; 'quit'.",
        start.name(),
        start.describe_moves(),
        humans.sides()
    );
    loop {
        let pos = *game.position();
        println!("\n{}", pos.render());
        if pos.status() == Status::Ongoing && game.status(repetition) == Status::Draw {
            println!("Draw by repetition.");
            return Ok(Outcome::Done);
        }
        match pos.status() {
            Status::Win(p) => {
                println!("{} wins.", colour(p == inarow::game::Player::First));
                return Ok(Outcome::Done);
            }
            Status::Draw => {
                println!("Draw.");
                return Ok(Outcome::Done);
            }
            Status::Ongoing => {}
        }
        let first_to_move = pos.ply().is_multiple_of(2);
        let human_turn = match humans {
            Humans::First => first_to_move,
            Humans::Second => !first_to_move,
            Humans::Both => true,
            Humans::None => false,
        };
        if !human_turn {
            let (mv, _) = with_progress("engine thinking", || engine.choose(&game, think))
                .expect("an open position has a move");
            println!("engine plays {}", pos.format_move(mv));
            game.play(mv);
            continue;
        }
        print!("{} to move> ", colour(first_to_move));
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
                let undone = (0..back).filter(|_| game.undo().is_some()).count();
                if undone < back {
                    println!("Nothing to undo: no move of yours has been played yet.");
                }
            }
            "hint" | "h" | "?" => {
                let adviser = advisor.as_mut().unwrap_or(&mut engine);
                let analysis = with_progress("valuing every move", || {
                    adviser.analyse(&game, &Limits::within(think))
                });
                println!("  ({})", analysis.source);
                let count = analysis.moves.len();
                // The best few: a long list (Pentago's first moves) scrolls off the screen.
                let shown = if count > HINTS_SHOWN + 2 {
                    HINTS_SHOWN
                } else {
                    count
                };
                for (mv, value) in &analysis.moves[..shown] {
                    println!("  {} {value}", pos.format_move(*mv));
                }
                if shown < count {
                    println!("  ... and {} more moves, none better", count - shown);
                }
                // Two short lines: a terminal of 80 columns shows them whole.
                let scale = if adviser.is_weak() {
                    "1 wins, 0 draws, -1 loses"
                } else {
                    "> 0 wins, the larger the sooner; 0 draws; < 0 loses"
                };
                println!("  (values for {}: {scale};", colour(first_to_move));
                println!("   ~N is an estimate)");
            }
            token => match pos.parse_move(token) {
                Ok(mv) => game.play(mv),
                Err(e) => println!("{e}"),
            },
        }
    }
}
