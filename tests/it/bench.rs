//! `arena bench --quick --json` runs and prints every documented key (BENCHMARKS.md). No
//! timing is asserted: speed is what the command reports, not what the tests check.

use std::process::Command;

/// The measures documented in BENCHMARKS.md, "JSON keys".
const KEYS: &[&str] = &[
    "observation_json_bytes",
    "observation_encode_ns",
    "observation_write_json_ns",
    "decision_native_ns",
    "decision_lua_ns",
    "decision_wasm_ns",
    "decision_js_ns",
    "decision_js_fuel",
    "decision_python_ns",
    "decision_python_fuel",
    "decision_wasm_first_legal_ns",
    "decision_legacy_ns",
    "decision_process_ns",
    "decision_process_wall_ns",
    "process_over_lua",
    "process_over_wasm",
    "start_lua_ns",
    "start_wasm_ns",
    "start_js_ns",
    "start_python_ns",
    "matches_blade_native",
    "matches_blade_lua",
    "matches_blade_wasm",
    "matches_blade_js",
    "matches_blade_js_greedy",
    "matches_blade_python",
    "matches_blade_python_greedy",
    "matches_ecard_native",
    "matches_ecard_lua",
    "matches_ecard_wasm",
    "matches_ecard_js",
    "matches_ecard_js_greedy",
    "matches_ecard_python",
    "matches_ecard_python_greedy",
    "matches_lost_cities_native",
    "matches_lost_cities_lua",
    "matches_lost_cities_wasm",
    "matches_lost_cities_js",
    "matches_lost_cities_js_greedy",
    "matches_lost_cities_python",
    "matches_lost_cities_python_greedy",
    "matches_intensity_native",
    "matches_intensity_lua",
    "matches_intensity_wasm",
    "matches_intensity_js",
    "matches_intensity_js_greedy",
    "matches_intensity_python",
    "matches_intensity_python_greedy",
    "runner_1_thread",
    "runner_2_threads",
    "machine_scaling",
    "machine_memory_scaling",
    "native_scaling",
    "runner_scaling",
    "unmetered_lua_ns",
    "metered_lua_ns",
    "metering_overhead_lua_pct",
    "unmetered_wasm_ns",
    "metered_wasm_ns",
    "metering_overhead_wasm_pct",
    "unmetered_calib_lua_ns",
    "metered_calib_lua_ns",
    "metering_overhead_calib_lua_pct",
    "unmetered_calib_wasm_ns",
    "metered_calib_wasm_ns",
    "metering_overhead_calib_wasm_pct",
    "unmetered_rust_wasm_ns",
    "metered_rust_wasm_ns",
    "metering_overhead_rust_wasm_pct",
    "tournament_1_thread",
    "tournament_2_threads",
    "tournament_cores_1_thread",
    "tournament_cores_2_threads",
    "tournament_scaling",
    "class_python_blade_matches_per_s",
    "rss_per_match_lua_bytes",
    "rss_per_match_wasm_bytes",
    "analyse_blade_seconds",
    "analyse_ecard_seconds",
    "analyse_lost_cities_seconds",
    "analyse_intensity_seconds",
];

#[test]
fn quick_json_has_every_documented_key() {
    let out =
        Command::new(env!("CARGO_BIN_EXE_arena")).args(["bench", "--quick", "--json"]).output().unwrap();
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    let obj = v.as_object().expect("an object");
    let number =
        |key: &str| obj.get(key).and_then(|x| x.as_f64()).unwrap_or_else(|| panic!("missing number {key}"));
    for key in KEYS {
        let n = number(key);
        if let Some(stem) = key.strip_suffix("_pct") {
            // An overhead may be negative (noise), but it is the two times' ratio.
            let what = stem.strip_prefix("metering_overhead_").expect("a metering overhead");
            let metered = number(&format!("metered_{what}_ns"));
            let unmetered = number(&format!("unmetered_{what}_ns"));
            let want = (metered / unmetered - 1.0) * 100.0;
            assert!((n - want).abs() < 0.01, "{key} = {n}, but the times give {want}");
        } else if key.ends_with("_bytes") {
            // Resident memory may not grow at all for a few matches.
            assert!(n >= 0.0, "{key} = {n}");
        } else {
            assert!(n > 0.0, "{key} = {n}");
        }
    }
    for meta in ["bench_format", "quick", "timing", "threads", "cpus", "seconds"] {
        assert!(obj.contains_key(meta), "missing {meta}");
    }
    assert_eq!(obj["quick"], serde_json::json!(true));
    let targets = obj["targets"].as_object().expect("targets");
    assert_eq!(targets.len(), 23, "{targets:?}");
    for (key, t) in targets {
        assert!(obj.contains_key(key), "target for an unknown key {key}");
        assert!(t["met"].is_boolean() && t["target"].is_string(), "{key}: {t}");
    }
    let documented: std::collections::BTreeSet<&str> = KEYS.iter().copied().collect();
    for key in obj.keys() {
        let meta = ["bench_format", "quick", "timing", "threads", "cpus", "seconds", "targets"]
            .contains(&key.as_str());
        assert!(meta || documented.contains(key.as_str()), "undocumented key {key}");
    }
}

#[test]
fn bench_child_answers_the_first_legal_action() {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_arena-bench-child"))
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(b"{\"legal\":[\"B\",\"1\"]}\n").unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout), "B\n");
}

#[test]
fn bench_child_refuses_a_line_without_a_legal_action() {
    use std::io::Write;
    for line in [&b"not json\n"[..], b"{\"legal\":[]}\n"] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_arena-bench-child"))
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        child.stdin.take().unwrap().write_all(line).unwrap();
        let out = child.wait_with_output().unwrap();
        assert!(!out.status.success());
        assert!(out.stdout.is_empty());
        assert!(String::from_utf8_lossy(&out.stderr).starts_with("bench child: "), "{out:?}");
    }
}

/// Without `arena-bench-child` beside it, `arena bench` stops with an error that names the
/// missing file and says how to build it, and prints no table.
#[test]
fn bench_without_its_baseline_program_says_what_is_missing() {
    let dir = std::env::temp_dir().join(format!("cardarena-lonely-bench-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let lonely = dir.join("arena");
    let _ = std::fs::remove_file(&lonely);
    let source = std::path::Path::new(env!("CARGO_BIN_EXE_arena"));
    if std::fs::hard_link(source, &lonely).is_err() {
        std::fs::copy(source, &lonely).unwrap();
    }
    let out = Command::new(&lonely).args(["bench", "--quick"]).output().unwrap();
    std::fs::remove_dir_all(&dir).ok();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(stderr.contains("arena-bench-child") && stderr.contains("cargo build --release"), "{stderr}");
    assert!(out.stdout.is_empty());
}
