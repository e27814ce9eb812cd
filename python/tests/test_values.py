"""Values equal the command line's: Pons' public sets, and small boards of every game (scores,
weak values, best moves, lines and analyses)."""

import pytest

import inarow

# Positions of every game that solve in well under a second each.
SMALL = {
    "connect4:4x4": ["", "1", "12", "2332"],
    "connect4:5x4": ["", "33", "3132"],
    "connect4:6x5": ["", "34"],
    "connect4:5x4:k3": ["", "3"],
    "connect4:12x4:k4": ["1,2,12,11,10,9,8,7,6,5,4,3,3,4,5,6,7,8,9,10,11,12"],
    "popout:4x4": ["", "44p4", "1", "12p1"],
    "cube": ["ba792445ca16c503e2ccafd7887b982704bb", "fb11a5fce9e159b63c8282d221eeab453ccb"],
    "qubic": ["a11d44b23a22c33b44c21d32a41b12c13d24b34"],
    "pentago": [
        "xx.o.xooxoxoox.o.x.o..x.xo.xxooxo...",
        "xx.o.xooxoxoox.o.xoo..x.xo.xxo.xo...",
        "xx.o.xooxoxoox.o.x.o..x.xooxxo.xo...",
    ],
}

# Each set and how many of its positions (the first ones) the test solves.
SETS = {"Test_L3_R1": 300, "Test_L2_R1": 300, "Test_L2_R2": 100, "Test_L1_R1": 100}


def read_set(data_dir, name, limit):
    lines = (data_dir / "connect4" / name).read_text().split("\n")
    pairs = [line.split() for line in lines if line.strip()][:limit]
    return [m for m, _ in pairs], [int(v) for _, v in pairs]


@pytest.mark.parametrize("name", sorted(SETS))
def test_pons_sets_equal_the_published_values_and_the_command_line(name, data_dir, cli):
    moves, expected = read_set(data_dir, name, SETS[name])
    solved = inarow.solve_many("connect4", moves, threads=2)
    assert [s.score for s in solved] == expected
    assert all(s.exact and s.stopped is None for s in solved)
    assert [s.outcome for s in solved] == [
        {1: "win", 0: "draw", -1: "loss"}[(v > 0) - (v < 0)] for v in expected
    ]
    # (`inarow solve` takes some milliseconds a line for its progress display: 100 lines.)
    by_cli = cli.solve("connect4", moves[:100])
    assert [by_cli[m] for m in moves[:100]] == expected[:100]
    weak = inarow.solve_many("connect4", moves[:100], weak=True)
    weak_cli = cli.solve("connect4", moves[:100], "--weak")
    assert [s.score for s in weak] == [weak_cli[m] for m in moves[:100]]
    assert not any(s.exact for s in weak)


def test_solve_many_searches_as_inarow_bench(data_dir, cli):
    """Without the book, each position from a cleared table: the same nodes as `inarow bench`."""
    moves, _ = read_set(data_dir, "Test_L2_R1", 200)
    solved = inarow.solve_many("connect4", moves, book=False)
    path = data_dir / "connect4" / "Test_L2_R1"
    out = cli.run("bench", "--limit", "200", str(path)).stdout
    mean_nodes = float(out.split("mean_nodes=")[1].split()[0])
    assert round(sum(s.nodes for s in solved) / len(solved), 1) == mean_nodes


@pytest.mark.parametrize("game", sorted(SMALL))
def test_small_boards_of_every_game_equal_the_command_line(game, cli):
    positions = SMALL[game]
    by_cli = cli.solve(game, positions)
    weak_cli = cli.solve(game, positions, "--weak")
    for i, moves in enumerate(positions):
        p = inarow.Position(game, moves)
        s = p.solve()
        assert s.score == by_cli[moves], (game, moves)
        assert p.solve(weak=True).score == weak_cli[moves], (game, moves)
        if i > 0:
            continue
        # The best moves and the line, as `inarow solve --json` gives them.
        detailed = p.solve(pv=True)
        json = cli.solve_json(game, moves)
        assert detailed.best_moves == json["best_moves"], (game, moves)
        assert detailed.pv == json["pv"], (game, moves)
    many = inarow.solve_many(game, positions)
    assert [s.score for s in many] == [by_cli[m] for m in positions]


@pytest.mark.parametrize(
    "game,moves",
    [("connect4:4x4", ""), ("connect4:5x4", "3"), ("popout:4x4", ""), ("cube", SMALL["cube"][0])],
)
def test_analysis_equals_inarow_analyze(game, moves, cli):
    json = cli.analyze_json(game, moves)
    mine = inarow.Position(game, moves).analyze()
    assert [(m.move, m.text, m.exact) for m in mine] == [
        (a["move"], a["value"], a["exact"]) for a in json["analysis"]
    ]
    for m, value, exact in mine:  # unpacks as (move, value, exact)
        assert exact and isinstance(value, int)


def test_empty_board_from_the_book():
    s = inarow.Position("connect4", "").solve()
    assert (s.score, s.outcome, s.exact, s.best_moves, s.nodes) == (1, "win", True, ["4"], 0)
    assert s.plies == 41


def test_plies_and_exactness():
    s = inarow.Position("connect4", "2252576253462244111563365343671351441").solve(pv=True)
    assert (s.score, s.plies, s.best_moves, s.pv) == (-1, 4, ["6"], ["6", "7", "7", "7"])
    popout = inarow.Position("popout:4x4", "44p4").solve()
    assert popout.score == 1 and not popout.exact and popout.plies is None


def test_limits_stop_and_say_so():
    s = inarow.Solver("connect4", book=False).solve("4", nodes=1000)
    assert s.score is None and s.outcome is None and s.stopped == "node limit reached"
    s = inarow.Solver("connect4", book=False).solve("", time=0.05)
    assert s.score is None and s.stopped == "time limit reached" and s.time < 1.0


def test_a_stopped_solve_says_what_it_had_proven():
    # The empty 7x5 board is a draw (0), of the scores -17..18; a million nodes rule out most
    # (`inarow solve --nodes 1000000 --no-book --game connect4:7x5 -`: the same bounds).
    s = inarow.Solver("connect4:7x5", book=False).solve("", nodes=10**6)
    assert s.score is None and s.stopped == "node limit reached"
    lo, hi = s.proven
    assert lo <= 0 <= hi and hi - lo < 20, s
    assert f"proven=({lo}, {hi})" in repr(s)
    # Solved, or asked for win / draw / loss only: nothing to bound.
    assert inarow.Position("connect4:5x4").solve().proven is None
    weak = inarow.Solver("connect4:7x5", book=False, weak=True).solve("", nodes=10**6)
    assert weak.score is None and weak.proven is None


def test_best_move_keeps_the_value():
    p = inarow.Position("connect4:5x4", "3")
    value = p.solve().score
    move = p.best_move(think=0.5)
    assert move in p.legal_moves()
    assert -p.play(move).solve().score == value
    with pytest.raises(inarow.InputError, match="the game is over"):
        inarow.Position("connect4", "4455667").best_move()


def test_a_finished_game_has_a_value():
    won = inarow.Position("connect4", "4455667").solve()
    assert won.score is not None and won.score < 0 and won.outcome == "loss"
