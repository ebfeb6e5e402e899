function init(info) while true do end end
function act(obs) return "never" end
