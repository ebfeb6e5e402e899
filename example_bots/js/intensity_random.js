// intensity_random.js: the simplest possible intensity bot. It picks one of the legal actions uniformly
// at random. Run it with:
//   arena play --game intensity --bots example_bots/js/intensity_random.js,greedy
//
// obs.legal always holds every legal action for this decision (docs/games/intensity.md), and
// Math.random is seeded from the match seed and the seat, so the same seed replays the same match.
function act(obs) {
  return obs.legal[Math.floor(Math.random() * obs.legal.length)];
}
