-- Keeps retrying a huge allocation: each refusal makes Lua run a full GC.
local keep = {}
local chunk = string.rep("k", 100000)
for i = 1, 200 do keep[i] = chunk .. i end
function act(obs)
  while true do pcall(string.rep, "x", 1e9) end
end
