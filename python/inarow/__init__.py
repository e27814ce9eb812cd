"""inarow: solve, analyze and play k-in-a-row games from Python.

Connect Four on any board (``"connect4"``, ``"connect4:WxH"``, ``"connect4:WxH:kK"``),
PopOut (``"popout"``, ``"popout:WxH"``), Connect Four 3D (``"cube"``), Qubic (``"qubic"``)
and Pentago (``"pentago"``), with the engine of the ``inarow`` command line::

    >>> import inarow
    >>> p = inarow.Position("connect4", "4453")
    >>> p.to_move, p.status, p.legal_moves()
    ('first', 'ongoing', ['1', '2', '3', '4', '5', '6', '7'])
    >>> inarow.Position("connect4", "").solve().score     # from the built-in book
    1

- :class:`Position`: a position as played (``game``, ``moves``, ``to_move``, ``status``,
  ``legal_moves()``, ``play()``, ``board``), with ``solve()``, ``analyze()`` and
  ``best_move()``.
- :class:`Solver`: a solver that keeps its table across calls.
- :func:`solve_many`: many positions in one call, on several threads.
- :func:`clear_tables`: frees the tables kept between calls of the above.
- :mod:`inarow.observations`: positions from OpenSpiel's and PettingZoo's Connect Four
  observations (:func:`from_openspiel`, :func:`from_pettingzoo`, :func:`from_grid`).
- :class:`BoardWidget`: an interactive board in a notebook (needs anywidget; imported when
  first used, from :mod:`inarow.widget`).
- :class:`Error` (a ``ValueError``) and its subclasses, with the command line's messages.

Long calls release the GIL and stop at Ctrl-C (``KeyboardInterrupt``).
"""

from ._inarow import (
    Block,
    Board,
    Cell,
    Error,
    FileError,
    InputError,
    InternalError,
    Line,
    MemoryLimitError,
    Move,
    MoveError,
    MoveValue,
    Position,
    SearchError,
    Solution,
    Solver,
    SpecError,
    UnsupportedError,
    __version__,
    clear_tables,
    solve_many,
)
from ._svg import Svg
from .observations import from_grid, from_move, from_openspiel, from_pettingzoo, to_move
from .training import Dataset, dataset


def __getattr__(name: str):
    # The notebook's board imports anywidget (and with it ipywidgets) only when first asked for.
    if name == "BoardWidget":
        from .widget import BoardWidget

        return BoardWidget
    raise AttributeError(f"module 'inarow' has no attribute {name!r}")


__all__ = [
    "Block",
    "Board",
    "BoardWidget",
    "Cell",
    "Dataset",
    "Error",
    "FileError",
    "InputError",
    "InternalError",
    "Line",
    "MemoryLimitError",
    "Move",
    "MoveError",
    "MoveValue",
    "Position",
    "SearchError",
    "Solution",
    "Solver",
    "SpecError",
    "Svg",
    "UnsupportedError",
    "__version__",
    "clear_tables",
    "dataset",
    "from_grid",
    "from_move",
    "from_openspiel",
    "from_pettingzoo",
    "solve_many",
    "to_move",
]
