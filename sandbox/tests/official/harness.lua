-- The harness around each official Lua 5.4 test file (testes/ of the Lua distribution), run
-- as a bot by tests/official.rs. It stubs exactly what a test file reaches for that the
-- sandbox leaves out, each stub with its reason (also listed in docs/sandbox.md):
_port = true   -- the test files' switch for skipping what is not portable (locales, C details)
_soft = true   -- the test files' switch for smaller stress loops (the suite's own `all.lua` sets it)

-- collectgarbage: the sandbox gives no control of its collector; the tests call it to force
-- collections between checks and ask for counts. A collection that does nothing and counts
-- that say "nothing": the checks of what a collection frees (weak tables, finalizers) are in
-- files outside this list.
collectgarbage = function(opt)
  if opt == "count" then return 0 end
  if opt == "isrunning" then return true end
  if opt == "incremental" or opt == "generational" then return "incremental" end
  return 0
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
