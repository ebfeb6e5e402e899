-- The body runs out of fuel; the error raised by the fuel hook calls the message handler from
-- inside the hook, where Lua disables hooks: a looping handler would run unmetered. (The deep
-- call first leaves spare call frames and stack, so calling the handler allocates nothing.)
local function deep(n)
  if n > 0 then return deep(n - 1) + 1 end
  return 0
end
function act(obs)
  xpcall(function()
    deep(50)
    while true do end
  end, function() while true do end end)
end
