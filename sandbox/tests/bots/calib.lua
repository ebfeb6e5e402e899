-- Calibration workload (the same algorithm as calib.wat): insertion sort of 600 LCG numbers,
-- then 200 random "trick" playouts of a 52-card deck. Replies with both checksums.
local M = 0x7fffffff
local x = 12345
local function lcg()
  x = (x * 1103515245 + 12345) & M
  return x
end

local function sort_work()
  local n, a = 600, {}
  for i = 1, n do a[i] = lcg() % 1000 end
  for i = 2, n do
    local v, j = a[i], i - 1
    while j >= 1 and a[j] > v do
      a[j + 1] = a[j]
      j = j - 1
    end
    a[j + 1] = v
  end
  local sum = 0
  for i = 1, n do sum = (sum + a[i] * (i - 1)) & M end
  return sum
end

local function playout_work()
  local deck, wins = {}, { 0, 0, 0, 0 }
  for p = 1, 200 do
    for i = 0, 51 do deck[i] = i end
    for i = 51, 1, -1 do
      local j = lcg() % (i + 1)
      deck[i], deck[j] = deck[j], deck[i]
    end
    local leader = 0
    for t = 0, 12 do
      local led = deck[leader * 13 + t] // 13
      local best, winner = -1, leader
      for k = 0, 3 do
        local pl = (leader + k) % 4
        local c = deck[pl * 13 + t]
        if c // 13 == led and c % 13 > best then best, winner = c % 13, pl end
      end
      wins[winner + 1] = wins[winner + 1] + 1
      leader = winner
    end
  end
  return wins[1] * 1000000 + wins[2] * 10000 + wins[3] * 100 + wins[4]
end

function act(obs)
  x = 12345
  local s = sort_work()
  local p = playout_work()
  return s .. " " .. p
end
