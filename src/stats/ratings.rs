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
//!   the sandwich (robust) covariance `H⁻¹ J H⁻¹`, `H` the information, `J` the sum over games of
//!   the outer products of each game's score (gradient), with the common level of all ratings
//!   projected out (ratings are only defined up to a constant). The plain inverse information
//!   counts a split tie as much information as a decisive game and gives too wide intervals when
//!   there are draws or ties; the sandwich measures the spread the games actually show.
//!
//! Ratings are on the Elo scale (`400 / ln 10` per unit of `θ`), centred on 1500. The scale is
//! score-based: a rating difference `d` means an expected score (draws and ties counted half) of
//! `1 / (1 + 10^(−d/400))` head to head, so the more a game draws, the closer together its ratings.
//! Ratings compare within one table only (one fit, one field, one game).

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
    fit_all(n, games).ratings
}

/// A fit with its covariance, for comparisons between two entrants.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// Each entrant's rating and 95% interval.
    pub ratings: Vec<Rating>,
    /// Covariance of the strengths (in `θ` units, sandwich estimate).
    cov: Vec<Vec<f64>>,
}

impl Fitted {
    /// The rating difference `a − b` (Elo) and its own 95% interval. "Is A above B?" is answered by
    /// this interval lying above 0, not by the two per-entrant intervals (which share the
    /// uncertainty of the common level and are correlated).
    pub fn difference(&self, a: usize, b: usize) -> Rating {
        let d = self.ratings[a].rating - self.ratings[b].rating;
        let var = (self.cov[a][a] + self.cov[b][b] - 2.0 * self.cov[a][b]).max(0.0);
        let half = 1.96 * var.sqrt() * ELO_PER_THETA;
        Rating { rating: d, low: d - half, high: d + half }
    }
}

/// [`fit`], keeping the covariance for [`Fitted::difference`].
pub fn fit_all(n: usize, games: &[Placing]) -> Fitted {
    let weights = vec![1.0; games.len()];
    fit_weighted(n, games, &weights)
}

