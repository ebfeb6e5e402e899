local function helper(x)
  return x.field.missing
end
function act(obs)
  local r = helper(obs)
  return r
end
