-- research §1.8: 2.45 s inside the C matcher, zero instructions counted.
function act(obs)
  return tostring(string.find(("a"):rep(300), ".-.-.-b"))
end
