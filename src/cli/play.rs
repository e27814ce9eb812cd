//! `inarow play`: a game in the terminal against the solver (either side) or between two humans,
//! on the library's session ([`inarow::session`]): positions as the session reads and plays
//! them, the engine's moves and hints as its solvers answer.

use super::args::{GameArg, KnowledgeArgs, RuleArgs, seconds};
use super::io::{Outcome, with_progress};
use clap::{Args, ValueEnum};
use inarow::Error;
use inarow::game::{Player, Repetition, Status};
use inarow::limits::Limits;
use inarow::session::{self, Agent, Game, Line, Settings};
use inarow::session::{Level, Valuation};
use std::io::{BufRead, Write};
use std::sync::Arc;
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
    let repetition = Repetition::new(args.rules.repetition)?;
    let rules = session::game_under(&args.game.game, repetition)?;
    // `hint` asks the strongest engine, whatever the opponent's level.
    let mut best = Settings::default();
    args.knowledge.apply(&mut best, rules.as_ref(), true)?;
    let mut advisor = rules.agent(&best, args.seed)?;
    // Both answer every move of the game: their tables are touched once, now.
    advisor.ready();
    let (engine, advisor) = match args.engine {
        Level::Best => (advisor, None),
        level => {
            let settings = Settings {
                level,
                ..Settings::default()
            };
            let mut engine = rules.agent(&settings, args.seed)?;
            engine.ready();
            (engine, Some(advisor))
        }
    };
    play(rules.as_ref(), engine, advisor, args.human, think)
}

/// The most moves `hint` lists (the best ones).
const HINTS_SHOWN: usize = 10;

/// The widest line of `hint`'s legend, its indent included.
const LEGEND_WIDTH: usize = 78;

/// `text` in lines of at most `width` columns after an indent of three (words kept whole).
fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines = vec![String::new()];
    for word in text.split_whitespace() {
        let line = lines.last_mut().expect("one line");
        if !line.is_empty() && 3 + line.len() + 1 + word.len() > width {
            lines.push(word.to_string());
        } else {
            if !line.is_empty() {
                line.push(' ');
            }
            line.push_str(word);
        }
    }
    lines
}

/// A side as the web page names it, with the mark the terminal draws.
fn colour(side: Player) -> &'static str {
    match side {
        Player::First => "Red (X)",
        Player::Second => "Yellow (O)",
    }
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

    /// Whether the human moves when `side` is to move.
    fn moves(self, side: Player) -> bool {
        match self {
            Humans::First => side == Player::First,
            Humans::Second => side == Player::Second,
            Humans::Both => true,
            Humans::None => false,
        }
    }
}

/// What the engine's move is worth, as `play` says it after the move: proven outcomes in
/// words, estimates marked as such, nothing where the engine has no value (a random move).
fn worth(value: &Valuation) -> String {
    match value.outcome() {
        Some(outcome) => format!(" (a proven {outcome})"),
        None if *value == Valuation::Unknown => String::new(),
        None => format!(" (estimate {value})"),
    }
}

/// `advisor`: the engine that answers `hint`, if not `engine` itself.
fn play(
    rules: &dyn Game,
    mut engine: Box<dyn Agent>,
    mut advisor: Option<Box<dyn Agent>>,
    humans: Humans,
    think: Duration,
) -> Result<Outcome, String> {
    let stdin = std::io::stdin();
    let mut input = stdin.lock().lines();
    // The positions of the game so far, the current one last: `undo` goes back along them.
    let mut game: Vec<Arc<dyn Line>> = vec![rules.read("")?];
    println!(
        "{}: moves are {}.\n{}\nCommands: 'hint' values every move; 'undo'; 'quit'.",
        rules.name(),
        rules.describe_moves(),
        humans.sides()
    );
    loop {
        let pos = game.last().expect("the start").clone();
        println!("\n{}", pos.render());
        match pos.status() {
            Status::Win(side) => {
                println!("{} wins.", colour(side));
                return Ok(Outcome::Done);
            }
            // The board goes on; the line repeated a position.
            Status::Draw if pos.view().status == Status::Ongoing => {
                println!("Draw by repetition.");
                return Ok(Outcome::Done);
            }
            Status::Draw => {
                println!("Draw.");
                return Ok(Outcome::Done);
            }
            Status::Ongoing => {}
        }
        let side = pos.to_move();
        if !humans.moves(side) {
            let reply = with_progress("engine thinking", || {
                engine.best_move(pos.as_ref(), &Limits::within(think))
            })?;
            println!("engine plays {}{}", reply.mv, worth(&reply.value));
            game.push(pos.play(&reply.mv)?);
            continue;
        }
        print!("{} to move> ", colour(side));
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
                let kept = game.len().saturating_sub(back).max(1);
                if game.len() - kept < back {
                    println!("Nothing to undo: no move of yours has been played yet.");
                }
                game.truncate(kept);
            }
            "hint" | "h" | "?" => {
                let adviser = advisor.as_mut().unwrap_or(&mut engine);
                let analysis = with_progress("valuing every move", || {
                    adviser.analyze(pos.as_ref(), &Limits::within(think))
                })?;
                println!("  ({})", analysis.source);
                let count = analysis.moves.len();
                // The best few: a long list (Pentago's first moves) scrolls off the screen.
                let shown = if count > HINTS_SHOWN + 2 {
                    HINTS_SHOWN
                } else {
                    count
                };
                for m in &analysis.moves[..shown] {
                    println!("  {} {}", m.mv, m.value);
                }
                if shown < count {
                    println!("  ... and {} more moves, none better", count - shown);
                }
                // The legend of the values as they are written, in lines a terminal of 80
                // columns shows whole.
                let legend = format!("(values for {}: {})", colour(side), analysis.legend());
                for (i, line) in wrap(&legend, LEGEND_WIDTH).iter().enumerate() {
                    println!("{}{line}", if i == 0 { "  " } else { "   " });
                }
            }
            token => match pos.play(token) {
                Ok(next) => game.push(next),
                // The reason alone: the move string is the game so far.
                Err(Error::Move(e)) => println!("{}", e.reason),
                Err(e) => println!("{e}"),
            },
        }
    }
}
