//! docs/tutorial/ecard.md: every step plays E-card without faults, and the last step beats
//! `greedy` (and `random`) over duplicate deals.

use std::path::PathBuf;

use cardarena::games::ecard::{Ecard, Variant};
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::{BotSource, Loader};
use cardarena::play::runner::{run_match, MatchSpec, Quiet, Replay};
use cardarena::tournament::schedule::deal_seed;

const STEPS: [&str; 4] = [
    "docs/tutorial/ecard/step1.lua",
    "docs/tutorial/ecard/step2.lua",
    "docs/tutorial/ecard/step3.lua",
    "docs/tutorial/ecard/step4.lua",
];

/// The same steps in Python (`python.rs` checks they play as the Lua ones).
const PY_STEPS: [&str; 4] = [
    "docs/tutorial/ecard/step1.py",
    "docs/tutorial/ecard/step2.py",
    "docs/tutorial/ecard/step3.py",
    "docs/tutorial/ecard/step4.py",
];

fn resolve(loader: &Loader, name: &str) -> BotSource {
    let name = if name.ends_with(".lua") || name.ends_with(".py") {
        PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(name).to_string_lossy().into_owned()
    } else {
        name.to_string()
    };
    loader.resolve::<Ecard>(&name).unwrap_or_else(|e| panic!("{name}: {e:#}"))
}

/// One match with the default limits; `sources` in seat order.
fn play(variant: Variant, seed: u64, sources: [&BotSource; 2]) -> Replay {
    let limits = LimitsConfig::default();
    let spec = MatchSpec::<Ecard> { variant, seed, entries: sources.iter().map(|s| s.entry()).collect() };
    let mut bots: Vec<_> =
        sources.iter().enumerate().map(|(seat, s)| s.instantiate::<Ecard>(seed, seat, &limits)).collect();
    let replay = run_match(&spec, &mut bots, &mut Quiet);
    for (seat, faults) in replay.faults.iter().enumerate() {
        assert!(faults.is_empty(), "{variant} seed {seed}: seat {seat} faulted: {faults:?}");
    }
    replay
}

/// The score of the bot in `seat`: 1 win, 1/2 draw, 0 loss (the match's ranks).
fn score(replay: &Replay, seat: usize) -> f64 {
    let ranks = &replay.outcome.ranks;
    match ranks[seat].cmp(&ranks[1 - seat]) {
        std::cmp::Ordering::Less => 1.0,
        std::cmp::Ordering::Equal => 0.5,
        std::cmp::Ordering::Greater => 0.0,
    }
}

/// `bot` against `opponent` on deals 0..deals of event seed 1 (as in
/// docs/tutorial/ecard/vs-greedy.toml), both seat orders: the bot's mean score per deal and
/// the lower end of its 95% interval.
fn duplicate(bot: &str, opponent: &str, deals: u32) -> (f64, f64) {
    let loader = Loader::new();
    let (bot, opponent) = (resolve(&loader, bot), resolve(&loader, opponent));
    let scores: Vec<f64> = (0..deals)
        .map(|deal| {
            let seed = deal_seed(1, deal);
            let first = play(Variant::Readme, seed, [&bot, &opponent]);
            let second = play(Variant::Readme, seed, [&opponent, &bot]);
            (score(&first, 0) + score(&second, 1)) / 2.0
        })
        .collect();
    let (mean, half) = cardarena::stats::ratings::mean_ci95(&scores).expect("many deals");
    (mean, mean - half)
}

#[test]
fn every_step_plays_both_variants_and_seats_without_faults() {
    let loader = Loader::new();
    for step in STEPS {
        let bot = resolve(&loader, step);
        for opponent in ["greedy", "random"] {
            let opponent = resolve(&loader, opponent);
            for variant in [Variant::Readme, Variant::Manga] {
                for seed in 0..2 {
                    for seat in 0..2 {
                        let seats = if seat == 0 { [&bot, &opponent] } else { [&opponent, &bot] };
                        let replay = play(variant, seed, seats);
                        assert!(replay.decisions.iter().any(|d| d.seat == seat), "{step} never decided");
                    }
                }
            }
        }
    }
}

/// The tutorial's claims about steps 1-3 against greedy (its "Results" table), on 50 fixed deals
/// (both seat orders each). Deals and seeds are fixed, so the scores are exact.
#[test]
fn steps_do_what_the_tutorial_says_against_greedy() {
    for steps in [STEPS, PY_STEPS] {
        // Step 1 shows its special card at once: greedy wins every match.
        let (mean, _) = duplicate(steps[0], "greedy", 50);
        assert_eq!(mean, 0.0, "{}", steps[0]);
        // Step 2 never shows its special card while it holds a Citizen: it wins every match.
        let (mean, _) = duplicate(steps[1], "greedy", 50);
        assert_eq!(mean, 1.0, "{}", steps[1]);
        // Step 3, the best reply to a random opponent, never beats greedy: half lost, half drawn.
        let (mean, _) = duplicate(steps[2], "greedy", 50);
        assert_eq!(mean, 0.25, "{}", steps[2]);
    }
}

/// The last step beats greedy, and random too, with the 95% interval above one half (the
/// figures are in docs/tutorial/ecard.md, "Results").
#[test]
fn last_step_beats_greedy_and_random() {
    let (mean, low) = duplicate(STEPS[3], "greedy", 200);
    assert!(mean > 0.9 && low > 0.5, "step 4 vs greedy: {mean:.3} (low {low:.3})");
    let (mean, low) = duplicate(STEPS[3], "random", 200);
    assert!(mean > 0.65 && low > 0.5, "step 4 vs random: {mean:.3} (low {low:.3})");
    // The Python step on fewer deals (it plays as the Lua one: `python.rs`).
    let (mean, low) = duplicate(PY_STEPS[3], "greedy", 50);
    assert!(mean > 0.9 && low > 0.5, "step4.py vs greedy: {mean:.3} (low {low:.3})");
}

/// The tutorial's measuring command, `arena tournament docs/tutorial/ecard/vs-greedy.toml`,
/// works from a checkout: the file parses, every bot in it loads, and its deals are the ones
/// these tests play (event seed 1).
#[test]
fn tournament_file_loads_every_step() {
    let file = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("docs/tutorial/ecard/vs-greedy.toml");
    let config = cardarena::tournament::config::load(&file, &cardarena::Games::builtin())
        .unwrap_or_else(|e| panic!("{e:#}"));
    let loader = Loader::new();
    for event in &config.events {
        assert_eq!(event.game, "ecard");
        assert_eq!(event.seed, 1, "the tests measure the deals of event seed 1");
        for bot in &event.bot_paths {
            loader.resolve::<Ecard>(bot).unwrap_or_else(|e| panic!("{bot}: {e:#}"));
        }
    }
    assert!(config.events.iter().any(|e| e.deals >= 1000), "the tutorial reports 1000 deals");
}
