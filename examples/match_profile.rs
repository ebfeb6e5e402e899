//! Profiling aid (not a test): N Blade matches between two Lua (or WASM) random bots on one
//! thread (or on THREADS threads, each playing N), as `arena bench` plays them.
//! `cargo run --release --example match_profile -- lua 20000 [THREADS]` (`NATIVE=1`: the
//! built-in random bots instead, the runner's own cost). Each thread plays on a sandbox lane of
//! its own, as a tournament's workers do (`SHARED=1`: every thread on the programs as loaded,
//! one wasmtime engine for all).
use cardarena::games::blade::Blade;
use cardarena::games::Game;
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::BotSource;
use cardarena::play::runner::{run_match, MatchSpec, Quiet};
use cardarena_sandbox::{Kind, Sandbox};

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "lua".into());
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(10_000);
    let threads: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(1);
    let sandbox = Sandbox::new().expect("sandbox");
    let (name, kind, src): (&str, Kind, &[u8]) = match kind.as_str() {
        "wasm" => ("random.wat", Kind::Wasm, include_bytes!("../benches/bots/random.wat")),
        _ => ("random.lua", Kind::Lua, include_bytes!("../benches/bots/random.lua")),
    };
    let program = sandbox.load(name, kind, src).expect("load");
    let sources = if std::env::var_os("NATIVE").is_some() {
        vec![BotSource::Builtin("random".into()); 2]
    } else {
        vec![BotSource::File { name: name.into(), program }; 2]
    };
    let limits = LimitsConfig::default();
    let entries: Vec<_> = sources.iter().map(BotSource::entry).collect();
    let t = std::time::Instant::now();
    let lanes = cardarena::play::registry::Lanes::new(Some(&sandbox), sources.clone(), threads as usize);
    let shared = std::env::var_os("SHARED").is_some();
    let play = |first: u64| {
        let sources = if shared { &sources } else { lanes.for_worker(Some((first / n) as usize)) };
        let mut decisions = 0;
        for seed in first..first + n {
            let spec = MatchSpec::<Blade> { variant: Blade::variants()[0], seed, entries: entries.clone() };
            let mut bots: Vec<_> =
                sources.iter().enumerate().map(|(s, b)| b.instantiate::<Blade>(seed, s, &limits)).collect();
            let replay = run_match(&spec, &mut bots, &mut Quiet);
            decisions += replay.decisions.len();
        }
        decisions
    };
    let decisions: usize = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads).map(|k| s.spawn(move || play(k * n))).collect();
        handles.into_iter().map(|h| h.join().expect("thread")).sum()
    });
    let e = t.elapsed().as_secs_f64();
    let total = n * threads;
    println!(
        "{:.1} µs per match ({:.0} matches/s on {threads} thread(s)), {:.1} decisions per match",
        e * 1e6 / n as f64,
        total as f64 / e,
        decisions as f64 / total as f64
    );
}
