# blade_greedy.py: a one-move-lookahead Blade bot, written to be read (the Python twin of
# example_bots/lua/blade_greedy.lua).
#
#   arena play --game blade --bots example_bots/python/blade_greedy.py,random
#
# For every card we could play, work out what the two fields would look like afterwards (the
# rules are simple enough to simulate in a few lines), rate the move and play the best one:
#
#   * a move that leaves us behind loses on the spot: never, unless there is nothing else;
#   * a move that ties only restarts the set-up: better than losing, worse than going ahead;
#   * among the moves that go ahead, prefer the one that spends the least valuable card, and
#     the one after which the opponent is least likely to have an answer.
#
# Everything comes from the observation (docs/games/blade.md): our hand, both fields, the hand
# sizes and the cards we have not seen yet. obs["fields"][s] is the field of seat s.

# What a card adds to a field. B and M only lie on a field when placed at set-up, worth 1.
VALUE = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "B": 1, "M": 1}

# How much we dislike spending B or M when it would put us ahead: as much as a 6.
EFFECT_COST = 6


def score(field):
    """The score of one field: the sum of its valid (not bolted) cards."""
    return sum(VALUE[c["card"]] for c in field if c["valid"])


def drop_bolted_top(field):
    if field and not field[-1]["valid"]:
        field.pop()


def after(fields, me, card):
    """The two fields (indexed by seat) after seat `me` plays `card`: the rules of a turn."""
    mine = [dict(c) for c in fields[me]]  # copies: the observation itself never changes
    theirs = [dict(c) for c in fields[1 - me]]
    top = mine[-1] if mine else None
    if card == "1" and top is not None and not top["valid"]:
        top["valid"] = True  # 1 revives our bolted top card...
    elif card == "1":
        mine.append({"card": "1", "valid": True})  # ...or is placed as a 1
    elif card == "B":
        drop_bolted_top(theirs)  # B: clear their bolted top card, then bolt the new top
        if theirs:
            theirs[-1]["valid"] = False
    elif card == "M":
        mine, theirs = theirs, mine  # M: swap the fields completely
    else:
        drop_bolted_top(mine)  # 2..7: clear our bolted top, then place
        mine.append({"card": card, "valid": True})
    out = [None, None]
    out[me], out[1 - me] = mine, theirs
    return out


def chance_of_none(pool, good, hand):
    """The chance that `hand` cards drawn from `pool` unseen cards hold none of `good` ones."""
    p = 1.0
    for i in range(hand):
        bad_left, pool_left = pool - good - i, pool - i
        if bad_left <= 0:
            return 0.0
        p *= bad_left / pool_left
    return p


def answers(fields, me, obs):
    """How many of the opponent's possible cards would put it strictly ahead after our move."""
    them = 1 - me
    last_card = obs["hand_counts"][them] == 1
    count = 0
    for card in obs["unseen"]:
        if last_card and card in ("B", "M"):
            continue  # a B or M as its last card loses at once: no answer
        nxt = after(fields, them, card)
        if score(nxt[them]) > score(nxt[me]):
            count += 1
    return count


def card_cost(obs, card):
    """What spending `card` costs us (lower is better)."""
    if card in ("B", "M"):
        return EFFECT_COST
    if card == "1":
        field = obs["fields"][obs["seat"]]
        if field and not field[-1]["valid"]:
            return 0.5  # reviving a bolted card: a bargain
        return 3.5 if "B" in obs["unseen"] else 1  # keep it to revive a card bolted later
    return VALUE[card]


def only_effects_left(hand, card):
    """Whether the hand would hold only B and M after playing `card` (a doomed hand)."""
    rest = list(hand)
    rest.remove(card)
    return len(rest) > 0 and all(c in ("B", "M") for c in rest)


def rate_turn(obs, card):
    me, them = obs["seat"], 1 - obs["seat"]
    if len(obs["hand"]) == 1 and card in ("B", "M"):
        return -1e6  # B or M as the last card: an instant loss
    fields = after(obs["fields"], me, card)
    mine, theirs = score(fields[me]), score(fields[them])
    cost = card_cost(obs, card)
    if only_effects_left(obs["hand"], card):
        cost += 60
    if mine < theirs:
        return -1e5 - cost  # behind: we lose now
    if mine == theirs:
        return -100 - cost  # a tie: the set-up starts again
    no_answer = 1.0
    opp_hand = obs["hand_counts"][them]
    if opp_hand > 0:
        no_answer = chance_of_none(len(obs["unseen"]), answers(fields, me, obs), opp_hand)
    return 1000 + 8 * no_answer - cost


def rate_pick(obs, card):
    """A set-up pick: place something cheap, and avoid tying the opponent's placed card."""
    rating = 0 if card in ("B", "M") else -VALUE[card]
    theirs = obs["fields"][1 - obs["seat"]]
    if theirs and VALUE[theirs[-1]["card"]] == VALUE[card]:
        rating -= 10
    return rating


def act(obs):
    rate = rate_pick if obs["phase"] == "setup" else rate_turn
    # max keeps the first of equal ratings, as the Lua bot does.
    return max(obs["legal"], key=lambda card: rate(obs, card))
