-- Attacks the compiler: `x or x or ...` makes the compiler walk the jump list at each operand,
-- quadratic in the chain (100,000 of them: seconds of compiling for 3.5M units of fuel). The
-- compiler's work is bounded by the chunk's size, so load refuses it.
function act(obs)
  local f, err = load("return x" .. (" or x"):rep(100000))
  assert(f == nil and err:find("too costly to compile", 1, true), err)
  error(err)
end
