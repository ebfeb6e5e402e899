-- Comparing two long strings is one VM instruction that scans megabytes: time the fuel
-- does not see. Only the wall-clock backstop stops this one.
function act(obs)
  local a = ("x"):rep(1000):rep(8000)
  local b = a:sub(1, -2) .. "y"
  local n = 0
  while true do
    if a < b then n = n + 1 end
  end
end
