//! A determinized Monte-Carlo Blade bot, written to be read: a port of
//! `example_bots/lua/blade_montecarlo.lua` (same algorithm, same rollout policy, same
//! tie-breaks), so that the Lua and the WASM bot do the same kind of work.
//!
//! Build: `cargo build --release --target wasm32-unknown-unknown` (in `example_bots/rust`),
//! then `arena play --game blade --bots example_bots/wasm/blade_montecarlo_rust.wasm,greedy`.
//!
//! Blade hides two things: the opponent's hand and the order of both decks. We cannot search a
//! game we cannot see, so we do the next best thing, many times over:
//!
//! 1. DETERMINIZE: invent one complete deal that agrees with everything we know. The cards we
//!    have not seen (`obs.unseen`) are exactly the opponent's hand plus both decks, and we know
//!    how many cards each of those holds, so we shuffle `unseen` and hand them out.
//! 2. SIMULATE: in that invented deal, play each of our candidate cards and then let both
//!    players continue with a simple, fast policy until the match ends.
//! 3. AVERAGE: repeat with a new invented deal while the fuel lasts, and play the card whose
//!    simulations went best on average.
//!
//! Every candidate is tried on the same invented deals ("common random numbers"), so the
//! comparison between two cards is not blurred by one getting luckier deals than the other.
//!
//! The rules are in `docs/games/blade.md`. The simulator below re-implements them on small
//! numbers in fixed-size arrays: a whole position is one `Copy` value of about 150 bytes, so
//! starting a simulation is one memory copy and nothing is allocated while searching.

use std::cmp::Ordering;

use cardarena_bot::blade::{Card, Observation, Phase, Variant};
use cardarena_bot::{budget_left, log, Bot, InitInfo, Rng};

/// Cards as small numbers, as in the Lua bot: 1..=7 are the number cards (the number is the
/// value), 8 is Bolt, 9 is Mirror. Arrays indexed by card have 10 entries; entry 0 is unused.
const BOLT: u8 = 8;
const MIRROR: u8 = 9;

/// How much fuel one decision may use. WASM fuel is about one WebAssembly instruction; the
/// arena's defaults are 100,000,000 per decision and 1,000,000,000 for the whole match (the
/// bank). A match asks us at most 10 decisions (each one spends a card of our 10-card hand),
/// so 50,000,000 per decision can never run the bank dry, and it is half of the decision's own
/// limit. With smaller limits (`--fuel-per-decision`, `--fuel-per-match`) we also never take
/// more than half of what `budget_left()` says at the start: it is already the smaller of the
/// decision's fuel and what is left of the bank.
///
/// RESERVE is kept back for each card in our hand: every later decision needs fuel too (just
/// reading its observation costs up to about 180,000), and so does returning this move. It
/// is also more than one invented deal costs (at most about 200,000), the amount by which the
/// search can overshoot its limit.
const PER_DECISION: i64 = 50_000_000;
const RESERVE: i64 = 250_000;

/// At most this many invented deals per decision. Measured over 6000 matches: 200 deals cost
/// 8.8 million fuel per decision on average and 39 million at most (the first decisions, with
/// eight or nine different cards to try), so with the default limits the search always stops
/// here, never by fuel: the fuel check is a safety net for smaller budgets, and with an
/// unlimited budget the work of a decision is fixed by this number alone. More deals make the
/// averages less noisy, with diminishing returns: against `greedy` 100 deals scored 57.5%,
/// 200 58.9%, 400 58.7%, 800 59.4% (1000 duplicate deals each; the intervals overlap). The Lua
/// bot stops at 100: a Lua instruction costs far more than a WebAssembly one.
const MAX_DEALS: u32 = 200;

/// Match results from our point of view, in half points so that they stay integers: a win
/// counts 2, a draw 1, a loss 0 (the Lua bot's 1, 1/2, 0, doubled: the same ranking).
const WIN: u32 = 2;
const DRAW: u32 = 1;
const LOSS: u32 = 0;

/// A card's number (1..=9) from the SDK's `Card` (`Card::One` is 0 in the enum).
fn number(card: Card) -> u8 {
    card as u8 + 1
}

/// What a card is worth on a field: B and M lie there only after a set-up, as plain 1s.
fn field_value(c: u8) -> u8 {
    if c >= BOLT {
        1
    } else {
        c
    }
}

// ----------------------------------------------------------------------------------------
// The simulator's state. Seats are 0 and 1; the other seat of `p` is `1 - p`.
// ----------------------------------------------------------------------------------------

