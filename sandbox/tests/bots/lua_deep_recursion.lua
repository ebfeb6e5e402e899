local function f(n) return 1 + f(n + 1) end
function act(obs) return tostring(f(1)) end
