-- Nested protected calls, each catching and retrying.
local function deep(n)
  if n == 0 then while true do end end
  while true do pcall(deep, n - 1) end
end
function act(obs) deep(50) end
