//! A small JSON writer for observations: the bytes `serde_json::to_writer` gives for the same
//! value (compact form, its escaping), written without serde's per-field machinery.
//!
//! A game's observation may implement [`Observation::write_json`](super::Observation::write_json)
//! with it; `tests/it/observations.rs` checks every such encoder against `serde_json` on every
//! observation of random matches of every variant, so the two cannot drift apart unnoticed.

/// Whether serde_json writes byte `b` of a string as it is (no escape).
#[inline]
fn plain(b: u8) -> bool {
    b >= 0x20 && b != b'"' && b != b'\\'
}

/// Appends JSON tokens to a byte buffer. Punctuation is the caller's (`raw`), so an encoder
/// reads like the document it writes.
pub struct JsonOut<'a>(pub &'a mut Vec<u8>);

impl JsonOut<'_> {
    /// Bytes written as they are: punctuation, keys with their quotes and colon.
    #[inline]
    pub fn raw(&mut self, bytes: &str) -> &mut Self {
        self.0.extend_from_slice(bytes.as_bytes());
        self
    }

    /// An unsigned integer.
    #[inline]
    pub fn uint(&mut self, n: impl Into<u64>) -> &mut Self {
        let n = n.into();
        if n < 10 {
            self.0.push(b'0' + n as u8);
        } else {
            let mut buf = itoa::Buffer::new();
            self.0.extend_from_slice(buf.format(n).as_bytes());
        }
        self
    }

    /// A `usize` (seats, counts).
    #[inline]
    pub fn usize(&mut self, n: usize) -> &mut Self {
        // Lossless: Rust's targets have at most 64-bit pointers.
        self.uint(n as u64)
    }

    /// `[a,b,…]` of unsigned integers.
    #[inline]
    pub fn uints<T: Into<u64>>(&mut self, items: impl IntoIterator<Item = T>) -> &mut Self {
        self.array(items, |o, n| {
            o.uint(n);
        })
    }

    /// `[a,b,…]` of `usize`s.
    #[inline]
    pub fn usizes(&mut self, items: impl IntoIterator<Item = usize>) -> &mut Self {
        self.array(items, |o, n| {
            o.usize(n);
        })
    }

    /// `[a,b,…]` of signed integers.
    #[inline]
    pub fn ints(&mut self, items: impl IntoIterator<Item = i64>) -> &mut Self {
        self.array(items, |o, n| {
            o.int(n);
        })
    }

    /// `[a,b,…]` of strings, each escaped as [`JsonOut::str`] does.
    #[inline]
    pub fn strs(&mut self, items: &[String]) -> &mut Self {
        self.array(items, |o, s| {
            o.str(s);
        })
    }

    /// A one-character name in quotes (a Blade card), in one write.
    #[inline]
    pub fn char_name(&mut self, c: u8) -> &mut Self {
        debug_assert!(plain(c) && c.is_ascii());
        self.0.extend_from_slice(&[b'"', c, b'"']);
        self
    }

    /// An array of one-character names (`["1","B"]`): a write per element.
    #[inline]
    pub fn char_names(&mut self, chars: impl IntoIterator<Item = u8>) -> &mut Self {
        self.0.push(b'[');
        let before = self.0.len();
        for c in chars {
            debug_assert!(plain(c) && c.is_ascii());
            self.0.extend_from_slice(&[b'"', c, b'"', b',']);
        }
        if self.0.len() > before {
            self.0.pop();
        }
        self.0.push(b']');
        self
    }

    /// A signed integer.
    #[inline]
    pub fn int(&mut self, n: i64) -> &mut Self {
        let mut buf = itoa::Buffer::new();
        self.0.extend_from_slice(buf.format(n).as_bytes());
        self
    }

    /// `true` or `false`.
    #[inline]
    pub fn bool(&mut self, b: bool) -> &mut Self {
        self.raw(if b { "true" } else { "false" })
    }

    /// A string in quotes, escaped as serde_json escapes it: `"` and `\` with a backslash,
    /// `\b \f \n \r \t` by name, the other control characters as `\u00XX`, nothing else.
    #[inline]
    pub fn str(&mut self, s: &str) -> &mut Self {
        let bytes = s.as_bytes();
        if let &[b] = bytes {
            if plain(b) {
                // One character (most action strings): one write.
                self.0.extend_from_slice(&[b'"', b, b'"']);
                return self;
            }
        }
        self.0.push(b'"');
        if bytes.iter().all(|&b| plain(b)) {
            self.0.extend_from_slice(bytes);
        } else {
            self.escaped(bytes);
        }
        self.0.push(b'"');
        self
    }

    #[cold]
    fn escaped(&mut self, bytes: &[u8]) {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            let named = match b {
                b'"' => b'"',
                b'\\' => b'\\',
                0x08 => b'b',
                0x0c => b'f',
                b'\n' => b'n',
                b'\r' => b'r',
                b'\t' => b't',
                0x00..=0x1f => b'u',
                _ => continue,
            };
            self.0.extend_from_slice(&bytes[start..i]);
            self.0.push(b'\\');
            self.0.push(named);
            if named == b'u' {
                self.0.extend_from_slice(&[b'0', b'0', HEX[usize::from(b >> 4)], HEX[usize::from(b & 15)]]);
            }
            start = i + 1;
        }
        self.0.extend_from_slice(&bytes[start..]);
    }

    /// A string known to need no escaping (a name from the contract), in quotes.
    #[inline]
    pub fn name(&mut self, s: &'static str) -> &mut Self {
        debug_assert!(s.bytes().all(plain), "{s:?}");
        self.0.push(b'"');
        self.0.extend_from_slice(s.as_bytes());
        self.0.push(b'"');
        self
    }

    /// `[a,b,…]`, each element written by `each`.
    #[inline]
    pub fn array<T>(
        &mut self,
        items: impl IntoIterator<Item = T>,
        mut each: impl FnMut(&mut Self, T),
    ) -> &mut Self {
        self.0.push(b'[');
        let mut first = true;
        for item in items {
            if !first {
                self.0.push(b',');
            }
            first = false;
            each(self, item);
        }
        self.0.push(b']');
        self
    }

    /// `null`, or the value written by `some`.
    #[inline]
    pub fn option<T>(&mut self, value: Option<T>, some: impl FnOnce(&mut Self, T)) -> &mut Self {
        match value {
            None => self.raw("null"),
            Some(v) => {
                some(self, v);
                self
            }
        }
    }
}

