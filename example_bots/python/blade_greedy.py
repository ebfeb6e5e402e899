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
# Everything comes from the observation (docs/games/blade.md): our hand, both fields and their
# scores, the hand sizes and the cards we have not seen yet. obs["fields"][s] is the field of
# seat s, obs["scores"][s] its score.
#
# Every step of the interpreter costs fuel (docs/python.md), so the look-ahead keeps a field as
# the few numbers a turn can change rather than copying the observation's lists of cards.

# What a card adds to a field. B and M only lie on a field when placed at set-up, worth 1.
VALUE = {"1": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "B": 1, "M": 1}

# How much we dislike spending B or M when it would put us ahead: as much as a 6.
EFFECT_COST = 6


def field(obs, seat):
    """The field of `seat` as the four numbers a turn can change: (score, top, bolted, under).

    Its score (the sum of its valid cards), the value of its top card, whether that card is
    bolted (only the top card can be) and the value of the card under it; 0 means no card.
    """
    cards = obs["fields"][seat]
    if not cards:
        return 0, 0, False, 0
    under = VALUE[cards[-2]["card"]] if len(cards) > 1 else 0
    return obs["scores"][seat], VALUE[cards[-1]["card"]], not cards[-1]["valid"], under


def after(card, mine, theirs):
    """The fields (mine, theirs) after the owner of `mine` plays `card`: the rules of a turn."""
    if card == "M":
        return theirs, mine  # M: swap the fields completely
    if card == "B":
        # B: clear their bolted top card, then bolt the new top card, if any. The card under
        # a cleared one is unknown (None), but two turns never bolt the same field twice.
        score, top, bolted, under = theirs
        if bolted:
            top, under = under, None
        return mine, (score - top, top, top > 0, under)  # an empty field has top 0: no change
    score, top, bolted, under = mine
    if card == "1" and bolted:
        return (score + top, top, False, under), theirs  # 1 revives our bolted top card...
    value = VALUE[card]  # ...or is placed as a 1; 2..7: clear our bolted top card, then place
    return (score + value, value, False, under if bolted else top), theirs


def chance_of_none(pool, good, hand):
    """The chance that `hand` cards drawn from `pool` unseen cards hold none of `good` ones."""
    bad = pool - good
    if hand > bad:
        return 0.0  # more cards than there are non-answers: one of them is an answer
    p = 1.0
    for i in range(hand):
        p *= (bad - i) / (pool - i)
    return p


def answers(mine, theirs, copies):
    """How many of the opponent's possible cards would put it strictly ahead after our move
    (`mine`, `theirs`: the fields after it). `copies` maps each card it may answer with to how
    many of it are unseen: every copy is an answer if one is."""
    count = 0
    for card in copies:
        theirs_next, mine_next = after(card, theirs, mine)
        if theirs_next[0] > mine_next[0]:
            count += copies[card]
    return count


def card_cost(obs, card, bolted):
    """What spending `card` costs us (lower is better); `bolted`: our top card is bolted."""
    if card in ("B", "M"):
        return EFFECT_COST
    if card == "1":
        if bolted:
            return 0.5  # reviving a bolted card: a bargain
        return 3.5 if "B" in obs["unseen"] else 1  # keep it to revive a card bolted later
    return VALUE[card]


def only_effects_left(hand, card):
    """Whether the hand would hold only B and M after playing `card` (a doomed hand)."""
    effects = hand.count("B") + hand.count("M") - (card in ("B", "M"))
    return len(hand) > 1 and effects == len(hand) - 1


def rate_turn(obs, card, now, copies):
    """The rating of playing `card`: `now` holds the two fields (ours, theirs) as they are."""
    if len(obs["hand"]) == 1 and card in ("B", "M"):
        return -1e6  # B or M as the last card: an instant loss
    mine, theirs = after(card, now[0], now[1])
    cost = card_cost(obs, card, now[0][2])
    if only_effects_left(obs["hand"], card):
        cost += 60
    if mine[0] < theirs[0]:
        return -1e5 - cost  # behind: we lose now
    if mine[0] == theirs[0]:
        return -100 - cost  # a tie: the set-up starts again
    no_answer = 1.0
    opp_hand = obs["hand_counts"][1 - obs["seat"]]
    if opp_hand > 0:
        good = answers(mine, theirs, copies)
        no_answer = chance_of_none(len(obs["unseen"]), good, opp_hand)
    return 1000 + 8 * no_answer - cost


def rate_pick(obs, card):
    """A set-up pick: place something cheap, and avoid tying the opponent's placed card."""
    rating = 0 if card in ("B", "M") else -VALUE[card]
    theirs = obs["fields"][1 - obs["seat"]]
    if theirs and VALUE[theirs[-1]["card"]] == VALUE[card]:
        rating -= 10
    return rating


def act(obs):
    # max keeps the first of equal ratings, as the Lua bot does.
    if obs["phase"] == "setup":
        return max(obs["legal"], key=lambda card: rate_pick(obs, card))
    # What every rating needs, worked out once: both fields, and each card the opponent may
    # answer with, counted once with its number of unseen copies.
    now = field(obs, obs["seat"]), field(obs, 1 - obs["seat"])
    copies = {}
    for card in obs["unseen"]:
        copies[card] = copies.get(card, 0) + 1
    if obs["hand_counts"][1 - obs["seat"]] == 1:
        copies.pop("B", 0)  # a B or M as its last card loses at once: no answer
        copies.pop("M", 0)
    return max(obs["legal"], key=lambda card: rate_turn(obs, card, now, copies))
