-- Replies with the order in which pairs visits a fixed set of string keys, plus the order of
-- a table.sort with many equal keys (both depend on the build defines).
function act(obs)
  local t, out = {}, {}
  for _, k in ipairs({ "alpha", "bravo", "charlie", "delta", "echo", "foxtrot", "golf",
                       "hotel", "india", "juliet", "kilo", "lima" }) do t[k] = true end
  for k in pairs(t) do out[#out + 1] = k end
  local recs = {}
  for i = 1, 300 do recs[i] = { k = (i * 7) % 3, id = i } end
  table.sort(recs, function(a, b) return a.k < b.k end)
  local ids = {}
  for i = 1, 12 do ids[i] = recs[i].id end
  return table.concat(out, ",") .. " | " .. table.concat(ids, ",")
end
