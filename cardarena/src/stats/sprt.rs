//! The sequential probability ratio test on duplicate pairs, pentanomial model (as in fishtest).
//!
//! A duplicate pair is one deal played twice with the seats swapped. Its score for the new bot is
//! 0, ½, 1, 1½ or 2 (win 1, draw ½, loss 0 per game), so pairs fall in five classes. Counting
//! pairs instead of games removes the luck of the deal from the variance.
//!
//! The test is the generalized SPRT of Michel Van den Bergh (fishtest's `sprt.py`): for each
//! hypothesis, the pentanomial distribution closest to the observed one that has the hypothesis'
//! Elo is found by maximum likelihood, and the log-likelihood ratio of the observed counts under
//! the two is compared with Wald's bounds `ln(β / (1 − α))` and `ln((1 − β) / α)`, each moved
//! inwards by the expected overshoot (Siegmund's correction, below).
//!
//! Two Elo models ([`EloModel`]):
//! - *logistic*: Elo `e` means an expected score of `1 / (1 + 10^(−e/400))` per game;
//! - *normalized* (fishtest's default): Elo `e` means `(μ − ½) / σ = e · √2 · ln 10 / 800`, `μ`
//!   and `σ` the mean and standard deviation of a pair's score on `[0, 1]`. It measures how fast
//!   a test can tell the bots apart, whatever the draw rate; the same bounds then cost about the
//!   same number of pairs in every game.
//!
//! Overshoot: the LLR moves in jumps, so it crosses a bound by some amount and the real error
//! rates fall below `α` and `β`. Siegmund (Sequential Analysis, corollary 8.33) estimates the
//! expected overshoot from the squared jumps of the running maximum (minimum) of the LLR; the
//! bound is moved inwards by it, as fishtest does, which brings the error rates back to `α`, `β`.

/// What an Elo difference means in `--elo0/--elo1` and in the estimate.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum EloModel {
    /// Expected score per game, `1 / (1 + 10^(−e/400))`.
    Logistic,
    /// fishtest's normalized Elo: the score's distance from ½ in pair standard deviations.
    #[default]
    Normalized,
}

/// `800 / ln 10`: normalized Elo per unit of the per-game t-value (fishtest's constant).
const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// The parameters of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtParams {
    /// How `elo0`/`elo1` are read.
    pub model: EloModel,
    /// Elo difference of the null hypothesis (new is not better by more than this).
    pub elo0: f64,
    /// Elo difference of the alternative (new is better by at least this).
    pub elo1: f64,
    /// False positive rate.
    pub alpha: f64,
    /// False negative rate.
    pub beta: f64,
}

impl Default for SprtParams {
    fn default() -> Self {
        SprtParams { model: EloModel::default(), elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 }
    }
}

/// Where a test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Keep playing.
    Continue,
    /// H1 accepted: the new bot is stronger by about `elo1`.
    AcceptH1,
    /// H0 accepted: the new bot is not stronger by `elo1`.
    AcceptH0,
}

impl SprtParams {
    /// Wald's lower and upper bounds on the log-likelihood ratio (before the overshoot correction
    /// of [`Sprt::bounds`]).
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The log-likelihood ratio of pentanomial counts: `counts[k]` pairs scored `k / 2` for the
    /// new bot (k = 0..=4).
    pub fn llr(&self, counts: &[u64; 5]) -> f64 {
        let n: f64 = counts.iter().sum::<u64>() as f64;
        if n == 0.0 {
            return 0.0;
        }
        // A tiny regularisation, as fishtest does, so empty classes do not make the fit degenerate.
        let reg: Vec<f64> = counts.iter().map(|&c| c as f64 + 1e-3).collect();
        let total: f64 = reg.iter().sum();
        let p: Vec<f64> = reg.iter().map(|c| c / total).collect();
        let (q0, q1) = match self.model {
            EloModel::Logistic => (
                mle_with_mean(&p, &X, elo_to_score(self.elo0)),
                mle_with_mean(&p, &X, elo_to_score(self.elo1)),
            ),
            EloModel::Normalized => {
                let t = |e: f64| e / NELO_PER_T * std::f64::consts::SQRT_2;
                (mle_with_t(&p, &X, t(self.elo0)), mle_with_t(&p, &X, t(self.elo1)))
            }
        };
        n * p.iter().zip(q0.iter().zip(&q1)).map(|(pi, (a, b))| pi * (b / a).ln()).sum::<f64>()
    }

