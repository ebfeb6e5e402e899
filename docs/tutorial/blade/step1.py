# Blade, step 1: the smallest bot that plays. It answers the first legal action.
#
# `legal` lists the distinct cards in our hand in the order 1 2 3 4 5 6 7 B M, so this bot
# always plays its smallest card, whether or not that is enough to get ahead.
def act(obs):
    return obs["legal"][0]
