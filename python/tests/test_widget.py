"""The notebook's interactive board (``inarow.BoardWidget``), driven headless through its model as
the front drives it: the comm's messages (a click's ``move`` or ``cell``, the buttons) and its
trait updates go through ``Widget._handle_msg``, as a kernel delivers them. A whole game of every
game played by clicks on the library's interactive drawing against the engine, undo and redo,
the values' thread (a result for a position no longer shown dropped), bad clicks.

Skips without anywidget (``pip install anywidget``), unless INAROW_REQUIRE=1 (CI), which makes
that a failure."""

import os
import random
import re
import subprocess
import sys
import threading
import xml.etree.ElementTree as ET

import pytest

import inarow

if os.environ.get("INAROW_REQUIRE") == "1":
    import anywidget  # noqa: F401  (CI installs it: a missing one fails)
else:
    pytest.importorskip("anywidget", reason="anywidget is not installed (pip install anywidget)")

from inarow.widget import BoardWidget  # noqa: E402

NS = "{http://www.w3.org/2000/svg}"


def send(w: BoardWidget, **content) -> None:
    """A message of the front (a click, a button), as the kernel's comm delivers it."""
    w._handle_msg({"content": {"data": {"method": "custom", "content": content}}, "buffers": []})


def update(w: BoardWidget, **state) -> None:
    """A trait set by the front (the values box, the level, the engine's side)."""
    w._handle_msg({"content": {"data": {"method": "update", "state": state}}, "buffers": []})


def targets(svg: str) -> list:
    """What a click plays on the drawing, as the front reads it: each element of the class
    ``target``, as the message its click sends."""
    out = []
    for e in ET.fromstring(svg).iter():
        if "target" not in (e.get("class") or "").split():
            continue
        if e.get("data-move"):
            out.append({"type": "move", "move": e.get("data-move")})
        elif e.get("data-cell") is not None:
            out.append({"type": "cell", "cell": int(e.get("data-cell"))})
    return out


GAMES = ["connect4", "connect4:5x4", "popout", "cube", "qubic", "pentago"]


@pytest.mark.parametrize("game", GAMES)
def test_whole_game_by_clicks(game):
    """Red clicks at random on what the drawing offers; the engine answers for Yellow at once,
    until the game ends."""
    rng = random.Random(game)
    w = BoardWidget(game, values=False, engine="second", level="depth2", think=0.2)
    clicks = 0
    for _ in range(400):
        assert w.wait(60)
        if not w.ongoing:
            break
        assert w.position.to_move == "first"
        before = w.position
        offered = targets(w.svg)
        assert offered, w.svg
        content = rng.choice(offered)
        send(w, **content)
        clicks += 1
        assert w.error == "", (content, w.error)
        if content["type"] == "cell" and w.position == before:
            # Pentago: the cell chosen; the arrows now turn a quadrant.
            assert w.selected == content["cell"]
            turns = [t for t in targets(w.svg) if t["type"] == "move"]
            assert turns and all(before.play(t["move"]) for t in turns)
            send(w, **rng.choice(turns))
            assert w.error == ""
        assert w.position != before
    assert not w.ongoing and w.position.status != "ongoing"
    assert w.status in ("Red wins.", "Yellow wins.", "Draw."), w.status
    assert w.status == {"first wins": "Red wins.", "second wins": "Yellow wins.", "draw": "Draw."}[
        w.position.status
    ]
    assert clicks >= 3
    # The move string reads back the position shown; the drawing offers nothing more to play.
    assert inarow.Position(game, w.moves) == w.position
    assert targets(w.svg) == []
    send(w, type="engine")
    assert "over" in w.error
    w.undo()
    assert w.ongoing and w.can_redo


