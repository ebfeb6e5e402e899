function act(obs) return io.open("/etc/passwd"):read("a") end
