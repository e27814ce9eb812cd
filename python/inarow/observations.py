"""Connect Four positions from the board arrays of agent frameworks.

Reinforcement-learning frameworks hand an agent the board, not the moves that led to it.
These functions turn such an array into a :class:`inarow.Position` (for the value of a
board, as in Connect Four the board and the side to move decide it). Neither framework is
imported: the arrays may be NumPy arrays or nested lists, and only their documented layouts
are read.

- :func:`from_openspiel`: OpenSpiel's ``connect_four`` observation tensor, shape
  ``[3, rows, columns]`` (or flat), row 0 at the bottom. By default (``egocentric=False``)
  plane 0 holds the first player's stones (``x``), plane 1 the second's (``o``) and plane 2
  the empty cells. With the game parameter ``egocentric_obs_tensor=true`` (and in OpenSpiel
  releases before it had that parameter) the planes are relative to the observer: plane 0
  the opponent's stones, plane 1 the observer's own.
- :func:`from_pettingzoo`: PettingZoo's ``connect_four_v3`` observation, a dict whose
  ``"observation"`` has shape ``(6, 7, 2)``, row 0 at the top; channel 0 holds the observing
  agent's stones, channel 1 its opponent's. The observing agent is the one to move (the
  observation that ``env.last()`` returns), as its ``action_mask`` says. The same layout on
  other boards, ``(rows, columns, 2)``, reads too.
- :func:`from_grid`: any board as rows of 0 (empty), 1 (first player), 2 (second player),
  row 0 at the bottom; what the two above build.

In both frameworks an action is a column numbered from 0: the move ``str(action + 1)`` in
inarow's notation (:func:`to_move`, :func:`from_move`). Where the framework keeps the
actions played (OpenSpiel's ``state.history()``), ``Position("connect4",
[str(a + 1) for a in state.history()])`` is the same position with its real move order.

The position's moves are one order of play that reaches the board: the stones of each
column bottom up, alternating players, and no four in a row before the last move. A board
that no game reaches (stones floating, counts that do not alternate, two winners) raises
:class:`inarow.InputError`.
"""

from __future__ import annotations

from typing import Any, List, Optional, Sequence

from ._inarow import InputError, Position

__all__ = ["from_grid", "from_openspiel", "from_pettingzoo", "to_move", "from_move"]


def to_move(action: int) -> str:
    """The inarow move of a framework's action (a column from 0): ``3`` -> ``"4"``."""
    return str(int(action) + 1)


def from_move(move: str) -> int:
    """The framework's action (a column from 0) of an inarow Connect Four move: ``"4"`` -> 3."""
    return int(move) - 1


def _rows(array: Any) -> List[List[Any]]:
    """Nested lists from a NumPy array or any nested sequence."""
    if hasattr(array, "tolist"):
        array = array.tolist()
    return [list(row) for row in array]


def _has_four(grid: List[List[int]], player: int, k: int) -> bool:
    rows, cols = len(grid), len(grid[0])
    for r in range(rows):
        for c in range(cols):
            if grid[r][c] != player:
                continue
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = r + (k - 1) * dr, c + (k - 1) * dc
                if not (0 <= end_r < rows and 0 <= end_c < cols):
                    continue
                if all(grid[r + i * dr][c + i * dc] == player for i in range(k)):
                    return True
    return False


def from_grid(
    grid: Sequence[Sequence[int]], k: int = 4, game: Optional[str] = None
) -> Position:
    """The Connect Four position of ``grid``: rows from the bottom (``grid[0]`` is the bottom
    row), each cell 0 (empty), 1 (first player's stone) or 2 (second player's). The side to
    move follows from the counts (equal: the first player). ``game`` defaults to
    ``"connect4:{columns}x{rows}:k{k}"``.
    """
    rows = [[int(v) for v in row] for row in _rows(grid)]
    if not rows or not rows[0]:
        raise InputError("an empty grid is no Connect Four board")
    height, width = len(rows), len(rows[0])
    if any(len(row) != width for row in rows):
        raise InputError("the grid's rows differ in length")
    if any(v not in (0, 1, 2) for row in rows for v in row):
        raise InputError("grid cells must be 0 (empty), 1 (first player) or 2 (second player)")
    heights = []
    for c in range(width):
        column = [rows[r][c] for r in range(height)]
        h = sum(1 for v in column if v)
        if any(column[r] == 0 for r in range(h)):
            raise InputError(f"column {c + 1} has a stone above an empty cell")
        heights.append(h)
    firsts = sum(row.count(1) for row in rows)
    seconds = sum(row.count(2) for row in rows)
    if firsts not in (seconds, seconds + 1):
        raise InputError(
            f"{firsts} stones of the first player and {seconds} of the second: "
            "the first player has as many as the second, or one more"
        )
    if _has_four(rows, 1, k) and _has_four(rows, 2, k):
        raise InputError("both players have a line: no game reaches this board")
    order = _order(rows, heights, firsts + seconds, k)
    if order is None:
        raise InputError("no order of play reaches this board without an earlier line")
    sep = "" if width <= 9 else ","
    game = game or f"connect4:{width}x{height}:k{k}"
    return Position(game, sep.join(str(c + 1) for c in order))


