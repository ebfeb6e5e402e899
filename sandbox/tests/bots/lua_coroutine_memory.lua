-- A coroutine that grows a string it holds until the heap cap stops it: the cap covers every
-- coroutine's objects, and coroutine.wrap passes the memory error on uncaught.
function act(obs)
  local grow = coroutine.wrap(function()
    local s = "x"
    while true do s = s .. s; coroutine.yield(#s) end
  end)
  while true do grow() end
end
