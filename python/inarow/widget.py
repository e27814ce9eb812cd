"""An interactive board for Jupyter (JupyterLab, Notebook, VS Code, Colab): ``inarow.BoardWidget``.

It needs anywidget (``pip install anywidget``, or the extra ``pip install "./python[widget]"``),
which runs in every notebook front without a server extension. The board is the library's own
drawing (``Position.svg``, the web page's board); a click plays the move there, and the
widget's buttons undo, redo, show every move's value (computed in a background thread: the
notebook never waits) and ask the engine for a move. Everything a click does goes through the
same Python methods (``play``, ``undo``, ``redo``, ``engine_move``, ``select``), which a script
calls as well::

    >>> from inarow import BoardWidget
    >>> w = BoardWidget("connect4", "4453")
    >>> w.play("3"); w.undo(); w.redo(); w.moves
    '44533'
"""

import math
import threading
from time import monotonic
from typing import Any, Dict, List, Optional, Sequence, Tuple

from ._inarow import Error, InputError, MoveError, MoveValue, Position, Solver

try:
    import anywidget
    import traitlets
except ImportError:  # pragma: no cover - exercised where anywidget is not installed
    anywidget = None

__all__ = ["BoardWidget"]

MISSING = "inarow.BoardWidget needs anywidget: pip install anywidget"

# The values' time caps, in turn, in seconds: the first values at once, then better ones, until
# every value is exact or the last cap is spent (Position.analyze(time=...)).
TIME_CAPS = (0.3, 3.0)
# Analyses kept per widget (undo and redo show them again at once).
CACHE = 256
NAMES = {"first": "Red", "second": "Yellow"}
LEVELS = ("best", "alphabeta", "mcts", "depth4", "depth2", "random")

