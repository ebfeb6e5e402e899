//! The cost of one legacy decision: a fresh instance of a WASI command (the example C Intensity
//! bot), libc start-up, `main` on the COMP1511 spec's play example, exit.
//!
//!   cargo run --release -p cardarena-sandbox --example legacy_decision [N]

use std::time::Instant;

use cardarena_sandbox::{Limits, Sandbox};

fn main() {
    let n: u32 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(5000);
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../example_bots/legacy/intensity_c.wasm");
    let bytes =
        std::fs::read(path).expect("example_bots/legacy/intensity_c.wasm (scripts/build-example-bots.sh)");
    let sandbox = Sandbox::new().expect("sandbox");
    let program = sandbox.load_stdio("intensity_c.wasm", &bytes).expect("loads");
    let stdin = b"2\n9 2 0\n11 15 18 23 33 34 47 48 49\n24 26\n16 13 19 12\n37 38 39\n34 47 48\n";
    let limits = Limits { fuel_per_match: u64::MAX, ..Limits::WASM };
    let mut bot = program.start(&limits, 1);
    for _ in 0..200 {
        bot.run(stdin).expect("runs");
    }
    let start = Instant::now();
    for _ in 0..n {
        bot.run(stdin).expect("runs");
    }
    let per = start.elapsed() / n;
    println!(
        "legacy decision (intensity_c.wasm, spec play example): {per:?} per decision, {} fuel, pooled instances: {}",
        bot.fuel_used_last(),
        sandbox.wasm_pooled()
    );
}
