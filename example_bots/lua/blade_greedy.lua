-- blade_greedy.lua: a one-move-lookahead Blade bot, written to be read.
--
--   arena play --game blade --bots example_bots/lua/blade_greedy.lua,random
--
-- The idea: for every card we could play, work out what the two fields would look like
-- afterwards (the rules are simple enough to simulate in a few lines), then give the move a
-- rating and play the best one:
--
--   * a move that leaves us behind loses on the spot: never, unless there is nothing else;
--   * a move that ties only restarts the set-up: better than losing, worse than going ahead;
--   * among the moves that go ahead, prefer the one that spends the least valuable card (win
--     by a small margin, keep big cards and the special cards B and M for later), and the one
--     after which the opponent is least likely to have an answer.
--
-- Everything comes from the observation (docs/games/blade.md): our hand, both fields, the
-- hand sizes and the list of cards we have not seen yet. Arrays from the observation are
-- Lua sequences (1-based), so "the field of seat s" is obs.fields[s + 1].

-- What a card adds to a field. B and M only lie on a field when placed at set-up, worth 1.
local VALUE = { ["1"] = 1, ["2"] = 2, ["3"] = 3, ["4"] = 4, ["5"] = 5, ["6"] = 6, ["7"] = 7,
                B = 1, M = 1 }

-- How much we dislike spending a card that would put us ahead. A number card costs its
-- value. B and M cost as much as a 6: they are our best answers later (a Mirror works
-- whenever we are behind). See card_cost below for the 1.
local EFFECT_COST = 6

-- The score of one field: the sum of its valid (not bolted) cards.
local function score(field)
  local total = 0
  for _, c in ipairs(field) do
    if c.valid then total = total + VALUE[c.card] end
  end
  return total
end

-- A copy of one field, so that simulating a move never changes the observation itself.
local function copy_field(field)
  local out = {}
  for i, c in ipairs(field) do out[i] = { card = c.card, valid = c.valid } end
  return out
end

-- Removes the top card of a field if it is bolted.
local function drop_bolted_top(field)
  local top = field[#field]
  if top and not top.valid then field[#field] = nil end
end

-- The two fields (indexed by seat + 1) after seat `me` plays `card`: the rules of a turn.
local function after(fields, me, card)
  local mine, theirs = copy_field(fields[me + 1]), copy_field(fields[2 - me])
  local top = mine[#mine]
  if card == "1" and top and not top.valid then
    top.valid = true                         -- 1 revives our bolted top card...
  elseif card == "1" then
    mine[#mine + 1] = { card = "1", valid = true } -- ...or is placed as a 1
  elseif card == "B" then
    drop_bolted_top(theirs)                  -- B: clear their bolted top card, if any,
    local t = theirs[#theirs]                -- then bolt their new top card
    if t then t.valid = false end
  elseif card == "M" then
    mine, theirs = theirs, mine              -- M: swap the fields completely
  else
    drop_bolted_top(mine)                    -- 2..7: clear our bolted top, then place
    mine[#mine + 1] = { card = card, valid = true }
  end
  local out = {}
  out[me + 1], out[2 - me] = mine, theirs
  return out
end

-- The chance that a hand of `hand` cards, drawn at random from `pool` unseen cards, holds
-- none of the `good` ones (a hypergeometric probability, computed one card at a time).
local function chance_of_none(pool, good, hand)
  local p = 1.0
  for i = 0, hand - 1 do
    local bad_left, pool_left = pool - good - i, pool - i
    if bad_left <= 0 then return 0.0 end
    p = p * bad_left / pool_left
  end
  return p
end

-- How many of the opponent's possible cards would put it strictly ahead after our move.
-- We do not know its hand, only `unseen` (its hand and both decks together), so we treat
-- every unseen card as one it might hold.
local function answers(fields, me, obs)
  local them = 1 - me
  local count = 0
  for _, card in ipairs(obs.unseen) do
    local last_card = obs.hand_counts[them + 1] == 1
    -- A B or M as its last card loses at once, so it is no answer.
    if not (last_card and (card == "B" or card == "M")) then
      local next = after(fields, them, card)
      if score(next[them + 1]) > score(next[me + 1]) then count = count + 1 end
    end
  end
  return count
end

-- What spending `card` costs us (lower is better), see EFFECT_COST above.
local function card_cost(obs, card)
  if card == "B" or card == "M" then return EFFECT_COST end
  if card == "1" then
    local top = obs.fields[obs.seat + 1]
    top = top[#top]
    if top and not top.valid then return 0.5 end  -- reviving a bolted card: a bargain
    for _, c in ipairs(obs.unseen) do
      if c == "B" then return 3.5 end             -- keep it to revive a card bolted later
    end
    return 1
  end
  return VALUE[card]
end

-- Whether the hand would hold only B and M after playing `card`. Such a hand is doomed: its
-- last card will be a B or M, and playing one as the last card loses.
local function only_effects_left(hand, card)
  local skipped, numbers, left = false, 0, 0
  for _, c in ipairs(hand) do
    if c == card and not skipped then
      skipped = true                         -- this is the copy we play
    else
      left = left + 1
      if c ~= "B" and c ~= "M" then numbers = numbers + 1 end
    end
  end
  return left > 0 and numbers == 0
end

-- The rating of playing `card` in a turn: higher is better.
local function rate_turn(obs, card)
  local me, them = obs.seat, 1 - obs.seat
  if #obs.hand == 1 and (card == "B" or card == "M") then
    return -1e6                              -- B or M as the last card: an instant loss
  end
  local fields = after(obs.fields, me, card)
  local mine, theirs = score(fields[me + 1]), score(fields[them + 1])
  local cost = card_cost(obs, card)
  if only_effects_left(obs.hand, card) then cost = cost + 60 end
  if mine < theirs then return -1e5 - cost end -- behind: we lose now
  if mine == theirs then return -100 - cost end -- a tie: the set-up starts again
  -- We are ahead. Reward moves the opponent is unlikely to be able to answer.
  local no_answer = 1.0
  local opp_hand = obs.hand_counts[them + 1]
  if opp_hand > 0 then
    no_answer = chance_of_none(#obs.unseen, answers(fields, me, obs), opp_hand)
  end
  return 1000 + 8 * no_answer - cost
end

-- The rating of placing `card` on the field at a set-up pick (empty deck): place something
-- cheap (B and M count as plain 1s on the field, so they are the cheapest), and avoid tying
-- the card the opponent has already placed (a tie just repeats the set-up).
local function rate_pick(obs, card)
  local rating = -VALUE[card]
  if card == "B" or card == "M" then rating = 0 end
  local theirs = obs.fields[2 - obs.seat]
  local top = theirs[#theirs]
  if top and VALUE[top.card] == VALUE[card] then rating = rating - 10 end
  return rating
end

function act(obs)
  local best, best_rating = nil, -math.huge
  for _, card in ipairs(obs.legal) do        -- legal lists each distinct card once
    local rating
    if obs.phase == "setup" then
      rating = rate_pick(obs, card)
    else
      rating = rate_turn(obs, card)
    end
    if rating > best_rating then best, best_rating = card, rating end
  end
  return best
end
