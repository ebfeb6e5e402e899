-- Blade, step 2: play the smallest number card that puts us ahead.
--
-- After our play we must be strictly ahead, or we lose at once. So look at the scores, and
-- take the smallest number card that is enough: winning by a small margin keeps the big cards
-- for later. Only when no number card is enough do we try a B or an M.
local NUMBER = { ["1"] = 1, ["2"] = 2, ["3"] = 3, ["4"] = 4, ["5"] = 5, ["6"] = 6, ["7"] = 7 }

function act(obs)
  if obs.phase == "setup" then return obs.legal[1] end -- a set-up pick: anything goes
  local mine = obs.scores[obs.seat + 1]                -- arrays are 1-based in Lua
  local theirs = obs.scores[2 - obs.seat]
  for _, card in ipairs(obs.legal) do                  -- legal is sorted: 1..7, B, M
    local value = NUMBER[card]
    if value and mine + value > theirs then return card end
  end
  for _, card in ipairs(obs.legal) do                  -- no number is enough:
    if card == "M" or card == "B" then return card end -- try an effect card
  end
  return obs.legal[1]                                  -- nothing helps: we lose anyway
end
