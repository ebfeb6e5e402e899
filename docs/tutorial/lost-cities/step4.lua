-- Lost Cities tutorial, step 4: the rule list of the built-in greedy.
-- (docs/tutorial/lost-cities.md)
--
--   arena play --game lost-cities --bots docs/tutorial/lost-cities/step4.lua,greedy
--
-- Step 3 knew what an expedition costs. This step adds what a good human player watches:
--   * the GAP: playing 8D on a 3D gives up 4D..7D for good; do it only when few of those
--     cards can still come to us, and accept bigger gaps as the deck runs out;
--   * the POTENTIAL of a suit: the numbers in our hand plus a share of the higher cards we
--     have not seen yet (we may still draw them), minus the 20 an expedition costs;
--   * INVESTMENTS double or triple an expedition: lead with one while the deck is long;
--   * the DISCARD PILES: never throw the opponent a card its expedition can take, throw
--     away first what nobody can use, and pick up a discarded card that extends ours.
-- These are the rules of the built-in `greedy` (cardarena/src/bots/lost_cities.rs), written in Lua
-- (the same as example_bots/lua/lost-cities_greedy.lua).

---------------------------------------------------------------------------------------------
-- Reading cards. A card is a string: "ID" (an investment in suit D), "7D", "10D".

-- The suit letter of a card: its last character.
local function suit_of(card) return card:sub(-1) end

-- The number of a card: 2..10, or 0 for an investment.
local function number_of(card)
  local n = card:sub(1, -2)
  if n == "I" then return 0 end
  return tonumber(n)
end

-- "play 7D" -> "play", "7D";  "draw deck" -> "draw", "deck".
local function split_action(action)
  return action:match("^(%a+) (%w+)$")
end

---------------------------------------------------------------------------------------------
-- Questions about the position. `obs` is the observation; `me` and `opp` are the two
-- seats' indexes in the per-seat arrays (seat + 1, since Lua arrays start at 1).

-- The highest number on `who`'s expedition of `suit`: nil if the expedition is not started,
-- 1 if it holds only investments (so any number can still follow).
local function top_number(obs, who, suit)
  local exp = obs.expeditions[who][suit]
  if #exp == 0 then return nil end
  local top = 1
  for _, card in ipairs(exp) do
    if number_of(card) > top then top = number_of(card) end
  end
  return top
end

-- Whether `card` may go on `who`'s expedition: numbers must go up; investments only come
-- before the first number.
local function fits(obs, who, card)
  local top = top_number(obs, who, suit_of(card))
  if top == nil then return true end
  if number_of(card) == 0 then return top == 1 end
  return number_of(card) > top
end

-- A set of every card lying in an expedition (either seat): those are gone for good.
local function cards_in_expeditions(obs)
  local gone = {}
  for who = 1, 2 do
    for _, suit in ipairs(obs.suits) do
      for _, card in ipairs(obs.expeditions[who][suit]) do gone[card] = true end
    end
  end
  return gone
end

-- A set of the cards in our hand.
local function hand_set(obs)
  local set = {}
  for _, card in ipairs(obs.hand) do set[card] = true end
  return set
end

-- How many numbers of `suit` strictly between `low` and `high` we could still have played
-- (not in an expedition, not in our hand). Playing `high` now gives them up.
local function gap(ctx, suit, low, high)
  local n = 0
  for v = low + 1, high - 1 do
    local card = v .. suit
    if not ctx.gone[card] and not ctx.in_hand[card] then n = n + 1 end
  end
  return n
end

-- The largest gap we accept: small while the deck is long, anything near the end.
local function gap_allowance(obs)
  if obs.deck_size <= 8 then return 99 end
  if obs.deck_size <= 16 then return 4 end
  if obs.deck_size <= 28 then return 2 end
  return 1
end

---------------------------------------------------------------------------------------------
-- The play phase.

-- Rule 1: the best extension of a started expedition, as (action, gap), or nil.
local function best_extension(obs, ctx)
  local best, best_gap = nil, math.huge
  for _, card in ipairs(obs.hand) do         -- the hand is sorted: lowest cards first
    local suit = suit_of(card)
    local top = top_number(obs, ctx.me, suit)
    -- Only the lowest card that fits each started suit is a candidate.
    if top and fits(obs, ctx.me, card) and not ctx.tried[suit] then
      ctx.tried[suit] = true
      local g
      if number_of(card) == 0 then
        g = (obs.deck_size >= 24) and 0 or 6 -- a late investment is rarely worth it
      else
        g = gap(ctx, suit, top, number_of(card))
      end
      if g < best_gap then best, best_gap = "play " .. card, g end
    end
  end
  return best, best_gap
end

