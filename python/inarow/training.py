"""Training data as numpy arrays: random positions of a game with every legal move's exact
value, generated on several threads by the native module (``inarow._inarow._dataset``).

See :func:`dataset` and docs/python.md ("Training data") for the layout.
"""

from __future__ import annotations

import os
import sys
import time as _time
from dataclasses import dataclass, field
from typing import Any, Callable, List, Optional, Tuple

from ._inarow import _dataset

__all__ = ["Dataset", "dataset"]


@dataclass
class Dataset:
    """Arrays of ``count`` rows (numpy arrays; ``moves`` and ``actions`` are lists).

    - ``positions``: int8 ``(count, 2, *shape)``: plane 0 the side to move's stones, plane 1
      the opponent's (1 where a stone is), cells in the board's geometry ``shape``
      (``(rows, columns)`` with row 0 at the bottom; the cube and Qubic
      ``(levels, rows, columns)``).
    - ``values``: int32 ``(count, A)``: each legal move's exact value for the side to move
      over the game's fixed action space (``actions`` names each index); 0 where ``mask``.
    - ``mask``: bool ``(count, A)``: True where there is no value: the move is illegal, or a
      time limit stopped its exact value (``legal`` tells which).
    - ``legal``: bool ``(count, A)``: the legal moves.
    - ``value``: int32 ``(count,)``: the position's value for the side to move (its best
      move's); 0 where ``value_mask``.
    - ``value_mask``: bool ``(count,)``: True where a legal move has no exact value, so the
      position's value is unknown.
    - ``to_move``: int8 ``(count,)``: 0 the first player to move, 1 the second.
    - ``ply``: int32 ``(count,)``: moves played from the start.
    - ``moves``: each row's move string (``inarow.Position(game, moves)`` reads it back).
    """

    game: str
    shape: Tuple[int, ...]
    actions: List[str]
    plies: Tuple[int, int]
    positions: Any
    values: Any
    mask: Any
    legal: Any
    value: Any
    value_mask: Any
    to_move: Any
    ply: Any
    moves: List[str] = field(repr=False)

    def __len__(self) -> int:
        return len(self.moves)


def _cores() -> int:
    try:
        return max(1, len(os.sched_getaffinity(0)))  # type: ignore[attr-defined]
    except AttributeError:
        return max(1, os.cpu_count() or 1)


def _reporter(count: int) -> Tuple[Callable[[int], None], Callable[[], None]]:
    """A progress bar: tqdm's where it is installed (``tqdm.auto``: a widget in notebooks),
    else a line on stderr."""
    try:
        from tqdm.auto import tqdm  # type: ignore[import-not-found, import-untyped]
    except ImportError:
        tqdm = None
    if tqdm is not None:
        bar = tqdm(total=count, unit="pos", desc="dataset")
        shown = [0]

        def update(done: int) -> None:
            if done > shown[0]:
                bar.update(done - shown[0])
                shown[0] = done

        return update, bar.close
    started = _time.monotonic()
    last = [0.0]
    shown = [-1]

    def line(done: int) -> None:
        now = _time.monotonic()
        if done == shown[0] or (now - last[0] < 0.5 and done < count):
            return
        last[0] = now
        shown[0] = done
        rate = done / max(now - started, 1e-9)
        sys.stderr.write(f"\rdataset: {done}/{count} positions, {rate:.0f}/s")
        sys.stderr.flush()

    def close() -> None:
        sys.stderr.write("\n")
        sys.stderr.flush()

    return line, close


def dataset(
    game: str = "connect4",
    count: int = 1000,
    seed: int = 0,
    plies: Optional[Tuple[int, int]] = None,
    time: Optional[float] = None,
    threads: Optional[int] = None,
    progress: bool = True,
) -> Dataset:
    """``count`` random positions of ``game`` with every legal move's exact value, as numpy
    arrays (a :class:`Dataset`).

    Position ``i`` is drawn by uniformly random play from the start to a ply in ``plies``
    (``(lo, hi)``, both included; None: a midgame range of the game, 7x6 Connect Four 6 to
    12, PopOut 4 to 20), drawn again where the game is over, with a generator seeded from
    ``(seed, i)``: the same seed gives the same positions whatever ``threads``. Positions may
    repeat (``np.unique`` on ``positions`` removes them). Each move is valued as
    ``inarow analyze`` does (the built-in opening book where it knows, else the exact
    solver); ``time`` caps the seconds spent on each position, and a move whose exact value
    the cap stopped is masked (then the values depend on the machine's speed). ``threads``:
    solvers at once (None: every core). ``progress``: a progress bar (tqdm if installed,
    else a line on stderr). Ctrl-C stops it (``KeyboardInterrupt``).
    """
    import numpy as np

    if count < 0:
        raise ValueError(f"count {count}: must not be negative")
    if threads is None:
        threads = _cores()
    update: Optional[Callable[[int], None]] = None
    close: Optional[Callable[[], None]] = None
    if progress and count > 0:
        update, close = _reporter(count)
    try:
        raw = _dataset(game, count, seed, plies, time, threads, update)
    finally:
        if close is not None:
            close()
    shape = tuple(raw["shape"])
    actions = list(raw["actions"])
    a = len(actions)

    def array(name: str, dtype: str, *dims: int) -> Any:
        return np.frombuffer(raw[name], dtype=dtype).reshape(count, *dims).copy()

    positions = array("positions", "i1", 2, *shape)
    values = array("values", "<i4", a).astype(np.int32)
    legal = array("legal", "u1", a).astype(bool)
    known = array("known", "u1", a).astype(bool)
    mask = ~(legal & known)
    value_mask = (legal & ~known).any(axis=1)
    best = np.where(mask, np.iinfo(np.int32).min, values).max(axis=1, initial=np.iinfo(np.int32).min)
    value = np.where(value_mask, 0, best).astype(np.int32)
    return Dataset(
        game=raw["game"],
        shape=shape,
        actions=actions,
        plies=tuple(raw["plies"]),
        positions=positions,
        values=values,
        mask=mask,
        legal=legal,
        value=value,
        value_mask=value_mask,
        to_move=array("second", "u1").astype(np.int8),
        ply=array("ply", "<i4").astype(np.int32),
        moves=list(raw["moves"]),
    )
