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
