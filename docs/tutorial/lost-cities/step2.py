# Lost Cities tutorial, step 2: never start an expedition.
# (docs/tutorial/lost-cities.md)
#
#   arena play --game lost-cities --bots docs/tutorial/lost-cities/step2.py,greedy
#
# An expedition costs 20 points before its cards count: step 1 starts expeditions with a
# card or two each and ends about 30 points below zero. This bot never plays a card: it
# discards, and draws from the deck. Its score is always 0.


def act(obs):
    if obs["phase"] == "draw":
        return "draw deck"  # "draw deck" is always legal
    # Play phase: for each hand card, legal has "play X" (if it fits) and "discard X".
    for action in obs["legal"]:
        if action.startswith("discard"):
            return action
