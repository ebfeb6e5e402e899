//! A small deterministic random generator for bots.

/// SplitMix64: tiny, fast and good enough to break ties or play random moves. Seed it from
/// [`InitInfo::seed`](crate::InitInfo::seed) so that the same match seed replays the same
/// match.
///
/// ```
/// let mut rng = cardarena_bot::Rng::new(7);
/// let legal = ["1", "5", "B"];
/// let pick = rng.choose(&legal).unwrap();
/// assert!(legal.contains(pick));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Rng(u64);

impl Rng {
    /// A generator for this seed (any value, 0 included).
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A uniform integer in `0..n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        assert!(n > 0, "Rng::below(0)");
        // Multiply-shift: unbiased enough for game choices (bias below 2^-32 for small n).
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }

    /// A uniform float in `[0, 1)`.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A uniformly chosen element, or `None` for an empty slice.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            Some(&items[self.below(items.len())])
        }
    }
}
