-- Keeps every 1 MiB string it makes.
function act(obs)
  local s = ("x"):rep(2 ^ 20)
  local t = {}
  while true do t[#t + 1] = s .. #t end
end
