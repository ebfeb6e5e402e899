-- A comparator that yields, to suspend a sort and finish it in a later decision: as with Lua's
-- C sort, the yield fails ("attempt to yield across a C-call boundary"), an error of the bot's.
local co = coroutine.wrap(function()
  table.sort({ 3, 2, 1 }, function(a, b) coroutine.yield() return a < b end)
end)
function act(obs) co() return "unreachable" end
