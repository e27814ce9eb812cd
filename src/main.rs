//! The `inarow` command: a thin front-end over the library.

mod cli;

use std::process::ExitCode;

fn main() -> ExitCode {
    end_quietly_when_output_fails();
    match cli::run() {
        Ok(outcome) => ExitCode::from(outcome.code()),
        Err(message) => {
            eprintln!("inarow: {}", inarow::game::one_line(&message));
            ExitCode::from(cli::io::FATAL)
        }
    }
}

/// `println!` panics when standard output fails: a pipe closed by its reader (`| head`), a full
/// disk. That is the end of the command, not a bug: a closed pipe ends it silently, anything
/// else with one line; the exit code is 2 either way.
fn end_quietly_when_output_fails() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let payload = info.payload();
        let message = payload
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| payload.downcast_ref::<&str>().copied())
            .unwrap_or("");
        if let Some(why) = message.strip_prefix("failed printing to stdout: ") {
            if !why.starts_with("Broken pipe") {
                eprintln!("inarow: cannot write to standard output: {why}");
            }
            std::process::exit(2);
        }
        default(info);
    }));
}
