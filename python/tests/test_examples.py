"""The examples run and say what they promise."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

EXAMPLES = Path(__file__).resolve().parents[1] / "examples"


@pytest.mark.parametrize(
    "args",
    [["--game", "connect4:5x4", "--games", "2"], ["--agent", "random", "--games", "1"]],
)
def test_agent_against_perfect_play(args):
    done = subprocess.run(
        [sys.executable, str(EXAMPLES / "agent_vs_perfect.py"), *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    games = int(args[args.index("--games") + 1])
    assert len(lines) == games + 1
    summary = re.search(r"(\d+)/(\d+) moves kept the value .* (\d+)/(\d+) the outcome", lines[-1])
    assert summary, lines[-1]
    value, moves, outcome, moves_again = map(int, summary.groups())
    assert moves == moves_again > 0 and value <= outcome <= moves
