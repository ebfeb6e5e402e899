-- kuhn_rank.lua: a Kuhn poker bot that plays its card's rank and never bluffs. With the K it
-- bets and calls; with the Q it checks and calls; with the J it checks and folds.
--
--   kuhn-arena play --game kuhn --bots nash,examples/kuhn-arena/bots/kuhn_rank.lua
--
-- The observation (docs/embedding.md): obs.card is "J", "Q" or "K"; obs.betting the actions so
-- far; obs.legal is {"check", "bet"} before any bet and {"fold", "call"} facing one.
function act(obs)
  local passive, aggressive = obs.legal[1], obs.legal[2]
  local facing_bet = obs.betting[#obs.betting] == "bet"
  if obs.card == "K" or (obs.card == "Q" and facing_bet) then
    return aggressive
  end
  return passive
end
