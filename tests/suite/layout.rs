//! The layers keep their doors: the certificate verifier knows nothing but the rules, the
//! front-ends (the command line, the web server) reach the library only through the engine and
//! the game, and no search names a game. Checked on the sources, so that a new import cannot
//! slip past.

use std::path::{Path, PathBuf};

fn sources(dir: &str) -> Vec<(PathBuf, String)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut out = Vec::new();
    let mut stack = vec![root];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).unwrap();
                out.push((path, text));
            }
        }
    }
    assert!(!out.is_empty(), "no sources under {dir}");
    out
}

/// The paths a source names (its `use` lines and its inline `crate::` / `inarow::` paths), with
/// comments left out.
fn code(text: &str) -> String {
    text.lines()
        .map(|l| l.split("//").next().unwrap_or(""))
        .collect::<Vec<_>>()
        .join("\n")
}

#[test]
fn the_verifier_imports_nothing_from_the_searches() {
    for (path, text) in sources("src/certificate") {
        let code = code(&text);
        for banned in [
            "crate::search",
            "crate::engine",
            "super::super",
            "inarow::search",
        ] {
            assert!(
                !code.contains(banned),
                "{} names {banned}: the verifier must rest on the rules alone",
                path.display()
            );
        }
    }
}

#[test]
fn the_front_ends_go_through_the_engine_and_the_game() {
    let front_ends = [sources("src/cli"), sources("src/web")];
    for (path, text) in front_ends.into_iter().flatten() {
        let code = code(&text);
        for (i, _) in code.match_indices("inarow::") {
            let rest = &code[i + "inarow::".len()..];
            assert!(
                rest.starts_with("engine")
                    || rest.starts_with("game")
                    || rest.starts_with("with_game"),
                "{} reaches past the facade: inarow::{}",
                path.display(),
                rest.lines().next().unwrap_or("")
            );
        }
    }
}

#[test]
fn no_search_names_a_game() {
    for (path, text) in sources("src/search") {
        let code = code(&text);
        // The tests of the proof-number family use small Connect Four boards: only code outside
        // `#[cfg(test)]` modules counts.
        let code = code.split("#[cfg(test)]").next().unwrap_or("");
        for game in ["Connect", "PopOut", "popout", "connect4"] {
            assert!(
                !code.contains(game),
                "{} names the game {game}",
                path.display()
            );
        }
    }
}
