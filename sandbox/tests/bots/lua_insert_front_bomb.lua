-- O(n^2) element shifting inside table.insert.
function act(obs)
  local t = {}
  for i = 1, 1e6 do table.insert(t, 1, i) end
end
