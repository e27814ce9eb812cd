"""Reinforcement-learning environments of every inarow game. They need Gymnasium, PettingZoo
and numpy, the extra ``gym``: ``pip install "./python[gym]"`` from the clone (inarow is not on
PyPI), or ``pip install gymnasium pettingzoo numpy`` beside an installed wheel.

- :class:`InarowEnv`: a Gymnasium environment, one agent against an inarow engine.
  Registered (when this module is imported) as ``inarow/Connect4-v0``, ``inarow/PopOut-v0``,
  ``inarow/Cube-v0``, ``inarow/Qubic-v0`` and ``inarow/Pentago-v0``::

      import gymnasium as gym
      import inarow.envs
      env = gym.make("inarow/Connect4-v0")          # against perfect play, from the 7x6 book

- :func:`aec_env`: a PettingZoo AEC environment of two agents, ``"player_0"`` (the first
  player) and ``"player_1"``, with the conventions of PettingZoo's ``connect_four_v3``.

Actions
-------
An action is an integer, the same in both environments:

- Connect Four (``connect4``, ``connect4:WxH[:kK]``): the column from 0 (``0..W-1``), as
  PettingZoo's ``connect_four_v3`` and OpenSpiel's ``connect_four``.
- PopOut (``popout``, ``popout:WxH``): drops first, then pops: ``c`` drops into column ``c``,
  ``W + c`` pops column ``c``'s bottom stone (``2W`` actions).
- Connect Four 3D (``cube``): the column the stone falls down, ``x + 4 * y`` (16 actions; moves
  name columns in this game, and a cell index would only repeat them).
- Qubic (``qubic``): the cell, ``x + 4 * (y + 4 * z)`` (64 actions).
- Pentago (``pentago``): the placement and the turn, ``8 * cell + 2 * quadrant + (0 if the
  turn is clockwise else 1)``, the cell ``x + 6 * y`` (288 actions). A placement that makes
  five at once turns nothing (Irving's rules): all 8 actions of its cell are legal and play it.

Every cell index is the one of :attr:`inarow.Board.cells` (``x + width * (y + height * z)``,
``y`` from the bottom row). Each observation comes with ``action_mask`` (int8, 1 where the
action is legal): in the observation dict of the ``"pettingzoo"`` and ``"planes"`` layouts,
and always in ``info["action_mask"]`` of the Gymnasium environment.

Observations
------------
``observation=`` chooses the layout:

- ``"pettingzoo"`` (flat gravity boards: Connect Four and PopOut; their default): a dict,
  ``"observation"`` int8 of shape ``(rows, columns, 2)``, row 0 at the *top*, channel 0 the
  observing agent's stones, channel 1 its opponent's; ``"action_mask"`` int8 of shape
  ``(actions,)``. On 7x6 Connect Four exactly ``connect_four_v3``'s observation, which
  :func:`inarow.from_pettingzoo` reads back.
- ``"openspiel"`` (the same boards): float32 of shape ``(3, rows, columns)``, row 0 at the
  *bottom*, plane 0 the first player's stones, plane 1 the second's, plane 2 the empty cells
  (OpenSpiel's ``connect_four`` tensor, not egocentric; :func:`inarow.from_openspiel` reads it
  back). A plain array: the mask is in ``info`` only.
- ``"planes"`` (every game; the default of the cube, Qubic and Pentago): a dict,
  ``"observation"`` int8 of shape ``(2 * Z, Y, X)`` (``Board.size`` reversed: levels, rows,
  columns; ``Z`` is 1 on flat boards, 4 on the cube and in Qubic), indexed
  ``[c * Z + z, y, x]`` with ``y`` 0 the bottom row, ``c`` 0 the observing agent's stones and
  ``c`` 1 its opponent's (so planes ``0..Z-1`` are the agent's levels bottom up, then the
  opponent's); ``"action_mask"`` as above.

Rewards and ends
----------------
+1 for a win, -1 for a loss, 0 for a draw (and 0 on every other step), for the agent (the AEC
environment: for each agent). An episode terminates when the game is over (PopOut's
repetition draws included) and is truncated only by ``max_steps`` agent steps (a safety
bound, by default more than any game of the board lasts without repetition). An illegal action
loses (reward -1, ``info["illegal"]`` True) unless ``illegal="raise"``.

The opponent
------------
``opponent=`` is an engine level: ``"perfect"`` (the exact solver with no time limit, one of the
moves that keep the value at random: on 7x6 Connect Four it answers from the built-in book at
once to 12 plies, and in milliseconds after; on the larger games it may take very long), ``"best"`` (the exact solver within ``think``
seconds, then the evaluation search: the command line's ``play``), ``"alphabeta"``, ``"mcts"``,
``"depthN"`` (N plies of alpha-beta) or ``"random"`` (a random move that does not lose at once),
each within ``think`` seconds (:class:`inarow.Solver` with ``level``). ``info`` tells about its
last reply: ``"opponent_action"``, ``"opponent_move"`` (inarow's notation),
``"opponent_estimated"`` (True when the value of its move is not exact: it had to estimate, or
plays at a level that does not solve); ``env.unwrapped.reply_ms`` its time in milliseconds
(not in ``info``, which equal seeds and actions make equal).
"""

