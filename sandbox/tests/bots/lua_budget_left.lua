function act(obs) return tostring(budget_left()) end
