-- Source: written for tests/determinism.rs (the same bytes on any machine). A bot whose every
-- move depends on the last bit of many floating-point results: it hashes the bits of math
-- functions, `^`, and number<->string conversions over a sweep of inputs, then picks each
-- move from that hash. Any machine that computes one of those results differently plays
-- another match.
local function bits(v)
  return (string.unpack("<i8", string.pack("<d", v)))
end

local h = 0
local function mix(v)
  h = (h ~ bits(v)) * 1099511628211
end

-- 200,000 values of math.sin, as in the report that found CPU-dependent results.
for i = 1, 200000 do
  mix(math.sin(i * 0.001 - 100.0))
end
-- Every other math function a bot can reach, and `^`, on a smaller sweep.
for i = 1, 4000 do
  local x = i * 0.05 - 100.0
  local p = math.abs(x) + 0.5
  mix(math.cos(x)); mix(math.tan(x)); mix(math.exp(x / 10))
  mix(math.log(p)); mix(math.log(p, 2)); mix(math.log(p, 10)); mix(math.log(p, 3))
  mix(math.atan(x)); mix(math.atan(x, 3.5)); mix(math.asin(x / 100.5)); mix(math.acos(x / 100.5))
  mix(p ^ 0.37); mix(x ^ 3); mix(2.0 ^ (x / 7)); mix(math.fmod(x, 3.3)); mix(math.sqrt(p))
  mix(tonumber(tostring(x / 7)) or 0); mix(tonumber(string.format("%.17g", x / 7)))
  mix(math.random())
end

local n = 0
function act(obs)
  n = n + 1
  local k = (((h ~ (n * 0x9E3779B97F4A7C15)) * 0xBF58476D1CE4E5B9) >> 40) % #obs.legal
  return obs.legal[k + 1]
end
