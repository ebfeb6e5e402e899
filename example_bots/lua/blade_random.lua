-- blade_random.lua: the simplest possible blade bot. It picks one of the legal actions
-- uniformly at random. Run it with:
--   arena play --game blade --bots example_bots/lua/blade_random.lua,greedy
--
-- obs.legal always holds every legal action for this decision (docs/games/blade.md), and
-- math.random is seeded from the match seed, so the same seed replays the same match.
function act(obs)
  return obs.legal[math.random(#obs.legal)]
end
