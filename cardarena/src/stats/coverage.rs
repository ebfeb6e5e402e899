//! How often the 95% intervals of [`ratings`](super::ratings) contain the truth: known truths,
//! exact probabilities where the data are win/loss counts, seeded replications otherwise. The
//! tests run these small; `examples/coverage.rs` runs them large for the tables in docs/tools.md
//! and docs/tournament.md.

use super::ratings::{
    effective_counts, effective_counts_of, fit_all, fit_weighted, ln_gamma, mean_ci95, mid_p_interval,
    permutations, score_ci95, score_interval, wilson_interval, Placing, ELO_PER_THETA,
};
use crate::games::rng::{derive_seed, Rng, Stream};
use std::ops::RangeInclusive;

/// The coverage an interval of nominal 95% should have (the goal).
pub const BAND: RangeInclusive<f64> = 0.93..=0.97;
/// True scores of the score interval's grid.
pub const SCORES: [f64; 7] = [0.5, 0.7, 0.9, 0.95, 0.97, 0.99, 0.995];
/// Deal counts of the score interval's grid.
pub const DEALS: [usize; 5] = [20, 50, 100, 200, 400];
/// Draw rates of the exact coverage with draws (0.36 and 0.62 are the issue's).
pub const DRAW_RATES: [f64; 3] = [0.2, 0.36, 0.62];

/// `P(X = x)` for `x` in `0..=n`, `X` binomial(`n`, `p`), `0 < p < 1`.
pub fn binomial_pmf(n: usize, p: f64) -> Vec<f64> {
    let nf = n as f64;
    (0..=n)
        .map(|x| {
            let x = x as f64;
            let ln_choose = ln_gamma(nf + 1.0) - ln_gamma(x + 1.0) - ln_gamma(nf - x + 1.0);
            (ln_choose + x * p.ln() + (nf - x) * (1.0 - p).ln()).exp()
        })
        .collect()
}

/// The score intervals the coverage tables compare.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreMethod {
    /// Before issue 25: the mean ± 1.96 standard errors ([`mean_ci95`]).
    Wald,
    /// Wilson, and the whole interval mid-p where 1–3 effective deals went the other way (the
    /// interval before the current one).
    MidPWithin3,
    /// [`score_ci95`]: Wilson, with the end near an edge Jeffreys or mid-p.
    Current,
}

impl ScoreMethod {
    /// Every method, oldest first.
    pub const ALL: [ScoreMethod; 3] = [ScoreMethod::Wald, ScoreMethod::MidPWithin3, ScoreMethod::Current];

    /// The method's 95% interval `(low, high)` for per-deal scores `xs`. Measurement code: panics
    /// with fewer than two scores (Wald has no interval then).
    pub fn interval(self, xs: &[f64]) -> (f64, f64) {
        match self {
            ScoreMethod::Wald => {
                let (mean, half) = mean_ci95(xs).expect("two scores");
                (mean - half, mean + half)
            }
            ScoreMethod::MidPWithin3 => {
                let (_, won, lost) = effective_counts(xs).expect("scores");
                if won.min(lost) > 0.0 && won.min(lost) <= 3.0 + 1e-9 {
                    mid_p_interval(won, lost)
                } else {
                    wilson_interval(won, lost)
                }
            }
            ScoreMethod::Current => {
                let (_, low, high) = score_ci95(xs).expect("scores");
                (low, high)
            }
        }
    }

    /// How the tables name it.
    pub fn name(self) -> &'static str {
        match self {
            ScoreMethod::Wald => "Wald (before issue 25)",
            ScoreMethod::MidPWithin3 => "Wilson, mid-p within 3 (before)",
            ScoreMethod::Current => "Wilson, Jeffreys/mid-p ends (current)",
        }
    }
}

/// One outcome of `n` deals each won (1), drawn (½) or lost (0), and its interval.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Outcome {
    /// Deals won.
    pub won: usize,
    /// Deals drawn.
    pub drawn: usize,
    /// The interval's ends.
    pub low: f64,
    /// See `low`.
    pub high: f64,
}

