-- E-card, step 3: choose the card with the best expected points, against a belief.
--
-- The belief: at every play where the opponent could still show a Citizen, it shows its
-- special card with probability P. With P = 1/2 this is exactly the arena's `random` bot
-- (it picks uniformly from `legal`, which is the special card or "C").
--
-- value(card) = what this round is worth to us (our points minus theirs) if we play `card`
-- now and then keep choosing the best card at every later play of the round.
local P = 1 / 2

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
  local p = P
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
  }
  local citizens = #obs.hand - 1 -- the hand is the special card plus our Citizens
  local best, best_v = obs.legal[1], -math.huge
  for _, card in ipairs(obs.legal) do
    local v = value(r, card, obs.play, citizens)
    if v > best_v then best, best_v = card, v end
  end
  return best
end