def _order(
    grid: List[List[int]], heights: List[int], stones: int, k: int
) -> Optional[List[int]]:
    """Columns in an order of play that builds ``grid``: found backwards, taking off a top stone
    of the player who moved last while no line stays on the board (a line ends the game, so
    only the last move may make one)."""
    failed = set()
    taken: List[int] = []
    heights = list(heights)
    grid = [list(row) for row in grid]

    def lines_left() -> bool:
        return _has_four(grid, 1, k) or _has_four(grid, 2, k)

    def undo(left: int, checked: bool) -> bool:
        # `checked`: no line is on the board, nor on any board with fewer stones.
        if left == 0:
            return True
        state = tuple(heights)
        if state in failed:
            return False
        mover = 1 if left % 2 == 1 else 2
        for c in range(len(heights)):
            h = heights[c]
            if h == 0 or grid[h - 1][c] != mover:
                continue
            grid[h - 1][c] = 0
            heights[c] -= 1
            clear = checked or not lines_left()
            if clear and undo(left - 1, clear):
                taken.append(c)
                return True
            heights[c] += 1
            grid[h - 1][c] = mover
        failed.add(state)
        return False

    # The last move may complete a line; every earlier board has none.
    if not undo(stones, False):
        return None
    return taken


def from_openspiel(
    observation: Any,
    rows: int = 6,
    columns: int = 7,
    k: int = 4,
    egocentric: bool = False,
    player: Optional[int] = None,
) -> Position:
    """The position of an OpenSpiel ``connect_four`` observation tensor
    (``state.observation_tensor(player)``): 3 planes of ``rows`` x ``columns`` cells, flat or
    shaped ``[3, rows, columns]``, row 0 at the bottom. Plane 0 holds the first player's stones,
    plane 1 the second's, plane 2 the empty cells; with ``egocentric=True`` (the game parameter
    ``egocentric_obs_tensor``, and OpenSpiel releases before it) plane 0 holds the opponent's
    stones and plane 1 the observer's, and ``player`` (0 or 1; default: the player to move, as
    the counts say) is the observer. ``rows``, ``columns`` and ``k`` are the game's parameters
    ``rows``, ``columns`` and ``x_in_row``.
    """
    flat = _flatten(observation)
    cells = rows * columns
    if len(flat) != 3 * cells:
        raise InputError(
            f"an OpenSpiel connect_four observation of {rows}x{columns} has {3 * cells} "
            f"values, not {len(flat)}"
        )
    planes = [flat[i * cells : (i + 1) * cells] for i in range(3)]
    for i in range(cells):
        if sum(1 for p in planes if p[i]) != 1:
            raise InputError(f"cell {i} is set in {sum(1 for p in planes if p[i])} planes, not 1")
    owners = [1 if planes[0][i] else 2 if planes[1][i] else 0 for i in range(cells)]
    if egocentric:
        # Plane 0: the observer's opponent; plane 1: the observer.
        opponent, own = owners.count(1), owners.count(2)
        if player is None:
            # The observer is to move: the first player if the counts are equal.
            player = 0 if own == opponent else 1
        if player not in (0, 1):
            raise InputError(f"player {player}: must be 0 or 1")
        if player == 0:
            owners = [{1: 2, 2: 1}.get(v, 0) for v in owners]
    grid = [owners[r * columns : (r + 1) * columns] for r in range(rows)]
    return from_grid(grid, k=k)


def from_pettingzoo(observation: Any, k: int = 4) -> Position:
    """The position of a PettingZoo ``connect_four_v3`` observation of the agent to move: the
    dict ``env.last()`` returns (or its ``"observation"`` array), shape ``(6, 7, 2)``, row 0 at
    the top, channel 0 the agent's own stones, channel 1 its opponent's. Arrays of the same
    layout for other boards (``(rows, columns, 2)``) give positions of ``connect4:WxH:kK``.
    """
    if isinstance(observation, dict):
        observation = observation["observation"]
    board = _rows(observation)
    shape = "a PettingZoo connect_four_v3 observation has shape (rows, columns, 2), (6, 7, 2)"
    if not board or any(len(row) != len(board[0]) for row in board):
        raise InputError(shape)
    own = opponent = 0
    for row in board:
        for cell in row:
            if len(cell) != 2:
                raise InputError(shape)
            if cell[0] and cell[1]:
                raise InputError("a cell holds stones of both agents")
            own += bool(cell[0])
            opponent += bool(cell[1])
    # The agent to move is the first player when the counts are equal.
    first = 0 if own == opponent else 1
    grid = []
    for row in reversed(board):
        grid.append([1 if cell[first] else 2 if cell[1 - first] else 0 for cell in row])
    return from_grid(grid, k=k)


def _flatten(array: Any) -> List[float]:
    if hasattr(array, "tolist"):
        array = array.tolist()
    out: List[float] = []
    stack = [array]
    while stack:
        item = stack.pop()
        if isinstance(item, (list, tuple)):
            stack.extend(reversed(item))
        else:
            out.append(item)
    return out
