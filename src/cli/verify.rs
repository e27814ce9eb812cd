//! `inarow verify FILE`: checks proof certificates with nothing but the game rules. A file may
//! hold several certificates (a draw has two: each side's strategy for not losing); each names
//! its game in its header.

use super::io::Outcome;
use clap::Args;
use inarow::session::{self, CERTIFICATE_MAGIC as MAGIC};

#[derive(Args)]
pub struct VerifyArgs {
    /// A certificate file (`inarow-proof` format, versions 1 to 4).
    file: String,
}

pub fn run(args: VerifyArgs) -> Result<Outcome, String> {
    let text = std::fs::read_to_string(&args.file)
        .map_err(|e| format!("cannot read '{}': {e}", args.file))?;
    let sections = split_certificates(&text);
    if sections.is_empty() {
        return Err(format!(
            "{}: no '{MAGIC}' certificate in the file",
            args.file
        ));
    }
    let mut outcome = Outcome::Done;
    for section in sections {
        let game = section
            .lines()
            .find_map(|l| l.trim().strip_prefix("game "))
            .map(str::trim)
            .filter(|g| !g.is_empty())
            .ok_or_else(|| format!("{}: a certificate has no 'game' line", args.file))?;
        let result = session::tools(session::game(game)?.as_ref())?.verify_certificate(section);
        match result {
            Ok(summary) => println!("{summary}"),
            Err(e) => {
                println!("rejected: {e}");
                outcome = Outcome::Failed;
            }
        }
    }
    Ok(outcome)
}

/// The certificates of a file: each starts at a line beginning with the magic word.
fn split_certificates(text: &str) -> Vec<&str> {
    let mut starts: Vec<usize> = Vec::new();
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        if line.trim_start().starts_with(MAGIC) {
            starts.push(offset);
        }
        offset += line.len();
    }
    starts
        .iter()
        .enumerate()
        .map(|(i, &s)| &text[s..starts.get(i + 1).copied().unwrap_or(text.len())])
        .collect()
}
