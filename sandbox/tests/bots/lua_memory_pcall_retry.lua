-- Keeps retrying a huge allocation: each refusal makes Lua run a full GC.
local keep = {}
for i = 1, 200 do keep[i] = string.rep("k", 100000) .. i end
function act(obs)
  while true do pcall(string.rep, "x", 1e9) end
end
