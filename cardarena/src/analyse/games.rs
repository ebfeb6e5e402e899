//! [`Analyse`] for the built-in games: how each values a seat's actions, its default budget and
//! its marks' thresholds (docs/tools.md explains them).

use super::{determinized, Analyse, Marks, Samples};
use crate::bots::blade_strong::Sampler;
use crate::bots::ecard_nash::action_values;
use crate::bots::search::Determinize;
use crate::games::blade::{Action as BladeAction, Blade, BladeObservation};
use crate::games::ecard::{Card, Ecard, EcardObservation, ROUNDS};
use crate::games::intensity::{Intensity, IntensityObservation, Phase};
use crate::games::lost_cities::{Action as LostCitiesAction, LostCities, LostCitiesObservation};
use crate::games::rng::Rng;

/// Blade: the strong bot's determinizations, weighted by its opponent model, one playout of its
/// policy per card; a win is +2 points against the opponent, a loss −2, a draw 0, so a loss of
/// 0.4 is 10 points of winning chance.
impl Analyse for Blade {
    const DEFAULT_BUDGET: u32 = 2000;
    const MARKS: Marks = Marks { inaccuracy: 0.2, mistake: 0.4, blunder: 0.8 };

    fn sample(obs: &BladeObservation, actions: &[BladeAction], budget: u32, rng: &mut Rng) -> Samples {
        let cards: Vec<_> = actions.iter().map(|a| a.0).collect();
        let mut sampler = Sampler::new(obs);
        let mut out = Samples::default();
        for _ in 0..budget.max(1) {
            // A replay whose counts do not add up has no determinization: no samples, value 0.
            let Some((weight, results)) = sampler.sample(&cards, rng) else { break };
            out.push(weight, results.into_iter().map(|r| 2.0 * r).collect());
        }
        out
    }
}

/// E-card: exact. The only hidden information is the opponent's simultaneous card, which is
/// taken to be played at the `nash` bot's equilibrium, as is the rest of the match; a value is
/// the expected final points difference. Every action in the support of a mixed equilibrium
/// then has the same value: E-card marks only a choice off the equilibrium's support.
impl Analyse for Ecard {
    const DEFAULT_BUDGET: u32 = 1;
    const MARKS: Marks = Marks { inaccuracy: 0.1, mistake: 0.25, blunder: 0.5 };

    fn sample(obs: &EcardObservation, actions: &[Card], _budget: u32, _rng: &mut Rng) -> Samples {
        let round = obs.round.saturating_sub(1).min(ROUNDS - 1);
        let [special, citizen] = action_values(obs.variant, obs.side, round, obs.plays.len());
        let now = (obs.scores[obs.seat] - obs.scores[1 - obs.seat]) as f64;
        let mut out = Samples::default();
        out.push(
            1.0,
            actions.iter().map(|&c| now + if c == obs.side.special() { special } else { citizen }).collect(),
        );
        out
    }
}

/// Lost Cities: the strong bot's determinizations (the opponent's known cards respected), each
/// action played out by its rollout policy to the end of the match; values are score margins.
impl Analyse for LostCities {
    const DEFAULT_BUDGET: u32 = 120;
    const MARKS: Marks = Marks { inaccuracy: 4.0, mistake: 8.0, blunder: 16.0 };

    fn sample(
        obs: &LostCitiesObservation,
        actions: &[LostCitiesAction],
        budget: u32,
        rng: &mut Rng,
    ) -> Samples {
        determinized::<LostCities>(obs, actions, budget, rng)
    }
}

/// Intensity: the strong bot's determinizations (voids and the passed cards respected), played out
/// by its rollout policy; values are the seat's penalty points (lower is better). A pass values
/// the strong search's candidates (every three of the six most dangerous cards) and the pass
/// played, not all 120.
impl Analyse for Intensity {
    const DEFAULT_BUDGET: u32 = 600;
    const MARKS: Marks = Marks { inaccuracy: 1.0, mistake: 2.0, blunder: 3.5 };

    fn actions(obs: &IntensityObservation, rng: &mut Rng) -> Vec<crate::games::intensity::Action> {
        if obs.phase == Phase::Pass {
            Intensity::determinize(obs, rng).candidates(obs.seat)
        } else {
            obs.legal.iter().filter_map(|s| s.parse().ok()).collect()
        }
    }

    fn sample(
        obs: &IntensityObservation,
        actions: &[crate::games::intensity::Action],
        budget: u32,
        rng: &mut Rng,
    ) -> Samples {
        determinized::<Intensity>(obs, actions, budget, rng)
    }
}
