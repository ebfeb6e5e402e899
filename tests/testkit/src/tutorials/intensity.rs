//! docs/tutorial/intensity.md's measurement: a step file at tables of three `greedy` bots, each
//! deal played four times with the step in each seat (tests/it/tutorials/intensity.rs and
//! `cargo run --release --example tutorial_measure -- intensity`). The deals are fixed
//! (`deal_seed(SEED, d)`), so a measurement is deterministic.

use std::path::PathBuf;

use cardarena::games::intensity::Intensity;
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::{self, BotSource, Loader};
use cardarena::play::runner::{run_match, MatchSpec, Quiet, Replay};
use cardarena::tournament::schedule::deal_seed;
use rayon::prelude::*;

/// The event seed of every measurement.
pub const SEED: u64 = 2026;
/// The step files, in order; the last one must beat greedy.
pub const STEPS: [&str; 5] = ["step1.lua", "step2.lua", "step3.lua", "step4.lua", "step5.lua"];

pub fn step_path(file: &str) -> String {
    let p = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../docs/tutorial/intensity").join(file);
    p.to_string_lossy().into_owned()
}

/// One game: `bot` in seat `bot_seat`, `greedy` in the three others, default limits.
fn play(bot: &BotSource, greedy: &BotSource, bot_seat: usize, seed: u64) -> Replay {
    let order: Vec<&BotSource> = (0..4).map(|s| if s == bot_seat { bot } else { greedy }).collect();
    let spec = MatchSpec::<Intensity> {
        variant: registry::variant::<Intensity>(None).expect("the default variant"),
        seed,
        entries: order.iter().map(|b| b.entry()).collect(),
    };
    let limits = LimitsConfig::default();
    let mut seats: Vec<_> =
        order.iter().enumerate().map(|(seat, b)| b.instantiate::<Intensity>(seed, seat, &limits)).collect();
    run_match(&spec, &mut seats, &mut Quiet)
}

/// What one bot did at tables of three greedy bots.
#[derive(Debug, Default)]
pub struct Measure {
    pub deals: usize,
    pub games: u32,
    /// Per deal: the bot's penalty minus the greedy seats' mean penalty, averaged over the four
    /// seats the bot took (negative: the bot took fewer points).
    pub diffs: Vec<f64>,
    pub bot_points: i64,
    pub greedy_points: i64,
    pub bot_places: u32,
    pub greedy_places: u32,
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
        let g = f64::from(self.games);
        format!(
            "{name}: {} deals ({} games), mean penalty {:.3} vs greedy seats {:.3}, difference per deal \
             {:+.3} (95% CI {:+.3} .. {:+.3}), mean place {:.3} vs {:.3}, faults {}, fuel/decision mean {:.0} max {}",
            self.deals,
            self.games,
            self.bot_points as f64 / g,
            self.greedy_points as f64 / (3.0 * g),
            self.mean(),
            lo,
            hi,
            f64::from(self.bot_places) / g,
            f64::from(self.greedy_places) / (3.0 * g),
            self.faults,
            self.fuel_sum as f64 / self.decisions.max(1) as f64,
            self.fuel_max,
        )
    }
}

/// Plays `bot` with three greedy bots on deals `0..deals` of event seed `SEED`, in every seat.
pub fn measure(bot: &str, deals: u32) -> Measure {
    let loader = Loader::new();
    let bot = loader.resolve::<Intensity>(bot).unwrap_or_else(|e| panic!("{e:#}"));
    let greedy = loader.resolve::<Intensity>("greedy").expect("built-in");
    let tables: Vec<Vec<Replay>> = (0..deals)
        .into_par_iter()
        .map(|d| {
            let seed = deal_seed(SEED, d);
            (0..4).map(|seat| play(&bot, &greedy, seat, seed)).collect()
        })
        .collect();
    let mut m = Measure { deals: deals as usize, ..Measure::default() };
    for table in &tables {
        let mut diff = 0.0;
        for (bot_seat, r) in table.iter().enumerate() {
            let mine = r.outcome.points[bot_seat];
            let theirs: i64 = (0..4).filter(|&s| s != bot_seat).map(|s| r.outcome.points[s]).sum();
            diff += mine as f64 - theirs as f64 / 3.0;
            m.games += 1;
            m.bot_points += mine;
            m.greedy_points += theirs;
            m.bot_places += r.outcome.ranks[bot_seat];
            m.greedy_places += (0..4).filter(|&s| s != bot_seat).map(|s| r.outcome.ranks[s]).sum::<u32>();
            m.faults += r.faults[bot_seat].len();
            for d in r.decisions.iter().filter(|d| d.seat == bot_seat) {
                if let Some(f) = d.fuel {
                    m.fuel_sum += f;
                    m.fuel_max = m.fuel_max.max(f);
                    m.decisions += 1;
                }
            }
        }
        m.diffs.push(diff / 4.0);
    }
    m
}
