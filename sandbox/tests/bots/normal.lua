-- A well-behaved bot: some deterministic work, seeded randomness, one legal action.
local calls = 0

function init(info)
  assert(type(info.seat) == "number")
end

function act(obs)
  calls = calls + 1
  local legal = obs.legal
  local keys = {}
  for k in pairs(obs) do keys[#keys + 1] = k end
  table.sort(keys)
  local words = {}
  for w in ("the quick brown fox"):gmatch("%a+") do words[#words + 1] = w:upper() end
  local pick = math.random(#legal)
  return legal[pick]
end
