"""The Gymnasium and PettingZoo environments (inarow.envs): the libraries' own checkers on every
game, the observation layouts read back into positions, the opponents and their info."""

import pytest

gymnasium = pytest.importorskip("gymnasium")
pytest.importorskip("pettingzoo")
np = pytest.importorskip("numpy")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

import inarow  # noqa: E402
from inarow import envs  # noqa: E402

GAMES = ["connect4", "connect4:5x4", "popout", "cube", "qubic", "pentago"]
ACTIONS = {"connect4": 7, "connect4:5x4": 5, "popout": 14, "cube": 16, "qubic": 64, "pentago": 288}


def opponent_of(game):
    # Perfect play from the book on 7x6 and on small boards; elsewhere a fixed-depth search,
    # whose reply does not depend on the clock (check_env steps twice from one seed and wants
    # the same observation: a search cut by a think time gave another move on a busy machine).
    if game.startswith("connect4"):
        return {"opponent": "perfect"}
    return {"opponent": "depth2", "think": 10.0}


@pytest.mark.parametrize("game", GAMES)
def test_gymnasium_check_env(game):
    env = envs.InarowEnv(game, **opponent_of(game))
    assert env.action_space.n == ACTIONS[game]
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("observation", ["pettingzoo", "openspiel", "planes"])
@pytest.mark.parametrize("agent_plays", ["first", "second", "random"])
def test_gymnasium_check_env_layouts(observation, agent_plays):
    env = envs.InarowEnv("connect4", observation=observation, agent_plays=agent_plays)
    check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize("game", GAMES)
def test_pettingzoo_api_test(game):
    api_test(envs.aec_env(game), num_cycles=200)


def test_pettingzoo_planes_layout():
    api_test(envs.aec_env("connect4", observation="planes"), num_cycles=100)


@pytest.mark.parametrize("env_id", sorted(envs.ENV_IDS))
def test_registered(env_id):
    env = gymnasium.make(env_id, **({"think": 0.01} if env_id != "inarow/Connect4-v0" else {}))
    obs, info = env.reset(seed=3)
    assert info["action_mask"].sum() > 0
    env.close()


def test_layouts_read_back_into_positions():
    """Each observation is the board of the position: from_pettingzoo and from_openspiel give it
    back, and the planes hold the same stones."""
    rng = np.random.default_rng(7)
    for observation in ("pettingzoo", "openspiel", "planes"):
        env = envs.InarowEnv("connect4", observation=observation, agent_plays="random")
        for episode in range(4):
            obs, info = env.reset(seed=episode)
            done = False
            while not done:
                position = env.unwrapped.position
                if observation == "pettingzoo":
                    assert inarow.from_pettingzoo(obs) == position
                    assert (obs["action_mask"] == info["action_mask"]).all()
                elif observation == "openspiel":
                    assert inarow.from_openspiel(obs) == position
                else:
                    grid = np.asarray(position.board.grid())
                    me = 1 if position.to_move == "first" else 2
                    assert obs["observation"].shape == (2, 6, 7)
                    assert (obs["observation"][0] == (grid == me)).all()
                    assert (obs["observation"][1] == (grid == 3 - me)).all()
                legal = {envs.GameActions("connect4").legal(position)[i][0]
                         for i in range(len(position.legal_moves()))}
                assert legal == set(np.flatnonzero(info["action_mask"]))
                action = rng.choice(np.flatnonzero(info["action_mask"]))
                obs, reward, done, truncated, info = env.step(action)
                assert not truncated
            assert reward in (-1.0, 0.0, 1.0)


def test_perfect_opponent_never_estimates_and_wins_as_first():
    env = envs.InarowEnv("connect4", agent_plays="second")
    rng = np.random.default_rng(1)
    rewards = []
    for episode in range(3):
        obs, info = env.reset(seed=episode)
        assert info["opponent_move"] is not None and not info["opponent_estimated"]
        done = False
        while not done:
            action = rng.choice(np.flatnonzero(info["action_mask"]))
            obs, reward, done, _, info = env.step(action)
            assert not info["opponent_estimated"]
        rewards.append(reward)
    assert rewards == [-1.0] * 3  # the first player wins with perfect play


