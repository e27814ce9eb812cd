//! The `inarow` command: a thin front-end over the library.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    match cli::run() {
        Ok(cli::Outcome::Done) => ExitCode::SUCCESS,
        Ok(cli::Outcome::Failed) => ExitCode::from(1),
        Ok(cli::Outcome::Incomplete) => ExitCode::from(3),
        Err(message) => {
            eprintln!("inarow: {message}");
            ExitCode::from(2)
        }
    }
}
