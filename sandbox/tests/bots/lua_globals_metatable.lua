-- A trap for a host that reads globals through metamethods.
setmetatable(_G, { __index = function() while true do end end,
                   __newindex = function() while true do end end })
function act(obs) return "ok" end
