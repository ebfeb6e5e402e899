# E-card, step 2: keep the special card back. Play a Citizen whenever we still hold one.
#
# The Emperor beats a Citizen but loses to the Slave, and the Slave is worth 5 points to the
# Slave side. Shown at once (step 1), our Emperor walks into the opponent's Slave. Played last,
# the opponent's Slave meets our Citizens instead.
def act(obs):
    if "C" in obs["legal"]:
        return "C"
    return obs["legal"][0]  # no Citizen left: the special card is all we have