/// One complete position: everything the rules need, nothing hidden.
#[derive(Clone, Copy, Default)]
struct State {
    field: [[u8; 32]; 2],  // field values, bottom first (a B or M placed at set-up is a 1)
    len: [usize; 2],       // number of cards on each field
    bolted: [bool; 2],     // whether each field's top card is bolted (only the top can be)
    score: [i32; 2],       // each field's score (bolted cards count 0)
    hand: [[u8; 10]; 2],   // card counts by card number
    hand_size: [usize; 2], // cards in each hand
    deck: [[u8; 16]; 2],   // each deck, top card LAST
    deck_size: [usize; 2], // cards in each deck
    controller: bool,      // the `controller` variant (else `readme`)
}

/// After a play or a set-up: either the match is over (our result), or a seat is to move.
enum Next {
    Over(u32),
    Move(usize),
}

/// `WIN` if seat `p` is us, else `LOSS` (the result when `p` wins); `lost_by` is the reverse.
fn won_by(p: usize, me: usize) -> u32 {
    if p == me {
        WIN
    } else {
        LOSS
    }
}

fn lost_by(p: usize, me: usize) -> u32 {
    WIN - won_by(p, me)
}

// ----------------------------------------------------------------------------------------
// The rules of a turn (docs/games/blade.md, "Turn").
// ----------------------------------------------------------------------------------------

impl State {
    /// The value of seat p's top card (0 if the field is empty).
    fn top(&self, p: usize) -> i32 {
        if self.len[p] == 0 {
            0
        } else {
            i32::from(self.field[p][self.len[p] - 1])
        }
    }

    /// Both scores after seat p plays card c, without changing anything: (p's, the other's).
    fn scores_after(&self, p: usize, c: u8) -> (i32, i32) {
        let o = 1 - p;
        if c == MIRROR {
            return (self.score[o], self.score[p]); // M swaps the fields
        }
        if c == BOLT {
            // B bolts their top card (a bolted top is removed first, it already counts 0).
            let mut top = self.len[o];
            if self.bolted[o] {
                top -= 1;
            }
            if top >= 1 {
                return (self.score[p], self.score[o] - i32::from(self.field[o][top - 1]));
            }
            return (self.score[p], self.score[o]);
        }
        if c == 1 && self.bolted[p] {
            return (self.score[p] + self.top(p), self.score[o]); // 1 revives our bolted top
        }
        (self.score[p] + i32::from(c), self.score[o]) // a number card is placed
    }

    /// Seat p plays card c: the same rules, this time changing the state.
    fn apply(&mut self, p: usize, c: u8) {
        let o = 1 - p;
        self.hand[p][c as usize] -= 1;
        self.hand_size[p] -= 1;
        if c == MIRROR {
            self.field.swap(0, 1);
            self.len.swap(0, 1);
            self.bolted.swap(0, 1);
            self.score.swap(0, 1);
        } else if c == BOLT {
            if self.bolted[o] {
                self.len[o] -= 1;
                self.bolted[o] = false;
            }
            if self.len[o] >= 1 {
                self.bolted[o] = true;
                self.score[o] -= self.top(o);
            }
        } else if c == 1 && self.bolted[p] {
            self.bolted[p] = false;
            self.score[p] += self.top(p);
        } else {
            if self.bolted[p] {
                self.len[p] -= 1;
                self.bolted[p] = false;
            }
            self.field[p][self.len[p]] = c;
            self.len[p] += 1;
            self.score[p] += i32::from(c);
        }
    }
}

// ----------------------------------------------------------------------------------------
// The simple policy both players follow inside a simulation: a stripped-down greedy.
// Go ahead with the cheapest card; B and M are expensive (they are the best answers later);
// a plain 1 is kept to revive a bolted card; never keep a hand of only B and M (it loses at
// the last card). Fast, not clever: the averaging over many deals does the clever part.
// ----------------------------------------------------------------------------------------

/// What spending a card costs, by card number (index 0 unused): 1..7, B, M.
const COST: [f64; 10] = [0.0, 3.5, 2.0, 3.0, 4.0, 5.0, 6.0, 7.0, 6.0, 6.0];

impl State {
    /// The card seat p plays (its hand must not be empty).
    fn policy(&self, p: usize) -> u8 {
        let hand = &self.hand[p];
        let size = self.hand_size[p];
        let effects = usize::from(hand[BOLT as usize] + hand[MIRROR as usize]);
        let (mut best, mut best_rating) = (0, f64::NEG_INFINITY);
        for c in 1..=MIRROR {
            if hand[c as usize] == 0 {
                continue;
            }
            let rating = if c >= BOLT && size == 1 {
                -1e6 // B or M as the last card loses
            } else {
                let (mine, theirs) = self.scores_after(p, c);
                let mut cost = COST[c as usize];
                if c == 1 && self.bolted[p] {
                    cost = 0.5; // reviving is a bargain
                }
                let left_effects = if c >= BOLT { effects - 1 } else { effects };
                if size > 1 && left_effects == size - 1 {
                    cost += 60.0; // only B and M would be left
                }
                if mine > theirs {
                    1000.0 - cost
                } else if mine == theirs {
                    -100.0 - cost
                } else {
                    -1e5 - cost
                }
            };
            if rating > best_rating {
                (best, best_rating) = (c, rating);
            }
        }
        best
    }

