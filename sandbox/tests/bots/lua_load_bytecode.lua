-- Bytecode handed to load is refused with the reason, as load's error result, whether it
-- comes as a string or from a reader function.
function act(obs)
  local f, err = load("\27Lua\x54\0\x19\x93\r\n\x1a\n")
  assert(f == nil and err:find("source text only"), err)
  local sent = false
  return assert(load(function()
    if sent then return nil end
    sent = true
    return "\27Lua"
  end))()
end
