//! The example bots (`example_bots/`, docs/bot-api.md) as users run them, through the `arena`
//! binary:
//!
//! * every example bot (each `example_bots/lua/*.lua`, `example_bots/js/*.js`,
//!   `example_bots/python/*.py`, each
//!   `example_bots/wasm/*.wasm`, and
//!   `example_bots/wat/first_legal.wat` in every game) plays matches of its game against
//!   `random` and `greedy`, in every seat, with `arena play --json`, and never faults;
//! * every greedy example (Lua, JavaScript, Python and Rust) beats `random` on a fixed set of deals. Those
//!   statistical checks use `arena tournament` (one process, so a WASM module is compiled
//!   once for 100 matches, not once per match); the deals are fixed, so the check is
//!   deterministic, and the thresholds leave a wide margin below the rates these deals give
//!   (BENCHMARKS.md, "Margins of the strength tests").
//!
//! The `.wasm` modules are built by `scripts/build-example-bots.sh` (which `scripts/test.sh`
//! runs first) and committed; if they are missing, these tests say so.

use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

/// Every game's name, from the arena's one list.
fn games() -> impl Iterator<Item = &'static str> {
    cardarena::Games::builtin().ids().into_iter().map(cardarena::GameId::name)
}

/// The WASM modules that scripts/build-example-bots.sh produces.
const BUILT: [&str; 6] =
    ["blade_rust", "blade_montecarlo_rust", "ecard_rust", "lost-cities_rust", "intensity_rust", "ecard_c"];

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn arena(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_arena"))
        .current_dir(root())
        .args(args)
        .output()
        .expect("arena runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "arena {}: {stderr}", args.join(" "));
    String::from_utf8(out.stdout).expect("UTF-8 output")
}

/// The example bot files of `dir` (relative to the repository) with extension `ext`, sorted.
fn files(dir: &str, ext: &str) -> Vec<String> {
    let mut out: Vec<String> = std::fs::read_dir(root().join(dir))
        .unwrap_or_else(|e| panic!("{dir}: {e}"))
        .map(|e| e.expect("directory entry").file_name().to_string_lossy().into_owned())
        .filter(|name| name.ends_with(ext))
        .map(|name| format!("{dir}/{name}"))
        .collect();
    out.sort();
    out
}

/// The game an example bot plays, from its file name (`<game>_….lua`, `<game>_….wasm`).
fn game_of(path: &str) -> &'static str {
    let name = Path::new(path).file_name().unwrap().to_str().unwrap();
    games()
        .find(|g| name.starts_with(&format!("{g}_")))
        .unwrap_or_else(|| panic!("{path}: the file name does not start with a game name"))
}

/// The built WASM bots; fails with the command to run if any is missing.
fn wasm_bots() -> Vec<String> {
    let missing: Vec<&str> =
        BUILT.into_iter().filter(|b| !root().join(format!("example_bots/wasm/{b}.wasm")).exists()).collect();
    assert!(
        missing.is_empty(),
        "example_bots/wasm/ lacks {}.wasm: run scripts/build-example-bots.sh (scripts/test.sh does)",
        missing.join(".wasm, ")
    );
    files("example_bots/wasm", ".wasm")
}

/// Plays `bot` in every seat of `game` against `opponent` (in all other seats), for each seed,
/// and checks that no seat faulted.
fn plays_without_faults(game: &str, bot: &str, opponent: &str, seeds: &[u64]) {
    let players = if game == "intensity" { 4 } else { 2 };
    for &seed in seeds {
        for seat in 0..players {
            let mut bots = vec![opponent; players];
            bots[seat] = bot;
            let bots = bots.join(",");
            let seed = seed.to_string();
            let out = arena(&["play", "--game", game, "--bots", &bots, "--seed", &seed, "--json"]);
            let v: Value = serde_json::from_str(&out).expect("one JSON object");
            for (s, entry) in v["seats"].as_array().expect("seats").iter().enumerate() {
                let faults = entry["faults"].as_array().expect("faults");
                assert!(faults.is_empty(), "{game} seed {seed} bots {bots}: seat {s} faulted: {faults:?}");
            }
        }
    }
}