    /// A set-up pick from hand: B or M first (on the field they are plain 1s), else the
    /// smallest number, avoiding a tie with the card seat 0 has already placed (if any).
    fn pick(&self, p: usize) -> u8 {
        let avoid = if p == 1 && self.len[0] == 1 { self.field[0][0] } else { 0 };
        let mut fallback = 0;
        for c in [BOLT, MIRROR, 1, 2, 3, 4, 5, 6, 7] {
            if self.hand[p][c as usize] > 0 {
                if field_value(c) != avoid {
                    return c;
                }
                if fallback == 0 {
                    fallback = c;
                }
            }
        }
        fallback
    }
}

// ----------------------------------------------------------------------------------------
// Set-up and the rest of a match, from the point of view of seat `me`.
// ----------------------------------------------------------------------------------------

impl State {
    /// Places seat p's set-up card: from the deck, or picked from hand (`chosen` if it is our
    /// own decision). Returns false if the seat has no card at all.
    fn place(&mut self, p: usize, chosen: Option<u8>) -> bool {
        let c = if self.deck_size[p] > 0 {
            self.deck_size[p] -= 1;
            self.deck[p][self.deck_size[p]]
        } else if self.hand_size[p] > 0 {
            let c = chosen.unwrap_or_else(|| self.pick(p));
            self.hand[p][c as usize] -= 1;
            self.hand_size[p] -= 1;
            c
        } else {
            return false;
        };
        let v = field_value(c);
        self.len[p] = 1;
        self.field[p][0] = v;
        self.bolted[p] = false;
        self.score[p] = i32::from(v);
        true
    }

    /// The result when seat p cannot place a set-up card: a draw, except in `controller`
    /// when the other seat still has cards (then the other seat wins).
    fn out_of_cards(&self, p: usize, me: usize) -> u32 {
        let o = 1 - p;
        if self.controller && (self.deck_size[o] > 0 || self.hand_size[o] > 0) {
            return won_by(o, me);
        }
        DRAW
    }

    /// Runs a set-up from seat `first` (0, or 1 when seat 0 has already placed; `chosen` is
    /// the card seat `first` picks, if it is our own decision).
    fn setup(&mut self, me: usize, mut first: usize, mut chosen: Option<u8>) -> Next {
        loop {
            if first == 0 {
                self.len = [0, 0];
                self.score = [0, 0];
                self.bolted = [false, false];
            }
            for p in first..2 {
                if !self.place(p, chosen.take()) {
                    return Next::Over(self.out_of_cards(p, me));
                }
            }
            if self.score[0] != self.score[1] {
                // The lower field moves first.
                return Next::Move(if self.score[0] < self.score[1] { 0 } else { 1 });
            }
            first = 0; // a tie: clear the fields and set up again
        }
    }

    /// Seat p plays card c.
    fn play_card(&mut self, me: usize, p: usize, c: u8) -> Next {
        let o = 1 - p;
        if c >= BOLT && self.hand_size[p] == 1 {
            return Next::Over(lost_by(p, me)); // B or M as the last card loses
        }
        self.apply(p, c);
        if self.score[p] < self.score[o] {
            return Next::Over(lost_by(p, me)); // still behind: p loses
        }
        if self.score[p] == self.score[o] {
            return self.setup(me, 0, None); // a tie: back to set-up
        }
        Next::Move(o)
    }

    /// Plays the match to its end from "seat p to move"; the result for seat `me`.
    fn rollout(&mut self, me: usize, mut p: usize) -> u32 {
        loop {
            let o = 1 - p;
            if self.hand_size[p] == 0 {
                // Nothing to play: p loses, unless both hands are empty (compare the fields).
                if self.hand_size[o] > 0 {
                    return lost_by(p, me);
                }
                return match self.score[me].cmp(&self.score[1 - me]) {
                    Ordering::Greater => WIN,
                    Ordering::Less => LOSS,
                    Ordering::Equal => DRAW,
                };
            }
            match self.play_card(me, p, self.policy(p)) {
                Next::Over(result) => return result,
                Next::Move(next) => p = next,
            }
        }
    }
}

// ----------------------------------------------------------------------------------------
// From the observation to invented deals.
// ----------------------------------------------------------------------------------------

