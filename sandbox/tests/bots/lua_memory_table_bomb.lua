function act(obs)
  local t = {}
  while true do t[#t + 1] = string.rep("x", 100000) .. #t end
end
