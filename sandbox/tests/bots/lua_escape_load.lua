function act(obs) return load("return 1")() end
