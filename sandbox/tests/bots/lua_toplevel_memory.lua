big = string.rep("x", 1e9)
function act(obs) return "never" end
