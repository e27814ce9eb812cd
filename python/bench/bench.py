"""The Python package's benchmark (README, "Python"): `solve_many` against `inarow bench` on
Pons' public sets, the cost of a call on trivial positions, and Pons' solver driven from
Python through a subprocess, as its users drive it today.

    python python/bench/bench.py --inarow target/release/inarow --data ../shared/data \\
        --pons ../anchors [--limit 1000] [--rounds 3]

Each figure is a median over `--rounds`, the runs of the two sides alternating so that the
machine's load falls on both alike. `--pons` is the folder that shared/anchors'
build_c4_anchors.sh builds into (pons/c4solver, c4bench/ponsbench); without it, that part is
skipped. Pin it to one core (`taskset -c 1`) for figures comparable with `inarow bench`'s.
"""

import argparse
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

import inarow

SETS = ["Test_L3_R1", "Test_L2_R1", "Test_L2_R2"]
# Each set is solved this many times over in one run, so that a run lasts long enough for its
# wall time to mean something (the first set takes 3 us a position), and the command line's
# start-up (tens of ms, more on a loaded machine) weighs little on its whole time per position.
REPEAT = {"Test_L3_R1": 30, "Test_L2_R1": 10, "Test_L2_R2": 1}


def read_set(path: Path, limit: int):
    pairs = [line.split() for line in path.read_text().splitlines() if line.strip()][:limit]
    return [m for m, _ in pairs], [int(v) for _, v in pairs]


def field(text: str, name: str) -> float:
    return float(text.split(f"{name}=")[1].split()[0])


