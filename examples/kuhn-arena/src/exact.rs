//! Exact expectations: Kuhn poker is small enough to walk every deal and every line of betting.
//! A strategy is the probability of the aggressive action (`bet`, `call`) in an observation, as
//! in [`crate::bots`]; `random` is the constant 1/2.

use cardarena_games::Game;

use crate::game::{Action, Card, Kuhn, KuhnObservation, Setup};

/// A strategy: the probability of the aggressive action (the second of `legal`) in an
/// observation.
pub type Strategy<'a> = &'a dyn Fn(&KuhnObservation) -> f64;

/// The six deals, each as likely as the others: the cards of seat 0 and seat 1.
pub fn deals() -> Vec<[Card; 2]> {
    let mut deals = Vec::with_capacity(6);
    for a in Card::ALL {
        for b in Card::ALL.into_iter().filter(|&b| b != a) {
            deals.push([a, b]);
        }
    }
    deals
}

/// The first two moments of seat 0's points in one deal when seat `s` plays `strategies[s]`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Moments {
    /// The expected points.
    pub mean: f64,
    /// The expected square of the points.
    pub square: f64,
}

impl Moments {
    /// The variance of the points.
    pub fn variance(self) -> f64 {
        self.square - self.mean * self.mean
    }
}

/// Seat 0's points in the deal `cards`, by walking every line of betting with its probability.
pub fn deal_moments(cards: [Card; 2], strategies: [Strategy; 2]) -> Moments {
    fn walk(state: &Kuhn, strategies: [Strategy; 2], weight: f64, acc: &mut Moments) {
        if let Some(outcome) = state.outcome() {
            let x = outcome.points[0] as f64;
            acc.mean += weight * x;
            acc.square += weight * x * x;
            return;
        }
        let seat = state.to_act()[0];
        let p = strategies[seat](&state.observe(seat));
        let [passive, aggressive]: [Action; 2] =
            state.legal_actions(seat).try_into().expect("two legal actions at every decision");
        for (action, q) in [(passive, 1.0 - p), (aggressive, p)] {
            if q > 0.0 {
                let mut next = state.clone();
                next.play_unchecked(seat, &action);
                walk(&next, strategies, weight * q, acc);
            }
        }
    }
    let state = Kuhn::from_setup(Setup { cards }).expect("two different cards");
    let mut acc = Moments { mean: 0.0, square: 0.0 };
    walk(&state, strategies, 1.0, &mut acc);
    acc
}

/// Seat 0's expected points over the six deals.
pub fn value(strategies: [Strategy; 2]) -> f64 {
    deals().into_iter().map(|d| deal_moments(d, strategies).mean).sum::<f64>() / 6.0
}
