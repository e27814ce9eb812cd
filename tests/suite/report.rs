//! `inarow report`: the quick run on a copy of a results page rewrites its generated blocks and
//! nothing else, writes well-formed SVG plots with the expected series, and keeps its figures
//! for `--redraw`; a page without a block's end marker is bad input.

use super::cli::inarow;
use super::common::temp_file;
use std::path::Path;

const SECTIONS: [&str; 4] = ["cube-curve", "sizes", "pentago", "elo"];

/// A results page with hand-written text around a block of each section (stale contents).
fn page() -> String {
    let mut page = String::from("# Results\n\nHand-written text, kept.\n\n");
    for name in SECTIONS {
        page += &format!(
            "## {name}\n\nBefore {name}.\n\n<!-- report:{name} -->\nstale {name}\n\
             <!-- /report:{name} -->\n\nAfter {name}.\n\n"
        );
    }
    page + "The end.\n"
}

/// The page with every block's inside dropped: what must not change.
fn outside_blocks(page: &str) -> String {
    let mut out = String::new();
    let mut rest = page;
    for name in SECTIONS {
        let start = format!("<!-- report:{name} -->");
        let end = format!("<!-- /report:{name} -->");
        let a = rest.find(&start).expect("start marker") + start.len();
        let b = rest.find(&end).expect("end marker");
        out += &rest[..a];
        rest = &rest[b..];
    }
    out + rest
}

/// Whether `svg` is one `<svg>` element whose tags all nest and close (enough of XML for what
/// plotters writes: no comments, CDATA or processing instructions but a declaration).
fn well_formed(svg: &str) -> Result<(), String> {
    let mut open: Vec<&str> = Vec::new();
    let mut rest = svg.trim();
    let mut roots = 0;
    while let Some(at) = rest.find('<') {
        let close = rest[at..].find('>').ok_or("a tag is not closed")? + at;
        let tag = &rest[at + 1..close];
        rest = &rest[close + 1..];
        if tag.starts_with('?') || tag.starts_with('!') {
            continue;
        }
        if let Some(name) = tag.strip_prefix('/') {
            let top = open.pop().ok_or(format!("</{name}> closes nothing"))?;
            if top != name.trim() {
                return Err(format!("<{top}> closed by </{name}>"));
            }
            continue;
        }
        let name = tag.split_whitespace().next().ok_or("an empty tag")?;
        if open.is_empty() {
            roots += 1;
        }
        if !tag.ends_with('/') {
            open.push(name);
        }
    }
    match (open.as_slice(), roots) {
        ([], 1) => Ok(()),
        ([], n) => Err(format!("{n} root elements")),
        (left, _) => Err(format!("unclosed: {left:?}")),
    }
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

#[test]
fn quick_report_rewrites_the_blocks_only_and_draws_each_plot() {
    let dir = temp_file("report");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let results = dir.join("results.md");
    let plots = dir.join("plots");
    let data = dir.join("report.json");
    std::fs::write(&results, page()).unwrap();
    let paths = [&results, &plots, &data].map(|p| p.to_str().unwrap().to_string());
    let args = |extra: &[&'static str]| {
        let mut a = vec![
            "report".to_string(),
            "--results".into(),
            paths[0].clone(),
            "--plots".into(),
            paths[1].clone(),
            "--data".into(),
            paths[2].clone(),
        ];
        a.extend(extra.iter().map(|s| s.to_string()));
        a
    };
    let run = |a: Vec<String>| {
        let a: Vec<&str> = a.iter().map(String::as_str).collect();
        inarow(&a, None)
    };

    let r = run(args(&["--quick"]));
    r.assert_no_panic();
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    let written = read(&results);
    assert_eq!(outside_blocks(&written), outside_blocks(&page()));
    for name in SECTIONS {
        assert!(!written.contains(&format!("stale {name}")), "{written}");
    }
    // Each block embeds its plots, relative to the page.
    for plot in ["cube-curve", "sizes-nodes", "sizes-time", "pentago", "elo"] {
        assert!(
            written.contains(&format!("(plots/{plot}.svg)")),
            "{plot}: {written}"
        );
    }
    assert!(written.contains("| 4x4 | 16 | 0 | draw |"), "{written}");
    // Without --irving, Irving's figures are the stored ones, and say so.
    assert!(written.contains("**stored figures**"), "{written}");

    let series: [(&str, &[&str]); 5] = [
        ("cube-curve", &["seconds for all", "mean nodes"]),
        ("sizes-nodes", &["height 4", "height 5", "4x4"]),
        ("sizes-time", &["height 4", "height 5"]),
        (
            "pentago",
            &["inarow, stone-count table", "Irving (stored figures)"],
        ),
        ("elo", &["random", "depth2", "mcts", "alphabeta", "best"]),
    ];
    for (plot, labels) in series {
        let svg = read(&plots.join(format!("{plot}.svg")));
        well_formed(&svg).unwrap_or_else(|e| panic!("{plot}.svg: {e}"));
        for label in labels {
            assert!(svg.contains(label), "{plot}.svg has no '{label}'");
        }
    }
    let json = read(&data);
    for key in [
        "cube_curve",
        "sizes",
        "pentago",
        "elo",
        "\"mode\": \"quick\"",
    ] {
        assert!(json.contains(key), "{key}: {json}");
    }

    // Redrawn from the figures alone: the same page and plots.
    let elo = read(&plots.join("elo.svg"));
    std::fs::remove_file(plots.join("elo.svg")).unwrap();
    let r = run(args(&["--redraw", "--only", "elo,sizes"]));
    assert_eq!(r.code, Some(0), "stderr: {}", r.stderr);
    assert_eq!(read(&plots.join("elo.svg")), elo);
    assert_eq!(read(&results), written);

    // A block without its end marker: one line, exit 2, nothing measured or written.
    let broken = written.replace("<!-- /report:pentago -->", "");
    std::fs::write(&results, &broken).unwrap();
    let r = run(args(&["--quick", "--only", "pentago"]));
    assert_eq!(r.code, Some(2), "stderr: {}", r.stderr);
    assert_eq!(r.stderr.trim().lines().count(), 1, "one line: {}", r.stderr);
    assert!(
        r.stderr
            .contains("has no end marker <!-- /report:pentago -->"),
        "{}",
        r.stderr
    );
    assert_eq!(read(&results), broken);
    let _ = std::fs::remove_dir_all(&dir);
}
