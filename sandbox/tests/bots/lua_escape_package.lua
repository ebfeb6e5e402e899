function act(obs) return package.loadlib("libc.so.6", "system") end
