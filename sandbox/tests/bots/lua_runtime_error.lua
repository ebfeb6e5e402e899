local function helper(x)
  return x.field.missing
end
function act(obs)
  return helper(obs)
end
