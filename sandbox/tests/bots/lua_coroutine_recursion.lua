-- Endless recursion inside a coroutine: its own Lua stack hits the stack limit.
local function f(n) return 1 + f(n + 1) end
function act(obs)
  local ok, err = coroutine.resume(coroutine.create(f), 1)
  error(err, 0)
end
