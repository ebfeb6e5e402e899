# ecard_greedy.py: an E-card bot that models its opponent and plays the best reply (the Python
# twin of example_bots/lua/ecard_greedy.lua).
#
#   arena play --game ecard --bots example_bots/python/ecard_greedy.py,random
#
# Both seats choose a card at the same time, so the bot needs a belief about the opponent. Ours
# is one number, p: the chance that the opponent shows its special card (E or S) at a play
# where it could still show a Citizen. We learn p from its past plays (obs["plays"] for the
# current round, obs["history"] for the finished ones), starting from a prior guess. Given p,
# the value of each card is the expected points of the round (ours minus theirs), assuming we
# also play best later in the round: a small recursion computes it exactly.
# See docs/games/ecard.md for the rules and every observation field.
import random

# Prior belief: the opponent shows its special card one time in three, worth 3 observed plays.
PRIOR_P, PRIOR_WEIGHT = 1 / 3, 3


def play_points(mine, theirs, my_side):
    """Our points from one play (+ we score, - they score), None for a Citizen draw."""
    if mine == "C" and theirs == "C":
        return None
    slave_wins = {mine, theirs} == {"S", "E"}
    winner_side = "slave" if slave_wins else "emperor"
    points = 5 if winner_side == "slave" else 1
    return points if winner_side == my_side else -points


class Round:
    """What we know about the current round, and the values of our choices in it."""

    def __init__(self, obs, p):
        self.p = p
        self.side = obs["side"]
        self.special = "E" if obs["side"] == "emperor" else "S"
        self.their_special = "E" if obs["opponent_side"] == "emperor" else "S"
        self.max_plays = obs["max_plays"]

    def value_of(self, card, play, my_citizens, their_citizens):
        p = 1 if their_citizens == 0 else self.p
        total = p * play_points(card, self.their_special, self.side)
        if p < 1:
            decided = play_points(card, "C", self.side)
            if decided is not None:
                v = decided
            elif play >= self.max_plays:
                v = 0  # the last play was a Citizen draw: the round is drawn
            else:
                v = self.best_value(play + 1, my_citizens - 1, their_citizens - 1)
            total += (1 - p) * v
        return total

    def best_value(self, play, my_citizens, their_citizens):
        best = self.value_of(self.special, play, my_citizens, their_citizens)
        if my_citizens > 0:
            best = max(best, self.value_of("C", play, my_citizens, their_citizens))
        return best


def count_opponent(obs):
    """How often the opponent showed its special card when it could have shown a Citizen."""
    opp = 1 - obs["seat"]
    rounds = [r["plays"] for r in obs["history"]] + [obs["plays"]]
    # Before play i (from 1) the opponent still holds a Citizen if i <= 4.
    chances = [pair[opp] for plays in rounds for pair in plays[:4]]
    shown = sum(1 for card in chances if card != "C")
    return shown, len(chances)


def act(obs):
    shown, chances = count_opponent(obs)
    rnd = Round(obs, (shown + PRIOR_P * PRIOR_WEIGHT) / (chances + PRIOR_WEIGHT))
    mine, theirs = obs["hand"].count("C"), obs["opponent_hand"].count("C")
    values = {card: rnd.value_of(card, obs["play"], mine, theirs) for card in obs["legal"]}
    top = max(values.values())
    best = [card for card in obs["legal"] if values[card] > top - 1e-9]
    return random.choice(best)  # ties: one of them at random
