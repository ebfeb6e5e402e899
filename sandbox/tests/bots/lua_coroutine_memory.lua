-- A coroutine that grows a string it holds until the heap cap stops it: the cap covers every
-- coroutine's objects, and the resumer gets the memory error.
function act(obs)
  local co = coroutine.create(function()
    local s = "x"
    while true do s = s .. s; coroutine.yield(#s) end
  end)
  while true do
    local ok, err = coroutine.resume(co)
    if not ok then error(err, 0) end
  end
end
