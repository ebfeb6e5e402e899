# intensity_greedy.py: an Intensity bot following the classic rules of thumb of Hearts-like
# games, written to be read (the Python twin of example_bots/lua/intensity_greedy.lua).
#
#   arena play --game intensity --bots example_bots/python/intensity_greedy.py,random,random,random
#
# Intensity (docs/games/intensity.md): 4 players, cards 10..49, the tens digit is the suit.
# Taking a trick that holds a calf (30..39) costs 1 point per calf, the buffalo (47) costs 7.
# Fewest points wins, so the game is about NOT winning the wrong tricks:
#
#   * pass away the dangerous cards (the buffalo, the 48 and 49 that could catch it, high
#     cards) and cards of short suits, so that we run out of a suit early and can dump;
#   * lead low cards, which are unlikely to win;
#   * when following, play the highest card that still loses ("duck");
#   * when we cannot follow, dump the most dangerous card we hold.
#
# Cards arrive as numbers; obs["legal"] holds strings ("play 33", "pass 12 33 47").

BUFFALO = 47


def suit(card):
    return card // 10  # the tens digit: 1..4


def rank(card):
    return card % 10  # the units digit: 0..9


def is_calf(card):
    return suit(card) == 3


def buffalo_out(obs):
    """Whether the buffalo might still be in someone else's hand."""
    seen = obs["hand"] + obs["trick"]["cards"] + [c for t in obs["tricks"] for c in t["cards"]]
    return BUFFALO not in seen


# ---------------------------------------------------------------------------------------------
# The pass: three cards to the left, chosen before any trick.


def danger(hand, card):
    """How much we want to get rid of a card."""
    if card == BUFFALO:
        return 100
    if card == 49:
        return 91
    if card == 48:
        return 90
    d = rank(card)
    if is_calf(card):
        d += 5
    same_suit = sum(1 for c in hand if suit(c) == suit(card))
    if same_suit <= 3 and not is_calf(card):
        d += 4  # passing it may leave us void in that suit
    return d


def choose_pass(obs):
    hand = obs["hand"]
    # Most dangerous first; equal danger: the higher card first.
    ranked = sorted(hand, key=lambda c: (danger(hand, c), c), reverse=True)
    a, b, c = sorted(ranked[:3])  # the action lists the cards ascending
    return f"pass {a} {b} {c}"


# ---------------------------------------------------------------------------------------------
# The tricks.


def choose_card(obs, cards):
    out = buffalo_out(obs)
    trick = obs["trick"]["cards"]

    if not trick:
        # Leading: the lowest, safest card. Calves, the buffalo and (while the buffalo is out)
        # 48/49 make bad leads.
        def lead_risk(c):
            return rank(c) + 10 * is_calf(c) + 30 * (c == BUFFALO) + 20 * (out and c >= 48)

        return min(cards, key=lead_risk)

    led = suit(trick[0])
    if suit(cards[0]) != led:
        # We cannot follow suit: dump the worst card.
        def dump(c):
            if c == BUFFALO:
                return 300
            if out and c >= 48:
                return 200
            return 100 + rank(c) if is_calf(c) else rank(c)

        return max(cards, key=lambda c: (dump(c), c))

    winning = max(c for c in trick if suit(c) == led)  # the card that wins the trick so far
    last = len(trick) == 3
    clean = not any(is_calf(c) or c == BUFFALO for c in trick)

    # The buffalo under a higher card: someone else takes its 7 points.
    if BUFFALO in cards and BUFFALO < winning:
        return BUFFALO
    safe = [c for c in cards if c != BUFFALO] or cards
    highest = safe[-1]  # legal cards come ascending
    if last and clean:
        return highest  # winning a clean trick costs nothing: shed our highest card
    ducks = [c for c in cards if c < winning]
    if ducks:
        return ducks[-1]  # the highest card that still loses
    # Every card wins. Last: win with the highest. Otherwise the lowest, hoping a later
    # player goes higher.
    return highest if last else safe[0]


def act(obs):
    if obs["phase"] == "pass":
        return choose_pass(obs)
    cards = [int(action.split()[1]) for action in obs["legal"]]  # "play 33" -> 33
    return f"play {choose_card(obs, cards)}"
