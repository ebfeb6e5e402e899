-- Attacks CPU per fuel: `%.99f` of 1e308 writes 408 digits with big-number arithmetic, about
-- 10 µs per conversion (before conversions were charged: 750 ns per unit of fuel, stopped by the
-- wall clock).
function act(obs)
  local fmt = ("%.99f"):rep(200)
  local n = {}
  for i = 1, 200 do n[i] = 1e308 end
  while true do
    string.format(fmt, table.unpack(n))
  end
end
