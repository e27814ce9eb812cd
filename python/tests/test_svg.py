"""The board as SVG (``Position.svg``, ``_repr_svg_``): well-formed, a shape per cell, stones in
the players' colours, the coordinates, and moves' values where asked, for every game."""

import xml.etree.ElementTree as ET

import pytest

import inarow

NS = "{http://www.w3.org/2000/svg}"
RED, YELLOW = "#d8433b", "#f2c63f"

# A position of each game, with stones of both players, and its coordinate labels.
GAMES = {
    "connect4": ("4453", {"1", "2", "3", "4", "5", "6", "7"}),
    "popout": ("4445", {"1", "2", "3", "4", "5", "6", "7"}),
    "cube": ("00f5", {"0", "1", "2", "3", "4", "8", "c", "level 1 · bottom", "level 4 · top"}),
    "qubic": ("a11b22c33", {"a", "b", "c", "d", "1", "2", "3", "4", "level 2"}),
    "pentago": ("a10rb21l", {"a", "b", "c", "d", "e", "f", "1", "2", "3", "4", "5", "6"}),
}


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == NS + "svg"
    assert float(root.get("width")) > 100 and float(root.get("height")) > 100
    assert root.get("viewBox") == f"0 0 {root.get('width')} {root.get('height')}"
    return root


def classes(e: ET.Element) -> list:
    return (e.get("class") or "").split()


def cells(root: ET.Element) -> list:
    return [g for g in root.iter(NS + "g") if "cell" in classes(g)]


def texts(root: ET.Element, cls: str) -> list:
    return ["".join(t.itertext()) for t in root.iter(NS + "text") if cls in classes(t)]


def chip_list(root: ET.Element) -> list:
    """Each value drawn: its move and its text."""
    out = []
    for g in root.iter(NS + "g"):
        if "value" in classes(g):
            (text,) = [t for t in g.iter(NS + "text")]
            out.append((g.get("data-move"), "".join(text.itertext())))
    return out


def chips(root: ET.Element) -> dict:
    """Each move's value drawn (once, but for Pentago's: see below)."""
    out = dict(chip_list(root))
    assert len(out) == len(chip_list(root))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_a_shape_per_cell_and_stones_in_the_players_colours(game):
    moves, labels = GAMES[game]
    p = inarow.Position(game, moves)
    root = parse(p._repr_svg_())
    assert p.svg() == p._repr_svg_()
    board = p.board
    drawn = cells(root)
    assert len(drawn) == len(board.cells)
    assert sorted(int(g.get("data-cell")) for g in drawn) == list(range(len(board.cells)))
    held = 0
    for g in drawn:
        cell = board.cells[int(g.get("data-cell"))]
        assert g.get("data-name") == cell.name
        assert g.get("data-owner") == (cell.owner or "")
        stones = [c for c in g.iter(NS + "circle") if "stone" in classes(c)]
        if cell.owner is None:
            assert stones == []
        else:
            (stone,) = stones
            assert stone.get("fill") == {"first": RED, "second": YELLOW}[cell.owner]
            assert cell.owner in classes(stone)
            held += 1
    assert held == sum(1 for c in board.cells if c.owner) >= 2
    assert labels <= set(texts(root, "label")) | set(texts(root, "title"))
    assert chips(root) == {}


def test_the_cube_shows_its_columns_from_above_too():
    p = inarow.Position("cube", "00f5")
    root = parse(p.svg())
    columns = [g for g in root.iter(NS + "g") if "column" in classes(g)]
    assert len(columns) == 16
    stacks = [r for r in root.iter(NS + "rect") if "stack" in classes(r)]
    assert len(stacks) == 64
    assert sorted(r.get("fill") for r in stacks if "first" in classes(r)) == [RED] * 2
    assert [r.get("fill") for r in stacks if "second" in classes(r)] == [YELLOW] * 2


def test_pentago_draws_its_quadrants_with_their_numbers():
    root = parse(inarow.Position("pentago", "a10r").svg())
    quadrants = [r.get("data-name") for r in root.iter(NS + "rect") if "quadrant" in classes(r)]
    assert sorted(quadrants) == [f"quadrant {q}" for q in range(4)]
    assert sorted(texts(root, "quadrant-number")) == ["0", "1", "2", "3"]


