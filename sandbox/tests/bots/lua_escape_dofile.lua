function act(obs) return dofile("/etc/passwd") end
