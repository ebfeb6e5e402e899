-- A suspended coroutine whose to-be-closed variable loops when closed: coroutine.close runs
-- it, metered like any other code.
function act(obs)
  local co = coroutine.create(function()
    local guard <close> = setmetatable({}, { __close = function() while true do end end })
    coroutine.yield()
  end)
  coroutine.resume(co)
  coroutine.close(co)
  return "closed"
end
