function act(obs) return select('#', table.unpack({}, 1, 1e8)) end
