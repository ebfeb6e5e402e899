-- Source: written for tests/replay.rs. crash_third.lua with the bug fixed: it logs every
-- decision and always plays the first legal action.
local n = 0

local function pick(obs)
  return obs.legal[1]
end

function act(obs)
  n = n + 1
  print("decision " .. n .. ", " .. #obs.legal .. " legal")
  return pick(obs)
end
