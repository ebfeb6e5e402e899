//! An example Blade bot: one move of lookahead (the same idea as
//! `example_bots/lua/blade_greedy.lua`).
//!
//! For every card it could play it simulates the two fields afterwards, then rates the move:
//! falling behind loses at once, a tie restarts the set-up, and among the moves that go ahead
//! it prefers spending a cheap card and leaving the opponent without an answer.
//!
//! Build: `cargo build --release --target wasm32-unknown-unknown` (in `example_bots/rust`),
//! then `arena play --game blade --bots example_bots/wasm/blade_rust.wasm,random`.

use cardarena_bot::blade::{Card, FieldCard, Observation, Phase};
use cardarena_bot::{Bot, InitInfo, Rng};

/// The bot's state for one match: only a random generator, to break ties.
#[derive(Default)]
struct Greedy {
    rng: Rng,
}

impl Bot for Greedy {
    type Observation = Observation;

    fn init(&mut self, info: &InitInfo) {
        self.rng = Rng::new(info.seed ^ info.seat as u64);
    }

    fn act(&mut self, obs: &Observation) -> String {
        let rated: Vec<(Card, f64)> = obs
            .legal
            .iter()
            .filter_map(|s| s.parse::<Card>().ok())
            .map(|card| match obs.phase {
                Phase::Setup => (card, rate_pick(obs, card)),
                _ => (card, rate_turn(obs, card)),
            })
            .collect();
        let best = rated.iter().map(|&(_, r)| r).fold(f64::NEG_INFINITY, f64::max);
        let top: Vec<Card> = rated.iter().filter(|&&(_, r)| r == best).map(|&(c, _)| c).collect();
        match self.rng.choose(&top) {
            Some(card) => card.to_string(),
            None => obs.legal[0].clone(), // only if `legal` held something unexpected
        }
    }
}

cardarena_bot::export_bot!(Greedy);

/// What spending a B or M costs: about a 6, they are the best answers later.
const EFFECT_COST: f64 = 6.0;
/// The reward for a move the opponent probably cannot answer (in card-value units).
const NO_ANSWER_BONUS: f64 = 8.0;

fn score(field: &[FieldCard]) -> u32 {
    field.iter().map(|c| c.worth()).sum()
}

fn drop_bolted_top(field: &mut Vec<FieldCard>) {
    if field.last().is_some_and(|c| !c.valid) {
        field.pop();
    }
}

/// Both fields (by seat) after seat `me` plays `card`: the rules of a turn.
fn after(fields: &[Vec<FieldCard>; 2], me: usize, card: Card) -> [Vec<FieldCard>; 2] {
    let mut f = fields.clone();
    let them = 1 - me;
    match card {
        Card::One => match f[me].last_mut() {
            Some(top) if !top.valid => top.valid = true, // revive our bolted top card
            _ => f[me].push(FieldCard { card, valid: true }),
        },
        Card::Bolt => {
            drop_bolted_top(&mut f[them]);
            if let Some(top) = f[them].last_mut() {
                top.valid = false;
            }
        }
        Card::Mirror => f.swap(0, 1),
        _ => {
            drop_bolted_top(&mut f[me]);
            f[me].push(FieldCard { card, valid: true });
        }
    }
    f
}

/// The chance that `hand` cards drawn at random from `pool` hold none of `good` of them.
fn chance_of_none(pool: usize, good: usize, hand: usize) -> f64 {
    (0..hand)
        .map(|i| {
            let bad_left = pool.saturating_sub(good + i);
            bad_left as f64 / (pool - i).max(1) as f64
        })
        .product()
}

fn rate_turn(obs: &Observation, card: Card) -> f64 {
    let (me, them) = (obs.seat, 1 - obs.seat);
    if obs.hand.len() == 1 && card.is_effect() {
        return -1e6; // B or M as the last card loses at once
    }
    let fields = after(&obs.fields, me, card);
    let (mine, theirs) = (score(&fields[me]), score(&fields[them]));

    let reviving = card == Card::One && obs.fields[me].last().is_some_and(|c| !c.valid);
    let mut cost = match card {
        Card::Bolt | Card::Mirror => EFFECT_COST,
        Card::One if reviving => 0.5,
        Card::One if obs.unseen.contains(&Card::Bolt) => 3.5, // keep it to revive later
        c => f64::from(c.value()),
    };
    // A hand of only B and M is lost: its last card will be a B or M.
    let mut rest = obs.hand.clone();
    if let Some(i) = rest.iter().position(|&c| c == card) {
        rest.remove(i);
    }
    if !rest.is_empty() && rest.iter().all(|c| c.is_effect()) {
        cost += 60.0;
    }

    if mine < theirs {
        return -1e5 - cost;
    }
    if mine == theirs {
        return -100.0 - cost;
    }
    let opp_hand = obs.hand_counts[them];
    let answers = obs
        .unseen
        .iter()
        .filter(|&&c| !(opp_hand == 1 && c.is_effect()))
        .filter(|&&c| {
            let next = after(&fields, them, c);
            score(&next[them]) > score(&next[me])
        })
        .count();
    let no_answer = if opp_hand == 0 { 1.0 } else { chance_of_none(obs.unseen.len(), answers, opp_hand) };
    1000.0 + NO_ANSWER_BONUS * no_answer - cost
}

/// A set-up pick: place a cheap card (B and M are plain 1s on the field), avoiding a tie with
/// the card the opponent has placed.
fn rate_pick(obs: &Observation, card: Card) -> f64 {
    let cost = if card.is_effect() { 0.0 } else { f64::from(card.value()) };
    let theirs = obs.fields[1 - obs.seat].last().map(|c| c.worth());
    let tie = theirs == Some(card.value());
    -cost - if tie { 10.0 } else { 0.0 }
}
