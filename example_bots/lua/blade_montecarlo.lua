-- blade_montecarlo.lua: a determinized Monte-Carlo Blade bot, written to be read.
--
--   arena play --game blade --bots example_bots/lua/blade_montecarlo.lua,greedy
--
-- Blade hides two things: the opponent's hand and the order of both decks. We cannot search a
-- game we cannot see, so we do the next best thing, many times over:
--
--   1. DETERMINIZE: invent one complete deal that agrees with everything we know. The cards we
--      have not seen (obs.unseen) are exactly the opponent's hand plus both decks, and we know
--      how many cards each of those holds, so we shuffle `unseen` and hand them out.
--   2. SIMULATE: in that invented deal, play each of our candidate cards and then let both
--      players continue with a simple, fast policy until the match ends. Win = 1, draw = 1/2,
--      loss = 0.
--   3. AVERAGE: repeat with a new invented deal while the fuel lasts, and play the card whose
--      simulations went best on average.
--
-- Every candidate is tried on the same invented deals ("common random numbers"), so the
-- comparison between two cards is not blurred by one getting luckier deals than the other.
--
-- The rules are in docs/games/blade.md. The simulator below re-implements them with plain
-- numbers instead of strings, and it reuses its tables instead of building new ones: both
-- matter, because every Lua instruction and every allocated byte costs fuel.

-- Cards as small numbers: 1..7 are the number cards, 8 is Bolt, 9 is Mirror.
local BOLT, MIRROR = 8, 9
local NAMES = { "1", "2", "3", "4", "5", "6", "7", "B", "M" }
local INDEX = {}
for i, name in ipairs(NAMES) do INDEX[name] = i end

-- How much fuel one decision may use. A match asks us at most 10 decisions (every decision
-- spends a card from our 10-card hand), and the match's bank is 50,000,000 by default, so
-- 2,500,000 per decision can never run the bank dry. We stop a little early (RESERVE) to
-- leave room for choosing and returning the move.
local PER_DECISION = 2500000
local RESERVE = 60000
-- More invented deals make the averages less noisy, but past about 100 the choice rarely
-- changes (measured: 400 deals per decision did not play better than 100), so we stop there.
local MAX_DEALS = 100

-- Match results, from our point of view.
local WIN, DRAW, LOSS = 1, 0.5, 0

------------------------------------------------------------------------------------------
-- The simulator's state. Seats are 1 and 2 here (Lua arrays start at 1): seat s of the
-- observation is index s + 1. Every table is made once and overwritten for each simulation.
------------------------------------------------------------------------------------------
local function new_state()
  return {
    field = { {}, {} },       -- field values, bottom first (a B or M placed at set-up is a 1)
    len = { 0, 0 },           -- number of cards on each field
    bolted = { false, false }, -- whether each field's top card is bolted (only the top can be)
    score = { 0, 0 },         -- each field's score (bolted cards count 0)
    hand = { {0,0,0,0,0,0,0,0,0}, {0,0,0,0,0,0,0,0,0} }, -- card counts by card number
    hand_size = { 0, 0 },
    deck = { {}, {} },        -- each deck, top card LAST
    deck_size = { 0, 0 },
    variant = "readme",
  }
end

local base = new_state() -- the invented deal, before any candidate is tried
local sim = new_state()  -- a scratch copy that one simulation plays on

local function copy_state(from, to)
  for p = 1, 2 do
    local ff, tf = from.field[p], to.field[p]
    for i = 1, from.len[p] do tf[i] = ff[i] end
    to.len[p], to.bolted[p], to.score[p] = from.len[p], from.bolted[p], from.score[p]
    local fh, th = from.hand[p], to.hand[p]
    for c = 1, 9 do th[c] = fh[c] end
    to.hand_size[p] = from.hand_size[p]
    local fd, td = from.deck[p], to.deck[p]
    for i = 1, from.deck_size[p] do td[i] = fd[i] end
    to.deck_size[p] = from.deck_size[p]
  end
  to.variant = from.variant
