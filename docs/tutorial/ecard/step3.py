# E-card, step 3: choose the card with the best expected points, against a belief.
#
# The belief: at every play where the opponent could still show a Citizen, it shows its
# special card with probability P. With P = 1/2 this is exactly the arena's `random` bot
# (it picks uniformly from `legal`, which is the special card or "C").
#
# value(card) = what this round is worth to us (our points minus theirs) if we play `card`
# now and then keep choosing the best card at every later play of the round.
P = 1 / 2


def points(mine, theirs, my_side):
    """The points of a decided play, from our side: + we score, - they score. None for two
    Citizens (a draw: the round goes on). E beats C, C beats S, S beats E; a win is worth 1
    on the Emperor side and 5 on the Slave side."""
    if mine == "C" and theirs == "C":
        return None
    slave_won = {mine, theirs} == {"S", "E"}
    winner = "slave" if slave_won else "emperor"
    worth = 5 if winner == "slave" else 1
    return worth if winner == my_side else -worth


# `r` describes the round: our side, our special card, theirs, and the play limit.


def value(r, card, play, citizens):
    """Our expected points if we play `card` at play number `play`, when both of us still hold
    `citizens` Citizens (only Citizen draws go on, so both hands shrink together)."""
    p = P
    if citizens == 0:
        p = 1  # no Citizen left: the special card is forced
    v = p * points(card, r["their_special"], r["side"])  # they show their special
    if p < 1:  # they show a Citizen
        decided = points(card, "C", r["side"])
        if decided is None:  # Citizen draw:
            if play >= r["max_plays"]:
                decided = 0  # the round ends drawn
            else:
                decided = best_value(r, play + 1, citizens - 1)  # or goes on
        v += (1 - p) * decided
    return v


def best_value(r, play, citizens):
    best = value(r, r["special"], play, citizens)
    if citizens > 0:
        best = max(best, value(r, "C", play, citizens))
    return best


def act(obs):
    r = {
        "side": obs["side"],
        "special": "E" if obs["side"] == "emperor" else "S",
        "their_special": "E" if obs["opponent_side"] == "emperor" else "S",
        "max_plays": obs["max_plays"],
    }
    citizens = len(obs["hand"]) - 1  # the hand is the special card plus our Citizens
    # the first legal card with the highest value (max keeps the first of equals)
    return max(obs["legal"], key=lambda card: value(r, card, obs["play"], citizens))
