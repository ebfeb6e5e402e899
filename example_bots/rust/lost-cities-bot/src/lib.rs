//! An example Lost Cities bot: a short list of rules (the same as
//! `example_bots/lua/lost-cities_greedy.lua`).
//!
//! Play phase, the first rule that applies:
//! 1. **extend** a started expedition with the lowest card that fits, if it skips few cards
//!    we could still have played (the *gap*); the accepted gap grows as the deck runs out;
//! 2. **start** the suit where the hand is strongest, if it can pay back the 20 points an
//!    expedition costs;
//! 3. **discard** the card that hurts least to lose and helps the opponent least.
//!
//! Draw phase: the top of a pile that extends one of our expeditions with a small gap, else the
//! deck; on the last deck card, a pile card when we are not ahead (the game goes on).

use std::collections::BTreeSet;

use cardarena_bot::lost_cities::{can_extend, Card, Observation, Phase, Suit};
use cardarena_bot::Bot;

#[derive(Default)]
struct Rules;

impl Bot for Rules {
    type Observation = Observation;

    fn act(&mut self, obs: &Observation) -> String {
        let view = View::new(obs);
        match obs.phase {
            Phase::Draw => view.choose_draw(),
            _ => view.choose_play(),
        }
    }
}

cardarena_bot::export_bot!(Rules);

/// A card's number, 0 for an investment.
fn num(card: Card) -> u8 {
    card.number_value().unwrap_or(0)
}

/// The observation plus what the rules ask about it.
struct View<'a> {
    obs: &'a Observation,
    me: usize,
    opp: usize,
    /// Cards in either expedition: gone for good.
    gone: BTreeSet<Card>,
}

