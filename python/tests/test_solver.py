"""The solver that keeps its table, threads, and the GIL released during searches."""

import threading
import time
from concurrent.futures import ThreadPoolExecutor

import inarow

# Positions of Pons' Test_L2_R2 that take some milliseconds each.
HARD = "2531276566711153"
MEDIUM = ["555317266147361", "651173365733134", "214644735611711"]


def test_the_table_is_kept_across_calls():
    solver = inarow.Solver("connect4", table_mb=16, book=False)
    assert (solver.game, solver.table_mb, solver.weak, solver.threads, solver.book) == (
        "connect4:7x6:k4",
        16,
        False,
        1,
        False,
    )
    first = solver.solve(HARD)
    again = solver.solve(inarow.Position("connect4", HARD))
    assert first.score == again.score == 2
    assert again.nodes < first.nodes / 10
    solver.reset()
    assert solver.solve(HARD).nodes == first.nodes
    assert repr(solver) == "Solver('connect4:7x6:k4', table_mb=16, weak=False, threads=1, book=False)"


def test_solver_methods():
    solver = inarow.Solver("connect4:5x4")
    s = solver.solve("33", best_moves=True)
    assert s.best_moves is not None and s.pv is None
    assert solver.solve("33").best_moves is None
    values = solver.analyze("33")
    assert values[0].value == s.score and values[0].move in s.best_moves
    assert solver.best_move("33", think=0.2) in s.best_moves
    weak = inarow.Solver("connect4:5x4", weak=True).solve("33")
    assert weak.score == (s.score > 0) - (s.score < 0) and not weak.exact


def test_threads_give_the_same_values(data_dir):
    lines = (data_dir / "connect4" / "Test_L2_R2").read_text().split("\n")[:60]
    moves = [line.split()[0] for line in lines]
    one = inarow.solve_many("connect4", moves, threads=1)
    two = inarow.solve_many("connect4", moves, threads=2)
    assert [s.score for s in one] == [s.score for s in two]
    # Each position from a cleared table, whichever thread solves it: the same searches.
    assert [s.nodes for s in one] == [s.nodes for s in two]
    shared = inarow.Solver("connect4", threads=2, book=False)
    assert [shared.solve(m).score for m in moves[:20]] == [s.score for s in one[:20]]


def test_python_threads_share_solvers_safely():
    positions = MEDIUM * 4
    expected = [inarow.Position("connect4", m).solve(best_moves=False).score for m in MEDIUM]
    solver = inarow.Solver("connect4")
    with ThreadPoolExecutor(4) as pool:
        by_position = list(pool.map(lambda m: inarow.Position("connect4", m).solve().score, positions))
        by_solver = list(pool.map(lambda m: solver.solve(m).score, positions))
    assert by_position == by_solver == expected * 4


def test_the_gil_is_released_while_searching():
    """A thread counts while another searches: it could not if the search held the GIL."""
    done = threading.Event()
    count = 0

    def counter():
        nonlocal count
        while not done.is_set():
            count += 1
            time.sleep(0.001)

    thread = threading.Thread(target=counter)
    thread.start()
    try:
        before = count
        solution = inarow.Solver("connect4", book=False).solve("", time=0.5)
        during = count - before
    finally:
        done.set()
        thread.join()
    assert solution.stopped == "time limit reached"
    assert during >= 50


def test_solve_many_takes_positions_and_strings():
    ps = [inarow.Position("connect4", "4453"), "2252576253462244111563365343671351441"]
    solved = inarow.solve_many("connect4", ps, best_moves=True)
    assert solved[1].score == -1 and solved[1].best_moves == ["6"]
    assert inarow.solve_many("connect4", []) == []
    inarow.clear_tables()
    assert inarow.solve_many("connect4", ["4455667"])[0].outcome == "loss"


def test_qubic_strategy_moves_are_proven_wins():
    """The engine playing first in Qubic answers from its proven strategy past the first move:
    the choice is a proven win, and the analysis marks the strategy's moves won and every move
    of the side that loses to it lost."""
    solver = inarow.Solver("qubic")
    chosen = solver.choose(inarow.Position("qubic", "a11b22"), think=10)
    # Written as the solver's values of Qubic are (win / draw / loss as 1 / 0 / -1).
    assert (chosen.exact, chosen.kind, chosen.value, chosen.text) == (True, "score", 1, "1"), chosen
    assert solver.best_move("a11b22", think=10) == chosen.move
    values = inarow.Position("qubic", "a11d44").analyze(time=1)
    assert (values[0].move, values[0].value, values[0].exact) == ("d11", 1, True), values[:3]
    lost = inarow.Position("qubic", "a11d44d11").analyze(time=1)
    assert len(lost) == 61 and all(v.exact and v.value == -1 for v in lost), lost[:3]


def test_qubic_is_solved_from_its_strategy_at_once():
    """``solve`` answers from Qubic's strategy (a proof) on its line, without a search: the
    empty board a win for the first player, a11 a loss for the second. Off the line it
    searches (here stopped by its node limit)."""
    solver = inarow.Solver("qubic")
    won, lost = solver.solve(""), solver.solve("a11")
    assert (won.score, won.nodes, lost.score, lost.nodes) == (1, 0, -1, 0), (won, lost)
    assert inarow.Position("qubic", "a11d44").solve(best_moves=False).score == 1
    # The losing side's best moves are all its moves: the default solve answers them at once.
    lost_moves = inarow.Position("qubic", "a11").solve()
    assert (lost_moves.score, lost_moves.nodes) == (-1, 0), lost_moves
    assert len(lost_moves.best_moves) == 63 and "a11" not in lost_moves.best_moves, lost_moves
    off = solver.solve("a12", nodes=20000)
    assert off.score is None and off.stopped, off
