-- load with an env table cannot reach more than that table holds.
function act(obs)
  local f = assert(load("return os.exit(1)", "chunk", "t", {}))
  return f()
end
