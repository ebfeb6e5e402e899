function act(obs)
  local s = ("a"):rep(5000)
  return (s:gsub("(a-)(a-)(a-)b", "%1"))
end
