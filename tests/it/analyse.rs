//! `arena analyse`: the analysis of a seat's decisions depends on that seat's observations only
//! (the honesty property), finds planted mistakes, agrees with E-card's equilibrium, and the
//! command's output (text and `--json`) is the same bytes at any thread count.

use std::path::Path;
use std::process::{Command, Output};

use proptest::prelude::*;
use serde_json::Value;

use cardarena::analyse::planted::{describe, measure};
use cardarena::analyse::{analyse, Analyse};
use cardarena::games::blade::Blade;
use cardarena::games::intensity::Intensity;
use cardarena::games::lost_cities::LostCities;
use cardarena::games::{Game, Observation, Seat};
use cardarena::play::resim::walk;
use cardarena::play::runner::{DecisionRecord, Replay};
use cardarena::{Arena, GameId};

fn greedy_replay(game: GameId, seed: u64) -> Replay {
    let bots = vec!["greedy"; game.players()];
    Arena::new().play(game, seed, &bots).expect("greedy plays")
}

// ---- honesty -------------------------------------------------------------------------------

/// JSON pointers to every card of a deal: the strings and numbers inside its arrays.
fn card_pointers(v: &Value, at: String, inside: bool, out: &mut Vec<String>) {
    match v {
        Value::Object(m) => {
            for (k, x) in m {
                card_pointers(x, format!("{at}/{k}"), false, out);
            }
        }
        Value::Array(xs) => {
            for (i, x) in xs.iter().enumerate() {
                card_pointers(x, format!("{at}/{i}"), true, out);
            }
        }
        Value::String(_) | Value::Number(_) if inside => out.push(at),
        _ => {}
    }
}

/// The match dealt from `deal` in which the first `keep` decisions are `base`'s, the rest each
/// seat's first legal action; `None` when one of `base`'s moves is not legal in it.
fn rebuild<G: Game>(base: &Replay, deal: &Value, keep: usize) -> Option<Replay> {
    let mut g = G::from_setup(serde_json::from_value(deal.clone()).ok()?).ok()?;
    let mut decisions = Vec::new();
    while !g.is_over() {
        let seats = g.to_act();
        let legal: Vec<Vec<String>> = seats.iter().map(|&s| g.observe(s).legal().to_vec()).collect();
        for (k, &seat) in seats.iter().enumerate() {
            let i = decisions.len();
            let action = if i < keep {
                let d = base.decisions.get(i)?;
                (d.seat == seat).then_some(())?;
                d.played.clone()?
            } else {
                legal[k][0].clone()
            };
            g.play(seat, &action).ok()?;
            decisions.push(DecisionRecord {
                seat,
                legal: legal[k].clone(),
                reply: Some(action.clone()),
                played: Some(action),
                fuel: None,
                fault: None,
                log: Vec::new(),
            });
        }
    }
    Some(Replay {
        deal: deal.clone(),
        decisions,
        faults: vec![Vec::new(); G::PLAYERS],
        outcome: g.outcome()?,
        ..base.clone()
    })
}

/// `seat`'s observations (JSON) at its decisions before `keep`.
fn seen<G: Game>(replay: &Replay, seat: Seat, keep: usize) -> Vec<String> {
    let w = walk::<G>(replay, "test").expect("a consistent replay");
    let mut out = Vec::new();
    for p in &w.points {
        for (k, &s) in p.seats.iter().enumerate() {
            if s == seat && p.first + k < keep {
                out.push(serde_json::to_string(&p.before.observe(seat)).unwrap());
            }
        }
    }
    out
}

/// The analysis JSON of `seat`'s decisions before `keep`.
fn analysed<G: Analyse>(replay: &Replay, seat: Seat, keep: usize) -> String {
    let a = analyse::<G>(replay, "test", seat, Some(3)).expect("analyses");
    let kept: Vec<_> = a.decisions.iter().filter(|d| d.decision < keep).collect();
    serde_json::to_string(&kept).unwrap()
}

