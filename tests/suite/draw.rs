//! `inarow draw`: every game's board as an SVG picture that parses, with a cell for every cell
//! of the board and, with `--values`, a value for every legal move; bad input is one line. The
//! page's options (`inarow::wire::draw`, which `POST /api/draw` and WebAssembly's `draw` call):
//! what a player clicks, Pentago's chosen cell, numbered stones, win / draw / loss chips.

use super::cli::inarow;
use inarow::wire;
use serde_json::{Value, json};

/// Whether `n`'s classes include `c`.
fn has_class(n: &roxmltree::Node, c: &str) -> bool {
    n.attribute("class")
        .is_some_and(|list| list.split(' ').any(|x| x == c))
}

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
    let class = |n: &roxmltree::Node, c: &str| has_class(n, c);
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

/// An element of a picture: its tag, classes, attributes and text.
type Element = (String, Vec<String>, Vec<(String, String)>, String);

/// The picture `wire::draw` makes of `request`, parsed: each element's tag, classes and
/// attributes, and its text.
fn page(request: Value) -> (String, Vec<Element>) {
    let svg = wire::draw(&request).unwrap_or_else(|e| panic!("{request}: {e}"));
    let doc = roxmltree::Document::parse(&svg).unwrap_or_else(|e| panic!("{request}: {e}"));
    let elements = doc
        .descendants()
        .filter(|n| n.is_element())
        .map(|n| {
            let classes = n
                .attribute("class")
                .unwrap_or("")
                .split(' ')
                .filter(|c| !c.is_empty())
                .map(str::to_string)
                .collect();
            let attrs = n
                .attributes()
                .map(|a| (a.name().to_string(), a.value().to_string()))
                .collect();
            let text = n.text().unwrap_or("").to_string();
            (n.tag_name().name().to_string(), classes, attrs, text)
        })
        .collect();
    (svg, elements)
}

fn attr<'a>(e: &'a Element, name: &str) -> Option<&'a str> {
    e.2.iter().find(|(k, _)| k == name).map(|(_, v)| v.as_str())
}

fn with_class<'a>(elements: &'a [Element], c: &str) -> Vec<&'a Element> {
    elements
        .iter()
        .filter(|e| e.1.iter().any(|x| x == c))
        .collect()
}

/// An analysis entry as the wire format writes it.
fn entry(mv: &str, value: &str, exact: bool) -> Value {
    json!({"move": mv, "value": value, "exact": exact})
}

#[test]
fn the_default_request_is_inarow_draws_picture() {
    for (game, moves) in [("connect4", "4453"), ("pentago", "d53r"), ("cube", "a1b2")] {
        let run = inarow(&["draw", "--game", game, moves], None);
        let (svg, _) = page(json!({"game": game, "moves": moves}));
        assert_eq!(svg, run.stdout, "{game} {moves}");
    }
}

#[test]
fn the_pages_board_marks_every_move_to_click() {
    // Connect Four: a column per move, its ghost stone; no background, no margin.
    let (svg, e) = page(json!({"moves": "4453", "interactive": true}));
    assert!(!svg.contains("class=\"background\""));
    let columns: Vec<_> = with_class(&e, "col");
    assert_eq!(columns.len(), 7);
    for c in &columns {
        assert!(c.1.contains(&"target".to_string()), "{c:?}");
        assert_eq!(
            attr(c, "data-move"),
            attr(c, "data-col")
                .map(|x| { (x.parse::<u32>().unwrap() + 1).to_string() })
                .as_deref()
        );
    }
    assert_eq!(with_class(&e, "ghost").len(), 7);
    // Without interactive: no target, no ghost.
    let (_, e) = page(json!({"moves": "4453"}));
    assert!(with_class(&e, "target").is_empty() && with_class(&e, "ghost").is_empty());
    // PopOut: the pops; the cube: columns with the cell their drop fills, landing marks.
    let (_, e) = page(json!({"game": "popout", "moves": "4445", "interactive": true}));
    let pops: Vec<_> = with_class(&e, "pop")
        .iter()
        .map(|p| attr(p, "data-move").unwrap().to_string())
        .collect();
    assert_eq!(pops, ["p4"]);
    let (_, e) = page(json!({"game": "cube", "moves": "00", "interactive": true}));
    let zero = with_class(&e, "col")
        .into_iter()
        .find(|c| attr(c, "data-move") == Some("0"))
        .unwrap();
    assert_eq!(attr(zero, "data-placed"), Some("32"));
    assert_eq!(with_class(&e, "landing").len(), 64);
    // The cube's levels beside its columns, or under them where the room is a phone's.
    let levels_x = |width: f64| -> Vec<String> {
        let (_, e) = page(json!({"game": "cube", "moves": "00", "width": width}));
        with_class(&e, "level")
            .iter()
            .map(|l| {
                attr(l, "transform")
                    .unwrap()
                    .split(' ')
                    .next()
                    .unwrap()
                    .to_string()
            })
            .collect()
    };
    assert!(
        levels_x(1000.0).iter().all(|t| t != "translate(0"),
        "beside"
    );
    assert_eq!(
        levels_x(360.0)
            .iter()
            .filter(|t| *t == "translate(0")
            .count(),
        2,
        "under"
    );
    // A finished game: nothing to click.
    let (_, e) = page(json!({"moves": "4455667", "interactive": true}));
    assert!(with_class(&e, "target").is_empty());
}

