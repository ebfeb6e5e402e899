//! Micro-benchmarks of the games' hot paths: legal moves, applying a move, building an
//! observation, and encoding it as the JSON a sandboxed bot receives.
//!
//! ```sh
//! cargo bench --bench hot_paths            # all of them
//! cargo bench --bench hot_paths -- blade   # one game
//! ```
//!
//! Each is measured on a position from the middle of a match (seed 7, the first legal action
//! of every seat to act, for `PLIES` decisions), where the public history is half grown.

use std::hint::black_box;
use std::time::Duration;

use cardarena::games::blade::Blade;
use cardarena::games::ecard::Ecard;
use cardarena::games::intensity::Intensity;
use cardarena::games::lost_cities::LostCities;
use cardarena::games::{Game, Observation};
use criterion::{criterion_group, criterion_main, Criterion};

/// A position `plies` decisions into the match of seed 7 (fewer if it ends first), and a seat
/// to act there.
fn midgame<G: Game>(plies: usize) -> (G, usize) {
    let mut state = G::new(G::variants()[0], 7);
    let mut last = (state.clone(), state.to_act()[0]);
    for i in 0..plies {
        let seats = state.to_act();
        let Some(&seat) = seats.first() else { break };
        last = (state.clone(), seat);
        let legal = state.legal_actions(seat);
        let action = legal[i % legal.len()].clone();
        state.play_unchecked(seat, &action);
        if state.is_over() {
            break;
        }
    }
    last
}

fn game<G: Game>(c: &mut Criterion, plies: usize) {
    let (state, seat) = midgame::<G>(plies);
    let name = G::NAME;
    let action = state.legal_actions(seat)[0].clone();
    let obs = state.observe(seat);
    c.bench_function(&format!("{name}/legal_actions"), |b| b.iter(|| black_box(&state).legal_actions(seat)));
    c.bench_function(&format!("{name}/legal_strings"), |b| b.iter(|| black_box(&state).legal_strings(seat)));
    c.bench_function(&format!("{name}/apply (clone + play_unchecked)"), |b| {
        b.iter(|| {
            let mut s = black_box(&state).clone();
            s.play_unchecked(seat, &action);
            s
        })
    });
    c.bench_function(&format!("{name}/apply checked (clone + play)"), |b| {
        let text = action.to_string();
        b.iter(|| {
            let mut s = black_box(&state).clone();
            s.play(seat, &text).expect("legal");
            s
        })
    });
    c.bench_function(&format!("{name}/clone"), |b| b.iter(|| black_box(&state).clone()));
    c.bench_function(&format!("{name}/observe"), |b| b.iter(|| black_box(&state).observe(seat)));
    c.bench_function(&format!("{name}/observation to JSON"), |b| {
        b.iter(|| serde_json::to_string(black_box(&obs)).expect("serializes"))
    });
    // What a WASM bot's decision encodes: the game's `write_json`, into a reused buffer.
    c.bench_function(&format!("{name}/observation write_json"), |b| {
        let mut buf = Vec::with_capacity(1 << 14);
        b.iter(|| {
            buf.clear();
            black_box(&obs).write_json(&mut buf).expect("encodes");
            buf.len()
        })
    });
}

fn games(c: &mut Criterion) {
    game::<Blade>(c, 8);
    game::<Ecard>(c, 12);
    game::<LostCities>(c, 60);
    game::<Intensity>(c, 24);
}

criterion_group! {
    name = hot_paths;
    config = Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_secs(1))
        .sample_size(30);
    targets = games
}
criterion_main!(hot_paths);
