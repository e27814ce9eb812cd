"""Positions from OpenSpiel's and PettingZoo's Connect Four observations, tested against arrays
built by hand from their documented layouts (neither framework is installed)."""

import random

import pytest

import inarow


def openspiel_tensor(position, rows=6, columns=7, egocentric=False, observer=0):
    """What OpenSpiel's ConnectFourState.ObservationTensor(observer) writes: planes [3][rows][cols],
    row 0 at the bottom; plane = StateToPlayer(cell) (0 x/first, 1 o/second, 2 empty), or with
    egocentric_obs_tensor PlayerRelative(cell, observer) (0 the opponent's, 1 the observer's)."""
    tensor = [[[0.0] * columns for _ in range(rows)] for _ in range(3)]
    for cell in position.board.cells:
        x, y, _ = cell.at
        player = {"first": 0, "second": 1, None: 2}[cell.owner]
        if egocentric and player != 2:
            plane = 1 if player == observer else 0
        else:
            plane = player
        tensor[plane][y][x] = 1.0
    return tensor


def pettingzoo_observation(position):
    """What PettingZoo's connect_four_v3 observe(agent to move) returns: (6, 7, 2), row 0 at the
    top, channel 0 the agent's stones, channel 1 the opponent's; and the action mask."""
    me = position.to_move
    board = [[[0, 0] for _ in range(7)] for _ in range(6)]
    for cell in position.board.cells:
        x, y, _ = cell.at
        if cell.owner is not None:
            board[5 - y][x][0 if cell.owner == me else 1] = 1
    mask = [1 if str(c + 1) in position.legal_moves() else 0 for c in range(7)]
    return {"observation": board, "action_mask": mask}


def random_games(n, seed=7, game="connect4"):
    rng = random.Random(seed)
    for _ in range(n):
        p = inarow.Position(game)
        while p.status == "ongoing":
            yield p
            p = p.play(rng.choice(p.legal_moves()))
        yield p


def test_a_hand_built_openspiel_tensor():
    # x at the bottom of column 4 (action 3), o on top of it, x at column 5: x to... o to move.
    tensor = [[[0.0] * 7 for _ in range(6)] for _ in range(3)]
    for plane, row, col in [(0, 0, 3), (1, 1, 3), (0, 0, 4)]:
        tensor[plane][row][col] = 1.0
    for row in range(6):
        for col in range(7):
            if not (tensor[0][row][col] or tensor[1][row][col]):
                tensor[2][row][col] = 1.0
    p = inarow.from_openspiel(tensor)
    assert p == inarow.Position("connect4", "445")
    assert p.to_move == "second"
    flat = [v for plane in tensor for row in plane for v in row]
    assert inarow.from_openspiel(flat) == p
    # The same board seen by o (player 1), egocentric: plane 0 holds x (o's opponent).
    assert inarow.from_openspiel(tensor, egocentric=True, player=1) == p


def test_a_hand_built_pettingzoo_observation():
    # The agent to move (o, second player) sees its stone in channel 0; row 5 is the bottom.
    board = [[[0, 0] for _ in range(7)] for _ in range(6)]
    board[5][3] = [0, 1]  # x
    board[4][3] = [1, 0]  # o
    board[5][4] = [0, 1]  # x
    p = inarow.from_pettingzoo({"observation": board, "action_mask": [1] * 7})
    assert p == inarow.Position("connect4", "445") and p.to_move == "second"


def test_framework_actions_are_columns_from_zero():
    assert inarow.to_move(3) == "4" and inarow.from_move("4") == 3


def test_random_games_round_trip_through_every_layout():
    n = 0
    for p in random_games(40):
        mover = 0 if p.to_move == "first" else 1
        assert inarow.from_openspiel(openspiel_tensor(p)) == p
        ego = openspiel_tensor(p, egocentric=True, observer=mover)
        assert inarow.from_openspiel(ego, egocentric=True) == p
        assert inarow.from_openspiel(ego, egocentric=True, player=mover) == p
        if p.status == "ongoing":
            assert inarow.from_pettingzoo(pettingzoo_observation(p)) == p
        assert inarow.from_grid(p.board.grid()) == p
        n += 1
    assert n > 400


def test_other_board_sizes():
    for p in random_games(10, game="connect4:9x7:k5"):
        q = inarow.from_openspiel(openspiel_tensor(p, rows=7, columns=9), rows=7, columns=9, k=5)
        assert q == p and q.game == "connect4:9x7:k5"
    wide = inarow.Position("connect4:12x4", "12,1,11")
    assert inarow.from_grid(wide.board.grid()) == wide


def test_numpy_arrays_work_too():
    np = pytest.importorskip("numpy")
    p = inarow.Position("connect4", "4453")
    assert inarow.from_openspiel(np.array(openspiel_tensor(p), dtype=np.float32)) == p
    obs = pettingzoo_observation(p)
    obs["observation"] = np.array(obs["observation"], dtype=np.int8)
    assert inarow.from_pettingzoo(obs) == p


def test_the_value_of_an_observed_board():
    p = inarow.Position("connect4", "2252576253462244111563365343671351441")
    q = inarow.from_pettingzoo(pettingzoo_observation(p))
    assert q.solve().score == -1 and q.solve().best_moves == ["6"]


@pytest.mark.parametrize(
    "grid,reason",
    [
        ([[0] * 7, [1] + [0] * 6] + [[0] * 7] * 4, "above an empty cell"),
        ([[1, 1] + [0] * 5] + [[0] * 7] * 5, "as many as the second"),
        ([[2] + [0] * 6] + [[0] * 7] * 5, "as many as the second"),
        ([[1, 1, 1, 1, 2, 2, 2], [2, 2, 2, 2, 1, 1, 1]] + [[0] * 7] * 4, "both players"),
        (
            # Two fours of the first player that no one stone completes.
            [
                [1, 1, 1, 1, 2, 2, 2],
                [0, 0, 0, 0, 2, 2, 1],
                [0, 0, 0, 0, 2, 2, 1],
                [0, 0, 0, 0, 0, 0, 1],
                [0, 0, 0, 0, 0, 0, 1],
                [0] * 7,
            ],
            "no order of play",
        ),
        ([[3] * 7] * 6, "must be 0"),
    ],
)
def test_boards_that_no_game_reaches(grid, reason):
    with pytest.raises(inarow.InputError, match=reason):
        inarow.from_grid(grid)


def test_bad_arrays():
    with pytest.raises(inarow.InputError, match="126 values"):
        inarow.from_openspiel([0.0] * 10)
    with pytest.raises(inarow.InputError, match="shape"):
        inarow.from_pettingzoo({"observation": [[[0, 0]] * 7, [[0, 0]] * 6]})
    with pytest.raises(inarow.InputError, match="shape"):
        inarow.from_pettingzoo({"observation": [[[0, 0, 0]] * 7] * 6})
