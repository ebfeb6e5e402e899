-- ecard_random.lua: the simplest possible ecard bot. It picks one of the legal actions
-- uniformly at random. Run it with:
--   arena play --game ecard --bots example_bots/lua/ecard_random.lua,greedy
--
-- obs.legal always holds every legal action for this decision (docs/games/ecard.md), and
-- math.random is seeded from the match seed, so the same seed replays the same match.
function act(obs)
  return obs.legal[math.random(#obs.legal)]
end
