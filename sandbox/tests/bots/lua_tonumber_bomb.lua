function act(obs)
  local s = ("1"):rep(2e6)
  while true do local n = tonumber(s) end
end
