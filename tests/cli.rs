//! `arena play` and `arena games` as a user runs them.

use std::process::Command;

fn arena(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arena")).args(args).output().expect("arena runs")
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn games_lists_every_game_and_variant() {
    let o = arena(&["games"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for word in [
        "blade",
        "readme",
        "controller",
        "ecard",
        "manga",
        "lost-cities",
        "classic",
        "six-suits",
        "intensity",
        "standard",
    ] {
        assert!(out.contains(word), "missing {word} in {out}");
    }
}

#[test]
fn play_json_is_one_object_with_the_documented_fields() {
    for (game, bots) in [
        ("blade", "greedy,random"),
        ("ecard", "greedy,random"),
        ("lost-cities", "random,greedy"),
        ("intensity", "greedy,random,random,random"),
    ] {
        let o = arena(&["play", "--game", game, "--bots", bots, "--seed", "7", "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert_eq!(out.lines().count(), 1, "{out}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["game"], game);
        assert_eq!(v["seed"], 7);
        let seats = v["seats"].as_array().unwrap();
        assert_eq!(seats.len(), bots.split(',').count());
        for (seat, name) in seats.iter().zip(bots.split(',')) {
            assert_eq!(seat["bot"], name);
            assert!(seat["points"].is_i64());
            assert!(seat["rank"].as_u64().unwrap() >= 1);
            assert!(seat["faults"].as_array().unwrap().is_empty());
        }
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 4, "{keys:?}");
    }
}

#[test]
fn same_arguments_give_identical_bytes() {
    for extra in [&["--json"][..], &[][..]] {
        let mut args = vec!["play", "--game", "lost-cities", "--bots", "greedy,random", "--seed", "3"];
        args.extend_from_slice(extra);
        let a = arena(&args);
        let b = arena(&args);
        assert!(a.status.success());
        assert_eq!(a.stdout, b.stdout);
    }
}

#[test]
fn play_writes_a_replay_file() {
    let dir = std::env::temp_dir().join(format!("cardarena-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("r.json");
    let o = arena(&[
        "play",
        "--game",
        "blade",
        "--variant",
        "controller",
        "--bots",
        "random,random",
        "--seed",
        "5",
        "--replay",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["game"], "blade");
    assert_eq!(v["variant"], "controller");
    assert_eq!(v["seed"], 5);
    assert_eq!(v["bots"].as_array().unwrap().len(), 2);
    assert!(v["bots"][0]["hash"].as_str().unwrap().len() == 64);
    assert!(!v["decisions"].as_array().unwrap().is_empty());
    assert!(v["deal"].is_object());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_log_is_readable() {
    let o = arena(&["play", "--game", "ecard", "--bots", "greedy,random", "--seed", "1"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("ecard (readme), seed 1: seat 0 greedy, seat 1 random"), "{out}");
    assert!(out.contains("Result:"));
    assert!(out.contains("seat 1 (random):"));
}

#[test]
fn bad_input_gets_a_clear_error() {
    let cases: &[(&[&str], &str)] = &[
        (&["play", "--game", "chess", "--bots", "random,random"], "unknown game \"chess\""),
        (&["play", "--game", "blade", "--variant", "nope", "--bots", "random,random"], "variant"),
        (&["play", "--game", "blade", "--bots", "random"], "2-player game but --bots names 1"),
        (&["play", "--game", "intensity", "--bots", "random,random"], "4-player"),
        (&["play", "--game", "blade", "--bots", "random,clever"], "unknown bot \"clever\""),
        (&["play", "--game", "blade", "--bots", "random,/nonexistent/bot.lua"], "cannot read bot file"),
    ];
    for (args, needle) in cases {
        let o = arena(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Writes a bot file into a fresh folder and returns its path.
fn bot_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-cli-bots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn play_json(args: &[&str]) -> serde_json::Value {
    let o = arena(args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn lua_and_wat_bots_play_anywhere_a_bot_is_named() {
    let lua = bot_file("first.lua", "function act(obs)\n  return obs.legal[1]\nend\n");
    let wat = bot_file(
        "last.wat",
        r#"(module
  (memory (export "memory") 1)
  (global $next (mut i32) (i32.const 1024))
  (func (export "alloc") (param $len i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $next))
    (global.set $next (i32.add (global.get $next) (local.get $len)))
    (local.get $p))
  ;; replies with the 3-byte string "C" padded? no: the literal "C" at offset 16
  (data (i32.const 16) "C")
  (func (export "act") (param i32 i32) (result i64)
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 1))))"#,
    );
    let v = play_json(&[
        "play",
        "--game",
        "ecard",
        "--bots",
        &format!("{},{}", lua.display(), wat.display()),
        "--json",
    ]);
    for seat in v["seats"].as_array().unwrap() {
        assert!(seat["faults"].as_array().unwrap().is_empty(), "{v}");
    }
}

#[test]
fn bot_faults_carry_the_verdict_and_the_lua_traceback() {
    let crash = bot_file("crash.lua", "function act(obs)\n  local x = nil\n  return x.field\nend\n");
    let spin = bot_file("spin.lua", "function act(obs)\n  while true do end\nend\n");
    // seat 1 is the Slave side in round 1: it holds no Emperor
    let illegal = bot_file("illegal.lua", "function act(obs)\n  return 'E'\nend\n");
    let cases = [(&crash, "crash"), (&spin, "fuel"), (&illegal, "illegal")];
    for (bot, verdict) in cases {
        let dir = std::env::temp_dir().join(format!("cardarena-cli-replay-{}-{verdict}", std::process::id()));
        let replay = dir.with_extension("json");
        let v = play_json(&[
            "play",
            "--game",
            "ecard",
            "--bots",
            &format!("random,{}", bot.display()),
            "--seed",
            "4",
            "--json",
            "--replay",
            replay.to_str().unwrap(),
        ]);
        let faults = v["seats"][1]["faults"].as_array().unwrap();
        assert_eq!(faults.len(), 1, "{v}");
        assert_eq!(faults[0]["verdict"], verdict, "{v}");
        assert_eq!(v["seats"][1]["rank"], 2);
        assert_eq!(v["seats"][0]["rank"], 1);
        let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
        let fault = &r["faults"][1][0];
        if verdict == "crash" {
            let trace = fault["trace"].as_str().unwrap_or_default();
            assert!(trace.contains(":3"), "traceback with the line number: {fault}");
        }
        if verdict != "illegal" {
            assert!(fault["fuel_used"].as_u64().unwrap() > 0, "{fault}");
        }
        std::fs::remove_file(&replay).ok();
    }
}

#[test]
fn limit_flags_reach_the_sandbox() {
    let busy = bot_file(
        "busy.lua",
        "function act(obs)\n  local s = 0\n  for i = 1, 20000 do s = s + i end\n  return obs.legal[1]\nend\n",
    );
    let b = format!("{},random", busy.display());
    // faults write crash capsules; keep them out of the checkout
    let caps = busy.with_file_name("capsules");
    let caps = caps.to_str().unwrap();
    let v = play_json(&["play", "--game", "ecard", "--bots", &b, "--json"]);
    assert!(v["seats"][0]["faults"].as_array().unwrap().is_empty(), "{v}");
    let v = play_json(&[
        "play",
        "--game",
        "ecard",
        "--bots",
        &b,
        "--json",
        "--capsules",
        caps,
        "--fuel-per-decision",
        "1000",
    ]);
    assert_eq!(v["seats"][0]["faults"][0]["verdict"], "fuel", "{v}");
    let v = play_json(&[
        "play",
        "--game",
        "ecard",
        "--bots",
        &b,
        "--json",
        "--capsules",
        caps,
        "--fuel-per-match",
        "100000",
    ]);
    assert_eq!(v["seats"][0]["faults"][0]["verdict"], "fuel", "{v}");
}

#[test]
fn a_broken_bot_file_is_refused_with_its_name() {
    let bad = bot_file("syntax.lua", "function act(obs\n");
    let o = arena(&["play", "--game", "blade", "--bots", &format!("{},random", bad.display())]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("syntax.lua") && err.contains("cannot be loaded"), "{err}");
}

/// Issue 17, bit-exact Lua: a bot whose log and moves follow what used to be heap addresses
/// (`tostring` of tables and functions, `%p`, the `pairs` order of table, function and boolean
/// keys) gives byte-identical replays in two separate processes.
#[test]
fn object_identity_and_pairs_order_are_the_same_in_two_processes() {
    let dir = std::env::temp_dir().join(format!("cardarena-cli-identity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bots/identity_order.lua");
    let run = |name: &str| {
        let path = dir.join(name);
        let bots = format!("{bot},random");
        let o = arena(&[
            "play",
            "--game",
            "ecard",
            "--bots",
            &bots,
            "--seed",
            "1",
            "--replay",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read(&path).unwrap()
    };
    let (a, b) = (run("a.json"), run("b.json"));
    let text = String::from_utf8_lossy(&a);
    assert!(text.contains("table: 0x"), "{text}");
    assert!(text.contains("function: 0x"), "{text}");
    assert!(!text.contains("\"crash\""), "{text}");
    assert!(a == b, "two runs of one bot gave different replays");
    std::fs::remove_dir_all(&dir).ok();
}