    /// The Elo difference the counts show (in this test's model) and its 95% interval: the mean
    /// pair score ± 1.96 standard errors, mapped to Elo. After a sequential test that stopped, the
    /// estimate leans towards the hypothesis it accepted (a test stops when the luck ran that way).
    pub fn estimate(&self, counts: &[u64; 5]) -> Option<(f64, f64, f64)> {
        let n: u64 = counts.iter().sum();
        if n < 2 {
            return None;
        }
        let nf = n as f64;
        let mean: f64 = counts.iter().zip(&X).map(|(&c, x)| c as f64 * x).sum::<f64>() / nf;
        let var: f64 = counts.iter().zip(&X).map(|(&c, x)| c as f64 * (x - mean).powi(2)).sum::<f64>() / nf;
        let half = 1.96 * (var / nf).sqrt();
        let to_elo = |score: f64| match self.model {
            EloModel::Logistic => {
                let s = score.clamp(1e-6, 1.0 - 1e-6);
                -400.0 * (1.0 / s - 1.0).log10()
            }
            EloModel::Normalized => {
                if var > 0.0 {
                    (score - 0.5) / var.sqrt() / std::f64::consts::SQRT_2 * NELO_PER_T
                } else {
                    0.0
                }
            }
        };
        Some((to_elo(mean), to_elo(mean - half), to_elo(mean + half)))
    }
}

/// A pair's score on `[0, 1]` for each pentanomial class.
const X: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

/// A running test: the counts so far and the overshoot state.
#[derive(Clone, Debug)]
pub struct Sprt {
    /// The test's parameters.
    pub params: SprtParams,
    /// Pairs by score class (0, ½, 1, 1½, 2 for the new bot).
    pub counts: [u64; 5],
    /// The latest log-likelihood ratio.
    pub llr: f64,
    max_llr: f64,
    min_llr: f64,
    up_squares: f64,
    down_squares: f64,
}

impl Sprt {
    /// A test with no pairs yet.
    pub fn new(params: SprtParams) -> Sprt {
        Sprt {
            params,
            counts: [0; 5],
            llr: 0.0,
            max_llr: 0.0,
            min_llr: 0.0,
            up_squares: 0.0,
            down_squares: 0.0,
        }
    }

    /// Records one pair (`class` = the new bot's pair score × 2, 0..=4) and returns the decision.
    pub fn record(&mut self, class: usize) -> SprtDecision {
        self.record_batch(&[class])
    }

    /// Records several pairs and looks at the LLR once, after them (as fishtest does per batch).
    pub fn record_batch(&mut self, classes: &[usize]) -> SprtDecision {
        for &class in classes {
            self.counts[class] += 1;
        }
        self.llr = self.params.llr(&self.counts);
        if self.llr > self.max_llr {
            self.up_squares += (self.llr - self.max_llr).powi(2);
            self.max_llr = self.llr;
        }
        if self.llr < self.min_llr {
            self.down_squares += (self.llr - self.min_llr).powi(2);
            self.min_llr = self.llr;
        }
        self.decision()
    }

    /// The bounds after the overshoot correction: Wald's, each moved inwards by the expected
    /// overshoot `Σ jump² / (2 · LLR)` over the jumps that set a new maximum (minimum).
    pub fn bounds(&self) -> (f64, f64) {
        let (lower, upper) = self.params.bounds();
        let up = if self.max_llr > 0.0 { self.up_squares / self.max_llr / 2.0 } else { 0.0 };
        let down = if self.min_llr < 0.0 { self.down_squares / -self.min_llr / 2.0 } else { 0.0 };
        (lower + down, upper - up)
    }

