-- The harness around each official Lua 5.4 test file (testes/ of the Lua distribution), run
-- as a bot by tests/official.rs. It stubs exactly what a test file reaches for that the
-- sandbox leaves out, each stub with its reason (also listed in docs/sandbox.md):
_port = true   -- the test files' switch for skipping what is not portable (locales, C details)
_soft = true   -- the test files' switch for smaller stress loops (the suite's own `all.lua` sets it)

-- debug: Lua's real library (the `lua-testes` build only: the files inspect locals, upvalues
-- and hooks). The sandbox writes some library functions in Lua (print, load, table.insert,
-- table.sort, utf8.codes, ...) that are C functions in Lua: debug's upvalue functions see
-- them as C functions without upvalues, as the files expect of the library (closure.lua
-- joins an upvalue of `print` and expects an error; `string.dump` below refuses them too).
local builtin = {}
for _, lib in ipairs({ _G, string, table, math, utf8, coroutine, os }) do
  for _, f in pairs(lib) do
    if type(f) == "function" and debug.getinfo(f, "S").what == "Lua" then builtin[f] = true end
  end
end
do
  local getupvalue, setupvalue, upvalueid, upvaluejoin =
    debug.getupvalue, debug.setupvalue, debug.upvalueid, debug.upvaluejoin
  debug.getupvalue = function(f, n)
    if builtin[f] then return nil end
    return getupvalue(f, n)
  end
  debug.setupvalue = function(f, n, v)
    if builtin[f] then return nil end
    return setupvalue(f, n, v)
  end
  debug.upvalueid = function(f, n)
    if builtin[f] then return nil end
    return upvalueid(f, n)
  end
  debug.upvaluejoin = function(f1, n1, f2, n2)
    if builtin[f1] then error("bad argument #2 to 'upvaluejoin' (invalid upvalue index)", 2) end
    if builtin[f2] then error("bad argument #4 to 'upvaluejoin' (invalid upvalue index)", 2) end
    return upvaluejoin(f1, n1, f2, n2)
  end
end

-- Lua's own `load`, `string.dump` and `collectgarbage`, which the sandbox replaces; the
-- `lua-testes` build keeps them in the registry for this harness.
local originals = debug.getregistry()["lua-testes"]

-- collectgarbage: the sandbox gives no control of its collector; the tests call it to force
-- collections between checks (coroutine.lua checks that one frees a weak table's entry) and
-- ask for counts. A full collection runs Lua's; the rest do nothing, and counts say nothing.
collectgarbage = function(opt)
  if opt == nil or opt == "collect" then return originals.collectgarbage("collect") end
  if opt == "count" then return 0 end
  if opt == "isrunning" then return true end
  if opt == "incremental" or opt == "generational" then return "incremental" end
  return 0
end

-- Bytecode: the sandbox loads source text only. calls.lua dumps functions and loads them back
-- (and checks Lua's binary-chunk format): `string.dump` is Lua's, and a binary chunk (a string,
-- or a reader's first piece, that starts with ESC) goes to Lua's own `load`; text goes to the
-- sandbox's `load` as before.
string.dump = function(f, ...)
  if builtin[f] then error("unable to dump given function", 2) end
  return originals.dump(f, ...)
end
do
  local text_load, binary_load = load, originals.load
  load = function(chunk, ...)
    if type(chunk) == "string" then
      return (chunk:byte(1) == 27 and binary_load or text_load)(chunk, ...)
    elseif type(chunk) ~= "function" then
      return text_load(chunk, ...)
    end
    local ok, first = pcall(chunk)
    local reader = function()
      if ok == nil then return chunk() end
      local done = ok
      ok = nil
      if not done then error(first, 0) end
      return first
    end
    local binary = ok and type(first) == "string" and first:byte(1) == 27
    return (binary and binary_load or text_load)(reader, ...)
  end
end

-- require / package: no files. `package.loaded` holds the libraries the bot sees and
-- `package.preload` works as in Lua; a helper module of the test suite (`bwcoercion`, string
-- coercion for bitwise operators, plain Lua) comes from MODULES, which the runner fills with
-- its text; `tracegc` (it reports collections through a finalizer, which the sandbox forbids)
-- is a module that does nothing.
package = { preload = {}, loaded = {
  _G = _G, string = string, table = table, math = math, utf8 = utf8, coroutine = coroutine,
  os = os, io = io, debug = debug,
  tracegc = { start = function() end, stop = function() end },
} }
package.loaded.package = package
require = function(name)
  local loaded = package.loaded
  if loaded[name] == nil then
    local open = package.preload[name]
    if open == nil and MODULES[name] then open = assert(load(MODULES[name], "@" .. name .. ".lua")) end
    if open == nil then error("module '" .. name .. "' not found", 2) end
    loaded[name] = open(name) or true
  end
  return loaded[name]
end

-- os.exit, os.setlocale, os.getenv: no processes, locales or environment.
os = setmetatable({ exit = function() end, setlocale = function() return nil end,
  getenv = function() return nil end }, { __index = os })

-- io.write / io.stderr: the progress lines go to the bot's log; io.stdin: an object that is
-- neither a table nor a string (a thread stands in for the file handle), for the checks of
-- `%p` formatting and `rawlen`.
io = { write = function(...) print(...) return io end, stdin = coroutine.create(print) }
io.stderr = { write = function(_, ...) print(...) end }
