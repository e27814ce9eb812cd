//! The README's examples cannot drift: every `inarow ARGS   # prints: TEXT` line of a `sh` block is
//! run, and what it prints (its lines joined by ` / `) must match TEXT, where `...` stands for
//! anything and a parenthesis at the end is a remark.

use super::cli::inarow;

/// The checked examples of a markdown text: the arguments and the expected text.
fn examples(markdown: &str) -> Vec<(Vec<String>, String)> {
    let mut found = Vec::new();
    let mut in_sh = false;
    for line in markdown.lines() {
        if line.starts_with("```") {
            in_sh = !in_sh && line.trim() == "```sh";
            continue;
        }
        let Some((command, comment)) = line.split_once("# prints: ") else {
            continue;
        };
        if !in_sh {
            continue;
        }
        let mut words = command.split_whitespace();
        assert_eq!(
            words.next(),
            Some("inarow"),
            "a checked example runs inarow: {line}"
        );
        let expected = match comment.rfind(" (") {
            Some(at) if comment.ends_with(')') => &comment[..at],
            _ => comment,
        };
        found.push((
            words.map(String::from).collect(),
            expected.trim().to_string(),
        ));
    }
    found
}

/// Whether `text` matches `pattern`, where each `...` of the pattern stands for any text.
fn matches(pattern: &str, text: &str) -> bool {
    let parts: Vec<&str> = pattern.split("...").collect();
    if parts.len() == 1 {
        return text == pattern;
    }
    let (first, last) = (parts[0], parts[parts.len() - 1]);
    if !text.starts_with(first) || !text.ends_with(last) || text.len() < first.len() + last.len() {
        return false;
    }
    let mut rest = &text[first.len()..text.len() - last.len()];
    for part in &parts[1..parts.len() - 1] {
        match rest.find(part) {
            Some(at) => rest = &rest[at + part.len()..],
            None => return false,
        }
    }
    true
}

#[test]
fn the_matcher_takes_dots_for_anything() {
    assert!(matches("44 1", "44 1"));
    assert!(!matches("44 1", "44 -1"));
    assert!(matches("... 18", "fb11 18"));
    assert!(!matches("... 18", "fb11 -18"));
    assert!(!matches("... 18", "fb11 181"));
    assert!(matches("3 -2 / ... / 1 -5", "3 -2 / 6 -2 / 1 -5"));
    assert!(!matches("3 -2 ... 3 -2", "3 -2"));
}

#[test]
fn the_readmes_examples_print_what_it_says() {
    let readme = include_str!("../../README.md");
    let examples = examples(readme);
    assert!(
        examples.len() >= 7,
        "the README's checked examples: {examples:?}"
    );
    // Side by side: the Qubic and Pentago examples take seconds each.
    let runs: Vec<_> = std::thread::scope(|scope| {
        let handles: Vec<_> = examples
            .iter()
            .map(|(args, _)| {
                scope.spawn(move || {
                    let args: Vec<&str> = args.iter().map(String::as_str).collect();
                    inarow(&args, None)
                })
            })
            .collect();
        handles
            .into_iter()
            .map(|h| h.join().expect("run"))
            .collect()
    });
    for ((args, expected), run) in examples.iter().zip(runs) {
        run.assert_no_panic();
        assert_eq!(
            run.code,
            Some(0),
            "inarow {}: {}",
            args.join(" "),
            run.stderr
        );
        let printed = run.stdout.lines().collect::<Vec<_>>().join(" / ");
        assert!(
            matches(expected, &printed),
            "the README says `inarow {}` prints '{expected}'; it printed '{printed}'",
            args.join(" ")
        );
    }
}

/// A document's text with its line breaks and runs of spaces as single spaces.
fn flat(text: &str) -> String {
    text.split_whitespace().collect::<Vec<_>>().join(" ")
}

/// The number written (with thousands' commas, maybe after a parenthesis) just before the
/// first `suffix` in `text`.
fn number_before(text: &str, suffix: &str) -> u64 {
    let at = text
        .find(suffix)
        .unwrap_or_else(|| panic!("no '{suffix}' in the text"));
    let word = text[..at].rsplit(' ').next().unwrap_or_default();
    word.trim_start_matches('(')
        .replace(',', "")
        .parse()
        .unwrap_or_else(|_| panic!("'{word}' before '{suffix}' is not a number"))
}

/// `n` with thousands' commas, as the docs write counts.
fn with_commas(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The figures the docs give of the files built into the program are those files': Qubic's
/// strategy's positions (README) and size (docs/browser.md), the 7x6 opening book's positions
/// and size and those of the WebAssembly build's (docs/commands.md). (The README's download
/// of the static page, the gzipped `.wasm`, is checked by tests/browser/static, which builds
/// it.)
#[test]
fn the_docs_figures_of_the_built_in_files_are_theirs() {
    let books = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/inarow/books");
    let bytes = |file: &str| std::fs::read(books.join(file)).expect("a built-in file");
    // The header's `entries N` line.
    let entries = |file: &str| -> u64 {
        let data = bytes(file);
        let head = String::from_utf8_lossy(&data[..data.len().min(400)]).into_owned();
        head.lines()
            .find_map(|l| l.strip_prefix("entries "))
            .unwrap_or_else(|| panic!("{file}: no entries line"))
            .trim()
            .parse()
            .expect("a count")
    };
    let megabytes = |file: &str| format!("{:.1} MB", bytes(file).len() as f64 / 1e6);
    let readme = flat(include_str!("../../README.md"));
    let commands = flat(include_str!("../../docs/commands.md"));
    let browser = flat(include_str!("../../docs/browser.md"));

    let strategy = format!(
        "a book of {} positions built in",
        with_commas(entries("qubic.strategy"))
    );
    assert!(
        readme.contains(&strategy),
        "the README should say '{strategy}'"
    );
    let size = format!(
        "(`crates/inarow/books/qubic.strategy`, {}",
        megabytes("qubic.strategy")
    );
    assert!(
        browser.contains(&size),
        "docs/browser.md should say '{size}'"
    );

    // docs/commands.md: the built-in book's positions and size, and the WebAssembly build's.
    for (file, what) in [
        (
            "connect4-7x6.book",
            " positions to 12 plies, one per mirror pair",
        ),
        (
            "connect4-7x6-web.book",
            " positions to 10 plies, one per mirror pair",
        ),
    ] {
        let n = number_before(&commands, what);
        assert_eq!(n, entries(file), "{file}");
        let said = format!("{}{what}, {}", with_commas(n), megabytes(file));
        assert!(
            commands.contains(&said),
            "docs/commands.md should say '{said}'"
        );
    }
}
