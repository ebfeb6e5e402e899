//! Measurements behind docs/sandbox.md (not a test): fuel-unit calibration, start and call
//! costs, time per fuel of the hostile bombs, pooling versus on-demand instance allocation.
//! `cargo run --release -p cardarena-sandbox --example calibration [fuel|costs|bombs|pooling]`
//! (no argument: all four).

use std::time::{Duration, Instant};

use cardarena_sandbox::{Instance, Kind, Limits, Program, Sandbox};
use testkit::sandbox::{self, load, INFO, OBS, SEED};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn big_limits(kind: Kind) -> Limits {
    Limits {
        fuel_per_decision: 10_000_000_000,
        fuel_per_match: u64::MAX / 4,
        wall_per_decision: Duration::from_secs(60),
        ..Limits::default_for(kind)
    }
}

/// Runs `act` `n` times on one instance: (reply, fuel per call, median time per call).
fn run(program: &Program, n: usize) -> (String, u64, Duration) {
    let mut inst = program.start(&big_limits(program.kind()), SEED, INFO).expect("starts");
    let mut reply = String::new();
    let mut fuel = 0;
    let mut times = Vec::new();
    for _ in 0..n {
        let t = Instant::now();
        reply = inst.act(OBS).expect("acts");
        times.push(t.elapsed());
        fuel = inst.fuel_used_last();
    }
    (reply, fuel, median(times))
}

fn fuel_unit_calibration() {
    let sb = Sandbox::new().unwrap();
    let lua = load(&sb, "calib.lua").unwrap();
    let wasm = load(&sb, "calib.wat").unwrap();
    let (lr, lf, lt) = run(&lua, 15);
    let (wr, wf, wt) = run(&wasm, 15);
    assert_eq!(lr, wr, "the two implementations must compute the same thing");
    println!("calibration workload (600-element insertion sort + 200 trick playouts), reply {lr}");
    println!("  lua : {lf:>10} fuel  {lt:>10.2?}  {:.2} ns/fuel", lt.as_nanos() as f64 / lf as f64);
    println!("  wasm: {wf:>10} fuel  {wt:>10.2?}  {:.3} ns/fuel", wt.as_nanos() as f64 / wf as f64);
    println!(
        "  one Lua fuel unit = {:.1} WASM fuel units of work; Lua takes {:.1}x the time",
        wf as f64 / lf as f64,
        lt.as_secs_f64() / wt.as_secs_f64()
    );
}

fn instantiate_and_call_costs() {
    println!("on a thread with 16 MiB of stack:");
    std::thread::Builder::new().stack_size(16 << 20).spawn(costs).unwrap().join().unwrap();
    println!("on the main thread:");
    costs();
}

fn costs() {
    let sb = Sandbox::new().unwrap();
    for file in ["normal.lua", "normal.wat"] {
        let program = load(&sb, file).unwrap();
        let limits = Limits::default_for(program.kind());
        let mut starts = Vec::new();
        let mut calls = Vec::new();
        for _ in 0..200 {
            let t = Instant::now();
            let mut inst: Instance = program.start(&limits, SEED, INFO).unwrap();
            starts.push(t.elapsed());
            for _ in 0..20 {
                let t = Instant::now();
                inst.act(OBS).unwrap();
                calls.push(t.elapsed());
            }
        }
        println!(
            "{file:>11}: start (fresh VM/instance + init) {:>9.2?}   act {:>9.2?}",
            median(starts),
            median(calls)
        );
    }
    let t = Instant::now();
    let n = 20;
    for _ in 0..n {
        load(&sb, "calib.wat").unwrap();
    }
    println!(
        "compile calib.wat (Cranelift, {} bytes of text): {:.2?}",
        std::fs::metadata(sandbox::bot_path("calib.wat")).unwrap().len(),
        t.elapsed() / n
    );
}

/// Wall time of the hostile bombs per unit of fuel, in a release build: how long a bot can
/// run on a full decision budget of each kind of work.
fn time_per_fuel_of_charged_work() {
    let sb = Sandbox::new().unwrap();
    for file in [
        "lua_infinite_loop.lua",
        "lua_concat_bomb.lua",
        "lua_rep_bomb.lua",
        "lua_table_concat_bomb.lua",
        "lua_table_move_bomb.lua",
        "lua_format_bomb.lua",
        "lua_pattern_bomb.lua",
        "lua_gsub_bomb.lua",
        "lua_sort_bomb.lua",
        "lua_utf8_bomb.lua",
        "lua_tonumber_bomb.lua",
        "lua_print_spam.lua",
        "lua_memory_pcall_retry.lua",
        "lua_load_bomb.lua",
        "wasm_infinite_loop.wat",
        "wasm_memcopy_bomb.wat",
        "wasm_memfill_bomb.wat",
        "wasm_log_spam.wat",
    ] {
        let program = load(&sb, file).unwrap();
        let limits = Limits::default_for(program.kind());
        let mut inst = program.start(&limits, SEED, INFO).unwrap();
        let t = Instant::now();
        let fault = inst.act(OBS).unwrap_err();
        let el = t.elapsed();
        println!(
            "{file:>28}: {:>9} after {:>9.2?} on {:>10} fuel = {:>7.2} ns/fuel",
            fault.verdict.as_str(),
            el,
            fault.fuel_used,
            el.as_nanos() as f64 / fault.fuel_used.max(1) as f64
        );
    }
}

/// Pooling (what the sandbox uses) versus on-demand instance allocation, measured directly on
/// wasmtime.
fn pooling_versus_on_demand() {
    use wasmtime::{
        Config, Engine, InstanceAllocationStrategy, Linker, Module, PoolingAllocationConfig, Store,
    };
    let wat = std::fs::read(sandbox::bot_path("calib.wat")).unwrap();
    for pooling in [false, true] {
        let mut c = Config::new();
        c.consume_fuel(true).epoch_interruption(true);
        if pooling {
            let mut p = PoolingAllocationConfig::new();
            p.total_memories(100).total_tables(100).total_core_instances(100).max_memory_size(64 << 20);
            c.allocation_strategy(InstanceAllocationStrategy::Pooling(p));
        }
        let engine = Engine::new(&c).unwrap();
        let module = Module::new(&engine, &wat).unwrap();
        let linker = Linker::<()>::new(&engine);
        let pre = linker.instantiate_pre(&module).unwrap();
        let mut times = Vec::new();
        for _ in 0..2000 {
            let t = Instant::now();
            let mut store = Store::new(&engine, ());
            store.set_fuel(1_000_000).unwrap();
            store.set_epoch_deadline(1000);
            let _inst = pre.instantiate(&mut store).unwrap();
            times.push(t.elapsed());
        }
        println!(
            "Store::new + InstancePre::instantiate ({}): {:.2?}",
            if pooling { "pooling" } else { "on-demand" },
            median(times)
        );
    }
}

fn main() {
    let which = std::env::args().nth(1);
    let run = |name: &str| which.as_deref().is_none_or(|w| w == name);
    if run("fuel") {
        fuel_unit_calibration();
    }
    if run("costs") {
        instantiate_and_call_costs();
    }
    if run("bombs") {
        time_per_fuel_of_charged_work();
    }
    if run("pooling") {
        pooling_versus_on_demand();
    }
}