from __future__ import annotations

import time
from typing import Any, Dict, List, Optional, Tuple

import gymnasium
import numpy as np
from gymnasium import spaces

from ._inarow import Position, Solver

__all__ = ["InarowEnv", "InarowAEC", "aec_env", "GameActions", "ENV_IDS"]

ENV_IDS = {
    "inarow/Connect4-v0": "connect4",
    "inarow/PopOut-v0": "popout",
    "inarow/Cube-v0": "cube",
    "inarow/Qubic-v0": "qubic",
    "inarow/Pentago-v0": "pentago",
}

LEVELS = ("perfect", "best", "alphabeta", "mcts", "random")


class GameActions:
    """A game's actions and observations: the integer of each move, the legal-action mask and
    the arrays of a position, for one spec."""

    def __init__(self, game: str):
        start = Position(game)
        self.start = start
        self.game = start.game
        self.kind = self.game.split(":")[0]
        board = start.board
        self.size: Tuple[int, int, int] = board.size
        x, y, z = self.size
        self.cells = x * y * z
        self.flat = self.kind in ("connect4", "popout")
        self.n = {
            "connect4": x,
            "popout": 2 * x,
            "cube": x * y,
            "qubic": self.cells,
            "pentago": 8 * self.cells,
        }[self.kind]
        # The cells' coordinates, for the arrays.
        self._names = [cell.name for cell in board.cells]
        self._moves: Dict[Any, List[Tuple[int, str]]] = {}

    def action(self, move: Any) -> int:
        """The action of a legal move (a :class:`inarow.Move`)."""
        x, y, _ = self.size
        if self.kind == "popout" and move.popped is not None:
            return x + move.popped
        placed = move.placed
        if self.kind in ("connect4", "popout"):
            return placed % x
        if self.kind == "cube":
            return placed % (x * y)
        if self.kind == "qubic":
            return placed
        if move.turned is None:
            # A placement that wins at once turns nothing: its first action (see legal).
            return 8 * placed
        quadrant, clockwise = move.turned
        return 8 * placed + 2 * quadrant + (0 if clockwise else 1)

    def legal(self, position: Position) -> List[Tuple[int, str]]:
        """``(action, move)`` for each legal move of ``position``."""
        if self.kind == "connect4":
            # The moves are the columns from 1: no need for the board's data.
            return [(int(m) - 1, m) for m in position.legal_moves()]
        if self.kind != "pentago":
            return [(self.action(m), m.move) for m in position.board.moves]
        # Pentago lists once the moves that give the same position (turning an empty quadrant
        # either way, a stone placed and turned onto the cell of another placement): every
        # empty cell with every turn is an action, and a legal move.
        board = position.board
        wins = {m.placed: m.move for m in board.moves if m.turned is None}
        legal: List[Tuple[int, str]] = []
        for cell in board.cells:
            if cell.owner is not None:
                continue
            i = cell.index
            if i in wins:
                # A placement that wins at once turns nothing: every turn of it is that move.
                legal.extend((8 * i + t, wins[i]) for t in range(8))
                continue
            for quadrant in range(4):
                for t, way in enumerate("rl"):
                    legal.append((8 * i + 2 * quadrant + t, f"{cell.name}{quadrant}{way}"))
        return legal

    def mask(self, legal: List[Tuple[int, str]]) -> np.ndarray:
        mask = np.zeros(self.n, dtype=np.int8)
        for a, _ in legal:
            mask[a] = 1
        return mask

    def grid(self, position: Position) -> np.ndarray:
        """Owners 0 / 1 / 2 as ``[z, y, x]``, ``y`` 0 the bottom row."""
        g = np.asarray(position.board.grid(), dtype=np.int8)
        x, y, z = self.size
        return g.reshape(z, y, x)

    def observation_space(self, layout: str) -> spaces.Space:
        x, y, z = self.size
        mask = spaces.Box(0, 1, (self.n,), np.int8)
        if layout == "pettingzoo":
            return spaces.Dict(
                {"observation": spaces.Box(0, 1, (y, x, 2), np.int8), "action_mask": mask}
            )
        if layout == "openspiel":
            return spaces.Box(0.0, 1.0, (3, y, x), np.float32)
        return spaces.Dict(
            {"observation": spaces.Box(0, 1, (2 * z, y, x), np.int8), "action_mask": mask}
        )

    def observe(self, layout: str, grid: np.ndarray, me: int, mask: np.ndarray) -> Any:
        """The observation of player ``me`` (1 first, 2 second) of a board ``grid``."""
        other = 3 - me
        if layout == "pettingzoo":
            flat = grid[0][::-1]  # row 0 at the top
            obs = np.stack([flat == me, flat == other], axis=2).astype(np.int8)
            return {"observation": obs, "action_mask": mask}
        if layout == "openspiel":
            flat = grid[0]
            return np.stack([flat == 1, flat == 2, flat == 0]).astype(np.float32)
        obs = np.concatenate([grid == me, grid == other]).astype(np.int8)
        return {"observation": obs, "action_mask": mask}

    def default_layout(self) -> str:
        return "pettingzoo" if self.flat else "planes"

    def check_layout(self, layout: Optional[str]) -> str:
        layout = layout or self.default_layout()
        if layout not in ("pettingzoo", "openspiel", "planes"):
            raise ValueError(f"observation {layout!r}: pettingzoo, openspiel or planes")
        if layout != "planes" and not self.flat:
            raise ValueError(
                f"observation {layout!r}: only on Connect Four and PopOut boards; "
                f"{self.game} has the planes layout"
            )
        return layout

    def max_steps(self) -> int:
        # Every game but PopOut ends once the board is full; PopOut's repetition draws end it.
        return self.cells if self.kind != "popout" else 20 * self.cells


