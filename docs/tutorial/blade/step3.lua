-- Blade, step 3: work out what every card would do, then play the cheapest card that wins.
--
-- Step 2 guessed blindly with B and M. Here we compute both scores after each card we could
-- play (B bolts their top card, M swaps the fields, 1 revives our bolted card), and rate it:
--
--   * still behind afterwards: we lose now (the worst);
--   * a tie: the set-up starts again (better than losing);
--   * ahead: good, and the cheaper the card we spend, the better.
--
-- "Cheap" is what a card is worth to us later. A number card costs its value. B and M cost
-- as much as a 6: they are our best answers later (a Mirror works whenever we are behind). A
-- plain 1 costs 3.5, because it is the only card that revives a bolted card. And a hand of
-- only B and M is doomed (playing one as our last card loses), so we spend them in time.

local VALUE = { ["1"] = 1, ["2"] = 2, ["3"] = 3, ["4"] = 4, ["5"] = 5, ["6"] = 6, ["7"] = 7,
                B = 1, M = 1 } -- B and M count 1 only when placed on a field at set-up
local COST = { ["1"] = 3.5, ["2"] = 2, ["3"] = 3, ["4"] = 4, ["5"] = 5, ["6"] = 6, ["7"] = 7,
               B = 6, M = 6 }

-- The value of card i of a field (0 if it is bolted).
local function worth(field, i)
  local c = field[i]
  if c == nil or not c.valid then return 0 end
  return VALUE[c.card]
end

-- Both scores after we play `card`: (ours, theirs). The rules of a turn in
-- docs/games/blade.md, computed from the scores and the top cards only.
local function scores_after(obs, card)
  local me, them = obs.seat + 1, 2 - obs.seat
  local mine, theirs = obs.scores[me], obs.scores[them]
  local my_field, their_field = obs.fields[me], obs.fields[them]
  local my_top = my_field[#my_field]
  if card == "M" then return theirs, mine end          -- swap the fields
  if card == "B" then                                  -- bolt their top card
    local top = #their_field
    local t = their_field[top]
    if t and not t.valid then top = top - 1 end        -- (their bolted top goes first)
    return mine, theirs - worth(their_field, top)
  end
  if card == "1" and my_top and not my_top.valid then  -- revive our bolted top card
    return mine + VALUE[my_top.card], theirs
  end
  return mine + VALUE[card], theirs                    -- place a number card
end

-- How many B and M would be left in our hand after playing `card`, and how many cards.
local function left_after(hand, card)
  local effects, left = 0, #hand - 1
  for _, c in ipairs(hand) do
    if c == "B" or c == "M" then effects = effects + 1 end
  end
  if card == "B" or card == "M" then effects = effects - 1 end
  return effects, left
end

local function rate_turn(obs, card)
  local effects, left = left_after(obs.hand, card)
  if left == 0 and (card == "B" or card == "M") then return -1e6 end -- last card: lose
  local mine, theirs = scores_after(obs, card)
  local cost = COST[card]
  local my_field = obs.fields[obs.seat + 1]
  local top = my_field[#my_field]
  if card == "1" and top and not top.valid then cost = 0.5 end     -- reviving: a bargain
  if left > 0 and effects == left then cost = cost + 60 end        -- only B/M would be left
  if mine > theirs then return 1000 - cost end
  if mine == theirs then return -100 - cost end
  return -100000 - cost
end

-- A set-up pick (our deck is empty): place a cheap card. B and M first (on the field they
-- are plain 1s), and avoid tying the card the opponent has already placed.
local function rate_pick(obs, card)
  local rating = -VALUE[card]
  if card == "B" or card == "M" then rating = 0 end
  local their_field = obs.fields[2 - obs.seat]
  local top = their_field[#their_field]
  if top and VALUE[top.card] == VALUE[card] then rating = rating - 10 end
  return rating
end

function act(obs)
  local best, best_rating = obs.legal[1], -math.huge
  for _, card in ipairs(obs.legal) do
    local rating
    if obs.phase == "setup" then rating = rate_pick(obs, card) else rating = rate_turn(obs, card) end
    if rating > best_rating then best, best_rating = card, rating end
  end
  return best
end