end

------------------------------------------------------------------------------------------
-- The rules of a turn (docs/games/blade.md, "Turn").
------------------------------------------------------------------------------------------

-- Both scores after seat p plays card c, without changing anything: (p's score, the other's).
local function scores_after(s, p, c)
  local o = 3 - p
  if c == MIRROR then return s.score[o], s.score[p] end          -- M swaps the fields
  if c == BOLT then                                              -- B bolts their top card
    local top = s.len[o]
    if s.bolted[o] then top = top - 1 end                        -- (a bolted top is removed first)
    if top >= 1 then return s.score[p], s.score[o] - s.field[o][top] end
    return s.score[p], s.score[o]
  end
  if c == 1 and s.bolted[p] then                                 -- 1 revives our bolted top
    return s.score[p] + s.field[p][s.len[p]], s.score[o]
  end
  return s.score[p] + c, s.score[o]                              -- a number card is placed
end

-- Seat p plays card c: the same rules, this time changing the state.
local function apply(s, p, c)
  local o = 3 - p
  s.hand[p][c] = s.hand[p][c] - 1
  s.hand_size[p] = s.hand_size[p] - 1
  if c == MIRROR then
    s.field[p], s.field[o] = s.field[o], s.field[p]
    s.len[p], s.len[o] = s.len[o], s.len[p]
    s.bolted[p], s.bolted[o] = s.bolted[o], s.bolted[p]
    s.score[p], s.score[o] = s.score[o], s.score[p]
  elseif c == BOLT then
    if s.bolted[o] then s.len[o] = s.len[o] - 1; s.bolted[o] = false end
    if s.len[o] >= 1 then
      s.bolted[o] = true
      s.score[o] = s.score[o] - s.field[o][s.len[o]]
    end
  elseif c == 1 and s.bolted[p] then
    s.bolted[p] = false
    s.score[p] = s.score[p] + s.field[p][s.len[p]]
  else
    if s.bolted[p] then s.len[p] = s.len[p] - 1; s.bolted[p] = false end
    s.len[p] = s.len[p] + 1
    s.field[p][s.len[p]] = c
    s.score[p] = s.score[p] + c
  end
end

------------------------------------------------------------------------------------------
-- The simple policy both players follow inside a simulation: a stripped-down greedy.
-- Go ahead with the cheapest card; B and M are expensive (they are the best answers later);
-- a plain 1 is kept to revive a bolted card; never keep a hand of only B and M (it loses at
-- the last card). Fast, not clever: the averaging over many deals does the clever part.
------------------------------------------------------------------------------------------
local COST = { 3.5, 2, 3, 4, 5, 6, 7, 6, 6 } -- by card number: 1..7, B, M

local function policy(s, p)
  local hand, size = s.hand[p], s.hand_size[p]
  local effects = hand[BOLT] + hand[MIRROR]
  local best, best_rating = 0, -math.huge
  for c = 1, 9 do
    if hand[c] > 0 then
      local rating
      if c >= BOLT and size == 1 then
        rating = -1e6                                 -- B or M as the last card loses
      else
        local mine, theirs = scores_after(s, p, c)
        local cost = COST[c]
        if c == 1 and s.bolted[p] then cost = 0.5 end -- reviving is a bargain
        local left_effects = effects
        if c >= BOLT then left_effects = effects - 1 end
        if size > 1 and left_effects == size - 1 then cost = cost + 60 end
        if mine > theirs then rating = 1000 - cost
        elseif mine == theirs then rating = -100 - cost
        else rating = -1e5 - cost end
      end
      if rating > best_rating then best, best_rating = c, rating end
    end
  end
  return best
end

