//! The sequential probability ratio test on duplicate pairs, pentanomial model (as in fishtest).
//!
//! A duplicate pair is one deal played twice with the seats swapped. Its score for the new bot is
//! 0, ½, 1, 1½ or 2 (win 1, draw ½, loss 0 per game), so pairs fall in five classes. Counting
//! pairs instead of games removes the luck of the deal from the variance.
//!
//! The test is the generalized SPRT of Michel Van den Bergh (fishtest's `sprt.py`): for each
//! hypothesis, the pentanomial distribution closest to the observed one whose expected score is
//! that of `elo0` (resp. `elo1`) logistic Elo is found by maximum likelihood, and the
//! log-likelihood ratio of the observed counts under the two is compared with Wald's bounds
//! `ln(β / (1 − α))` and `ln((1 − β) / α)`.

/// The parameters of a test.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SprtParams {
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
        SprtParams { elo0: 0.0, elo1: 10.0, alpha: 0.05, beta: 0.05 }
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
    /// Wald's lower and upper bounds on the log-likelihood ratio.
    pub fn bounds(&self) -> (f64, f64) {
        ((self.beta / (1.0 - self.alpha)).ln(), ((1.0 - self.beta) / self.alpha).ln())
    }

    /// The decision for a log-likelihood ratio.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        let (lower, upper) = self.bounds();
        if llr >= upper {
            SprtDecision::AcceptH1
        } else if llr <= lower {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
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
        let x = [0.0, 0.25, 0.5, 0.75, 1.0];
        let s0 = elo_to_score(self.elo0);
        let s1 = elo_to_score(self.elo1);
        let q0 = mle_with_mean(&p, &x, s0);
        let q1 = mle_with_mean(&p, &x, s1);
        n * p.iter().zip(q0.iter().zip(&q1)).map(|(pi, (a, b))| pi * (b / a).ln()).sum::<f64>()
    }
}

/// Expected score of a logistic Elo difference.
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The distribution closest (in likelihood) to `p` on outcomes `x` with mean `s`:
/// `q_i = p_i / (1 + λ (x_i − s))`, with `λ` found by bisection so that `Σ q_i = 1`.
fn mle_with_mean(p: &[f64], x: &[f64], s: f64) -> Vec<f64> {
    let f = |lambda: f64| -> f64 {
        p.iter().zip(x).map(|(pi, xi)| pi * (xi - s) / (1.0 + lambda * (xi - s))).sum()
    };
    // λ must keep every denominator positive: 1 + λ(x_i − s) > 0.
    let max_d = x.iter().map(|xi| xi - s).fold(f64::NEG_INFINITY, f64::max);
    let min_d = x.iter().map(|xi| xi - s).fold(f64::INFINITY, f64::min);
    let eps = 1e-9;
    let mut lo = -1.0 / max_d + eps;
    let mut hi = -1.0 / min_d - eps;
    // f is decreasing in λ.
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if f(mid) > 0.0 {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    let lambda = 0.5 * (lo + hi);
    let q: Vec<f64> = p.iter().zip(x).map(|(pi, xi)| pi / (1.0 + lambda * (xi - s))).collect();
    let sum: f64 = q.iter().sum();
    q.iter().map(|v| v / sum).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

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
        assert_eq!(p.decide(p.llr(&strong)), SprtDecision::AcceptH1, "{}", p.llr(&strong));
        // symmetric results: no better
        let equal = [200, 800, 1600, 800, 200];
        assert!(p.llr(&equal) < 0.0);
        assert_eq!(p.decide(p.llr(&equal)), SprtDecision::AcceptH0, "{}", p.llr(&equal));
        assert_eq!(p.llr(&[0; 5]), 0.0);
        assert_eq!(p.decide(p.llr(&[0, 1, 1, 1, 0])), SprtDecision::Continue);
    }

    #[test]
    fn mle_keeps_the_mean() {
        let p = [0.1, 0.2, 0.4, 0.2, 0.1];
        let x = [0.0, 0.25, 0.5, 0.75, 1.0];
        let q = mle_with_mean(&p, &x, 0.6);
        let mean: f64 = q.iter().zip(&x).map(|(a, b)| a * b).sum();
        assert!((mean - 0.6).abs() < 1e-6, "{mean}");
    }
}