def test_undo_redo():
    w = BoardWidget("connect4", values=False)
    assert not w.can_undo and not w.can_redo
    for m in "445":
        send(w, type="move", move=m)
    assert w.moves == "445" and w.can_undo and not w.can_redo
    send(w, type="undo")
    send(w, type="undo")
    assert w.moves == "4" and w.can_redo
    # The next move taken back, played again: the rest of the line is kept.
    w.play("4")
    assert w.moves == "44" and w.can_redo
    w.redo()
    assert w.moves == "445" and not w.can_redo
    w.undo()
    w.play("3")  # another move replaces what was taken back
    assert w.moves == "443" and not w.can_redo
    with pytest.raises(inarow.InputError, match="nothing to redo"):
        w.redo()
    # Back to the start (the moves given too), then no further.
    given = BoardWidget("connect4", "4453", values=False)
    for _ in range(4):
        given.undo()
    assert given.moves == "" and not given.can_undo
    with pytest.raises(inarow.InputError, match="nothing to undo"):
        given.undo()
    send(given, type="undo")
    assert "nothing to undo" in given.error and given.moves == ""
    send(given, type="redo")
    assert given.error == "" and given.moves == "4"
    # Typed moves replace the line.
    send(given, type="load", moves="443")
    assert given.moves == "443" and given.can_undo and not given.can_redo


def test_values_arrive_from_the_thread():
    w = BoardWidget("connect4", "4453")
    assert w.wait(60)
    values = w.analysis
    expected = inarow.Position("connect4", "4453").analyze()
    assert [(v.move, v.value, v.exact) for v in values] == [(v.move, v.value, v.exact) for v in expected]
    assert w.note == "Values: exact."
    assert w.status == f"Red to move: Yellow wins with best play (best {expected[0].move})."
    drawn = {g.get("data-move"): g.get("data-value") for g in ET.fromstring(w.svg).iter(NS + "g")
             if "chip" in (g.get("class") or "").split()}
    assert drawn == {v.move: str(v.value) for v in expected}
    # Values off: the drawing without them; on again: back at once (kept).
    update(w, values=False)
    assert "chip" not in w.svg and w.note == ""
    update(w, values=True)
    assert "chip" in w.svg and w.note == "Values: exact."
    # Each position's values, after undo and redo too.
    w.play("3")
    assert w.wait(60) and w.analysis[0].move in w.position.legal_moves()
    w.undo()
    assert w.analysis == values and "chip" in w.svg


def test_a_stale_value_is_dropped():
    w = BoardWidget("connect4", "4453", values=False)
    started, release = threading.Event(), threading.Event()
    seen = []

    def slow(position, time):
        seen.append(position.moves)
        if position.moves == "4453":
            started.set()
            assert release.wait(30)
        return position.analyze(time=time)

    w._analyze = slow
    w.values = True  # the values of 4453 asked for: the thread blocks in them
    assert started.wait(30)
    assert w.note == "Values: computing…"
    w.play("3")  # the position changes meanwhile
    release.set()
    assert w.wait(60)
    assert w._dropped == 1
    assert seen == ["4453", "44533"]
    assert w.moves == "44533" and w.analysis is not None
    assert {v.move for v in w.analysis} == set(w.position.legal_moves())
    w.undo()  # 4453's values never arrived: asked again
    assert w.analysis is None and w.wait(60) and w.analysis is not None


def test_a_stale_engine_move_is_dropped():
    w = BoardWidget("connect4", values=False)
    started, release = threading.Event(), threading.Event()

    class Slow:
        level = "best"

        def choose(self, position, think=None):
            started.set()
            assert release.wait(30)
            return inarow.Solver("connect4").choose(position, think=0.1)

    w._solver = Slow()
    send(w, type="engine")
    assert started.wait(30) and w.thinking
    w.play("1")
    release.set()
    assert w.wait(60)
    assert w.moves == "1" and not w.thinking and w._dropped == 1
    # Without a change meanwhile, it plays: the engine's move at the level chosen.
    update(w, level="random")
    assert w.level == "random" and w.error == ""
    assert w.engine_move() in inarow.Position("connect4", "1").legal_moves()
    assert len(w.moves) == 2


def test_engine_side_replies():
    w = BoardWidget("connect4", values=False, level="best", think=0.2)
    update(w, engine="first")  # Red's turn: the engine moves at once
    assert w.wait(60) and w.moves == "4"  # the book's move
    w.play("4")
    assert w.wait(60) and len(w.moves) == 3
    # After an undo the engine waits (a move to redo): it replies at the end of the line only.
    w.undo()
    w.undo()
    assert w.wait(60) and w.moves == "4"
    update(w, engine="")
    assert w.engine is None


