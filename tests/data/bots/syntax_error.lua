-- Source: written for the cardarena tests. A deliberately broken bot: it does not parse.
function act(obs)
  return obs.legal[1
end
