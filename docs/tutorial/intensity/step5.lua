-- Intensity tutorial, step 5: count the cards.
-- (docs/tutorial/intensity.md)
--
--   arena play --game intensity --bots docs/tutorial/intensity/step5.lua,greedy,greedy,greedy
--
-- Step 4 plays the rules of thumb of the built-in `greedy`. Both lead "a low card", but
-- low is relative: a 44 is the lowest card there is once 40..43 have been played, and
-- leading it wins the trick for sure. This step remembers every card played (the
-- observation lists all finished tricks) and which players have shown a void:
--   * lead the card that risks least: the chance that it wins the trick (from how many
--     higher cards of its suit are still out) times what we would take with it (calves
--     the others must follow with, a buffalo or calves dumped by a player who is void);
--   * following, when even our lowest card will surely win the trick, win it with the
--     highest instead: the trick is ours anyway, and the high card is gone.

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

-- What we know about the cards ----------------------------------------------------------

-- Every card is in our hand, played (in a finished trick or the current one), or "out" (in
-- another player's hand): `out[card]` is true for those. `void[seat][s]` is true when
-- `seat` did not follow when suit `s` was led: it holds no card of that suit.
local function read_table(obs)
  local out = {}
  for card = 10, 49 do out[card] = true end
  for _, c in ipairs(obs.hand) do out[c] = false end
  local void = { [0] = {}, {}, {}, {} }
  local function seen(leader, cards)
    for i, c in ipairs(cards) do
      out[c] = false
      if suit(c) ~= suit(cards[1]) then void[(leader + i - 1) % 4][suit(cards[1])] = true end
    end
  end
  for _, t in ipairs(obs.tricks) do seen(t.leader, t.cards) end
  if #obs.trick.cards > 0 then seen(obs.trick.leader, obs.trick.cards) end
  return out, void
end

-- How many cards still out are of the suit of `card` and higher than it.
local function higher_out(out, card)
  local n = 0
  for c = card + 1, suit(card) * 10 + 9 do
    if out[c] then n = n + 1 end
  end
  return n
end

-- The lead: how many points leading `card` may cost us (the lowest wins).
local function lead_risk(obs, out, void, card)
  local s = suit(card)
  local higher = higher_out(out, card)
  local in_suit = higher_out(out, s * 10 - 1)          -- cards of the suit still out
  -- What we take if we win: the calves the others follow with, and what the players who
  -- are void in the suit dump on us (a calf each, or the buffalo while it is out).
  local at_stake = 0
  if s == 3 then at_stake = 1 + math.min(3, in_suit) end
  local dumpers = 0
  for seat = 0, 3 do
    if seat ~= obs.seat and void[seat][s] then dumpers = dumpers + 1 end
  end
  if in_suit == 0 then dumpers = 3 end                 -- nobody else has the suit
  if out[BUFFALO] and (dumpers > 0 or (s == 4 and card > BUFFALO)) then
    at_stake = at_stake + 7
  end
  at_stake = at_stake + dumpers
  -- The chance that we win: certain when no higher card is out, smaller with each one.
  local p_win = ({ [0] = 1, 0.5, 0.25 })[higher] or 0.1
  -- Equal risks: the lower card first.
  return p_win * at_stake * 10 + rank(card) * 0.1
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
  local cards_out, void = read_table(obs)
  local out = cards_out[BUFFALO]                       -- the buffalo is still out
  if #trick == 0 then                                  -- leading: the least risk
    local best = cards[1]
    for _, c in ipairs(cards) do
      if lead_risk(obs, cards_out, void, c) < lead_risk(obs, cards_out, void, best) then best = c end
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
  -- Nobody can beat even our lowest card: the trick is ours whatever we play.
  if higher_out(cards_out, safe[1]) == 0 then return safe[#safe] end
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