_ESM = r"""
const NAMES = { first: "Red", second: "Yellow" };

function el(tag, attrs = {}, text = "") {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text) e.textContent = text;
  return e;
}

function render({ model, el: root }) {
  root.classList.add("inarow-widget");
  const board = el("div", { class: "iw-board" });
  const status = el("p", { class: "iw-status" });
  const note = el("p", { class: "iw-note" });
  const error = el("p", { class: "iw-error" });
  const bar = el("div", { class: "iw-bar" });
  const undo = el("button", { class: "iw-undo", title: "Take back the last move" }, "⟲ Undo");
  const redo = el("button", { class: "iw-redo", title: "Play the move taken back again" }, "Redo ⟳");
  const valuesLabel = el("label", { class: "iw-values" });
  const values = el("input", { type: "checkbox" });
  valuesLabel.append(values, " values");
  const engine = el("button", { class: "iw-engine", title: "The engine plays a move at the level chosen" }, "Engine move");
  const levelLabel = el("label", {}, "level ");
  const level = el("select", { class: "iw-level" });
  for (const l of model.get("levels")) level.append(el("option", { value: l }, l));
  levelLabel.append(level);
  const sideLabel = el("label", {}, "engine plays ");
  const side = el("select", { class: "iw-side" });
  side.append(el("option", { value: "" }, "neither"), el("option", { value: "first" }, "Red"),
              el("option", { value: "second" }, "Yellow"));
  sideLabel.append(side);
  bar.append(undo, redo, valuesLabel);
  const bar2 = el("div", { class: "iw-bar" });
  bar2.append(engine, levelLabel, sideLabel);
  const line = el("div", { class: "iw-line" });
  const moves = el("input", { type: "text", class: "iw-moves", spellcheck: "false",
                              title: "The moves: copy them, or type moves and press Enter" });
  const copy = el("button", { class: "iw-copy", title: "Copy the moves" }, "Copy");
  line.append(el("span", { class: "iw-label" }, "moves"), moves, copy);
  const help = el("p", { class: "iw-help" });
  root.append(board, status, note, error, bar, bar2, line, help);

  const send = (msg) => model.send(msg);
  board.addEventListener("click", (ev) => {
    const t = ev.target.closest && ev.target.closest(".target");
    if (!t || !board.contains(t)) {
      // Not a place that plays (a full column, a stone, the cube's levels): Python says why.
      const c = ev.target.closest && ev.target.closest("[data-cell]");
      if (c && board.contains(c)) send({ type: "cell", cell: Number(c.dataset.cell) });
      return;
    }
    if (t.dataset.move) return send({ type: "move", move: t.dataset.move });
    if (t.dataset.cell !== undefined) send({ type: "cell", cell: Number(t.dataset.cell) });
  });
  // The cube: hovering a column marks the cell its drop fills on the levels (as the page).
  board.addEventListener("mouseover", (ev) => {
    const col = ev.target.closest && ev.target.closest(".col.target[data-placed]");
    for (const r of board.querySelectorAll(".landing"))
      r.classList.toggle("on", Boolean(col) && r.dataset.landing === col.dataset.placed);
  });
  undo.addEventListener("click", () => send({ type: "undo" }));
  redo.addEventListener("click", () => send({ type: "redo" }));
  engine.addEventListener("click", () => send({ type: "engine" }));
  values.addEventListener("change", () => { model.set("values", values.checked); model.save_changes(); });
  level.addEventListener("change", () => { model.set("level", level.value); model.save_changes(); });
  side.addEventListener("change", () => { model.set("engine", side.value); model.save_changes(); });
  moves.addEventListener("keydown", (ev) => {
    if (ev.key === "Enter") send({ type: "load", moves: moves.value });
  });
  copy.addEventListener("click", async () => {
    moves.select();
    try {
      await navigator.clipboard.writeText(moves.value);
    } catch {
      document.execCommand && document.execCommand("copy"); // an iframe without the clipboard API
    }
    copy.textContent = "Copied";
    setTimeout(() => (copy.textContent = "Copy"), 1200);
  });

  const show = () => {
    board.innerHTML = model.get("svg");
    status.textContent = model.get("status");
    note.textContent = model.get("note");
    error.textContent = model.get("error");
    undo.disabled = !model.get("can_undo");
    redo.disabled = !model.get("can_redo");
    values.checked = model.get("values");
    level.value = model.get("level");
    side.value = model.get("engine") || "";
    const busy = model.get("thinking");
    engine.disabled = busy || !model.get("ongoing");
    engine.textContent = busy ? "Engine thinking…" : "Engine move";
    if (document.activeElement !== moves) moves.value = model.get("moves");
    help.textContent = model.get("help");
  };
  const names = ["svg", "status", "note", "error", "can_undo", "can_redo", "values", "level",
                 "engine", "thinking", "ongoing", "moves", "help"];
  for (const n of names) model.on(`change:${n}`, show);
  show();
  return () => { for (const n of names) model.off(`change:${n}`, show); };
}

export default { render };
"""