impl<'a> View<'a> {
    fn new(obs: &'a Observation) -> View<'a> {
        let gone = obs
            .expeditions
            .iter()
            .flat_map(|seat| seat.iter().flat_map(|(_, e)| e.iter().copied()))
            .collect();
        View { obs, me: obs.seat, opp: 1 - obs.seat, gone }
    }

    /// The highest number on `seat`'s expedition: `None` if unstarted, 1 if only investments.
    fn top(&self, seat: usize, suit: Suit) -> Option<u8> {
        let exp = self.obs.expedition(seat, suit);
        (!exp.is_empty()).then(|| exp.iter().map(|&c| num(c)).max().unwrap_or(0).max(1))
    }

    fn fits(&self, seat: usize, card: Card) -> bool {
        can_extend(self.obs.expedition(seat, card.suit), card)
    }

    /// Numbers of `suit` strictly between `low` and `high` we could still have played.
    fn gap(&self, suit: Suit, low: u8, high: u8) -> usize {
        (low + 1..high)
            .map(|value| Card::number(suit, value))
            .filter(|c| !self.gone.contains(c) && !self.obs.hand.contains(c))
            .count()
    }

    fn gap_allowance(&self) -> usize {
        match self.obs.deck_size {
            0..=8 => usize::MAX,
            9..=16 => 4,
            17..=28 => 2,
            _ => 1,
        }
    }

    /// Rule 1: the lowest fitting card of each started suit; the one with the smallest gap.
    fn best_extension(&self) -> Option<(Card, usize)> {
        let mut best: Option<(Card, usize)> = None;
        for &suit in &self.obs.suits {
            let Some(top) = self.top(self.me, suit) else { continue };
            let Some(&card) = self.obs.hand.iter().find(|c| c.suit == suit && self.fits(self.me, **c)) else {
                continue;
            };
            let gap = if card.is_investment() {
                if self.obs.deck_size >= 24 {
                    0
                } else {
                    6
                }
            } else {
                self.gap(suit, top, num(card))
            };
            if best.is_none_or(|(_, g)| gap < g) {
                best = Some((card, gap));
            }
        }
        best
    }

    /// Rule 2: how promising starting `suit` is (sum of our numbers, plus a share of the higher
    /// unseen ones, minus 20), or `None` if too weak or too late.
    fn start_potential(&self, suit: Suit) -> Option<f64> {
        let numbers: Vec<u8> =
            self.obs.hand.iter().filter(|c| c.suit == suit && !c.is_investment()).map(|&c| num(c)).collect();
        let lowest = *numbers.first()?;
        let sum: u32 = numbers.iter().map(|&v| u32::from(v)).sum();
        if numbers.len() > self.obs.deck_size.div_ceil(2) || (numbers.len() < 3 && sum < 14) {
            return None;
        }
        let later: u32 = (lowest + 1..=10)
            .map(|value| Card::number(suit, value))
            .filter(|c| !self.gone.contains(c) && !self.obs.hand.contains(c))
            .map(|c| u32::from(num(c)))
            .sum();
        let share = self.obs.deck_size.min(40) as f64 / 120.0;
        Some(f64::from(sum) + f64::from(later) * share - 20.0)
    }

    fn best_start(&self) -> Option<Card> {
        let mut best: Option<(Suit, f64)> = None;
        for &suit in &self.obs.suits {
            if self.top(self.me, suit).is_some() {
                continue;
            }
            if let Some(p) = self.start_potential(suit) {
                if p >= 2.0 && best.is_none_or(|(_, b)| p >= b) {
                    best = Some((suit, p));
                }
            }
        }
        let (suit, _) = best?;
        // Lead with an investment while the deck is long, else the lowest number.
        let long = self.obs.deck_size >= 24;
        self.obs.hand.iter().copied().find(|c| c.suit == suit && (long || !c.is_investment()))
    }

    /// Rule 3: what losing `card` costs us plus what it gives the opponent.
    fn discard_cost(&self, card: Card) -> u32 {
        let value = u32::from(num(card));
        let mine = self.top(self.me, card.suit);
        let theirs = self.top(self.opp, card.suit);
        let keep = if mine.is_some() && !self.fits(self.me, card) {
            0 // useless to us now
        } else if mine.is_some() {
            20 + value // our own expedition's card
        } else if card.is_investment() && self.obs.deck_size < 24 {
            1
        } else {
            let sum: u32 =
                self.obs.hand.iter().filter(|c| c.suit == card.suit).map(|&c| u32::from(num(c))).sum();
            2 + sum / 3
        };
        let feed = if theirs.is_some() && self.fits(self.opp, card) {
            30 + value
        } else if theirs.is_none() {
            value / 2
        } else {
            0
        };
        keep + feed
    }

    fn choose_play(&self) -> String {
        let extension = self.best_extension();
        if let Some((card, gap)) = extension {
            if gap <= self.gap_allowance() {
                return format!("play {card}");
            }
        }
        if let Some(card) = self.best_start() {
            return format!("play {card}");
        }
        let discard = self.obs.hand.iter().copied().min_by_key(|&c| self.discard_cost(c));
        match (discard, extension) {
            (Some(d), Some((card, _))) if self.discard_cost(d) >= 20 => format!("play {card}"),
            (Some(d), _) => format!("discard {d}"),
            (None, _) => self.obs.legal[0].clone(),
        }
    }

    fn choose_draw(&self) -> String {
        let allowance = self.gap_allowance().min(2);
        for action in &self.obs.legal {
            let Some(suit) = action.strip_prefix("draw ").and_then(Suit::from_letter) else {
                continue; // "draw deck"
            };
            let (Some(&card), Some(top)) = (self.obs.pile(suit).last(), self.top(self.me, suit)) else {
                continue;
            };
            if num(card) > top && self.gap(suit, top, num(card)) <= allowance {
                return action.clone();
            }
        }
        let behind = self.obs.scores[self.me] <= self.obs.scores[self.opp];
        if self.obs.deck_size == 1 && behind && self.obs.legal.len() > 1 {
            return self.obs.legal[1].clone(); // stall: the opponent may have to end it
        }
        "draw deck".to_owned()
    }
}
