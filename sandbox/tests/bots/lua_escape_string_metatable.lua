-- The string metatable is reachable; it leads only to the (wrapped) string table.
function act(obs)
  local mt = getmetatable("")
  local dump = mt.__index.dump
  return dump(act)
end
