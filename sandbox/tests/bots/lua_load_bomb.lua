-- Compiling without end: each load of a 64 KB chunk is charged for its size.
function act(obs)
  local src = string.rep("x = 1 + 2 * y\n", 4600)
  while true do load(src) end
end
