-- The benchmark's trivial Lua bot: the first legal action.
function act(obs) return obs.legal[1] end
