//! The big coverage simulations behind docs/tools.md (the score interval of `arena check`) and
//! docs/tournament.md (rating intervals): the functions of `cardarena::stats::coverage` that the
//! unit tests run small, here with many replications, printed as the docs' tables.
//!
//! `cargo run --release --example coverage [REPS]` (default 10000 replications per cell for the
//! score interval, a fifth of that per rating scenario). Each cell has its own seed, so the
//! output is the same at any thread count.

use cardarena::stats::coverage::{
    binomial_pmf, out_of_reach, ratings_with_draws, ratings_with_ties, score_exact, score_split_deals,
    score_two_games, BAND, DEALS, SCORES,
};
use cardarena::stats::ratings::score_ci95;
use rayon::prelude::*;

const SEED: u64 = 25;

fn main() {
    let reps: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(10_000);

    println!(
        "Score interval: exact win/loss coverage / two games a deal with draws ({reps} replications), %"
    );
    println!(
        "(* out of reach of any interval: the closest achievable coverages below and above 93-97% follow)\n"
    );
    print!("| deals |");
    for p in SCORES {
        print!(" {p} |");
    }
    println!("\n|---|{}", "---|".repeat(SCORES.len()));
    let cells: Vec<(usize, f64)> = DEALS.iter().flat_map(|&n| SCORES.iter().map(move |&p| (n, p))).collect();
    let results = cells
        .par_iter()
        .map(|&(n, p)| (score_exact(p, n), score_two_games(p, n, reps, SEED), out_of_reach(p, n)))
        .collect::<Vec<_>>();
    for (row, n) in results.chunks(SCORES.len()).zip(DEALS) {
        print!("| {n} |");
        for (exact, sim, gap) in row {
            let star = if gap.is_some() { "*" } else { "" };
            print!(" {:.1}{star} / {:.1} |", exact * 100.0, sim * 100.0);
        }
        println!();
    }
    let reachable: Vec<f64> = results.iter().filter(|r| r.2.is_none()).map(|r| r.0).collect();
    let lowest = reachable.iter().copied().fold(f64::INFINITY, f64::min);
    let highest = reachable.iter().copied().fold(0.0, f64::max);
    println!(
        "\nreachable cells, exact: {:.1}-{:.1}% ({} of {} inside {:?})",
        lowest * 100.0,
        highest * 100.0,
        reachable.iter().filter(|c| BAND.contains(c)).count(),
        reachable.len(),
        BAND
    );
    println!("\n| deals | true score | closest below | closest above (what the interval covers) |");
    println!("|---|---|---|---|");
    for ((n, p), (exact, _, gap)) in cells.iter().zip(&results) {
        if let Some((below, above)) = gap {
            println!("| {n} | {p} | {:.2}% | {:.2}% ({:.2}%) |", below * 100.0, above * 100.0, exact * 100.0);
        }
    }

    println!(
        "\nBetween the grid's scores (exact win/loss coverage at every true score 0.5, 0.5005, ..., 0.995;"
    );
    println!("reachable: some run of win counts has a probability inside 93-97%):\n");
    println!("| deals | lowest where reachable | share of scores reachable but below 93% | reachable but above 97% |");
    println!("|---|---|---|---|");
    let fine: Vec<f64> = (0..=990).map(|i| 0.5 + 0.0005 * i as f64).collect();
    let rows: Vec<(usize, f64, f64, f64)> = DEALS
        .par_iter()
        .map(|&n| {
            let intervals: Vec<(f64, f64)> = (0..=n)
                .map(|x| {
                    let xs: Vec<f64> = (0..n).map(|i| if i < x { 1.0 } else { 0.0 }).collect();
                    let (_, lo, hi) = score_ci95(&xs).expect("scores");
                    (lo, hi)
                })
                .collect();
            let (mut lowest, mut below, mut above) = (1.0f64, 0, 0);
            for &p in &fine {
                if out_of_reach(p, n).is_some() {
                    continue;
                }
                let c: f64 = binomial_pmf(n, p)
                    .iter()
                    .zip(&intervals)
                    .filter(|(_, (lo, hi))| *lo <= p && p <= *hi)
                    .map(|(q, _)| q)
                    .sum();
                lowest = lowest.min(c);
                below += usize::from(c < *BAND.start());
                above += usize::from(c > *BAND.end());
            }
            let share = |k: usize| k as f64 / fine.len() as f64 * 100.0;
            (n, lowest * 100.0, share(below), share(above))
        })
        .collect();
    for (n, lowest, below, above) in rows {
        println!("| {n} | {lowest:.1}% | {below:.1}% | {above:.1}% |");
    }

    println!("\nDuplicate deals that mostly split ({reps} replications):\n");
    println!("| deals | true score | coverage |");
    println!("|---|---|---|");
    let split: Vec<(usize, f64, f64)> = [20, 100]
        .into_iter()
        .flat_map(|n| [0.5, 0.75, 1.0].map(|won| (n, won)))
        .collect::<Vec<_>>()
        .into_par_iter()
        .map(|(n, won)| {
            let (p, c) = score_split_deals(won, n, reps, SEED);
            (n, p, c)
        })
        .collect();
    for (n, p, c) in split {
        println!("| {n} | {p:.2} | {:.1}% |", c * 100.0);
    }

    let rating_reps = reps / 5;
    println!("\nRating intervals ({rating_reps} replications):\n");
    println!("| scenario | per-bot interval | pairwise difference |");
    println!("|---|---|---|");
    let (draws, ties) = rayon::join(
        || {
            [0.0, 0.36, 0.62]
                .into_par_iter()
                .map(|d| (d, ratings_with_draws(d, rating_reps, SEED)))
                .collect::<Vec<_>>()
        },
        || ratings_with_ties(0.3, rating_reps, SEED),
    );
    let scenarios = draws
        .into_iter()
        .map(|(d, c)| (format!("3 bots, 2-player games, {:.0}% draws, 120 games", d * 100.0), c))
        .chain([("4 bots at every table, ties 0.3, 150 games".to_string(), ties)]);
    for (name, c) in scenarios {
        println!("| {name} | {:.1}% | {:.1}% |", c.single * 100.0, c.pairwise * 100.0);
    }
}
