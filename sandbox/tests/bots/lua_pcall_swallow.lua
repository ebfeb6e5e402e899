-- Tries to survive fuel exhaustion by catching the error and looping again.
function act(obs)
  while true do
    pcall(function() while true do end end)
  end
end
