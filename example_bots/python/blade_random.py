# blade_random.py: the simplest possible blade bot. It picks one of the legal actions uniformly at
# random. Run it with:
#   arena play --game blade --bots example_bots/python/blade_random.py,greedy
#
# obs["legal"] always holds every legal action for this decision (docs/games/blade.md), and
# random is seeded from the match seed, so the same seed replays the same match.
import random


def act(obs):
    return random.choice(obs["legal"])
