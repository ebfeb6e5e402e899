-- A coroutine kept in a global: the first decision only starts it; the second resumes it into
-- an endless loop, which is that decision's fuel.
local worker = coroutine.wrap(function()
  coroutine.yield("started")
  while true do end
end)
function act(obs)
  return worker()
end
