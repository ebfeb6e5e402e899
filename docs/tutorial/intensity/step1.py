# Intensity tutorial, step 1: the smallest bot that plays a whole game.
# (docs/tutorial/intensity.md)
#
#   arena play --game intensity --bots docs/tutorial/intensity/step1.py,greedy,greedy,greedy
#
# obs["legal"] lists every legal action, ascending: in the pass phase the first one passes
# our three lowest cards, in the tricks it plays our lowest playable card.


def act(obs):
    return obs["legal"][0]
