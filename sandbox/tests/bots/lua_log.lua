function init(info) print("init", info.game, info.seat) end
function act(obs)
  print("deciding", #obs.legal, nil, true, 1.5)
  for i = 1, 2000 do print(("line %d "):format(i) .. ("x"):rep(60)) end
  return obs.legal[1]
end
