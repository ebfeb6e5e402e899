-- A generator that never ends, resumed forever: every switch between the threads is paid.
function act(obs)
  local gen = coroutine.wrap(function()
    local i = 0
    while true do i = i + 1; coroutine.yield(i) end
  end)
  while true do gen() end
end