/// An observation's `game` field: the game's name. Spelt through this alias because serde's
/// derive borrows every field written `&str` from the input, which would tie the observation
/// to the JSON buffer it was read from.
pub type GameName = &'static str;

/// An observation's `game` field read back (`#[serde(deserialize_with)]`): `name`, or an error
/// naming both.
pub(crate) fn game_name<'de, D: serde::Deserializer<'de>>(
    d: D,
    name: &'static str,
) -> Result<&'static str, D::Error> {
    use serde::Deserialize;
    let given = String::deserialize(d)?;
    if given == name {
        Ok(name)
    } else {
        Err(serde::de::Error::custom(format!("an observation of {name:?}, not {given:?}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::{Rng, Stream};
    use crate::{blade::Blade, ecard::Ecard, intensity::Intensity, lost_cities::LostCities};
    use crate::{Game, Observation};

    /// Every observation of `matches` random matches, as bots receive it (`write_json`), reads
    /// back into the same value: the Rust bot SDK deserializes these very types (CONTRACT.md §2).
    fn observations_read_back<G: Game>(matches: u64)
    where
        G::Observation: serde::de::DeserializeOwned + PartialEq,
    {
        for variant in G::variants() {
            for seed in 0..matches {
                let mut state = G::new(*variant, seed);
                let mut rng = Rng::new(seed, Stream::Arena);
                loop {
                    for seat in 0..G::PLAYERS {
                        let obs = state.observe(seat);
                        let mut json = Vec::new();
                        obs.write_json(&mut json).unwrap();
                        let back: G::Observation = serde_json::from_slice(&json).unwrap_or_else(|e| {
                            panic!("{}: {e}\n{}", G::NAME, String::from_utf8_lossy(&json))
                        });
                        assert_eq!(back, obs, "{} seed {seed} seat {seat}", G::NAME);
                    }
                    let Some(&seat) = state.to_act().first() else { break };
                    let legal = state.legal_strings(seat);
                    state.play(seat, &legal[rng.below(legal.len())]).unwrap();
                }
            }
        }
    }

    #[test]
    fn observations_read_back_blade() {
        observations_read_back::<Blade>(20);
    }

    #[test]
    fn observations_read_back_ecard() {
        observations_read_back::<Ecard>(20);
    }

    #[test]
    fn observations_read_back_lost_cities() {
        observations_read_back::<LostCities>(5);
    }

    #[test]
    fn observations_read_back_intensity() {
        observations_read_back::<Intensity>(10);
    }

    /// An observation of another game is refused by name.
    #[test]
    fn observation_of_another_game_is_refused() {
        let mut json = Vec::new();
        Ecard::new(Ecard::variants()[0], 1).observe(0).write_json(&mut json).unwrap();
        let err = serde_json::from_slice::<crate::blade::BladeObservation>(&json).unwrap_err();
        assert!(err.to_string().contains(r#"an observation of "blade", not "ecard""#), "{err}");
    }

    /// Strings with every byte class serde_json treats apart come out as serde_json writes them.
    #[test]
    fn strings_escape_as_serde_json_does() {
        let mut cases: Vec<String> = (0u8..0x80).map(|b| format!("a{}z", char::from(b))).collect();
        cases.extend(
            ["", "plain", "é ü 漢字 🃏", "\u{7f}", "\"\\/", "tab\there\nline\u{1}"].map(String::from),
        );
        for s in cases {
            let mut out = Vec::new();
            JsonOut(&mut out).str(&s);
            assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&s).unwrap(), "{s:?}");
        }
    }

    #[test]
    fn one_character_names_are_json_strings() {
        let mut out = Vec::new();
        JsonOut(&mut out).char_names(*b"1B").raw(",").char_names([]).raw(",").char_name(b'M');
        assert_eq!(String::from_utf8(out).unwrap(), r#"["1","B"],[],"M""#);
    }

    #[test]
    fn numbers_arrays_and_options_are_compact_json() {
        let mut out = Vec::new();
        JsonOut(&mut out)
            .raw("{\"a\":")
            .array([0u32, 7, 10, u32::MAX], |o, n| {
                o.uint(n);
            })
            .raw(",\"b\":")
            .int(-12)
            .raw(",\"c\":")
            .option(None::<u8>, |o, n| {
                o.uint(n);
            })
            .raw(",\"d\":")
            .array(Vec::<u8>::new(), |o, n| {
                o.uint(n);
            })
            .raw(",\"e\":")
            .bool(false)
            .raw(",\"f\":")
            .array([0usize, 9, 10, 123], |o, n| {
                o.usize(n);
            })
            .raw("}");
        let expected = serde_json::json!({"a": [0, 7, 10, u32::MAX], "b": -12, "c": null, "d": [], "e": false, "f": [0, 9, 10, 123]});
        assert_eq!(String::from_utf8(out).unwrap(), serde_json::to_string(&expected).unwrap());
    }
}
