// blade_random.js: the simplest possible blade bot. It picks one of the legal actions uniformly
// at random. Run it with:
//   arena play --game blade --bots example_bots/js/blade_random.js,greedy
//
// obs.legal always holds every legal action for this decision (docs/games/blade.md), and
// Math.random is seeded from the match seed and the seat, so the same seed replays the same match.
function act(obs) {
  return obs.legal[Math.floor(Math.random() * obs.legal.length)];
}
