//! `inarow draw`: a position as an SVG picture on standard output, for sharing: the page's
//! board, drawn by the library ([`inarow::draw`]), with every legal move's value on it where
//! `--values` asks (the analysis `inarow analyze` gives, through the session).

use super::args::{GameArg, LimitArgs};
use super::io::{Outcome, show_moves, with_progress_noting};
use clap::Args;
use inarow::draw;
use inarow::session::{self, Session, Settings};
use std::io::Write;

#[derive(Args)]
pub struct DrawArgs {
    #[command(flatten)]
    game: GameArg,
    /// Each legal move's value on the board, as `inarow analyze` gives it (exact without
    /// --time or --nodes; estimates, marked ~, where a limit stops the search).
    #[arg(long)]
    values: bool,
    #[command(flatten)]
    limits: LimitArgs,
    /// The position's move string, or a board as `inarow solve` reads it (default: the empty
    /// board).
    #[arg(default_value = "")]
    moves: String,
}

pub fn run(args: DrawArgs) -> Result<Outcome, String> {
    let limits = args.limits.limits()?;
    let rules = session::game(&args.game.game)?;
    let pos = rules.read(args.moves.trim().trim_start_matches('-'))?;
    let mut outcome = Outcome::Done;
    let values: Vec<draw::DrawnValue> = if args.values && pos.over().is_none() {
        let session = Session::new(1, 1);
        let label = format!("analyzing {}", show_moves(&args.moves));
        let analysis = with_progress_noting(&label, None, None, || {
            session.with_agent(rules.as_ref(), &Settings::default(), |agent| {
                agent.analyze_values(pos.as_ref(), &limits)
            })
        })??;
        if analysis.moves.iter().any(|m| !m.exact()) {
            eprintln!("inarow: a limit stopped the exact analysis; values marked ~ are estimates");
            outcome = Outcome::Incomplete;
        }
        analysis.moves.iter().map(draw::DrawnValue::from).collect()
    } else {
        Vec::new()
    };
    let picture = draw::position(rules.as_ref(), pos.as_ref(), &values)?;
    std::io::stdout()
        .write_all(picture.as_bytes())
        .map_err(|e| format!("cannot write the picture: {e}"))?;
    Ok(outcome)
}
