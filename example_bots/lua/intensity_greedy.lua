-- intensity_greedy.lua: an Intensity bot following the classic rules of thumb of Hearts-like
-- games, written to be read.
--
--   arena play --game intensity --bots example_bots/lua/intensity_greedy.lua,random,random,random
--
-- Intensity (docs/games/intensity.md): 4 players, cards 10..49, the tens digit is the suit.
-- Taking a trick that holds a calf (30..39) costs 1 point per calf, the buffalo (47) costs 7.
-- Fewest points wins. So the whole game is about NOT winning the wrong tricks:
--
--   * pass away the dangerous cards (the buffalo, the 48 and 49 that could catch it, high
--     cards), and cards of short suits, so that we run out of a suit early and can dump;
--   * lead low cards, which are unlikely to win;
--   * when following, play the highest card that still loses ("duck");
--   * when we cannot follow, dump the most dangerous card we hold.
--
-- Cards arrive as Lua integers; obs.legal holds strings ("play 33", "pass 12 33 47").

local BUFFALO = 47

local function suit(card) return card // 10 end        -- the tens digit: 1..4
local function rank(card) return card % 10 end         -- the units digit: 0..9
local function is_calf(card) return suit(card) == 3 end

-- Whether the buffalo might still be in someone else's hand: we have not seen it in our
-- hand, in the current trick, or in a finished trick.
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

-- The card of `cards` with the smallest `key(card)`; ties go to the first one.
local function min_by(cards, key)
  local best, best_key = nil, math.huge
  for _, c in ipairs(cards) do
    local k = key(c)
    if k < best_key then best, best_key = c, k end
  end
  return best
end

---------------------------------------------------------------------------------------------
-- The pass: three cards to the left, chosen before any trick.

-- How much we want to get rid of a card. The buffalo first, then 49 and 48 (they would win a
-- trick the buffalo is dumped on), then high cards; calves count extra, and so do non-calf
-- cards of a suit we hold at most 3 of (passing them may leave us void in that suit).
local function danger(hand, card)
  if card == BUFFALO then return 100 end
  if card == 49 then return 91 end
  if card == 48 then return 90 end
  local d = rank(card)
  if is_calf(card) then d = d + 5 end
  local same_suit = 0
  for _, c in ipairs(hand) do
    if suit(c) == suit(card) then same_suit = same_suit + 1 end
  end
  if same_suit <= 3 and not is_calf(card) then d = d + 4 end
  return d
end

local function choose_pass(obs)
  local cards = {}
  for i, c in ipairs(obs.hand) do cards[i] = c end
  -- Most dangerous first; equal danger: the higher card first.
  table.sort(cards, function(a, b)
    local da, db = danger(obs.hand, a), danger(obs.hand, b)
    if da ~= db then return da > db end
    return a > b
  end)
  local pick = { cards[1], cards[2], cards[3] }
  table.sort(pick)                           -- the action lists the cards ascending
  return string.format("pass %d %d %d", pick[1], pick[2], pick[3])
end

---------------------------------------------------------------------------------------------
-- The tricks.

local function choose_card(obs, cards)
  local out = buffalo_out(obs)
  local trick = obs.trick.cards

  -- Leading: the lowest, safest card. Calves, the buffalo and (while the buffalo is out)
  -- 48/49 make bad leads.
  if #trick == 0 then
    return min_by(cards, function(c)
      local k = rank(c)
      if is_calf(c) then k = k + 10 end
      if c == BUFFALO then k = k + 30 end
      if out and c >= 48 then k = k + 20 end
      return k
    end)
  end

  local led = suit(trick[1])
  if suit(cards[1]) ~= led then
    -- We cannot follow suit (every legal card is of another suit): dump the worst card.
    return min_by(cards, function(c)
      local dump = rank(c)
      if c == BUFFALO then dump = 300
      elseif out and c >= 48 then dump = 200
      elseif is_calf(c) then dump = 100 + rank(c) end
      return -(dump * 100 + c)               -- the largest dump value first
    end)
  end

  -- Following suit. The card that wins the trick so far:
  local winning = trick[1]
  for _, c in ipairs(trick) do
    if suit(c) == led and c > winning then winning = c end
  end
  local last = #trick == 3
  local clean = true                         -- no penalty card in the trick yet
  for _, c in ipairs(trick) do
    if is_calf(c) or c == BUFFALO then clean = false end
  end

  -- The buffalo under a higher card: someone else takes its 7 points.
  for _, c in ipairs(cards) do
    if c == BUFFALO and c < winning then return c end
  end
  -- Our cards other than the buffalo (we never want to win a trick with it).
  local safe = {}
  for _, c in ipairs(cards) do
    if c ~= BUFFALO then safe[#safe + 1] = c end
  end
  if #safe == 0 then safe = cards end
  local highest = safe[#safe]                -- legal cards come ascending
  -- Last to play on a clean trick: winning it costs nothing, so shed our highest card.
  if last and clean then return highest end
  -- Duck: the highest card that still loses.
  local duck = nil
  for _, c in ipairs(cards) do
    if c < winning then duck = c end
  end
  if duck then return duck end
  -- Every card wins. Last: win with the highest (it is gone for good). Otherwise the
  -- lowest, hoping a later player goes higher.
  if last then return highest end
  return safe[1]
end

function act(obs)
  if obs.phase == "pass" then return choose_pass(obs) end
  local cards = {}
  for i, action in ipairs(obs.legal) do
    cards[i] = tonumber(action:match("%d+"))  -- "play 33" -> 33
  end
  return "play " .. choose_card(obs, cards)
end
