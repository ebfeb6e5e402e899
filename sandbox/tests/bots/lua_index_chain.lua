-- Attacks CPU per fuel: an __index chain of 1900 tables is walked in one instruction (before
-- each table past the second was charged: 5.7 µs per unit of fuel, stopped by the wall clock).
function act(obs)
  local d = {}
  for i = 1, 1900 do d = setmetatable({}, {__index = d}) end
  while true do
    local v = d.x
  end
end
