-- A coroutine overflows its stack; coroutine.resume catches that, and the bot then raises an
-- error of its own: the verdict is `crash` (the bot's error), not `stack`.
local function deep(n) return 1 + deep(n + 1) end
function act(obs)
  local ok = coroutine.resume(coroutine.create(function() return deep(1) end))
  assert(not ok)
  error("my own mistake")
end
