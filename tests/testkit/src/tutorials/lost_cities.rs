//! docs/tutorial/lost-cities.md's measurement: a step file against `greedy` over duplicate deals,
//! each deal played in both seat orders (tests/it/tutorials/lost_cities.rs and `cargo run
//! --release --example tutorial_measure -- lost-cities`). The deals are fixed
//! (`deal_seed(SEED, d)`, as a tournament with `seed = SEED` would play them), so a measurement is
//! deterministic.

use std::path::PathBuf;

use cardarena::games::lost_cities::LostCities;
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::{self, BotSource, Loader};
use cardarena::play::runner::{run_match, MatchSpec, Quiet, Replay};
use cardarena::tournament::schedule::deal_seed;
use rayon::prelude::*;

/// The event seed of every measurement (docs/tutorial/lost-cities/vs-greedy.toml uses it too).
pub const SEED: u64 = 2026;
/// The step files, in order; the last one must beat greedy.
pub const STEPS: [&str; 5] = ["step1.lua", "step2.lua", "step3.lua", "step4.lua", "step5.lua"];

pub fn step_path(file: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/tutorial/lost-cities").join(file);
    p.to_string_lossy().into_owned()
}

/// One match of `bots[0]` (seat `bot_seat`) against `bots[1]` (the other seat), default limits.
fn play(bots: [&BotSource; 2], bot_seat: usize, seed: u64) -> Replay {
    let order = if bot_seat == 0 { [bots[0], bots[1]] } else { [bots[1], bots[0]] };
    let spec = MatchSpec::<LostCities> {
        variant: registry::variant::<LostCities>(None).expect("the default variant"),
        seed,
        entries: order.iter().map(|b| b.entry()).collect(),
    };
    let limits = LimitsConfig::default();
    let mut seats: Vec<_> =
        order.iter().enumerate().map(|(seat, b)| b.instantiate::<LostCities>(seed, seat, &limits)).collect();
    run_match(&spec, &mut seats, &mut Quiet)
}

/// What one bot did against greedy over duplicate deals.
#[derive(Debug, Default)]
pub struct Measure {
    pub deals: usize,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
    /// Per deal: the bot's score minus greedy's, averaged over the two seat orders.
    pub diffs: Vec<f64>,
    pub bot_points: i64,
    pub greedy_points: i64,
    pub faults: usize,
    pub fuel_sum: u64,
    pub fuel_max: u64,
    pub decisions: u64,
}

impl Measure {
    pub fn mean(&self) -> f64 {
        self.diffs.iter().sum::<f64>() / self.diffs.len() as f64
    }

    /// The 95% interval of the mean difference per deal (normal approximation).
    pub fn interval(&self) -> (f64, f64) {
        let (m, half) = cardarena::stats::ratings::mean_ci95(&self.diffs).expect("many deals");
        (m - half, m + half)
    }

    pub fn report(&self, name: &str) -> String {
        let (lo, hi) = self.interval();
        let matches = f64::from(self.wins + self.draws + self.losses);
        format!(
            "{name}: {} deals ({} matches), W-D-L {}-{}-{}, mean score {:.1} vs greedy {:.1}, \
             difference per deal {:+.2} (95% CI {:+.2} .. {:+.2}), faults {}, fuel/decision mean {:.0} max {}",
            self.deals,
            matches,
            self.wins,
            self.draws,
            self.losses,
            self.bot_points as f64 / matches,
            self.greedy_points as f64 / matches,
            self.mean(),
            lo,
            hi,
            self.faults,
            self.fuel_sum as f64 / self.decisions.max(1) as f64,
            self.fuel_max,
        )
    }
}

/// Plays `bot` against greedy on deals `0..deals` of event seed `SEED`, in both seat orders.
pub fn measure(bot: &str, deals: u32) -> Measure {
    let loader = Loader::new();
    let bot = loader.resolve::<LostCities>(bot).unwrap_or_else(|e| panic!("{e:#}"));
    let greedy = loader.resolve::<LostCities>("greedy").expect("built-in");
    let pairs: Vec<[Replay; 2]> = (0..deals)
        .into_par_iter()
        .map(|d| {
            let seed = deal_seed(SEED, d);
            [play([&bot, &greedy], 0, seed), play([&bot, &greedy], 1, seed)]
        })
        .collect();
    let mut m = Measure { deals: deals as usize, ..Measure::default() };
    for pair in &pairs {
        let mut diff = 0;
        for (bot_seat, r) in pair.iter().enumerate() {
            let (mine, theirs) = (r.outcome.points[bot_seat], r.outcome.points[1 - bot_seat]);
            diff += mine - theirs;
            m.bot_points += mine;
            m.greedy_points += theirs;
            match (r.outcome.ranks[bot_seat], r.outcome.ranks[1 - bot_seat]) {
                (1, 1) => m.draws += 1,
                (1, _) => m.wins += 1,
                _ => m.losses += 1,
            }
            m.faults += r.faults[bot_seat].len();
            for d in r.decisions.iter().filter(|d| d.seat == bot_seat) {
                if let Some(f) = d.fuel {
                    m.fuel_sum += f;
                    m.fuel_max = m.fuel_max.max(f);
                    m.decisions += 1;
                }
            }
        }
        m.diffs.push(diff as f64 / 2.0);
    }
    m
}
