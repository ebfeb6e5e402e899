//! The big SPRT simulation behind docs/tournament.md: error rates of `arena sprt`'s test at the
//! default bounds, in both Elo models, with the overshoot-corrected bounds and with Wald's plain
//! ones. Pairs are two independent games with 30% draws; the LLR is looked at every 8 pairs.
//!
//! `cargo run --release --example sprt_error_rates [RUNS]` (default 1000 runs per cell).

use cardarena::games::rng::{Rng, Stream};
use cardarena::stats::sprt::{EloModel, Sprt, SprtDecision, SprtParams};
use rayon::prelude::*;

const BATCH: usize = 8;

fn pair_pdf(shift: f64) -> [f64; 5] {
    let game = [0.35 * (1.0 - shift), 0.3, 0.35 * (1.0 + shift)];
    let mut pdf = [0.0; 5];
    for (a, pa) in game.iter().enumerate() {
        for (b, pb) in game.iter().enumerate() {
            pdf[a + b] += pa * pb;
        }
    }
    pdf
}

fn elo_of(model: EloModel, shift: f64) -> f64 {
    let counts = pair_pdf(shift).map(|p| (p * 1e12) as u64);
    SprtParams { model, ..SprtParams::default() }.estimate(&counts).expect("pairs").0
}

fn shift_for(model: EloModel, elo: f64) -> f64 {
    let (mut lo, mut hi) = (-0.99, 0.99);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if elo_of(model, mid) < elo {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    lo
}

/// One test: (accepted H1, pairs played). `corrected`: the overshoot-corrected bounds, else Wald's.
fn run(params: SprtParams, pdf: &[f64; 5], seed: u64, corrected: bool) -> (bool, u64) {
    let mut rng = Rng::new(seed, Stream::Arena);
    let mut test = Sprt::new(params);
    let (lower, upper) = params.bounds();
    loop {
        let batch: Vec<usize> = (0..BATCH)
            .map(|_| {
                let mut u = rng.unit_f64();
                pdf.iter()
                    .position(|&p| {
                        u -= p;
                        u < 0.0
                    })
                    .unwrap_or(4)
            })
            .collect();
        let decision = test.record_batch(&batch);
        let pairs = test.counts.iter().sum();
        if corrected {
            if decision != SprtDecision::Continue {
                return (decision == SprtDecision::AcceptH1, pairs);
            }
        } else if test.llr >= upper || test.llr <= lower {
            return (test.llr >= upper, pairs);
        }
    }
}

fn main() {
    let runs: u64 = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(1000);
    println!("| model | bounds | truth | bounds used | P(accept H1) | mean pairs |");
    println!("|---|---|---|---|---|---|");
    for model in [EloModel::Normalized, EloModel::Logistic] {
        let params = SprtParams { model, elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 };
        for (truth, label) in [(0.0, "elo0"), (10.0, "elo1")] {
            let pdf = pair_pdf(shift_for(model, truth));
            for corrected in [true, false] {
                let results: Vec<(bool, u64)> =
                    (0..runs).into_par_iter().map(|i| run(params, &pdf, i * 2 + 1, corrected)).collect();
                let pass = results.iter().filter(|r| r.0).count() as f64 / runs as f64;
                let pairs = results.iter().map(|r| r.1).sum::<u64>() as f64 / runs as f64;
                println!(
                    "| {model:?} | [0, 10] | {label} | {} | {pass:.3} | {pairs:.0} |",
                    if corrected { "overshoot-corrected" } else { "Wald" }
                );
            }
        }
    }
    // What logistic [0, 10] is in normalized Elo on these pairs (30% draws).
    let s = shift_for(EloModel::Logistic, 10.0);
    println!(
        "\nlogistic 10 = normalized {:.1} here (30% draws, independent games)",
        elo_of(EloModel::Normalized, s)
    );
}
