//! Profiling aid (not a test): N decisions of a trivial Lua or WASM bot on a mid-match Blade
//! observation, through the arena's `Bot` adapter (as `arena bench` measures them).
//! `cargo run --release --example decision_profile -- lua 300000`
use cardarena::games::blade::Blade;
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::BotSource;
use cardarena_sandbox::{Kind, Sandbox};

fn main() {
    let mut args = std::env::args().skip(1);
    let kind = args.next().unwrap_or_else(|| "lua".into());
    let n: u64 = args.next().and_then(|s| s.parse().ok()).unwrap_or(100_000);
    // The observation every per-decision figure of `arena bench` uses.
    let obs = cardarena::games::testkit::blade_observation();
    let sandbox = Sandbox::new().expect("sandbox");
    let (name, kind, src): (&str, Kind, &[u8]) = match kind.as_str() {
        "wasm" => ("trivial.wat", Kind::Wasm, include_bytes!("../benches/bots/trivial.wat")),
        _ => ("trivial.lua", Kind::Lua, include_bytes!("../benches/bots/trivial.lua")),
    };
    let program = sandbox.load(name, kind, src).expect("load");
    let source = BotSource::File { name: name.into(), program };
    // The match's fuel bank lifted: N decisions may spend more than one match may.
    let limits = LimitsConfig { fuel_per_match: Some(u64::MAX), ..LimitsConfig::default() };
    let mut bot = source.instantiate::<Blade>(1, 0, &limits);
    let info = cardarena::bots::bot::InitInfo {
        game: "blade",
        variant: "readme".into(),
        seat: 0,
        players: 2,
        seed: 1,
    };
    bot.init(&info).expect("init");
    let t = std::time::Instant::now();
    for _ in 0..n {
        std::hint::black_box(bot.act(std::hint::black_box(&obs)).expect("act"));
    }
    println!("{:.3} µs per decision", t.elapsed().as_secs_f64() * 1e6 / n as f64);
    if let Some(fuel) = bot.fuel_used_last() {
        println!("{fuel} fuel per decision");
    }
}
