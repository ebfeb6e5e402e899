//! Game-generic search over hidden information: determinized flat Monte Carlo (perfect
//! information Monte Carlo, PIMC) with common random numbers.
//!
//! For a decision, the search samples `iterations` full states consistent with the observer's
//! observation ([`Determinize::determinize`]). In each sampled state it tries **every** candidate
//! action of the observer and finishes the game with the game's rollout policy, driving the
//! [`Game`] trait (`legal_actions`, `play_unchecked`, `outcome`). All candidates of one sample
//! share the sampled hidden cards and the rollout's random stream (common random numbers), so
//! their results differ only by the action: the comparison is far less noisy than independent
//! rollouts, which matters at a budget of a few hundred rollouts per decision. The candidate with
//! the best mean reward wins (ties: the first candidate), except that a game's heuristic choice
//! ([`Determinize::baseline`], the greedy action) is kept unless the best beats it by
//! [`SearchConfig::margin`]: rollouts are biased, and small differences are mostly noise.
//!
//! With a work cap ([`SearchConfig::max_work`], rollout moves per decision) sampling stops once
//! the moves are spent, and with [`SearchConfig::halving`] the work goes in rounds of
//! sequential halving: after each round the worse half of the candidates drops out (never the
//! baseline), so the best ones get the most rollouts.
//!
//! (Not a single-observer ISMCTS with UCT: at a few hundred iterations per decision its root
//! statistics are too noisy to beat greedy in either game.)
//!
//! Simultaneous decisions (the Intensity pass): the observer's choice is played first, the other
//! seats' hidden choices are the rollout policy's, in the sampled world.
//!
//! Everything is deterministic given the [`Rng`]: no clock, no hash maps.

use std::marker::PhantomData;

use crate::bots::bot::{Bot, Fault, Verdict};
use crate::games::rng::{Rng, Stream};
use crate::games::{Game, Observation, Seat};

/// A game the search can play: it can sample the hidden information behind an observation and
/// knows a fast policy to finish a game from any full state.
pub trait Determinize: Game {
    /// A full state whose observation for `obs.seat()` is exactly `obs` (the hidden cards sampled
    /// from what is consistent with the public history and what `obs.seat()` saw).
    fn determinize(obs: &Self::Observation, rng: &mut Rng) -> Self;

    /// The move a rollout plays for `seat` (which is to act) in this full state. It may look at
    /// every card: rollouts are played inside one sampled world.
    fn rollout_action(&self, seat: Seat, rng: &mut Rng) -> Self::Action {
        let legal = self.legal_actions(seat);
        legal[rng.below(legal.len())].clone()
    }

    /// The observer's candidate actions here (default: every legal action). A game with very
    /// many legal actions (the 120 Intensity passes) may return a promising subset; it must be
    /// legal and depend only on what the observer sees. It may be empty when the game has a
    /// [`Determinize::baseline`], which is always a candidate.
    fn candidates(&self, observer: Seat) -> Vec<Self::Action> {
        self.legal_actions(observer)
    }

    /// The value of a finished state for `seat`, in `0.0..=1.0` (higher is better).
    fn reward(&self, seat: Seat) -> f64;

    /// A default choice from the observation alone (the game's heuristic), which the search keeps
    /// unless another candidate's mean reward beats it by [`SearchConfig::margin`]. `None`: no
    /// default, the best mean wins.
    fn baseline(obs: &Self::Observation, rng: &mut Rng) -> Option<Self::Action> {
        let _ = (obs, rng);
        None
    }
}

/// The search's settings.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SearchConfig {
    /// Sampled states per decision; each candidate action gets one rollout in each.
    pub iterations: u32,
    /// How much higher (in mean reward, `0.0..=1.0`) a candidate must score than the
    /// [`Determinize::baseline`] action to replace it.
    pub margin: f64,
    /// The most rollout moves one decision may play (`None`: no cap): sampling stops once they
    /// are spent (after at least one sample), which bounds the widest, longest decisions.
    pub max_work: Option<u64>,
    /// Sequential halving over the candidates within `max_work` (see [`search`]).
    pub halving: bool,
}

/// The fewest samples per round of sequential halving.
pub const MIN_ROUND_SAMPLES: u32 = 16;

