-- The sandbox prelude: trusted code that runs once in every fresh Lua VM, before the bot's
-- chunk and before the fuel hook is armed. It removes what a bot must not have and wraps the
-- library functions whose work the instruction hook cannot see, so that they are charged for
-- the work they do (see docs/sandbox.md, "What is charged").
--
-- The host functions arrive as arguments and stay in locals (upvalues): without the `debug`
-- library nothing the bot runs can reach them or the original C functions kept here. Each
-- section's own locals are in a `do ... end` block: while this chunk runs, every captured local
-- is an open upvalue that each new closure searches (`luaF_findupval`), so closing them early
-- makes starting a VM cheaper; the wrappers' code (and so their fuel) is the same.

local host = ...
-- Every host function costs a fixed 10 units per call on top of what is listed here.
local charge = host.charge                 -- charge(n): n units of fuel; error once exhausted
local emit = host.emit                     -- emit(line): one log line; 50 + 1 per 8 bytes
local call_noyield = host.call_noyield     -- call_noyield(f, ...): f(...), no yield inside (free)

local type, select, error, tostring, rawget = type, select, error, tostring, rawget
local tointeger, mtype = math.tointeger, math.type
local string_byte = string.byte

---------------------------------------------------------------------------------------------
-- Left out: files, modules, GC control, stderr warnings, bytecode, the debug library. What a
-- bot reaches for anyway raises an error that says so (docs/sandbox.md, "The Lua library").
do
local function absent_function(name, why)
  return function()
    error(name .. ": " .. why .. " (see `arena docs sandbox`)", 2)
  end
end
local function absent_library(name, why)
  return setmetatable({}, {
    __index = function(_, key)
      error(name .. "." .. tostring(key) .. ": the sandbox leaves out the " .. name
        .. " library, " .. why .. " (see `arena docs sandbox`)", 2)
    end,
  })
end
local no_files = "the sandbox has no files; give load() the source text instead"
dofile = absent_function("dofile", no_files)
loadfile = absent_function("loadfile", no_files)
require = absent_function("require", no_files)
collectgarbage = absent_function("collectgarbage",
  "the sandbox leaves out garbage-collector control; memory is collected for the bot")
warn = absent_function("warn", "the sandbox leaves out warnings; print writes to the bot's log")
string.dump = absent_function("string.dump", "the sandbox leaves out bytecode; load takes source text")
io = absent_library("io", "as bots have no files or terminal; print writes to the bot's log")
debug = absent_library("debug", "as it could reach past the sandbox's limits")
package = absent_library("package", "as there are no modules to load")