# The web page's hover marks for the library's interactive board (its classes: web/index.html).
_CSS = r"""
.inarow-widget { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", Roboto, sans-serif;
  color: #1d2430; background: #fff; border: 1px solid #e1e4e8; border-radius: 8px;
  padding: 10px 12px; display: inline-block; max-width: 100%; box-sizing: border-box; }
.inarow-widget .iw-board svg { display: block; height: auto; max-width: 100%; user-select: none;
  -webkit-user-select: none; overflow: visible; }
.inarow-widget .iw-board { margin-bottom: 6px; }
.inarow-widget p { margin: 4px 0; }
.inarow-widget .iw-status { font-weight: 600; font-size: 15px; }
.inarow-widget .iw-note { color: #5b6472; }
.inarow-widget .iw-error { color: #b3261e; }
.inarow-widget .iw-help { color: #5b6472; font-size: 12.5px; }
.inarow-widget p:empty { display: none; }
.inarow-widget .iw-bar, .inarow-widget .iw-line { display: flex; flex-wrap: wrap; gap: 6px 10px;
  align-items: center; margin: 6px 0; }
.inarow-widget label { display: inline-flex; align-items: center; gap: 4px; color: #5b6472; }
.inarow-widget button { font: inherit; padding: 2px 10px; border: 1px solid #c4c9d1;
  border-radius: 6px; background: #fff; color: #1d2430; cursor: pointer; }
.inarow-widget button:hover:not(:disabled) { background: #eef2f7; }
.inarow-widget button:disabled { color: #a4abb5; cursor: default; }
.inarow-widget select, .inarow-widget input[type=text] { font: inherit; padding: 1px 4px;
  border: 1px solid #c4c9d1; border-radius: 5px; background: #fff; color: #1d2430; }
.inarow-widget .iw-moves { font-family: ui-monospace, "DejaVu Sans Mono", monospace;
  width: 24em; max-width: 100%; }
.inarow-widget .iw-label { color: #5b6472; }
.inarow-widget .ghost { opacity: 0; pointer-events: none; }
.inarow-widget .target { cursor: pointer; }
.inarow-widget .target:hover .ghost { opacity: .5; }
.inarow-widget .ghost.on { opacity: .8; }
.inarow-widget .target:hover .hit { fill: rgba(40, 80, 140, .07); }
.inarow-widget .popring { fill: none; stroke: #1d2430; stroke-width: 2; stroke-dasharray: 4 3; }
.inarow-widget .pop:hover .popring { stroke-width: 3.5; }
.inarow-widget .loose.target:hover .button { fill: #eef2f7; }
.inarow-widget .landing { fill: none; stroke: #1d2430; stroke-width: 2.5; opacity: 0; }
.inarow-widget .landing.on { opacity: 1; }
.inarow-widget .turn.target:hover .bg { fill: #e4ebf4; }
.inarow-widget .chip, .inarow-widget .winline { pointer-events: none; }
.inarow-widget .dim { opacity: .3; }
"""


def _words(status: str) -> str:
    """A position's status in words: ``Red wins.``, ``Draw.``."""
    for side, name in NAMES.items():
        status = status.replace(side, name)
    return status[:1].upper() + status[1:] + "."


def _lean(value: MoveValue, game: str) -> Optional[float]:
    """An estimate on the page's one scale: the mover's share, 0 to 100 (50: even)."""
    if value.kind == "win rate":
        return 100.0 * float(value.value)
    if value.kind == "heuristic":
        unit = 1000.0 if game.startswith("pentago") else 64.0
        return 50.0 + 50.0 * math.tanh(float(value.value) / unit)
    return None


def _verdict(values: List[MoveValue], game: str, mover: str, other: str) -> str:
    """The position's value in words, as the web page says it: a proven value whenever one
    is known (a proven win among the moves, or every move proven: the best), else the best
    estimate in words, never below a proven draw."""
    proven = [v for v in values if v.kind in ("score", "outcome")]
    win = next((v for v in proven if v.value > 0), None)
    if win is not None or (values and len(proven) == len(values)):
        best = win or max(proven, key=lambda v: v.value)
        if best.value > 0:
            return f"{mover} wins with best play (best {best.move})"
        if best.value < 0:
            return f"{other} wins with best play (best {best.move})"
        return f"a draw with best play (best {best.move})"
    leans = [(p, v) for v in values if (p := _lean(v, game)) is not None]
    if not leans:
        return "not known yet"
    p, best = max(leans, key=lambda pv: pv[0])
    if any(v.value == 0 for v in proven):
        p = max(p, 50.0)
    side = mover if p >= 50 else other
    d = abs(p - 50)
    words = "about even" if d <= 5 else f"likely win for {side}" if d >= 30 else f"{side} is ahead"
    return f"{words} (estimate; best so far {best.move})"


