-- Each coroutine resumes a new one inside itself: Lua's limit of 200 nested C calls stops the
-- chain (each resume is one), before the native stack runs short.
local function deeper(n)
  return coroutine.wrap(function() return deeper(n + 1) end)()
end
function act(obs) return tostring(deeper(1)) end
