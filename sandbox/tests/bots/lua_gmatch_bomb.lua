function act(obs)
  local n = 0
  for a in (("a"):rep(2000)):gmatch("a-a-a-a-b") do n = n + 1 end
  return tostring(n)
end