/// Every outcome of `n` deals (every `won + drawn ≤ n`; only `drawn = 0` without `draws`) with
/// its interval by `method`.
pub fn outcomes(method: ScoreMethod, n: usize, draws: bool) -> Vec<Outcome> {
    let mut out = Vec::new();
    for won in 0..=n {
        for drawn in 0..=if draws { n - won } else { 0 } {
            let xs: Vec<f64> = (0..n)
                .map(|i| {
                    if i < won {
                        1.0
                    } else if i < won + drawn {
                        0.5
                    } else {
                        0.0
                    }
                })
                .collect();
            let (low, high) = method.interval(&xs);
            out.push(Outcome { won, drawn, low, high });
        }
    }
    out
}

/// The chances `(win, draw, loss)` of one deal with true score `p` and draw rate `rate`: the
/// deal is drawn with probability `min(rate, 2 (1 − p))` (above `1 − rate / 2` every deal not won
/// is drawn), and otherwise won or lost so that its expected score is `p`.
pub fn deal_chances(p: f64, rate: f64) -> (f64, f64, f64) {
    let draw = rate.min(2.0 * (1.0 - p));
    let win = p - draw / 2.0;
    (win, draw, (1.0 - win - draw).max(0.0))
}

/// Exact coverage at true score `p` with draw rate `rate` ([`deal_chances`]): the sum of the
/// trinomial probabilities of the `outcomes` (of `n` deals) whose interval contains `p`.
pub fn exact_coverage(outcomes: &[Outcome], n: usize, p: f64, rate: f64) -> f64 {
    let (win, draw, loss) = deal_chances(p, rate);
    let ln_fact: Vec<f64> = (0..=n).map(|k| ln_gamma(k as f64 + 1.0)).collect();
    // k · ln q, with 0 · ln 0 = 0 (a chance of 0 leaves only the outcomes without that result)
    let term = |k: usize, q: f64| if k == 0 { 0.0 } else { k as f64 * q.ln() };
    outcomes
        .iter()
        .filter(|o| o.low <= p && p <= o.high)
        .map(|o| {
            let lost = n - o.won - o.drawn;
            let ln = ln_fact[n] - ln_fact[o.won] - ln_fact[o.drawn] - ln_fact[lost]
                + term(o.won, win)
                + term(o.drawn, draw)
                + term(lost, loss);
            ln.exp()
        })
        .sum()
}

/// Exact coverage of [`score_ci95`] over `n` win/loss deals won with probability `p`. Win/loss
/// deals are the most discrete case, so the hardest.
pub fn score_exact(p: f64, n: usize) -> f64 {
    exact_coverage(&outcomes(ScoreMethod::Current, n, false), n, p, 0.0)
}

/// The true scores `0.5, 0.5 + step, …` up to 0.995 (rounded to 1e-9 so that the grid's scores
/// are on it exactly).
pub fn score_scan(step: f64) -> Vec<f64> {
    let count = ((0.995 - 0.5) / step + 1e-6).floor() as usize;
    (0..=count).map(|i| ((0.5 + step * i as f64) * 1e9).round() / 1e9).collect()
}

/// A distribution of coverages over a scan of true scores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ScanSummary {
    /// Lowest coverage.
    pub min: f64,
    /// 5th percentile (nearest rank).
    pub p5: f64,
    /// Median (nearest rank).
    pub median: f64,
    /// Highest coverage.
    pub max: f64,
    /// Share of the coverages inside [`BAND`].
    pub in_band: f64,
}

/// Summary of `coverages` (not empty).
pub fn summarize(coverages: &[f64]) -> ScanSummary {
    let mut sorted = coverages.to_vec();
    sorted.sort_by(f64::total_cmp);
    let rank = |q: f64| sorted[((q * sorted.len() as f64).ceil() as usize).clamp(1, sorted.len()) - 1];
    ScanSummary {
        min: sorted[0],
        p5: rank(0.05),
        median: rank(0.5),
        max: sorted[sorted.len() - 1],
        in_band: coverages.iter().filter(|c| BAND.contains(c)).count() as f64 / coverages.len() as f64,
    }
}

