-- Source: written for tests/replay.rs. A deliberately broken bot for any game: it logs
-- every decision and raises an error on its third one (a `crash` fault, with a traceback).
local n = 0

local function pick(obs)
  if n == 3 then
    error("deliberate failure on decision " .. n)
  end
  return obs.legal[1]
end

function act(obs)
  n = n + 1
  print("decision " .. n .. ", " .. #obs.legal .. " legal")
  return pick(obs)
end