def test_bad_clicks_change_nothing():
    w = BoardWidget("connect4", "444444", values=False)
    svg = w.svg
    for content, message in [
        ({"type": "move", "move": "4"}, "column 4 is full"),
        ({"type": "move", "move": "9"}, "9"),
        ({"type": "cell", "cell": 3}, "no legal drop in this column"),
        ({"type": "cell", "cell": 99}, "cell 99: not a cell of this board (0 to 41)"),
        ({"type": "nonsense"}, "unknown message"),
        ({"type": "cell", "cell": "x"}, "invalid literal"),
    ]:
        send(w, **content)
        assert message in w.error, (content, w.error)
        assert w.moves == "444444" and w.svg == svg
    with pytest.raises(inarow.MoveError, match="column 4 is full"):
        w.play("4")
    # A click on a column's occupied cell drops in that column; the error goes.
    send(w, type="cell", cell=2)
    assert w.moves == "4444443" and w.error == ""
    # A bad level is refused; the level stays.
    update(w, level="nonsense")
    assert w.level == "best" and w.error
    with pytest.raises(Exception):
        w.engine = "both"
    # A taken Qubic cell; a finished game.
    q = BoardWidget("qubic", "a11", values=False)
    send(q, type="cell", cell=0)
    assert "a11: no legal move places a stone there" in q.error and q.moves == "a11"
    over = BoardWidget("connect4", "1212121", values=False)
    assert not over.ongoing and over.status == "Red wins."
    send(over, type="cell", cell=5)
    assert "the game is over" in over.error and over.moves == "1212121"
    with pytest.raises(inarow.MoveError):
        BoardWidget("connect4", "4444444")


def test_pentago_two_steps():
    w = BoardWidget("pentago", values=False)
    send(w, type="cell", cell=7)
    assert w.selected == 7 and w.moves == "" and "b2 chosen" in w.help
    root = ET.fromstring(w.svg)
    assert any("selected" in (e.get("class") or "") for e in root.iter())
    send(w, type="cell", cell=7)  # again: let go
    assert w.selected == -1
    send(w, type="cell", cell=7)
    send(w, type="move", move="b20r")
    assert w.moves == "b20r" and w.selected == -1
    # A placement that makes five needs no turn: one click plays it.
    five = BoardWidget("pentago", "b20le50ld12lf32rc52ld52lf50la51lc10la51ra12le41la31rb52rd22le20ra60re61lf62r", values=False)
    once = [m for m in five.position.board.moves if m.turned is None]
    assert once
    send(five, type="cell", cell=once[0].placed)
    assert five.error == "" and five.moves.endswith(once[0].move) and not five.ongoing


def test_widget_model_state():
    """What the front reads: the traits synced, the module's script and style."""
    w = BoardWidget("popout", "44")
    state = w.get_state()
    for name in ("svg", "moves", "status", "note", "error", "help", "can_undo", "can_redo",
                 "values", "engine", "level", "levels", "thinking", "ongoing", "selected"):
        assert name in state, name
    assert state["game"] == "popout:7x6" and state["moves"] == "44"
    assert "export default" in w._esm and ".inarow-widget" in w._css
    assert "pop" in w.help
    assert {"type": "move", "move": "p4"} in targets(w.svg)
    w.wait(60)


def test_without_anywidget():
    """Where anywidget is missing: ``import inarow`` works and the board says what to install."""
    code = (
        "import sys; sys.modules['anywidget'] = None\n"
        "import inarow\n"
        "assert 'BoardWidget' in inarow.__all__\n"
        "try:\n"
        "    inarow.BoardWidget('connect4')\n"
        "except ImportError as e:\n"
        "    print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "inarow.BoardWidget needs anywidget: pip install anywidget"


def test_estimates_are_said_in_words():
    # Pentago's empty board: no exact value within half a second, so the headline is an
    # estimate in a player's words on the page's one scale, never raw engine units.
    w = BoardWidget("pentago", "", time=0.5)
    assert w.wait(60)
    assert not all(v.exact for v in w.analysis)
    assert re.fullmatch(
        r"Red to move: (about even|likely win for (Red|Yellow)|(Red|Yellow) is ahead)"
        r" \(estimate; best so far \S+\)\.",
        w.status,
    ), w.status
