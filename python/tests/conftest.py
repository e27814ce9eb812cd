"""Shared fixtures: the command line built from the same sources (the reference every value
and message is compared with) and the public data sets.

INAROW_BIN names the command line (default: target/release/inarow of this repository) and
INAROW_DATA the data folder (default: ../shared/data beside the repository). Tests that need
one skip when it is missing, unless INAROW_REQUIRE=1 (CI), which makes that a failure.
"""

import json
import os
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def _required(what: str, path: Path) -> Path:
    if path.exists():
        return path
    message = f"{what} not found at {path}"
    if os.environ.get("INAROW_REQUIRE") == "1":
        pytest.fail(message)
    pytest.skip(message)


@pytest.fixture(scope="session")
def inarow_bin() -> Path:
    default = REPO / "target" / "release" / "inarow"
    return _required("the inarow command line", Path(os.environ.get("INAROW_BIN", default)))


@pytest.fixture(scope="session")
def data_dir() -> Path:
    default = REPO.parent / "shared" / "data"
    return _required("the public data", Path(os.environ.get("INAROW_DATA", default)))


class Cli:
    """Runs the command line and reads its answers."""

    def __init__(self, path: Path):
        self.path = path

    def run(self, *args: str, stdin: str = None, check: bool = True):
        done = subprocess.run(
            [str(self.path), *args],
            input=stdin,
            capture_output=True,
            text=True,
            timeout=600,
        )
        if check and done.returncode not in (0, 3):
            raise AssertionError(f"inarow {' '.join(args)}: {done.stderr}")
        return done

    def solve(self, game: str, moves, *flags: str):
        """`inarow solve` of each move string: {moves: score or None}."""
        text = "".join(f"{m if m else '-'}\n" for m in moves)
        out = self.run("solve", "--game", game, *flags, stdin=text).stdout
        scores = {}
        for line in out.splitlines():
            m, score = line.split()[:2]
            scores["" if m == "-" else m] = None if score == "?" else int(score)
        return scores

    def solve_json(self, game: str, moves: str, *flags: str):
        out = self.run("solve", "--game", game, "--json", *flags, moves or "-").stdout
        return json.loads(out)

    def analyze_json(self, game: str, moves: str, *flags: str):
        out = self.run("analyze", "--game", game, "--json", *flags, moves or "-").stdout
        return json.loads(out)

    def error(self, *args: str) -> str:
        """The one-line message of a command that fails, without the `inarow: ` prefix."""
        done = self.run(*args, check=False)
        assert done.returncode not in (0, 3), f"inarow {' '.join(args)} succeeded"
        line = done.stderr.strip().splitlines()[-1]
        assert line.startswith("inarow: "), line
        return line[len("inarow: ") :]


@pytest.fixture(scope="session")
def cli(inarow_bin) -> Cli:
    return Cli(inarow_bin)
