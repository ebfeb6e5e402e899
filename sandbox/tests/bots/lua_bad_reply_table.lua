function act(obs) return { "play 1" } end
