//! Checks on the calibration bots of docs/sandbox.md (their timings are the example
//! `calibration`: `cargo run --release -p cardarena-sandbox --example calibration`).

use cardarena_sandbox::{Limits, Sandbox};
use testkit::sandbox::{load, INFO, OBS, SEED};

/// The Lua and WASM calibration bots do the same work: the fuel-unit ratio compares like with like.
#[test]
fn lua_and_wasm_calibration_bots_compute_the_same_reply() {
    let sb = Sandbox::new().unwrap();
    let reply = |file: &str| {
        let program = load(&sb, file).unwrap();
        let limits = Limits::default_for(program.kind());
        program.start(&limits, SEED, INFO).unwrap().act(OBS).unwrap()
    };
    assert_eq!(reply("calib.lua"), reply("calib.wat"));
}

/// The same bot, the same inputs, fresh instances: the same fuel, decision after decision.
#[test]
fn fuel_is_deterministic_across_fresh_instances() {
    let sb = Sandbox::new().unwrap();
    for file in ["calib.lua", "calib.wat", "normal.lua", "normal.wat"] {
        let program = load(&sb, file).unwrap();
        let limits = Limits::default_for(program.kind());
        let trace = |_: usize| {
            let mut inst = program.start(&limits, SEED, INFO).unwrap();
            let mut fuel = vec![inst.fuel_init()];
            for _ in 0..3 {
                inst.act(OBS).unwrap();
                fuel.push(inst.fuel_used_last());
            }
            fuel.push(inst.fuel_total());
            fuel.push(inst.memory_peak());
            fuel
        };
        let first = trace(0);
        for i in 1..4 {
            assert_eq!(trace(i), first, "{file}");
        }
        assert!(first[1] > 0, "{file}: {first:?}");
    }
}
