-- table.concat over a million empty strings: no allocation, a million steps per call.
local t = {}
for i = 1, 1e6 do t[i] = "" end
function act(obs)
  while true do local s = table.concat(t) end
end
