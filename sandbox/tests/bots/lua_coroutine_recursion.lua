-- Endless recursion inside a coroutine: its own Lua stack hits the stack limit, and
-- coroutine.wrap passes the error on uncaught (a `stack` verdict; a bot that catches it with
-- coroutine.resume and raises an error of its own gets `crash`, see
-- lua_coroutine_caught_overflow.lua).
local function f(n) return 1 + f(n + 1) end
function act(obs)
  return coroutine.wrap(f)(1)
end