/// What we know for sure: both fields, our hand and the variant. The opponent's hand and the
/// decks are left empty; `invent_deal` fills them.
fn load_known(obs: &Observation, me: usize) -> State {
    let mut s = State { controller: obs.variant == Variant::Controller, ..State::default() };
    for p in 0..2 {
        for (i, fc) in obs.fields[p].iter().enumerate() {
            s.field[p][i] = field_value(number(fc.card));
            if !fc.valid {
                s.bolted[p] = true; // only the top card can be bolted
            }
        }
        s.len[p] = obs.fields[p].len();
        s.score[p] = obs.scores[p] as i32;
    }
    for &card in &obs.hand {
        s.hand[me][number(card) as usize] += 1;
    }
    s.hand_size[me] = obs.hand.len();
    s
}

/// Shuffles `pool` (the unseen cards) and deals it into `base`: the opponent's hand, then
/// both decks. The shuffle uses our own `Rng`, seeded from the match: same seed, same play.
fn invent_deal(base: &mut State, obs: &Observation, me: usize, pool: &mut [u8], rng: &mut Rng) {
    let o = 1 - me;
    for i in (1..pool.len()).rev() {
        // Fisher-Yates: swap card i with a random card among 0..=i.
        let j = rng.below(i + 1);
        pool.swap(i, j);
    }
    let mut cards = pool.iter();
    let mut next = || *cards.next().expect("unseen = opponent's hand + both decks");
    base.hand[o] = [0; 10];
    base.hand_size[o] = obs.hand_counts[o];
    for _ in 0..obs.hand_counts[o] {
        base.hand[o][next() as usize] += 1;
    }
    for p in 0..2 {
        base.deck_size[p] = obs.deck_counts[p];
        for i in 0..obs.deck_counts[p] {
            base.deck[p][i] = next();
        }
    }
}

/// Plays candidate card c in the invented deal (on a copy) and then to the end of the match.
fn simulate(base: &State, phase: Phase, me: usize, c: u8) -> u32 {
    let mut sim = *base; // a scratch copy: `base` stays as it is for the next candidate
    let next = if phase == Phase::Setup {
        // Our set-up pick. If we are seat 0, seat 1 still has to place its card.
        sim.setup(me, me, Some(c))
    } else {
        sim.play_card(me, me, c)
    };
    match next {
        Next::Over(result) => result,
        Next::Move(p) => sim.rollout(me, p),
    }
}

// ----------------------------------------------------------------------------------------
// The bot.
// ----------------------------------------------------------------------------------------

/// The bot's state for one match: only the random generator of the invented deals.
#[derive(Default)]
struct MonteCarlo {
    rng: Rng,
}

impl Bot for MonteCarlo {
    type Observation = Observation;

    fn init(&mut self, info: &InitInfo) {
        self.rng = Rng::new(info.seed ^ info.seat as u64);
    }

    fn act(&mut self, obs: &Observation) -> String {
        if obs.legal.len() == 1 {
            return obs.legal[0].clone(); // nothing to think about
        }
        let me = obs.seat;
        let start = budget_left();
        // The fuel this decision may use (see PER_DECISION and RESERVE).
        let limit = (start / 2).min(PER_DECISION) - RESERVE * obs.hand.len() as i64;

        let mut base = load_known(obs, me);
        let mut pool: Vec<u8> = obs.unseen.iter().map(|&c| number(c)).collect();
        let candidates: Vec<u8> =
            obs.legal.iter().map(|s| number(s.parse::<Card>().expect("legal lists cards"))).collect();
        let mut total = vec![0u32; candidates.len()]; // half points per candidate

        // Simulate every candidate on the same invented deals until the fuel is (nearly)
        // spent. The first deal is always played, so that we always have an estimate.
        let mut deals: u32 = 0;
        loop {
            invent_deal(&mut base, obs, me, &mut pool, &mut self.rng);
            for (t, &c) in total.iter_mut().zip(&candidates) {
                *t += simulate(&base, obs.phase, me, c);
            }
            deals += 1;
            // Stop before the next deal (about used / deals more fuel) would overrun the limit.
            let used = start - budget_left();
            if deals >= MAX_DEALS || used + used / i64::from(deals) > limit {
                break;
            }
        }

        // The best mean (the same deals for all, so the best total). On equal totals, the
        // policy's own choice (the card it would play) wins, then the cheaper card: both are
        // better guesses than the first card of `legal`.
        let preferred = if obs.phase == Phase::Turn { base.policy(me) } else { 0 };
        let mut best = 0;
        for i in 1..candidates.len() {
            let (ci, cb) = (candidates[i], candidates[best]);
            let better = if total[i] == total[best] {
                ci == preferred || (cb != preferred && COST[ci as usize] < COST[cb as usize])
            } else {
                total[i] > total[best]
            };
            if better {
                best = i;
            }
        }
        // Win percentage of the chosen card, rounded: half points / (2 * deals) * 100.
        let percent = (50 * total[best] + deals / 2) / deals;
        log!("{deals} deals, {} wins {percent}%", obs.legal[best]);
        obs.legal[best].clone()
    }
}

cardarena_bot::export_bot!(MonteCarlo);
