-- A chunk nested too deeply for the compiler: Lua's limit on nested C calls stops the parser,
-- and `load` hands the error back as its result (nil and the message). The bot has it in hand,
-- so the overflow ended nothing: the bot's own error afterwards is `crash`, not `stack`.
function act(obs)
  local src = "return " .. string.rep("(", 100000) .. "1" .. string.rep(")", 100000)
  local f, err = load(src)
  assert(f == nil and type(err) == "string")
  error("my own mistake")
end
