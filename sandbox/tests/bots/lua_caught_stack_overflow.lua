-- Attacks the verdict: overflows the stack inside pcall (caught), then fails with an error
-- of its own that repeats the overflow's message.
local function f(n) return 1 + f(n + 1) end
function act(obs)
  local ok, e = pcall(f, 1)
  assert(not ok)
  error(e, 0)
end
