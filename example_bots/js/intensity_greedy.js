// intensity_greedy.js: an Intensity bot following the classic rules of thumb of Hearts-like
// games (the same strategy as example_bots/lua/intensity_greedy.lua).
//
//   arena play --game intensity --bots example_bots/js/intensity_greedy.js,random,random,random
//
// 4 players, cards 10..49, the tens digit is the suit. Taking a trick that holds a calf
// (30..39) costs 1 point per calf, the buffalo (47) costs 7; fewest points wins. So: pass away
// the dangerous cards, lead low, duck when following, dump the worst card when void.
// Cards arrive as numbers; obs.legal holds strings ("play 33", "pass 12 33 47").

const BUFFALO = 47;
const suit = (card) => Math.floor(card / 10); // the tens digit: 1..4
const rank = (card) => card % 10; // the units digit: 0..9
const isCalf = (card) => suit(card) === 3;

// Whether the buffalo might still be in someone else's hand.
function buffaloOut(obs) {
  if (obs.hand.includes(BUFFALO) || obs.trick.cards.includes(BUFFALO)) return false;
  return !obs.tricks.some((t) => t.cards.includes(BUFFALO));
}

// The card of `cards` with the smallest key(card); ties go to the first one.
function minBy(cards, key) {
  let best = null;
  let bestKey = Infinity;
  for (const c of cards) {
    const k = key(c);
    if (k < bestKey) {
      best = c;
      bestKey = k;
    }
  }
  return best;
}

// The pass: how much we want to get rid of a card.
function danger(hand, card) {
  if (card === BUFFALO) return 100;
  if (card === 49) return 91;
  if (card === 48) return 90;
  let d = rank(card);
  if (isCalf(card)) d += 5;
  const sameSuit = hand.filter((c) => suit(c) === suit(card)).length;
  if (sameSuit <= 3 && !isCalf(card)) d += 4;
  return d;
}

function choosePass(obs) {
  // Most dangerous first; equal danger: the higher card first.
  const cards = [...obs.hand].sort((a, b) => danger(obs.hand, b) - danger(obs.hand, a) || b - a);
  const pick = cards.slice(0, 3).sort((a, b) => a - b); // the action lists the cards ascending
  return `pass ${pick.join(" ")}`;
}

function chooseCard(obs, cards) {
  const out = buffaloOut(obs);
  const trick = obs.trick.cards;
  // Leading: the lowest, safest card.
  if (trick.length === 0) {
    return minBy(cards, (c) => {
      let k = rank(c);
      if (isCalf(c)) k += 10;
      if (c === BUFFALO) k += 30;
      if (out && c >= 48) k += 20;
      return k;
    });
  }
  const led = suit(trick[0]);
  if (suit(cards[0]) !== led) {
    // We cannot follow suit: dump the worst card.
    return minBy(cards, (c) => {
      let dump = rank(c);
      if (c === BUFFALO) dump = 300;
      else if (out && c >= 48) dump = 200;
      else if (isCalf(c)) dump = 100 + rank(c);
      return -(dump * 100 + c);
    });
  }
  // Following suit. The card that wins the trick so far:
  let winning = trick[0];
  for (const c of trick) if (suit(c) === led && c > winning) winning = c;
  const last = trick.length === 3;
  const clean = !trick.some((c) => isCalf(c) || c === BUFFALO);
  // The buffalo under a higher card: someone else takes its 7 points.
  if (cards.some((c) => c === BUFFALO && c < winning)) return BUFFALO;
  let safe = cards.filter((c) => c !== BUFFALO);
  if (safe.length === 0) safe = cards;
  const highest = safe[safe.length - 1]; // legal cards come ascending
  if (last && clean) return highest; // winning a clean last trick costs nothing
  // Duck: the highest card that still loses.
  let duck = null;
  for (const c of cards) if (c < winning) duck = c;
  if (duck !== null) return duck;
  return last ? highest : safe[0];
}

function act(obs) {
  if (obs.phase === "pass") return choosePass(obs);
  const cards = obs.legal.map((action) => Number(action.match(/\d+/)[0])); // "play 33" -> 33
  return `play ${chooseCard(obs, cards)}`;
}
