-- {{NAME}}: a cardarena bot for {{GAME}}, in Lua 5.4.
--
--   arena play --game {{GAME}} --bots {{BOTS}}      # one match, with the game log
--   arena play --game {{GAME}} --bots {{HUMAN_BOTS}}      # you against it, in the terminal
--   arena check bot.lua --game {{GAME}}                 # hundreds of matches: faults, fuel, win rate
--
-- The arena calls act(obs) for every decision of your seat and plays the string you return,
-- which must be one of obs.legal (anything else loses the match: `arena docs bot-api`,
-- verdicts). The rules, the action notation and every field: `arena docs {{GAME}}`.
-- types/{{GAME}}.lua describes the observation for your editor: with VS Code and
-- the "Lua" extension (sumneko), typing `obs.` lists the fields.
--
-- The observation (class {{CLASS}}):
{{FIELDS}}
--
-- Arrays are Lua sequences, 1-based: the entry of seat s is at index s + 1. JSON null is nil.
-- Globals keep their values between the decisions of one match; every match starts afresh.
-- print(...) writes to the bot's log (shown by `arena play`); budget_left() is the fuel left.

---Called once before the first decision (optional).
---@param info {{INFO_CLASS}}
function init(info)
  -- math.random is seeded from the match seed and your seat: the same match plays the same way.
end

---Called for every decision of your seat: return one string of obs.legal.
---@param obs {{CLASS}}
---@return string
function act(obs)
  -- A first strategy: any legal action, at random. Replace it with something clever.
  return obs.legal[math.random(#obs.legal)]
end
