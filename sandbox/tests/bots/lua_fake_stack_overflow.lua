-- Attacks the verdict: its own error merely says "stack overflow" (no stack overflowed).
function act(obs)
  error("C stack overflow", 0)
end
