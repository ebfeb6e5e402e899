//! Kuhn poker's built-in bots, as any [`Bot`]: each decides from the seat's observation alone,
//! and draws its randomness only from its own seeded stream of the match seed.
//!
//! Every decision of Kuhn poker is between a passive action (`check`, `fold`) and an aggressive
//! one (`bet`, `call`), so a strategy is the probability of the aggressive one
//! ([`aggression`]) in each of a seat's two situations per card.

use cardarena::bots::bot::{Bot, Fault, Verdict};
use cardarena_games::rng::{Rng, Stream};
use cardarena_games::{Observation, Seat};

use crate::game::{Action, Card, KuhnObservation};

/// The largest α of the equilibrium family.
pub const ALPHA_MAX: f64 = 1.0 / 3.0;

/// The probability that the `nash` bot with parameter `alpha` (in `[0, 1/3]`) bets or calls in
/// this observation (Kuhn 1950; the family of every equilibrium, the first player's value −1/18
/// whatever α):
///
/// | card | seat 0 opens | seat 0 after check, bet | seat 1 after check | seat 1 after bet |
/// |------|--------------|-------------------------|--------------------|------------------|
/// | J    | bet α        | fold                    | bet 1/3            | fold             |
/// | Q    | check        | call α + 1/3            | check              | call 1/3         |
/// | K    | bet 3α       | call                    | bet                | call             |
pub fn nash_aggression(alpha: f64, card: Card, betting: &[Action]) -> f64 {
    use Action::*;
    use Card::*;
    let third = 1.0 / 3.0;
    match (betting, card) {
        ([], J) => alpha,
        ([], Q) => 0.0,
        ([], K) => 3.0 * alpha,
        ([Check, Bet], J) => 0.0,
        ([Check, Bet], Q) => alpha + third,
        ([Check, Bet], K) => 1.0,
        ([Check], J) => third,
        ([Check], Q) => 0.0,
        ([Check], K) => 1.0,
        ([Bet], J) => 0.0,
        ([Bet], Q) => third,
        ([Bet], K) => 1.0,
        // Not a decision point: nothing to decide.
        _ => 0.0,
    }
}

/// The best response to the uniformly random bot (`random`), a pure strategy: bet or call when
/// that wins more chips on average against a seat that checks or bets, folds or calls, with
/// probability 1/2 whatever its card. With a K, seat 0 gains 3/2 by betting or by checking
/// (then calling): it bets. The exact values are computed in `tests/kuhn/value.rs`.
///
/// | card | seat 0 opens | seat 0 after check, bet | seat 1 after check | seat 1 after bet |
/// |------|--------------|-------------------------|--------------------|------------------|
/// | J    | bet          | fold                    | bet                | fold             |
/// | Q    | bet          | call                    | bet                | call             |
/// | K    | bet          | call                    | bet                | call             |
pub fn best_response_aggression(card: Card, betting: &[Action]) -> f64 {
    let facing_bet = betting.last() == Some(&Action::Bet);
    if facing_bet && card == Card::J {
        0.0
    } else {
        1.0
    }
}

/// The action of `obs.legal` (passive first, aggressive second) that a draw `u` in `[0, 1)`
/// picks when the aggressive one has probability `p`.
///
/// # Errors
/// The observation has not the two legal actions of a decision.
fn pick(obs: &KuhnObservation, p: f64, u: f64) -> Result<String, Fault> {
    match obs.legal() {
        [passive, aggressive] => Ok(if u < p { aggressive } else { passive }.clone()),
        legal => Err(Fault::new(Verdict::Crash, format!("asked to act with legal actions {legal:?}"))),
    }
}

/// The equilibrium family of Kuhn (1950) with parameter α: see [`nash_aggression`]. Built-in
/// names: `nash` (α drawn uniformly from `[0, 1/3]` once per match, from the bot's stream of the
/// match seed) and `nash:ALPHA` (α fixed: a decimal or a fraction, `nash:0.2`, `nash:1/6`).
pub struct Nash {
    alpha: f64,
    rng: Rng,
}

impl Nash {
    /// The `nash` bot of `seat` in the match with `seed`: α drawn from the bot's stream.
    pub fn drawn(seed: u64, seat: Seat) -> Nash {
        let mut rng = Rng::new(seed, Stream::Bot(seat));
        let alpha = rng.unit_f64() * ALPHA_MAX;
        Nash { alpha, rng }
    }

    /// The `nash:ALPHA` bot of `seat` in the match with `seed`.
    ///
    /// # Errors
    /// `alpha` is outside `[0, 1/3]` (or not a number).
    pub fn fixed(alpha: f64, seed: u64, seat: Seat) -> Result<Nash, String> {
        if !(0.0..=ALPHA_MAX).contains(&alpha) {
            return Err(format!("the nash bot's α must be in [0, 1/3], not {alpha}"));
        }
        Ok(Nash { alpha, rng: Rng::new(seed, Stream::Bot(seat)) })
    }

    /// The bot named `nash:SPEC`: `SPEC` is a decimal (`0.2`) or a fraction (`1/6`).
    ///
    /// # Errors
    /// `SPEC` is not a number in `[0, 1/3]`; the message says what is.
    pub fn named(spec: &str, seed: u64, seat: Seat) -> Result<Nash, String> {
        let number = |s: &str| s.trim().parse::<f64>().ok();
        let alpha = match spec.split_once('/') {
            Some((n, d)) => number(n).zip(number(d)).map(|(n, d)| n / d),
            None => number(spec),
        };
        let alpha = alpha.filter(|a| a.is_finite()).ok_or_else(|| {
            format!("bad α in \"nash:{spec}\": write a number in [0, 1/3], as nash:0.2 or nash:1/6")
        })?;
        Nash::fixed(alpha, seed, seat)
    }

    /// The bot's α.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}

impl Bot<crate::Kuhn> for Nash {
    /// One draw per decision from the bot's stream.
    fn act(&mut self, obs: &KuhnObservation) -> Result<String, Fault> {
        let p = nash_aggression(self.alpha, obs.card, &obs.betting);
        pick(obs, p, self.rng.unit_f64())
    }
}

/// The best response to `random` ([`best_response_aggression`]); built-in name `best-response`.
pub struct BestResponse;

impl Bot<crate::Kuhn> for BestResponse {
    fn act(&mut self, obs: &KuhnObservation) -> Result<String, Fault> {
        pick(obs, best_response_aggression(obs.card, &obs.betting), 0.5)
    }
}
