-- Attacks reproducibility: prints tables, functions and %p, and iterates pairs over table,
-- function and boolean keys; every run must print the same.
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
  print(tostring({}), tostring(print), string.format("%p", {}), table.concat(order, ","))
  return nil
end
