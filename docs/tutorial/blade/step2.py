# Blade, step 2: play the smallest number card that puts us ahead.
#
# After our play we must be strictly ahead, or we lose at once. So look at the scores, and
# take the smallest number card that is enough: winning by a small margin keeps the big cards
# for later. Only when no number card is enough do we try a B or an M.
NUMBER = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7}


def act(obs):
    if obs["phase"] == "setup":
        return obs["legal"][0]  # a set-up pick: anything goes
    mine = obs["scores"][obs["seat"]]
    theirs = obs["scores"][1 - obs["seat"]]
    for card in obs["legal"]:  # legal is sorted: 1..7, B, M
        if card in NUMBER and mine + NUMBER[card] > theirs:
            return card
    for card in obs["legal"]:  # no number is enough:
        if card in ("M", "B"):
            return card  # try an effect card
    return obs["legal"][0]  # nothing helps: we lose anyway
