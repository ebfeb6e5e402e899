-- A to-be-closed variable whose __close loops, inside a pcall loop: __close runs as normal
-- (metered) Lua while the fuel error unwinds, and cannot stop the unwinding.
function act(obs)
  while true do
    pcall(function()
      local x <close> = setmetatable({}, { __close = function() while true do end end })
      while true do end
    end)
  end
end
