-- A trap for a host that would read globals (act, init) through metamethods.
function act(obs) return "ok" end
setmetatable(_G, { __index = function() while true do end end })