    /// Where the test stands.
    pub fn decision(&self) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if self.llr >= upper {
            SprtDecision::AcceptH1
        } else if self.llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

/// Expected score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The distribution closest (in likelihood) to `p` on outcomes `x` with mean `s`.
fn mle_with_mean(p: &[f64], x: &[f64], s: f64) -> Vec<f64> {
    let d: Vec<f64> = x.iter().map(|xi| xi - s).collect();
    tilt(p, &d)
}

/// `q_i = p_i / (1 + λ d_i)`, normalized, with `λ` found by bisection so that
/// `Σ p_i d_i / (1 + λ d_i) = 0` (the mean of `d` under `q` is 0). The sum is decreasing in `λ`,
/// and `λ` must keep every denominator positive: `1 + λ d_i > 0`. `d` must have both signs.
fn tilt(p: &[f64], d: &[f64]) -> Vec<f64> {
    let f = |lambda: f64| -> f64 { p.iter().zip(d).map(|(pi, di)| pi * di / (1.0 + lambda * di)).sum() };
    let max_d = d.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    let min_d = d.iter().copied().fold(f64::INFINITY, f64::min);
    let eps = 1e-9;
    let (mut lo, mut hi) = (-1.0 / max_d + eps, -1.0 / min_d - eps);
    for _ in 0..60 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let q: Vec<f64> = p.iter().zip(d).map(|(pi, di)| pi / (1.0 + lambda * di)).collect();
    let sum: f64 = q.iter().sum();
    q.iter().map(|v| v / sum).collect()
}

/// The distribution closest (in likelihood) to `p` on outcomes `x` whose t-value
/// `(μ − ½) / σ` is `t`. At the optimum `q_i = p_i / (1 + λ d_i)` with
/// `d_i = (x_i − ½) − t (σ² + (x_i − μ)²) / (2σ)`, whose mean under `q` is the constraint's gap
/// `μ − ½ − t σ`. `d` depends on `q`, so it is iterated from the uniform distribution: fix `μ, σ`,
/// solve `Σ p_i d_i / (1 + λ d_i) = 0` for `λ` (decreasing in `λ`: bisection), repeat until `q`
/// stops moving. The method of fishtest's `MLE_tvalue`.
fn mle_with_t(p: &[f64], x: &[f64], t: f64) -> Vec<f64> {
    let mut q = vec![1.0 / p.len() as f64; p.len()];
    for _ in 0..30 {
        let mu: f64 = q.iter().zip(x).map(|(a, b)| a * b).sum();
        let var: f64 = q.iter().zip(x).map(|(a, b)| a * (b - mu).powi(2)).sum();
        let sigma = var.max(1e-12).sqrt();
        let d: Vec<f64> =
            x.iter().map(|xi| (xi - 0.5) - t * (var + (xi - mu).powi(2)) / (2.0 * sigma)).collect();
        if d.iter().all(|&di| di <= 0.0) || d.iter().all(|&di| di >= 0.0) {
            break;
        }
        let next = tilt(p, &d);
        let moved = next.iter().zip(&q).map(|(a, b)| (a - b).abs()).fold(0.0, f64::max);
        q = next;
        if moved < 1e-9 {
            break;
        }
    }
    q
}

#[cfg(test)]
mod tests {
    use super::*;

    fn decide(p: &SprtParams, llr: f64) -> SprtDecision {
        let mut t = Sprt::new(*p);
        t.llr = llr;
        t.decision()
    }

    #[test]
    fn bounds_are_walds() {
        let (lo, hi) = SprtParams::default().bounds();
        assert!((lo - (-2.944)).abs() < 1e-3 && (hi - 2.944).abs() < 1e-3, "{lo} {hi}");
    }

    #[test]
    fn a_clearly_stronger_bot_is_accepted_and_an_equal_one_rejected() {
        let p = SprtParams::default();
        // new bot wins most pairs
        let strong = [5, 20, 100, 200, 75];
        assert_eq!(decide(&p, p.llr(&strong)), SprtDecision::AcceptH1, "{}", p.llr(&strong));
        // symmetric results: no better
        let equal = [200, 800, 1600, 800, 200];
        assert!(p.llr(&equal) < 0.0);
        assert_eq!(decide(&p, p.llr(&equal)), SprtDecision::AcceptH0, "{}", p.llr(&equal));
        assert_eq!(p.llr(&[0; 5]), 0.0);
        assert_eq!(decide(&p, p.llr(&[0, 1, 1, 1, 0])), SprtDecision::Continue);
    }

    /// Pentanomial probabilities of two independent games, each a draw with probability 0.3 and
    /// otherwise won with probability `(1 + shift) / 2`.
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

    /// The shift whose pair distribution has Elo `elo` in `model`.
    fn shift_for(model: EloModel, elo: f64) -> f64 {
        let elo_of = |shift: f64| {
            let counts = pair_pdf(shift).map(|p| (p * 1e9) as u64);
            SprtParams { model, ..SprtParams::default() }.estimate(&counts).expect("pairs").0
        };
        let (mut lo, mut hi) = (-0.99, 0.99);
        for _ in 0..60 {
            let mid = 0.5 * (lo + hi);
            if elo_of(mid) < elo {
                lo = mid;
            } else {
                hi = mid;
            }
        }
        lo
    }

