// Source: written for tests/replay.rs. crash_third.lua in JavaScript: it logs every decision
// and throws on its third one (a `crash` fault, with the line of the throw).
let n = 0;

function pick(obs) {
  if (n === 3) {
    throw new Error("deliberate failure on decision " + n);
  }
  return obs.legal[0];
}

function act(obs) {
  n += 1;
  console.log("decision " + n + ", " + obs.legal.length + " legal");
  return pick(obs);
}
