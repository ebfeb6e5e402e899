-- Arithmetic on a 30 MB numeric string: each `s + 0` is one VM instruction that scans the whole
-- string (about 25 ms), charged 1 per 8 bytes (so it ends in `fuel` under the default limits).
-- With fuel to spare, a thousand of them pass between two runs of the hook, so only the
-- watchdog, which makes the hook run at the next instruction once the deadline is past, stops
-- this one in time.
function act(obs)
  local s = ("1"):rep(1000):rep(30000)
  local n = 0
  while true do
    if s + 0 > 0 then n = n + 1 end
  end
end
