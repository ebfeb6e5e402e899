-- Attacks CPU per fuel: integer keys j * 16383 all hash to one slot of a 16384-node table, so
-- each lookup of such a key walks one chain as long as the table (before chain steps were
-- charged: 3 s of wall clock on 250K fuel).
function act(obs)
  local t = {}
  for j = 1, 10000 do t[j * 16383] = j end
  while true do
    local v = t[16383 * 20000]
  end
end
