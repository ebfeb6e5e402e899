function act(obs) end
