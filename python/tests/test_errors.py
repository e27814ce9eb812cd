"""Bad input raises `inarow.Error` subclasses (all `ValueError`s) with the command line's
one-line message."""

import pytest

import inarow


def test_the_hierarchy():
    assert issubclass(inarow.Error, ValueError)
    for kind in [
        inarow.SpecError,
        inarow.MoveError,
        inarow.InputError,
        inarow.UnsupportedError,
        inarow.FileError,
        inarow.MemoryLimitError,
        inarow.SearchError,
        inarow.InternalError,
    ]:
        assert issubclass(kind, inarow.Error)
        assert kind.__module__ == "inarow"


@pytest.mark.parametrize(
    "game,moves",
    [
        ("connect4:1x1", "4"),
        ("chess", ""),
        ("connect4:7x6:k4:x", ""),
        ("popout:20x20", ""),
    ],
)
def test_bad_game_specs_give_the_command_line_message(game, moves, cli):
    with pytest.raises(inarow.SpecError) as caught:
        inarow.Position(game, moves)
    assert str(caught.value) == cli.error("solve", "--game", game, moves or "-")


@pytest.mark.parametrize(
    "game,moves",
    [
        ("connect4", "44444444"),
        ("connect4", "48"),
        ("connect4", "4x"),
        ("connect4", "44556677"),
        ("popout", "1p1"),
        ("cube", "0g"),
        ("qubic", "a11a11"),
        ("pentago", "a1"),
        ("pentago", "x" * 36),
    ],
)
def test_bad_moves_give_the_command_line_message(game, moves, cli):
    with pytest.raises(inarow.MoveError) as caught:
        inarow.Position(game, moves)
    assert str(caught.value) == cli.error("solve", "--game", game, moves)


def test_move_errors_carry_their_parts():
    with pytest.raises(inarow.MoveError) as caught:
        inarow.Position("connect4", "44444444")
    e = caught.value
    assert (e.text, e.index, e.token, e.reason) == ("44444444", 7, "4", "column 4 is full")
    # Played one at a time, the message is the one of the whole string.
    with pytest.raises(inarow.MoveError) as whole:
        inarow.Position("connect4", "4444444")
    with pytest.raises(inarow.MoveError) as caught:
        inarow.Position("connect4", "444444").play("4")
    assert str(caught.value) == str(whole.value)
    with pytest.raises(inarow.MoveError, match="is not a column number"):
        inarow.Position("connect4:12x6", ["10", "x"])
    with pytest.raises(TypeError):
        inarow.Position("connect4", 44)


def test_bad_settings(cli):
    with pytest.raises(inarow.InputError) as caught:
        inarow.Position("connect4", "4").solve(time=0)
    assert str(caught.value) == "time 0: must be a positive number of seconds"
    with pytest.raises(inarow.InputError, match="threads 0: must be between 1 and 256"):
        inarow.solve_many("connect4", ["4"], threads=0)
    with pytest.raises(inarow.InputError):
        inarow.Position("connect4", "4").best_move(think=-1)
    with pytest.raises(inarow.UnsupportedError) as caught:
        inarow.Solver("popout", threads=2)
    assert str(caught.value) == cli.error("solve", "--game", "popout", "--threads", "2", "-")
    with pytest.raises(inarow.MemoryLimitError):
        inarow.Solver("connect4", table_mb=1 << 40)


def test_a_position_of_another_game():
    solver = inarow.Solver("connect4:5x4")
    with pytest.raises(inarow.UnsupportedError, match="not of this solver's game"):
        solver.solve(inarow.Position("connect4", "4"))
    with pytest.raises(inarow.UnsupportedError):
        inarow.solve_many("connect4", [inarow.Position("cube", "")])


def test_solve_many_names_the_bad_position():
    with pytest.raises(inarow.MoveError) as caught:
        inarow.solve_many("connect4", ["4", "44", "4444444", "5"])
    assert caught.value.position == 2
    assert str(caught.value).startswith("illegal move string '4444444'")
    with pytest.raises(TypeError):
        inarow.solve_many("connect4", [4])


def test_analysis_of_a_finished_game(cli):
    with pytest.raises(inarow.InputError) as caught:
        inarow.Position("connect4", "4455667").analyze()
    assert str(caught.value) == cli.error("analyze", "4455667")