-- A set-up pick from hand: B or M first (on the field they are plain 1s), else the smallest
-- number, avoiding a tie with the card the other seat has already placed (if any).
local function pick(s, p)
  local hand = s.hand[p]
  local avoid = -1
  if p == 2 and s.len[1] == 1 then avoid = s.field[1][1] end
  local fallback = 0
  for _, c in ipairs({ BOLT, MIRROR, 1, 2, 3, 4, 5, 6, 7 }) do
    if hand[c] > 0 then
      local v = c
      if c >= BOLT then v = 1 end
      if v ~= avoid then return c end
      if fallback == 0 then fallback = c end
    end
  end
  return fallback
end

------------------------------------------------------------------------------------------
-- Set-up and the rest of a match. Each returns either a result for seat `me` (WIN, DRAW or
-- LOSS) or, for set-up, the seat to move next.
------------------------------------------------------------------------------------------

-- Places seat p's set-up card: from the deck, or picked from hand. Returns false if the seat
-- has no card at all.
local function place(s, p, chosen)
  local c
  if s.deck_size[p] > 0 then
    c = s.deck[p][s.deck_size[p]]
    s.deck_size[p] = s.deck_size[p] - 1
  elseif s.hand_size[p] > 0 then
    c = chosen or pick(s, p)
    s.hand[p][c] = s.hand[p][c] - 1
    s.hand_size[p] = s.hand_size[p] - 1
  else
    return false
  end
  local v = c
  if c >= BOLT then v = 1 end
  s.len[p] = 1
  s.field[p][1] = v
  s.bolted[p] = false
  s.score[p] = v
  return true
end

-- The result when seat p cannot place a set-up card.
local function out_of_cards(s, p, me)
  local o = 3 - p
  if s.variant == "controller" and (s.deck_size[o] > 0 or s.hand_size[o] > 0) then
    if o == me then return WIN, nil end
    return LOSS, nil
  end
  return DRAW, nil
end

-- Runs a set-up from seat `first` (1, or 2 when seat 1 has already placed; `chosen` is the
-- card seat `first` picks, if it is our own decision). Returns (result, nil) if the match
-- ended, else (nil, seat to move).
local function setup(s, me, first, chosen)
  while true do
    if first == 1 then
      s.len[1], s.len[2], s.score[1], s.score[2] = 0, 0, 0, 0
      s.bolted[1], s.bolted[2] = false, false
    end
    for p = first, 2 do
      if not place(s, p, chosen) then return out_of_cards(s, p, me) end
      chosen = nil
    end
    if s.score[1] ~= s.score[2] then
      if s.score[1] < s.score[2] then return nil, 1 end
      return nil, 2
    end
    first = 1 -- a tie: clear the fields and set up again
  end
end

-- Seat p plays card c; returns (result, nil) if the match ended, else (nil, next mover).
local function play_card(s, me, p, c)
  local o = 3 - p
  if c >= BOLT and s.hand_size[p] == 1 then          -- B or M as the last card loses
    if p == me then return LOSS, nil end
    return WIN, nil
  end
  apply(s, p, c)
  if s.score[p] < s.score[o] then                    -- still behind: p loses
    if p == me then return LOSS, nil end
    return WIN, nil
  end
  if s.score[p] == s.score[o] then return setup(s, me, 1, nil) end
  return nil, o
end

-- Plays the match to its end from "seat p to move"; the result for seat `me`.
local function rollout(s, me, p)
  while true do
    local o = 3 - p
    if s.hand_size[p] == 0 then                      -- nothing to play
      if s.hand_size[o] > 0 then
        if p == me then return LOSS end
        return WIN
      end
      if s.score[me] > s.score[3 - me] then return WIN end
      if s.score[me] < s.score[3 - me] then return LOSS end
      return DRAW
    end
    local result, next = play_card(s, me, p, policy(s, p))
    if result then return result end
    p = next
  end
end

------------------------------------------------------------------------------------------
-- From the observation to invented deals.
------------------------------------------------------------------------------------------

