//! Two bots over duplicate deals (each deal played once with bot `a` in every seat, bot `b` in the
//! others), as a tournament plays them, with the per-deal points difference and its 95% interval:
//! the strength tests of the built-in bots and `examples/bot_strength.rs` use it.

use crate::bots::bot::{builtin, builtin_hash};
use crate::games::rng::derive_seed;
use crate::play::runner::BotEntry;
use crate::play::{Hosted, Match};

/// The result of [`duel`], from bot `a`'s side.
#[derive(Clone, Debug)]
pub struct Duel {
    /// Deals played (each once per seat, `a` in that seat).
    pub deals: usize,
    /// Seats of the game: the matches per deal.
    pub seatings: usize,
    /// Matches `a` won, drew and lost: placed ahead of every `b`, level with the best `b`, behind.
    pub wdl: [u32; 3],
    /// `a`'s mean points per match.
    pub a_points: f64,
    /// The mean points per match of a seat of `b`.
    pub b_points: f64,
    /// Mean over deals of `a`'s points minus the mean `b` seat's, averaged over the seatings.
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
            "{} deals x {} seatings: {w}W {d}D {l}L, mean points {:.3} vs {:.3}, mean points \
             difference per match {:+.3} (95% CI {:+.3} .. {:+.3})",
            self.deals,
            self.seatings,
            self.a_points,
            self.b_points,
            self.mean,
            self.mean - self.half_width,
            self.mean + self.half_width
        )
    }
}

/// Plays `a` against `b` on deals `derive_seed(&[seed, d])` for `d` in `0..deals`, each deal
/// once with `a` in every seat and `b` in all the other seats.
pub fn duel<G: Hosted>(variant: G::Variant, a: &str, b: &str, seed: u64, deals: usize) -> Duel {
    duel_with::<G>(variant, a, b, seed, deals, |n, deal_seed, seat| {
        builtin::<G>(n, deal_seed, seat).expect("a built-in bot")
    })
}

/// [`duel`] with bots made by `make(name, deal seed, seat)` (a bot that is not a built-in).
pub fn duel_with<G: Hosted>(
    variant: G::Variant,
    a: &str,
    b: &str,
    seed: u64,
    deals: usize,
    make: impl Fn(&str, u64, usize) -> Box<dyn crate::bots::bot::Bot<G>>,
) -> Duel {
    let seats = G::PLAYERS;
    let others = (seats - 1) as f64;
    let mut wdl = [0u32; 3];
    let (mut a_sum, mut b_sum) = (0.0, 0.0);
    let mut diffs = Vec::with_capacity(deals);
    for d in 0..deals {
        let deal_seed = derive_seed(&[seed, d as u64]);
        let mut diff = 0.0;
        for a_seat in 0..seats {
            let names: Vec<&str> = (0..seats).map(|s| if s == a_seat { a } else { b }).collect();
            let entries: Vec<BotEntry> =
                names.iter().map(|n| BotEntry { name: n.to_string(), hash: builtin_hash(n) }).collect();
            let table = names
                .iter()
                .zip(entries)
                .enumerate()
                .fold(Match::<G>::new(variant, deal_seed), |t, (seat, (n, entry))| {
                    t.seat_bot(entry, make(n, deal_seed, seat))
                });
            let outcome = table.play().outcome;
            let b_seats = || (0..seats).filter(|&s| s != a_seat);
            let best_b = b_seats().map(|s| outcome.ranks[s]).min().expect("two seats or more");
            match outcome.ranks[a_seat].cmp(&best_b) {
                std::cmp::Ordering::Less => wdl[0] += 1,
                std::cmp::Ordering::Equal => wdl[1] += 1,
                std::cmp::Ordering::Greater => wdl[2] += 1,
            }
            let mine = outcome.points[a_seat] as f64;
            let theirs = b_seats().map(|s| outcome.points[s] as f64).sum::<f64>() / others;
            a_sum += mine;
            b_sum += theirs;
            diff += (mine - theirs) / seats as f64;
        }
        diffs.push(diff);
    }
    // A single deal has no spread to measure: its interval has width 0.
    let (mean, half_width) =
        crate::stats::ratings::mean_ci95(&diffs).unwrap_or((diffs.first().copied().unwrap_or(0.0), 0.0));
    let matches = (deals * seats).max(1) as f64;
    Duel {
        deals,
        seatings: seats,
        wdl,
        a_points: a_sum / matches,
        b_points: b_sum / matches,
        mean,
        half_width,
    }
}
