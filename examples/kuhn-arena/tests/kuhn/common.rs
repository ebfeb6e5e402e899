//! Playing Kuhn matches through the arena's `Match`, and the stratified interval of a mean.

use cardarena::play::registry::{BotSource, Loader};
use cardarena::stats::ratings::mean_ci95;
use cardarena::{LimitsConfig, Match, Replay};
use cardarena_games::Game;
use kuhn_arena::exact::deals;
use kuhn_arena::game::{Kuhn, Variant};

/// A seat of a match: a bot the arena's loader resolved, as `kuhn-arena play` resolves it (the
/// arena's `random`, Kuhn's own built-ins through `Hosted::builtin_bot`, a bot file).
pub struct Seat(BotSource);

impl Seat {
    /// The arena's loader's bot `name`.
    pub fn loaded(loader: &Loader, name: &str) -> Seat {
        Seat(loader.resolve::<Kuhn>(name).unwrap_or_else(|e| panic!("{name}: {e}")))
    }
}

/// One match of seed `seed` with `seats` in seat order, played by `cardarena::Match`.
pub fn play(seed: u64, seats: [&Seat; 2]) -> Replay {
    let mut table = Match::<Kuhn>::new(Variant::Standard, seed);
    for Seat(source) in seats {
        table = table.seat(source, &LimitsConfig::default());
    }
    table.play()
}

/// Seeds from `first` on, `per_deal` of each of the six deals (in the order of
/// [`deals`]): the strata of a duplicate measurement.
pub fn seeds_by_deal(per_deal: usize, first: u64) -> Vec<Vec<u64>> {
    let deals = deals();
    let mut strata = vec![Vec::with_capacity(per_deal); deals.len()];
    let mut seed = first;
    while strata.iter().any(|s| s.len() < per_deal) {
        let cards = Kuhn::deal(Variant::Standard, seed).cards;
        let k = deals.iter().position(|d| *d == cards).expect("a deal of two different cards");
        if strata[k].len() < per_deal {
            strata[k].push(seed);
        }
        seed += 1;
    }
    strata
}

/// The mean over the six equally likely deals of per-deal samples, and the half-width of its 95%
/// interval: the strata's means averaged, their standard errors combined.
pub fn stratified_ci95(samples: &[Vec<f64>]) -> (f64, f64) {
    let k = samples.len() as f64;
    let (mut mean, mut var) = (0.0, 0.0);
    for stratum in samples {
        let (m, half) = mean_ci95(stratum).expect("two samples or more per deal");
        mean += m / k;
        var += (half / 1.96 / k).powi(2);
    }
    (mean, 1.96 * var.sqrt())
}