/// The lowest coverage over every true score in `range` (not only a scan's) of the interval
/// whose ends for `x` won of `n` win/loss deals are `outcomes[x]` (from [`outcomes`] without
/// draws), and a true score where it is reached or approached: `(coverage, score)`.
///
/// Why the ends suffice: between two consecutive ends (of any count) the win counts whose
/// interval contains `p` do not change, and the probability of a fixed set of consecutive counts
/// rises then falls as `p` grows (or only rises or only falls), so its lowest on a stretch is at
/// one of the stretch's two ends, approached from inside. Each end of an interval inside `range`
/// and the range's own ends are therefore tried with the counts of the stretch on either side.
pub fn lowest_coverage(outcomes: &[Outcome], n: usize, range: RangeInclusive<f64>) -> (f64, f64) {
    assert_eq!(outcomes.len(), n + 1, "win/loss outcomes, one per win count");
    let (lo, hi) = (*range.start(), *range.end());
    let mut points: Vec<f64> =
        outcomes.iter().flat_map(|o| [o.low, o.high]).filter(|e| lo < *e && *e < hi).collect();
    points.extend([lo, hi]);
    points.sort_by(f64::total_cmp);
    points.dedup();
    let mut lowest = (f64::INFINITY, lo);
    for &e in &points {
        let pmf = binomial_pmf(n, e);
        let sum = |inside: &dyn Fn(&Outcome) -> bool| -> f64 {
            outcomes.iter().zip(&pmf).filter(|(o, _)| inside(o)).map(|(_, q)| q).sum()
        };
        // at e itself; the stretch just below e (ends equal to e left out above, kept below);
        // the stretch just above e
        let mut here = vec![sum(&|o| o.low <= e && e <= o.high)];
        if e > lo {
            here.push(sum(&|o| o.low < e && e <= o.high));
        }
        if e < hi {
            here.push(sum(&|o| o.low <= e && e < o.high));
        }
        for c in here {
            if c < lowest.0 {
                lowest = (c, e);
            }
        }
    }
    lowest
}

/// Where no interval can cover `p` over `n` win/loss deals with a probability in [`BAND`]: the
/// closest achievable coverages `(below, above)` on either side of it; `None` where the band can
/// be reached.
///
/// Why runs are all the choices: an interval whose ends never go down when a lost deal turns
/// into a won one contains `p` for a run of consecutive win counts (those whose lower end is at
/// most `p`, intersected with those whose upper end is at least `p`), so its coverage at `p` is
/// the probability of one run. Every run's probability is computed here, exactly (closed-form
/// binomial probabilities, relative rounding error below 1e-9).
pub fn out_of_reach(p: f64, n: usize) -> Option<(f64, f64)> {
    let pmf = binomial_pmf(n, p);
    let (mut below, mut above) = (0.0f64, 1.0f64);
    for a in 0..=n {
        let mut run = 0.0;
        for q in &pmf[a..] {
            run += q;
            if BAND.contains(&run) {
                return None;
            }
            if run < *BAND.start() {
                below = below.max(run);
            } else {
                above = above.min(run);
            }
        }
    }
    Some((below, above))
}

/// The chances `(win, draw, loss)` of one game of [`score_two_games`]: drawn with probability
/// `min(0.2, 1 − p)`, otherwise won or lost so that its expected score is `p`.
fn two_game_chances(p: f64) -> (f64, f64, f64) {
    let draw = (1.0 - p).min(0.2);
    let win = p - draw / 2.0;
    (win, draw, (1.0 - win - draw).max(0.0))
}

/// Simulated coverage of [`score_ci95`] at a true score `p` over `n` deals of two games each
/// (the deal's score is their mean), each game drawn with probability `min(0.2, 1 − p)` and
/// otherwise won or lost so that its expected score is `p`: `reps` seeded replications.
/// [`score_two_games_exact`] is the exact value.
pub fn score_two_games(p: f64, n: usize, reps: usize, seed: u64) -> f64 {
    let mut rng = Rng::new(derive_seed(&[seed, n as u64, p.to_bits()]), Stream::Arena);
    let (win, draw, _) = two_game_chances(p);
    let game = |u: f64| {
        if u < win {
            1.0
        } else if u < win + draw {
            0.5
        } else {
            0.0
        }
    };
    let covered = (0..reps)
        .filter(|_| {
            let xs: Vec<f64> = (0..n).map(|_| (game(rng.unit_f64()) + game(rng.unit_f64())) / 2.0).collect();
            let (_, lo, hi) = score_ci95(&xs).expect("scores");
            lo <= p && p <= hi
        })
        .count();
    covered as f64 / reps as f64
}

