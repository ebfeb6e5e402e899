-- An endless loop inside a coroutine: its instructions are the decision's fuel.
function act(obs)
  local co = coroutine.wrap(function() while true do end end)
  co()
end
