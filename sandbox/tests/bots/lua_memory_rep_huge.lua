function act(obs) return string.rep("x", 1e9) end
