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

pub(crate) const ELO_PER_THETA: f64 = 400.0 / std::f64::consts::LN_10;
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
pub(crate) fn fit_weighted(n: usize, games: &[Placing], weights: &[f64]) -> Fitted {
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

pub(crate) fn permutations(items: &[usize]) -> Vec<Vec<usize>> {
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

/// The mean of scores in `[0, 1]` (one per deal) and its 95% interval `(mean, low, high)`:
/// [`score_interval`] of the [`effective_counts`]. Unlike the normal interval of [`mean_ci95`] it
/// stays inside `[0, 1]`, is not zero-wide when every deal scored the same, and keeps its coverage
/// near 0 and 1: a bot that won all of 20 deals gets `[0.84, 1]`, not `[1, 1]`. `None` when there
/// is no score.
pub fn score_ci95(xs: &[f64]) -> Option<(f64, f64, f64)> {
    let (mean, won, lost) = effective_counts(xs)?;
    let (low, high) = score_interval(won, lost);
    Some((mean, low, high))
}

/// The mean of scores in `[0, 1]` (one per deal) and the deals it is worth as won and lost coin
/// flips, `(mean, won, lost)`: the binomial variance `p (1 − p)` scaled by how much of it the scores
/// show (`r`, 1 for scores that are all 0 or 1, less when draws and rotations average them), so
/// `n / r` deals count as coin flips, `mean · n / r` of them won. `None` when there is no score.
pub fn effective_counts(xs: &[f64]) -> Option<(f64, f64, f64)> {
    if xs.is_empty() {
        return None;
    }
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let ss: f64 = xs.iter().map(|x| (x - mean).powi(2)).sum();
    Some(effective_counts_of(n, mean, ss))
}

/// [`effective_counts`] of `n` scores (at least one) with mean `mean` and sum of squared
/// deviations from it `ss`, for callers that have the sums and not the scores.
pub fn effective_counts_of(n: f64, mean: f64, ss: f64) -> (f64, f64, f64) {
    let bernoulli = mean * (1.0 - mean);
    // The share of the binomial variance the deals show (sample variance), at least 1/n so that
    // a few identical scores do not claim none.
    let r = if bernoulli > 0.0 && n > 1.0 { (ss / ((n - 1.0) * bernoulli)).clamp(1.0 / n, 1.0) } else { 1.0 };
    let n_eff = n / r;
    (mean, mean * n_eff, (1.0 - mean) * n_eff)
}

/// The 95% interval of a score from `won` and `lost` effective deals (not necessarily whole,
/// both at least 0, some deals): the Wilson score interval, except for the end near 0 or 1 when
/// few deals went that way. The end below the score, when `won` is positive and at most
/// [`JEFFREYS_EDGE`], is the Jeffreys one (the 2.5% quantile of Beta(won + ½, lost + ½)), and when
/// `won` is at most [`MID_P_EDGE`], the exact mid-p one (where the binomial tail above the count,
/// plus half the probability of the count itself, is 2.5%); the end above the score likewise with
/// `lost`. The count is skewed there and Wilson's normal approximation puts the end too close to
/// the score. Both ends move up when a lost deal turns into a won one, and the lower end is below
/// 1 even when every deal was won.
///
/// Chosen by exact coverage over every true score 0.5, 0.5005, …, 0.995 at 20, 50, 100, 200 and
/// 400 win/loss deals (docs/tools.md, `examples/coverage.rs`): at least 92.6% at every true score
/// at those deal counts, in 93–97% at 88–99.9% of the scores some interval can bring there;
/// between them, at 21–39 deals, as low as 91.8%.
pub fn score_interval(won: f64, lost: f64) -> (f64, f64) {
    let (mut low, mut high) = wilson_interval(won, lost);
    // (a whole count computed in floating point may land just above it)
    let within = |count: f64, edge: f64| count > 0.0 && count <= edge + 1e-9;
    if within(won, MID_P_EDGE) {
        low = increasing_root(|p| mid_p_tail(p, won, lost), 0.025);
    } else if within(won, JEFFREYS_EDGE) {
        low = increasing_root(|p| beta_cdf(p, won + 0.5, lost + 0.5), 0.025);
    }
    if within(lost, MID_P_EDGE) {
        high = increasing_root(|p| mid_p_tail(p, won, lost), 0.975);
    } else if within(lost, JEFFREYS_EDGE) {
        high = increasing_root(|p| beta_cdf(p, won + 0.5, lost + 0.5), 0.975);
    }
    (low, high)
}

/// [`score_interval`] takes the mid-p end where at most this many effective deals went that way
/// (and some did): Jeffreys there too covers a true 0.995 over 20 deals 90.5% of the time (all
/// won) where 99.55% is the least any interval can do above 93–97%.
pub const MID_P_EDGE: f64 = 1.0;
/// [`score_interval`] takes the Jeffreys end where at most this many effective deals went that
/// way: Wilson there covers a true 0.989 over 50 deals 89.5% of the time, and 0.99 91.1%; 4
/// lowers the share of true scores inside 93–97% over 20 deals from 88.3% to 86.5%
/// (docs/tools.md).
pub const JEFFREYS_EDGE: f64 = 3.0;

/// The Wilson score interval for `won` successes and `lost` failures (the score test's 1.96).
pub fn wilson_interval(won: f64, lost: f64) -> (f64, f64) {
    let n = won + lost;
    let mean = won / n;
    let z2 = 1.96f64 * 1.96;
    let centre = (mean + z2 / (2.0 * n)) / (1.0 + z2 / n);
    let half = 1.96 * (mean * (1.0 - mean) / n + z2 / (4.0 * n * n)).sqrt() / (1.0 + z2 / n);
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

/// The 95% mid-p interval for `won` successes and `lost` failures (not necessarily whole):
/// `(low, high)` with `T(low) = 0.025` and `T(high) = 0.975` for [`mid_p_tail`] `T`.
pub fn mid_p_interval(won: f64, lost: f64) -> (f64, f64) {
    let tail = |p: f64| mid_p_tail(p, won, lost);
    (increasing_root(tail, 0.025), increasing_root(tail, 0.975))
}

/// `T(p) = ½ (P(X ≥ won) + P(X ≥ won + 1))` for `X` binomial(`won + lost`, `p`), written with the
/// incomplete beta function so that it is defined between whole counts (`P(X ≥ 0) = 1`, and
/// `P(X ≥ won + 1) = 0` when nothing was lost).
fn mid_p_tail(p: f64, won: f64, lost: f64) -> f64 {
    let at_least = if won > 0.0 { beta_cdf(p, won, lost + 1.0) } else { 1.0 };
    let above = if lost > 0.0 { beta_cdf(p, won + 1.0, lost) } else { 0.0 };
    0.5 * (at_least + above)
}

/// The `p` in `[0, 1]` where the increasing function `f` reaches `target`, by bisection (to 1e-12).
fn increasing_root(f: impl Fn(f64) -> f64, target: f64) -> f64 {
    let (mut lo, mut hi) = (0.0f64, 1.0f64);
    while hi - lo > 1e-12 {
        let mid = 0.5 * (lo + hi);
        if f(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

/// `ln Γ(x)` for `x > 0` (Lanczos, g = 7, 9 terms; relative error below 1e-13).
pub(crate) fn ln_gamma(x: f64) -> f64 {
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

    #[test]
    fn the_end_near_an_edge_is_mid_p_within_one_deal_and_jeffreys_within_three() {
        let n = 20;
        let record = |x: usize| -> Vec<f64> { (0..n).map(|i| if i < x { 1.0 } else { 0.0 }).collect() };
        // Mid-p, 1 deal from the edge: at the lower end P(X > x) + ½ P(X = x) = 2.5%, at the upper
        // end P(X < x) + ½ P(X = x).
        let pmf = |p: f64| crate::stats::coverage::binomial_pmf(n, p);
        let (_, lo, _) = score_ci95(&record(1)).expect("scores");
        let at_lo = pmf(lo);
        let upper_tail: f64 = at_lo[2..].iter().sum::<f64>() + 0.5 * at_lo[1];
        assert!((upper_tail - 0.025).abs() < 1e-9, "{lo} {upper_tail}");
        let (_, _, hi) = score_ci95(&record(19)).expect("scores");
        let at_hi = pmf(hi);
        let lower_tail: f64 = at_hi[..19].iter().sum::<f64>() + 0.5 * at_hi[19];
        assert!((lower_tail - 0.025).abs() < 1e-9, "{hi} {lower_tail}");
        // Jeffreys, 2 and 3 deals from the edge: quantiles of Beta(x + ½, n − x + ½) (values from
        // scipy.special.betaincinv); the other end is Wilson's.
        let jeffreys = [(2, 0.021_372_488, 0.301_038), (3, 0.044_131_342, 0.360_423)];
        for (x, jeffreys_low, wilson_high) in jeffreys {
            let (_, lo, hi) = score_ci95(&record(x)).expect("scores");
            assert!((lo - jeffreys_low).abs() < 1e-8 && (hi - wilson_high).abs() < 1e-6, "{x}: {lo} {hi}");
            let (_, lo, hi) = score_ci95(&record(n - x)).expect("scores");
            assert!(
                (hi - (1.0 - jeffreys_low)).abs() < 1e-8 && (lo - (1.0 - wilson_high)).abs() < 1e-6,
                "{x}: {lo} {hi}"
            );
        }
        // From 4 deals the other way on, Wilson (16 of 20: 0.8 ± the score test's 1.96).
        let (_, lo, hi) = score_ci95(&record(16)).expect("scores");
        assert!((lo - 0.58398).abs() < 1e-5 && (hi - 0.91934).abs() < 1e-5, "{lo} {hi}");
        // ln Γ at integers and at ½ (√π).
        assert!((ln_gamma(5.0) - 24f64.ln()).abs() < 1e-12);
        assert!((ln_gamma(0.5) - std::f64::consts::PI.sqrt().ln()).abs() < 1e-12);
    }

    #[test]
    fn both_ends_move_up_when_a_lost_deal_is_won() {
        // Across the switches between mid-p, Jeffreys and Wilson too, and for counts that are not
        // whole (draws): `won` effective deals of `n`, in steps of 1/8.
        for n in [1.0, 5.0, 20.0, 23.7, 50.0, 100.0, 400.0] {
            let mut last = (0.0, 0.0);
            for k in 0..=(n * 8.0) as usize {
                let won = (k as f64 / 8.0).min(n);
                let (lo, hi) = score_interval(won, n - won);
                assert!(
                    lo >= last.0 - 1e-12 && hi >= last.1 - 1e-12,
                    "n {n} won {won}: {lo} {hi} after {last:?}"
                );
                assert!(lo < 1.0 && hi > 0.0 && lo < hi, "n {n} won {won}: {lo} {hi}");
                last = (lo, hi);
            }
        }
        // One deal, won: not [1, 1] either (mid-p: ½ p = 2.5%).
        let (_, lo, hi) = score_ci95(&[1.0]).expect("a score");
        assert!((lo - 0.05).abs() < 1e-9 && hi == 1.0, "{lo} {hi}");
    }
}