#[test]
fn pentagos_chosen_cell_puts_its_turns_values_on_the_arrows() {
    let moves = "a10r";
    let rules = inarow::session::game("pentago").unwrap();
    let pos = rules.read(moves).unwrap();
    let legal: Vec<String> = pos.view().moves.iter().map(|m| m.text.clone()).collect();
    let values: Vec<Value> = legal.iter().map(|m| entry(m, "1", true)).collect();
    let b2 = 7; // b2: column 1, row 1
    let (_, e) = page(json!({"game": "pentago", "moves": moves, "values": values,
                             "interactive": true, "selected": b2}));
    assert_eq!(with_class(&e, "selected").len(), 1);
    let arrows = with_class(&e, "turn");
    assert_eq!(arrows.len(), 8);
    for a in &arrows {
        assert!(a.1.contains(&"target".to_string()), "{a:?}");
        let named = attr(a, "data-move").unwrap();
        assert!(named.starts_with("b2"), "{named}");
        assert!(
            legal
                .iter()
                .any(|m| Some(m.as_str()) == attr(a, "data-same"))
        );
    }
    // The turns' chips, and the other cells' dimmed; Pentago's exact values say win.
    let chips = with_class(&e, "chip");
    let on_arrows = chips
        .iter()
        .filter(|c| attr(c, "data-same").is_some())
        .count();
    assert_eq!(on_arrows, 8);
    assert!(
        chips
            .iter()
            .filter(|c| attr(c, "data-cell-value").is_some())
            .all(|c| c.1.contains(&"dim".to_string()))
    );
    let texts: Vec<_> = e.iter().filter(|x| x.0 == "text" && x.3 == "win").collect();
    assert!(texts.len() >= 8);
    // A cell that is not on the board is an error.
    let bad = wire::draw(&json!({"game": "pentago", "selected": 36})).unwrap_err();
    assert!(bad.to_string().contains("cell 36"), "{bad}");
}

#[test]
fn numbered_stones_and_win_draw_loss_chips() {
    let (_, e) = page(json!({"game": "connect4", "moves": "4453", "numbers": [[3, 1], [10, 2]]}));
    let numbers: Vec<_> = with_class(&e, "num").iter().map(|n| n.3.clone()).collect();
    assert_eq!(numbers, ["1", "2"]);
    // Exact scores: +2 on the page, win where the analysis is weak; PopOut's are weak.
    let values = json!([
        entry("4", "2", true),
        entry("3", "0", true),
        entry("5", "-1", true),
        entry("1", "~12", false)
    ]);
    let chip_texts = |request: Value| -> Vec<String> {
        let (_, e) = page(request);
        with_class(&e, "chip")
            .iter()
            .map(|c| {
                e.iter()
                    .skip_while(|x| *x != *c)
                    .find(|x| x.0 == "text")
                    .unwrap()
                    .3
                    .clone()
            })
            .collect()
    };
    let scores = chip_texts(json!({"moves": "44", "values": values}));
    for t in ["+2", "0", "-1", "~12"] {
        assert!(scores.contains(&t.to_string()), "{scores:?}");
    }
    let weak = chip_texts(json!({"moves": "44", "values": values, "weak": true}));
    for t in ["win", "draw", "loss", "~12"] {
        assert!(weak.contains(&t.to_string()), "{weak:?}");
    }
    let popout = chip_texts(json!({"game": "popout", "moves": "44", "values": values}));
    assert!(popout.contains(&"win".to_string()), "{popout:?}");
}

#[test]
fn a_bad_request_is_an_input_error() {
    for request in [
        json!([1, 2]),
        json!({"game": 4}),
        json!({"moves": "48"}),
        json!({"game": "nosuch"}),
        json!({"values": {"4": 1}}),
        json!({"values": [{"value": "1"}]}),
        json!({"interactive": "yes"}),
        json!({"selected": -1}),
        json!({"numbers": [[1]]}),
        json!({"colour": "red"}),
        json!({"width": -3}),
    ] {
        let e = wire::draw(&request).expect_err(&request.to_string());
        assert!(!e.to_string().contains('\n'), "{e}");
    }
}
