-- string.unpack with a 200,000-item format returns 200,000 values per call.
function act(obs)
  local fmt = ("b"):rep(2e5)
  local data = ("x"):rep(2e5)
  while true do local a = string.unpack(fmt, data) end
end
