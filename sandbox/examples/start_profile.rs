//! Profiling aid (not a test): starts the benchmark's trivial bots N times (or, with
//! `ACT_OBS=FILE`, makes N decisions on the observation in FILE).
//! `cargo run --release -p cardarena-sandbox --features baseline --example start_profile -- wasm 200000`
use cardarena_sandbox::{Kind, Limits, Sandbox};

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "wasm".into());
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    if kind == "bare-lua" {
        // the floor of a Lua start: a VM with the libraries the sandbox opens, then dropped
        use mlua::{Lua, LuaOptions, StdLib};
        let t = std::time::Instant::now();
        for _ in 0..n {
            let libs = StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8;
            std::hint::black_box(Lua::new_with(libs, LuaOptions::default()).expect("lua"));
        }
        println!(
            "{:.2} µs per bare Lua VM (4 libraries), created and dropped",
            t.elapsed().as_secs_f64() * 1e6 / n as f64
        );
        return;
    }
    let sandbox = Sandbox::new().expect("sandbox");
    let (name, kind, src): (&str, Kind, &[u8]) = if kind == "wasm" {
        ("first_legal.wat", Kind::Wasm, include_bytes!("../../example_bots/wat/first_legal.wat"))
    } else {
        ("trivial.lua", Kind::Lua, include_bytes!("../../benches/bots/trivial.lua"))
    };
    let program = sandbox.load(name, kind, src).expect("load");
    let limits = Limits { fuel_per_match: u64::MAX, ..Limits::default_for(kind) };
    if let (Ok(path), Ok(bot)) = (std::env::var("ACT_OBS"), std::env::var("PLAIN_LUA")) {
        // an unmetered Lua VM (no hook, no prelude): `PLAIN_LUA=bot.lua ACT_OBS=obs.json start_profile lua N`
        let obs = std::fs::read_to_string(path).expect("observation file");
        let src = std::fs::read_to_string(bot).expect("bot file");
        let mut plain = cardarena_sandbox::baseline::PlainLua::new(&src, 1).expect("plain lua");
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(plain.act(obs.trim()).expect("act"));
        }
        println!("{:.3} µs per act (unmetered)", t.elapsed().as_secs_f64() * 1e6 / n as f64);
        return;
    }
    if let Ok(path) = std::env::var("ACT_OBS") {
        // decisions instead of starts: `ACT_OBS=obs.json start_profile wasm N`
        let obs = std::fs::read_to_string(path).expect("observation file");
        let mut inst = program.start(&limits, 1, "{\"seat\":0,\"seed\":1}").expect("start");
        let t = std::time::Instant::now();
        for _ in 0..n {
            std::hint::black_box(inst.act(obs.trim()).expect("act"));
        }
        println!(
            "{:.3} µs per decision ({} fuel)",
            t.elapsed().as_secs_f64() * 1e6 / n as f64,
            inst.fuel_used_last()
        );
        return;
    }
    let t = std::time::Instant::now();
    for seed in 0..n {
        let inst = program.start(&limits, seed, "{\"seat\":0,\"seed\":1}").expect("start");
        std::hint::black_box(inst);
    }
    println!("{:.2} µs per start", t.elapsed().as_secs_f64() * 1e6 / n as f64);
}
