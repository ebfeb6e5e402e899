-- The documented trick: mark with a placeholder __gc, set the real one afterwards.
function act(obs)
  local mt = { __gc = true }
  local ok = pcall(setmetatable, {}, mt)
  mt.__gc = function() while true do end end
  if ok then return "marked" end
  return "refused"
end
