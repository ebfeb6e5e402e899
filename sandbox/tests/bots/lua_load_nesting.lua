-- A chunk nested too deeply for the compiler: Lua's limit on nested C calls stops the parser.
-- `load` returns nil and the message; `assert` raises it again as the bot's own error, so the
-- verdict is `crash` (an uncaught overflow would be `stack`).
function act(obs)
  local src = "return " .. string.rep("(", 100000) .. "1" .. string.rep(")", 100000)
  return assert(load(src))()
end