fn no_faults(bots: &[String], seeds: &[u64]) {
    assert!(!bots.is_empty());
    for bot in bots {
        for opponent in ["random", "greedy"] {
            plays_without_faults(game_of(bot), bot, opponent, seeds);
        }
    }
}

#[test]
fn lua_bots_play_without_faults() {
    let bots: Vec<String> =
        files("example_bots/lua", ".lua").into_iter().filter(|b| !b.contains("/any_")).collect();
    // A random and a greedy bot per game, and blade_montecarlo.lua.
    assert_eq!(bots.len(), 9, "{bots:?}");
    no_faults(&bots, &[0, 1, 2, 3, 4]);
}

#[test]
fn js_bots_play_without_faults() {
    let bots = files("example_bots/js", ".js");
    // A random and a greedy bot per game.
    assert_eq!(bots.len(), 8, "{bots:?}");
    no_faults(&bots, &[0, 1, 2]);
}

#[test]
fn python_bots_play_without_faults() {
    let bots = files("example_bots/python", ".py");
    // A random and a greedy bot per game.
    assert_eq!(bots.len(), 8, "{bots:?}");
    no_faults(&bots, &[0, 1]);
}

#[test]
fn rust_bots_play_without_faults() {
    let bots: Vec<String> = wasm_bots().into_iter().filter(|b| b.ends_with("_rust.wasm")).collect();
    // One per game, and the Monte-Carlo Blade bot.
    assert_eq!(bots.len(), 5, "{bots:?}");
    no_faults(&bots, &[0, 1]);
}

#[test]
fn c_bot_plays_without_faults() {
    let bots: Vec<String> = wasm_bots().into_iter().filter(|b| !b.ends_with("_rust.wasm")).collect();
    assert!(!bots.is_empty());
    no_faults(&bots, &[0, 1, 2]);
}

#[test]
fn lua_coroutine_bot_plays_every_game_without_faults() {
    for game in games() {
        for opponent in ["random", "greedy"] {
            plays_without_faults(game, "example_bots/lua/any_coroutines.lua", opponent, &[0, 1, 2]);
        }
    }
}

#[test]
fn wat_bot_plays_every_game_without_faults() {
    for game in games() {
        for opponent in ["random", "greedy"] {
            plays_without_faults(game, "example_bots/wat/first_legal.wat", opponent, &[0, 1]);
        }
    }
}

/// A fresh scratch directory for one test's tournament files.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-example-bots-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("scratch directory");
    dir
}

/// One bot's line of a tournament's standings.
struct Standing {
    matches: u64,
    wins: u64,
    /// Match score summed (the share of each table beaten).
    score: f64,
}

/// Runs a round-robin tournament of `bots` in `game` (deals with both seat orders, or all four
/// rotations of the table in Intensity) and returns each bot's standing, in `bots` order.
/// Also checks that nobody faulted.
fn tournament(name: &str, game: &str, bots: &[String], deals: u32) -> Vec<Standing> {
    let dir = scratch(name);
    let list: Vec<String> = bots.iter().map(|b| format!("{:?}", absolute(b))).collect();
    let toml = format!(
        "[[event]]\ngame = \"{game}\"\nbots = [{}]\ndeals = {deals}\nseed = 1\nduplicate = true\n",
        list.join(", ")
    );
    let file = dir.join("arena.toml");
    std::fs::write(&file, toml).expect("write arena.toml");
    let json = dir.join("standings.json");
    arena(&["tournament", file.to_str().unwrap(), "--json", json.to_str().unwrap()]);
    let v: Value = serde_json::from_str(&std::fs::read_to_string(&json).expect("standings")).expect("JSON");
    let _ = std::fs::remove_dir_all(&dir);
    let standings = v["events"][0]["standings"].as_array().expect("standings").clone();
    bots.iter()
        .map(|bot| {
            let want = absolute(bot);
            let s = standings
                .iter()
                .find(|s| s["bot"].as_str() == Some(want.as_str()))
                .unwrap_or_else(|| panic!("{bot} is not in the standings: {standings:?}"));
            let faults = s["faults"].as_object().expect("faults");
            assert!(faults.is_empty(), "{game}: {bot} faulted: {faults:?}");
            Standing {
                matches: s["matches"].as_u64().expect("matches"),
                wins: s["wins"].as_u64().expect("wins"),
                score: s["score"].as_f64().expect("score"),
            }
        })
        .collect()
}

