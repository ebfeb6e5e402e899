-- A reader function that never ends: its pieces fill the heap before anything compiles. `load`
-- reports the refused allocation to the bot as an error ("not enough memory"), which the bot
-- raises as its own: `crash`, as for any error a bot caught and raised again (issue 17 item 5).
function act(obs)
  local piece, n = string.rep("x = 1 ", 100000), 0
  local f, err = load(function() n = n + 1; return piece .. n end)
  error(err, 0)
end