-- Rule 2: how promising starting `suit` is, or nil if not promising at all. The sum of our
-- numbers in the suit, plus a share of the higher cards we have not seen (we may draw some),
-- minus the 20 points an expedition costs.
local function start_potential(obs, ctx, suit)
  local count, sum, lowest = 0, 0, nil
  for _, card in ipairs(obs.hand) do
    if suit_of(card) == suit and number_of(card) > 0 then
      count, sum = count + 1, sum + number_of(card)
      lowest = lowest or number_of(card)
    end
  end
  if count == 0 then return nil end
  if count > (obs.deck_size + 1) // 2 then return nil end -- no time left to play them all
  if count < 3 and sum < 14 then return nil end           -- too weak to start
  local later = 0
  for v = lowest + 1, 10 do
    local card = v .. suit
    if not ctx.gone[card] and not ctx.in_hand[card] then later = later + v end
  end
  local share = math.min(obs.deck_size, 40) / 120         -- at most a third of them
  return sum + later * share - 20
end

-- Rule 2: the action that starts the most promising suit, or nil.
local function best_start(obs, ctx)
  local best_suit, best_potential = nil, 2   -- a potential below 2 is not worth it
  for _, suit in ipairs(obs.suits) do
    if top_number(obs, ctx.me, suit) == nil then
      local potential = start_potential(obs, ctx, suit)
      if potential and potential >= best_potential then
        best_suit, best_potential = suit, potential
      end
    end
  end
  if not best_suit then return nil end
  -- Lead with an investment while the deck is long (it multiplies the score), else with
  -- the lowest number (the hand is sorted, investments first).
  for _, card in ipairs(obs.hand) do
    if suit_of(card) == best_suit then
      if number_of(card) > 0 or obs.deck_size >= 24 then return "play " .. card end
    end
  end
end

-- Rule 3: what discarding `card` costs: what we lose by not keeping it, plus what it may
-- give the opponent (it can pick the card up from the pile).
local function discard_cost(obs, ctx, card)
  local suit, number = suit_of(card), number_of(card)
  local mine = top_number(obs, ctx.me, suit)
  local theirs = top_number(obs, ctx.opp, suit)
  local keep
  if mine and not fits(obs, ctx.me, card) then
    keep = 0                                 -- useless to us now
  elseif mine then
    keep = 20 + number                       -- a card for our own expedition: keep it!
  elseif number == 0 and obs.deck_size < 24 then
    keep = 1                                 -- a late investment in an unstarted suit
  else
    local sum = 0                            -- the stronger the suit in hand, the more
    for _, c in ipairs(obs.hand) do          -- we want to keep its cards
      if suit_of(c) == suit then sum = sum + number_of(c) end
    end
    keep = 2 + sum // 3
  end
  local feed = 0
  if theirs and fits(obs, ctx.opp, card) then
    feed = 30 + number                       -- the opponent would love this card
  elseif not theirs then
    feed = number // 2                       -- it might start that suit with it
  end
  return keep + feed
end

local function choose_play(obs, ctx)
  local extension, ext_gap = best_extension(obs, ctx)
  if extension and ext_gap <= gap_allowance(obs) then return extension end
  local start = best_start(obs, ctx)
  if start then return start end
  local best, best_cost = nil, math.huge
  for _, card in ipairs(obs.hand) do
    local cost = discard_cost(obs, ctx, card)
    if cost < best_cost then best, best_cost = "discard " .. card, cost end
  end
  -- If every discard hurts (we would throw away our own playable card or feed the
  -- opponent), extending with a bigger gap is the lesser evil.
  if best_cost >= 20 and extension then return extension end
  return best
end

---------------------------------------------------------------------------------------------
-- The draw phase.

local function choose_draw(obs, ctx)
  local allowance = math.min(gap_allowance(obs), 2)
  for _, action in ipairs(obs.legal) do
    local _, pile = split_action(action)
    if pile ~= "deck" then
      local pile_cards = obs.discards[pile]
      local card = pile_cards[#pile_cards]   -- the top of that pile
      local top = top_number(obs, ctx.me, pile)
      if top and number_of(card) > top and gap(ctx, pile, top, number_of(card)) <= allowance then
        return action                        -- it extends one of our expeditions nicely
      end
    end
  end
  -- The last deck card ends the game. When we are not ahead, take a pile card instead to
  -- play on (the opponent might then have to end the game). obs.legal[1] is "draw deck".
  local behind = obs.scores[ctx.me] <= obs.scores[ctx.opp]
  if obs.deck_size == 1 and behind and #obs.legal > 1 then return obs.legal[2] end
  return "draw deck"
end

---------------------------------------------------------------------------------------------

function act(obs)
  local ctx = {
    me = obs.seat + 1,                       -- our index in per-seat arrays
    opp = 2 - obs.seat,                      -- the opponent's
    gone = cards_in_expeditions(obs),
    in_hand = hand_set(obs),
    tried = {},                              -- suits already looked at by best_extension
  }
  if obs.phase == "draw" then return choose_draw(obs, ctx) end
  return choose_play(obs, ctx)
end
