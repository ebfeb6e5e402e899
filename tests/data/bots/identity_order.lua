-- Source: written for tests/cli.rs. Attacks reproducibility: logs what once came from heap
-- addresses (tostring of tables and functions, string.format's %p, the pairs order of
-- table, function and boolean keys) and picks its move from that order.
function act(obs)
  local t, names = {}, {}
  for i = 1, 12 do
    local k = i % 3 == 0 and function() return i end or {}
    t[k], names[k] = i, i
  end
  t[true], names[true] = 0, "T"
  t[print], names[print] = 0, "print"
  local order = {}
  for k in pairs(t) do order[#order + 1] = tostring(names[k]) end
  print(tostring({}), tostring(act), tostring(print), string.format("%p", t), table.concat(order, ","))
  local first = t[next(t)] or 0
  return obs.legal[first % #obs.legal + 1]
end
