//! An example Intensity bot: the rules of thumb of Hearts-like games (the same as
//! `example_bots/lua/intensity_greedy.lua`).
//!
//! * **Pass** the three most dangerous cards: the buffalo (47), 49 and 48 (they would take a
//!   trick the buffalo is dumped on), then high cards, calves and cards of short suits.
//! * **Lead** the lowest safe card.
//! * **Follow** with the highest card that still loses (duck); the buffalo goes under a higher
//!   card whenever possible.
//! * **Void** in the led suit: dump the buffalo, then 48/49, then the highest calf.

use cardarena_bot::intensity::{Action, Card, Observation, Phase};
use cardarena_bot::Bot;

#[derive(Default)]
struct RulesOfThumb;

impl Bot for RulesOfThumb {
    type Observation = Observation;

    fn act(&mut self, obs: &Observation) -> String {
        if obs.phase == Phase::Pass {
            let mut pass = choose_pass(&obs.hand);
            pass.sort_unstable(); // the notation lists the three ascending
            return Action::Pass(pass).to_string();
        }
        // "play 33" -> 33; legal cards come ascending.
        let cards: Vec<Card> = obs
            .legal
            .iter()
            .filter_map(|a| match a.parse() {
                Ok(Action::Play(card)) => Some(card),
                _ => None,
            })
            .collect();
        match choose_card(obs, &cards) {
            Some(card) => Action::Play(card).to_string(),
            None => obs.legal[0].clone(),
        }
    }
}

cardarena_bot::export_bot!(RulesOfThumb);

/// How much we want to pass a card away.
fn danger(hand: &[Card], card: Card) -> u32 {
    match card.number() {
        47 => 100,
        49 => 91,
        48 => 90,
        _ => {
            let same_suit = hand.iter().filter(|&&c| c.suit() == card.suit()).count();
            let calf = if card.is_calf() { 5 } else { 0 };
            let short = if same_suit <= 3 && !card.is_calf() { 4 } else { 0 };
            u32::from(card.rank()) + calf + short
        }
    }
}

fn choose_pass(hand: &[Card]) -> [Card; 3] {
    let mut cards = hand.to_vec();
    // Most dangerous first; equal danger: the higher card first.
    cards.sort_by_key(|&c| std::cmp::Reverse((danger(hand, c), c)));
    [cards[0], cards[1], cards[2]]
}

/// Whether the buffalo may still be in another hand.
fn buffalo_out(obs: &Observation) -> bool {
    let mut seen = obs.hand.iter().chain(&obs.trick.cards).chain(obs.tricks.iter().flat_map(|t| &t.cards));
    !seen.any(|&c| c == Card::BUFFALO)
}

fn choose_card(obs: &Observation, cards: &[Card]) -> Option<Card> {
    let out = buffalo_out(obs);
    let trick = &obs.trick.cards;
    let Some(&lead) = trick.first() else {
        // Leading: low, not a calf, not the buffalo, not 48/49 while the buffalo is out.
        return cards.iter().copied().min_by_key(|&c| {
            u32::from(c.rank())
                + if c.is_calf() { 10 } else { 0 }
                + if c == Card::BUFFALO { 30 } else { 0 }
                + if out && c.number() >= 48 { 20 } else { 0 }
        });
    };
    let led = lead.suit();
    if cards.iter().all(|&c| c.suit() != led) {
        // Void: dump the most dangerous card.
        return cards.iter().copied().max_by_key(|&c| {
            let dump = if c == Card::BUFFALO {
                300
            } else if out && c.number() >= 48 {
                200
            } else if c.is_calf() {
                100 + u32::from(c.rank())
            } else {
                u32::from(c.rank())
            };
            (dump, c)
        });
    }
    let winning = trick.iter().copied().filter(|&c| c.suit() == led).max().unwrap_or(lead);
    let last = trick.len() == 3;
    let clean = trick.iter().all(|&c| !c.is_calf() && c != Card::BUFFALO);
    if cards.contains(&Card::BUFFALO) && Card::BUFFALO < winning {
        return Some(Card::BUFFALO); // someone else takes its 7 points
    }
    let safe: Vec<Card> = cards.iter().copied().filter(|&c| c != Card::BUFFALO).collect();
    let safe = if safe.is_empty() { cards.to_vec() } else { safe };
    let highest = safe.last().copied();
    if last && clean {
        return highest; // winning a clean trick costs nothing: shed a high card
    }
    if let Some(duck) = cards.iter().copied().filter(|&c| c < winning).max() {
        return Some(duck);
    }
    if last {
        highest
    } else {
        safe.first().copied()
    }
}
