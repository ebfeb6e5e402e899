-- string.rep of the empty string allocates nothing but still loops once per repetition.
function act(obs) return string.rep("", 1e12) end
