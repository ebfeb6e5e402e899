-- An error object whose __tostring loops: the host formats errors with luaL_tolstring.
function act(obs)
  error(setmetatable({}, { __tostring = function() while true do end end }))
end
