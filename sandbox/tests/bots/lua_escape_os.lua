function act(obs) os.exit(1) end
