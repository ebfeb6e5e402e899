function act(obs)
  while true do print(("spam "):rep(20)) end
end
