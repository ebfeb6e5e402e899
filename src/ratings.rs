//! Ratings with 95% intervals from all games at once: Plackett–Luce over placings, which for two
//! players is Bradley–Terry.
//!
//! Why hand-written: `skillratings` gives incremental ratings (Elo, Glicko-2, TrueSkill) that depend
//! on the order of the games; what a tournament table needs is the maximum-likelihood fit of all
//! games together with a confidence interval, which no well-kept crate offers. The model is small:
//!
//! - Each entrant `i` has a strength `θ_i`. A game is a ranking of its seats; the probability of a
//!   ranking is the product, over places, of `exp(θ_chosen) / Σ exp(θ_remaining)`.
//! - Ties are split: a tie of `k` entrants stands for all `k!` orders, each with weight `1/k!`.
//!   (A two-player draw is half a win each way.)
//! - A weak Gaussian prior (σ = 1000 Elo) keeps an entrant who won or lost everything finite.
//! - The fit is Newton's method on the log posterior; the interval is `±1.96` standard errors from
//!   the inverse of the observed information, with the common level of all ratings projected out
//!   (ratings are only defined up to a constant).
//!
//! Ratings are on the Elo scale (`400 / ln 10` per unit of `θ`), centred on 1500.

/// One game's result: entrant indices grouped by place, best first; entrants in one group tied.
#[derive(Clone, Debug, PartialEq)]
pub struct Placing {
    /// Groups of entrants, best place first; a group of several is a tie.
    pub groups: Vec<Vec<usize>>,
}

impl Placing {
    /// A placing from each seat's rank (1 = best; equal ranks tie) and the entrant in each seat.
    pub fn from_ranks(entrants: &[usize], ranks: &[u32]) -> Placing {
        let mut order: Vec<usize> = (0..entrants.len()).collect();
        order.sort_by_key(|&s| (ranks[s], s));
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut last_rank = None;
        for s in order {
            if last_rank == Some(ranks[s]) {
                groups.last_mut().expect("a group").push(entrants[s]);
            } else {
                groups.push(vec![entrants[s]]);
                last_rank = Some(ranks[s]);
            }
        }
        Placing { groups }
    }
}

/// A fitted rating with its 95% interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (Elo scale, the field's mean is 1500).
    pub rating: f64,
    /// Lower end of the 95% interval.
    pub low: f64,
    /// Upper end of the 95% interval.
    pub high: f64,
}

const ELO_PER_THETA: f64 = 400.0 / std::f64::consts::LN_10;
const PRIOR_SIGMA_ELO: f64 = 1000.0;

/// Fits Plackett–Luce (Bradley–Terry for two seats) strengths for `n` entrants.
pub fn fit(n: usize, games: &[Placing]) -> Vec<Rating> {
    if n == 0 {
        return Vec::new();
    }
    let orders = expand(games);
    let prior = 1.0 / (PRIOR_SIGMA_ELO / ELO_PER_THETA).powi(2);
    let mut theta = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    for _ in 0..100 {
        let (grad, h) = gradient_and_information(n, &orders, &theta, prior);
        info = h;
        let step = solve(&info, &grad);
        let mut biggest: f64 = 0.0;
        for i in 0..n {
            // Damped: never move more than 2 units (~350 Elo) at once.
            let s = step[i].clamp(-2.0, 2.0);
            theta[i] += s;
            biggest = biggest.max(s.abs());
        }
        if biggest < 1e-10 {
            break;
        }
    }
    let (_, h) = gradient_and_information(n, &orders, &theta, prior);
    if !h.is_empty() {
        info = h;
    }
    let cov = invert(&info);
    // Project out the common level: Var(θ_i - mean θ).
    let nf = n as f64;
    let row_mean: Vec<f64> = (0..n).map(|i| cov[i].iter().sum::<f64>() / nf).collect();
    let all_mean: f64 = row_mean.iter().sum::<f64>() / nf;
    let mean_theta = theta.iter().sum::<f64>() / nf;
    (0..n)
        .map(|i| {
            let var = (cov[i][i] - 2.0 * row_mean[i] + all_mean).max(0.0);
            let r = 1500.0 + (theta[i] - mean_theta) * ELO_PER_THETA;
            let half = 1.96 * var.sqrt() * ELO_PER_THETA;
            Rating { rating: r, low: r - half, high: r + half }
        })
        .collect()
}