/// Swaps cards of a greedy match's deal (each swap kept when `seat`'s observations at its
/// decisions before `keep` stay the same and the first `keep` moves stay legal: another deal of
/// the same information set), plays the rest of the match differently, and requires the same
/// analysis of those decisions. Returns how many swaps were kept.
fn hidden_cards_do_not_matter<G: Analyse>(
    game: GameId,
    seed: u64,
    seat: Seat,
    keep_share: f64,
    swaps: &[(usize, usize)],
) -> Result<usize, TestCaseError> {
    let base = greedy_replay(game, seed);
    let keep = ((base.decisions.len() as f64 * keep_share) as usize).max(1);
    let want = seen::<G>(&base, seat, keep);
    let mut pointers = Vec::new();
    card_pointers(&base.deal, String::new(), false, &mut pointers);
    let mut deal = base.deal.clone();
    let mut kept = 0;
    for &(i, j) in swaps {
        let (a, b) = (&pointers[i % pointers.len()], &pointers[j % pointers.len()]);
        let mut next = deal.clone();
        let x = next.pointer(a).cloned().unwrap();
        let y = std::mem::replace(next.pointer_mut(b).unwrap(), x.clone());
        *next.pointer_mut(a).unwrap() = y.clone();
        if x == y {
            continue;
        }
        let Some(other) = rebuild::<G>(&base, &next, keep) else { continue };
        if seen::<G>(&other, seat, keep) == want {
            deal = next;
            kept += 1;
        }
    }
    if kept > 0 {
        let other = rebuild::<G>(&base, &deal, keep).expect("kept swaps rebuild");
        prop_assert_ne!(&other.deal, &base.deal);
        prop_assert_eq!(analysed::<G>(&other, seat, keep), analysed::<G>(&base, seat, keep));
    }
    Ok(kept)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 12, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn blade_analysis_sees_only_the_seats_observations(
        seed in 0u64..1000, seat in 0usize..2, keep in 0.3f64..1.0,
        swaps in prop::collection::vec((0usize..64, 0usize..64), 100..200),
    ) {
        let kept = hidden_cards_do_not_matter::<Blade>(GameId::of::<cardarena::games::blade::Blade>(), seed, seat, keep, &swaps)?;
        prop_assume!(kept > 0);
    }

    #[test]
    fn lost_cities_analysis_sees_only_the_seats_observations(
        seed in 0u64..1000, seat in 0usize..2, keep in 0.2f64..0.6,
        swaps in prop::collection::vec((0usize..60, 0usize..60), 100..200),
    ) {
        let kept = hidden_cards_do_not_matter::<LostCities>(GameId::of::<cardarena::games::lost_cities::LostCities>(), seed, seat, keep, &swaps)?;
        prop_assume!(kept > 0);
    }

    #[test]
    fn intensity_analysis_sees_only_the_seats_observations(
        seed in 0u64..1000, seat in 0usize..4, keep in 0.0f64..0.7,
        swaps in prop::collection::vec((0usize..40, 0usize..40), 100..200),
    ) {
        let kept = hidden_cards_do_not_matter::<Intensity>(GameId::of::<cardarena::games::intensity::Intensity>(), seed, seat, keep, &swaps)?;
        prop_assume!(kept > 0);
    }
}

/// The test can fail: the analysis of a seat whose observation changed (its own hand swapped
/// with an opponent's card) does change.
#[test]
fn a_change_the_seat_sees_changes_the_analysis() {
    let base = greedy_replay(GameId::of::<cardarena::games::blade::Blade>(), 3);
    let mut pointers = Vec::new();
    card_pointers(&base.deal, String::new(), false, &mut pointers);
    let keep = base.decisions.len();
    let want = analysed::<Blade>(&base, 0, keep);
    let seen0 = seen::<Blade>(&base, 0, keep);
    let mut changed = 0;
    for i in 0..pointers.len() {
        for j in i + 1..pointers.len() {
            let mut next = base.deal.clone();
            let x = next.pointer(&pointers[i]).cloned().unwrap();
            let y = std::mem::replace(next.pointer_mut(&pointers[j]).unwrap(), x.clone());
            *next.pointer_mut(&pointers[i]).unwrap() = y;
            let Some(other) = rebuild::<Blade>(&base, &next, 0) else { continue };
            if seen::<Blade>(&other, 0, other.decisions.len()) != seen0 {
                changed += 1;
                if analysed::<Blade>(&other, 0, other.decisions.len()) != want {
                    return;
                }
            }
        }
        if changed > 20 {
            break;
        }
    }
    panic!("no deal that seat 0 sees differently changed its analysis ({changed} tried)");
}

// ---- planted mistakes ----------------------------------------------------------------------

/// Small versions of `examples/analyse_marks.rs` (which measures the rates over many deals at
/// the default budgets): most planted mistakes that really lose are found, and greedy's own
/// decisions are rarely marked.
fn planted_are_found<G: Analyse + cardarena::play::Hosted + cardarena::bots::Greedy>(
    deals: u64,
    budget: u32,
) {
    let r = measure::<G>(1, deals, budget);
    eprintln!("{}", describe::<G>(&r));
    assert!(r.losing >= (deals as usize / 5).max(1), "{}: too few planted mistakes lose: {r:?}", G::NAME);
    assert!(r.found * 10 >= r.losing * 7, "{}: planted mistakes found too rarely: {r:?}", G::NAME);
    assert!(r.greedy_marked * 5 <= r.greedy_decisions, "{}: greedy marked too often: {r:?}", G::NAME);
}

#[test]
fn blade_planted_mistakes_are_found() {
    planted_are_found::<Blade>(12, 100);
}

#[test]
fn lost_cities_planted_mistakes_are_found() {
    planted_are_found::<LostCities>(4, 6);
}

