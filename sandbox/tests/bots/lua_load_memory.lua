-- A reader function that never ends: its pieces fill the heap before anything compiles.
function act(obs)
  local piece, n = string.rep("x = 1 ", 100000), 0
  local f, err = load(function() n = n + 1; return piece .. n end)
  error(err, 0)
end
