-- Coroutines are not available (each new coroutine would restart the hook's count).
function act(obs)
  local co = coroutine.wrap(function() while true do end end)
  co()
end
