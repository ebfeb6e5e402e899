function decide(obs) return obs.legal[1] end
