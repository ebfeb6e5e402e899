//! JSON text → Lua values, for observations and the `init` info.
//!
//! Objects become tables with string keys, arrays 1-based sequences, `null` becomes `nil` (so
//! a `null` inside an array leaves a hole), integral numbers become Lua integers (when they fit
//! in an `i64`; otherwise floats), other numbers floats. A key that appears twice keeps its
//! last value.
//!
//! Two steps, both without allocating once their buffers have grown (they are reused from one
//! decision to the next):
//! 1. serde_json parses the text into a [`Tape`]: a flat list of tokens, the strings copied
//!    into one buffer, each object's entries sorted by key (and de-duplicated);
//! 2. the tape is pushed onto the Lua stack with the raw C API, in one protected call.
//!
//! The tables are the same as those built value by value from a `serde_json::Value` (the
//! previous implementation): same sizes, and keys inserted in sorted order, so `pairs`
//! visits them in the same order.

use std::ffi::c_int;
use std::fmt;

use mlua::{ffi, Lua, Value};
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// One token of a parsed JSON document.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Tok {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A string: `len` bytes at `start` in [`Tape::text`].
    Str {
        start: usize,
        len: usize,
    },
    /// An array of `count` values, whose tokens are the next `span`.
    Arr {
        count: usize,
        span: usize,
    },
    /// An object of `count` (key, value) entries, whose tokens are the next `span`.
    Obj {
        count: usize,
        span: usize,
    },
}

/// A parsed JSON document, reusable.
#[derive(Default)]
pub(crate) struct Tape {
    toks: Vec<Tok>,
    text: String,
    /// Scratch for sorting an object's entries: (first token, token count).
    entries: Vec<(usize, usize)>,
    scratch: Vec<Tok>,
}

impl Tape {
    /// Parses `json` into the tape (replacing what it held).
    pub(crate) fn parse(&mut self, json: &str) -> Result<(), serde_json::Error> {
        self.toks.clear();
        self.text.clear();
        let mut de = serde_json::Deserializer::from_str(json);
        Seed(self).deserialize(&mut de)?;
        de.end()
    }

    fn key_of(&self, at: usize) -> &[u8] {
        match self.toks[at] {
            Tok::Str { start, len } => &self.text.as_bytes()[start..start + len],
            _ => &[],
        }
    }

    /// Tokens taken by the value at `at` (1, or 1 + span for containers).
    fn size(&self, at: usize) -> usize {
        match self.toks[at] {
            Tok::Arr { span, .. } | Tok::Obj { span, .. } => 1 + span,
            _ => 1,
        }
    }

    /// Sorts the entries of the object whose header is at `head` by key (stably), keeps the
    /// last of equal keys, and returns how many remain.
    fn sort_object(&mut self, head: usize) -> usize {
        self.entries.clear();
        let end = self.toks.len();
        let mut at = head + 1;
        while at < end {
            let n = 1 + self.size(at + 1);
            self.entries.push((at, n));
            at += n;
        }
        let mut entries = std::mem::take(&mut self.entries);
        entries.sort_by(|a, b| self.key_of(a.0).cmp(self.key_of(b.0)));
        // Of equal keys (now adjacent, in document order), the last one wins.
        entries.dedup_by(|later, earlier| {
            if self.key_of(later.0) == self.key_of(earlier.0) {
                *earlier = *later;
                true
            } else {
                false
            }
        });
        let sorted = entries.windows(2).all(|w| w[0].0 < w[1].0)
            && at - head - 1 == entries.iter().map(|e| e.1).sum::<usize>();
        if !sorted {
            self.scratch.clear();
            for &(from, n) in &entries {
                self.scratch.extend_from_slice(&self.toks[from..from + n]);
            }
            self.toks.truncate(head + 1);
            self.toks.append(&mut self.scratch);
        }
        let count = entries.len();
        self.entries = entries;
        count
    }
}

struct Seed<'a>(&'a mut Tape);

impl<'de> DeserializeSeed<'de> for Seed<'_> {
    type Value = ();

    fn deserialize<D: de::Deserializer<'de>>(self, d: D) -> Result<(), D::Error> {
        d.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Seed<'_> {
    type Value = ();

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E>(self) -> Result<(), E> {
        self.0.toks.push(Tok::Null);
        Ok(())
    }

    fn visit_none<E>(self) -> Result<(), E> {
        self.0.toks.push(Tok::Null);
        Ok(())
    }

    fn visit_bool<E>(self, b: bool) -> Result<(), E> {
        self.0.toks.push(Tok::Bool(b));
        Ok(())
    }

    fn visit_i64<E>(self, i: i64) -> Result<(), E> {
        self.0.toks.push(Tok::Int(i));
        Ok(())
    }

    fn visit_u64<E>(self, u: u64) -> Result<(), E> {
        // Above i64::MAX: a float (2^63 and up never fit back in an i64).
        self.0.toks.push(i64::try_from(u).map_or(Tok::Float(u as f64), Tok::Int));
        Ok(())
    }

    fn visit_f64<E>(self, f: f64) -> Result<(), E> {
        // Integral floats (`3.0`) become integers when they fit.
        const TWO_63: f64 = 9_223_372_036_854_775_808.0; // 2^63, exact in f64
        let tok = if f.fract() == 0.0 && (-TWO_63..TWO_63).contains(&f) {
            Tok::Int(f as i64)
        } else {
            Tok::Float(f)
        };
        self.0.toks.push(tok);
        Ok(())
    }

    fn visit_str<E>(self, s: &str) -> Result<(), E> {
        let start = self.0.text.len();
        self.0.text.push_str(s);
        self.0.toks.push(Tok::Str { start, len: s.len() });
        Ok(())
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        let tape = self.0;
        let head = tape.toks.len();
        tape.toks.push(Tok::Arr { count: 0, span: 0 });
        let mut count = 0;
        while seq.next_element_seed(Seed(tape))?.is_some() {
            count += 1;
        }
        let span = tape.toks.len() - head - 1;
        tape.toks[head] = Tok::Arr { count, span };
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let tape = self.0;
        let head = tape.toks.len();
        tape.toks.push(Tok::Obj { count: 0, span: 0 });
        while map.next_key_seed(Seed(tape))?.is_some() {
            map.next_value_seed(Seed(tape))?;
        }
        let count = tape.sort_object(head);
        let span = tape.toks.len() - head - 1;
        tape.toks[head] = Tok::Obj { count, span };
        Ok(())
    }
}