if anywidget is None:

    class BoardWidget:  # type: ignore[no-redef]
        """An interactive board for Jupyter: needs anywidget (``pip install anywidget``)."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise ImportError(MISSING)

else:

    class BoardWidget(anywidget.AnyWidget):  # type: ignore[no-redef]
        """An interactive board in a notebook: the library's drawing of a position of ``game``
        after ``moves`` (any notation ``Position`` reads); a click plays the move there.

        - Connect Four and PopOut: a click on a column drops a stone; PopOut pops the side to
          move's own bottom stone where it is ringed with a dashed line (a click on it), and a
          full board's draw claim is the button under it. The cube: a click on one of the 16
          columns seen from above. Qubic: a click on one of the 64 cells. Pentago: a click on a
          cell chooses it (a second click lets it go), then a click on one of the eight arrows
          turns a quadrant and plays the move (a placement that makes five plays at once).
        - ``values``: every legal move's value drawn where it plays (``Position.analyze``, in a
          background thread, first within 0.3 s then within ``time`` seconds, until every value
          is exact); a result for a position no longer shown is dropped.
        - ``engine``: the side the engine plays at once (``"first"`` or ``"second"``, None:
          neither); ``engine_move()`` (the button) plays one move for the side to move.
          ``level``: how it plays (``Solver(level=...)``: ``best``, ``alphabeta``, ``mcts``,
          ``depthN``, ``random``), thinking ``think`` seconds.
        - Undo and redo: the moves taken back are kept until another move replaces them (the
          same move again goes on along them).

        The methods a click calls are the ones a script calls: ``play(move)``, ``undo()``,
        ``redo()``, ``engine_move()``, ``select(cell)``, ``load(moves)``; ``wait()`` waits for
        the values and the engine. ``position`` is the ``Position`` shown, ``moves`` its move
        string, ``analysis`` its values (None until they come).
        """

        _esm = _ESM
        _css = _CSS

        game = traitlets.Unicode(read_only=True).tag(sync=True)
        moves = traitlets.Unicode(read_only=True).tag(sync=True)
        svg = traitlets.Unicode(read_only=True).tag(sync=True)
        status = traitlets.Unicode(read_only=True).tag(sync=True)
        note = traitlets.Unicode(read_only=True).tag(sync=True)
        error = traitlets.Unicode(read_only=True).tag(sync=True)
        help = traitlets.Unicode(read_only=True).tag(sync=True)
        can_undo = traitlets.Bool(read_only=True).tag(sync=True)
        can_redo = traitlets.Bool(read_only=True).tag(sync=True)
        ongoing = traitlets.Bool(read_only=True).tag(sync=True)
        thinking = traitlets.Bool(read_only=True).tag(sync=True)
        selected = traitlets.Int(-1, read_only=True).tag(sync=True)
        levels = traitlets.List(traitlets.Unicode(), read_only=True).tag(sync=True)
        values = traitlets.Bool(True).tag(sync=True)
        engine = traitlets.Unicode(None, allow_none=True).tag(sync=True)
        level = traitlets.Unicode("best").tag(sync=True)

        def __init__(
            self,
            game: str = "connect4",
            moves: Optional[str] = "",
            values: bool = True,
            engine: Optional[str] = None,
            level: str = "best",
            think: float = 1.0,
            time: float = TIME_CAPS[-1],
        ) -> None:
            given = Position(game, moves or "")
            spec, origin, played = given.__reduce__()[1]
            line = [Position(spec, origin or "")]
            for m in played:
                line.append(line[-1].play(m))
            self._lock = threading.RLock()
            self._line: List[Position] = line
            self._at = len(line) - 1
            self._generation = 0
            self._analyses: Dict[Position, Tuple[List[MoveValue], bool]] = {}
            self._want: Optional[Tuple[int, Position]] = None
            self._worker: Optional[threading.Thread] = None
            self._engine_thread: Optional[threading.Thread] = None
            self._dropped = 0
            self._cell: Optional[int] = None
            self._think = think
            self._caps = tuple(c for c in TIME_CAPS if c < time) + (time,)
            self._solver = Solver(spec, table_mb=32, level=level)
            super().__init__()
            levels = list(LEVELS) if level in LEVELS else [level, *LEVELS]
            self.set_trait("game", spec)
            self.set_trait("levels", levels)
            with self.hold_trait_notifications():
                self.level = level
                self.values = values
                self.engine = engine
            self.on_msg(self._on_message)
            self._changed(auto=True)

        def __repr__(self) -> str:
            return f"BoardWidget({self.game!r}, {self.moves!r})"

        # ---- What a script calls (and a click, through _on_message) ----------------------

        @property
        def position(self) -> Position:
            """The position shown."""
            return self._line[self._at]

        @property
        def analysis(self) -> Optional[List[MoveValue]]:
            """The values of the position shown, best first (None until the first come)."""
            found = self._analyses.get(self.position)
            return None if found is None else found[0]

        def play(self, move: str) -> None:
            """Plays ``move`` (the game's notation); an illegal move raises ``inarow.MoveError``
            and changes nothing. Moves taken back are kept if it is the next of them."""
            with self._lock:
                after = self.position.play(move)  # raises before any change
                nxt = self._line[self._at + 1] if self._at + 1 < len(self._line) else None
                if nxt is None or nxt != after:
                    del self._line[self._at + 1 :]
                    self._line.append(after)
                self._at += 1
                self._cell = None
                self._changed(auto=True)

        def undo(self) -> None:
            """Takes back the last move (kept for ``redo``); raises ``inarow.InputError`` at the
            start."""
            with self._lock:
                if self._at == 0:
                    raise InputError("nothing to undo: this is the start")
                self._at -= 1
                self._cell = None
                self._changed(auto=False)

        def redo(self) -> None:
            """Plays again the last move taken back; raises ``inarow.InputError`` if none is."""
            with self._lock:
                if self._at + 1 >= len(self._line):
                    raise InputError("nothing to redo")
                self._at += 1
                self._cell = None
                self._changed(auto=False)

        def load(self, moves: str) -> None:
            """Shows the position after ``moves`` from the start (any notation ``Position``
            reads; the undo line starts again); a bad string raises and changes nothing."""
            with self._lock:
                start = self._line[0]
                given = Position(start.game, moves or "")
                spec, origin, played = given.__reduce__()[1]
                line = [Position(spec, origin or "")]
                for m in played:
                    line.append(line[-1].play(m))
                self._line = line
                self._at = len(line) - 1
                self._cell = None
                self._changed(auto=True)

        def select(self, cell: int) -> None:
            """A click on cell ``cell`` (its number, ``Board.cells``): on Pentago, chooses it
            before its turn (again: lets it go), or plays a placement that needs no turn;
            elsewhere plays the move that places a stone there (a column's drop). Raises
            ``inarow.InputError`` where no move does, and changes nothing."""
            with self._lock:
                pos = self.position
                board = pos.board
                if not 0 <= cell < len(board.cells):
                    raise InputError(f"cell {cell}: not a cell of this board (0 to {len(board.cells) - 1})")
                name = board.cells[cell].name
                if pos.status != "ongoing":
                    raise InputError(f"the game is over ({_words(pos.status)[:-1].lower()})")
                here = [m for m in board.moves if m.placed == cell]
                if board.gravity and not here:
                    # A drop lands at the bottom of its column: the move that fills this column.
                    x, y, z = board.cells[cell].at
                    same = (lambda a: a[:2] == (x, y)) if board.size[2] > 1 else (lambda a: a[0] == x)
                    here = [m for m in board.moves if m.placed is not None and same(board.cells[m.placed].at)]
                if not here and board.gravity:
                    raise InputError(f"{name}: no legal drop in this column")
                if not here:
                    raise InputError(f"{name}: no legal move places a stone there")
                turning = any(m.turned is not None for m in board.moves)
                once = [m for m in here if m.turned is None]
                if not turning or once:
                    self.play((once or here)[0].move)
                    return
                self._cell = None if self._cell == cell else cell
                self._refresh()

        def engine_move(self) -> Optional[str]:
            """The engine plays a move for the side to move at ``level`` (``think`` seconds) and
            returns it; None if the position changed while it thought (its move is dropped).
            Raises ``inarow.InputError`` where the game is over."""
            with self._lock:
                pos, generation = self.position, self._generation
                if pos.status != "ongoing":
                    raise InputError(f"the game is over ({_words(pos.status)[:-1].lower()})")
                solver = self._solver
            choice = solver.choose(pos, think=self._think)  # the GIL released
            with self._lock:
                if generation != self._generation:
                    self._dropped += 1
                    return None
                self.play(choice.move)
                return choice.move

        def wait(self, timeout: Optional[float] = None) -> bool:
            """Waits for the values and the engine's move under way (``timeout`` seconds at
            most); True if nothing is left running."""
            deadline = None if timeout is None else monotonic() + timeout
            while True:
                running = [t for t in (self._engine_thread, self._worker) if t is not None and t.is_alive()]
                if not running:
                    return True
                if deadline is not None and monotonic() >= deadline:
                    return False
                running[0].join(None if deadline is None else max(0.0, deadline - monotonic()))

        # ---- The front's messages -------------------------------------------------------

        def _on_message(self, _widget: Any, content: Dict[str, Any], _buffers: Sequence[Any]) -> None:
            """A click or a button of the front: the same methods, an error shown, not raised."""
            kind = content.get("type") if isinstance(content, dict) else None
            try:
                if kind == "move":
                    self.play(str(content.get("move")))
                elif kind == "cell":
                    self.select(int(content.get("cell", -1)))
                elif kind == "undo":
                    self.undo()
                elif kind == "redo":
                    self.redo()
                elif kind == "engine":
                    self._engine_async()
                elif kind == "load":
                    self.load(str(content.get("moves", "")))
                else:
                    raise InputError(f"unknown message {content!r}")
            except (Error, ValueError, TypeError) as e:  # a click that plays nothing: said
                self.set_trait("error", str(e))

        @traitlets.observe("values")
        def _values_changed(self, _change: Dict[str, Any]) -> None:
            if hasattr(self, "_line"):
                self._refresh()
                self._ask_values()

        @traitlets.observe("level")
        def _level_changed(self, change: Dict[str, Any]) -> None:
            if not hasattr(self, "_line") or change["new"] == self._solver.level:
                return
            try:
                self._solver = Solver(self.game, table_mb=32, level=change["new"])
            except Error as e:
                self.set_trait("error", str(e))
                self.level = change["old"]
                return
            self.set_trait("error", "")

        @traitlets.validate("engine")
        def _valid_engine(self, proposal: Dict[str, Any]) -> Optional[str]:
            side = proposal["value"] or None
            if side not in (None, "first", "second"):
                raise traitlets.TraitError(f"engine {side!r}: first, second or None")
            return side

        @traitlets.observe("engine")
        def _engine_changed(self, _change: Dict[str, Any]) -> None:
            if hasattr(self, "_line"):
                self._maybe_reply()

        # ---- Inside --------------------------------------------------------------------

        def _changed(self, auto: bool) -> None:
            """After the position changed: a new generation (older results are stale), the
            picture, the values asked for and the engine's reply."""
            with self._lock:
                self._generation += 1
                self.set_trait("error", "")
                self._refresh()
                self._ask_values()
                if auto:
                    self._maybe_reply()

        def _maybe_reply(self) -> None:
            """The engine's side to move at the end of the line: its move, in a thread."""
            pos = self.position
            if (
                self.engine is not None
                and pos.status == "ongoing"
                and pos.to_move == self.engine
                and self._at + 1 == len(self._line)
            ):
                self._engine_async()

        def _engine_async(self) -> None:
            with self._lock:
                if self._engine_thread is not None and self._engine_thread.is_alive():
                    return
                if self.position.status != "ongoing":
                    self.set_trait("error", "the game is over")
                    return
                self.set_trait("thinking", True)
                self._engine_thread = threading.Thread(target=self._engine_run, daemon=True)
                self._engine_thread.start()

        def _engine_run(self) -> None:
            try:
                self.engine_move()
            except Error as e:
                self.set_trait("error", str(e))
            finally:
                with self._lock:
                    self.set_trait("thinking", False)
                    self._engine_thread = None if self._engine_thread is threading.current_thread() else self._engine_thread
                    # A move played while it thought may be the engine's turn again.
                    self._maybe_reply()

        def _analyze(self, position: Position, time: float) -> List[MoveValue]:
            """The values of ``position`` within ``time`` seconds (the worker's one call)."""
            return position.analyze(time=time)

        def _ask_values(self) -> None:
            with self._lock:
                pos = self.position
                done = self._analyses.get(pos)
                if not self.values or pos.status != "ongoing" or (done is not None and done[1]):
                    self._want = None
                    return
                self._want = (self._generation, pos)
                if self._worker is None or not self._worker.is_alive():
                    self._worker = threading.Thread(target=self._work, daemon=True)
                    self._worker.start()

        def _work(self) -> None:
            """The values thread: the latest position asked for, each cap in turn; a result for
            a position no longer shown is dropped."""
            while True:
                with self._lock:
                    if self._want is None:
                        self._worker = None
                        return
                    generation, pos = self._want
                    self._want = None
                for cap in self._caps:
                    try:
                        result = self._analyze(pos, cap)
                    except Error as e:
                        self.set_trait("error", str(e))
                        break
                    exact = all(v.exact for v in result)
                    with self._lock:
                        if generation != self._generation:
                            self._dropped += 1
                            break
                        if len(self._analyses) >= CACHE:
                            self._analyses.pop(next(iter(self._analyses)))
                        self._analyses[pos] = (result, exact or cap == self._caps[-1])
                        self._refresh()
                        if exact or self._want is not None:
                            break

        def _refresh(self) -> None:
            """The synced state from the position shown and its values."""
            with self._lock:
                pos = self.position
                found = self._analyses.get(pos)
                values = found[0] if (self.values and found is not None) else None
                ongoing = pos.status == "ongoing"
                cell = self._cell if ongoing else None
                picture = pos.svg(values=values, interactive=ongoing, selected=cell)
                mover = NAMES[pos.to_move]
                other = NAMES["second" if pos.to_move == "first" else "first"]
                if not ongoing:
                    status = _words(pos.status)
                elif values:
                    status = f"{mover} to move: {_verdict(values, pos.game, mover, other)}."
                else:
                    status = f"{mover} to move."
                if not ongoing or not self.values:
                    note = ""
                elif found is None:
                    note = "Values: computing…"
                elif found[1] or all(v.exact for v in found[0]):
                    note = "Values: exact." if all(v.exact for v in found[0]) else "Values: estimates (some not exact within the time given)."
                else:
                    note = "Values: estimates so far; exact ones coming…"
                board = pos.board
                turning = any(m.turned is not None for m in board.moves)
                if not ongoing:
                    help_text = "The game is over: undo, or type moves and press Enter."
                elif turning and cell is not None:
                    help_text = f"Cell {board.cells[cell].name} chosen: click an arrow to turn a quadrant (the cell again lets it go)."
                elif turning:
                    help_text = "Click a cell to place a stone, then an arrow to turn a quadrant."
                elif any(m.popped is not None for m in board.moves):
                    help_text = "Click a column to drop a stone; click your own bottom stone (ringed) to pop it."
                elif board.gravity and board.size[2] > 1:
                    help_text = "Click one of the 16 columns (seen from above) to drop a stone."
                elif board.gravity:
                    help_text = "Click a column to drop a stone."
                else:
                    help_text = "Click a cell to place a stone."
                with self.hold_trait_notifications():
                    self.set_trait("svg", str(picture))
                    self.set_trait("moves", pos.moves)
                    self.set_trait("status", status)
                    self.set_trait("note", note)
                    self.set_trait("help", help_text)
                    self.set_trait("can_undo", self._at > 0)
                    self.set_trait("can_redo", self._at + 1 < len(self._line))
                    self.set_trait("ongoing", ongoing)
                    self.set_trait("selected", -1 if cell is None else cell)
