function act(obs) return debug.getregistry() end
