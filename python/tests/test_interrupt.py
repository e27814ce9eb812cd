"""Ctrl-C stops a search that runs with the GIL released: SIGINT is sent to a child Python
running a long search, as a terminal sends it."""

import signal
import subprocess
import sys
import textwrap
import time

import pytest

# Searches that run for many seconds at least (the empty 7x6 board without the book, 8x7 boards;
# PopOut's empty boards are proved in under a second, so its case analyzes every move of 8x7: 49 s).
LONG = {
    "solve": 'inarow.Solver("connect4", book=False).solve("")',
    "position": 'inarow.Position("connect4:8x7", "").solve()',
    "analyze": 'inarow.Position("connect4:8x7", "").analyze()',
    "best_move": 'inarow.Position("connect4:8x7", "4").best_move(think=120)',
    "solve_many": 'inarow.solve_many("connect4", ["4", "3", "5"], threads=2, book=False)',
    "popout": 'inarow.Position("popout:8x7", "").analyze()',
}


def run_child(body: str, wait: float = 0.4, timeout: float = 30.0):
    """Runs `body` in a child that says `ready` first; sends SIGINT `wait` seconds later.
    Returns the child's output and how long it took from the signal to its end."""
    code = "import inarow, signal, sys, time\nprint('ready', flush=True)\n" + textwrap.dedent(body)
    child = subprocess.Popen(
        [sys.executable, "-c", code], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
    )
    assert child.stdout.readline().strip() == "ready"
    time.sleep(wait)
    sent = time.monotonic()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        child.kill()
        pytest.fail("the child did not stop after SIGINT")
    return out, err, time.monotonic() - sent


@pytest.mark.parametrize("call", sorted(LONG))
def test_ctrl_c_raises_keyboard_interrupt(call):
    out, err, took = run_child(
        f"""
        try:
            {LONG[call]}
            print("finished")
        except KeyboardInterrupt:
            print("interrupted")
        # The handler in place is Python's again: a second Ctrl-C interrupts plain Python.
        assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
        import os
        try:
            os.kill(os.getpid(), signal.SIGINT)
            time.sleep(5)
            print("not interrupted")
        except KeyboardInterrupt:
            print("interrupted again")
        """
    )
    assert out.splitlines() == ["interrupted", "interrupted again"], err
    assert took < 5.0


def test_a_handler_that_does_not_raise_gets_a_stopped_solution():
    out, err, _ = run_child(
        """
        caught = []
        signal.signal(signal.SIGINT, lambda *_: caught.append(1))
        s = inarow.Solver("connect4", book=False).solve("")
        print(s.score, s.stopped, caught)
        """
    )
    assert out.strip() == "None interrupted [1]", err


def test_an_ignored_sigint_stops_nothing():
    out, err, _ = run_child(
        """
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        s = inarow.Solver("connect4", book=False).solve("", time=1.5)
        print(s.stopped)
        """,
        wait=0.3,
    )
    assert out.strip() == "time limit reached", err
