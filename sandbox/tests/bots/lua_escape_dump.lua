function act(obs) return string.dump(act) end
