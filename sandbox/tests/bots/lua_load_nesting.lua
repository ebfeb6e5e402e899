-- A chunk nested too deeply for the compiler: Lua's limit on nested C calls stops the parser.
function act(obs)
  local src = "return " .. string.rep("(", 100000) .. "1" .. string.rep(")", 100000)
  return assert(load(src))()
end