def children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def cli_bench(binary: str, path: Path, n: int):
    """`inarow bench` of `path`: its own mean (the solves alone, wall time), and its whole wall
    and CPU time per position (the process's, less that of a run of one position: start-up,
    table), which count reading each line and clearing the table as solve_many's figures do."""

    def run(limit: int):
        cpu, started = children_cpu(), time.perf_counter()
        out = subprocess.run(
            [binary, "bench", "--limit", str(limit), str(path)],
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        assert f"correct={limit}" in out, out
        return time.perf_counter() - started, children_cpu() - cpu, out

    wall, cpu, out = run(n)
    wall_one, one, _ = run(1)
    return field(out, "mean_us"), (wall - wall_one) / (n - 1) * 1e6, (cpu - one) / (n - 1) * 1e6


def python_bench(moves, expected, threads: int = 1):
    """Wall time and CPU time per position of one `solve_many` call (reading, clearing the
    table, solving, the Solution objects: all of it), and the engine's own mean time."""
    started, cpu = time.perf_counter(), time.process_time()
    solved = inarow.solve_many("connect4", moves, threads=threads, book=False)
    wall, cpu = time.perf_counter() - started, time.process_time() - cpu
    assert [s.score for s in solved] == expected
    n = len(moves)
    return wall / n * 1e6, cpu / n * 1e6, sum(s.time for s in solved) / n * 1e6


def overhead(rounds: int):
    """Per call on positions the engine settles at its root (a win at once): the time of the
    whole call, and that time less the engine's own."""
    trivial = [inarow.Position("connect4", m) for m in ["445566", "112233", "3344556", "776655"]]
    solver = inarow.Solver("connect4")
    n = 20000
    per_call, beyond_engine = [], []
    for _ in range(rounds):
        engine = 0.0
        started = time.perf_counter()
        for i in range(n):
            engine += solver.solve(trivial[i & 3]).time
        wall = time.perf_counter() - started
        per_call.append(wall / n * 1e6)
        beyond_engine.append((wall - engine) / n * 1e6)
    many = [m.moves for m in trivial] * 5000
    inarow.solve_many("connect4", many[:1])  # its table, made once
    batch = []
    for _ in range(rounds):
        started = time.perf_counter()
        solved = inarow.solve_many("connect4", many)
        wall = time.perf_counter() - started
        batch.append((wall - sum(s.time for s in solved)) / len(many) * 1e6)
    return statistics.median(per_call), statistics.median(beyond_engine), statistics.median(batch)


def pons_subprocess(c4solver: Path, moves, expected, per_call: int):
    """Pons' c4solver from Python: one process per position (`subprocess.run`, a fresh 80 MB
    table each time) on the first `per_call` positions, and one process fed every line."""
    cwd = c4solver.parent
    started = time.perf_counter()
    for m, v in zip(moves[:per_call], expected[:per_call]):
        out = subprocess.run([str(c4solver)], input=m + "\n", capture_output=True, text=True, cwd=cwd)
        assert int(out.stdout.split()[1]) == v, out
    each = (time.perf_counter() - started) / per_call * 1e6
    started = time.perf_counter()
    text = subprocess.run(
        [str(c4solver)], input="".join(m + "\n" for m in moves), capture_output=True, text=True, cwd=cwd
    ).stdout
    batch = (time.perf_counter() - started) / len(moves) * 1e6
    assert [int(line.split()[1]) for line in text.splitlines()] == expected
    return each, batch


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--inarow", default="target/release/inarow")
    parser.add_argument("--data", default="../shared/data")
    parser.add_argument("--pons", default=os.environ.get("ANCHORS"))
    parser.add_argument("--limit", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--pons-per-call", type=int, default=100)
    parser.add_argument("--threads", type=int, default=0,
                        help="also solve_many on this many threads (run unpinned)")
    args = parser.parse_args()

    pons = Path(args.pons) if args.pons else None
    c4solver = pons / "pons" / "c4solver" if pons else None
    ponsbench = pons / "c4bench" / "ponsbench" if pons else None
    have_pons = pons is not None and c4solver.exists() and ponsbench.exists()

    # The tables, made once (about 10 ms for 64 MiB, and more on a loaded machine).
    started = time.perf_counter()
    inarow.solve_many("connect4", ["4455"], book=False)
    made = time.perf_counter() - started
    if args.threads > 1:
        inarow.solve_many("connect4", ["4455"] * args.threads, threads=args.threads, book=False)
    print(f"inarow {inarow.__version__}, Python {sys.version.split()[0]}, {args.limit} positions "
          f"a set, median of {args.rounds}; first call (makes the table) {made * 1e3:.0f} ms")
    print()
    header = ["set", "inarow bench mean_us", "solve_many us/position", "ratio",
              "engine's own us", "inarow bench whole us/position", "ratio to whole",
              "CPU us/position: inarow bench", "solve_many", "ratio"]
    if args.threads > 1:
        header.append(f"solve_many threads={args.threads}")
    header += ["Pons in-process mean_us", "Pons subprocess per position",
               "Pons subprocess, one per set"]
    print("| " + " | ".join(header) + " |")
    print("|" + "---|" * len(header))
    for name in SETS:
        path = Path(args.data) / "connect4" / name
        moves, expected = read_set(path, args.limit)
        reps = REPEAT[name]
        many, many_expected = moves * reps, expected * reps
        # The command line over the set repeated, as one file.
        repeated = Path(os.environ.get("TMPDIR", "/tmp")) / f"inarow-bench-{name}"
        repeated.write_text("".join(f"{m} {v}\n" for m, v in zip(many, many_expected)))
        mean, cli_wall, cli_cpu, wall, cpu, inner, threaded = [], [], [], [], [], [], []
        for _ in range(args.rounds):
            m, cw, c = cli_bench(args.inarow, repeated, len(many))
            mean.append(m)
            cli_wall.append(cw)
            cli_cpu.append(c)
            w, c, i = python_bench(many, many_expected)
            wall.append(w)
            cpu.append(c)
            inner.append(i)
            if args.threads > 1:
                threaded.append(python_bench(many, many_expected, threads=args.threads)[0])
        repeated.unlink()
        med = statistics.median
        m, w, cw, cc, c = med(mean), med(wall), med(cli_wall), med(cli_cpu), med(cpu)
        row = [name, f"{m:.1f}", f"{w:.1f}", f"{w / m:.2f}", f"{med(inner):.1f}",
               f"{cw:.1f}", f"{w / cw:.2f}", f"{cc:.1f}", f"{c:.1f}", f"{c / cc:.2f}"]
        if args.threads > 1:
            row.append(f"{med(threaded):.1f}")
        if have_pons:
            out = subprocess.run([str(ponsbench), f"--limit={args.limit}", str(path)],
                                 capture_output=True, text=True, check=True).stdout
            each, batch = pons_subprocess(c4solver, moves, expected, args.pons_per_call)
            row += [f"{field(out, 'mean_us'):.1f}", f"{each:.0f}", f"{batch:.1f}"]
        else:
            row += ["-", "-", "-"]
        print("| " + " | ".join(row) + " |", flush=True)
    print()
    call, beyond, batch = overhead(args.rounds)
    print(f"Solver.solve on trivial positions: {call:.2f} us a call, {beyond:.2f} us beyond the "
          f"engine's own time; solve_many: {batch:.2f} us a position beyond the engine's")


if __name__ == "__main__":
    main()
