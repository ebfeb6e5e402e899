-- A format whose precision overflows any integer: Lua refuses it ("invalid conversion"),
-- and the charge computed before that must not overflow either.
function act(obs)
  local ok = pcall(string.format, "%.99999999999999999999999999f", 1)
  local ok2 = pcall(string.format, "%99999999999999999999999999.99999999999999999999999999e", 1)
  if ok or ok2 then return "unexpected" end
  return obs.legal[1]
end