-- load: source text only, its compilation charged 5 per byte of the chunk (on top of what the
-- compiler allocates). A reader function's pieces are collected first (in metered Lua), so the
-- compiler always gets one string whose first byte shows whether it is text.
local load, charge_compile, concat = load, charge, table.concat
_G.load = function(...)
  local chunk, chunkname, mode = ...
  local text = chunk
  if type(chunk) == "number" then
    text = tostring(chunk)
  elseif type(chunk) == "function" then
    local parts, n = {}, 0
    while true do
      local ok, piece = pcall(chunk)
      if not ok then return nil, piece end
      if piece == nil or piece == "" then break end
      if type(piece) ~= "string" then
        -- Lua's message, with the position of load's caller (level 3 seen from `error`,
        -- called by pcall, called here)
        return nil, select(2, pcall(error, "reader function must return a string", 3))
      end
      n = n + 1
      parts[n] = piece
    end
    text = concat(parts)
    if chunkname == nil then chunkname = "=(load)" end
  elseif type(chunk) ~= "string" then
    local got = select('#', ...) == 0 and "no value" or type(chunk)
    error("bad argument #1 to 'load' (function expected, got " .. got .. ")", 2)
  end
  if string_byte(text, 1) == 27 then
    return nil, "attempt to load a binary chunk: the sandbox loads source text only (see `arena docs sandbox`)"
  end
  charge_compile(#text * 5)
  if select('#', ...) >= 4 then
    local f, err = load(text, chunkname, mode, (select(4, ...)))
    return f, err
  end
  local f, err = load(text, chunkname, mode)
  return f, err
end
end

---------------------------------------------------------------------------------------------
-- print -> the bot's log. One call = one line (arguments joined by tabs, as Lua does).
local raw_concat = table.concat
function print(...)
  local n = select('#', ...)
  local parts = { ... }
  for i = 1, n do parts[i] = tostring(parts[i]) end
  emit(raw_concat(parts, "\t", 1, n))
end

budget_left = host.budget_left

---------------------------------------------------------------------------------------------
-- os: only the clock and the calendar, as deterministic functions of the match. The time is
-- fixed for the whole match (a moment of 2026 chosen by the match seed), the clock counts the
-- fuel of the current call (10^8 units make one second), and dates are in UTC.
do
local fuel_used = host.fuel_used
local floor, format = math.floor, string.format
local match_time = 1767225600 + host.seed % 31536000  -- 2026-01-01T00:00:00Z + up to a year

local function days_from_civil(y, m, d)
  y = y - (m <= 2 and 1 or 0)
  local era = y // 400
  local yoe = y - era * 400
  local doy = (153 * (m + (m > 2 and -3 or 9)) + 2) // 5 + d - 1
  return era * 146097 + yoe * 365 + yoe // 4 - yoe // 100 + doy - 719468
end

local function civil_from_days(z)
  z = z + 719468
  local era = z // 146097
  local doe = z - era * 146097
  local yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
  local doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
  local mp = (5 * doy + 2) // 153
  local d = doy - (153 * mp + 2) // 5 + 1
  local m = mp < 10 and mp + 3 or mp - 9
  return yoe + era * 400 + (m <= 2 and 1 or 0), m, d
end

local function field(t, key, default)
  local v = rawget(t, key)
  if v == nil then
    if default == nil then error("field '" .. key .. "' missing in date table", 3) end
    return default
  end
  local i = tointeger(v)
  if i == nil then error("field '" .. key .. "' is not an integer", 3) end
  return i
end

local function time(t)
  if t == nil then return match_time end
  if type(t) ~= "table" then
    error("bad argument #1 to 'time' (table expected, got " .. type(t) .. ")", 2)
  end
  local year, month = field(t, "year"), field(t, "month")
  local day = field(t, "day")
  local hour, min, sec = field(t, "hour", 12), field(t, "min", 0), field(t, "sec", 0)
  year = year + (month - 1) // 12
  month = (month - 1) % 12 + 1
  return (days_from_civil(year, month, 1) + day - 1) * 86400 + hour * 3600 + min * 60 + sec
end

local wdays = { "Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday" }
local months = { "January", "February", "March", "April", "May", "June", "July", "August",
  "September", "October", "November", "December" }

local function fields(t)
  local days = t // 86400
  local secs = t - days * 86400
  local y, m, d = civil_from_days(days)
  return {
    year = y, month = m, day = d,
    hour = secs // 3600, min = secs % 3600 // 60, sec = secs % 60,
    wday = (days + 4) % 7 + 1, yday = days - days_from_civil(y, 1, 1) + 1, isdst = false,
  }
end

local conversions
conversions = {
  a = function(f) return wdays[f.wday]:sub(1, 3) end,
  A = function(f) return wdays[f.wday] end,
  b = function(f) return months[f.month]:sub(1, 3) end,
  B = function(f) return months[f.month] end,
  c = function(f)
    return format("%s %s %2d %02d:%02d:%02d %d", conversions.a(f), conversions.b(f), f.day,
      f.hour, f.min, f.sec, f.year)
  end,
  d = function(f) return format("%02d", f.day) end,
  D = function(f) return format("%02d/%02d/%02d", f.month, f.day, f.year % 100) end,
  e = function(f) return format("%2d", f.day) end,
  F = function(f) return format("%d-%02d-%02d", f.year, f.month, f.day) end,
  H = function(f) return format("%02d", f.hour) end,
  I = function(f) return format("%02d", (f.hour + 11) % 12 + 1) end,
  j = function(f) return format("%03d", f.yday) end,
  m = function(f) return format("%02d", f.month) end,
  M = function(f) return format("%02d", f.min) end,
  n = function() return "\n" end,
  p = function(f) return f.hour < 12 and "AM" or "PM" end,
  S = function(f) return format("%02d", f.sec) end,
  t = function() return "\t" end,
  T = function(f) return format("%02d:%02d:%02d", f.hour, f.min, f.sec) end,
  u = function(f) return tostring((f.wday + 5) % 7 + 1) end,
  w = function(f) return tostring(f.wday - 1) end,
  x = function(f) return format("%02d/%02d/%02d", f.month, f.day, f.year % 100) end,
  X = function(f) return format("%02d:%02d:%02d", f.hour, f.min, f.sec) end,
  y = function(f) return format("%02d", f.year % 100) end,
  Y = function(f) return tostring(f.year) end,
  ["%"] = function() return "%" end,
}

local function date(fmt, t)
  if fmt == nil then fmt = "%c" end
  if type(fmt) ~= "string" then
    error("bad argument #1 to 'date' (string expected, got " .. type(fmt) .. ")", 2)
  end
  if t == nil then t = match_time end
  local secs = tointeger(t)
  if secs == nil then
    error("bad argument #2 to 'date' (number has no integer representation)", 2)
  end
  if string_byte(fmt, 1) == 33 then fmt = fmt:sub(2) end  -- "!": UTC, as every date here
  local f = fields(secs)
  if fmt:sub(1, 2) == "*t" then return f end
  local out, i, n = {}, 1, #fmt
  while i <= n do
    local c = fmt:sub(i, i)
    if c == "%" then
      local k = fmt:sub(i + 1, i + 1)
      local conv = conversions[k]
      if conv == nil then
        error("bad argument #1 to 'date' (invalid conversion specifier '%" .. k .. "')", 2)
      end
      out[#out + 1] = conv(f)
      i = i + 2
    else
      out[#out + 1] = c
      i = i + 1
    end
  end
  return raw_concat(out)
end

os = setmetatable({
  time = time,
  date = date,
  clock = function() return fuel_used() / 1e8 end,
  difftime = function(t2, t1) return (t2 - (t1 or 0)) * 1.0 end,
}, {
  __index = function(_, key)
    error("os." .. tostring(key) .. ": the sandbox leaves out the rest of the os library "
      .. "(no processes, files or environment); os.time, os.clock, os.date and os.difftime "
      .. "are there (see `arena docs sandbox`)", 2)
  end,
})
end

---------------------------------------------------------------------------------------------
-- Library functions whose C code loops without the hook seeing it (tonumber, string.rep,
-- format, pack, packsize, unpack, byte, utf8.len, offset, codepoint), setmetatable (no __gc)
-- and math.randomseed (no reseeding from the clock) are wrapped by the host after this chunk
-- has run, in C (`src/lua/host.rs`): 10 per call plus the work, see docs/sandbox.md.

-- utf8.codes: the C iterator skips continuation bytes without counting; skip them here, in
-- metered Lua, and call it only where it has nothing left to skip.
do
local raw_codes = utf8.codes
local iter_strict = raw_codes("")
local iter_lax = raw_codes("", true)
local function wrap_iter(inner)
  return function(s, n)
    if type(s) ~= "string" then return inner(s, n) end
    local k = tointeger(n) or 0
    local len = #s
    if k >= 0 then
      while k < len do
        local b = string_byte(s, k + 1)
        if b < 0x80 or b >= 0xC0 then break end
        k = k + 1
      end
    end
    return inner(s, k)
  end
end
local codes_strict, codes_lax = wrap_iter(iter_strict), wrap_iter(iter_lax)
utf8.codes = function(s, lax)
  local _, st, ctl = raw_codes(s, lax)
  return (lax and codes_lax or codes_strict), st, ctl
end
end

-- Pattern matching: a metered port of the Lua matcher (see src/lua/pattern.rs).
string.find = host.find
string.match = host.match
string.gmatch = host.gmatch
string.gsub = host.gsub

---------------------------------------------------------------------------------------------
-- table: the functions that loop over elements are either charged per element (concat 2,
-- unpack 1; they get explicit bounds, so `#t` / __len is evaluated once, here) or written in
-- Lua so the hook meters every step, including metamethods (insert, remove, move, sort).

do
local function typename(v)
  return type(v)
end

local function checktable(t, pos, fname)
  if type(t) ~= "table" then
    error(("bad argument #%d to '%s' (table expected, got %s)"):format(pos, fname, typename(t)), 3)
  end
end

-- `#t` as the C library's `luaL_len` takes it for insert and remove: an integer (or a value
-- convertible to one), else Lua's error, at the position of the caller. (concat, unpack and
-- sort take `#t` as it comes: a non-integer length fails there with another message.)
local function getn(t)
  local n = tointeger(#t)
  if n == nil then error("object length is not an integer", 3) end
  return n
end

local function checkint(v, pos, fname)
  local i = tointeger(v)
  if i == nil then
    if mtype(v) == "float" then
      error(("bad argument #%d to '%s' (number has no integer representation)"):format(pos, fname), 3)
    end
    error(("bad argument #%d to '%s' (number expected, got %s)"):format(pos, fname, typename(v)), 3)
  end
  return i
end

table.concat = function(t, sep, i, j)
  if type(t) == "table" then
    if i == nil then i = 1 end
    if j == nil then j = #t end
    local ii, jj = tointeger(i), tointeger(j)
    -- A bad separator fails in raw_concat before any work: not charged.
    local st = type(sep)
    local sep_ok = sep == nil or st == "string" or st == "number"
    if sep_ok and ii and jj and jj >= ii then charge((jj * 1.0 - ii + 1) * 2) end
  end
  return raw_concat(t, sep, i, j)
end

local raw_unpack = table.unpack
table.unpack = function(t, i, j)
  if i == nil then i = 1 end
  if j == nil then j = #t end
  local ii, jj = tointeger(i), tointeger(j)
  -- More than Lua's stack can hold (LUAI_MAXSTACK) fails in raw_unpack ("too many results
  -- to unpack") before any work: charged only below that.
  if ii and jj and jj >= ii and jj * 1.0 - ii + 1 <= 1000000 then charge(jj * 1.0 - ii + 1) end
  return raw_unpack(t, i, j)
end

table.insert = function(t, ...)
  checktable(t, 1, "insert")
  local nargs = select('#', ...)
  local e = getn(t) + 1
  if nargs == 1 then
    t[e] = ...
  elseif nargs == 2 then
    local pos, v = ...
    pos = checkint(pos, 2, "insert")
    if pos < 1 or pos > e then
      error("bad argument #2 to 'insert' (position out of bounds)", 2)
    end
    for i = e, pos + 1, -1 do t[i] = t[i - 1] end
    t[pos] = v
  else
    error("wrong number of arguments to 'insert'", 2)
  end
end

table.remove = function(t, pos)
  checktable(t, 1, "remove")
  local size = getn(t)
  if pos == nil then
    pos = size
  else
    pos = checkint(pos, 2, "remove")
    if pos ~= size and (pos < 1 or pos > size + 1) then
      error("bad argument #2 to 'remove' (position out of bounds)", 2)
    end
  end
  local result = t[pos]
  while pos < size do
    t[pos] = t[pos + 1]
    pos = pos + 1
  end
  t[pos] = nil
  return result
end

local maxinteger = math.maxinteger
table.move = function(a1, f, e, t, a2)
  f = checkint(f, 2, "move")
  e = checkint(e, 3, "move")
  t = checkint(t, 4, "move")
  if a2 == nil then a2 = a1 end
  checktable(a1, 1, "move")
  checktable(a2, 5, "move")
  if e >= f then
    if not (f > 0 or e < maxinteger + f) then
      error("bad argument #3 to 'move' (too many elements to move)", 2)
    end
    local n = e - f + 1
    if t > maxinteger - n + 1 then
      error("bad argument #4 to 'move' (destination wrap around)", 2)
    end
    if t > e or t <= f or a1 ~= a2 then
      for i = 0, n - 1 do a2[t + i] = a1[f + i] end
    else
      for i = n - 1, 0, -1 do a2[t + i] = a1[f + i] end
    end
  end
  return a2
end

-- table.sort: the quicksort of ltablib.c, line for line (with l_randomizePivot() == ~0, as the
-- sandbox builds the C library too), so results are the same as the C version's.
local function lt(cmp, a, b)
  if cmp == nil then return a < b end
  return cmp(a, b)
end

local function auxsort(t, lo, up, rnd, cmp)
  while lo < up do
    local a, b = t[lo], t[up]
    if lt(cmp, b, a) then t[lo] = b; t[up] = a end
    if up - lo == 1 then return end
    local p
    if up - lo < 100 or rnd == 0 then
      p = (lo + up) // 2
    else
      local r4 = (up - lo) // 4
      p = rnd % (r4 * 2) + (lo + r4)
    end
    local ap, alo = t[p], t[lo]
    if lt(cmp, ap, alo) then
      t[p] = alo; t[lo] = ap
    else
      local aup = t[up]
      if lt(cmp, aup, ap) then t[p] = aup; t[up] = ap end
    end
    if up - lo == 2 then return end
    local pivot = t[p]
    t[p] = t[up - 1]; t[up - 1] = pivot
    -- partition: a[lo .. i - 1] <= pivot <= a[j + 1 .. up]
    local i, j = lo, up - 1
    while true do
      i = i + 1
      local ai = t[i]
      while lt(cmp, ai, pivot) do
        if i == up - 1 then error("invalid order function for sorting", 0) end
        i = i + 1
        ai = t[i]
      end
      j = j - 1
      local aj = t[j]
      while lt(cmp, pivot, aj) do
        if j < i then error("invalid order function for sorting", 0) end
        j = j - 1
        aj = t[j]
      end
      if j < i then
        t[up - 1] = ai; t[i] = pivot
        p = i
        break
      end
      t[i] = aj; t[j] = ai
    end
    local n
    if p - lo < up - p then
      auxsort(t, lo, p - 1, rnd, cmp)
      n = p - lo
      lo = p + 1
    else
      auxsort(t, p + 1, up, rnd, cmp)
      n = up - p
      up = p - 1
    end
    if (up - lo) // 128 > n then rnd = 0xFFFFFFFF end
  end
end

table.sort = function(t, cmp)
  checktable(t, 1, "sort")
  local n = #t
  if n > 1 then
    if n >= 0x7FFFFFFF then error("bad argument #1 to 'sort' (array too big)", 2) end
    if cmp ~= nil and type(cmp) ~= "function" then
      error(("bad argument #2 to 'sort' (function expected, got %s)"):format(type(cmp)), 2)
    end
    call_noyield(auxsort, t, 1, n, 0, cmp)  -- no yield in a comparator, as in C
  end
end
end
