function act(obs)
  return "unterminated
end