-- Loads what we know into `base`: both fields, our hand and the variant.
local function load_known(obs, me)
  base.variant = obs.variant
  for p = 1, 2 do
    local field = obs.fields[p]
    base.len[p], base.score[p], base.bolted[p] = #field, obs.scores[p], false
    for i, fc in ipairs(field) do
      local v = INDEX[fc.card]
      if v >= BOLT then v = 1 end                     -- B or M on a field is a plain 1
      base.field[p][i] = v
      if not fc.valid then base.bolted[p] = true end  -- only the top card can be bolted
    end
    for c = 1, 9 do base.hand[p][c] = 0 end
  end
  for _, name in ipairs(obs.hand) do
    base.hand[me][INDEX[name]] = base.hand[me][INDEX[name]] + 1
  end
  base.hand_size[me] = #obs.hand
end

-- Shuffles `pool` (the unseen cards) and deals it: the opponent's hand, then both decks.
-- Uses math.random, which the arena seeds from the match seed: same seed, same play.
local function invent_deal(obs, me, pool)
  local o = 3 - me
  for i = #pool, 2, -1 do                            -- Fisher-Yates shuffle
    local j = math.random(i)
    pool[i], pool[j] = pool[j], pool[i]
  end
  local k = 0
  local hand = base.hand[o]
  for c = 1, 9 do hand[c] = 0 end
  base.hand_size[o] = obs.hand_counts[o]
  for _ = 1, obs.hand_counts[o] do k = k + 1; hand[pool[k]] = hand[pool[k]] + 1 end
  for p = 1, 2 do
    base.deck_size[p] = obs.deck_counts[p]
    for i = 1, obs.deck_counts[p] do k = k + 1; base.deck[p][i] = pool[k] end
  end
end

-- Plays candidate card c in the invented deal (in `sim`) and then to the end of the match.
local function simulate(obs, me, c)
  copy_state(base, sim)
  local result, next
  if obs.phase == "setup" then
    -- Our set-up pick. If we are seat 0, seat 1 still has to place its card.
    result, next = setup(sim, me, me, c)
  else
    result, next = play_card(sim, me, me, c)
  end
  if result then return result end
  return rollout(sim, me, next)
end

function act(obs)
  if #obs.legal == 1 then return obs.legal[1] end   -- nothing to think about
  local me = obs.seat + 1
  local start = budget_left()
  local limit = math.min(start, PER_DECISION) - RESERVE

  load_known(obs, me)
  local pool = {}
  for i, name in ipairs(obs.unseen) do pool[i] = INDEX[name] end
  local candidates, total = {}, {}
  for i, name in ipairs(obs.legal) do candidates[i] = INDEX[name]; total[i] = 0 end

  -- Simulate every candidate on the same invented deals until the fuel is (nearly) spent.
  -- The first deal is always played, so that we always have an estimate.
  local deals = 0
  repeat
    invent_deal(obs, me, pool)
    for i, c in ipairs(candidates) do total[i] = total[i] + simulate(obs, me, c) end
    deals = deals + 1
    -- Stop before the next deal (about used / deals more fuel) would overrun the limit.
    local used = start - budget_left()
  until deals >= MAX_DEALS or used + used / deals > limit

  -- The best mean. On equal means, the policy's own choice (the card it would play) wins,
  -- then the cheaper card: both are better guesses than the first card of `legal`.
  local preferred = 0
  if obs.phase == "turn" then
    copy_state(base, sim)
    preferred = policy(sim, me)
  end
  local best = 1
  for i = 2, #candidates do
    local better = total[i] > total[best]
    if total[i] == total[best] then
      better = candidates[i] == preferred or
               (candidates[best] ~= preferred and COST[candidates[i]] < COST[candidates[best]])
    end
    if better then best = i end
  end
  print(string.format("%d deals, %s wins %.0f%%", deals, obs.legal[best], 100 * total[best] / deals))
  return obs.legal[best]
end