/// Exact coverage of [`score_ci95`] in the scenario of [`score_two_games`]. A deal scores `j / 4`
/// for `j` in `0..=4`, and the interval depends on the deals only through `S = Σ j` and
/// `Q = Σ j²` (the mean is `S / 4n`, the sum of squared deviations `(nQ − S²) / 16n`), so the
/// distribution of `(S, Q)` after each deal, summed over the pairs whose interval contains `p`, is
/// the coverage. About `n³` steps: meant for up to 100 deals.
pub fn score_two_games_exact(p: f64, n: usize) -> f64 {
    let (win, draw, loss) = two_game_chances(p);
    // the deal's chances by j: two losses, a draw and a loss, …, two wins
    let deal = [loss * loss, 2.0 * draw * loss, draw * draw + 2.0 * win * loss, 2.0 * win * draw, win * win];
    let (s_max, q_max) = (4 * n, 16 * n);
    let at = |s: usize, q: usize| s * (q_max + 1) + q;
    let mut dist = vec![0.0f64; (s_max + 1) * (q_max + 1)];
    dist[at(0, 0)] = 1.0;
    for played in 0..n {
        let mut next = vec![0.0f64; dist.len()];
        for s in 0..=4 * played {
            for q in 0..=16 * played {
                let prob = dist[at(s, q)];
                if prob == 0.0 {
                    continue;
                }
                for (j, chance) in deal.iter().enumerate() {
                    next[at(s + j, q + j * j)] += prob * chance;
                }
            }
        }
        dist = next;
    }
    let nf = n as f64;
    let mut covered = 0.0;
    for s in 0..=s_max {
        for q in 0..=q_max {
            let prob = dist[at(s, q)];
            if prob == 0.0 {
                continue;
            }
            let mean = s as f64 / (4.0 * nf);
            // n Q − S² is a whole number: exact in floating point at these sizes
            let ss = ((n * q) as f64 - (s * s) as f64) / (16.0 * nf);
            let (_, won, lost) = effective_counts_of(nf, mean, ss);
            let (low, high) = score_interval(won, lost);
            if low <= p && p <= high {
                covered += prob;
            }
        }
    }
    covered
}

/// Simulated coverage of [`score_ci95`] on duplicate deals that mostly split, like two
/// equal-ish bots: 80% of the deals score ½ (one game each), the rest are won outright with
/// probability `won` and lost otherwise. Returns the true score and the coverage.
pub fn score_split_deals(won: f64, n: usize, reps: usize, seed: u64) -> (f64, f64) {
    let mut rng = Rng::new(derive_seed(&[seed, n as u64, won.to_bits()]), Stream::Arena);
    let p = 0.8 * 0.5 + 0.2 * won;
    let covered = (0..reps)
        .filter(|_| {
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
            lo <= p && p <= hi
        })
        .count();
    (p, covered as f64 / reps as f64)
}

/// Coverage of the rating intervals: the share of per-entrant intervals and of pairwise
/// difference intervals ([`Fitted::difference`](super::ratings::Fitted::difference)) that contain
/// the truth.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct RatingCoverage {
    /// Per-entrant intervals.
    pub single: f64,
    /// Intervals of the difference between two entrants.
    pub pairwise: f64,
}

