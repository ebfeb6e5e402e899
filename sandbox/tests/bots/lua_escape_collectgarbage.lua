function act(obs) collectgarbage("stop") return "ok" end
