-- A finalizer that loops forever would run at GC time or when the VM is closed, with hooks off.
function act(obs)
  setmetatable({}, { __gc = function() while true do end end })
  return "ok"
end