    /// Share of seeded tests that accept H1 when the truth is `elo`.
    fn pass_rate(params: SprtParams, elo: f64, runs: usize, seed: u64) -> (f64, f64) {
        let pdf = pair_pdf(shift_for(params.model, elo));
        let mut rng = crate::games::rng::Rng::new(seed, crate::games::rng::Stream::Arena);
        let (mut passed, mut pairs) = (0, 0);
        for _ in 0..runs {
            let mut test = Sprt::new(params);
            loop {
                let mut u = rng.unit_f64();
                let class = pdf.iter().position(|&p| {
                    u -= p;
                    u < 0.0
                });
                pairs += 1;
                match test.record(class.unwrap_or(4)) {
                    SprtDecision::Continue => {}
                    d => {
                        passed += usize::from(d == SprtDecision::AcceptH1);
                        break;
                    }
                }
            }
        }
        (passed as f64 / runs as f64, pairs as f64 / runs as f64)
    }

    #[test]
    fn error_rates_are_alpha_and_beta_in_both_elo_models() {
        for model in [EloModel::Normalized, EloModel::Logistic] {
            let params = SprtParams { model, elo0: 0.0, elo1: 30.0, alpha: 0.05, beta: 0.05 };
            let (false_pos, n0) = pass_rate(params, 0.0, 150, 1);
            let (power, n1) = pass_rate(params, 30.0, 150, 2);
            eprintln!("{model:?}: H0 true -> H1 {false_pos:.3} ({n0:.0} pairs), H1 true -> H1 {power:.3} ({n1:.0} pairs)");
            assert!((0.02..=0.085).contains(&false_pos), "{model:?}: alpha {false_pos}");
            assert!((0.915..=0.98).contains(&power), "{model:?}: 1 - beta {power}");
        }
    }

    #[test]
    fn mle_keeps_the_mean() {
        let p = [0.1, 0.2, 0.4, 0.2, 0.1];
        let q = mle_with_mean(&p, &X, 0.6);
        let mean: f64 = q.iter().zip(&X).map(|(a, b)| a * b).sum();
        assert!((mean - 0.6).abs() < 1e-6, "{mean}");
    }

    #[test]
    fn mle_keeps_the_t_value_and_is_the_closest_such_distribution() {
        let p = [0.05, 0.2, 0.45, 0.2, 0.1];
        for t in [-0.2, 0.0, 0.05, 0.3] {
            let q = mle_with_t(&p, &X, t);
            let mu: f64 = q.iter().zip(&X).map(|(a, b)| a * b).sum();
            let sd = q.iter().zip(&X).map(|(a, b)| a * (b - mu).powi(2)).sum::<f64>().sqrt();
            assert!(((mu - 0.5) / sd - t).abs() < 1e-6, "t {t}: {}", (mu - 0.5) / sd);
            // At least as likely as another distribution with the same t-value: the
            // mean-constrained one whose mean gives that t.
            let ll = |q: &[f64]| p.iter().zip(q).map(|(a, b)| a * b.ln()).sum::<f64>();
            let t_of = |q: &[f64]| {
                let mu: f64 = q.iter().zip(&X).map(|(a, b)| a * b).sum();
                (mu - 0.5) / q.iter().zip(&X).map(|(a, b)| a * (b - mu).powi(2)).sum::<f64>().sqrt()
            };
            let (mut lo, mut hi) = (0.01, 0.99);
            for _ in 0..100 {
                let mid = 0.5 * (lo + hi);
                if t_of(&mle_with_mean(&p, &X, mid)) < t {
                    lo = mid;
                } else {
                    hi = mid;
                }
            }
            let other = mle_with_mean(&p, &X, lo);
            assert!((t_of(&other) - t).abs() < 1e-6);
            assert!(ll(&q) >= ll(&other) - 1e-12, "t {t}: {} < {}", ll(&q), ll(&other));
        }
    }

    #[test]
    fn normalized_elo_of_symmetric_data_is_zero_and_its_llr_matches_the_logistic_sign() {
        let logistic = SprtParams { model: EloModel::Logistic, ..SprtParams::default() };
        let normalized = SprtParams::default();
        let equal = [20, 80, 160, 80, 20];
        let (e, lo, hi) = normalized.estimate(&equal).expect("pairs");
        assert!(e.abs() < 1e-9 && lo < 0.0 && hi > 0.0, "{e} {lo} {hi}");
        let better = [10, 60, 160, 100, 30];
        assert!(normalized.llr(&better) > 0.0 && logistic.llr(&better) > 0.0);
        assert!(normalized.llr(&equal) < 0.0 && logistic.llr(&equal) < 0.0);
        // The same counts: normalized Elo is larger than logistic Elo when the pair scores are
        // concentrated (here σ of a pair is 0.21 on [0, 1], against 0.35 for a coin per game).
        let (nelo, _, _) = normalized.estimate(&better).expect("pairs");
        let (lelo, _, _) = logistic.estimate(&better).expect("pairs");
        assert!(nelo > lelo && lelo > 0.0, "{nelo} {lelo}");
    }
}