/// Shares of intervals covering `truth` (Elo, centred on 1500) over `reps` fits of `games`.
fn rating_coverage(
    truth: &[f64],
    reps: usize,
    rng: &mut Rng,
    mut games: impl FnMut(&mut Rng) -> Vec<Placing>,
) -> RatingCoverage {
    let n = truth.len();
    let (mut single, mut pairs, mut singles, mut pair_total) = (0, 0, 0, 0);
    for _ in 0..reps {
        let f = fit_all(n, &games(rng));
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
    RatingCoverage { single: single as f64 / singles as f64, pairwise: pairs as f64 / pair_total as f64 }
}

/// Rating coverage for three bots (strengths 0.3, 0, −0.3) in two-player games, 40 per pair:
/// each game a draw with probability `draw`, otherwise a win chosen so that the expected score
/// is `σ(θ_a − θ_b)`; the fit's target is then `θ` itself.
pub fn ratings_with_draws(draw: f64, reps: usize, seed: u64) -> RatingCoverage {
    let theta = [0.3, 0.0, -0.3];
    let mean = theta.iter().sum::<f64>() / theta.len() as f64;
    let truth: Vec<f64> = theta.iter().map(|t| 1500.0 + (t - mean) * ELO_PER_THETA).collect();
    let mut rng = Rng::new(derive_seed(&[seed, draw.to_bits()]), Stream::Arena);
    rating_coverage(&truth, reps, &mut rng, |rng| {
        let mut games = Vec::new();
        for (a, b) in [(0, 1), (0, 2), (1, 2)] {
            let score = 1.0 / (1.0 + f64::exp(theta[b] - theta[a]));
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

/// Rating coverage for four bots (strengths 0.6, 0.2, −0.2, −0.6) all at every table, 150
/// games: Plackett–Luce orders with each adjacent pair of places tied with probability `tie`
/// (0.3 is Intensity-like). The truth is the fit of the expected data (every order and tie
/// pattern weighted by its probability), which is what the fit converges to.
pub fn ratings_with_ties(tie: f64, reps: usize, seed: u64) -> RatingCoverage {
    let theta: [f64; 4] = [0.6, 0.2, -0.2, -0.6];
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
            let ties = mask.count_ones() as i32;
            all.push(with_ties(&order, |k| mask & (1 << (k - 1)) != 0));
            weights.push(p_order * tie.powi(ties) * (1.0 - tie).powi(3 - ties));
        }
    }
    let target = fit_weighted(4, &all, &weights);
    let truth: Vec<f64> = target.ratings.iter().map(|r| r.rating).collect();
    let mut rng = Rng::new(derive_seed(&[seed, tie.to_bits()]), Stream::Arena);
    rating_coverage(&truth, reps, &mut rng, |rng| {
        (0..150)
            .map(|_| {
                let order = pl_order(rng, &theta);
                let cuts: Vec<bool> = (0..3).map(|_| rng.unit_f64() < tie).collect();
                with_ties(&order, |k| cuts[k - 1])
            })
            .collect()
    })
}

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

/// Groups an order into places, tying place `k` with the one before it when `tied(k)`.
fn with_ties(order: &[usize], tied: impl Fn(usize) -> bool) -> Placing {
    let mut groups = vec![vec![order[0]]];
    for (k, &e) in order.iter().enumerate().skip(1) {
        if tied(k) {
            groups.last_mut().expect("a group").push(e);
        } else {
            groups.push(vec![e]);
        }
    }
    Placing { groups }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rating_intervals_cover_95_percent_whatever_the_draw_rate() {
        for draw in [0.0, 0.36, 0.62] {
            let c = ratings_with_draws(draw, 300, 25);
            eprintln!("draws {draw}: per-bot {:.3}, pairwise {:.3}", c.single, c.pairwise);
            assert!(BAND.contains(&c.single), "draws {draw}: per-bot coverage {}", c.single);
            assert!(BAND.contains(&c.pairwise), "draws {draw}: pairwise coverage {}", c.pairwise);
        }
    }

    #[test]
    fn rating_intervals_cover_95_percent_with_four_player_ties() {
        let c = ratings_with_ties(0.3, 200, 25);
        eprintln!("4-player ties 0.3: per-bot {:.3}, pairwise {:.3}", c.single, c.pairwise);
        assert!(BAND.contains(&c.single), "per-bot coverage {}", c.single);
        assert!(BAND.contains(&c.pairwise), "pairwise coverage {}", c.pairwise);
    }

    #[test]
    fn score_intervals_keep_their_coverage_up_to_the_edges() {
        // The grid's cells. Win/loss coverage is exact. The two-game coverage is simulated: 1000
        // replications measure it to ±0.7% (one standard error), so each cell is held to the band
        // widened by 2.5 of those, and their mean to 95 ± 1%; the example's 10000 replications
        // are the measurement in docs/tools.md.
        let noise = 2.5 * (0.95f64 * 0.05 / 1000.0).sqrt();
        // Reachable cells the interval leaves, a little on the wide side: true scores where
        // Wilson's ends at two win counts, one either side of the expected count, reach the score
        // together (docs/tools.md; the candidates measured that move them in lose coverage at
        // deal counts between the grid's).
        let wide = [((20, 0.7), 0.97522), ((50, 0.9), 0.97031)];
        let (mut sum, mut cells) = (0.0, 0.0);
        for n in DEALS {
            let mut line = format!("{n:>4} deals:");
            for p in SCORES {
                let exact = score_exact(p, n);
                let sim = score_two_games(p, n, 1000, 25);
                line += &format!("  {p}: {exact:.3}/{sim:.3}");
                match out_of_reach(p, n) {
                    None => {
                        match wide.iter().find(|(cell, _)| *cell == (n, p)) {
                            Some((_, c)) => {
                                assert!((exact - c).abs() < 1e-5, "win/loss, p {p} n {n}: {exact}")
                            }
                            None => assert!(BAND.contains(&exact), "win/loss, p {p} n {n}: {exact}"),
                        }
                        assert!(
                            (BAND.start() - noise..=BAND.end() + noise).contains(&sim),
                            "two games, p {p} n {n}: {sim}"
                        );
                        sum += sim;
                        cells += 1.0;
                    }
                    Some((_, above)) => {
                        // Where 93–97% is out of reach, the interval misses on the wide side, by
                        // as little as any interval can.
                        assert!((exact - above).abs() < 1e-12, "win/loss, p {p} n {n}: {exact}, not {above}");
                        assert!(sim >= BAND.start() - noise, "two games, p {p} n {n}: {sim}");
                    }
                }
            }
            eprintln!("{line}");
        }
        let mean = sum / cells;
        assert!((0.94..=0.96).contains(&mean), "mean two-game coverage {mean}");
    }

    #[test]
    fn two_game_coverage_over_20_and_50_deals_exactly() {
        // The (S, Q) sums reproduce score_ci95 on every sequence of 5 deals (5⁵ of them).
        for p in [0.6, 0.9, 0.99] {
            let (win, draw, loss) = two_game_chances(p);
            let chance =
                [loss * loss, 2.0 * draw * loss, draw * draw + 2.0 * win * loss, 2.0 * win * draw, win * win];
            let mut brute = 0.0;
            for code in 0..5usize.pow(5) {
                let js: Vec<usize> = (0..5).map(|i| code / 5usize.pow(i) % 5).collect();
                let xs: Vec<f64> = js.iter().map(|&j| j as f64 / 4.0).collect();
                let (_, lo, hi) = score_ci95(&xs).expect("scores");
                if lo <= p && p <= hi {
                    brute += js.iter().map(|&j| chance[j]).product::<f64>();
                }
            }
            let exact = score_two_games_exact(p, 5);
            assert!((brute - exact).abs() < 1e-12, "p {p}: {brute} {exact}");
        }
        // The grid's 20-deal row, exact: all inside 93–97%, 0.99 too (simulated 97.1% in
        // docs/tools.md, 1.6 standard errors above this). The values agree with a separate
        // enumeration of the 10626 counts of deals scoring 0, ¼, ½, ¾ and 1 (scipy, not in the
        // repository).
        let row = [0.940674, 0.941585, 0.940634, 0.960572, 0.966273, 0.968209, 0.964498];
        for (p, expected) in SCORES.into_iter().zip(row) {
            let c = score_two_games_exact(p, 20);
            assert!((c - expected).abs() < 1e-5, "p {p}: {c}, not {expected}");
            assert!(BAND.contains(&c), "p {p}: {c}");
        }
        // And the 50-deal row (93.22% at 0.97 the lowest; simulated 93.4% in docs/tools.md).
        for p in SCORES {
            let c = score_two_games_exact(p, 50);
            assert!(BAND.contains(&c), "50 deals, p {p}: {c}");
        }
    }

    #[test]
    fn win_loss_coverage_between_the_grids_scores() {
        // Exact win/loss coverage at every true score 0.5, 0.505, …, 0.995 (the example scans
        // every 0.0005): at least 92.5% everywhere; inside 93–97% at the share of the reachable
        // scores measured (at least); where no interval reaches the band, the closest coverage
        // any interval can have on one side of it.
        let scan = score_scan(0.005);
        for (n, share) in DEALS.into_iter().zip([0.87, 0.96, 0.96, 1.0, 1.0]) {
            let all = outcomes(ScoreMethod::Current, n, false);
            let mut reachable = Vec::new();
            for &p in &scan {
                let c = exact_coverage(&all, n, p, 0.0);
                assert!(c >= 0.925, "p {p} n {n}: {c}");
                match out_of_reach(p, n) {
                    None => reachable.push(c),
                    Some((below, above)) => assert!(
                        (c - above).abs() < 1e-12 || (c - below).abs() < 1e-12,
                        "p {p} n {n}: {c}, not {below} or {above}"
                    ),
                }
            }
            let s = summarize(&reachable);
            eprintln!("{n} deals: {s:?}");
            assert!(s.in_band >= share, "n {n}: {s:?}");
        }
        // The interval before covered a true 0.9025 over 50 deals 91.1% of the time; this one 94.3%.
        let before = outcomes(ScoreMethod::MidPWithin3, 50, false);
        let now = outcomes(ScoreMethod::Current, 50, false);
        let (b, c) = (exact_coverage(&before, 50, 0.9025, 0.0), exact_coverage(&now, 50, 0.9025, 0.0));
        assert!((b - 0.91141).abs() < 1e-5 && (c - 0.94339).abs() < 1e-5, "{b} {c}");
    }

    #[test]
    fn lowest_coverage_over_every_true_score() {
        // Exactly, between the scan's scores too (docs/tools.md): at least 92.6% at the five deal
        // counts, a little below the fine scan's lowest at 200 and 400 deals.
        let expected = [0.926294, 0.927366, 0.926833, 0.927240, 0.928923];
        for (n, lowest) in DEALS.into_iter().zip(expected) {
            let all = outcomes(ScoreMethod::Current, n, false);
            let (c, at) = lowest_coverage(&all, n, 0.5..=0.995);
            eprintln!("{n} deals: lowest {c} at {at}");
            assert!((c - lowest).abs() < 1e-5 && c >= 0.926, "n {n}: {c} at {at}");
        }
        // A scan 100 times finer than the example's comes down to it and not below.
        let all = outcomes(ScoreMethod::Current, 20, false);
        let (c, at) = lowest_coverage(&all, 20, 0.5..=0.995);
        let scan = score_scan(0.000005);
        let scanned = scan.iter().map(|&p| exact_coverage(&all, 20, p, 0.0)).fold(f64::INFINITY, f64::min);
        assert!(scanned >= c - 1e-12 && scanned - c < 1e-4, "{scanned} {c} at {at}");
        // Between the five counts it is lower: 91.8% at 39 deals.
        let all = outcomes(ScoreMethod::Current, 39, false);
        let (c, at) = lowest_coverage(&all, 39, 0.5..=0.995);
        assert!((c - 0.918140).abs() < 1e-5, "39 deals: {c} at {at}");
    }

    #[test]
    fn coverage_with_draws_between_the_grids_scores() {
        // Exact coverage (trinomial sums over every count of won, drawn and lost deals) at every
        // true score 0.5, 0.51, …, 0.99, with draws at the rates of DRAW_RATES (fewer where the
        // score leaves no room for them). The lowest, 91.4%, is at 62% draws and 20 deals at 0.69,
        // where no deal is lost: the scores take two values, ½ and 1 (docs/tools.md). The fine
        // scan of the example has the rest.
        let scan = score_scan(0.01);
        for (n, floor, share) in [(20, 0.91, 0.87), (50, 0.92, 0.93), (100, 0.94, 0.99)] {
            let all = outcomes(ScoreMethod::Current, n, true);
            for rate in DRAW_RATES {
                let c: Vec<f64> = scan.iter().map(|&p| exact_coverage(&all, n, p, rate)).collect();
                let s = summarize(&c);
                eprintln!("{n} deals, draws {rate}: {s:?}");
                assert!(s.min >= floor && s.in_band >= share, "n {n} draws {rate}: {s:?}");
                assert!(BAND.contains(&s.median), "n {n} draws {rate}: {s:?}");
            }
        }
    }

    /// Whether some set of win counts, consecutive or not, has a probability in [`BAND`]: what an
    /// interval whose ends may go down as wins go up could cover. Exhaustive over the win counts
    /// of probability at least 1e-4 (at most 12 of them); the rest, together below `rest`, can move
    /// a sum by no more than that.
    fn any_set_reaches(p: f64, n: usize) -> Option<bool> {
        let pmf = binomial_pmf(n, p);
        let big: Vec<f64> = pmf.iter().copied().filter(|&q| q >= 1e-4).collect();
        let rest: f64 = pmf.iter().filter(|&&q| q < 1e-4).sum();
        if big.len() > 12 {
            return None;
        }
        let sums = (0..1u32 << big.len()).map(|set| {
            big.iter().enumerate().filter(|(i, _)| set & (1 << i) != 0).map(|(_, q)| q).sum::<f64>()
        });
        let mut maybe = false;
        for s in sums {
            if BAND.contains(&s) {
                return Some(true);
            }
            maybe |= s + rest >= *BAND.start() && s <= *BAND.end();
        }
        (!maybe).then_some(false)
    }

    #[test]
    fn out_of_reach_cells_are_the_known_ones() {
        // docs/tools.md, "Cells no interval can bring into 93–97%": for each cell, the closest
        // run probabilities below and above the band (the lowest above is what score_ci95 covers).
        let expected = [
            ((20, 0.95), (0.92452, 0.98410)),
            ((20, 0.97), (0.88016, 0.97899)),
            ((20, 0.99), (0.81791, 0.98314)),
            ((20, 0.995), (0.90461, 0.99553)),
            ((50, 0.99), (0.91056, 0.98618)),
            ((50, 0.995), (0.77831, 0.97387)),
            ((100, 0.99), (0.92063, 0.98163)),
            ((100, 0.995), (0.91018, 0.98590)),
            ((200, 0.995), (0.92016, 0.98132)),
        ];
        let out: Vec<((usize, f64), (f64, f64))> = DEALS
            .iter()
            .flat_map(|&n| SCORES.iter().map(move |&p| (n, p)))
            .filter_map(|(n, p)| out_of_reach(p, n).map(|gap| ((n, p), gap)))
            .collect();
        assert_eq!(out.len(), expected.len(), "{out:?}");
        for (((n, p), (below, above)), ((en, ep), (eb, ea))) in out.iter().zip(expected) {
            assert_eq!((*n, *p), (en, ep));
            assert!((below - eb).abs() < 5e-6 && (above - ea).abs() < 5e-6, "n {n} p {p}: {below} {above}");
        }
        // An interval whose ends may go down as wins go up could still reach three of them, by
        // leaving out win counts inside its run (17 of 20 wins; 97 of 100; 197 of 200, with or
        // without some of 194 and 195); the other six are out of reach of any set of win counts.
        for ((n, p), _) in expected {
            let hole = [(20, 0.95), (100, 0.99), (200, 0.995)].contains(&(n, p));
            assert_eq!(any_set_reaches(p, n), Some(hole), "n {n} p {p}");
        }
    }

    #[test]
    fn score_intervals_hold_when_duplicate_deals_mostly_split() {
        // Duplicate deals between equal-ish bots vary far less than coin flips; 1000 replications.
        for n in [20, 100] {
            for won in [0.5, 0.75, 1.0] {
                let (p, c) = score_split_deals(won, n, 1000, 26);
                eprintln!("split deals, p {p}, {n} deals: {c:.3}");
                // Truly 92.2% at 0.6 over 20 deals (docs/tools.md: the spread of a few decisive
                // deals is itself uncertain), so the band less 1%.
                assert!((0.92..=0.97).contains(&c), "p {p} n {n}: {c}");
            }
        }
    }
}
