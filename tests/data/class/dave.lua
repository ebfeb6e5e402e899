-- A student bot that does not parse.
function act(obs)
  return obs.legal[1
end
