# Intensity tutorial, step 2: pass away the dangerous cards.
# (docs/tutorial/intensity.md)
#
#   arena play --game intensity --bots docs/tutorial/intensity/step2.py,greedy,greedy,greedy
#
# Before the tricks everybody passes three cards to the left. The cards that cost points
# are the buffalo (47, 7 points) and the calves (30..39, 1 point each), and a trick is won
# by the HIGHEST card of the led suit. So the cards to get rid of are the buffalo, the 48
# and 49 (they win the tricks the buffalo falls on), and high cards, calves most of all.
# A card of a short suit is worth passing too: with no card of a suit left, we may play
# anything when it is led, and so get rid of our worst cards (step 3 uses that).

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


def act(obs):
    if obs["phase"] == "pass":
        return choose_pass(obs)
    return obs["legal"][0]  # the tricks: still our lowest card
