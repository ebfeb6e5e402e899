-- Attacks the verdict: catches a refused allocation (a real one), then raises Lua's memory
-- error message itself, after the refusal is over.
function act(obs)
  local ok = pcall(string.rep, "x", 1 << 40)
  assert(not ok)
  error("not enough memory", 0)
end
