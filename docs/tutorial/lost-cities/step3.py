# Lost Cities tutorial, step 3: start an expedition only when the hand pays for it.
# (docs/tutorial/lost-cities.md)
#
#   arena play --game lost-cities --bots docs/tutorial/lost-cities/step3.py,greedy
#
# An expedition scores (sum of its numbers - 20) x (1 + investments). So:
#   * keep playing on the expeditions we started, lowest card first (numbers must go up,
#     so a low card played late is a card lost);
#   * start a new expedition only in a suit whose numbers in our hand add up to more than
#     20: then it cannot lose points;
#   * otherwise discard, from the suit we hold least of.
# We still always draw from the deck.


# A card is a string: "ID" (an investment in suit D), "7D", "10D".
def suit_of(card):
    return card[-1]


def number_of(card):
    """2..10, or 0 for an investment."""
    n = card[:-1]
    return 0 if n == "I" else int(n)


def hand_sum(obs, suit):
    """The sum of our hand's numbers in `suit`."""
    return sum(number_of(card) for card in obs["hand"] if suit_of(card) == suit)


def choose_play(obs):
    mine = obs["expeditions"][obs["seat"]]  # per-seat lists start at 0
    # 1. Extend a started expedition. legal lists our cards lowest first, and has
    #    "play X" only when X fits (is higher than the expedition's last number).
    for action in obs["legal"]:
        verb, _, card = action.partition(" ")
        if verb == "play" and len(mine[suit_of(card)]) > 0:
            return action
    # 2. Start the suit with the biggest sum in hand, if it is over 20.
    best_suit, best_sum = None, 20
    for suit in obs["suits"]:
        if len(mine[suit]) == 0 and hand_sum(obs, suit) > best_sum:
            best_suit, best_sum = suit, hand_sum(obs, suit)
    if best_suit is not None:
        for card in obs["hand"]:  # the hand is sorted: lowest first
            if suit_of(card) == best_suit:
                return "play " + card
    # 3. Discard a card of the suit with the smallest sum in hand, not one we could play.
    worst, worst_sum = None, float("inf")
    for card in obs["hand"]:
        suit = suit_of(card)
        if len(mine[suit]) == 0 and hand_sum(obs, suit) < worst_sum:
            worst, worst_sum = card, hand_sum(obs, suit)
    return "discard " + (worst or obs["hand"][0])


def act(obs):
    if obs["phase"] == "draw":
        return "draw deck"
    return choose_play(obs)
