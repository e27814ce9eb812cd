//! The layers keep their doors: the certificate verifier knows nothing but the rules, the
//! front-ends (the command line, the web server, WebAssembly, Python) reach the library only
//! through the session, the wire format, the drawer, the engine and the game, and no search
//! names a game. Checked on the sources, so that a new import cannot slip past.

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
    for (path, text) in sources("crates/inarow/src/certificate") {
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
    let front_ends = [
        sources("src/cli"),
        sources("crates/server/src"),
        sources("wasm/src"),
        sources("python/src"),
    ];
    for (path, text) in front_ends.into_iter().flatten() {
        let code = code(&text);
        // One wire format, the library's: no front takes it from another.
        assert!(
            !code.contains("inarow_server::json"),
            "{} takes the JSON from the server crate, not inarow::wire",
            path.display()
        );
        for (i, _) in code.match_indices("inarow::") {
            let rest = &code[i + "inarow::".len()..];
            assert!(
                rest.starts_with("engine")
                    || rest.starts_with("session")
                    || rest.starts_with("wire")
                    || rest.starts_with("draw")
                    || rest.starts_with("Error")
                    || rest.starts_with("limits")
                    || rest.starts_with("game")
                    || rest.starts_with("with_game"),
                "{} reaches past the facade: inarow::{}",
                path.display(),
                rest.lines().next().unwrap_or("")
            );
        }
    }
}

/// The server, WebAssembly and Python stand on the session, the wire format and the drawer:
/// they name nothing of the engine (issue 60).
#[test]
fn the_server_wasm_and_python_name_no_engine_internals() {
    let fronts = [
        sources("crates/server/src"),
        sources("wasm/src"),
        sources("python/src"),
    ];
    for (path, text) in fronts.into_iter().flatten() {
        let code = code(&text);
        if let Some(i) = code.find("inarow::engine") {
            panic!(
                "{} names the engine: {}",
                path.display(),
                code[i..].lines().next().unwrap_or("")
            );
        }
    }
}

/// The command line reads its game through the session and runs through it (issue 60): no
/// command dispatches on the game's type itself (`with_game!`) to drive the typed engine.
#[test]
fn the_command_line_goes_through_the_session() {
    for (path, text) in sources("src") {
        assert!(
            !code(&text).contains("with_game!"),
            "{} dispatches on the game's type: go through inarow::session",
            path.display()
        );
    }
}

/// What the command line may name of the engine: the knowledge files it reads and writes
/// (books, databases, their ranks), the ranks of a distributed run, Victor's rules' audit and
/// Pentago's midgame solver that its benchmarks time, and a database's values. The typed engine
/// (`Engine`, `Options`, `Config`, the agent) is the session's alone.
const CLI_MAY_NAME_OF_THE_ENGINE: [&str; 6] = [
    "knowledge",
    "distributed",
    "victor",
    "pentago_midgame",
    "Progress",
    "RetroValue",
];

/// The first segment of each path a text imports from `prefix` (`prefix{A, b::C}` gives A and
/// b).
fn named_under(code: &str, prefix: &str) -> Vec<String> {
    let mut names = Vec::new();
    for (i, _) in code.match_indices(prefix) {
        let rest = &code[i + prefix.len()..];
        let items = match rest.strip_prefix('{') {
            Some(list) => list[..list.find('}').unwrap_or(list.len())].to_string(),
            None => rest.to_string(),
        };
        for item in items.split(',') {
            let first: String = item
                .trim()
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !first.is_empty() {
                names.push(first);
            }
            if rest.starts_with('{') {
                continue;
            }
            break;
        }
    }
    names
}

/// The command line drives no typed engine: of the engine it names only what
/// [`CLI_MAY_NAME_OF_THE_ENGINE`] lists.
#[test]
fn the_command_line_names_no_typed_engine() {
    for (path, text) in sources("src") {
        for name in named_under(&code(&text), "inarow::engine::") {
            assert!(
                CLI_MAY_NAME_OF_THE_ENGINE.contains(&name.as_str()),
                "{} names the engine's {name}: go through inarow::session",
                path.display()
            );
        }
    }
    // The server crate is started by `inarow serve`, and named for nothing else.
    for (path, text) in sources("src") {
        for (i, _) in code(&text).match_indices("inarow_server::") {
            assert!(
                code(&text)[i..].starts_with("inarow_server::serve("),
                "{} names the server crate for more than starting it",
                path.display()
            );
        }
    }
    let probe = "use inarow::engine::{Engine, knowledge::book};";
    assert_eq!(
        named_under(probe, "inarow::engine::"),
        ["Engine", "knowledge"]
    );
}

/// Every game's names in code: its types and its spec.
const GAMES: [&str; 12] = [
    "Connect",
    "connect4",
    "PopOut",
    "popout",
    "Cube",
    "cube",
    "Gravity",
    "Qubic",
    "qubic",
    "Pentago",
    "pentago",
    "game::connect",
];

#[test]
fn no_search_names_a_game() {
    for (path, text) in sources("crates/inarow/src/search") {
        let code = code(&text);
        // The tests of the proof-number family use small Connect Four boards: only code outside
        // `#[cfg(test)]` modules counts.
        let code = code.split("#[cfg(test)]").next().unwrap_or("");
        // A board with gravity described as data (Victor's rules take any): no game's name.
        let code = code.replace("GravityGeometry", "");
        for game in GAMES {
            assert!(
                !code.contains(game),
                "{} names the game {game}",
                path.display()
            );
        }
    }
}

#[test]
fn the_rules_import_nothing_above_them() {
    for (path, text) in sources("crates/inarow/src/game") {
        let code = code(&text);
        for banned in [
            "crate::search",
            "crate::engine",
            "crate::solvers",
            "crate::certificate",
        ] {
            assert!(
                !code.contains(banned),
                "{} names {banned}: the rules rest on nothing but themselves",
                path.display()
            );
        }
    }
}

#[test]
fn the_solvers_of_one_game_use_the_rules_and_the_limits_only() {
    for (path, text) in sources("crates/inarow/src/solvers") {
        let code = code(&text);
        for banned in ["crate::search", "crate::engine", "super::super"] {
            assert!(
                !code.contains(banned),
                "{} names {banned}: a game's own solver rests on the rules and the limits",
                path.display()
            );
        }
    }
}

#[test]
fn the_bottom_layer_imports_nothing() {
    for file in [
        "crates/inarow/src/limits.rs",
        "crates/inarow/src/memory.rs",
        "crates/inarow/src/error.rs",
    ] {
        let text =
            std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join(file)).unwrap();
        assert!(
            !code(&text).contains("crate::"),
            "{file} names another part of the crate: it sits below every layer"
        );
    }
}

/// The checks above see what they look for: a source that breaks a rule is caught.
#[test]
fn the_checks_catch_a_breach() {
    let breach = "use crate::search::alphabeta::AlphaBeta;\nfn f(p: Pentago) {} // Connect";
    assert!(code(breach).contains("crate::search"));
    assert!(GAMES.iter().any(|g| code(breach).contains(g)));
    assert!(!code("// crate::search, Pentago").contains("Pentago"));
}
