"""Positions of every game: reading, moves, status, the board as data."""

import json

import pytest

import inarow


def test_connect_four_basics():
    p = inarow.Position("connect4", "4453")
    assert p.game == "connect4:7x6:k4"
    assert p.moves == "4453"
    assert p.start is None
    assert p.ply == 4
    assert p.to_move == "first"
    assert p.status == "ongoing"
    assert p.legal_moves() == ["1", "2", "3", "4", "5", "6", "7"]
    q = p.play("4")
    assert q.moves == "44534" and q.to_move == "second" and p.moves == "4453"
    assert repr(q) == "Position('connect4:7x6:k4', '44534')"
    assert inarow.Position() == inarow.Position("connect4", "") == inarow.Position("connect4", "-")


def test_a_game_ends_and_its_line_shows():
    p = inarow.Position("connect4", "4455667")
    assert p.status == "first wins"
    assert p.legal_moves() == []
    board = p.board
    assert [line.owner for line in board.lines] == ["first"]
    assert [board.cells[c].name for c in board.lines[0].cells] == ["4", "5", "6", "7"]
    assert board.moves == ()
    with pytest.raises(inarow.MoveError):
        p.play("1")
    draw = inarow.Position("connect4:4x4", "1234123421434321")
    assert draw.status == "draw" and draw.legal_moves() == []


def test_moves_as_a_sequence_and_wide_boards():
    wide = inarow.Position("connect4:12x6", ["10", "10", "12"])
    assert wide.moves == "10,10,12"
    assert wide == inarow.Position("connect4:12x6", "10,10,12")
    assert "11" in wide.legal_moves()
    assert inarow.Position("connect4", ["4", "4"]).moves == "44"


def test_board_as_data():
    board = inarow.Position("connect4", "44").board
    assert board.size == (7, 6, 1) and board.k == 4 and board.gravity == "y"
    assert len(board.cells) == 42 and board.to_move == "first"
    cell = board.cell(3, 1)
    assert (cell.index, cell.at, cell.name, cell.owner) == (10, (3, 1, 0), "4", "second")
    assert board.cell(3, 0).owner == "first" and board.cell(0, 0).owner is None
    assert board.grid()[0] == [0, 0, 0, 1, 0, 0, 0] and board.grid()[1][3] == 2
    assert [m.move for m in board.moves] == ["1", "2", "3", "4", "5", "6", "7"]
    drop = board.moves[3]
    assert drop.placed == 17 and drop.changed == [17] and drop.popped is None
    assert str(board).splitlines()[-2:] == ["...O...", "...X..."]
    assert board.blocks[0].name == "board"
    with pytest.raises(IndexError):
        board.cell(7, 0)


def test_every_game_reads_its_notation():
    popout = inarow.Position("popout", "4445")
    assert "p4" in popout.legal_moves()
    popped = popout.play("p4")
    assert popped.moves == "4445p4"
    pop = [m for m in popout.board.moves if m.move == "p4"][0]
    assert pop.popped == 3 and pop.placed is None

    cube = inarow.Position("cube", "05af")
    assert cube.game == "cube" and cube.board.size == (4, 4, 4) and cube.board.gravity == "z"
    assert len(cube.board.grid()) == 4  # levels
    assert cube.legal_moves()[:3] == ["0", "1", "2"]

    qubic = inarow.Position("qubic", "a11d44b23")
    assert qubic.to_move == "second" and qubic.board.gravity is None
    assert qubic.board.cell(0, 0, 0).owner == "first"

    pentago = inarow.Position("pentago", "d53ra10l")
    assert pentago.ply == 2 and len(pentago.board.blocks) == 4
    grid = "." * 35 + "x"
    from_board = inarow.Position("pentago", grid)
    assert from_board.start == grid and from_board.moves == "" and from_board.to_move == "second"
    assert from_board.board.cell(5, 0).owner == "first"
    assert inarow.Position("pentago", "." * 36) == inarow.Position("pentago")
    turned = [m for m in pentago.board.moves if m.turned is not None][0]
    assert turned.turned[0] in range(4)


def test_popout_repetition_draws():
    # Each player drops and pops their own disc: the start position comes back.
    p = inarow.Position("popout:4x4", "12p1")
    assert p.status == "ongoing"
    back = inarow.Position("popout:4x4", "12p1p2")
    assert back.status == "draw"
    assert back.legal_moves() == []


def test_equal_positions_hash_alike():
    a = inarow.Position("connect4", "4453")
    b = inarow.Position("connect4", "5344")
    assert a == b and hash(a) == hash(b)
    assert len({a, b, inarow.Position("connect4", "44")}) == 2
    assert a != inarow.Position("connect4:8x6", "4453")
    assert a != "4453"


def test_str_draws_the_board():
    text = str(inarow.Position("connect4", "4"))
    assert "X" in text and text.count("\n") >= 6


def test_positions_and_solutions_pickle():
    import pickle

    for p in [
        inarow.Position("connect4", "4453"),
        inarow.Position("connect4:12x6", "10,10,12"),
        inarow.Position("popout:4x4", "12p1p2"),
        inarow.Position("pentago", "." * 35 + "x").play("a10r"),
    ]:
        q = pickle.loads(pickle.dumps(p))
        assert q == p and q.moves == p.moves and q.start == p.start and q.status == p.status
    s = inarow.Position("connect4", "2252576253462244111563365343671351441").solve(pv=True)
    t = pickle.loads(pickle.dumps(s))
    assert repr(t) == repr(s)
    s = inarow.Solver("connect4:7x5", book=False).solve("", nodes=10**6)
    t = pickle.loads(pickle.dumps(s))
    assert t.proven == s.proven and s.proven is not None and repr(t) == repr(s)


def _score(moves):
    return inarow.Position("connect4", moves).solve()


def test_multiprocessing_sends_positions_and_solutions():
    import multiprocessing

    moves = ["2252576253462244111563365343671351441", "4455667", "4453"]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        solved = pool.map(_score, moves)
    assert [s.score for s in solved] == [inarow.Position("connect4", m).solve().score for m in moves]


ANALYSIS_FIELDS = {"source", "weak", "analysis", "pv"}


@pytest.mark.parametrize(
    "game,moves",
    [("connect4", "4453"), ("connect4:5x4", "33"), ("popout", "44p4"), ("cube", "a1b2"), ("qubic", "a11"),
     ("pentago", "d53r")],
)
def test_to_json_is_the_api_position(cli, game, moves):
    # The wire format is the library's: the command line's analysis carries the same position.
    pos = inarow.Position(game, moves)
    mine = json.loads(pos.to_json())
    theirs = cli.analyze_json(game, moves, "--time", "0.05")
    assert mine == {k: v for k, v in theirs.items() if k not in ANALYSIS_FIELDS}
    assert mine["moves"] == pos.moves and mine["game"] == pos.game
