//! Test helper: two built-in bots over duplicate deals (each deal played in both seat orders),
//! as a tournament plays them, with the per-deal points difference and its 95% interval.

use crate::bots::bot::{builtin, builtin_hash};
use crate::bots::Greedy;
use crate::games::rng::derive_seed;
use crate::play::runner::{run_match, BotEntry, MatchSpec, Quiet};

/// The result of [`duel`], from bot `a`'s side.
#[derive(Clone, Debug)]
pub struct Duel {
    /// Deals played (each twice, seats swapped).
    pub deals: usize,
    /// Matches `a` won, drew and lost (rank 1 alone, shared, behind).
    pub wdl: [u32; 3],
    /// Mean over deals of `a`'s points minus `b`'s, averaged over the two seat orders.
    pub mean: f64,
    /// Half-width of the 95% interval of `mean` (1.96 standard errors over deals).
    pub half_width: f64,
}

impl Duel {
    /// The 95% interval's lower end.
    pub fn low(&self) -> f64 {
        self.mean - self.half_width
    }
}

impl std::fmt::Display for Duel {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let [w, d, l] = self.wdl;
        write!(
            f,
            "{} deals x 2 seatings: {w}W {d}D {l}L, mean points difference per match {:+.3} \
             (95% CI {:+.3} .. {:+.3})",
            self.deals,
            self.mean,
            self.mean - self.half_width,
            self.mean + self.half_width
        )
    }
}

/// Plays `a` against `b` on deals `derive_seed(&[seed, d])` for `d` in `0..deals`, both seat
/// orders.
pub fn duel<G: Greedy>(variant: G::Variant, a: &str, b: &str, seed: u64, deals: usize) -> Duel {
    duel_with::<G>(variant, a, b, seed, deals, |n, deal_seed, seat| {
        builtin::<G>(n, deal_seed, seat).expect("a built-in bot")
    })
}

/// [`duel`] with bots made by `make(name, deal seed, seat)` (a bot that is not a built-in).
pub fn duel_with<G: Greedy>(
    variant: G::Variant,
    a: &str,
    b: &str,
    seed: u64,
    deals: usize,
    make: impl Fn(&str, u64, usize) -> Box<dyn crate::bots::bot::Bot<G>>,
) -> Duel {
    let mut wdl = [0u32; 3];
    let mut diffs = Vec::with_capacity(deals);
    for d in 0..deals {
        let deal_seed = derive_seed(&[seed, d as u64]);
        let mut diff = 0.0;
        for a_seat in 0..2 {
            let names = if a_seat == 0 { [a, b] } else { [b, a] };
            let entries =
                names.iter().map(|n| BotEntry { name: n.to_string(), hash: builtin_hash(n) }).collect();
            let spec = MatchSpec::<G> { variant, seed: deal_seed, entries };
            let mut bots: Vec<_> =
                names.iter().enumerate().map(|(seat, n)| make(n, deal_seed, seat)).collect();
            let outcome = run_match(&spec, &mut bots, &mut Quiet).outcome;
            let b_seat = 1 - a_seat;
            match outcome.ranks[a_seat].cmp(&outcome.ranks[b_seat]) {
                std::cmp::Ordering::Less => wdl[0] += 1,
                std::cmp::Ordering::Equal => wdl[1] += 1,
                std::cmp::Ordering::Greater => wdl[2] += 1,
            }
            diff += (outcome.points[a_seat] - outcome.points[b_seat]) as f64 / 2.0;
        }
        diffs.push(diff);
    }
    // A single deal has no spread to measure: its interval has width 0.
    let (mean, half_width) =
        crate::stats::ratings::mean_ci95(&diffs).unwrap_or((diffs.first().copied().unwrap_or(0.0), 0.0));
    Duel { deals, wdl, mean, half_width }
}