def _level(opponent: str) -> str:
    if opponent in LEVELS or (opponent.startswith("depth") and opponent[5:].isdigit()):
        return "best" if opponent == "perfect" else opponent
    raise ValueError(
        f"opponent {opponent!r}: perfect, best, alphabeta, mcts, depthN (N plies) or random"
    )


def _outcome(status: str, me: int) -> Optional[float]:
    """The reward of player ``me`` (1 first, 2 second) at the end, None while it goes on."""
    if status == "ongoing":
        return None
    if status == "draw":
        return 0.0
    return 1.0 if (status == "first wins") == (me == 1) else -1.0


class InarowEnv(gymnasium.Env):
    """One agent against an inarow engine, on any game (see the module's documentation).

    ``game``: a spec (``"connect4"``, ``"connect4:WxH[:kK]"``, ``"popout"``, ``"cube"``,
    ``"qubic"``, ``"pentago"``). ``opponent``: ``"perfect"``, ``"best"``, ``"alphabeta"``,
    ``"mcts"``, ``"depthN"`` or ``"random"``; ``think``: its seconds a move (not for
    ``"perfect"``). ``agent_plays``: ``"first"``, ``"second"`` or ``"random"`` (each episode).
    ``observation``: ``"pettingzoo"``, ``"openspiel"`` or ``"planes"``. ``max_steps``: agent
    steps before truncation. ``illegal``: ``"lose"`` (the episode ends, reward -1) or
    ``"raise"`` (``ValueError``). ``table_mb``: the opponent's table.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 4}

    def __init__(
        self,
        game: str = "connect4",
        opponent: str = "perfect",
        think: float = 0.1,
        agent_plays: str = "first",
        observation: Optional[str] = None,
        max_steps: Optional[int] = None,
        illegal: str = "lose",
        table_mb: int = 64,
        render_mode: Optional[str] = None,
    ):
        self.actions = GameActions(game)
        self.game = self.actions.game
        self.layout = self.actions.check_layout(observation)
        if agent_plays not in ("first", "second", "random"):
            raise ValueError(f"agent_plays {agent_plays!r}: first, second or random")
        if illegal not in ("lose", "raise"):
            raise ValueError(f"illegal {illegal!r}: lose or raise")
        if render_mode not in (None, "ansi"):
            raise ValueError(f"render_mode {render_mode!r}: None or ansi")
        self.opponent = opponent
        self.level = _level(opponent)
        self.think: Optional[float] = None if opponent == "perfect" else float(think)
        self.agent_plays = agent_plays
        self.illegal = illegal
        self.table_mb = table_mb
        self.render_mode = render_mode
        self.max_steps = max_steps if max_steps is not None else self.actions.max_steps()
        self.observation_space = self.actions.observation_space(self.layout)
        self.action_space = spaces.Discrete(self.actions.n)
        self._solver = Solver(self.game, table_mb=table_mb, level=self.level)
        self.position = self.actions.start
        self._me = 1
        self._steps = 0
        self._done = True
        self._legal: List[Tuple[int, str]] = []
        self._last: Dict[str, Any] = {}
        #: Milliseconds of the opponent's last reply (None: it did not move), outside ``info``
        #: so that equal seeds and actions give equal infos.
        self.reply_ms: Optional[float] = None

    # The engine's seed follows the episode's where the level makes random choices.
    def _reseed(self) -> None:
        if self.level in ("random", "mcts"):
            seed = int(self.np_random.integers(0, 2**63 - 1))
            self._solver = Solver(self.game, table_mb=self.table_mb, level=self.level, seed=seed)

    def _reply(self) -> None:
        """The opponent's move, if the game goes on."""
        if self.position.status != "ongoing":
            return
        began = time.perf_counter()
        if self.opponent == "perfect":
            move = self._perfect()
            estimated = False
        else:
            chosen = self._solver.choose(self.position, think=self.think)
            move, estimated = chosen.move, not chosen.exact
        self.reply_ms = 1000 * (time.perf_counter() - began)
        action = None
        for a, m in self.actions.legal(self.position):
            if m == move:
                action = a
                break
        self.position = self.position.play(move)
        self._last = {
            "opponent_action": action,
            "opponent_move": move,
            "opponent_estimated": estimated,
        }

    def _perfect(self) -> str:
        """A move that keeps the value, at random (the episode's generator): the value from
        the book (7x6: every position to 12 plies) or a search, then a null-window test of each move in a
        random order until one keeps it, with the table warm."""
        seed = int(self.np_random.integers(0, 2**63 - 1))
        chosen = self._solver.choose(self.position, seed=seed)
        if not chosen.exact:
            raise RuntimeError(f"no perfect move found in {self.position!r}")
        return chosen.move

    def _observe(self) -> Tuple[Any, Dict[str, Any]]:
        self._legal = self.actions.legal(self.position)
        mask = self.actions.mask(self._legal)
        grid = self.actions.grid(self.position)
        obs = self.actions.observe(self.layout, grid, self._me, mask)
        info = {
            "action_mask": mask,
            "opponent_action": None,
            "opponent_move": None,
            "opponent_estimated": False,
            "moves": self.position.moves,
            "agent_plays": "first" if self._me == 1 else "second",
        }
        info.update(self._last)
        return obs, info

    def reset(self, *, seed: Optional[int] = None, options: Optional[dict] = None):
        super().reset(seed=seed)
        if seed is not None:
            self._reseed()
        plays = self.agent_plays
        if plays == "random":
            plays = "first" if self.np_random.integers(0, 2) == 0 else "second"
        self._me = 1 if plays == "first" else 2
        self.position = self.actions.start
        self._steps = 0
        self._done = False
        self._last = {}
        self.reply_ms = None
        if self._me == 2:
            self._reply()
        return self._observe()

    def step(self, action):
        if self._done:
            raise RuntimeError("step after the episode ended: call reset")
        action = int(action)
        move = next((m for a, m in self._legal if a == action), None)
        self._steps += 1
        self._last = {}
        self.reply_ms = None
        if move is None:
            if self.illegal == "raise":
                raise ValueError(f"action {action} is not legal in {self.position!r}")
            obs, info = self._observe()
            info["illegal"] = True
            self._done = True
            return obs, -1.0, True, False, info
        self.position = self.position.play(move)
        self._reply()
        obs, info = self._observe()
        reward = _outcome(self.position.status, self._me)
        terminated = reward is not None
        truncated = not terminated and self._steps >= self.max_steps
        self._done = terminated or truncated
        return obs, reward or 0.0, terminated, truncated, info

    def render(self):
        if self.render_mode == "ansi":
            return str(self.position)
        return None

    def action_masks(self) -> np.ndarray:
        """The legal actions now (the method sb3-contrib's MaskablePPO asks for)."""
        return self.actions.mask(self._legal)


