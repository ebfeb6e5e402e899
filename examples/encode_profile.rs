//! Profiling aid (not a test): encodes a mid-match Blade observation to JSON N times into a
//! reused buffer, as the arena does per decision of a WASM bot: with the game's hand-written
//! `write_json` (what the arena uses), or with serde_json (`serde`).
//! `cargo run --release --example encode_profile -- 2000000 [hand|serde]`
use cardarena::bot::Bot;
use cardarena::games::blade::Blade;
use cardarena::games::{Game, Observation};

fn main() {
    let n: u64 = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(1_000_000);
    let serde = std::env::args().nth(2).is_some_and(|s| s == "serde");
    let mut state = Blade::new(Blade::variants()[0], 7);
    let mut bots: Vec<Box<dyn Bot<Blade>>> =
        (0..2).map(|seat| cardarena::bot::builtin::<Blade>("random", 7, seat).expect("random")).collect();
    let mut obs = None;
    for _ in 0..8 {
        let Some(&seat) = state.to_act().first() else { break };
        let o = state.observe(seat);
        let action = bots[seat].act(&o).expect("acts");
        obs = Some(o);
        state.play(seat, &action).expect("legal");
    }
    let obs = obs.expect("an observation");
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
