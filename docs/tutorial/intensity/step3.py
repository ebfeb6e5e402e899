# Intensity tutorial, step 3: duck, and dump when void.
# (docs/tutorial/intensity.md)
#
#   arena play --game intensity --bots docs/tutorial/intensity/step3.py,greedy,greedy,greedy
#
# Step 2's pass, and two ideas for the tricks:
#   * following suit, play the HIGHEST card that still LOSES to the card winning the trick
#     ("duck"): we take nothing, and we get rid of a high card that could win a trick later;
#   * with no card of the led suit, we may play anything: dump the buffalo, else our
#     highest calf, else our highest card.

# The pass ---------------------------------------------------------------------------------

BUFFALO = 47


def suit(card):
    return card // 10  # the tens digit: 1..4


def rank(card):
    return card % 10  # the units digit: 0..9


def is_calf(card):
    return suit(card) == 3


def danger(hand, card):
    """How much we want to get rid of a card: the bigger, the sooner."""
    if card == BUFFALO:
        return 100
    if card == 49:
        return 91
    if card == 48:
        return 90
    d = rank(card)  # high cards win tricks
    if is_calf(card):
        d += 5  # ... and calves cost points
    same_suit = sum(1 for c in hand if suit(c) == suit(card))
    if same_suit <= 3 and not is_calf(card):
        d += 4  # a short suit: make a void
    return d


def choose_pass(obs):
    hand = obs["hand"]
    # Most dangerous first; equal danger: the higher card first (so the order is fixed).
    cards = sorted(hand, key=lambda c: (-danger(hand, c), -c))
    pick = sorted(cards[:3])  # the action lists them ascending
    return "pass %d %d %d" % tuple(pick)


# The tricks ------------------------------------------------------------------------------


def winning_card(trick):
    """The card winning the current trick so far: the highest of the led suit."""
    return max(c for c in trick if suit(c) == suit(trick[0]))


def dump_value(card):
    """How much we want to dump a card on somebody else's trick."""
    if card == BUFFALO:
        return 300
    if is_calf(card):
        return 100 + rank(card)
    return rank(card)


def choose_card(obs, cards):
    """`cards` are our playable cards, ascending."""
    trick = obs["trick"]["cards"]
    if not trick:
        return cards[0]  # leading: our lowest card

    if suit(cards[0]) != suit(trick[0]):  # void in the led suit: dump
        return max(cards, key=dump_value)  # (the first of equals)

    winning = winning_card(trick)
    losers = [c for c in cards if c < winning]  # the highest of them is the best duck
    return losers[-1] if losers else cards[0]  # every card wins: the lowest


def act(obs):
    if obs["phase"] == "pass":
        return choose_pass(obs)
    cards = [int(action.split()[1]) for action in obs["legal"]]  # "play 33" -> 33
    return "play %d" % choose_card(obs, cards)
