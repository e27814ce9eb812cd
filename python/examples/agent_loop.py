"""The loop of an agent in inarow's Gymnasium environment: reset, pick a legal action from the
mask, step, until the episode ends; here a random agent against perfect play on 7x6 Connect
Four (answers from the built-in book at once). Nothing is trained: put a policy where the
random choice is.

    pip install "./python[gym]"      # from the clone (inarow is not on PyPI), or beside an
                                     # installed wheel: pip install gymnasium pettingzoo numpy
    python python/examples/agent_loop.py --episodes 3
"""

import argparse

import gymnasium as gym
import numpy as np

import inarow.envs  # noqa: F401  (registers inarow/Connect4-v0 and the other games)


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--env", default="inarow/Connect4-v0")
    parser.add_argument("--episodes", type=int, default=3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)

    env = gym.make(args.env, agent_plays="random")
    rng = np.random.default_rng(args.seed)
    for episode in range(args.episodes):
        obs, info = env.reset(seed=args.seed + episode)
        done, steps = False, 0
        while not done:
            legal = np.flatnonzero(info["action_mask"])  # or obs["action_mask"]
            action = int(rng.choice(legal))              # the agent's policy goes here
            obs, reward, terminated, truncated, info = env.step(action)
            done = terminated or truncated
            steps += 1
        result = {1.0: "won", 0.0: "drew", -1.0: "lost"}[float(reward)]
        print(f"episode {episode + 1}: agent played {info['agent_plays']}, {result} after "
              f"{steps} moves ({info['moves']})")
    env.close()


if __name__ == "__main__":
    main()
