-- A to-be-closed variable whose __close loops; the body loops until the fuel runs out. The
-- __close then runs during the unwinding, and must be metered too (regression: an error
-- raised through mlua's hook callback made Lua run __close inside the hook, unmetered).
function act(obs)
  local x <close> = setmetatable({}, { __close = function() while true do end end })
  while true do end
end
