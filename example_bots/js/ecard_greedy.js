// ecard_greedy.js: an E-card bot that models its opponent and plays the best reply (the same
// strategy as example_bots/lua/ecard_greedy.lua).
//
//   arena play --game ecard --bots example_bots/js/ecard_greedy.js,random
//
// Both seats choose a card at the same time, so the bot keeps one belief, p: the chance that
// the opponent shows its special card (E or S) at a play where it could still show a Citizen.
// It learns p from the opponent's past plays (obs.plays for this round, obs.history for the
// finished ones), then rates each card by the expected points of the round, assuming it also
// plays best later (a round has at most obs.max_plays plays: a small recursion).
// See docs/games/ecard.md for the rules and every observation field.

// Prior belief: the opponent shows its special card one time in three, worth 3 observed plays.
const PRIOR_P = 1 / 3;
const PRIOR_WEIGHT = 3;

// The points a play gives us (+ we score, - they score), or null for a Citizen draw.
// Emperor beats Citizen, Citizen beats Slave, Slave beats Emperor; a Slave win is worth 5.
function playPoints(mine, theirs, mySide) {
  if (mine === "C" && theirs === "C") return null;
  const slaveWins = (mine === "S" && theirs === "E") || (mine === "E" && theirs === "S");
  const winnerSide = slaveWins ? "slave" : "emperor";
  const points = winnerSide === "slave" ? 5 : 1;
  return winnerSide === mySide ? points : -points;
}

// The best expected value over our choices at play `play`.
function bestValue(ctx, play, myCitizens, theirCitizens) {
  let best = valueOf(ctx, ctx.special, play, myCitizens, theirCitizens);
  if (myCitizens > 0) best = Math.max(best, valueOf(ctx, "C", play, myCitizens, theirCitizens));
  return best;
}

// Our expected round points if we play `card` now, then play best.
function valueOf(ctx, card, play, myCitizens, theirCitizens) {
  const p = theirCitizens === 0 ? 1 : ctx.p;
  let total = p * playPoints(card, ctx.theirSpecial, ctx.side);
  if (p < 1) {
    const decided = playPoints(card, "C", ctx.side);
    let v;
    if (decided !== null) v = decided;
    else if (play >= ctx.maxPlays) v = 0; // the last play was a Citizen draw: round drawn
    else v = bestValue(ctx, play + 1, myCitizens - 1, theirCitizens - 1);
    total += (1 - p) * v;
  }
  return total;
}

// How often the opponent showed its special card when it could have shown a Citizen.
function countOpponent(obs) {
  const opp = 1 - obs.seat;
  let shown = 0;
  let chances = 0;
  const look = (plays) =>
    plays.forEach((pair, i) => {
      // Before play i + 1 the opponent still holds a Citizen if i < 4.
      if (i < 4) {
        chances += 1;
        if (pair[opp] !== "C") shown += 1;
      }
    });
  for (const round of obs.history) look(round.plays);
  look(obs.plays);
  return [shown, chances];
}

const count = (hand, card) => hand.filter((c) => c === card).length;

function act(obs) {
  const [shown, chances] = countOpponent(obs);
  const ctx = {
    p: (shown + PRIOR_P * PRIOR_WEIGHT) / (chances + PRIOR_WEIGHT),
    side: obs.side,
    special: obs.side === "emperor" ? "E" : "S",
    theirSpecial: obs.opponent_side === "emperor" ? "E" : "S",
    maxPlays: obs.max_plays,
  };
  const myCitizens = count(obs.hand, "C");
  const theirCitizens = count(obs.opponent_hand, "C");
  // Rate every legal card; keep the best (ties: one of them at random).
  let best = [];
  let bestSeen = -Infinity;
  for (const card of obs.legal) {
    const v = valueOf(ctx, card, obs.play, myCitizens, theirCitizens);
    if (v > bestSeen + 1e-9) {
      best = [card];
      bestSeen = v;
    } else if (v > bestSeen - 1e-9) {
      best.push(card);
    }
  }
  return best[Math.floor(Math.random() * best.length)];
}
