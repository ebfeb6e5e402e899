# E-card, step 4: learn the belief from the opponent's own past plays.
#
# Step 3 assumed the opponent shows its special card with probability 1/2 at every play.
# Here we count what it really did, separately for each of its sides and each play number:
# "as the Slave, at play 1, it showed the Slave 3 times out of 3". Bots have habits, and the
# built-in greedy bot has strong ones, so the counts soon say what it will do next.
#
# The rest is step 3: value(card) is what the round is worth to us if we play `card` now and
# keep choosing the best card later, now with the learned probability for each play.

# Before we have seen anything we need a guess, and it counts as PRIOR_WEIGHT observed plays.
# Step 3 guessed 1/2, and that costs points against a careful opponent: our Slave shows
# itself early, meets a Citizen and gives away a point, round after round, while we learn.
# The number that matters is 1/7. At the last play of a round, showing the Slave is the
# better bet only if the Emperor shows up more than 1 time in 7 (5 points won against 1
# lost), and showing the Emperor only if the Slave shows up less than 1 time in 7. A prior
# of 1/10 says "assume a careful opponent until it shows otherwise": our Slave keeps its
# Citizens, our Emperor waits, and neither gives away a point while the counts are empty.
PRIOR_P, PRIOR_WEIGHT = 1 / 10, 2


def count_opponent(obs):
    """seen[side][play] = [shown, chances]: at play number `play` (1-based) of the rounds
    where the opponent held `side` and still had a Citizen, it showed its special card
    `shown` times out of `chances`. Counted afresh from the observation at every decision:
    it holds the whole history."""
    opp = 1 - obs["seat"]  # the opponent's index in a [seat 0, seat 1] pair
    seen = {side: {play: [0, 0] for play in range(1, obs["max_plays"] + 1)} for side in ("emperor", "slave")}

    def look(plays, side):
        for play, pair in enumerate(plays, start=1):
            if play <= 4:  # before play 5 it still held a Citizen: a real choice
                c = seen[side][play]
                c[1] += 1
                if pair[opp] != "C":
                    c[0] += 1

    for past in obs["history"]:
        side = "slave" if past["emperor"] == obs["seat"] else "emperor"
        look(past["plays"], side)
    look(obs["plays"], obs["opponent_side"])  # this round's Citizen draws count too
    return seen


def belief(r, play):
    """The learned probability that the opponent shows its special card at `play`."""
    shown, chances = r["seen"][play]
    return (shown + PRIOR_P * PRIOR_WEIGHT) / (chances + PRIOR_WEIGHT)


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


def value(r, card, play, citizens):
    """Our expected points if we play `card` at play number `play`, when both of us still hold
    `citizens` Citizens (only Citizen draws go on, so both hands shrink together)."""
    p = belief(r, play)
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
        "seen": count_opponent(obs)[obs["opponent_side"]],  # the counts for the opponent's side now
    }
    citizens = len(obs["hand"]) - 1  # the hand is the special card plus our Citizens
    # the first legal card with the highest value (max keeps the first of equals)
    return max(obs["legal"], key=lambda card: value(r, card, obs["play"], citizens))
