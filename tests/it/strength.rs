//! Guards on the built-in bots' strength, on fixed duplicate deals: each level of `strong` scores
//! above the level below it, and `strong` beats `greedy` (and holds `nash` in E-card). The deals,
//! seeds and counts are fixed, so the results are the same every run. They play hundreds of
//! matches with searching bots, hence here rather than among the library's unit tests (which
//! stay quick: `cargo test --lib`). The ratings on many more deals: `scripts/zoo.sh`
//! (docs/zoo.md); duels of any two bots: `examples/bot_strength.rs`.

use cardarena::bots::bot::{Bot, GreedyBot};
use cardarena::bots::{strong_level, Greedy};
use cardarena::games::blade::{self, Blade};
use cardarena::games::ecard::{self, Ecard};
use cardarena::games::intensity::{self, Intensity, PLAYERS};
use cardarena::games::lost_cities::{self, LostCities};
use cardarena::games::Seat;
use cardarena::play::duel::{duel, duel_with};
use cardarena::play::runner::BotEntry;
use cardarena::play::Hosted;
use cardarena::Match;

/// `strong:{upper}` against `strong:{lower}` on `deals` duplicate deals of `seed`, for each pair
/// of `pairs`: the upper level's mean points difference per match must be above zero.
fn two_player_levels_ordered<G: Hosted>(
    variant: G::Variant,
    pairs: &[(usize, usize)],
    seed: u64,
    deals: usize,
) {
    for &(upper, lower) in pairs {
        let (upper, lower) = (format!("strong:{upper}"), format!("strong:{lower}"));
        let d = duel::<G>(variant, &upper, &lower, seed, deals);
        eprintln!("{} {upper} vs {lower}: {d}", G::NAME);
        assert!(d.mean > 0.0, "{} {upper} does not beat {lower}: {d}", G::NAME);
    }
}

/// Levels 2 and 3 each against the one below; the default level 4 against level 3 on fewer
/// deals (its decisions take milliseconds even in a release build).
#[test]
fn blade_levels_are_ordered() {
    two_player_levels_ordered::<Blade>(blade::Variant::Readme, &[(2, 1), (3, 2)], 2026, 150);
    two_player_levels_ordered::<Blade>(blade::Variant::Readme, &[(4, 3)], 2026, 40);
}

#[test]
fn ecard_levels_are_ordered() {
    two_player_levels_ordered::<Ecard>(ecard::Variant::Readme, &[(2, 1), (3, 2)], 2026, 100);
    two_player_levels_ordered::<Ecard>(ecard::Variant::Manga, &[(2, 1), (3, 2)], 2026, 100);
}

#[test]
fn lost_cities_levels_are_ordered() {
    two_player_levels_ordered::<LostCities>(lost_cities::Variant::Classic, &[(2, 1), (3, 2)], 2026, 20);
}

/// One Intensity match dealt from `seed`: `strong` in seat `strong_seat`, `greedy` in the other
/// three. The points (penalty) of every seat.
fn intensity_points(
    seed: u64,
    strong_seat: Seat,
    strong: impl Fn(u64, Seat) -> Box<dyn Bot<Intensity>>,
) -> Vec<i64> {
    let entry = |name: &str| BotEntry { name: name.to_string(), hash: String::new() };
    let table = (0..PLAYERS).fold(Match::<Intensity>::new(intensity::Variant::Standard, seed), |t, seat| {
        if seat == strong_seat {
            t.seat_bot(entry("strong"), strong(seed, seat))
        } else {
            t.seat_bot(entry("greedy"), Box::new(GreedyBot::new(seed, seat)))
        }
    });
    table.play().outcome.points
}

