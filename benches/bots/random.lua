-- The benchmark's Lua random bot (as example_bots/lua/*_random.lua).
function act(obs) return obs.legal[math.random(#obs.legal)] end
