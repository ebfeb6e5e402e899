//! docs/tutorial/blade.md: every step plays Blade without faults, and the last step,
//! example_bots/lua/blade_montecarlo.lua, beats `greedy` over duplicate deals.

use std::path::PathBuf;

use cardarena::games::blade::{Blade, Variant};
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::{BotSource, Loader};
use cardarena::play::runner::{run_match, MatchSpec, Quiet, Replay};
use cardarena::tournament::schedule::deal_seed;

const STEPS: [&str; 4] = [
    "docs/tutorial/blade/step1.lua",
    "docs/tutorial/blade/step2.lua",
    "docs/tutorial/blade/step3.lua",
    "example_bots/lua/blade_montecarlo.lua",
];

fn path(file: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(file).to_string_lossy().into_owned()
}

fn resolve(loader: &Loader, name: &str) -> BotSource {
    loader.resolve::<Blade>(name).unwrap_or_else(|e| panic!("{name}: {e:#}"))
}

/// One match with the default limits; `sources` in seat order.
fn play(variant: Variant, seed: u64, sources: [&BotSource; 2]) -> Replay {
    let limits = LimitsConfig::default();
    let spec = MatchSpec::<Blade> { variant, seed, entries: sources.iter().map(|s| s.entry()).collect() };
    let mut bots: Vec<_> =
        sources.iter().enumerate().map(|(seat, s)| s.instantiate::<Blade>(seed, seat, &limits)).collect();
    run_match(&spec, &mut bots, &mut Quiet)
}

/// `bot`'s score in a match where it sat in `seat`: 1 win, 1/2 draw, 0 loss.
fn score(replay: &Replay, seat: usize) -> f64 {
    let ranks = &replay.outcome.ranks;
    match ranks[seat].cmp(&ranks[1 - seat]) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    }
}

fn assert_no_faults(replay: &Replay, what: &str) {
    for (seat, faults) in replay.faults.iter().enumerate() {
        assert!(faults.is_empty(), "{what}: seat {seat} faulted: {faults:?}");
    }
}

#[test]
fn every_step_plays_both_variants_and_seats_without_faults() {
    let loader = Loader::new();
    let greedy = resolve(&loader, "greedy");
    for step in STEPS {
        let bot = resolve(&loader, &path(step));
        for variant in [Variant::Readme, Variant::Controller] {
            for seed in 0..2 {
                for seat in 0..2 {
                    let seats = if seat == 0 { [&bot, &greedy] } else { [&greedy, &bot] };
                    let replay = play(variant, seed, seats);
                    assert_no_faults(&replay, &format!("{step} {variant} seed {seed} seat {seat}"));
                    assert!(replay.decisions.iter().any(|d| d.seat == seat), "{step} never decided");
                }
            }
        }
    }
}

/// The Monte-Carlo bot against greedy on deals 0..DEALS of event seed 1 (the deals of
/// docs/tutorial/blade/vs-greedy.toml), each played in both seat orders. Returns the bot's
/// score per deal (0, 1/2 or 1: the mean of its two matches) and the fuel of every decision.
fn montecarlo_vs_greedy(deals: u32) -> (Vec<f64>, Vec<u64>) {
    let loader = Loader::new();
    let bot = resolve(&loader, &path("example_bots/lua/blade_montecarlo.lua"));
    let greedy = resolve(&loader, "greedy");
    let play_deal = |deal: u32| {
        let seed = deal_seed(1, deal);
        let first = play(Variant::Readme, seed, [&bot, &greedy]);
        let second = play(Variant::Readme, seed, [&greedy, &bot]);
        assert_no_faults(&first, &format!("deal {deal}"));
        assert_no_faults(&second, &format!("deal {deal}"));
        let fuel: Vec<u64> = [(&first, 0), (&second, 1)]
            .iter()
            .flat_map(|(r, seat)| r.decisions.iter().filter(|d| d.seat == *seat).filter_map(|d| d.fuel))
            .collect();
        ((score(&first, 0) + score(&second, 1)) / 2.0, fuel)
    };
    // Two threads, each a fixed half of the deals: the results do not depend on timing.
    let halves: Vec<Vec<(f64, Vec<u64>)>> = std::thread::scope(|scope| {
        let handles: Vec<_> = (0..2u32)
            .map(|half| scope.spawn(move || (0..deals).filter(|d| d % 2 == half).map(play_deal).collect()))
            .collect();
        handles.into_iter().map(|h| h.join().expect("no panic")).collect()
    });
    let mut scores = Vec::new();
    let mut fuel = Vec::new();
    for (s, f) in halves.into_iter().flatten() {
        scores.push(s);
        fuel.extend(f);
    }
    (scores, fuel)
}

/// The tutorial's last step: the Monte-Carlo bot beats greedy on 200 fixed deals, within its own
/// fuel cap. The deals are fixed, so the test is deterministic; the thresholds sit below the
/// score over 1000 deals (docs/tutorial/blade.md, "Results").
#[test]
fn montecarlo_beats_greedy_within_the_default_fuel() {
    let (scores, fuel) = montecarlo_vs_greedy(200);
    let n = scores.len();
    let (mean, half) = cardarena::stats::ratings::mean_ci95(&scores).expect("many deals");
    let low = mean - half;
    eprintln!("blade_montecarlo vs greedy: {mean:.3} over {n} deals, 95% lower bound {low:.3}");
    assert!(mean > 0.53, "mean score {mean:.3} (95% lower bound {low:.3})");
    assert!(low > 0.5, "the 95% interval of the mean score {mean:.3} reaches 0.5: {low:.3}");
    // Default limits: 5,000,000 per decision and 50,000,000 per match (docs/sandbox.md).
    let max = fuel.iter().max().copied().unwrap_or(0);
    assert!(max <= 2_500_000, "a decision used {max} fuel, more than the bot's own cap");
}

/// The tutorial's measuring command, `arena tournament docs/tutorial/blade/vs-greedy.toml`,
/// works from a checkout: the file parses, every bot in it loads, and its deals are the ones
/// these tests play (event seed 1).
#[test]
fn tournament_file_loads_every_step() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/tutorial/blade/vs-greedy.toml");
    let config = cardarena::tournament::config::load(&file, &cardarena::Games::builtin())
        .unwrap_or_else(|e| panic!("{e:#}"));
    let loader = Loader::new();
    for event in &config.events {
        assert_eq!(event.game, "blade");
        assert_eq!(event.seed, 1, "the tests measure the deals of event seed 1");
        for bot in &event.bot_paths {
            loader.resolve::<Blade>(bot).unwrap_or_else(|e| panic!("{bot}: {e:#}"));
        }
    }
    assert!(config.events.iter().any(|e| e.deals >= 1000), "the tutorial reports 1000 deals");
}