/// Converts a parsed document into a Lua value. Nesting is bounded by serde_json's parser (128).
pub(crate) fn to_lua(lua: &Lua, tape: &Tape) -> mlua::Result<Value> {
    if tape.toks.is_empty() {
        return Ok(Value::Nil);
    }
    // SAFETY: `push` leaves exactly one value on the stack and keeps nothing with a destructor
    // in its frames (only borrows and integers), so a Lua error (out of memory) that unwinds
    // through it to `exec_raw`'s protected call leaks nothing.
    unsafe {
        lua.exec_raw::<Value>((), |state| {
            push(state, tape, 0);
        })
    }
}

/// Parses `json` and converts it (for the `init` info and tests).
pub(crate) fn parse_to_lua(lua: &Lua, json: &str) -> Result<mlua::Result<Value>, serde_json::Error> {
    let mut tape = Tape::default();
    tape.parse(json)?;
    Ok(to_lua(lua, &tape))
}

/// Pushes the value whose first token is at `at`; returns the index after it.
///
/// # Safety
/// `state` is a live Lua state inside a protected call.
unsafe fn push(state: *mut ffi::lua_State, tape: &Tape, at: usize) -> usize {
    // SAFETY (all blocks): see the function's contract; every push is preceded by the check
    // of three free slots (a table, a key and a value).
    unsafe {
        ffi::luaL_checkstack(state, 3, std::ptr::null());
        match tape.toks[at] {
            Tok::Null => ffi::lua_pushnil(state),
            Tok::Bool(b) => ffi::lua_pushboolean(state, c_int::from(b)),
            Tok::Int(i) => ffi::lua_pushinteger(state, i),
            Tok::Float(f) => ffi::lua_pushnumber(state, f),
            Tok::Str { start, len } => {
                ffi::lua_pushlstring(state, tape.text.as_ptr().add(start).cast(), len);
            }
            Tok::Arr { count, .. } => {
                ffi::lua_createtable(state, clamp(count), 0);
                let mut next = at + 1;
                for i in 1..=count {
                    next = push(state, tape, next);
                    ffi::lua_rawseti(state, -2, i as ffi::lua_Integer);
                }
                return next;
            }
            Tok::Obj { count, .. } => {
                ffi::lua_createtable(state, 0, clamp(count));
                let mut next = at + 1;
                for _ in 0..count {
                    next = push(state, tape, next); // the key
                    next = push(state, tape, next); // the value
                    ffi::lua_rawset(state, -3);
                }
                return next;
            }
        }
        at + 1
    }
}

fn clamp(n: usize) -> c_int {
    c_int::try_from(n).unwrap_or(c_int::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tape(json: &str) -> Vec<Tok> {
        let mut t = Tape::default();
        t.parse(json).unwrap();
        t.toks
    }

    #[test]
    fn objects_are_sorted_and_keep_the_last_duplicate() {
        let mut t = Tape::default();
        t.parse(r#"{"b":[1,{"z":null,"a":true}],"a":2.5,"b":3.0}"#).unwrap();
        assert_eq!(t.toks[0], Tok::Obj { count: 2, span: 4 });
        assert_eq!(t.key_of(1), b"a");
        assert_eq!(t.toks[2], Tok::Float(2.5));
        assert_eq!(t.key_of(3), b"b");
        assert_eq!(t.toks[4], Tok::Int(3));
    }

    #[test]
    fn numbers_follow_the_documented_rules() {
        assert_eq!(
            tape("[1, -2, 3.0, 0.5, 18446744073709551615, 1e300]"),
            vec![
                Tok::Arr { count: 6, span: 6 },
                Tok::Int(1),
                Tok::Int(-2),
                Tok::Int(3),
                Tok::Float(0.5),
                Tok::Float(18446744073709551615.0),
                Tok::Float(1e300),
            ]
        );
    }

    #[test]
    fn lua_tables_match_the_json() {
        let lua = Lua::new();
        let v =
            parse_to_lua(&lua, r#"{"legal":["1","B"],"n":{"x":[null,2]},"s":"h\u00e9\n"}"#).unwrap().unwrap();
        lua.globals().set("obs", v).unwrap();
        let s: String = lua
            .load(
                r#"local k = {} for key in pairs(obs) do k[#k+1] = key end table.sort(k)
                return table.concat(k, ",") .. "|" .. obs.legal[2] .. #obs.legal .. "|" ..
                tostring(obs.n.x[1]) .. math.type(obs.n.x[2]) .. "|" .. obs.s"#,
            )
            .eval()
            .unwrap();
        assert_eq!(s, "legal,n,s|B2|nilinteger|hé\n");
        assert!(parse_to_lua(&lua, "{").is_err());
        assert!(parse_to_lua(&lua, "[1] x").is_err());
    }
}
