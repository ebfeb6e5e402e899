-- Each `..` is one VM instruction copying 8 MB.
function act(obs)
  local a = ("x"):rep(4e6)
  while true do local b = a .. a end
end
