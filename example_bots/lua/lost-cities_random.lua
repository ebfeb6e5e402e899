-- lost-cities_random.lua: the simplest possible lost-cities bot. It picks one of the legal actions
-- uniformly at random. Run it with:
--   arena play --game lost-cities --bots example_bots/lua/lost-cities_random.lua,greedy
--
-- obs.legal always holds every legal action for this decision (docs/games/lost-cities.md), and
-- math.random is seeded from the match seed, so the same seed replays the same match.
function act(obs)
  return obs.legal[math.random(#obs.legal)]
end
