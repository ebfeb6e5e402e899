-- Each comparison sorts again inside the comparator: every sort is a C-call level (it runs
-- behind a call no coroutine can yield across), so Lua's limit of 200 nested C calls stops
-- the chain before the native stack runs short.
local function cmp(a, b)
  table.sort({ 2, 1 }, cmp)
  return a < b
end
function act(obs) table.sort({ 2, 1 }, cmp) return "unreachable" end
