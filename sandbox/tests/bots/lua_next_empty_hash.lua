-- Attacks CPU per fuel through `next`: a hash part of 2^18 slots with one key left scans a
-- quarter of a million empty slots per call, in one instruction. Before those slots were
-- charged, the loop used a few thousand units of fuel and ended by the wall clock; now it ends
-- in `fuel`.
local t, n = {}, 1 << 18
for i = 1, n do t[i + 0.5] = true end
for i = 2, n do t[i + 0.5] = nil end
function act(obs)
  while true do
    local k = next(t)  -- the scan from the start to the key left
    next(t, k)         -- and from there to the end
  end
end
