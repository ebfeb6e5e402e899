-- Attacks CPU per fuel: comparing two long strings is one VM instruction that scans megabytes;
-- the patched VM charges 1 per 64 bytes of the shorter string, so this ends in `fuel`.
function act(obs)
  local a = ("x"):rep(1000):rep(8000)
  local b = a:sub(1, -2) .. "y"
  local n = 0
  while true do
    if a < b then n = n + 1 end
  end
end
