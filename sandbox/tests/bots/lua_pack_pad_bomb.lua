-- Attacks CPU per fuel: string.pack pads "c<n>" byte by byte, charged only for the result.
function act(obs)
  while true do local s = string.pack("c20000000", "") end
end
