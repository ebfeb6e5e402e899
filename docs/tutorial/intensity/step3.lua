-- Intensity tutorial, step 3: duck, and dump when void.
-- (docs/tutorial/intensity.md)
--
--   arena play --game intensity --bots docs/tutorial/intensity/step3.lua,greedy,greedy,greedy
--
-- Step 2's pass, and two ideas for the tricks:
--   * following suit, play the HIGHEST card that still LOSES to the card winning the trick
--     ("duck"): we take nothing, and we get rid of a high card that could win a trick later;
--   * with no card of the led suit, we may play anything: dump the buffalo, else our
--     highest calf, else our highest card.

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

-- The card winning the current trick so far: the highest of the led suit.
local function winning_card(trick)
  local best = trick[1]
  for _, c in ipairs(trick) do
    if suit(c) == suit(trick[1]) and c > best then best = c end
  end
  return best
end

-- How much we want to dump a card on somebody else's trick.
local function dump_value(card)
  if card == BUFFALO then return 300 end
  if is_calf(card) then return 100 + rank(card) end
  return rank(card)
end

-- `cards` are our playable cards, ascending.
local function choose_card(obs, cards)
  local trick = obs.trick.cards
  if #trick == 0 then return cards[1] end             -- leading: our lowest card

  if suit(cards[1]) ~= suit(trick[1]) then             -- void in the led suit: dump
    local best = cards[1]
    for _, c in ipairs(cards) do
      if dump_value(c) > dump_value(best) then best = c end
    end
    return best
  end

  local winning = winning_card(trick)
  local duck = nil
  for _, c in ipairs(cards) do                         -- ascending: the last one below
    if c < winning then duck = c end                   -- `winning` is the highest loser
  end
  return duck or cards[1]                              -- every card wins: the lowest
end

function act(obs)
  if obs.phase == "pass" then return choose_pass(obs) end
  local cards = {}
  for i, action in ipairs(obs.legal) do
    cards[i] = tonumber(action:match("%d+"))          -- "play 33" -> 33
  end
  return "play " .. choose_card(obs, cards)
end