@pytest.mark.parametrize(
    "game, moves", [("connect4", "4455667"), ("pentago", "a13rd13ra23re13ra33rf13ra43rd23ra5")]
)
def test_a_won_game_crosses_its_line_out(game, moves):
    p = inarow.Position(game, moves)
    assert p.status == "first wins"
    root = parse(p.svg())
    (line,) = [e for e in root.iter(NS + "line") if "winline" in classes(e)]
    assert line.get("data-owner") == "first"
    rings = [c for c in root.iter(NS + "circle") if "winring" in classes(c)]
    assert len(rings) == len(p.board.lines[0].cells)


# Games whose exact values carry no distance: their chips say win / draw / loss, as the page's.
WEAK = {"popout", "qubic", "pentago"}


def chip_text(value, exact, weak=False):
    if value is None:
        return "?"
    if isinstance(value, float):
        return f"~{round(value * 100)}%"
    if not exact:
        return f"~{value}"
    if weak:
        return "win" if value > 0 else "draw" if value == 0 else "loss"
    return f"+{value}" if value > 0 else str(value)


def test_the_values_of_an_analysis_go_on_their_columns():
    p = inarow.Position("connect4", "44")
    values = p.analyze()
    root = parse(p.svg(values=values))
    drawn = chips(root)
    assert drawn == {m.move: chip_text(m.value, m.exact) for m in values}
    assert drawn["4"] == "+1" and drawn["3"] == "-2"
    # (the same texts: the shades, from the plies to the end, come with MoveValues only)
    assert chips(parse(p.svg(values=[tuple(m) for m in values]))) == drawn
    assert chips(parse(p.svg(values={m.move: m.value for m in values}))) == drawn
    assert p.svg(values=None) == p.svg() == p.svg(values=[])


@pytest.mark.parametrize("game", ["popout", "cube", "qubic"])
def test_every_move_shows_its_value(game):
    moves, _ = GAMES[game]
    p = inarow.Position(game, moves)
    given = [(m, v, v % 2 == 0) for v, m in enumerate(p.legal_moves(), -3)]
    drawn = chips(parse(p.svg(values=given)))
    assert drawn == {m: chip_text(v, exact, game in WEAK) for m, v, exact in given}
    if game == "popout":
        assert "p4" in drawn


def test_an_estimate_and_an_unknown_value():
    p = inarow.Position("qubic", "a11")
    drawn = chips(parse(p.svg(values={"b22": 0.64, "c33": None, "d44": 12})))
    assert drawn == {"b22": "~64%", "c33": "?", "d44": "win"}


def test_pentago_shows_each_cells_best_value_over_its_turns():
    p = inarow.Position("pentago", "a10r")
    moves = p.legal_moves()
    # Worth the most: b2, turning quadrant 1 anticlockwise (the list holds one move per position
    # reached: turning an empty quadrant either way is one).
    assert "b21l" in moves and "b21r" not in moves
    given = {m: (5 if m == "b21l" else -1) for m in moves}
    # A cell shows a move placing elsewhere where that move makes the same position as one
    # placing there (e12r stands for placing on its stone's cell and turning an empty quadrant).
    drawn = chip_list(parse(p.svg(values=given)))
    empty = sum(1 for c in p.board.cells if c.owner is None)
    assert len(drawn) == empty
    assert all(m in given and t == chip_text(given[m], True, True) for m, t in drawn)
    assert [m for m, t in drawn if t == "win"] == ["b21l"]
    real = p.analyze(time=0.2)
    drawn = chip_list(parse(p.svg(real)))
    assert len(drawn) == empty
    texts_of = {m.move: m.text for m in real}
    of = {m.move: m for m in real}
    assert all(t == texts_of[m] or t == chip_text(of[m].value, of[m].exact, True) for m, t in drawn)


def test_a_pentago_turn_alone_shows_its_value_at_its_arrow():
    p = inarow.Position("pentago", "x" + "." * 35 + "m")
    moves = p.legal_moves()
    assert moves and all(m[0].isdigit() for m in moves)
    # Each of the eight arrows: the list holds one move per position reached, and turning an
    # empty quadrant either way leaves the same position.
    drawn = chip_list(parse(p.svg(values={m: i for i, m in enumerate(moves)})))
    assert len(drawn) == 8
    assert {m for m, _ in drawn} == set(moves)
    assert all(t == chip_text(moves.index(m), True, True) for m, t in drawn)


