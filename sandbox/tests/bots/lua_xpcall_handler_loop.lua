-- The error handler itself loops forever.
function act(obs)
  return xpcall(function() error("x") end, function() while true do end end)
end
