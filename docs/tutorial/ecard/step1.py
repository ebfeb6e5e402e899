# E-card, step 1: the smallest bot that plays. It answers the first legal action.
#
# `legal` lists our special card first ("E" on the Emperor side, "S" on the Slave side), then
# "C" while we still hold a Citizen. So this bot shows its special card at once, every round.
def act(obs):
    return obs["legal"][0]