/// The fit with a weight per game (1 for observed games; a probability for the expected data of a
/// model, which is how the simulation tests find the value an estimate converges to).
fn fit_weighted(n: usize, games: &[Placing], weights: &[f64]) -> Fitted {
    if n == 0 {
        return Fitted { ratings: Vec::new(), cov: Vec::new() };
    }
    let orders = expand(games, weights);
    let prior = 1.0 / (PRIOR_SIGMA_ELO / ELO_PER_THETA).powi(2);
    let mut theta = vec![0.0; n];
    let mut info = vec![vec![0.0; n]; n];
    for _ in 0..100 {
        let (grad, h, _) = gradient_and_information(n, &orders, &theta, prior);
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
    let (_, h, per_game) = gradient_and_information(n, &orders, &theta, prior);
    if !h.is_empty() {
        info = h;
    }
    let cov = sandwich(&invert(&info), &per_game, prior);
    // Project out the common level: Var(θ_i - mean θ).
    let nf = n as f64;
    let row_mean: Vec<f64> = (0..n).map(|i| cov[i].iter().sum::<f64>() / nf).collect();
    let all_mean: f64 = row_mean.iter().sum::<f64>() / nf;
    let mean_theta = theta.iter().sum::<f64>() / nf;
    let ratings = (0..n)
        .map(|i| {
            let var = (cov[i][i] - 2.0 * row_mean[i] + all_mean).max(0.0);
            let r = 1500.0 + (theta[i] - mean_theta) * ELO_PER_THETA;
            let half = 1.96 * var.sqrt() * ELO_PER_THETA;
            Rating { rating: r, low: r - half, high: r + half }
        })
        .collect();
    Fitted { ratings, cov }
}

/// `H⁻¹ J H⁻¹` with `J = c Σ g gᵀ + prior I`: `g` each game's gradient, `c = G / (G − 1)` the
/// small-sample correction for `G` games. The prior enters `J` as it enters `H`, so an entrant
/// the games do not pin down (one who won everything) keeps the prior's width instead of none.
fn sandwich(h_inv: &[Vec<f64>], per_game: &[Vec<f64>], prior: f64) -> Vec<Vec<f64>> {
    let n = h_inv.len();
    let games = per_game.len() as f64;
    let c = if games > 1.0 { games / (games - 1.0) } else { 1.0 };
    let mut j = vec![vec![0.0; n]; n];
    for g in per_game {
        for a in 0..n {
            for b in 0..n {
                j[a][b] += c * g[a] * g[b];
            }
        }
    }
    for (a, row) in j.iter_mut().enumerate() {
        row[a] += prior;
    }
    let hj: Vec<Vec<f64>> =
        (0..n).map(|a| (0..n).map(|b| (0..n).map(|k| h_inv[a][k] * j[k][b]).sum()).collect()).collect();
    (0..n).map(|a| (0..n).map(|b| (0..n).map(|k| hj[a][k] * h_inv[k][b]).sum()).collect()).collect()
}

/// A strict order a placing stands for: its weight, the game it came from, the entrants best first.
type WeightedOrder = (f64, usize, Vec<usize>);

/// Every strict order a placing stands for, with its weight.
fn expand(games: &[Placing], weights: &[f64]) -> Vec<WeightedOrder> {
    let mut out = Vec::new();
    for (game, (g, &gw)) in games.iter().zip(weights).enumerate() {
        let mut partial: Vec<(f64, Vec<usize>)> = vec![(gw, Vec::new())];
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
        out.extend(partial.into_iter().filter(|(_, o)| o.len() >= 2).map(|(w, o)| (w, game, o)));
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

/// Gradient of the log posterior, the observed information (negative Hessian), and each game's
/// own gradient of the log-likelihood (no prior), for the sandwich.
fn gradient_and_information(
    n: usize,
    orders: &[WeightedOrder],
    theta: &[f64],
    prior: f64,
) -> (Vec<f64>, Vec<Vec<f64>>, Vec<Vec<f64>>) {
    let mut grad: Vec<f64> = theta.iter().map(|t| -prior * t).collect();
    let mut info = vec![vec![0.0; n]; n];
    for (i, row) in info.iter_mut().enumerate() {
        row[i] = prior;
    }
    let mut per_game: Vec<Vec<f64>> = Vec::new();
    let mut last_game = None;
    for (w, game, order) in orders {
        if last_game != Some(*game) {
            per_game.push(vec![0.0; n]);
            last_game = Some(*game);
        }
        let g = per_game.last_mut().expect("a game");
        for stage in 0..order.len() - 1 {
            let remaining = &order[stage..];
            let max = remaining.iter().map(|&s| theta[s]).fold(f64::NEG_INFINITY, f64::max);
            let exps: Vec<f64> = remaining.iter().map(|&s| (theta[s] - max).exp()).collect();
            let total: f64 = exps.iter().sum();
            grad[order[stage]] += w;
            g[order[stage]] += w;
            for (a, &sa) in remaining.iter().enumerate() {
                let pa = exps[a] / total;
                grad[sa] -= w * pa;
                g[sa] -= w * pa;
                info[sa][sa] += w * pa;
                for (b, &sb) in remaining.iter().enumerate() {
                    info[sa][sb] -= w * pa * exps[b] / total;
                }
            }
        }
    }
    (grad, info, per_game)
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
/// errors, with the sample variance). `None` for fewer than two values. For per-deal differences
/// (bot measurements, the tutorials); a score in `[0, 1]` takes [`score_ci95`].
pub fn mean_ci95(xs: &[f64]) -> Option<(f64, f64)> {
    if xs.len() < 2 {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    Some((mean, 1.96 * (var / n).sqrt()))
}

/// The mean of scores in `[0, 1]` (one per deal) and its 95% interval `(mean, low, high)`: the
/// Wilson score interval, with the binomial variance `p (1 − p)` scaled by how much of it the
/// scores show (`r`, 1 for scores that are all 0 or 1, less when draws and rotations average
/// them), so `n / r` deals count as coin flips. Near the edges, where at most
/// [`EXACT_EDGE`] of those effective deals went the other way, each end is widened to the exact
/// (Clopper–Pearson) bound when that is wider: Wilson alone covers only 91–92% there (a true 0.99
/// over 50 or 100 deals). Unlike the normal interval of [`mean_ci95`] it stays inside `[0, 1]`,
/// is not zero-wide when every deal scored the same, and keeps its coverage near 0 and 1: a bot
/// that won all of 20 deals gets `[0.84, 1]`, not `[1, 1]`. `None` when there is no score.
pub fn score_ci95(xs: &[f64]) -> Option<(f64, f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let bernoulli = mean * (1.0 - mean);
    // The share of the binomial variance the deals show (sample variance), at least 1/n so that
    // a few identical scores do not claim none.
    let r = if bernoulli > 0.0 && n > 1.0 {
        let ss: f64 = xs.iter().map(|x| (x - mean).powi(2)).sum();
        (ss / ((n - 1.0) * bernoulli)).clamp(1.0 / n, 1.0)
    } else {
        1.0
    };
    let n_eff = n / r;
    let z2 = 1.96f64 * 1.96;
    let centre = (mean + z2 / (2.0 * n_eff)) / (1.0 + z2 / n_eff);
    let half = 1.96 * (bernoulli / n_eff + z2 / (4.0 * n_eff * n_eff)).sqrt() / (1.0 + z2 / n_eff);
    let (mut low, mut high) = ((centre - half).max(0.0), (centre + half).min(1.0));
    let (won, lost) = (mean * n_eff, (1.0 - mean) * n_eff);
    // (a whole count computed in floating point may land just above it)
    let edge = EXACT_EDGE + 1e-9;
    if won > 0.0 && won <= edge {
        low = low.min(beta_quantile(0.025, won, lost + 1.0));
    }
    if lost > 0.0 && lost <= edge {
        high = high.max(beta_quantile(0.975, won + 1.0, lost));
    }
    Some((mean, low, high))
}

/// [`score_ci95`] takes the exact bound at an end where at most this many effective deals went
/// the other way: fewer (2) leaves a true 0.99 over 100 deals at 92% coverage, more (4) lifts
/// other scores above 97%.
pub const EXACT_EDGE: f64 = 3.0;

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms; relative error below 1e-13).
fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        // reflection: Γ(x) Γ(1 − x) = π / sin(πx)
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let t = x + 7.5;
    let sum = C[1..].iter().enumerate().fold(C[0], |acc, (i, c)| acc + c / (x + i as f64 + 1.0));
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + sum.ln()
}

/// The regularized incomplete beta function `I_x(a, b)`: the Beta(a, b) distribution function.
fn beta_cdf(x: f64, a: f64, b: f64) -> f64 {
    if x <= 0.0 {
        return 0.0;
    }
    if x >= 1.0 {
        return 1.0;
    }
    let front = (ln_gamma(a + b) - ln_gamma(a) - ln_gamma(b) + a * x.ln() + b * (1.0 - x).ln()).exp();
    // the continued fraction converges fast on the side of the mean
    if x < (a + 1.0) / (a + b + 2.0) {
        front * beta_fraction(x, a, b) / a
    } else {
        1.0 - front * beta_fraction(1.0 - x, b, a) / b
    }
}

/// The continued fraction of the incomplete beta function (modified Lentz).
fn beta_fraction(x: f64, a: f64, b: f64) -> f64 {
    const TINY: f64 = 1e-300;
    let guard = |v: f64| if v.abs() < TINY { TINY } else { v };
    let mut c = 1.0;
    let mut d = 1.0 / guard(1.0 - (a + b) * x / (a + 1.0));
    let mut h = d;
    for m in 1..300 {
        let m = m as f64;
        let even = m * (b - m) * x / ((a + 2.0 * m - 1.0) * (a + 2.0 * m));
        d = 1.0 / guard(1.0 + even * d);
        c = guard(1.0 + even / c);
        h *= d * c;
        let odd = -(a + m) * (a + b + m) * x / ((a + 2.0 * m) * (a + 2.0 * m + 1.0));
        d = 1.0 / guard(1.0 + odd * d);
        c = guard(1.0 + odd / c);
        let step = d * c;
        h *= step;
        if (step - 1.0).abs() < 1e-15 {
            break;
        }
    }
    h
}

/// The `q` quantile of Beta(a, b), by bisection (to 1e-12).
fn beta_quantile(q: f64, a: f64, b: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while hi - lo > 1e-12 {
        let mid = 0.5 * (lo + hi);
        if beta_cdf(mid, a, b) < q {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
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

/// Coverage by simulation: known strengths, many seeded replications, the share of 95% intervals
/// that contain the truth. The larger tables are `examples/coverage.rs`, in docs/tournament.md.
#[cfg(test)]
mod coverage {
    use super::*;
    use crate::games::rng::{Rng, Stream};

    /// A Plackett–Luce order of `strengths` (indices, best first).
    fn pl_order(rng: &mut Rng, strengths: &[f64]) -> Vec<usize> {
        let mut left: Vec<usize> = (0..strengths.len()).collect();
        let mut order = Vec::new();
        while !left.is_empty() {
            let total: f64 = left.iter().map(|&i| strengths[i].exp()).sum();
            let mut u = rng.unit_f64() * total;
            let mut pick = left.len() - 1;
            for (k, &i) in left.iter().enumerate() {
                u -= strengths[i].exp();
                if u < 0.0 {
                    pick = k;
                    break;
                }
            }
            order.push(left.remove(pick));
        }
        order
    }

    /// Groups an order into places, tying each adjacent pair with probability `tie` per boundary.
    fn with_ties(order: &[usize], cut: impl Fn(usize) -> bool) -> Placing {
        let mut groups = vec![vec![order[0]]];
        for (k, &e) in order.iter().enumerate().skip(1) {
            if cut(k) {
                groups.last_mut().expect("a group").push(e);
            } else {
                groups.push(vec![e]);
            }
        }
        Placing { groups }
    }

    fn centred(theta: &[f64]) -> Vec<f64> {
        let mean = theta.iter().sum::<f64>() / theta.len() as f64;
        theta.iter().map(|t| 1500.0 + (t - mean) * ELO_PER_THETA).collect()
    }

    /// Share of per-entrant and of pairwise intervals covering `truth` (Elo, centred on 1500).
    fn coverage(truth: &[f64], reps: usize, mut games: impl FnMut(&mut Rng) -> Vec<Placing>) -> (f64, f64) {
        let n = truth.len();
        let mut rng = Rng::new(25, Stream::Arena);
        let (mut single, mut pairs, mut singles, mut pair_total) = (0, 0, 0, 0);
        for _ in 0..reps {
            let f = fit_all(n, &games(&mut rng));
            for (i, r) in f.ratings.iter().enumerate() {
                single += usize::from(r.low <= truth[i] && truth[i] <= r.high);
                singles += 1;
                for j in i + 1..n {
                    let d = f.difference(i, j);
                    let t = truth[i] - truth[j];
                    pairs += usize::from(d.low <= t && t <= d.high);
                    pair_total += 1;
                }
            }
        }
        (single as f64 / singles as f64, pairs as f64 / pair_total as f64)
    }

    /// Two-player games among three bots: a draw with probability `draw`, otherwise a win chosen
    /// so that the expected score is `σ(θ_a − θ_b)`; the fit's target is then `θ` itself.
    fn pairwise_with_draws(draw: f64) -> (f64, f64) {
        let theta = [0.3, 0.0, -0.3];
        let truth = centred(&theta);
        coverage(&truth, 300, |rng| {
            let mut games = Vec::new();
            for (a, b) in [(0, 1), (0, 2), (1, 2)] {
                let score = 1.0 / (1.0 + (theta[b] - theta[a]).exp());
                for _ in 0..40 {
                    let u = rng.unit_f64();
                    games.push(if u < draw {
                        Placing { groups: vec![vec![a, b]] }
                    } else if u < draw + score - draw / 2.0 {
                        Placing { groups: vec![vec![a], vec![b]] }
                    } else {
                        Placing { groups: vec![vec![b], vec![a]] }
                    });
                }
            }
            games
        })
    }

    #[test]
    fn rating_intervals_cover_95_percent_whatever_the_draw_rate() {
        for draw in [0.0, 0.36, 0.62] {
            let (single, pair) = pairwise_with_draws(draw);
            eprintln!("draws {draw}: per-bot {single:.3}, pairwise {pair:.3}");
            assert!((0.93..=0.97).contains(&single), "draws {draw}: per-bot coverage {single}");
            assert!((0.93..=0.97).contains(&pair), "draws {draw}: pairwise coverage {pair}");
        }
    }

    #[test]
    fn rating_intervals_cover_95_percent_with_four_player_ties() {
        // Four bots at every table, Plackett–Luce orders, each adjacent pair of places tied with
        // probability 0.3 (Intensity-like). The fit converges to the fit of the expected data.
        let theta: [f64; 4] = [0.6, 0.2, -0.2, -0.6];
        let tie: f64 = 0.3;
        let mut all: Vec<Placing> = Vec::new();
        let mut weights = Vec::new();
        for order in permutations(&[0, 1, 2, 3]) {
            let mut p_order = 1.0;
            let mut left: Vec<usize> = order.clone();
            while left.len() > 1 {
                let total: f64 = left.iter().map(|&i| theta[i].exp()).sum();
                p_order *= theta[left[0]].exp() / total;
                left.remove(0);
            }
            for mask in 0..8u32 {
                let ties = (mask.count_ones()) as i32;
                all.push(with_ties(&order, |k| mask & (1 << (k - 1)) != 0));
                weights.push(p_order * tie.powi(ties) * (1.0 - tie).powi(3 - ties));
            }
        }
        let target = fit_weighted(4, &all, &weights);
        let truth: Vec<f64> = target.ratings.iter().map(|r| r.rating).collect();
        let (single, pair) = coverage(&truth, 200, |rng| {
            (0..150)
                .map(|_| {
                    let order = pl_order(rng, &theta);
                    let cuts: Vec<bool> = (0..3).map(|_| rng.unit_f64() < tie).collect();
                    with_ties(&order, |k| cuts[k - 1])
                })
                .collect()
        });
        eprintln!("4-player ties {tie}: per-bot {single:.3}, pairwise {pair:.3}");
        assert!((0.93..=0.97).contains(&single), "per-bot coverage {single}");
        assert!((0.93..=0.97).contains(&pair), "pairwise coverage {pair}");
    }
}

#[cfg(test)]
mod score_coverage {
    use super::*;
    use crate::games::rng::{Rng, Stream};

    const SCORES: [f64; 7] = [0.5, 0.7, 0.9, 0.95, 0.97, 0.99, 0.995];
    const DEALS: [usize; 4] = [20, 50, 100, 400];

    /// Exact coverage of [`score_ci95`] for win/loss deals (binomial): the hardest case, the most
    /// discrete.
    fn binomial_coverage(p: f64, n: usize) -> f64 {
        let mut total = 0.0;
        let mut log_choose = 0.0f64;
        for x in 0..=n {
            if x > 0 {
                log_choose += ((n - x + 1) as f64).ln() - (x as f64).ln();
            }
            let xs: Vec<f64> = (0..n).map(|i| if i < x { 1.0 } else { 0.0 }).collect();
            let (_, lo, hi) = score_ci95(&xs).expect("scores");
            if lo <= p && p <= hi {
                total += (log_choose + x as f64 * p.ln() + (n - x) as f64 * (1.0 - p).ln()).exp();
            }
        }
        total
    }

    /// Simulated coverage for deals of two seatings, each game a draw with probability
    /// `min(0.2, 1 − p)` (the deal's score is the mean of its two games).
    fn two_seat_coverage(p: f64, n: usize, rng: &mut Rng) -> f64 {
        let draw = (1.0 - p).min(0.2);
        let win = p - draw / 2.0;
        let reps = 1000;
        let mut covered = 0;
        for _ in 0..reps {
            let xs: Vec<f64> = (0..n)
                .map(|_| {
                    let game = |u: f64| {
                        if u < win {
                            1.0
                        } else if u < win + draw {
                            0.5
                        } else {
                            0.0
                        }
                    };
                    (game(rng.unit_f64()) + game(rng.unit_f64())) / 2.0
                })
                .collect();
            let (_, lo, hi) = score_ci95(&xs).expect("scores");
            covered += usize::from(lo <= p && p <= hi);
        }
        covered as f64 / reps as f64
    }

    /// Whether any interval can cover `p` over `n` win/loss deals 93–97% of the time: some run
    /// of consecutive win counts (what an interval covers) has that probability. Where none has
    /// (a true 0.995 over 20 deals: all won 90.5%, adding 19 wins gives 99.6%), only a choice
    /// between too little and too much coverage remains.
    fn coverage_can_be_near_95(p: f64, n: usize) -> bool {
        let pmf: Vec<f64> = (0..=n)
            .map(|x| {
                let ln_choose =
                    ln_gamma(n as f64 + 1.0) - ln_gamma(x as f64 + 1.0) - ln_gamma((n - x) as f64 + 1.0);
                (ln_choose + x as f64 * p.ln() + (n - x) as f64 * (1.0 - p).ln()).exp()
            })
            .collect();
        (0..=n).any(|a| {
            let mut sum = 0.0;
            pmf[a..].iter().any(|q| {
                sum += q;
                (0.93..=0.97).contains(&sum)
            })
        })
    }

    #[test]
    fn score_intervals_keep_their_coverage_up_to_the_edges() {
        let mut rng = Rng::new(25, Stream::Arena);
        let (mut sum, mut cells) = (0.0, 0.0);
        for n in DEALS {
            let mut line = format!("{n:>4} deals:");
            for p in SCORES {
                let exact = binomial_coverage(p, n);
                let sim = two_seat_coverage(p, n, &mut rng);
                line += &format!("  {p}: {exact:.3}/{sim:.3}");
                sum += exact + sim;
                cells += 2.0;
                if coverage_can_be_near_95(p, n) {
                    // 20 deals at 0.7 cover 97.5%: the interval of 10 wins of 20 ends at 0.7007.
                    assert!((0.93..=0.976).contains(&exact), "binomial p {p} n {n}: {exact}");
                    assert!((0.93..=0.97).contains(&sim), "two seatings p {p} n {n}: {sim}");
                } else {
                    // Where 93–97% is out of reach, the interval errs on the wide side.
                    assert!(exact >= 0.95, "binomial p {p} n {n}: {exact}");
                    assert!(sim >= 0.93, "two seatings p {p} n {n}: {sim}");
                }
            }
            eprintln!("{line}");
        }
        let mean = sum / cells;
        assert!((0.94..=0.965).contains(&mean), "mean coverage {mean}");
    }

    #[test]
    fn out_of_reach_cells_are_the_known_ones() {
        // 20 deals at 0.95 and above, 50 and 100 deals at 0.99 and 0.995 (docs/tools.md).
        let out: Vec<(usize, f64)> = DEALS
            .iter()
            .flat_map(|&n| SCORES.iter().map(move |&p| (n, p)))
            .filter(|&(n, p)| !coverage_can_be_near_95(p, n))
            .collect();
        assert_eq!(
            out,
            [
                (20, 0.95),
                (20, 0.97),
                (20, 0.99),
                (20, 0.995),
                (50, 0.99),
                (50, 0.995),
                (100, 0.99),
                (100, 0.995)
            ]
        );
    }

    #[test]
    fn beta_quantiles_match_known_values() {
        // Beta(1, n): the distribution function is 1 − (1 − x)^n, so the q quantile is 1 − (1 − q)^(1/n).
        for n in [1.0, 5.0, 20.0] {
            let q = beta_quantile(0.025, 1.0, n);
            assert!((q - (1.0 - 0.975f64.powf(1.0 / n))).abs() < 1e-9, "{n}: {q}");
        }
        // Beta(a, a) is symmetric about ½.
        assert!((beta_quantile(0.5, 3.5, 3.5) - 0.5).abs() < 1e-9);
        assert!((beta_quantile(0.025, 4.0, 7.0) + beta_quantile(0.975, 7.0, 4.0) - 1.0).abs() < 1e-9);
        // ln Γ at integers and at ½ (√π).
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
    }

    #[test]
    fn score_intervals_hold_when_duplicate_deals_mostly_split() {
        // Like two equal-ish bots on duplicate deals: 80% of deals split 1-1 (score 0.5), the
        // rest won or lost outright, so the deals vary far less than coin flips.
        let mut rng = Rng::new(26, Stream::Arena);
        for n in [20, 100] {
            for won in [0.5, 0.75, 1.0] {
                let p = 0.8 * 0.5 + 0.2 * won;
                let reps = 1000;
                let mut covered = 0;
                for _ in 0..reps {
                    let xs: Vec<f64> = (0..n)
                        .map(|_| {
                            if rng.unit_f64() < 0.8 {
                                0.5
                            } else if rng.unit_f64() < won {
                                1.0
                            } else {
                                0.0
                            }
                        })
                        .collect();
                    let (_, lo, hi) = score_ci95(&xs).expect("scores");
                    covered += usize::from(lo <= p && p <= hi);
                }
                let c = covered as f64 / reps as f64;
                eprintln!("split deals, p {p}, {n} deals: {c:.3}");
                assert!((0.92..=0.98).contains(&c), "p {p} n {n}: {c}");
            }
        }
    }

    #[test]
    fn a_clean_sweep_gets_an_interval_below_one() {
        let (mean, lo, hi) = score_ci95(&[1.0; 20]).expect("scores");
        assert_eq!((mean, hi), (1.0, 1.0));
        assert!((lo - 0.839).abs() < 1e-3, "{lo}");
        // Every deal drawn: not a zero-wide interval.
        let (_, lo, hi) = score_ci95(&[0.5; 10]).expect("scores");
        assert!(lo < 0.45 && hi > 0.55, "{lo} {hi}");
        assert_eq!(score_ci95(&[]), None);
    }
}
