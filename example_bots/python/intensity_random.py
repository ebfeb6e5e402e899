# intensity_random.py: the simplest possible intensity bot. It picks one of the legal actions uniformly at
# random. Run it with:
#   arena play --game intensity --bots example_bots/python/intensity_random.py,greedy
#
# obs["legal"] always holds every legal action for this decision (docs/games/intensity.md), and
# random is seeded from the match seed, so the same seed replays the same match.
import random


def act(obs):
    return random.choice(obs["legal"])
