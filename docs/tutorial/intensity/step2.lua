-- Intensity tutorial, step 2: pass away the dangerous cards.
-- (docs/tutorial/intensity.md)
--
--   arena play --game intensity --bots docs/tutorial/intensity/step2.lua,greedy,greedy,greedy
--
-- Before the tricks everybody passes three cards to the left. The cards that cost points
-- are the buffalo (47, 7 points) and the calves (30..39, 1 point each), and a trick is won
-- by the HIGHEST card of the led suit. So the cards to get rid of are the buffalo, the 48
-- and 49 (they win the tricks the buffalo falls on), and high cards, calves most of all.
-- A card of a short suit is worth passing too: with no card of a suit left, we may play
-- anything when it is led, and so get rid of our worst cards (step 3 uses that).

local BUFFALO = 47

local function suit(card) return card // 10 end        -- the tens digit: 1..4
local function rank(card) return card % 10 end         -- the units digit: 0..9
local function is_calf(card) return suit(card) == 3 end

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

function act(obs)
  if obs.phase == "pass" then return choose_pass(obs) end
  return obs.legal[1]                                   -- the tricks: still our lowest card
end
