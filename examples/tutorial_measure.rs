//! The measurement docs/tutorial/lost-cities.md and intensity.md quote (not a test): each step
//! file (or each file of `TUTORIAL_BOTS=a.lua,b.lua`) against `greedy` over `TUTORIAL_DEALS`
//! duplicate deals (default 1000), with the tests' own `measure` (tests/testkit/src/tutorials/).
//! `cargo run --release --example tutorial_measure -- lost-cities|intensity`

use testkit::tutorials::{intensity, lost_cities};

fn main() {
    let game = std::env::args().nth(1).unwrap_or_default();
    let deals: u32 = std::env::var("TUTORIAL_DEALS").ok().and_then(|s| s.parse().ok()).unwrap_or(1000);
    let files = |steps: &[&str], path: fn(&str) -> String| -> Vec<String> {
        match std::env::var("TUTORIAL_BOTS") {
            Ok(list) => list.split(',').map(str::to_string).collect(),
            Err(_) => steps.iter().map(|s| path(s)).collect(),
        }
    };
    match game.as_str() {
        "lost-cities" => {
            for bot in files(&lost_cities::STEPS, lost_cities::step_path) {
                println!("{}", lost_cities::measure(&bot, deals).report(&bot));
            }
        }
        "intensity" => {
            for bot in files(&intensity::STEPS, intensity::step_path) {
                println!("{}", intensity::measure(&bot, deals).report(&bot));
            }
        }
        other => {
            eprintln!("no tutorial measurement for {other:?}: give lost-cities or intensity");
            std::process::exit(2);
        }
    }
}
