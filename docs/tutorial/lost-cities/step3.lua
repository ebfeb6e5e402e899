-- Lost Cities tutorial, step 3: start an expedition only when the hand pays for it.
-- (docs/tutorial/lost-cities.md)
--
--   arena play --game lost-cities --bots docs/tutorial/lost-cities/step3.lua,greedy
--
-- An expedition scores (sum of its numbers - 20) x (1 + investments). So:
--   * keep playing on the expeditions we started, lowest card first (numbers must go up,
--     so a low card played late is a card lost);
--   * start a new expedition only in a suit whose numbers in our hand add up to more than
--     20: then it cannot lose points;
--   * otherwise discard, from the suit we hold least of.
-- We still always draw from the deck.

-- A card is a string: "ID" (an investment in suit D), "7D", "10D".
local function suit_of(card) return card:sub(-1) end
local function number_of(card)                         -- 2..10, or 0 for an investment
  local n = card:sub(1, -2)
  if n == "I" then return 0 end
  return tonumber(n)
end

-- The sum of our hand's numbers in `suit`.
local function hand_sum(obs, suit)
  local sum = 0
  for _, card in ipairs(obs.hand) do
    if suit_of(card) == suit then sum = sum + number_of(card) end
  end
  return sum
end

local function choose_play(obs)
  local mine = obs.expeditions[obs.seat + 1]           -- per-seat arrays start at 1
  -- 1. Extend a started expedition. legal lists our cards lowest first, and has
  --    "play X" only when X fits (is higher than the expedition's last number).
  for _, action in ipairs(obs.legal) do
    local verb, card = action:match("^(%a+) (%w+)$")
    if verb == "play" and #mine[suit_of(card)] > 0 then return action end
  end
  -- 2. Start the suit with the biggest sum in hand, if it is over 20.
  local best_suit, best_sum = nil, 20
  for _, suit in ipairs(obs.suits) do
    if #mine[suit] == 0 and hand_sum(obs, suit) > best_sum then
      best_suit, best_sum = suit, hand_sum(obs, suit)
    end
  end
  if best_suit then
    for _, card in ipairs(obs.hand) do                 -- the hand is sorted: lowest first
      if suit_of(card) == best_suit then return "play " .. card end
    end
  end
  -- 3. Discard a card of the suit with the smallest sum in hand, not one we could play.
  local worst, worst_sum = nil, math.huge
  for _, card in ipairs(obs.hand) do
    local suit = suit_of(card)
    if #mine[suit] == 0 and hand_sum(obs, suit) < worst_sum then
      worst, worst_sum = card, hand_sum(obs, suit)
    end
  end
  return "discard " .. (worst or obs.hand[1])
end

function act(obs)
  if obs.phase == "draw" then return "draw deck" end
  return choose_play(obs)
end
