// blade_greedy.js: a one-move-lookahead Blade bot, written to be read (the same strategy as
// example_bots/lua/blade_greedy.lua).
//
//   arena play --game blade --bots example_bots/js/blade_greedy.js,random
//
// For every card we could play, work out what the two fields would look like afterwards, then
// rate the move and play the best one: never fall behind unless there is nothing else; among
// the moves that go ahead, spend the least valuable card and leave the opponent the fewest
// answers. Arrays from the observation are 0-based: the field of seat s is obs.fields[s].

// What a card adds to a field. B and M only lie on a field when placed at set-up, worth 1.
const VALUE = { 1: 1, 2: 2, 3: 3, 4: 4, 5: 5, 6: 6, 7: 7, B: 1, M: 1 };

// How much we dislike spending B or M: they are our best answers later.
const EFFECT_COST = 6;

// The score of one field: the sum of its valid (not bolted) cards.
const score = (field) => field.reduce((total, c) => total + (c.valid ? VALUE[c.card] : 0), 0);

// A copy of one field, so that simulating a move never changes the observation itself.
const copyField = (field) => field.map((c) => ({ card: c.card, valid: c.valid }));

// Removes the top card of a field if it is bolted.
function dropBoltedTop(field) {
  const top = field[field.length - 1];
  if (top && !top.valid) field.pop();
}

// The two fields (indexed by seat) after seat `me` plays `card`: the rules of a turn.
function after(fields, me, card) {
  let mine = copyField(fields[me]);
  let theirs = copyField(fields[1 - me]);
  const top = mine[mine.length - 1];
  if (card === "1" && top && !top.valid) {
    top.valid = true; // 1 revives our bolted top card...
  } else if (card === "1") {
    mine.push({ card: "1", valid: true }); // ...or is placed as a 1
  } else if (card === "B") {
    dropBoltedTop(theirs); // B: clear their bolted top card, if any,
    const t = theirs[theirs.length - 1]; // then bolt their new top card
    if (t) t.valid = false;
  } else if (card === "M") {
    [mine, theirs] = [theirs, mine]; // M: swap the fields completely
  } else {
    dropBoltedTop(mine); // 2..7: clear our bolted top, then place
    mine.push({ card, valid: true });
  }
  const out = [];
  out[me] = mine;
  out[1 - me] = theirs;
  return out;
}

// The chance that a hand of `hand` cards, drawn at random from `pool` unseen cards, holds none
// of the `good` ones (hypergeometric, one card at a time).
function chanceOfNone(pool, good, hand) {
  let p = 1.0;
  for (let i = 0; i < hand; i++) {
    const badLeft = pool - good - i;
    if (badLeft <= 0) return 0.0;
    p = (p * badLeft) / (pool - i);
  }
  return p;
}

// How many of the opponent's possible cards (every unseen card) would put it strictly ahead.
function answers(fields, me, obs) {
  const them = 1 - me;
  const lastCard = obs.hand_counts[them] === 1;
  let count = 0;
  for (const card of obs.unseen) {
    // A B or M as its last card loses at once, so it is no answer.
    if (lastCard && (card === "B" || card === "M")) continue;
    const next = after(fields, them, card);
    if (score(next[them]) > score(next[me])) count += 1;
  }
  return count;
}

// What spending `card` costs us (lower is better).
function cardCost(obs, card) {
  if (card === "B" || card === "M") return EFFECT_COST;
  if (card === "1") {
    const field = obs.fields[obs.seat];
    const top = field[field.length - 1];
    if (top && !top.valid) return 0.5; // reviving a bolted card: a bargain
    if (obs.unseen.includes("B")) return 3.5; // keep it to revive a card bolted later
    return 1;
  }
  return VALUE[card];
}

// Whether the hand would hold only B and M after playing `card` (a doomed hand).
function onlyEffectsLeft(hand, card) {
  const rest = [...hand];
  rest.splice(rest.indexOf(card), 1);
  return rest.length > 0 && rest.every((c) => c === "B" || c === "M");
}

// The rating of playing `card` in a turn: higher is better.
function rateTurn(obs, card) {
  const me = obs.seat;
  const them = 1 - me;
  if (obs.hand.length === 1 && (card === "B" || card === "M")) return -1e6; // an instant loss
  const fields = after(obs.fields, me, card);
  const mine = score(fields[me]);
  const theirs = score(fields[them]);
  let cost = cardCost(obs, card);
  if (onlyEffectsLeft(obs.hand, card)) cost += 60;
  if (mine < theirs) return -1e5 - cost; // behind: we lose now
  if (mine === theirs) return -100 - cost; // a tie: the set-up starts again
  let noAnswer = 1.0;
  const oppHand = obs.hand_counts[them];
  if (oppHand > 0) noAnswer = chanceOfNone(obs.unseen.length, answers(fields, me, obs), oppHand);
  return 1000 + 8 * noAnswer - cost;
}

// The rating of placing `card` at a set-up pick: something cheap, not tying their card.
function ratePick(obs, card) {
  let rating = card === "B" || card === "M" ? 0 : -VALUE[card];
  const theirs = obs.fields[1 - obs.seat];
  const top = theirs[theirs.length - 1];
  if (top && VALUE[top.card] === VALUE[card]) rating -= 10;
  return rating;
}

function act(obs) {
  let best = obs.legal[0];
  let bestRating = -Infinity;
  for (const card of obs.legal) {
    const rating = obs.phase === "setup" ? ratePick(obs, card) : rateTurn(obs, card);
    if (rating > bestRating) {
      best = card;
      bestRating = rating;
    }
  }
  return best;
}