#[test]
fn intensity_planted_mistakes_are_found() {
    planted_are_found::<Intensity>(24, 60);
}

// ---- E-card --------------------------------------------------------------------------------

/// E-card's values are exact against the `nash` equilibrium: the equilibrium's own choices lose
/// nothing, in both variants, and both cards of a mixed play are worth the same.
#[test]
fn ecard_values_agree_with_the_nash_equilibrium() {
    for variant in ["readme", "manga"] {
        for seed in 0..4 {
            let replay = Arena::new()
                .play_variant(
                    GameId::of::<cardarena::games::ecard::Ecard>(),
                    Some(variant),
                    seed,
                    &["nash", "greedy"],
                )
                .expect("plays");
            for seat in 0..2 {
                let a = analyse::<cardarena::games::ecard::Ecard>(&replay, "test", seat, None).unwrap();
                assert!(!a.decisions.is_empty());
                if seat == 0 {
                    assert_eq!(a.total_loss, 0.0, "{variant} {seed}: nash loses {}", a.total_loss);
                }
                for d in &a.decisions {
                    assert!(d.values.values().all(|e| e.se == 0.0), "exact values");
                    if seat == 0 {
                        let v: Vec<f64> = d.values.values().map(|e| e.value).collect();
                        assert!(v.windows(2).all(|w| w[0] == w[1]), "{variant} #{}: {v:?}", d.decision);
                    }
                }
            }
        }
    }
}

// ---- the command ---------------------------------------------------------------------------

fn arena(args: &[&str], threads: &str) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(args)
        .env("RAYON_NUM_THREADS", threads)
        .output()
        .expect("arena runs")
}

/// `arena analyse` on a replay of every game: the JSON's shape, and the same bytes on one thread
/// and on four.
#[test]
fn the_command_prints_the_same_bytes_at_any_thread_count() {
    let dir = std::env::temp_dir().join(format!("cardarena-analyse-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for game in cardarena::Games::builtin().ids() {
        let path = dir.join(format!("{}.json", game.name()));
        let replay = greedy_replay(game, 11);
        std::fs::write(&path, serde_json::to_string(&replay).unwrap()).unwrap();
        let p = path.to_str().unwrap();
        let json = arena(&["analyse", p, "--seat", "1", "--json", "--budget", "8"], "1");
        assert!(json.status.success(), "{}", String::from_utf8_lossy(&json.stderr));
        assert_eq!(json.stdout, arena(&["analyse", p, "--seat", "1", "--json", "--budget", "8"], "4").stdout);
        let v: Value = serde_json::from_slice(&json.stdout).unwrap();
        let mut keys: Vec<&str> = v.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["decisions", "game", "seat", "total_loss", "variant"], "{}", game.name());
        let d = &v["decisions"][0];
        let mut keys: Vec<&str> = d.as_object().unwrap().keys().map(String::as_str).collect();
        keys.sort_unstable();
        assert_eq!(keys, ["best", "chosen", "decision", "loss", "mark", "values"]);
        let chosen = d["chosen"].as_str().unwrap();
        assert!(d["values"][chosen]["value"].is_number() && d["values"][chosen]["se"].is_number());
        let text = arena(&["analyse", p, "--seat", "1", "--budget", "8"], "2");
        let text = String::from_utf8(text.stdout).unwrap();
        assert!(text.contains("decisions with a choice, total expected loss"), "{text}");
    }
    let bad = arena(&["analyse", dir.join("blade.json").to_str().unwrap(), "--seat", "2"], "1");
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("seats 0 to 1"));
    let missing = arena(&["analyse", Path::new("/nonexistent.json").to_str().unwrap(), "--seat", "0"], "1");
    assert!(String::from_utf8_lossy(&missing.stderr).contains("nonexistent.json"));
    std::fs::remove_dir_all(&dir).ok();
}

/// `arena check BOT --analyse N`: the bot's decisions in its first N matches, analysed, and its
/// costly situations listed.
#[test]
fn check_lists_the_bots_costly_situations() {
    let bot = Path::new(env!("CARGO_MANIFEST_DIR")).join("example_bots/lua/lost-cities_greedy.lua");
    let o = arena(
        &[
            "check",
            bot.to_str().unwrap(),
            "--game",
            "lost-cities",
            "--deals",
            "1",
            "--against",
            "greedy",
            "--analyse",
            "1",
        ],
        "2",
    );
    let text = String::from_utf8(o.stdout).unwrap();
    assert!(o.status.success(), "{text}{}", String::from_utf8_lossy(&o.stderr));
    let line =
        text.lines().find(|l| l.starts_with("analysis of 1 matches: ")).unwrap_or_else(|| panic!("{text}"));
    assert!(line.contains("decisions with a choice, expected loss"), "{line}");
    assert!(text.contains(" was better: ") || text.contains("no marked decisions"), "{text}");
}
