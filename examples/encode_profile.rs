//! Profiling aid (not a test): encodes a mid-match Blade observation to JSON N times into a
//! reused buffer, as the arena does per decision of a WASM bot: with the game's hand-written
//! `write_json` (what the arena uses), or with serde_json (`serde`).
//! `cargo run --release --example encode_profile -- 2000000 [hand|serde]`
use cardarena::games::Observation;

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let serde = std::env::args().nth(2).is_some_and(|s| s == "serde");
    // The observation every per-decision figure of `arena bench` uses.
    let obs = cardarena::games::testkit::blade_observation();
    let mut buf = Vec::with_capacity(4096);
    let t = std::time::Instant::now();
    for _ in 0..n {
        buf.clear();
        if serde {
            serde_json::to_writer(&mut buf, std::hint::black_box(&obs)).expect("json");
        } else {
            std::hint::black_box(&obs).write_json(&mut buf).expect("json");
        }
        std::hint::black_box(&buf);
    }
    println!("{} bytes, {:.3} µs per encode", buf.len(), t.elapsed().as_secs_f64() * 1e6 / n as f64);
    println!("{}", String::from_utf8_lossy(&buf));
}
