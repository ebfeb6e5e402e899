# Lost Cities tutorial, step 1: the smallest bot that plays a whole game.
# (docs/tutorial/lost-cities.md)
#
#   arena play --game lost-cities --bots docs/tutorial/lost-cities/step1.py,greedy
#
# Every turn is two decisions: play or discard a card (obs["phase"] == "play"), then draw
# (obs["phase"] == "draw"). obs["legal"] lists every legal action; the first one is always
# legal, so this bot can never fault. In the play phase it is "play <our lowest card>"
# when that card fits our expedition: the bot starts an expedition in every suit.


def act(obs):
    return obs["legal"][0]
