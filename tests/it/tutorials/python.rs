//! The tutorials' Python steps (docs/tutorial/GAME/stepN.py): each makes the same decision as
//! its Lua step at every turn of fixed deals, against `greedy` and `random`, in both seats, so
//! the tutorials' measurements (W/D/L, intervals) hold for both languages; only the fuel
//! differs. E-card's claims are also measured on the Python steps directly (`ecard.rs`).

use std::path::PathBuf;

use cardarena::games::blade::{self, Blade};
use cardarena::games::ecard::{self, Ecard};
use cardarena::games::intensity::{self, Intensity};
use cardarena::games::lost_cities::{self, LostCities};
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::Loader;
use cardarena::play::runner::{run_match, MatchSpec, Quiet};
use cardarena::tournament::schedule::deal_seed;
use cardarena::Hosted;

/// The steps written in both languages, per game (the Lua file's path with `.py`).
const PYTHON_STEPS: &[(&str, &[&str])] = &[
    ("blade", &["step1", "step2", "step3"]),
    ("ecard", &["step1", "step2", "step3", "step4"]),
    ("lost-cities", &["step1", "step2", "step3"]),
    ("intensity", &["step1", "step2", "step3"]),
];

fn path(game: &str, step: &str, ext: &str) -> String {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join(format!("docs/tutorial/{game}/{step}.{ext}"))
        .to_string_lossy()
        .into_owned()
}

/// Every match of `file` against `opponent` (in every other seat) on `deals` deals of event
/// seed 1, with `file` in each seat: per match, the actions played and the ranks (no fault
/// allowed).
fn games<G: Hosted>(variant: G::Variant, file: &str, opponent: &str, deals: u32) -> Vec<String> {
    let loader = Loader::new();
    let bot = loader.resolve::<G>(file).unwrap_or_else(|e| panic!("{file}: {e:#}"));
    let opponent = loader.resolve::<G>(opponent).unwrap();
    let limits = LimitsConfig::default();
    let mut out = Vec::new();
    for deal in 0..deals {
        let seed = deal_seed(1, deal);
        for seat in 0..G::PLAYERS {
            let sources: Vec<_> = (0..G::PLAYERS).map(|s| if s == seat { &bot } else { &opponent }).collect();
            let spec = MatchSpec::<G> { variant, seed, entries: sources.iter().map(|s| s.entry()).collect() };
            let mut bots: Vec<_> =
                sources.iter().enumerate().map(|(s, b)| b.instantiate::<G>(seed, s, &limits)).collect();
            let replay = run_match(&spec, &mut bots, &mut Quiet);
            for faults in &replay.faults {
                assert!(faults.is_empty(), "{file} deal {deal} seat {seat}: {faults:?}");
            }
            let played: Vec<&str> = replay.decisions.iter().filter_map(|d| d.played.as_deref()).collect();
            out.push(format!(
                "deal {deal} seat {seat}: {} ranks {:?}",
                played.join(" "),
                replay.outcome.ranks
            ));
        }
    }
    out
}

fn same_as_lua<G: Hosted>(game: &str, variant: G::Variant, deals: u32) {
    let (_, steps) = PYTHON_STEPS.iter().find(|(g, _)| *g == game).unwrap();
    for step in *steps {
        for opponent in ["greedy", "random"] {
            let lua = games::<G>(variant, &path(game, step, "lua"), opponent, deals);
            let py = games::<G>(variant, &path(game, step, "py"), opponent, deals);
            assert_eq!(py, lua, "{game} {step}.py against {opponent} plays otherwise than {step}.lua");
        }
    }
}

#[test]
fn blade_python_steps_play_as_the_lua_steps() {
    same_as_lua::<Blade>("blade", blade::Variant::Readme, 12);
}

#[test]
fn ecard_python_steps_play_as_the_lua_steps() {
    same_as_lua::<Ecard>("ecard", ecard::Variant::Readme, 6);
    same_as_lua::<Ecard>("ecard", ecard::Variant::Manga, 2);
}

#[test]
fn lost_cities_python_steps_play_as_the_lua_steps() {
    same_as_lua::<LostCities>("lost-cities", lost_cities::Variant::Classic, 4);
}

#[test]
fn intensity_python_steps_play_as_the_lua_steps() {
    same_as_lua::<Intensity>("intensity", intensity::Variant::Standard, 2);
}

/// Every Python step file is in the folder `arena tutorial` writes (the list of the command
/// and this one agree).
#[test]
fn every_python_step_file_is_listed() {
    for (game, steps) in PYTHON_STEPS {
        let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(format!("docs/tutorial/{game}"));
        let mut found: Vec<String> = std::fs::read_dir(&dir)
            .unwrap()
            .filter_map(|e| e.unwrap().file_name().into_string().ok())
            .filter_map(|f| f.strip_suffix(".py").map(str::to_string))
            .collect();
        found.sort();
        assert_eq!(found, steps.to_vec(), "{game}");
    }
}
