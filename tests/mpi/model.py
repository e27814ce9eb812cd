#!/usr/bin/env python3
"""A model, not a measurement: the distributed retrograde build (`mpirun -n P inarow retro build`)
on 8 to 1024 ranks, from what was measured on this machine (PopOut 5x5, README "Retrograde
analysis over MPI"). Prints one Markdown table per game.

Measured inputs (popout:5x5, 496,343,295 cells, 38 rounds):
  - one process, one thread: 30.0 s in all, 60 ns per cell (set-up, rounds, write);
  - 421,423,251 predecessors found in all (0.85 per cell), independent of the ranks;
  - the share of predecessors sent to another rank, f(P): 0.077 (2 ranks), 0.400 (3), 0.440 (4),
    0.556 (6), 0.657 (8); beyond 8 it is extrapolated by its growth per doubling from 3 to 8
    (0.18), up to 1.
Assumed: the rounds of 6x5 (50; 5x6 took 45), 6x6 and 7x5 (60) and 7x6 (70), and, for a cluster rather than this
machine, each rank sends at BANDWIDTH bytes/s, and an all-to-all
costs LATENCY seconds per peer; a rank makes at least one exchange per round, and one per
batch of 262,144 frontier positions.
"""

import math

NS_PER_CELL = 30.0 / 496_343_295
PREDECESSORS_PER_CELL = 421_423_251 / 496_343_295
BATCH = 262_144
BANDWIDTH = 1.5e9  # bytes/s per rank (a 100 Gb/s link shared by 8 ranks)
LATENCY = 2e-6  # s per peer per all-to-all
MEASURED_REMOTE = {2: 0.077, 3: 0.400, 4: 0.440, 6: 0.556, 8: 0.657}


def remote_share(ranks):
    if ranks in MEASURED_REMOTE:
        return MEASURED_REMOTE[ranks]
    return min(1.0, MEASURED_REMOTE[8] + 0.18 * math.log2(ranks / 8))


def model(name, cells, rounds):
    rank_hours = cells * NS_PER_CELL / 3600
    print(
        f"\n{name}: {cells:,} cells, {rounds} rounds; {human_bytes(1.25 * cells)} of memory in "
        f"all (1.25 bytes a cell), {rank_hours:,.1f} rank-hours of computing\n"
    )
    print("| ranks | memory per rank | compute | bandwidth | latency | total | communication share |")
    print("|---|---|---|---|---|---|---|")
    for ranks in [8, 16, 32, 64, 128, 256, 512, 1024]:
        compute = cells * NS_PER_CELL / ranks
        sent = 8 * remote_share(ranks) * cells * PREDECESSORS_PER_CELL / ranks
        bandwidth = sent / BANDWIDTH
        exchanges = rounds + cells / ranks / BATCH
        latency = exchanges * ranks * LATENCY
        total = compute + bandwidth + latency
        share = (bandwidth + latency) / total
        memory = 1.25 * cells / ranks
        print(
            f"| {ranks} | {human_bytes(memory)} | {seconds(compute)} | {seconds(bandwidth)} "
            f"| {seconds(latency)} | {seconds(total)} | {share:.0%} |"
        )


def human_bytes(n):
    for unit, size in [("PB", 1e15), ("TB", 1e12), ("GB", 1e9), ("MB", 1e6)]:
        if n >= size:
            return f"{n / size:.1f} {unit}"
    return f"{n:.0f} B"


def seconds(s):
    if s >= 3600:
        return f"{s / 3600:.1f} h"
    if s >= 60:
        return f"{s / 60:.1f} min"
    return f"{s:.2f} s"


if __name__ == "__main__":
    model("popout:5x5 (measured base)", 496_343_295, 38)
    model("popout:6x5 (rounds assumed)", 31_261_876_128, 50)
    model("popout:6x6 (rounds assumed)", 2_097_937_481_536, 60)
    model("popout:7x5 (rounds assumed)", 1_969_498_196_064, 60)
    model("popout:7x6 (rounds assumed)", 266_438_060_155_072, 70)
