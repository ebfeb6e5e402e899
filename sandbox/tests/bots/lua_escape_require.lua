function act(obs) return require("os") end
