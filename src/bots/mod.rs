//! Built-in native bots: `random` (uniform over legal, seeded) and `greedy` (a one-ply heuristic
//! per game). They see exactly what a sandboxed bot sees: the seat's observation, nothing more.

use crate::bots::bot::Bot;
use crate::games::rng::Rng;
use crate::games::Seat;

pub mod bot;

// One line per game; the lines between keep the games' branches from touching each other.
mod blade;
mod blade_strong;
// --
mod ecard;
mod ecard_nash;
// --
mod intensity;
mod intensity_strong;
// --
mod lost_cities;
mod lost_cities_strong;
// --
pub mod search;

/// A game's `greedy` bot: a sensible one-ply heuristic that decides from the observation alone.
pub trait Greedy: crate::games::Game {
    /// The greedy choice for this observation; must be one of `obs.legal()`.
    /// `rng` is the bot's own seeded stream, for tie-breaks.
    fn greedy_action(obs: &Self::Observation, rng: &mut Rng) -> Self::Action;

    /// The game's `strong` bot (search over the hidden information), for `seat` of the match with
    /// `seed`; `budget` is its search budget in iterations (`None`: the game's default, `strong:N`
    /// on the command line). `None` if the game has no strong bot yet.
    fn strong_bot(seed: u64, seat: Seat, budget: Option<u32>) -> Option<Box<dyn Bot<Self>>> {
        let _ = (seed, seat, budget);
        None
    }

    /// The game's `nash` bot (an exact equilibrium strategy), where the game has one.
    fn nash_bot(seed: u64, seat: Seat) -> Option<Box<dyn Bot<Self>>> {
        let _ = (seed, seat);
        None
    }
}

#[cfg(test)]
mod tests {
    use crate::bots::bot::{builtin, Bot};
    use crate::games::blade::Blade;
    use crate::games::Game;

    /// `testkit::blade_observation` (the benchmarks' observation) is where two built-in `random`
    /// bots really are at the eighth decision of Blade seed 7.
    #[test]
    fn the_benchmark_observation_is_the_random_bots_eighth() {
        let mut state = Blade::new(Blade::variants()[0], 7);
        let mut bots: Vec<Box<dyn Bot<Blade>>> =
            (0..2).map(|s| builtin::<Blade>("random", 7, s).unwrap()).collect();
        let mut last = None;
        for _ in 0..8 {
            let Some(&seat) = state.to_act().first() else { break };
            let obs = state.observe(seat);
            let action = bots[seat].act(&obs).unwrap();
            last = Some(serde_json::to_string(&obs).unwrap());
            state.play(seat, &action).unwrap();
        }
        let expected = serde_json::to_string(&crate::games::testkit::blade_observation()).unwrap();
        assert_eq!(last.unwrap(), expected);
    }
}
