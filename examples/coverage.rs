//! The big coverage simulations behind docs/tools.md (the score interval of `arena check`) and
//! docs/tournament.md (rating intervals): the functions of `cardarena::stats::coverage` that the
//! unit tests run small, here with many replications, printed as the docs' tables.
//!
//! `cargo run --release --example coverage [REPS]` (default 10000 replications per cell for the
//! score interval, a fifth of that per rating scenario). Each cell has its own seed, so the
//! output is the same at any thread count. The fine scans of the score interval (every true score
//! 0.5, 0.5005, ..., 0.995) are exact sums, not simulations: binomial for win/loss deals,
//! trinomial with draws; and the two-game coverage over 20 and 50 deals is also computed exactly.

use cardarena::stats::coverage::{
    exact_coverage, lowest_coverage, out_of_reach, outcomes, ratings_with_draws, ratings_with_ties,
    score_exact, score_scan, score_split_deals, score_two_games, score_two_games_exact, summarize,
    ScanSummary, ScoreMethod, BAND, DEALS, DRAW_RATES, SCORES,
};
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
    println!("\nTwo games a deal with draws, exact (distribution of the deals' sums; up to 50 deals), %:\n");
    print!("| deals |");
    for p in SCORES {
        print!(" {p} |");
    }
    println!("\n|---|{}", "---|".repeat(SCORES.len()));
    let exact_rows: Vec<(usize, Vec<f64>)> = [20, 50]
        .into_par_iter()
        .map(|n| (n, SCORES.iter().map(|&p| score_two_games_exact(p, n)).collect()))
        .collect();
    for (n, row) in exact_rows {
        print!("| {n} |");
        for c in row {
            print!(" {:.2} |", c * 100.0);
        }
        println!();
    }
    println!("\n| deals | true score | closest below | closest above (what the interval covers) |");
    println!("|---|---|---|---|");
    for ((n, p), (exact, _, gap)) in cells.iter().zip(&results) {
        if let Some((below, above)) = gap {
            println!("| {n} | {p} | {:.2}% | {:.2}% ({:.2}%) |", below * 100.0, above * 100.0, exact * 100.0);
        }
    }

    println!("\nFine scan: exact coverage at every true score 0.5, 0.5005, ..., 0.995 (991 scores), %.");
    println!("Win/loss deals; min/5th/median/max/in 93-97% over the scores some interval can bring");
    println!("into 93-97% (reachable), and the lowest over all scores:\n");
    println!("| deals | reachable | interval | min | 5th pct | median | max | in 93-97% | min, all scores |");
    println!("|---|---|---|---|---|---|---|---|---|");
    let fine = score_scan(0.0005);
    let reach: Vec<(usize, Vec<bool>)> = DEALS
        .par_iter()
        .map(|&n| (n, fine.iter().map(|&p| out_of_reach(p, n).is_none()).collect()))
        .collect();
    let jobs: Vec<(usize, ScoreMethod)> =
        DEALS.iter().flat_map(|&n| ScoreMethod::ALL.map(move |m| (n, m))).collect();
    let rows: Vec<(usize, ScoreMethod, Vec<f64>)> = jobs
        .par_iter()
        .map(|&(n, m)| {
            let all = outcomes(m, n, false);
            (n, m, fine.iter().map(|&p| exact_coverage(&all, n, p, 0.0)).collect())
        })
        .collect();
    for (n, m, c) in &rows {
        let reachable = &reach.iter().find(|(k, _)| k == n).expect("scanned").1;
        let inside: Vec<f64> = c.iter().zip(reachable).filter(|(_, r)| **r).map(|(c, _)| *c).collect();
        let s = summarize(&inside);
        let lowest = c.iter().copied().fold(f64::INFINITY, f64::min);
        println!(
            "| {n} | {:.1}% | {} | {} | {} | {} | {} | {:.1}% | {} |",
            inside.len() as f64 / c.len() as f64 * 100.0,
            m.name(),
            pct(s.min),
            pct(s.p5),
            pct(s.median),
            pct(s.max),
            s.in_band * 100.0,
            pct(lowest)
        );
    }

    println!("\nLowest coverage over every true score 0.5-0.995 (exact, not only the scan's), %:\n");
    println!("| deals | lowest | at true score |");
    println!("|---|---|---|");
    let lowest: Vec<(usize, (f64, f64))> = DEALS
        .par_iter()
        .map(|&n| (n, lowest_coverage(&outcomes(ScoreMethod::Current, n, false), n, 0.5..=0.995)))
        .collect();
    for (n, (c, at)) in lowest {
        println!("| {n} | {} | {at:.4} |", pct2(c));
    }

    println!("\nBetween the five deal counts: every count 20-100 and every tenth to 400, win/loss, the");
    println!("interval of arena check; the fine scan's lowest and share of reachable scores in 93-97%,");
    println!("and the lowest over every true score:\n");
    let counts: Vec<usize> = (20..=100).chain((110..=400).step_by(10)).collect();
    let between: Vec<(usize, f64, f64, f64)> = counts
        .par_iter()
        .map(|&n| {
            let all = outcomes(ScoreMethod::Current, n, false);
            let c: Vec<f64> = fine.iter().map(|&p| exact_coverage(&all, n, p, 0.0)).collect();
            let reachable: Vec<f64> = c
                .iter()
                .zip(&fine)
                .filter(|(_, p)| out_of_reach(**p, n).is_none())
                .map(|(c, _)| *c)
                .collect();
            let scan_min = c.iter().copied().fold(f64::INFINITY, f64::min);
            (n, scan_min, summarize(&reachable).in_band, lowest_coverage(&all, n, 0.5..=0.995).0)
        })
        .collect();
    let below: Vec<String> =
        between.iter().filter(|b| b.1 < 0.926).map(|(n, c, _, _)| format!("{n}: {}", pct(*c))).collect();
    let below_exact: Vec<String> =
        between.iter().filter(|b| b.3 < 0.926).map(|(n, _, _, c)| format!("{n}: {}", pct2(*c))).collect();
    let worst = between.iter().min_by(|a, b| a.1.total_cmp(&b.1)).expect("counts");
    let worst_exact = between.iter().min_by(|a, b| a.3.total_cmp(&b.3)).expect("counts");
    let mean_share = between.iter().map(|b| b.2).sum::<f64>() / between.len() as f64;
    println!(
        "- {} deal counts; mean share of reachable scores in 93-97%: {:.2}%",
        between.len(),
        mean_share * 100.0
    );
    println!("- scan's lowest below 92.6% at {} counts ({})", below.len(), below.join(", "));
    println!(
        "- lowest over every true score below 92.6% at {} counts ({})",
        below_exact.len(),
        below_exact.join(", ")
    );
    println!(
        "- lowest: scan {}% ({} deals), every true score {}% ({} deals)",
        pct(worst.1),
        worst.0,
        pct2(worst_exact.3),
        worst_exact.0
    );

    println!("\nFine scan with draws: exact coverage (trinomial sums) at every true score 0.5, 0.5005,");
    println!("..., 0.995, each deal drawn with probability min(rate, 2(1 - score)), over all scores.");
    println!("Each cell: min / 5th pct / median / max / in 93-97%.\n");
    print!("| deals | interval |");
    for rate in DRAW_RATES {
        print!(" {:.0}% draws |", rate * 100.0);
    }
    println!("\n|---|---|{}", "---|".repeat(DRAW_RATES.len()));
    let jobs: Vec<(usize, ScoreMethod, f64)> = DEALS
        .iter()
        .flat_map(|&n| ScoreMethod::ALL.into_iter().flat_map(move |m| DRAW_RATES.map(move |r| (n, m, r))))
        .collect();
    let rows: Vec<(usize, ScoreMethod, ScanSummary)> = jobs
        .par_iter()
        .map(|&(n, m, rate)| {
            let all = outcomes(m, n, true);
            let c: Vec<f64> = fine.iter().map(|&p| exact_coverage(&all, n, p, rate)).collect();
            (n, m, summarize(&c))
        })
        .collect();
    for line in rows.chunks(DRAW_RATES.len()) {
        let (n, m, _) = line[0];
        print!("| {n} | {} |", m.name());
        for (_, _, s) in line {
            print!(
                " {} / {} / {} / {} / {:.1}% |",
                pct(s.min),
                pct(s.p5),
                pct(s.median),
                pct(s.max),
                s.in_band * 100.0
            );
        }
        println!();
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

/// A coverage in percent, one decimal.
fn pct(c: f64) -> String {
    format!("{:.1}", c * 100.0)
}

/// A coverage in percent, two decimals.
fn pct2(c: f64) -> String {
    format!("{:.2}", c * 100.0)
}
