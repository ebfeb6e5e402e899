-- Attacks the host's memory: fills one size class of the Lua heap with strings, frees them,
-- and moves to the next class, so little is live at any time while freed blocks pile up in
-- classes that are never asked for again.
function act(obs)
  for len = 1, 480, 16 do
    local keep = {}
    local pad = string.rep("p", len)
    for i = 1, (3 << 20) // (len + 40) do keep[i] = pad .. i end
    keep = nil
  end
  return "done"
end
