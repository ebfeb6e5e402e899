//! Every failure a campaign found, as a test named after what it does.

use serde_json::Value;

use super::files::{self, corpus};

/// The corpus replay of `game` (the first one), as JSON to edit.
fn corpus_replay(game: &str) -> Value {
    corpus()
        .replays
        .iter()
        .map(|r| serde_json::from_str::<Value>(r).unwrap())
        .find(|r| r["game"] == game)
        .expect("a corpus replay of the game")
}

/// Runs an edited replay through `arena replay`'s paths; returns what they printed.
fn replay_output(replay: &Value, name: u64) -> String {
    files::replay_file(serde_json::to_string(replay).unwrap().as_bytes(), name)
        .expect("no panic, a clear error")
}

#[test]
fn a_replay_with_fewer_ranks_than_seats_is_an_error_naming_the_file_not_a_panic() {
    // Found by the replay target (seed 0x5eed000000000e06): the viewer indexed `ranks` by seat.
    let mut replay = corpus_replay("blade");
    replay["outcome"]["ranks"] = serde_json::json!([1]);
    let out = replay_output(&replay, 1);
    assert!(out.contains("render error: ") && out.contains("outcome are not one per seat"), "{out}");
    assert!(out.contains("replay-0000000000000001.json"), "{out}");
}

#[test]
fn a_capsule_observation_nested_past_the_json_depth_limit_is_an_error_not_a_panic() {
    // Found by the capsule target (seed 0x5eed000000000507): `reproduce` parsed each
    // observation with `expect`, and a RawValue nested 200 deep is valid JSON that serde_json's
    // `Value` refuses (recursion limit).
    let mut cap: Value = serde_json::from_str(&corpus().capsules[0]).unwrap();
    let mut deep = serde_json::json!(1);
    for _ in 0..200 {
        deep = Value::Array(vec![deep]);
    }
    let last = cap["decisions"].as_array().unwrap().len() - 1;
    cap["decisions"][last]["observation"]["deep"] = deep;
    let out = files::capsule_file(serde_json::to_string(&cap).unwrap().as_bytes(), 1).expect("no panic");
    assert!(out.contains("damaged capsule: its observation cannot be read"), "{out}");
}

#[test]
fn a_module_with_thousands_of_data_segments_is_refused_before_it_is_compiled() {
    // Found by the wasm target (seed 0x28ba, 10,000 segments of under a byte each, in pages of
    // their own): compiling it took the process to 338 MiB. Now the shape check refuses it.
    let segments: String =
        (0..10_000).map(|i| format!("(data (i32.const {}) \"x\")", i * 65_536 % (1 << 26))).collect();
    let module = wat::parse_str(format!("(module (memory 1024) {segments})")).unwrap();
    let fault =
        super::sandbox::shared().load("segments.wasm", cardarena_sandbox::Kind::Wasm, &module).unwrap_err();
    assert_eq!(fault.verdict, cardarena_sandbox::Verdict::Load);
    assert!(fault.message.contains("10000 data segments; the limit is 100"), "{}", fault.message);
}

#[test]
fn a_lua_error_with_an_empty_message_is_a_crash_that_says_so() {
    // Found by the lua target (seed 0x0001000000004192: `error("", -1)` in `init`): the fault's
    // message was empty.
    let limits = super::lua::limits();
    for (source, stages) in [
        ("function init() error(\"\", -1) end function act() end", &["start"][..]),
        ("function act() error(\" \\n\", 0) end", &["act 0", "act 1"][..]),
    ] {
        let run = super::sandbox::run(cardarena_sandbox::Kind::Lua, "empty.lua", source.as_bytes(), &limits)
            .expect("every fault has a message");
        let crashes: Vec<_> =
            stages.iter().map(|s| (s.to_string(), cardarena_sandbox::Verdict::Crash)).collect();
        assert_eq!(run.verdicts, crashes, "{}", run.summary);
        assert!(run.summary.contains("an error with an empty message"), "{}", run.summary);
    }
}
