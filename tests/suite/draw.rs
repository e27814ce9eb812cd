//! `inarow draw`: every game's board as an SVG picture that parses, with a cell for every cell
//! of the board and, with `--values`, a value for every legal move; bad input is one line.

use super::cli::inarow;

/// The picture `inarow draw ARGS` writes, parsed; panics if it is not an SVG document.
fn drawn(args: &[&str]) -> (String, usize, Vec<String>) {
    let mut full = vec!["draw"];
    full.extend_from_slice(args);
    let run = inarow(&full, None);
    run.assert_no_panic();
    assert_eq!(run.code, Some(0), "inarow {full:?}: {}", run.stderr);
    let doc = roxmltree::Document::parse(&run.stdout)
        .unwrap_or_else(|e| panic!("inarow {full:?} wrote no XML: {e}"));
    let root = doc.root_element();
    assert_eq!(root.tag_name().name(), "svg", "inarow {full:?}");
    assert_eq!(
        root.tag_name().namespace(),
        Some("http://www.w3.org/2000/svg")
    );
    let class = |n: &roxmltree::Node, c: &str| n.attribute("class") == Some(c);
    let cells = doc.descendants().filter(|n| class(n, "cell")).count();
    let values = doc
        .descendants()
        .filter(|n| class(n, "value"))
        .filter_map(|n| n.attribute("data-move").map(str::to_string))
        .collect();
    (run.stdout.clone(), cells, values)
}

#[test]
fn every_game_draws_as_svg_with_every_cell() {
    for (game, moves, cells) in [
        ("connect4", "4453", 42),
        ("connect4:5x4:k3", "", 20),
        ("popout", "44p4", 42),
        ("cube", "a1b2a1", 64),
        ("qubic", "a11", 64),
        ("pentago", "d53r", 36),
    ] {
        let (_, drawn_cells, values) = drawn(&["--game", game, moves]);
        assert!(
            drawn_cells >= cells,
            "{game} {moves}: {drawn_cells} cells drawn"
        );
        assert!(values.is_empty(), "{game}: values without --values");
    }
}

#[test]
fn values_go_on_every_legal_move() {
    // The book answers 7x6 at once; 5x4 is solved in a moment.
    for (game, moves, legal) in [("connect4", "4453", 7), ("connect4:5x4", "33", 5)] {
        let (_, _, values) = drawn(&["--game", game, "--values", moves]);
        assert_eq!(values.len(), legal, "{game} {moves}: {values:?}");
    }
    // A finished game has no moves to value: the board alone.
    let (_, _, values) = drawn(&["--values", "4455667"]);
    assert!(values.is_empty());
}

#[test]
fn bad_input_is_one_line() {
    for args in [
        &["draw", "48"][..],
        &["draw", "--game", "connect4:1x1", ""],
        &["draw", "--values", "--time", "-1", "4"],
    ] {
        let run = inarow(args, None);
        run.assert_no_panic();
        assert_eq!(run.code, Some(2), "inarow {args:?}: {}", run.stderr);
        assert_eq!(run.stderr.trim().lines().count(), 1, "{}", run.stderr);
        assert!(run.stdout.is_empty(), "inarow {args:?} drew on bad input");
    }
}
