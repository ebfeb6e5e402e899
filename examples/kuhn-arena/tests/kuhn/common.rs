//! Playing Kuhn matches through the arena's `Match`, and the stratified interval of a mean.

use cardarena::bots::bot::{builtin_hash, Bot};
use cardarena::play::registry::{BotSource, Loader};
use cardarena::play::runner::BotEntry;
use cardarena::stats::ratings::mean_ci95;
use cardarena::{LimitsConfig, Match, Replay};
use cardarena_games::Game;
use kuhn_arena::exact::deals;
use kuhn_arena::game::{Kuhn, Variant};
use kuhn_arena::host::builtin_bot;

/// A seat of a match: a bot the arena's loader resolved (a built-in of the arena, a file), or
/// one of Kuhn's built-ins by name.
pub enum Seat {
    /// Through [`Match::seat`], as `kuhn-arena play` seats it.
    Loaded(BotSource),
    /// A name of [`builtin_bot`], seated with [`Match::seat_bot`].
    Kuhn(&'static str),
}

impl Seat {
    /// The arena's loader's bot `name` (a built-in it knows, a path).
    pub fn loaded(loader: &Loader, name: &str) -> Seat {
        Seat::Loaded(loader.resolve::<Kuhn>(name).unwrap_or_else(|e| panic!("{name}: {e}")))
    }
}

/// One match of seed `seed` with `seats` in seat order, played by `cardarena::Match`.
pub fn play(seed: u64, seats: [&Seat; 2]) -> Replay {
    let mut table = Match::<Kuhn>::new(Variant::Standard, seed);
    for (seat, bot) in seats.into_iter().enumerate() {
        table = match bot {
            Seat::Loaded(source) => table.seat(source, &LimitsConfig::default()),
            Seat::Kuhn(name) => {
                let bot: Box<dyn Bot<Kuhn>> =
                    builtin_bot(name, seed, seat).expect("a Kuhn built-in").expect("a valid Kuhn built-in");
                table.seat_bot(BotEntry { name: name.to_string(), hash: builtin_hash(name) }, bot)
            }
        };
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
