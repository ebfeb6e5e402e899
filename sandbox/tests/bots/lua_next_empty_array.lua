-- Attacks CPU per fuel through `next` over an array part: 2^20 slots, all nil but the last,
-- scanned at every call from the start (the array keeps its size until a rehash). Charged per
-- slot scanned, so the loop ends in `fuel`, not by the wall clock.
local t, n = {}, 1 << 20
for i = 1, n do t[i] = true end
for i = 1, n - 1 do t[i] = nil end
function act(obs)
  while true do
    next(t)
  end
end
