//! The random source of every generator: a seeded ChaCha stream with the few draws the
//! generators need, and the byte and text mutations the file targets share.

use rand_chacha::ChaCha8Rng;
use rand_core::{RngCore, SeedableRng};

/// A case's random source: the same seed gives the same draws, so a seed is a whole case.
pub struct Gen {
    rng: ChaCha8Rng,
}

impl Gen {
    pub fn new(seed: u64) -> Gen {
        Gen { rng: ChaCha8Rng::seed_from_u64(seed) }
    }

    pub fn u64(&mut self) -> u64 {
        self.rng.next_u64()
    }

    /// A uniform integer in `0..n` (`n > 0`); the tiny modulo bias does not matter here.
    pub fn below(&mut self, n: usize) -> usize {
        (self.rng.next_u64() % n as u64) as usize
    }

    /// True with probability `1 / n`.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn bytes(&mut self, len: usize) -> Vec<u8> {
        let mut out = vec![0; len];
        self.rng.fill_bytes(&mut out);
        out
    }

    /// An integer a bot or a file would not expect: boundaries, powers of two near the 32- and
    /// 64-bit edges, small values.
    pub fn extreme_int(&mut self) -> i64 {
        match self.below(8) {
            0 => *self.pick(&[0, 1, -1, 2, -2]),
            1 => *self.pick(&[i64::MAX, i64::MIN, i64::MAX - 1, i64::MIN + 1]),
            2 => *self.pick(&[i32::MAX as i64, i32::MIN as i64, u32::MAX as i64, 1 << 31, 1 << 32]),
            3 => 1i64 << self.below(63),
            4 => -(1i64 << self.below(63)),
            5 => (1i64 << self.below(63)) - 1,
            6 => self.below(1000) as i64,
            _ => self.u64() as i64,
        }
    }

    /// A short string of awkward characters: control bytes, quotes, separators, multi-byte and
    /// right-to-left characters, digits.
    pub fn weird_text(&mut self, max_len: usize) -> String {
        const PIECES: &[&str] = &[
            "", " ", "\t", "\n", "\r", "\0", "\x1b[2J", "\"", "'", "\\", "#", "=", "[", "]", "{", "}", ",",
            ".", ":", "-", "+", "0", "1", "9", "e", "é", "€", "𝄞", "\u{202e}", "\u{feff}", "\u{7f}", "nan",
            "inf", "true", "null", "%s", "%d", "..", "/", "A", "z",
        ];
        let n = self.below(max_len + 1);
        (0..n).map(|_| *self.pick(PIECES)).collect()
    }

    /// `data` with a few random edits: bit flips, byte changes, deletions, insertions,
    /// duplicated or moved runs, truncation.
    pub fn mutate_bytes(&mut self, data: &[u8]) -> Vec<u8> {
        let mut out = data.to_vec();
        let edits = 1 + self.below(4);
        for _ in 0..edits {
            let len = out.len();
            let at = if len == 0 { 0 } else { self.below(len) };
            match self.below(7) {
                0 if len > 0 => out[at] ^= 1 << self.below(8),
                1 if len > 0 => out[at] = *self.pick(&[0, 0x7f, 0x80, 0xff, b'"', b'\\', b'{', b'9', b'-']),
                2 if len > 0 => {
                    let n = 1 + self.below(16.min(len - at));
                    out.drain(at..at + n);
                }
                3 => {
                    let n = 1 + self.below(8);
                    let extra = self.bytes(n);
                    out.splice(at..at, extra);
                }
                4 if len > 0 => {
                    let n = 1 + self.below(64.min(len - at));
                    let run = out[at..at + n].to_vec();
                    let to = self.below(len + 1);
                    out.splice(to..to, run);
                }
                5 if len > 0 => out.truncate(at),
                _ => {
                    let s = self.weird_text(4);
                    out.splice(at..at, s.into_bytes());
                }
            }
        }
        out
    }
}

/// A string literal for any text in a language whose string escapes include JSON's (Python,
/// JavaScript).
pub fn json_literal(s: &str) -> String {
    serde_json::to_string(s).expect("a string")
}
