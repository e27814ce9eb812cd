"""Plays a Connect Four agent against perfect play and reports how many of its moves keep the
value of the position: the test an agent trained by reinforcement learning (AlphaZero-style)
is put to.

The agent sees only what PettingZoo's connect_four_v3 gives it (a (6, 7, 2) observation, its
own stones in channel 0, and the action mask) and answers an action, a column from 0; the
referee turns the observation back into a position with inarow.from_pettingzoo, as a harness
around a real environment would. Perfect play and the judgement come from one inarow.Solver,
whose table serves every call.

    python examples/agent_vs_perfect.py                     # 4 games of the greedy agent, 7x6
    python examples/agent_vs_perfect.py --agent random --games 10
    python examples/agent_vs_perfect.py --game connect4:6x5 --games 2

A move keeps the value when the score after it (for the agent) equals the score before it:
the fastest win stays the fastest, a draw stays a draw, a loss is put off as long as possible.
It keeps the outcome when win / draw / loss stays the same.
"""

import argparse
import random
import time
from typing import List, Sequence

import inarow


def pettingzoo_observation(position: inarow.Position):
    """The observation PettingZoo's connect_four_v3 gives the agent to move (rows from the top;
    channel 0 the agent's stones, channel 1 its opponent's) and the action mask."""
    width, height, _ = position.board.size
    me = position.to_move
    board = [[[0, 0] for _ in range(width)] for _ in range(height)]
    for cell in position.board.cells:
        x, y, _ = cell.at
        if cell.owner is not None:
            board[height - 1 - y][x][0 if cell.owner == me else 1] = 1
    legal = set(position.legal_moves())
    mask = [1 if inarow.to_move(c) in legal else 0 for c in range(width)]
    return {"observation": board, "action_mask": mask}


class GreedyAgent:
    """Wins at once if it can, blocks the opponent's win at once, else plays near the centre
    (with a little randomness): a baseline that knows no deeper tactics."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def act(self, observation) -> int:
        board = observation["observation"]
        mask = observation["action_mask"]
        height, width = len(board), len(board[0])
        legal = [c for c in range(width) if mask[c]]
        for channel in (0, 1):  # a win for me first, then a win for the opponent to block
            for c in legal:
                if self._wins(board, c, channel):
                    return c
        centre = (width - 1) / 2
        return min(legal, key=lambda c: abs(c - centre) + self.rng.random() * 1.5)

    @staticmethod
    def _wins(board, column: int, channel: int) -> bool:
        height, width = len(board), len(board[0])
        row = max(r for r in range(height) if not any(board[r][column]))
        mine = lambda r, c: 0 <= r < height and 0 <= c < width and board[r][c][channel] == 1
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                r, c = row + sign * dr, column + sign * dc
                while mine(r, c):
                    run += 1
                    r, c = r + sign * dr, c + sign * dc
            if run >= 4:
                return True
        return False


class RandomAgent:
    """A legal move at random."""

    def __init__(self, seed: int):
        self.rng = random.Random(seed)

    def act(self, observation) -> int:
        mask = observation["action_mask"]
        return self.rng.choice([c for c in range(len(mask)) if mask[c]])


def play(agent, solver: inarow.Solver, game: str, agent_first: bool):
    """One game; returns the agent's result and, for each of its moves, (kept value, kept
    outcome)."""
    position = inarow.Position(game)
    judged: List[Sequence[bool]] = []
    while position.status == "ongoing":
        agents_turn = (position.to_move == "first") == agent_first
        before = solver.solve(position, best_moves=not agents_turn)
        assert before.score is not None  # no limits: always a value
        if agents_turn:
            # The agent sees the framework's observation; the referee reads it back.
            observation = pettingzoo_observation(position)
            assert inarow.from_pettingzoo(observation) == position
            move = inarow.to_move(agent.act(observation))
            after = position.play(move)
            value = -(solver.solve(after).score or 0)
            judged.append((value == before.score, sign(value) == sign(before.score)))
            position = after
        else:
            assert before.best_moves
            position = position.play(before.best_moves[0])
    mine = "first" if agent_first else "second"
    result = "draw" if position.status == "draw" else ("win" if mine in position.status else "loss")
    return result, judged


def sign(v: int) -> int:
    return (v > 0) - (v < 0)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="connect4", help="a Connect Four spec (default 7x6)")
    parser.add_argument("--games", type=int, default=4, help="games, the agent first in every other")
    parser.add_argument("--agent", choices=["greedy", "random"], default="greedy")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)

    agent = {"greedy": GreedyAgent, "random": RandomAgent}[args.agent](args.seed)
    solver = inarow.Solver(args.game)
    began = time.perf_counter()
    kept_value = kept_outcome = moves = 0
    results = {"win": 0, "draw": 0, "loss": 0}
    for i in range(args.games):
        first = i % 2 == 0
        result, judged = play(agent, solver, args.game, first)
        results[result] += 1
        value = sum(v for v, _ in judged)
        outcome = sum(o for _, o in judged)
        kept_value, kept_outcome, moves = kept_value + value, kept_outcome + outcome, moves + len(judged)
        print(
            f"game {i + 1}: agent {'first' if first else 'second'}, {result}; "
            f"{value}/{len(judged)} moves kept the value, {outcome}/{len(judged)} the outcome"
        )
    print(
        f"{args.agent} agent on {solver.game}: {results['win']} won, {results['draw']} drawn, "
        f"{results['loss']} lost; {kept_value}/{moves} moves kept the value "
        f"({100 * kept_value / max(moves, 1):.0f}%), {kept_outcome}/{moves} the outcome "
        f"({100 * kept_outcome / max(moves, 1):.0f}%); {time.perf_counter() - began:.1f} s"
    )


if __name__ == "__main__":
    main()