def test_bad_values_are_a_type_error():
    p = inarow.Position("connect4", "")
    with pytest.raises(TypeError):
        p.svg(values=[1, 2])
    with pytest.raises(TypeError):
        p.svg(values=[("4", "win")])
    # A value for a move that is not legal here is left out.
    assert chips(parse(p.svg(values={"9": 1, "4": 0}))) == {"4": "0"}


def test_names_are_escaped_and_the_picture_is_standalone():
    svg = inarow.Position("connect4:10x7", "10,10").svg()
    root = parse(svg)
    assert "10" in texts(root, "label")
    assert "<style" not in svg and "<script" not in svg


def marked(root: ET.Element) -> list:
    return [e for e in root.iter() if "last" in classes(e)]


def test_the_last_move_is_marked_as_on_the_page():
    assert marked(parse(inarow.Position("connect4", "").svg())) == []
    root = parse(inarow.Position("connect4", "4453").svg())
    (ring,) = marked(root)
    (cell,) = [g for g in cells(root) if ring in list(g)]
    assert cell.get("data-name") == "3" and cell.get("data-owner") == "second"
    # A pop: the column's name in bold between two arrows.
    root = parse(inarow.Position("popout", "4445p4").svg())
    assert [e.tag for e in marked(root)] == [NS + "text"]
    assert "".join(marked(root)[0].itertext()) == "4"
    assert len([e for e in root.iter(NS + "path") if "popped" in classes(e)]) == 1
    # Pentago: the stone where the turn left it, the quadrant turned.
    root = parse(inarow.Position("pentago", "a10rb21ld53r").svg())
    (frame,) = [e for e in marked(root) if e.tag == NS + "rect"]
    (ring,) = [e for e in marked(root) if e.tag == NS + "circle"]
    (cell,) = [g for g in cells(root) if ring in list(g)]
    assert cell.get("data-name") == "e6"
    quadrants = [r for r in root.iter(NS + "rect") if "quadrant" in classes(r)]
    (turned,) = [q for q in quadrants if q.get("data-name") == "quadrant 3"]
    assert float(frame.get("x")) == float(turned.get("x")) - 3
    # The cube: the stone on its level and in its column from above.
    root = parse(inarow.Position("cube", "00f5").svg())
    assert len(marked(root)) == 2


def test_svg_is_text_that_a_notebook_draws():
    """``svg()`` returns an ``inarow.Svg``: a ``str`` (to write to a file) whose ``_repr_svg_``
    Jupyter calls to draw the picture."""
    p = inarow.Position("connect4", "4453")
    picture = p.svg(values=p.analyze())
    assert isinstance(picture, str) and isinstance(picture, inarow.Svg)
    assert picture._repr_svg_() == str(picture)
    parse(picture._repr_svg_())


def targets(root: ET.Element) -> list:
    return [e for e in root.iter() if "target" in classes(e)]


@pytest.mark.parametrize("game", GAMES)
def test_the_interactive_board_marks_what_plays(game):
    """``svg(interactive=True)``: the web page's board (what ``BoardWidget`` shows), each legal
    move on an element of the class ``target`` with its ``data-move`` (Pentago's cells, chosen
    before their turn, are targets without one); the picture alone has none."""
    moves, _ = GAMES[game]
    p = inarow.Position(game, moves)
    assert targets(parse(p.svg())) == []
    root = parse(p.svg(interactive=True))
    assert "background" not in [c for e in root.iter() for c in classes(e)]
    played = {e.get("data-move") for e in targets(root) if e.get("data-move")}
    if game == "pentago":
        assert played == set()
        assert {int(e.get("data-cell")) for e in targets(root)} == {m.placed for m in p.board.moves}
    else:
        assert played == set(p.legal_moves())


def test_a_pentago_cell_chosen_shows_its_turns():
    p = inarow.Position("pentago", "a10rb21l")
    root = parse(p.svg(values=p.analyze(time=0.5), interactive=True, selected=14))
    assert [e for e in root.iter() if "selected" in classes(e)]
    turns = [e.get("data-move") for e in targets(root) if "turn" in classes(e)]
    assert len(turns) == 8 and all(t.startswith("c3") for t in turns)
    assert all(p.play(t) for t in turns)
    with pytest.raises(inarow.InputError, match="cell 36: not a cell of this board"):
        p.svg(interactive=True, selected=36)
