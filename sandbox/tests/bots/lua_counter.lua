-- Counts decisions in a global; loops forever when the observation says so.
count = 0
function act(obs)
  count = count + 1
  if obs.loop then while true do end end
  return tostring(count)
end
