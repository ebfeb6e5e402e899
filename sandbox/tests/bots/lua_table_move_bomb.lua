-- research §1.8: 7 s of CPU, zero instructions counted, with the C table.move.
function act(obs)
  local d = {}
  pcall(table.move, {1}, 1, 3e8, 1, d)
  return "survived"
end
