-- intensity_random.lua: the simplest possible intensity bot. It picks one of the legal actions
-- uniformly at random. Run it with:
--   arena play --game intensity --bots example_bots/lua/intensity_random.lua,greedy
--
-- obs.legal always holds every legal action for this decision (docs/games/intensity.md), and
-- math.random is seeded from the match seed, so the same seed replays the same match.
function act(obs)
  return obs.legal[math.random(#obs.legal)]
end