/// Intensity seats four: each level plays against three `greedy` seats on the same deals (from
/// every seat), and its mean penalty must be below the level's below it.
#[test]
fn intensity_levels_are_ordered() {
    let penalty = |level: usize| -> f64 {
        let mut total = 0i64;
        for seed in 3000..3012u64 {
            for seat in 0..PLAYERS {
                let strong = |seed, s| strong_level::<Intensity>(seed, s, level).expect("a level");
                total += intensity_points(seed, seat, strong)[seat];
            }
        }
        total as f64 / (12 * PLAYERS) as f64
    };
    let mut below = penalty(1);
    for level in 2..=Intensity::strong_levels().len() {
        let p = penalty(level);
        eprintln!("intensity strong:{level}: mean penalty {p:.3} (strong:{}: {below:.3})", level - 1);
        assert!(
            p < below,
            "intensity strong:{level} takes {p:.3} penalty points, strong:{} {below:.3}",
            level - 1
        );
        below = p;
    }
}

/// The search beats greedy on the first 300 deals of seed 2026, at 30 determinizations (a debug
/// build is slow): the 95% interval of the mean per-deal points difference lies above zero, and
/// it wins more matches than it loses (the default level's margin is in docs/zoo.md).
#[test]
fn blade_strong_beats_greedy_on_fixed_deals() {
    let d =
        duel_with::<Blade>(blade::Variant::Readme, "strong (30)", "greedy", 2026, 300, |name, seed, seat| {
            match name {
                "greedy" => Box::new(GreedyBot::new(seed, seat)),
                _ => Blade::strong_bot(seed, seat, Some(30)).expect("Blade has a strong bot"),
            }
        });
    eprintln!("readme: strong (30 determinizations) vs greedy: {d}");
    assert!(d.low() > 0.0 && d.wdl[0] > d.wdl[2], "{d}");
}

/// In both variants, `strong` beats `greedy` (the 95% interval of the per-deal points difference
/// above zero, and more wins than losses), and does not lose to `nash`.
#[test]
fn ecard_strong_beats_greedy_and_holds_nash() {
    for variant in ecard::Variant::ALL {
        let d = duel::<Ecard>(variant, "strong", "greedy", 7, 300);
        eprintln!("{variant}: strong vs greedy: {d}");
        assert!(d.low() > 0.0 && d.wdl[0] > d.wdl[2], "{variant}: {d}");
        let d = duel::<Ecard>(variant, "strong", "nash", 7, 300);
        eprintln!("{variant}: strong vs nash: {d}");
        assert!(d.mean + d.half_width > 0.0 && d.wdl[0] + d.wdl[1] / 2 >= d.wdl[2], "{variant}: {d}");
    }
}

/// `strong` beats `greedy` in both seat orders on 60 deals of seed 7: the 95% interval of the
/// mean points difference lies above zero.
#[test]
fn lost_cities_strong_beats_greedy_on_fixed_deals() {
    let d = duel::<LostCities>(lost_cities::Variant::Classic, "strong", "greedy", 7, 60);
    eprintln!("lost-cities strong vs greedy: {d}");
    assert!(d.low() > 0.0, "{d}");
}

/// `strong` at 6 samples in one seat, `greedy` in the other three, on 40 deals with `strong` in
/// each seat in turn. Per deal: the table's mean greedy penalty minus strong's; its 95% interval
/// lies above zero.
#[test]
fn intensity_strong_beats_greedy_on_fixed_deals() {
    let mut diffs = Vec::new();
    for seed in 2000..2040u64 {
        let mut diff = 0.0;
        for strong_seat in 0..PLAYERS {
            let strong =
                |seed, seat| Intensity::strong_bot(seed, seat, Some(6)).expect("Intensity has a strong bot");
            let points = intensity_points(seed, strong_seat, strong);
            let others: i64 = (0..PLAYERS).filter(|&s| s != strong_seat).map(|s| points[s]).sum();
            diff += others as f64 / 3.0 - points[strong_seat] as f64;
        }
        diffs.push(diff / PLAYERS as f64);
    }
    let (mean, half) = cardarena::stats::ratings::mean_ci95(&diffs).expect("40 deals");
    eprintln!(
        "intensity strong (6 samples) vs 3 greedy, 40 deals x 4 seats: greedy - strong penalty {mean:+.2} ± {half:.2}"
    );
    assert!(mean - half > 0.0, "margin {mean:+.2} ± {half:.2}");
}
