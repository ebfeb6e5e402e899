while true do end
function act(obs) return "never" end
