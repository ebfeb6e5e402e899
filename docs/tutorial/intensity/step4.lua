-- Intensity tutorial, step 4: mind the buffalo.
-- (docs/tutorial/intensity.md)
--
--   arena play --game intensity --bots docs/tutorial/intensity/step4.lua,greedy,greedy,greedy
--
-- Step 3, plus what a careful player does about the buffalo (7 of the 17 points):
--   * remember whether it is still "out" (in another player's hand);
--   * lead a safe card: not a calf, not the buffalo, not a 48/49 while the buffalo is out;
--   * following a 4x trick that a higher card already wins, drop the buffalo on it;
--   * last to play on a trick with no penalty card, win it with our highest card: it costs
--     nothing and that card can no longer catch the buffalo later.
-- This plays the same rules of thumb as the built-in `greedy` (cardarena/src/bots/intensity.rs).

local BUFFALO = 47

local function suit(card) return card // 10 end        -- the tens digit: 1..4
local function rank(card) return card % 10 end         -- the units digit: 0..9
local function is_calf(card) return suit(card) == 3 end

-- The pass ---------------------------------------------------------------------------------

-- How much we want to get rid of a card: the bigger, the sooner.
local function danger(hand, card)
  if card == BUFFALO then return 100 end
  if card == 49 then return 91 end
  if card == 48 then return 90 end
  local d = rank(card)                                  -- high cards win tricks
  if is_calf(card) then d = d + 5 end                   -- ... and calves cost points
  local same_suit = 0
  for _, c in ipairs(hand) do
    if suit(c) == suit(card) then same_suit = same_suit + 1 end
  end
  if same_suit <= 3 and not is_calf(card) then d = d + 4 end -- a short suit: make a void
  return d
end

local function choose_pass(obs)
  local cards = {}
  for i, c in ipairs(obs.hand) do cards[i] = c end
  -- Most dangerous first; equal danger: the higher card first (so the order is fixed).
  table.sort(cards, function(a, b)
    local da, db = danger(obs.hand, a), danger(obs.hand, b)
    if da ~= db then return da > db end
    return a > b
  end)
  local pick = { cards[1], cards[2], cards[3] }
  table.sort(pick)                                      -- the action lists them ascending
  return string.format("pass %d %d %d", pick[1], pick[2], pick[3])
end

-- The tricks ------------------------------------------------------------------------------

-- Whether the buffalo is still out: not in our hand, not played in any trick yet.
local function buffalo_out(obs)
  local function holds(cards)
    for _, c in ipairs(cards) do
      if c == BUFFALO then return true end
    end
    return false
  end
  if holds(obs.hand) or holds(obs.trick.cards) then return false end
  for _, t in ipairs(obs.tricks) do
    if holds(t.cards) then return false end
  end
  return true
end

-- The lead: how unsafe leading a card is (the lowest wins).
local function lead_score(card, out)
  local score = rank(card)                             -- low cards rarely win
  if is_calf(card) then score = score + 10 end         -- a calf led is a calf we may take
  if card == BUFFALO then score = score + 30 end
  if out and card >= 48 then score = score + 20 end    -- could catch the buffalo
  return score
end

-- The card winning the current trick so far: the highest of the led suit.
local function winning_card(trick)
  local best = trick[1]
  for _, c in ipairs(trick) do
    if suit(c) == suit(trick[1]) and c > best then best = c end
  end
  return best
end

-- How much we want to dump a card on somebody else's trick.
local function dump_value(card, out)
  if card == BUFFALO then return 300 end
  if out and card >= 48 then return 200 end            -- before it catches the buffalo
  if is_calf(card) then return 100 + rank(card) end
  return rank(card)
end

-- `cards` are our playable cards, ascending.
local function choose_card(obs, cards)
  local trick = obs.trick.cards
  local out = buffalo_out(obs)
  if #trick == 0 then                                  -- leading: the safest card
    local best = cards[1]
    for _, c in ipairs(cards) do
      if lead_score(c, out) < lead_score(best, out) then best = c end
    end
    return best
  end

  if suit(cards[1]) ~= suit(trick[1]) then             -- void in the led suit: dump
    local best = cards[1]
    for _, c in ipairs(cards) do
      if dump_value(c, out) > dump_value(best, out) then best = c end
    end
    return best
  end

  local winning = winning_card(trick)
  if winning > BUFFALO then                            -- a 48/49 wins: drop the buffalo
    for _, c in ipairs(cards) do
      if c == BUFFALO then return c end
    end
  end
  local safe = {}                                      -- our cards but the buffalo
  for _, c in ipairs(cards) do
    if c ~= BUFFALO then safe[#safe + 1] = c end
  end
  if #safe == 0 then safe = cards end
  local last = #trick == 3
  local clean = true                                   -- no penalty card in the trick
  for _, c in ipairs(trick) do
    if is_calf(c) or c == BUFFALO then clean = false end
  end
  if last and clean then return safe[#safe] end        -- a free trick: shed the highest
  local duck = nil
  for _, c in ipairs(cards) do                         -- ascending: the last one below
    if c < winning then duck = c end                   -- `winning` is the highest loser
  end
  if duck then return duck end
  if last then return safe[#safe] end                  -- we take it anyway: the highest
  return safe[1]                                       -- a later player may go higher
end

function act(obs)
  if obs.phase == "pass" then return choose_pass(obs) end
  local cards = {}
  for i, action in ipairs(obs.legal) do
    cards[i] = tonumber(action:match("%d+"))          -- "play 33" -> 33
  end
  return "play " .. choose_card(obs, cards)
end