/// Sequential halving's rounds for `candidates` over a budget of `samples`: ⌈log₂ candidates⌉,
/// at most one per [`MIN_ROUND_SAMPLES`] samples (a round needs a few to rank the candidates,
/// so small budgets search flat), at least one.
pub fn halving_rounds(candidates: usize, samples: u32) -> u32 {
    if candidates <= 2 {
        return 1;
    }
    (usize::BITS - (candidates - 1).leading_zeros()).min(samples / MIN_ROUND_SAMPLES).max(1)
}

/// The end of a halving round: of the candidates still in play (`alive`), the worse half by
/// `total` drops out, never `keep`; returns the ones that dropped. The candidates in play have
/// all seen the same samples, so their totals compare.
pub fn drop_worse_half(alive: &mut [bool], total: impl Fn(usize) -> f64, keep: Option<usize>) -> Vec<usize> {
    let mut order: Vec<usize> = (0..alive.len()).filter(|&i| alive[i] && Some(i) != keep).collect();
    order.sort_by(|&x, &y| total(y).total_cmp(&total(x)));
    let kept = usize::from(keep.is_some());
    let stay = (order.len() + kept).div_ceil(2).saturating_sub(kept).min(order.len());
    let dropped = order.split_off(stay);
    for &i in &dropped {
        alive[i] = false;
    }
    dropped
}

/// Runs the search for the observer of `obs` and returns the chosen action, one of the
/// observation's legal actions. `obs.legal()` must not be empty.
pub fn search<G: Determinize>(obs: &G::Observation, config: SearchConfig, rng: &mut Rng) -> G::Action {
    let observer = obs.seat();
    let baseline = G::baseline(obs, rng);
    let first = G::determinize(obs, rng);
    let mut candidates = first.candidates(observer);
    if let Some(b) = &baseline {
        if !candidates.contains(b) {
            candidates.push(b.clone());
        }
    }
    if candidates.is_empty() {
        // A game that offers no candidate and no baseline: any legal action.
        let legal: Vec<G::Action> = obs.legal().iter().filter_map(|s| s.parse().ok()).collect();
        return legal[rng.below(legal.len())].clone();
    }
    if candidates.len() == 1 {
        return candidates.remove(0);
    }
    let n = candidates.len();
    let mut totals = vec![0.0; n];
    let mut sample = Some(first);
    let base = baseline.as_ref().and_then(|b| candidates.iter().position(|c| c == b));
    // Sequential halving (with a work cap): rounds of equal work, after each the worse half of
    // the candidates drops out (never the baseline), so the best get the most rollouts.
    let halving = config.halving && config.max_work.is_some();
    let rounds = if halving { halving_rounds(n, config.iterations) } else { 1 };
    let mut alive = vec![true; n];
    let (mut work, mut samples) = (0u64, 0u32);
    let iterations = config.iterations.max(1);
    for round in 1..=rounds {
        let round_iterations = iterations * round / rounds;
        let round_cap = config.max_work.map(|cap| cap * u64::from(round) / u64::from(rounds));
        while samples < round_iterations && round_cap.is_none_or(|cap| samples == 0 || work < cap) {
            samples += 1;
            let state = sample.take().unwrap_or_else(|| G::determinize(obs, rng));
            let rollout_seed = rng.next_u64();
            for ((action, total), _) in candidates.iter().zip(&mut totals).zip(&alive).filter(|(_, &a)| a) {
                let mut world = state.clone();
                world.play_unchecked(observer, action);
                let mut rollout_rng = Rng::new(rollout_seed, Stream::Bot(observer));
                while let Some(&seat) = world.to_act().first() {
                    let next = world.rollout_action(seat, &mut rollout_rng);
                    world.play_unchecked(seat, &next);
                    work += 1;
                }
                *total += world.reward(observer);
            }
        }
        if round < rounds {
            for i in drop_worse_half(&mut alive, |i| totals[i], base) {
                totals[i] = f64::NEG_INFINITY;
            }
        }
    }
    let mut best = 0;
    for (i, total) in totals.iter().enumerate() {
        if *total > totals[best] {
            best = i;
        }
    }
    if let Some(b) = base {
        let n = f64::from(samples);
        if totals[best] / n < totals[b] / n + config.margin {
            best = b;
        }
    }
    candidates.into_iter().nth(best).expect("a legal action to choose from")
}

/// A `strong` bot: [`search`] at every decision with more than one legal action.
pub struct SearchBot<G> {
    rng: Rng,
    config: SearchConfig,
    game: PhantomData<fn() -> G>,
}

