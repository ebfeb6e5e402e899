# lost-cities_random.py: the simplest possible lost-cities bot. It picks one of the legal actions uniformly at
# random. Run it with:
#   arena play --game lost-cities --bots example_bots/python/lost-cities_random.py,greedy
#
# obs["legal"] always holds every legal action for this decision (docs/games/lost-cities.md), and
# random is seeded from the match seed, so the same seed replays the same match.
import random


def act(obs):
    return random.choice(obs["legal"])
