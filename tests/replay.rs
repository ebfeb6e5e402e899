//! `arena replay` (boards, --as-seat, --html, --verify, --db), crash capsules and `arena repro`, as a
//! user runs them.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

fn arena(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_arena")).args(args).output().expect("arena runs")
}

fn stdout(o: &Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

fn root(rel: &str) -> String {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(rel).display().to_string()
}

/// A fresh empty folder for one test.
fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-replay-{}-{name}", std::process::id()));
    std::fs::remove_dir_all(&dir).ok();
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

/// Plays a match, writing its replay to `dir/m.json`; returns the replay path and the log.
fn play(dir: &Path, game: &str, bots: &str, seed: &str) -> (PathBuf, String) {
    let replay = dir.join("m.json");
    let o = arena(&["play", "--game", game, "--bots", bots, "--seed", seed, "--replay", s(&replay)]);
    assert!(o.status.success(), "{}", stderr(&o));
    (replay, stdout(&o))
}

fn read_json(path: &Path) -> serde_json::Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_viewer_shows_a_board_and_every_decision_in_each_game() {
    let dir = scratch("viewer");
    for (game, bots, board) in [
        ("blade", "greedy,random", "  seat 0: field "),
        ("ecard", "greedy,random", "  seat 1: "),
        ("lost-cities", "greedy,random", "  suit  seat 1"),
        ("intensity", "greedy,random,random,greedy", "  penalties: "),
    ] {
        let (replay, _) = play(&dir, game, bots, "11");
        let o = arena(&["replay", s(&replay)]);
        assert!(o.status.success(), "{game}: {}", stderr(&o));
        let out = stdout(&o);
        assert!(out.starts_with(&format!("{game} (")), "{out}");
        assert!(out.contains(board), "{game}: no board in\n{out}");
        let decisions = read_json(&replay)["decisions"].as_array().unwrap().len();
        assert!(decisions > 0);
        for i in 0..decisions {
            assert!(out.contains(&format!("\n#{i:<4} seat ")), "{game}: decision #{i} missing");
        }
        assert!(!out.contains(&format!("\n#{decisions} ")), "{game}: one decision too many");
        assert!(out.contains("Result:\n"), "{out}");
        // --from/--to select decisions
        let o = arena(&["replay", s(&replay), "--from", "2", "--to", "3"]);
        let part = stdout(&o);
        assert!(part.contains("\n#2 ") && part.contains("\n#3 ") && !part.contains("\n#4 "), "{part}");
    }
}

#[test]
fn as_seat_shows_nothing_the_seat_could_not_see() {
    // Lost Cities hands are hidden (seed-games.md §3(b)): a card dealt to seat 1 is invisible to
    // seat 0 until seat 1 plays or discards it. Take the dealt card seat 1 keeps longest and look
    // at everything before it comes out.
    let dir = scratch("as-seat");
    let (replay, _) = play(&dir, "lost-cities", "greedy,random", "5");
    let r = read_json(&replay);
    let decisions = r["decisions"].as_array().unwrap();
    let (card, out_at) = r["deal"]["hands"][1]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c.as_str().unwrap().to_string())
        .map(|c| {
            let at = decisions.iter().position(|d| {
                d["played"].as_str().is_some_and(|p| p.ends_with(&format!(" {c}")) && !p.starts_with("draw"))
            });
            (c, at.unwrap_or(decisions.len()))
        })
        .max_by_key(|(_, at)| *at)
        .unwrap();
    assert!(out_at > 20, "{card} comes out at #{out_at}");
    let to = (out_at - 1).to_string();
    let shown = |text: &str| text.split(|c: char| !c.is_ascii_alphanumeric()).any(|w| w == card);
    let spectator = stdout(&arena(&["replay", s(&replay), "--to", &to]));
    assert!(shown(&spectator), "the spectator sees {card}");
    let seat0 = arena(&["replay", s(&replay), "--as-seat", "0", "--to", &to]);
    assert!(seat0.status.success(), "{}", stderr(&seat0));
    let seat0 = stdout(&seat0);
    assert!(!shown(&seat0), "seat 0 sees seat 1's hidden {card} before #{out_at}:\n{seat0}");
    // Seat 1's hand is only ever a count (and the cards it picked up in public).
    for line in seat0.lines().filter(|l| l.contains("seat 1 hand:")) {
        let rest = line.split("seat 1 hand: ").nth(1).unwrap();
        assert!(matches!(rest.split(' ').nth(1), Some("cards" | "cards,")), "{line}");
    }
    assert!(seat0.contains("<- you"), "{seat0}");
    // and the other seat's moves are not listed, only its own
    assert!(!seat0.contains("seat 1 (random): "), "{seat0}");
    assert!(seat0.contains("seat 0 (greedy): "), "{seat0}");
    let o = arena(&["replay", s(&replay), "--as-seat", "2"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("--as-seat 2"), "{}", stderr(&o));
}

#[test]
fn verify_confirms_an_unchanged_match_with_lua_and_wasm_bots() {
    let dir = scratch("verify-ok");
    for (game, bots) in [
        (
            "lost-cities",
            format!(
                "{},{}",
                root("example_bots/lua/lost-cities_greedy.lua"),
                root("example_bots/wasm/lost-cities_rust.wasm")
            ),
        ),
        (
            "intensity",
            format!(
                "{},greedy,{},random",
                root("example_bots/wasm/intensity_rust.wasm"),
                root("example_bots/lua/intensity_random.lua")
            ),
        ),
    ] {
        let (replay, _) = play(&dir, game, &bots, "2");
        let limits = &read_json(&replay)["limits"];
        assert!(limits[0]["fuel_per_decision"].as_u64().unwrap() > 0, "limits recorded: {limits}");
        let o = arena(&["replay", s(&replay), "--verify"]);
        assert!(o.status.success(), "{game}: {}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).starts_with("verified: "), "{}", stdout(&o));
    }
}

#[test]
fn verify_confirms_a_match_of_javascript_bots_and_a_capsule_replays_a_js_crash() {
    let dir = scratch("verify-js");
    let bots = format!(
        "{},{},greedy,{}",
        root("example_bots/js/intensity_greedy.js"),
        root("example_bots/js/intensity_random.js"),
        root("example_bots/lua/intensity_random.lua")
    );
    let (replay, _) = play(&dir, "intensity", &bots, "4");
    let o = arena(&["replay", s(&replay), "--verify"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).starts_with("verified: "), "{}", stdout(&o));

    let (_, log) =
        play(&dir, "lost-cities", &format!("{},greedy", root("tests/data/bots/crash_third.js")), "3");
    assert!(log.contains("crash_third.js:7: Error: deliberate failure on decision 3"), "{log}");
    let line =
        log.lines().find(|l| l.trim_start().starts_with("capsule: ")).unwrap_or_else(|| panic!("{log}"));
    let path = line.trim_start().trim_start_matches("capsule: ").split(" (").next().unwrap().to_string();
    let o = arena(&["repro", &path]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(out.contains("same failure reproduced at your 3rd decision, #"), "{out}");
    assert!(!out.contains("<- differs"), "every reply and fuel count as recorded: {out}");
}

#[test]
fn verify_names_the_first_decision_that_differs_when_a_bot_changed() {
    let dir = scratch("verify-changed");
    let bot = dir.join("mine.lua");
    std::fs::copy(root("example_bots/lua/blade_random.lua"), &bot).unwrap();
    let (replay, _) = play(&dir, "blade", &format!("greedy,{}", s(&bot)), "9");
    assert!(arena(&["replay", s(&replay), "--verify"]).status.success());
    // the same bot, doing a little more work per decision: the fuel differs at its first decision
    let text = std::fs::read_to_string(&bot)
        .unwrap()
        .replace("function act(obs)", "function act(obs)\n  local waste = #obs.legal * 2");
    std::fs::write(&bot, text).unwrap();
    let o = arena(&["replay", s(&replay), "--verify"]);
    assert_eq!(o.status.code(), Some(1), "{}{}", stdout(&o), stderr(&o));
    let out = stdout(&o);
    assert!(
        out.contains("warning: seat 1: ") && out.contains("is not the file that played the match"),
        "{out}"
    );
    let r = read_json(&replay);
    let first = r["decisions"].as_array().unwrap().iter().position(|d| d["seat"] == 1).unwrap();
    assert!(out.contains(&format!("DIFFERS at decision #{first} (seat 1")), "{out}");
    assert!(out.contains("fuel"), "{out}");
    // a missing file is an error naming the seat and the file
    std::fs::remove_file(&bot).unwrap();
    let o = arena(&["replay", s(&replay), "--verify"]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("seat 1") && err.contains("mine.lua") && err.contains("not found"), "{err}");
}

#[test]
fn a_damaged_replay_gets_a_clear_error() {
    let dir = scratch("damaged");
    let (replay, _) = play(&dir, "lost-cities", "greedy,random", "1");
    let good = read_json(&replay);
    let bad = dir.join("bad.json");
    let page = dir.join("bad.html");
    let check = |text: String, needles: &[&str]| {
        std::fs::write(&bad, text).unwrap();
        for extra in [&[][..], &["--verify"][..], &["--as-seat", "0"][..], &["--html", s(&page)][..]] {
            let mut args = vec!["replay", s(&bad)];
            args.extend_from_slice(extra);
            let o = arena(&args);
            let err = stderr(&o);
            assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
            assert!(err.contains("bad.json"), "{err}");
            for n in needles {
                assert!(err.contains(n), "{args:?}: {n:?} not in {err}");
            }
        }
    };
    check("{ not json".to_string(), &["is not a replay file"]);
    let mut v = good.clone();
    v["game"] = "chess".into();
    check(v.to_string(), &["unknown game \"chess\""]);
    let mut v = good.clone();
    v["decisions"][3]["played"] = "play 99Z".into();
    check(v.to_string(), &["decision #3"]);
    let mut v = good.clone();
    v["deal"]["hands"][0] = serde_json::json!([]);
    check(v.to_string(), &["deal"]);
    let mut v = good.clone();
    v["decisions"].as_array_mut().unwrap().truncate(10);
    check(v.to_string(), &["not over"]);
    assert!(!page.exists(), "no page for a damaged replay");
    let o = arena(&["replay", s(&dir.join("missing.json"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("missing.json"), "{}", stderr(&o));
}

#[test]
fn a_broken_bot_writes_a_capsule_that_repro_replays() {
    let dir = scratch("capsule");
    let broken = root("tests/data/bots/crash_third.lua");
    let (replay, log) = play(&dir, "lost-cities", &format!("{broken},greedy"), "3");
    // the fault line is followed by the capsule's path
    let line =
        log.lines().find(|l| l.trim_start().starts_with("capsule: ")).unwrap_or_else(|| panic!("{log}"));
    let path = line.trim_start().trim_start_matches("capsule: ").split(" (").next().unwrap().to_string();
    assert!(path.starts_with(s(&dir.join("capsules"))), "beside the replay: {path}");
    let cap = read_json(Path::new(&path));
    assert_eq!(cap["seat"], 0);
    assert_eq!(cap["fault"]["verdict"], "crash");
    let decisions = cap["decisions"].as_array().unwrap();
    assert_eq!(decisions.len(), 3, "the bot's decisions up to the failing one");
    assert!(decisions[0]["observation"]["legal"].is_array());
    assert_eq!(decisions[2]["decision"], cap["fault"]["decision"]);
    assert!(cap["limits"]["fuel_per_decision"].as_u64().unwrap() > 0);
    assert_eq!(cap["bot"]["hash"], read_json(&replay)["bots"][0]["hash"]);

    let o = arena(&["repro", &path]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(out.contains("same failure reproduced at your 3rd decision, #"), "{out}");
    assert!(out.contains("deliberate failure on decision 3"), "{out}");
    assert!(!out.contains("<- differs"), "every reply and fuel count as recorded: {out}");
    assert!(log.contains(") at its 3rd decision, #"), "the play log counts the bot's decisions too: {log}");

    // a bot that acts the same with more work: no decision differs, the fuel is shown apart
    let slower = dir.join("crash_third_slower.lua");
    let text = std::fs::read_to_string(&broken)
        .unwrap()
        .replace("n = n + 1\n", "n = n + 1\n  for _ = 1, 5000 do end\n");
    std::fs::write(&slower, text).unwrap();
    let o = arena(&["repro", &path, "--bot", s(&slower)]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(!out.contains("<- differs"), "only the fuel changed: {out}");
    let first = out.lines().find(|l| l.starts_with('#')).unwrap_or_else(|| panic!("{out}"));
    let fuel = first.split("   fuel ").nth(1).unwrap_or_else(|| panic!("{first}"));
    let (was, now) = fuel.split_once(" | ").unwrap_or_else(|| panic!("{first}"));
    assert!(now.parse::<u64>().unwrap() > was.parse::<u64>().unwrap() + 5000, "{first}");

    let o = arena(&["repro", &path, "--bot", &root("tests/data/bots/crash_third_fixed.lua")]);
    let out = stdout(&o);
    assert!(o.status.success(), "{out}{}", stderr(&o));
    assert!(out.contains("is not the bot of the capsule"), "{out}");
    assert!(out.contains("the failure is gone: at your "), "{out}");

    // --json reports the capsule too
    let o = arena(&[
        "play",
        "--game",
        "lost-cities",
        "--bots",
        &format!("{broken},greedy"),
        "--seed",
        "3",
        "--json",
        "--capsules",
        s(&dir.join("c2")),
    ]);
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let c = v["seats"][0]["faults"][0]["capsule"].as_str().unwrap();
    assert_eq!(std::fs::read(c).unwrap(), std::fs::read(&path).unwrap(), "the same fault, the same capsule");

    // damaged capsules are refused clearly
    let bad = dir.join("bad-capsule.json");
    std::fs::write(&bad, "{\"capsule\": 1}").unwrap();
    let o = arena(&["repro", s(&bad)]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("bad-capsule.json") && stderr(&o).contains("is not a crash capsule"),
        "{}",
        stderr(&o)
    );
    let o = arena(&["repro", s(&dir.join("nothing.json"))]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("cannot read capsule"), "{}", stderr(&o));
    // a capsule of a game the arena does not know names the capsule
    let chess = dir.join("chess-capsule.json");
    let text =
        std::fs::read_to_string(&path).unwrap().replace("\"game\": \"lost-cities\"", "\"game\": \"chess\"");
    assert!(text.contains("\"chess\""), "the capsule names its game");
    std::fs::write(&chess, text).unwrap();
    let o = arena(&["repro", s(&chess), "--bot", &broken]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("chess-capsule.json") && stderr(&o).contains("unknown game \"chess\""),
        "{}",
        stderr(&o)
    );
}

#[test]
fn tournament_faults_print_match_ids_and_capsules_and_replays_read_from_the_database() {
    let dir = scratch("tournament");
    std::fs::copy(root("tests/data/bots/crash_third.lua"), dir.join("crash_third.lua")).unwrap();
    let toml = dir.join("arena.toml");
    std::fs::write(
        &toml,
        "[[event]]\ngame = \"blade\"\nbots = [\"greedy\", \"crash_third.lua\"]\ndeals = 2\n",
    )
    .unwrap();
    let o = arena(&["tournament", s(&toml), "--quiet", "--threads", "2"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let err = stderr(&o);
    assert!(err.contains("fault(s) in the matches played now"), "{err}");
    let capsule =
        err.lines().find_map(|l| l.trim().strip_prefix("capsule: ")).unwrap_or_else(|| panic!("{err}"));
    assert!(Path::new(capsule).is_file(), "{capsule}");
    assert!(capsule.contains("capsules"), "beside the database: {capsule}");
    let id =
        err.lines().find_map(|l| l.split(" match ").nth(1)).unwrap().split(',').next().unwrap().to_string();

    let db = dir.join("arena.db");
    let o = arena(&["replay", "--db", s(&db), "--list"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("crash_third.lua"), "{}", stdout(&o));
    assert!(
        stdout(&o).contains("in Intensity they are penalty points"),
        "the points explained: {}",
        stdout(&o)
    );
    let o = arena(&["replay", "--db", s(&db), &id]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("FAULT crash"), "{}", stdout(&o));
    let short = arena(&["replay", &format!("{}#{id}", s(&db))]);
    assert_eq!(short.stdout, o.stdout, "DB#ID is --db DB ID");
    // the same match as a web page (tests/browser.rs opens one in Chromium)
    let page = dir.join("m.html");
    let o = arena(&["replay", "--db", s(&db), &id, "--html", s(&page)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).starts_with(&format!("wrote {}", s(&page))), "{}", stdout(&o));
    let html = std::fs::read_to_string(&page).unwrap();
    let hash = cardarena::bots::bot::content_hash(&std::fs::read(dir.join("crash_third.lua")).unwrap());
    assert!(html.contains(&hash), "the bots' hashes are on the page");
    assert!(html.contains("\"verdict\":\"crash\""), "the fault's badge is in the frames");
    // the bot path in the database is relative to arena.toml, found from anywhere
    let o = arena(&["replay", "--db", s(&db), &id, "--verify"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    let o = arena(&["repro", capsule]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
    assert!(stdout(&o).contains("same failure reproduced"));
    let o = arena(&["replay", "--db", s(&db), "999"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no match with id 999"), "{}", stderr(&o));
}

#[test]
fn a_bot_that_cannot_start_plays_on_in_intensity_and_every_capsule_reproduces() {
    // Intensity keeps a faulty seat playing (+5 and a random move, CONTRACT.md §3): the failed
    // start and each later decision of the bot are faults, each with a capsule.
    let dir = scratch("no-start");
    let bot = dir.join("nostart.lua");
    std::fs::write(&bot, "error('broken at load')\nfunction act(obs) return obs.legal[1] end\n").unwrap();
    let (replay, log) = play(&dir, "intensity", &format!("greedy,{},random,greedy", s(&bot)), "1");
    let faults = read_json(&replay)["faults"][1].as_array().unwrap().len();
    assert_eq!(log.matches("      capsule: ").count(), faults, "{log}");
    let caps: Vec<PathBuf> =
        std::fs::read_dir(dir.join("capsules")).unwrap().map(|e| e.unwrap().path()).collect();
    assert_eq!(caps.len(), faults);
    for c in &caps {
        let o = arena(&["repro", s(c)]);
        assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
        assert!(stdout(&o).contains("same failure reproduced"), "{}", stdout(&o));
    }
    // the viewer and verify follow the penalties
    let o = arena(&["replay", s(&replay)]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(stdout(&o).contains("failed to start"), "{}", stdout(&o));
    let o = arena(&["replay", s(&replay), "--verify"]);
    assert!(o.status.success(), "{}{}", stdout(&o), stderr(&o));
}
