-- ecard_greedy.lua: an E-card bot that models its opponent and plays the best reply.
--
--   arena play --game ecard --bots example_bots/lua/ecard_greedy.lua,random
--
-- E-card is a guessing game: both seats choose a card at the same time. So the bot needs a
-- belief about what the opponent will do. Ours is one number, p: the chance that the opponent
-- shows its special card (E or S) at a play where it could still show a Citizen instead. We
-- learn p from the opponent's past plays (they are all in the observation: obs.plays for the
-- current round, obs.history for the finished ones), starting from a prior guess.
--
-- Given p, the value of each card we could play now is the expected points of the round
-- (ours minus theirs), assuming we also play best in the later plays of the round. A round has
-- at most obs.max_plays plays, so a small recursion computes it exactly.
--
-- Against the arena's `random` bot (p = 1/2) this means: on the Emperor side, keep the
-- Emperor back and play Citizens (the Slave is likely to show up and lose to a Citizen); on the
-- Slave side, play the Slave at once (an even chance of meeting the Emperor, worth 5).
-- See docs/games/ecard.md for the rules and every observation field.

-- Prior belief: the opponent shows its special card one time in three, worth 3 observed
-- plays. (Uniform over a hand of E + 4 C would be 1/5; uniform over `legal` is 1/2.)
local PRIOR_P, PRIOR_WEIGHT = 1 / 3, 3

-- The points a play (our card, their card) gives us, from our point of view (+ we score,
-- - they score), or nil if both played a Citizen (the play is a draw, the round goes on).
-- Emperor beats Citizen, Citizen beats Slave, Slave beats Emperor. A win on the Emperor side
-- is worth 1, a win on the Slave side 5.
local function play_points(mine, theirs, my_side)
  if mine == "C" and theirs == "C" then return nil end
  local slave_wins = (mine == "S" and theirs == "E") or (mine == "E" and theirs == "S")
  local winner_side                          -- "emperor" or "slave"
  if slave_wins then winner_side = "slave" else winner_side = "emperor" end
  local points = (winner_side == "slave") and 5 or 1
  if winner_side == my_side then return points else return -points end
end

-- Our expected round points if we play `card` now, at play number `play`, when we still
-- hold `my_citizens` Citizens and the opponent `their_citizens`, and then play best.
-- `special` is our special card ("E" or "S"), `theirs` the opponent's.
local value_of -- declared first: value_of and best_value call each other

-- The best expected value over our choices at play `play`.
local function best_value(ctx, play, my_citizens, their_citizens)
  local best = value_of(ctx, ctx.special, play, my_citizens, their_citizens)
  if my_citizens > 0 then
    best = math.max(best, value_of(ctx, "C", play, my_citizens, their_citizens))
  end
  return best
end

value_of = function(ctx, card, play, my_citizens, their_citizens)
  -- The opponent shows its special card with probability p, or surely if it has no Citizen.
  local p = ctx.p
  if their_citizens == 0 then p = 1 end
  local total = 0
  -- Their special card: the round is decided whatever we played.
  total = total + p * play_points(card, ctx.their_special, ctx.side)
  -- Their Citizen (probability 1 - p).
  if p < 1 then
    local decided = play_points(card, "C", ctx.side)
    local v
    if decided then
      v = decided
    elseif play >= ctx.max_plays then
      v = 0                                  -- the last play was a Citizen draw: round drawn
    else
      v = best_value(ctx, play + 1, my_citizens - 1, their_citizens - 1)
    end
    total = total + (1 - p) * v
  end
  return total
end

-- Counts the opponent's choices so far: how often it showed its special card when it could
-- have shown a Citizen instead, out of how many such plays.
local function count_opponent(obs)
  local opp = 2 - obs.seat                   -- the opponent's index in a [seat0, seat1] pair
  local shown, chances = 0, 0
  local function look(plays)
    for i, pair in ipairs(plays) do
      -- Before play i the opponent has used i - 1 Citizens of its 4, so it still holds one
      -- if i <= 4 (in the `manga` variant, the 5th play is forced).
      if i <= 4 then
        chances = chances + 1
        if pair[opp] ~= "C" then shown = shown + 1 end
      end
    end
  end
  for _, round in ipairs(obs.history) do look(round.plays) end
  look(obs.plays)                            -- the current round: Citizen draws so far
  return shown, chances
end

local function count(hand, card)
  local n = 0
  for _, c in ipairs(hand) do
    if c == card then n = n + 1 end
  end
  return n
end

function act(obs)
  local shown, chances = count_opponent(obs)
  local ctx = {
    p = (shown + PRIOR_P * PRIOR_WEIGHT) / (chances + PRIOR_WEIGHT),
    side = obs.side,
    special = (obs.side == "emperor") and "E" or "S",
    their_special = (obs.opponent_side == "emperor") and "E" or "S",
    max_plays = obs.max_plays,
  }
  local my_citizens = count(obs.hand, "C")
  local their_citizens = count(obs.opponent_hand, "C")

  -- Rate every legal card; keep the best (ties: pick one of them at random).
  local best, best_value_seen = {}, -math.huge
  for _, card in ipairs(obs.legal) do
    local v = value_of(ctx, card, obs.play, my_citizens, their_citizens)
    if v > best_value_seen + 1e-9 then
      best, best_value_seen = { card }, v
    elseif v > best_value_seen - 1e-9 then
      best[#best + 1] = card
    end
  end
  return best[math.random(#best)]
end