/// Every strict order a placing stands for, with its weight.
fn expand(games: &[Placing]) -> Vec<(f64, Vec<usize>)> {
    let mut out = Vec::new();
    for g in games {
        let mut partial: Vec<(f64, Vec<usize>)> = vec![(1.0, Vec::new())];
        for group in &g.groups {
            let perms = permutations(group);
            let w = 1.0 / perms.len() as f64;
            partial = partial
                .into_iter()
                .flat_map(|(pw, prefix)| {
                    perms.iter().map(move |p| {
                        let mut order = prefix.clone();
                        order.extend_from_slice(p);
                        (pw * w, order)
                    })
                })
                .collect();
        }
        out.extend(partial.into_iter().filter(|(_, o)| o.len() >= 2));
    }
    out
}

fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
    if items.len() <= 1 {
        return vec![items.to_vec()];
    }
    let mut out = Vec::new();
    for i in 0..items.len() {
        let mut rest = items.to_vec();
        let first = rest.remove(i);
        for mut p in permutations(&rest) {
            p.insert(0, first);
            out.push(p);
        }
    }
    out
}

/// Gradient of the log posterior and the observed information (negative Hessian).
fn gradient_and_information(
    n: usize,
    orders: &[(f64, Vec<usize>)],
    theta: &[f64],
    prior: f64,
) -> (Vec<f64>, Vec<Vec<f64>>) {
    let mut grad: Vec<f64> = theta.iter().map(|t| -prior * t).collect();
    let mut info = vec![vec![0.0; n]; n];
    for (i, row) in info.iter_mut().enumerate() {
        row[i] = prior;
    }
    for (w, order) in orders {
        for stage in 0..order.len() - 1 {
            let remaining = &order[stage..];
            let max = remaining.iter().map(|&s| theta[s]).fold(f64::NEG_INFINITY, f64::max);
            let exps: Vec<f64> = remaining.iter().map(|&s| (theta[s] - max).exp()).collect();
            let total: f64 = exps.iter().sum();
            grad[order[stage]] += w;
            for (a, &sa) in remaining.iter().enumerate() {
                let pa = exps[a] / total;
                grad[sa] -= w * pa;
                info[sa][sa] += w * pa;
                for (b, &sb) in remaining.iter().enumerate() {
                    info[sa][sb] -= w * pa * exps[b] / total;
                }
            }
        }
    }
    (grad, info)
}

/// Solves `a x = b` by Gaussian elimination with partial pivoting (`a` is positive definite here).
fn solve(a: &[Vec<f64>], b: &[f64]) -> Vec<f64> {
    let n = b.len();
    let mut m: Vec<Vec<f64>> =
        a.iter().zip(b).map(|(row, &bi)| row.iter().copied().chain([bi]).collect()).collect();
    for col in 0..n {
        let pivot = (col..n).max_by(|&x, &y| m[x][col].abs().total_cmp(&m[y][col].abs())).expect("rows");
        m.swap(col, pivot);
        let p = m[col][col];
        if p.abs() < 1e-300 {
            continue;
        }
        for row in 0..n {
            if row != col {
                let f = m[row][col] / p;
                if f != 0.0 {
                    let pivot_row = m[col].clone();
                    for (x, pv) in m[row][col..].iter_mut().zip(&pivot_row[col..]) {
                        *x -= f * pv;
                    }
                }
            }
        }
    }
    (0..n).map(|i| if m[i][i].abs() < 1e-300 { 0.0 } else { m[i][n] / m[i][i] }).collect()
}

