function act(obs) while true do end end
