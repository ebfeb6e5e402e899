function act(obs) return ("x"):rep(1e6) end