fn invert(a: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let n = a.len();
    let mut cols = Vec::with_capacity(n);
    for j in 0..n {
        let e: Vec<f64> = (0..n).map(|i| if i == j { 1.0 } else { 0.0 }).collect();
        cols.push(solve(a, &e));
    }
    (0..n).map(|i| (0..n).map(|j| cols[j][i]).collect()).collect()
}

/// The mean of `xs` and the half-width of its 95% interval (normal approximation: 1.96 standard
/// errors, with the sample variance). `None` for fewer than two values. Used wherever a per-deal
/// difference or score is reported with its interval (`arena check`/`grade`, bot measurements).
pub fn mean_ci95(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.len() < 2 {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Some((mean, 1.96 * (var / n).sqrt()))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pair(winner: usize, loser: usize) -> Placing {
        Placing { groups: vec![vec![winner], vec![loser]] }
    }

    #[test]
    fn equal_players_rate_equal_and_intervals_cover_the_truth() {
        let games: Vec<Placing> = (0..100).flat_map(|_| [pair(0, 1), pair(1, 0)]).collect();
        let r = fit(2, &games);
        assert!((r[0].rating - 1500.0).abs() < 1e-6);
        assert!((r[1].rating - 1500.0).abs() < 1e-6);
        assert!(r[0].low < 1500.0 && r[0].high > 1500.0);
    }

    #[test]
    fn bradley_terry_matches_the_closed_form_for_two_players() {
        // 75 wins out of 100: the difference is 400*log10(3) ≈ 190.8 Elo (the prior moves it by < 1).
        let games: Vec<Placing> = (0..75).map(|_| pair(0, 1)).chain((0..25).map(|_| pair(1, 0))).collect();
        let r = fit(2, &games);
        let diff = r[0].rating - r[1].rating;
        assert!((diff - 190.85).abs() < 2.0, "{diff}");
        // standard error of the log-odds is sqrt(1/75 + 1/25) ≈ 0.231 → ±1.96*0.231/2 per player
        let half = (r[0].high - r[0].low) / 2.0;
        let expected = 1.96 * (1.0f64 / 75.0 + 1.0 / 25.0).sqrt() / 2.0 * ELO_PER_THETA;
        assert!((half - expected).abs() < 2.0, "{half} vs {expected}");
    }

    #[test]
    fn draws_count_half_and_an_unbeaten_player_stays_finite() {
        let r = fit(2, &[Placing { groups: vec![vec![0, 1]] }]);
        assert!((r[0].rating - r[1].rating).abs() < 1e-9);
        let r = fit(2, &(0..10).map(|_| pair(0, 1)).collect::<Vec<_>>());
        assert!(r[0].rating.is_finite() && r[0].rating > r[1].rating + 300.0);
    }

    #[test]
    fn plackett_luce_orders_four_players_by_placings() {
        let games: Vec<Placing> = (0..50)
            .map(|i| {
                if i % 5 == 0 {
                    Placing::from_ranks(&[0, 1, 2, 3], &[2, 1, 3, 4])
                } else {
                    Placing::from_ranks(&[0, 1, 2, 3], &[1, 2, 3, 4])
                }
            })
            .collect();
        let r = fit(4, &games);
        assert!(r[0].rating > r[1].rating && r[1].rating > r[2].rating && r[2].rating > r[3].rating, "{r:?}");
        let mean: f64 = r.iter().map(|x| x.rating).sum::<f64>() / 4.0;
        assert!((mean - 1500.0).abs() < 1e-6);
    }

    #[test]
    fn from_ranks_groups_ties() {
        let p = Placing::from_ranks(&[7, 8, 9, 10], &[1, 3, 1, 4]);
        assert_eq!(p.groups, vec![vec![7, 9], vec![8], vec![10]]);
    }
}
