// lost-cities_random.js: the simplest possible lost-cities bot. It picks one of the legal actions uniformly
// at random. Run it with:
//   arena play --game lost-cities --bots example_bots/js/lost-cities_random.js,greedy
//
// obs.legal always holds every legal action for this decision (docs/games/lost-cities.md), and
// Math.random is seeded from the match seed and the seat, so the same seed replays the same match.
function act(obs) {
  return obs.legal[Math.floor(Math.random() * obs.legal.length)];
}
