# Blade, step 3: work out what every card would do, then play the cheapest card that wins.
#
# Step 2 guessed blindly with B and M. Here we compute both scores after each card we could
# play (B bolts their top card, M swaps the fields, 1 revives our bolted card), and rate it:
#
#   * still behind afterwards: we lose now (the worst);
#   * a tie: the set-up starts again (better than losing);
#   * ahead: good, and the cheaper the card we spend, the better.
#
# "Cheap" is what a card is worth to us later. A number card costs its value. B and M cost
# as much as a 6: they are our best answers later (a Mirror works whenever we are behind). A
# plain 1 costs 3.5, because it is the only card that revives a bolted card. And a hand of
# only B and M is doomed (playing one as our last card loses), so we spend them in time.

# B and M count 1 only when placed on a field at set-up
VALUE = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "B": 1, "M": 1}
COST = {"1": 3.5, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "B": 6, "M": 6}


def worth(field, i):
    """The value of card i of a field (0 if it is bolted or there is none)."""
    if i < 0 or i >= len(field) or not field[i]["valid"]:
        return 0
    return VALUE[field[i]["card"]]


def top_of(field):
    return field[-1] if field else None


def scores_after(obs, card):
    """Both scores after we play `card`: (ours, theirs). The rules of a turn in
    docs/games/blade.md, computed from the scores and the top cards only."""
    me, them = obs["seat"], 1 - obs["seat"]
    mine, theirs = obs["scores"][me], obs["scores"][them]
    my_field, their_field = obs["fields"][me], obs["fields"][them]
    my_top = top_of(my_field)
    if card == "M":
        return theirs, mine  # swap the fields
    if card == "B":  # bolt their top card
        top = len(their_field) - 1
        if their_field and not their_field[top]["valid"]:
            top -= 1  # (their bolted top goes first)
        return mine, theirs - worth(their_field, top)
    if card == "1" and my_top and not my_top["valid"]:  # revive our bolted top card
        return mine + VALUE[my_top["card"]], theirs
    return mine + VALUE[card], theirs  # place a number card


def left_after(hand, card):
    """How many B and M would be left in our hand after playing `card`, and how many cards."""
    effects = sum(1 for c in hand if c in ("B", "M"))
    if card in ("B", "M"):
        effects -= 1
    return effects, len(hand) - 1


def rate_turn(obs, card):
    effects, left = left_after(obs["hand"], card)
    if left == 0 and card in ("B", "M"):
        return -1e6  # last card: lose
    mine, theirs = scores_after(obs, card)
    cost = COST[card]
    top = top_of(obs["fields"][obs["seat"]])
    if card == "1" and top and not top["valid"]:
        cost = 0.5  # reviving: a bargain
    if left > 0 and effects == left:
        cost += 60  # only B/M would be left
    if mine > theirs:
        return 1000 - cost
    if mine == theirs:
        return -100 - cost
    return -100000 - cost


def rate_pick(obs, card):
    """A set-up pick (our deck is empty): place a cheap card. B and M first (on the field they
    are plain 1s), and avoid tying the card the opponent has already placed."""
    rating = 0 if card in ("B", "M") else -VALUE[card]
    top = top_of(obs["fields"][1 - obs["seat"]])
    if top and VALUE[top["card"]] == VALUE[card]:
        rating -= 10
    return rating


def act(obs):
    rate = rate_pick if obs["phase"] == "setup" else rate_turn
    # the first legal card with the highest rating (max keeps the first of equals)
    return max(obs["legal"], key=lambda card: rate(obs, card))
