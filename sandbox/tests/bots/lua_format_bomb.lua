-- string.format("%.1s", big) scans the whole argument and returns one byte.
function act(obs)
  local s = ("x"):rep(1e6)
  while true do local r = string.format("%.1s", s) end
end
