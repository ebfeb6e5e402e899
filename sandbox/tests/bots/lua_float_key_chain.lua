-- Attacks CPU per fuel: float keys 1 + j*2^-52 all hashed alike in Lua's float hash, so each
-- t[k] walked one chain as long as the table.
function act(obs)
  local t = {}
  for j = 1, 40000 do t[1 + j * 2^-52] = j end
  while true do
    local s = 0
    for j = 1, 40000 do s = s + t[1 + j * 2^-52] end
  end
end
