-- any_coroutines.lua: plays any game (every game's observation lists its legal actions in
-- obs.legal), to show Lua's coroutines in a bot. Run it with:
--   arena play --game lost-cities --bots example_bots/lua/any_coroutines.lua,random
--
-- Two uses of coroutines that search bots make:
-- * a generator: `shuffled(list)` hands out the list's elements one at a time, in a random
--   order, without building the shuffled list first;
-- * a coroutine that lives for the whole match: `memory` is resumed once per decision and
--   keeps its own state in its locals between decisions.
-- Every instruction a coroutine runs is paid from the fuel of the decision that runs it
-- (docs/sandbox.md), so resuming `memory` in a later decision costs that decision.

-- Yields the elements of `list` in a random order (a Fisher-Yates shuffle, one step per yield).
local function shuffled(list)
  return coroutine.wrap(function()
    local order = {}
    for i = 1, #list do order[i] = i end
    for i = #order, 1, -1 do
      local j = math.random(i)
      order[i], order[j] = order[j], order[i]
      coroutine.yield(list[order[i]])
    end
  end)
end

-- Remembers the last action chosen in each decision; answers whether an action was chosen
-- in the previous decision.
local memory = coroutine.wrap(function(action)
  local previous
  while true do
    local chosen = coroutine.yield(action == previous)
    previous, action = action, chosen
  end
end)
memory(nil) -- start it: it waits at its first yield

function act(obs)
  local fallback
  for action in shuffled(obs.legal) do
    fallback = fallback or action
    -- Prefer not to repeat the previous decision's action when there is a choice.
    if not memory(action) or #obs.legal == 1 then
      return action
    end
  end
  return fallback
end