/// Bot files as absolute paths (tournament files resolve paths from their own directory);
/// built-in bot names as they are.
fn absolute(bot: &str) -> String {
    if bot.contains('.') {
        root().join(bot).to_string_lossy().into_owned()
    } else {
        bot.to_owned()
    }
}

/// A two-player greedy example against `random`: 50 deals, both seat orders (100 matches);
/// it must win more than `min_wins` of them.
fn beats_random(name: &str, bot: &str, min_wins: u64) {
    let game = game_of(bot);
    let s = tournament(name, game, &[bot.to_owned(), "random".to_owned()], 50);
    assert_eq!(s[0].matches, 100);
    assert!(
        s[0].wins > min_wins,
        "{bot} won {} of 100 matches against random in {game}; expected more than {min_wins}",
        s[0].wins
    );
}

#[test]
fn blade_greedy_examples_beat_random() {
    beats_random("blade-lua", "example_bots/lua/blade_greedy.lua", 75);
    beats_random("blade-rust", "example_bots/wasm/blade_rust.wasm", 75);
    beats_random("blade-js", "example_bots/js/blade_greedy.js", 75);
    beats_random("blade-python", "example_bots/python/blade_greedy.py", 75);
}

#[test]
fn ecard_examples_beat_random() {
    beats_random("ecard-lua", "example_bots/lua/ecard_greedy.lua", 85);
    beats_random("ecard-rust", "example_bots/wasm/ecard_rust.wasm", 85);
    beats_random("ecard-c", "example_bots/wasm/ecard_c.wasm", 85);
    beats_random("ecard-js", "example_bots/js/ecard_greedy.js", 85);
    beats_random("ecard-python", "example_bots/python/ecard_greedy.py", 85);
}

#[test]
fn lost_cities_greedy_examples_beat_random() {
    beats_random("lost-cities-lua", "example_bots/lua/lost-cities_greedy.lua", 90);
    beats_random("lost-cities-rust", "example_bots/wasm/lost-cities_rust.wasm", 90);
    beats_random("lost-cities-js", "example_bots/js/lost-cities_greedy.js", 90);
    beats_random("lost-cities-python", "example_bots/python/lost-cities_greedy.py", 90);
}

/// Intensity: the example at a table with three uniformly random bots (the built-in `random`
/// and two copies of `intensity_random.lua`, since a table needs four different entrants),
/// 25 deals × 4 rotations = 100 matches. Placing points are 3/2/1/0 by place: 3 × the match score.
fn intensity_beats_random(name: &str, bot: &str, min_points: f64) {
    let dir = scratch(&format!("{name}-randoms"));
    let mut bots = vec![bot.to_owned(), "random".to_owned()];
    for copy in ["a", "b"] {
        let path = dir.join(format!("random_{copy}.lua"));
        std::fs::copy(root().join("example_bots/lua/intensity_random.lua"), &path).expect("copy");
        bots.push(path.to_string_lossy().into_owned());
    }
    let s = tournament(name, "intensity", &bots, 25);
    let _ = std::fs::remove_dir_all(&dir);
    assert_eq!(s[0].matches, 100);
    let mean = 3.0 * s[0].score / 100.0;
    let best_random = s[1..].iter().map(|r| 3.0 * r.score / 100.0).fold(f64::MIN, f64::max);
    assert!(
        mean > min_points && mean > best_random + 0.5,
        "{bot}: mean placing points {mean:.2} per match (3 for first place); the best random bot \
         got {best_random:.2}; expected more than {min_points} and a clear lead"
    );
}

#[test]
fn intensity_greedy_examples_beat_random() {
    intensity_beats_random("intensity-lua", "example_bots/lua/intensity_greedy.lua", 2.0);
    intensity_beats_random("intensity-rust", "example_bots/wasm/intensity_rust.wasm", 2.0);
    intensity_beats_random("intensity-js", "example_bots/js/intensity_greedy.js", 2.0);
    intensity_beats_random("intensity-python", "example_bots/python/intensity_greedy.py", 2.0);
}