def test_level_opponents_estimate():
    for opponent in ("random", "depth2", "alphabeta", "mcts"):
        env = envs.InarowEnv("connect4:6x5", opponent=opponent, think=0.01, agent_plays="second")
        obs, info = env.reset(seed=0)
        assert info["opponent_estimated"], opponent
    env = envs.InarowEnv("connect4", opponent="best", think=0.05, agent_plays="second")
    obs, info = env.reset(seed=0)
    assert not info["opponent_estimated"]  # from the book


def test_random_opponent_follows_the_seed():
    env = envs.InarowEnv("cube", opponent="random", agent_plays="second")
    replies = {env.reset(seed=s)[1]["opponent_move"] for s in range(12)}
    assert len(replies) > 1
    assert env.reset(seed=5)[1]["opponent_move"] == env.reset(seed=5)[1]["opponent_move"]


def test_actions_of_each_game():
    ga = envs.GameActions("popout")
    p = inarow.Position("popout", "45")  # the first player to move, its stone at the bottom of 4
    legal = dict(ga.legal(p))
    assert legal[3] == "4" and legal[7 + 3] == "p4"
    ga = envs.GameActions("pentago")
    start = dict(ga.legal(ga.start))
    assert len(start) == 288 and start[0] == "a10r" and start[8 * 7 + 2 * 3 + 1] == "b23l"
    assert len(set(start.values())) == 288
    for move in start.values():  # every action is a legal move
        ga.start.play(move)
    ga = envs.GameActions("qubic")
    assert sorted(a for a, _ in ga.legal(ga.start)) == list(range(64))
    ga = envs.GameActions("cube")
    assert sorted(a for a, _ in ga.legal(ga.start)) == list(range(16))


def test_illegal_action():
    env = envs.InarowEnv("popout")
    env.reset(seed=0)
    obs, reward, terminated, truncated, info = env.step(7)  # a pop of an empty column
    assert (reward, terminated, info["illegal"]) == (-1.0, True, True)
    env = envs.InarowEnv("popout", illegal="raise")
    env.reset(seed=0)
    with pytest.raises(ValueError):
        env.step(7)


def test_bad_arguments():
    with pytest.raises(ValueError):
        envs.InarowEnv("cube", observation="pettingzoo")
    with pytest.raises(ValueError):
        envs.InarowEnv("connect4", opponent="strong")
    with pytest.raises(inarow.Error):
        envs.InarowEnv("connect5")


def test_example_and_bench_run():
    import subprocess
    import sys
    from pathlib import Path

    here = Path(__file__).resolve().parents[1]
    done = subprocess.run(
        [sys.executable, str(here / "examples" / "agent_loop.py"), "--episodes", "2"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    lines = done.stdout.strip().splitlines()
    assert len(lines) == 2 and all(line.startswith("episode ") for line in lines)
    done = subprocess.run(
        [sys.executable, str(here / "bench" / "env_speed.py"), "--episodes", "3"],
        capture_output=True, text=True, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "steps/s" in done.stdout


def test_aec_equals_pettingzoo_connect_four():
    """The same actions in PettingZoo's own connect_four_v3 and in aec_env("connect4") give the
    same observations, masks, rewards and ends."""
    pytest.importorskip("pygame")  # what PettingZoo's classic games import
    from pettingzoo.classic import connect_four_v3

    rng = np.random.default_rng(11)
    for game in range(20):
        theirs, ours = connect_four_v3.env(), envs.aec_env("connect4")
        theirs.reset(seed=game)
        ours.reset(seed=game)
        while True:
            assert theirs.agent_selection == ours.agent_selection
            over = theirs.terminations["player_0"]
            for agent in ("player_0", "player_1"):
                a, b = theirs.observe(agent), ours.observe(agent)
                assert (a["observation"] == b["observation"]).all()
                if not over:
                    assert (a["action_mask"] == b["action_mask"]).all()
                else:  # connect_four_v3 still marks the columns not full; no move is legal
                    assert not b["action_mask"].any()
            o1, r1, t1, u1, _ = theirs.last()
            o2, r2, t2, u2, _ = ours.last()
            assert (r1, t1, u1) == (r2, t2, u2)
            if t1 or u1:
                break
            action = int(rng.choice(np.flatnonzero(o1["action_mask"])))
            theirs.step(action)
            ours.step(action)
        assert theirs.rewards == ours.rewards
