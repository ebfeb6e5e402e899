-- Attacks CPU per fuel: each `select('#', ...)` copies 100,000 varargs in one instruction
-- (before the copy was charged: 7 µs per unit of fuel, stopped by the wall clock).
local function spin(...)
  while true do
    local n = select('#', ...)
  end
end

function act(obs)
  local v = {}
  for i = 1, 100000 do v[i] = i end
  spin(table.unpack(v))
end
