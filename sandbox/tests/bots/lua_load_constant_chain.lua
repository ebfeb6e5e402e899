-- Attacks the compiler: 20,000 integer constants k * 32767 share one chain of the compiler's
-- constant table (32,768 nodes), so each new constant walked all the ones before it (and the
-- table's rehash reinserted each key with a walk of the chain: 0.9 s in one `load`). The chain
-- steps are charged as fuel and count against the compiler's bound, so the compile stops at
-- the bound and the fuel it used ends the decision.
function act(obs)
  local k = {}
  for j = 1, 20000 do k[j] = j * 32767 end
  local f, err = load("return {" .. table.concat(k, ",") .. "}")
  return tostring(err)
end
