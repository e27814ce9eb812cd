"""Speed of inarow.envs.InarowEnv: a random agent's episodes against an opponent (by default
the perfect one on 7x6 Connect Four, which answers from the built-in book: every position to 8
plies, and past it to 10 the positions a perfect player meets), in agent steps a second (each
step: the agent's move, the opponent's reply, the observation), the opponent's mean reply, and
its replies by the plies of the position it answers: how many, mean, p95 and max, in
milliseconds.

    python python/bench/env_speed.py                    # 200 episodes, perfect opponent, 7x6
    python python/bench/env_speed.py --episodes 50 --observation openspiel
    python python/bench/env_speed.py --game cube --opponent best --think 0.01
"""

import argparse
import time

import numpy as np

from inarow.envs import InarowEnv


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="connect4")
    parser.add_argument("--opponent", default="perfect")
    parser.add_argument("--think", type=float, default=0.1)
    parser.add_argument("--observation", default=None)
    parser.add_argument("--episodes", type=int, default=200)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    env = InarowEnv(args.game, opponent=args.opponent, think=args.think,
                    agent_plays="random", observation=args.observation)
    rng = np.random.default_rng(args.seed)
    steps = 0
    replies, by_ply = [], []
    results = {1.0: 0, 0.0: 0, -1.0: 0}
    estimated = 0
    began, cpu = time.perf_counter(), time.process_time()
    for episode in range(args.episodes):
        obs, info = env.reset(seed=args.seed + episode)
        if info["opponent_move"] is not None:
            replies.append(env.reply_ms)
            by_ply.append((0, env.reply_ms))
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            ply = env.position.ply + 1  # the plies of the position the opponent answers
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
            if info["opponent_move"] is not None:
                replies.append(env.reply_ms)
                estimated += info["opponent_estimated"]
                by_ply.append((ply, env.reply_ms))
        results[float(reward)] += 1
    seconds = time.perf_counter() - began
    cpu = time.process_time() - cpu
    print(f"{env.game}, opponent {args.opponent}, observation {env.layout}: "
          f"{args.episodes} episodes, {steps} agent steps in {seconds:.2f} s: "
          f"{steps / seconds:.0f} steps/s; without the opponent's replies "
          f"({sum(replies) / 1000:.2f} s) {steps / (seconds - sum(replies) / 1000):.0f} steps/s; "
          f"CPU time {cpu:.2f} s ({steps / cpu:.0f} steps a CPU second)")
    print(f"agent won {results[1.0]}, drew {results[0.0]}, lost {results[-1.0]}; "
          f"{estimated} replies estimated")
    r = np.array(replies)
    print(f"opponent replies: {len(r)}, mean {r.mean():.3f} ms, p95 {np.percentile(r, 95):.3f} ms, "
          f"max {r.max():.3f} ms")
    for ply in sorted({p for p, _ in by_ply}):
        b = np.array([ms for p, ms in by_ply if p == ply])
        print(f"replies to positions of {ply} plies: {len(b)}, total {b.sum():.1f} ms, "
              f"mean {b.mean():.3f} ms, p95 {np.percentile(b, 95):.3f} ms, max {b.max():.3f} ms")


if __name__ == "__main__":
    main()
