-- A loop in code compiled by load: metered like the bot's own code.
function act(obs) return load("while true do end return 'x'")() end
