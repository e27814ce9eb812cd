"""inarow.dataset: training data as arrays, its layout, its masks, its reproducibility and its
values against the command line's `analyze --json`."""

import numpy as np
import pytest

import inarow

# game, count, plies: small and quick.
CASES = [
    ("connect4", 24, None),
    ("popout:4x4", 24, None),
    ("pentago", 6, (28, 30)),
]


def action(game, move):
    """A move's name in the action space: Pentago's winning placement (no turn) at its 0l."""
    return move + "0l" if game == "pentago" and len(move) == 2 else move


@pytest.fixture(scope="module")
def made():
    return {
        game: inarow.dataset(game, count, seed=7, plies=plies, threads=2, progress=False)
        for game, count, plies in CASES
    }


def test_shapes_and_layout(made):
    expected = {
        "connect4": ((6, 7), 7),
        "popout:4x4": ((4, 4), 9),
        "pentago": ((6, 6), 288),
    }
    for game, count, _ in CASES:
        d = made[game]
        shape, actions = expected[game]
        assert len(d) == count
        assert d.shape == shape
        assert len(d.actions) == actions
        assert d.positions.shape == (count, 2, *shape)
        assert d.positions.dtype == np.int8
        for name in ("values", "mask", "legal"):
            assert getattr(d, name).shape == (count, actions), name
        assert d.values.dtype == np.int32
        assert d.mask.dtype == bool and d.legal.dtype == bool
        assert d.value.shape == d.value_mask.shape == d.to_move.shape == d.ply.shape == (count,)
        lo, hi = d.plies
        assert ((d.ply >= lo) & (d.ply <= hi)).all()
        for i in range(count):
            p = inarow.Position(game, d.moves[i])
            assert p.status == "ongoing"
            assert p.ply == d.ply[i]
            assert d.to_move[i] == (p.to_move == "second")
            # The planes: the side to move's stones, then the other's, by cell.
            board = p.board
            me = np.zeros(shape, np.int8)
            them = np.zeros(shape, np.int8)
            for cell in board.cells:
                if cell.owner is None:
                    continue
                x, y, z = cell.at
                at = (y, x) if len(shape) == 2 else (z, y, x)
                (me if cell.owner == p.to_move else them)[at] = 1
            assert (d.positions[i, 0] == me).all(), (game, d.moves[i])
            assert (d.positions[i, 1] == them).all(), (game, d.moves[i])
            # The legal moves, by their names in the action space.
            legal = sorted(d.actions[a] for a in np.flatnonzero(d.legal[i]))
            assert legal == sorted(action(game, m) for m in p.legal_moves()), (game, d.moves[i])
            # No limit: every legal move has its value; the mask is the illegal moves.
            assert (d.mask[i] == ~d.legal[i]).all()
            assert not d.value_mask[i]
            assert (d.values[i][d.mask[i]] == 0).all()
            assert d.value[i] == d.values[i][d.legal[i]].max()


def test_popout_actions(made):
    d = made["popout:4x4"]
    assert d.actions == ["1", "2", "3", "4", "p1", "p2", "p3", "p4", "d"]
    assert made["connect4"].actions == [str(c) for c in range(1, 8)]
    assert made["pentago"].actions[:9] == ["a10l", "a10r", "a11l", "a11r", "a12l", "a12r",
                                           "a13l", "a13r", "b10l"]


@pytest.mark.parametrize("game", [c[0] for c in CASES])
def test_values_match_the_command_line(made, cli, game):
    d = made[game]
    for i in range(0, len(d), max(1, len(d) // 4)):
        analysis = cli.analyze_json(game, d.moves[i])["analysis"]
        assert len(analysis) == d.legal[i].sum()
        for item in analysis:
            a = d.actions.index(action(game, item["move"]))
            assert d.legal[i, a]
            assert item["exact"], (game, d.moves[i], item)
            assert not d.mask[i, a]
            assert d.values[i, a] == int(item["value"]), (game, d.moves[i], item)


def test_reproducible_whatever_the_threads(made):
    game, count, plies = CASES[1]
    again = inarow.dataset(game, count, seed=7, plies=plies, threads=1, progress=False)
    first = made[game]
    assert again.moves == first.moves
    for name in ("positions", "values", "mask", "legal", "value", "value_mask", "to_move", "ply"):
        assert (getattr(again, name) == getattr(first, name)).all(), name
    other = inarow.dataset(game, count, seed=8, plies=plies, threads=2, progress=False)
    assert other.moves != first.moves
    game, count, plies = CASES[0]
    three = inarow.dataset(game, count, seed=7, plies=plies, threads=3, progress=False)
    assert three.moves == made[game].moves
    assert (three.values == made[game].values).all()


def test_plies_and_progress(capsys):
    d = inarow.dataset("connect4:5x4", 10, seed=1, plies=(3, 3), threads=2, progress=False)
    assert (d.ply == 3).all()
    assert inarow.Position("connect4:5x4", d.moves[0]).ply == 3
    seen = []
    inarow._inarow._dataset("connect4:5x4", 5, 1, (2, 4), None, 2, seen.append)
    assert seen and seen[-1] == 5 and seen == sorted(seen)
    empty = inarow.dataset("connect4", 0, seed=1, progress=False)
    assert empty.positions.shape == (0, 2, 6, 7) and empty.values.shape == (0, 7)


def test_time_cap_masks_what_it_stops():
    # Early 7x6 positions past the book: a tiny cap leaves some values unknown, and those are
    # masked though legal.
    d = inarow.dataset("connect4", 4, seed=3, plies=(9, 9), time=0.001, threads=2, progress=False)
    assert (d.mask | d.legal).all()
    stopped = d.legal & d.mask
    assert (d.value_mask == stopped.any(axis=1)).all()
    assert (d.values[d.mask] == 0).all()


def test_bad_input():
    with pytest.raises(inarow.InputError):
        inarow.dataset("connect4", 3, plies=(5, 4), progress=False)
    with pytest.raises(inarow.SpecError):
        inarow.dataset("nogame", 3, progress=False)
    with pytest.raises(inarow.InputError):
        inarow.dataset("connect4", 3, threads=0, progress=False)
