// lost-cities_greedy.js: a rule-based Lost Cities bot (the same rules as
// example_bots/lua/lost-cities_greedy.lua).
//
//   arena play --game lost-cities --bots example_bots/js/lost-cities_greedy.js,random
//
// Every turn is two decisions (docs/games/lost-cities.md): play or discard a card
// (obs.phase === "play"), then draw (obs.phase === "draw"). Play phase: 1. extend a started
// expedition with the lowest card that fits, if it skips few cards we could still have played;
// 2. start the most promising new expedition; 3. otherwise discard the card that hurts least.
// Draw phase: take a discard pile's top card if it extends one of our expeditions nicely,
// otherwise draw from the deck. Cards are strings: "ID" (an investment in suit D), "7D", "10D".

const suitOf = (card) => card.slice(-1);
// The number of a card: 2..10, or 0 for an investment.
const numberOf = (card) => (card[0] === "I" ? 0 : Number(card.slice(0, -1)));

// The highest number on `who`'s expedition of `suit`: null if not started, 1 if it holds only
// investments (so any number can still follow).
function topNumber(obs, who, suit) {
  const exp = obs.expeditions[who][suit];
  if (exp.length === 0) return null;
  return exp.reduce((top, card) => Math.max(top, numberOf(card)), 1);
}

// Whether `card` may go on `who`'s expedition.
function fits(obs, who, card) {
  const top = topNumber(obs, who, suitOf(card));
  if (top === null) return true;
  if (numberOf(card) === 0) return top === 1;
  return numberOf(card) > top;
}

// How many numbers of `suit` strictly between `low` and `high` we could still have played.
function gap(ctx, suit, low, high) {
  let n = 0;
  for (let v = low + 1; v < high; v++) {
    const card = `${v}${suit}`;
    if (!ctx.gone.has(card) && !ctx.inHand.has(card)) n += 1;
  }
  return n;
}

// The largest gap we accept: small while the deck is long, anything near the end.
function gapAllowance(obs) {
  if (obs.deck_size <= 8) return 99;
  if (obs.deck_size <= 16) return 4;
  if (obs.deck_size <= 28) return 2;
  return 1;
}

// Rule 1: the best extension of a started expedition, as [action, gap].
function bestExtension(obs, ctx) {
  let best = null;
  let bestGap = Infinity;
  const tried = new Set();
  for (const card of obs.hand) {
    const suit = suitOf(card);
    const top = topNumber(obs, ctx.me, suit);
    if (top !== null && fits(obs, ctx.me, card) && !tried.has(suit)) {
      tried.add(suit);
      const g = numberOf(card) === 0 ? (obs.deck_size >= 24 ? 0 : 6) : gap(ctx, suit, top, numberOf(card));
      if (g < bestGap) {
        best = `play ${card}`;
        bestGap = g;
      }
    }
  }
  return [best, bestGap];
}

// Rule 2: how promising starting `suit` is, or null.
function startPotential(obs, ctx, suit) {
  const numbers = obs.hand.filter((c) => suitOf(c) === suit && numberOf(c) > 0).map(numberOf);
  if (numbers.length === 0) return null;
  if (numbers.length > Math.floor((obs.deck_size + 1) / 2)) return null; // no time left
  const sum = numbers.reduce((a, b) => a + b, 0);
  if (numbers.length < 3 && sum < 14) return null; // too weak to start
  let later = 0;
  for (let v = numbers[0] + 1; v <= 10; v++) {
    const card = `${v}${suit}`;
    if (!ctx.gone.has(card) && !ctx.inHand.has(card)) later += v;
  }
  const share = Math.min(obs.deck_size, 40) / 120;
  return sum + later * share - 20;
}

function bestStart(obs, ctx) {
  let bestSuit = null;
  let bestPotential = 2;
  for (const suit of obs.suits) {
    if (topNumber(obs, ctx.me, suit) !== null) continue;
    const potential = startPotential(obs, ctx, suit);
    if (potential !== null && potential >= bestPotential) {
      bestSuit = suit;
      bestPotential = potential;
    }
  }
  if (bestSuit === null) return null;
  for (const card of obs.hand) {
    if (suitOf(card) === bestSuit && (numberOf(card) > 0 || obs.deck_size >= 24)) return `play ${card}`;
  }
  return null;
}

// Rule 3: what discarding `card` costs us, plus what it may give the opponent.
function discardCost(obs, ctx, card) {
  const suit = suitOf(card);
  const number = numberOf(card);
  const mine = topNumber(obs, ctx.me, suit);
  const theirs = topNumber(obs, ctx.opp, suit);
  let keep;
  if (mine !== null && !fits(obs, ctx.me, card)) keep = 0;
  else if (mine !== null) keep = 20 + number;
  else if (number === 0 && obs.deck_size < 24) keep = 1;
  else {
    const sum = obs.hand.filter((c) => suitOf(c) === suit).reduce((a, c) => a + numberOf(c), 0);
    keep = 2 + Math.floor(sum / 3);
  }
  let feed = 0;
  if (theirs !== null && fits(obs, ctx.opp, card)) feed = 30 + number;
  else if (theirs === null) feed = Math.floor(number / 2);
  return keep + feed;
}

function choosePlay(obs, ctx) {
  const [extension, extGap] = bestExtension(obs, ctx);
  if (extension !== null && extGap <= gapAllowance(obs)) return extension;
  const start = bestStart(obs, ctx);
  if (start !== null) return start;
  let best = null;
  let bestCost = Infinity;
  for (const card of obs.hand) {
    const cost = discardCost(obs, ctx, card);
    if (cost < bestCost) {
      best = `discard ${card}`;
      bestCost = cost;
    }
  }
  if (bestCost >= 20 && extension !== null) return extension;
  return best;
}

function chooseDraw(obs, ctx) {
  const allowance = Math.min(gapAllowance(obs), 2);
  for (const action of obs.legal) {
    const pile = action.split(" ")[1];
    if (pile === "deck") continue;
    const cards = obs.discards[pile];
    const card = cards[cards.length - 1];
    const top = topNumber(obs, ctx.me, pile);
    if (top !== null && numberOf(card) > top && gap(ctx, pile, top, numberOf(card)) <= allowance) return action;
  }
  // The last deck card ends the game: when not ahead, take a pile card instead.
  const behind = obs.scores[ctx.me] <= obs.scores[ctx.opp];
  if (obs.deck_size === 1 && behind && obs.legal.length > 1) return obs.legal[1];
  return "draw deck";
}

function act(obs) {
  const gone = new Set();
  for (const who of [0, 1]) for (const suit of obs.suits) for (const c of obs.expeditions[who][suit]) gone.add(c);
  const ctx = { me: obs.seat, opp: 1 - obs.seat, gone, inHand: new Set(obs.hand) };
  return obs.phase === "draw" ? chooseDraw(obs, ctx) : choosePlay(obs, ctx);
}
