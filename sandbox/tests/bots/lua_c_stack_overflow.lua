-- __index calling itself: each level is a C call (luaV_finishget -> luaT_callTMres).
function act(obs)
  local t = setmetatable({}, { __index = function(t, k) return t[k] end })
  return t.x
end
