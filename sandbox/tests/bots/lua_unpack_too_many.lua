-- Attacks charging before checks: Lua refuses this unpack at once ("too many results"), so a
-- pcall around it must return false, not run the decision out of fuel.
function act(obs)
  local ok, e = pcall(table.unpack, {}, 1, 2^31 - 1)
  assert(not ok and e:find("too many results"), e)
  local ok2 = pcall(table.concat, {}, {}, 1, 2^40)
  assert(not ok2)
  return "ok"
end
