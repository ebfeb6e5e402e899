function act(obs)
  local t = {}
  for i = 1, 2e5 do t[i] = (i * 7919) % 200003 end
  while true do table.sort(t, function(a, b) return a > b end); table.sort(t) end
end
