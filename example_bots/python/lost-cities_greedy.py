# lost-cities_greedy.py: a rule-based Lost Cities bot, written to be read (the Python twin of
# example_bots/lua/lost-cities_greedy.lua).
#
#   arena play --game lost-cities --bots example_bots/python/lost-cities_greedy.py,random
#
# Every turn is two decisions (docs/games/lost-cities.md): first play or discard a card
# (obs["phase"] == "play"), then draw (obs["phase"] == "draw"). The first rule that applies
# decides.
#
# Play phase:
#   1. EXTEND one of our started expeditions, with the lowest card that fits, if it skips few
#      cards we could still have played (the "gap"). Late in the game any gap is fine.
#   2. START a new expedition in the suit where our hand is strongest, if it is strong enough
#      to pay back the 20 points every expedition costs.
#   3. Otherwise DISCARD the card that hurts least to lose (and does not help the opponent).
# Draw phase: take the top of a discard pile if it extends one of our expeditions nicely,
# otherwise draw from the deck.


# Reading cards. A card is a string: "ID" (an investment in suit D), "7D", "10D".
def suit_of(card):
    return card[-1]


def number_of(card):
    """2..10, or 0 for an investment."""
    return 0 if card[0] == "I" else int(card[:-1])


class Position:
    """Questions about the position, from seat `me`'s point of view."""

    def __init__(self, obs):
        self.obs = obs
        self.me, self.opp = obs["seat"], 1 - obs["seat"]
        # Every card lying in an expedition (either seat) is gone for good.
        self.gone = {c for seat in obs["expeditions"] for pile in seat.values() for c in pile}
        self.in_hand = set(obs["hand"])
        # The numbers of our number cards (not investments) in each suit, lowest first.
        self.numbers = {suit: [] for suit in obs["suits"]}
        for card in obs["hand"]:
            number = number_of(card)
            if number > 0:
                self.numbers[suit_of(card)].append(number)

    def top_number(self, who, suit):
        """The highest number on `who`'s expedition: None if unstarted, 1 if investments only."""
        exp = self.obs["expeditions"][who][suit]
        if not exp:
            return None
        return max(1, number_of(exp[-1]))  # an expedition only goes up: its last card is its top

    def fits(self, who, card):
        top = self.top_number(who, suit_of(card))
        if top is None:
            return True
        if number_of(card) == 0:
            return top == 1  # investments only come before the first number
        return number_of(card) > top

    def gap(self, suit, low, high):
        """How many numbers between low and high we could still have played."""
        return sum(
            1
            for v in range(low + 1, high)
            if f"{v}{suit}" not in self.gone and f"{v}{suit}" not in self.in_hand
        )

    def gap_allowance(self):
        deck = self.obs["deck_size"]
        if deck <= 8:
            return 99
        if deck <= 16:
            return 4
        if deck <= 28:
            return 2
        return 1


# ---------------------------------------------------------------------------------------------
# The play phase.


def best_extension(pos):
    """Rule 1: the best extension of a started expedition, as (action, gap), or (None, inf)."""
    best, best_gap, tried = None, float("inf"), set()
    for card in pos.obs["hand"]:  # the hand is sorted: lowest cards first
        suit = suit_of(card)
        top = pos.top_number(pos.me, suit)
        if top is not None and pos.fits(pos.me, card) and suit not in tried:
            tried.add(suit)  # only the lowest card that fits each suit is a candidate
            if number_of(card) == 0:
                g = 0 if pos.obs["deck_size"] >= 24 else 6  # a late investment rarely pays
            else:
                g = pos.gap(suit, top, number_of(card))
            if g < best_gap:
                best, best_gap = f"play {card}", g
    return best, best_gap


def start_potential(pos, suit):
    """Rule 2: how promising starting `suit` is, or None."""
    numbers = pos.numbers[suit]
    if not numbers:
        return None
    if len(numbers) > (pos.obs["deck_size"] + 1) // 2:
        return None  # no time left to play them all
    if len(numbers) < 3 and sum(numbers) < 14:
        return None  # too weak to start
    later = sum(
        v
        for v in range(numbers[0] + 1, 11)
        if f"{v}{suit}" not in pos.gone and f"{v}{suit}" not in pos.in_hand
    )
    share = min(pos.obs["deck_size"], 40) / 120  # we may draw a third of them at most
    return sum(numbers) + later * share - 20


def best_start(pos):
    best_suit, best_potential = None, 2  # a potential below 2 is not worth it
    for suit in pos.obs["suits"]:
        if pos.top_number(pos.me, suit) is None:
            potential = start_potential(pos, suit)
            if potential is not None and potential >= best_potential:
                best_suit, best_potential = suit, potential
    if best_suit is None:
        return None
    # Lead with an investment while the deck is long, else with the lowest number.
    for card in pos.obs["hand"]:
        if suit_of(card) == best_suit and (number_of(card) > 0 or pos.obs["deck_size"] >= 24):
            return f"play {card}"
    return None


def discard_cost(pos, card):
    """Rule 3: what we lose by discarding `card`, plus what it may give the opponent."""
    suit, number = suit_of(card), number_of(card)
    mine, theirs = pos.top_number(pos.me, suit), pos.top_number(pos.opp, suit)
    if mine is not None and not pos.fits(pos.me, card):
        keep = 0  # useless to us now
    elif mine is not None:
        keep = 20 + number  # a card for our own expedition: keep it!
    elif number == 0 and pos.obs["deck_size"] < 24:
        keep = 1  # a late investment in an unstarted suit
    else:
        keep = 2 + sum(pos.numbers[suit]) // 3
    if theirs is not None and pos.fits(pos.opp, card):
        feed = 30 + number  # the opponent would love this card
    elif theirs is None:
        feed = number // 2  # it might start that suit with it
    else:
        feed = 0
    return keep + feed


def choose_play(pos):
    extension, ext_gap = best_extension(pos)
    if extension and ext_gap <= pos.gap_allowance():
        return extension
    start = best_start(pos)
    if start:
        return start
    card = min(pos.obs["hand"], key=lambda c: discard_cost(pos, c))
    # If every discard hurts, extending with a bigger gap is the lesser evil.
    if discard_cost(pos, card) >= 20 and extension:
        return extension
    return f"discard {card}"


# ---------------------------------------------------------------------------------------------
# The draw phase.


def choose_draw(pos):
    obs = pos.obs
    allowance = min(pos.gap_allowance(), 2)
    for action in obs["legal"]:
        pile = action.split()[1]
        if pile != "deck":
            card = obs["discards"][pile][-1]  # the top of that pile
            top = pos.top_number(pos.me, pile)
            if (
                top is not None
                and number_of(card) > top
                and pos.gap(pile, top, number_of(card)) <= allowance
            ):
                return action  # it extends one of our expeditions nicely
    # The last deck card ends the game: when not ahead, take a pile card instead.
    behind = obs["scores"][pos.me] <= obs["scores"][pos.opp]
    if obs["deck_size"] == 1 and behind and len(obs["legal"]) > 1:
        return obs["legal"][1]
    return "draw deck"


def act(obs):
    pos = Position(obs)
    if obs["phase"] == "draw":
        return choose_draw(pos)
    return choose_play(pos)
