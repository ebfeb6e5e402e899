//! Profiling aid (not a test): starts the benchmark's WASM random bot N times.
//! `cargo run --release -p cardarena-sandbox --example start_profile -- wasm 200000`
use cardarena_sandbox::{Kind, Limits, Sandbox};

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "wasm".into());
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    let sandbox = Sandbox::new().expect("sandbox");
    let (name, kind, src): (&str, Kind, &[u8]) = if kind == "wasm" {
        ("random.wat", Kind::Wasm, include_bytes!("../../src/bench/random.wat"))
    } else {
        ("random.lua", Kind::Lua, include_bytes!("../../src/bench/random.lua"))
    };
    let program = sandbox.load(name, kind, src).expect("load");
    let limits = Limits::default_for(kind);
    let t = std::time::Instant::now();
    for seed in 0..n {
        let inst = program.start(&limits, seed, "{\"seat\":0,\"seed\":1}").expect("start");
        std::hint::black_box(inst);
    }
    println!("{:.2} µs per start", t.elapsed().as_secs_f64() * 1e6 / n as f64);
}