def _register() -> None:
    for env_id, game in ENV_IDS.items():
        if env_id in gymnasium.registry:
            continue
        kwargs: Dict[str, Any] = {"game": game}
        if game != "connect4":
            # Perfect play is out of reach from the start of the larger games.
            kwargs["opponent"] = "best"
        gymnasium.register(id=env_id, entry_point="inarow.envs:InarowEnv", kwargs=kwargs)


_register()


def aec_env(game: str = "connect4", observation: Optional[str] = None, **kwargs: Any):
    """A PettingZoo AEC environment of ``game`` for two agents, ``"player_0"`` (first) and
    ``"player_1"``, wrapped as PettingZoo wraps ``connect_four_v3`` (an illegal move ends the
    game with reward -1 for its agent; actions out of range and calls out of order raise)."""
    from pettingzoo.utils import wrappers

    env = InarowAEC(game=game, observation=observation, **kwargs)
    env = wrappers.TerminateIllegalWrapper(env, illegal_reward=-1)
    env = wrappers.AssertOutOfBoundsWrapper(env)
    return wrappers.OrderEnforcingWrapper(env)


try:
    from pettingzoo import AECEnv as _AECEnv
    from pettingzoo.utils.agent_selector import AgentSelector as _AgentSelector
except ImportError:  # Gymnasium without PettingZoo: the single-agent environment still works.
    _AECEnv = object  # type: ignore[assignment,misc]
    _AgentSelector = None  # type: ignore[assignment,misc]


