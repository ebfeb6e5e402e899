function act(obs)
  while true do print() end
end
