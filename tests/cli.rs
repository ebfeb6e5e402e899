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
