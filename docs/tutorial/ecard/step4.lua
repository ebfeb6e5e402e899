-- E-card, step 4: learn the belief from the opponent's own past plays.
--
-- Step 3 assumed the opponent shows its special card with probability 1/2 at every play.
-- Here we count what it really did, separately for each of its sides and each play number:
-- "as the Slave, at play 1, it showed the Slave 3 times out of 3". Bots have habits, and the
-- built-in greedy bot has strong ones, so the counts soon say what it will do next.
--
-- The rest is step 3: value(card) is what the round is worth to us if we play `card` now and
-- keep choosing the best card later, now with the learned probability for each play.

-- Before we have seen anything we need a guess, and it counts as PRIOR_WEIGHT observed plays.
-- Step 3 guessed 1/2, and that costs points against a careful opponent: our Slave shows
-- itself early, meets a Citizen and gives away a point, round after round, while we learn.
-- The number that matters is 1/7. At the last play of a round, showing the Slave is the
-- better bet only if the Emperor shows up more than 1 time in 7 (5 points won against 1
-- lost), and showing the Emperor only if the Slave shows up less than 1 time in 7. A prior
-- of 1/10 says "assume a careful opponent until it shows otherwise": our Slave keeps its
-- Citizens, our Emperor waits, and neither gives away a point while the counts are empty.
local PRIOR_P, PRIOR_WEIGHT = 1 / 10, 2

-- seen[side][play] = { shown = n, chances = m }: at play number `play` of the rounds where
-- the opponent held `side` and still had a Citizen, it showed its special card n times out
-- of m. Counted afresh from the observation at every decision: it holds the whole history.
local function count_opponent(obs)
  local opp = 2 - obs.seat -- the opponent's index in a [seat 0, seat 1] pair (1-based)
  local seen = { emperor = {}, slave = {} }
  for play = 1, obs.max_plays do
    seen.emperor[play] = { shown = 0, chances = 0 }
    seen.slave[play] = { shown = 0, chances = 0 }
  end
  local function look(plays, side)
    for play, pair in ipairs(plays) do
      if play <= 4 then -- before play 5 it still held a Citizen: a real choice
        local c = seen[side][play]
        c.chances = c.chances + 1
        if pair[opp] ~= "C" then c.shown = c.shown + 1 end
      end
    end
  end
  for _, round in ipairs(obs.history) do
    local side = (round.emperor == obs.seat) and "slave" or "emperor"
    look(round.plays, side)
  end
  look(obs.plays, obs.opponent_side) -- this round's Citizen draws count too
  return seen
end

-- The learned probability that the opponent shows its special card at `play`.
local function belief(r, play)
  local c = r.seen[play]
  return (c.shown + PRIOR_P * PRIOR_WEIGHT) / (c.chances + PRIOR_WEIGHT)
end

-- The points of a decided play, from our side: + we score, - they score. nil for two
-- Citizens (a draw: the round goes on). E beats C, C beats S, S beats E; a win is worth 1 on
-- the Emperor side and 5 on the Slave side.
local function points(mine, theirs, my_side)
  if mine == "C" and theirs == "C" then return nil end
  local slave_won = (mine == "S" and theirs == "E") or (mine == "E" and theirs == "S")
  local winner = slave_won and "slave" or "emperor"
  local worth = (winner == "slave") and 5 or 1
  if winner == my_side then return worth end
  return -worth
end

-- `r` describes the round: our side, our special card, theirs, and the play limit.
local best_value -- defined below; value and best_value call each other

-- Our expected points if we play `card` at play number `play`, when both of us still hold
-- `citizens` Citizens (only Citizen draws go on, so both hands shrink together).
local function value(r, card, play, citizens)
  local p = belief(r, play)
  if citizens == 0 then p = 1 end -- no Citizen left: the special card is forced
  local v = p * points(card, r.their_special, r.side)             -- they show their special
  if p < 1 then                                                  -- they show a Citizen
    local decided = points(card, "C", r.side)
    if decided == nil then                                       -- Citizen draw:
      if play >= r.max_plays then decided = 0                    -- the round ends drawn
      else decided = best_value(r, play + 1, citizens - 1) end   -- or goes on
    end
    v = v + (1 - p) * decided
  end
  return v
end

best_value = function(r, play, citizens)
  local best = value(r, r.special, play, citizens)
  if citizens > 0 then best = math.max(best, value(r, "C", play, citizens)) end
  return best
end

function act(obs)
  local r = {
    side = obs.side,
    special = (obs.side == "emperor") and "E" or "S",
    their_special = (obs.opponent_side == "emperor") and "E" or "S",
    max_plays = obs.max_plays,
    seen = count_opponent(obs)[obs.opponent_side], -- the counts for the opponent's side now
  }
  local citizens = #obs.hand - 1 -- the hand is the special card plus our Citizens
  local best, best_v = obs.legal[1], -math.huge
  for _, card in ipairs(obs.legal) do
    local v = value(r, card, obs.play, citizens)
    if v > best_v then best, best_v = card, v end
  end
  return best
end