class InarowAEC(_AECEnv):  # type: ignore[misc,valid-type]
    """Two agents of ``game`` taking turns (PettingZoo's AEC API), with ``connect_four_v3``'s
    conventions: ``observe(agent)`` a dict of ``"observation"`` (from that agent's side) and
    ``"action_mask"`` (all zero when it is not the agent's turn, and once the game is over, where
    ``connect_four_v3`` still marks the columns not full); rewards +1 / -1 to the
    winner / loser, 0 each for a draw; ``observation``: ``"pettingzoo"`` or ``"planes"``.
    """

    metadata = {
        "render_modes": ["ansi"],
        "name": "inarow_v0",
        "is_parallelizable": False,
        "render_fps": 4,
    }

    def __init__(
        self,
        game: str = "connect4",
        observation: Optional[str] = None,
        max_steps: Optional[int] = None,
        render_mode: Optional[str] = None,
    ):
        if _AgentSelector is None:
            raise ImportError(
                "inarow.envs.aec_env needs PettingZoo: pip install pettingzoo "
                '(or "./python[gym]" from the clone)'
            )
        super().__init__()
        self.actions = GameActions(game)
        self.game = self.actions.game
        self.layout = self.actions.check_layout(observation)
        if self.layout == "openspiel":
            raise ValueError("the AEC environment's observations are pettingzoo or planes")
        self.render_mode = render_mode
        self.max_steps = max_steps if max_steps is not None else 2 * self.actions.max_steps()
        self.metadata = dict(self.metadata, name=f"inarow_{self.game}_v0")
        self.agents = ["player_0", "player_1"]
        self.possible_agents = self.agents[:]
        space = self.actions.observation_space(self.layout)
        self.observation_spaces = {a: space for a in self.agents}
        self.action_spaces = {a: spaces.Discrete(self.actions.n) for a in self.agents}
        self.position = self.actions.start
        self._legal: List[Tuple[int, str]] = []
        self._grid: Optional[np.ndarray] = None

    def observation_space(self, agent):
        return self.observation_spaces[agent]

    def action_space(self, agent):
        return self.action_spaces[agent]

    def observe(self, agent):
        me = self.possible_agents.index(agent) + 1
        if agent == self.agent_selection and self.position.status == "ongoing":
            mask = self.actions.mask(self._legal)
        else:
            mask = np.zeros(self.actions.n, dtype=np.int8)
        if self._grid is None:
            self._grid = self.actions.grid(self.position)
        return self.actions.observe(self.layout, self._grid, me, mask)

    def _moved(self) -> None:
        self._legal = self.actions.legal(self.position)
        self._grid = None
        for a in self.agents:
            self.infos[a] = {"moves": self.position.moves}

    def reset(self, seed=None, options=None):
        self.position = self.actions.start
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {a: {} for a in self.agents}
        self._agent_selector = _AgentSelector(self.agents)
        self.agent_selection = self._agent_selector.reset()
        self._steps = 0
        self._moved()

    def step(self, action):
        agent = self.agent_selection
        if self.truncations[agent] or self.terminations[agent]:
            return self._was_dead_step(action)
        action = int(action)
        move = next((m for a, m in self._legal if a == action), None)
        if move is None:
            raise ValueError(f"action {action} is not legal in {self.position!r}")
        self.position = self.position.play(move)
        self._steps += 1
        self._moved()
        me = self.possible_agents.index(agent) + 1
        next_agent = self._agent_selector.next()
        reward = _outcome(self.position.status, me)
        if reward is not None:
            self.rewards[agent] += reward
            self.rewards[next_agent] -= reward
            self.terminations = dict.fromkeys(self.agents, True)
        elif self._steps >= self.max_steps:
            self.truncations = dict.fromkeys(self.agents, True)
        self.agent_selection = next_agent
        self._accumulate_rewards()

    def render(self):
        if self.render_mode == "ansi":
            return str(self.position)
        return None

    def close(self):
        pass
