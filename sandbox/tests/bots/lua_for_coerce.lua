-- Attacks CPU per fuel: a numeric `for` whose values are numeric strings makes the VM itself
-- convert them (1 MiB of digits, about 0.5 ms each) in one instruction; the conversion is
-- charged 1 per 8 bytes, so this ends in `fuel`.
function act(obs)
  local d = ("1"):rep(1 << 20)
  local n = 0
  while true do
    for i = d, 0 do n = n + 1 end
  end
end
