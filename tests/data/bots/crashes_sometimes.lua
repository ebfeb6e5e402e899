-- Source: written for the cardarena tests. A deliberately broken bot (any game): it plays the
-- first legal action, but raises an error on every seventh decision of a match.
local decisions = 0

function act(obs)
  decisions = decisions + 1
  if decisions % 7 == 0 then
    error("deliberate crash at decision " .. decisions)
  end
  return obs.legal[1]
end
