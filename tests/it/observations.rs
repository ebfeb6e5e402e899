//! Every game's observations reach a Lua bot as the same tables whether the sandbox gets the
//! value (`Instance::act_value_with`, what the arena uses) or its JSON text (`Instance::act`, what
//! `arena repro` replays from a capsule), and a WASM bot gets from the game's `write_json`
//! exactly the bytes of `serde_json::to_writer`: random matches of every game and variant,
//! every observation of every seat at every decision point.

use cardarena::bots::bot::{builtin, Bot};
use cardarena::games::blade::Blade;
use cardarena::games::ecard::Ecard;
use cardarena::games::intensity::Intensity;
use cardarena::games::lost_cities::LostCities;
use cardarena::games::Observation;
use cardarena::Hosted;
use cardarena_sandbox::baseline::lua_observation_agrees;

fn check<G: Hosted>(matches: u64) -> usize {
    let mut seen = 0;
    for &variant in G::variants() {
        for seed in 0..matches {
            let mut state = G::new(variant, seed);
            let mut bots: Vec<Box<dyn Bot<G>>> =
                (0..G::PLAYERS).map(|seat| builtin::<G>("random", seed, seat).expect("random")).collect();
            loop {
                for seat in 0..G::PLAYERS {
                    let obs = state.observe(seat);
                    if let Err(e) = lua_observation_agrees(&obs) {
                        panic!("{} {variant} seed {seed} seat {seat}: {e}", G::NAME);
                    }
                    let mut written = Vec::new();
                    obs.write_json(&mut written).expect("observations have a JSON form");
                    let expected = serde_json::to_string(&obs).expect("observations serialize");
                    assert_eq!(
                        String::from_utf8_lossy(&written),
                        expected,
                        "{} {variant} seed {seed} seat {seat}: write_json differs from serde_json",
                        G::NAME
                    );
                    seen += 1;
                }
                let Some(&seat) = state.to_act().first() else { break };
                let obs = state.observe(seat);
                let action = bots[seat].act(&obs).expect("random acts");
                state.play(seat, &action).expect("legal");
            }
        }
    }
    seen
}

#[test]
fn blade_observations_agree() {
    assert!(check::<Blade>(20) > 500);
}

#[test]
fn ecard_observations_agree() {
    assert!(check::<Ecard>(10) > 500);
}

#[test]
fn lost_cities_observations_agree() {
    assert!(check::<LostCities>(3) > 500);
}

#[test]
fn intensity_observations_agree() {
    assert!(check::<Intensity>(10) > 500);
}