impl<G: Determinize> SearchBot<G> {
    /// The bot for `seat` of the match with `seed` (its randomness: `Stream::Bot(seat)`).
    pub fn new(seed: u64, seat: Seat, config: SearchConfig) -> SearchBot<G> {
        SearchBot { rng: Rng::new(seed, Stream::Bot(seat)), config, game: PhantomData }
    }
}

impl<G: Determinize> Bot<G> for SearchBot<G> {
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        match obs.legal() {
            [] => Err(Fault::new(Verdict::Crash, "strong bot asked to act with no legal action")),
            [only] => Ok(only.clone()),
            _ => Ok(search::<G>(obs, self.config, &mut self.rng).to_string()),
        }
    }
}

#[cfg(test)]
pub(crate) mod testkit {
    //! Checks every game's strong bot runs: determinizer consistency and duplicate-deal matches.

    use super::*;
    use crate::bots::Greedy;

    /// Plays `seed` with `bots` (one per seat) and returns the outcome's points; at every
    /// decision of every seat, checks that a sampled state gives that seat the same observation
    /// (as JSON) when `check_samples` > 0 (that many samples per decision).
    pub fn play<G: Determinize>(
        variant: G::Variant,
        seed: u64,
        bots: &mut [Box<dyn Bot<G>>],
        check_samples: usize,
    ) -> Vec<i64> {
        let mut g = G::from_setup(G::deal(variant, seed)).expect("dealt setup is valid");
        let mut rng = Rng::new(seed, Stream::Arena);
        while !g.is_over() {
            let to_act = g.to_act();
            let observations: Vec<G::Observation> = to_act.iter().map(|&s| g.observe(s)).collect();
            for obs in &observations {
                let want = serde_json::to_string(obs).expect("observation serializes");
                for _ in 0..check_samples {
                    let sampled = G::determinize(obs, &mut rng);
                    let got = serde_json::to_string(&sampled.observe(obs.seat())).expect("serializes");
                    assert_eq!(
                        got,
                        want,
                        "a sampled state must show seat {} the same observation",
                        obs.seat()
                    );
                }
            }
            let choices: Vec<(Seat, String)> = to_act
                .iter()
                .zip(&observations)
                .map(|(&s, obs)| (s, bots[s].act(obs).expect("built-in bots do not fault")))
                .collect();
            for (s, a) in choices {
                g.play(s, &a).unwrap_or_else(|e| panic!("bot in seat {s} played an illegal action: {e}"));
            }
        }
        g.outcome().expect("over").points
    }

    /// The bots of one seating: `strong` in the seats of `strong_seats`, greedy elsewhere.
    pub fn seating<G: Greedy + Determinize>(
        seed: u64,
        strong_seats: &[Seat],
        strong: impl Fn(u64, Seat) -> Box<dyn Bot<G>>,
    ) -> Vec<Box<dyn Bot<G>>> {
        (0..G::PLAYERS)
            .map(|s| {
                if strong_seats.contains(&s) {
                    strong(seed, s)
                } else {
                    Box::new(crate::bots::bot::GreedyBot::new(seed, s)) as Box<dyn Bot<G>>
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halving_rounds_follow_the_candidates_and_the_budget() {
        assert_eq!(halving_rounds(2, 1000), 1);
        assert_eq!(halving_rounds(3, 1000), 2);
        assert_eq!(halving_rounds(8, 1000), 3);
        assert_eq!(halving_rounds(9, 1000), 4);
        // Fewer than MIN_ROUND_SAMPLES samples per round: fewer rounds, at least one.
        assert_eq!(halving_rounds(8, 2 * MIN_ROUND_SAMPLES), 2);
        assert_eq!(halving_rounds(8, 4), 1);
    }

    #[test]
    fn the_worse_half_drops_but_never_the_kept_one() {
        let totals = [5.0, 1.0, 4.0, 0.0, 3.0];
        let mut alive = [true; 5];
        let mut dropped = drop_worse_half(&mut alive, |i| totals[i], None);
        dropped.sort_unstable();
        assert_eq!(dropped, vec![1, 3]);
        assert_eq!(alive, [true, false, true, false, true]);
        // Candidate 3 (the worst) is kept: of the four in play two stay, it and the best other.
        let mut alive = [true, true, true, true, false];
        let mut dropped = drop_worse_half(&mut alive, |i| totals[i], Some(3));
        dropped.sort_unstable();
        assert_eq!(dropped, vec![1, 2]);
        assert_eq!(alive, [true, false, false, true, false]);
    }
}
