-- research §1.8: 75 s of CPU on 16k counted instructions without allocation charging.
function act(obs)
  local n = 0
  for i = 1, 2000 do n = n + #string.rep("x", 8e6) end
  return tostring(n)
end
