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
//! The tables are the same as those built value by value from a `serde_json::Value`: same sizes, and keys inserted in sorted order, so `pairs`
//! visits them in the same order.

use std::ffi::{c_int, c_void};
use std::fmt;

use mlua::ffi;
use serde::de::{self, DeserializeSeed, MapAccess, SeqAccess, Visitor};

/// One token of a parsed JSON document.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Tok {
    Null,
    Bool(bool),
    Int(i64),
    Float(f64),
    /// A string: the tape's `sym`-th distinct string.
    Str(u32),
    /// An array of `count` values, whose tokens are the next `span`.
    Arr {
        count: u32,
        span: u32,
    },
    /// An object of `count` (key, value) entries, whose tokens are the next `span`. In key
    /// order its entries start at the positions `Tape::order[order..order + count]`, or they
    /// are already in key order when `order == NATURAL`.
    Obj {
        count: u32,
        span: u32,
        order: u32,
    },
}

/// `Tok::Obj::order` of an object whose entries are already in key order (no duplicates).
pub(super) const NATURAL: u32 = u32::MAX;

/// Distinct strings that `push` interns once per document and then copies from the stack
/// (Lua interns every string anyway; a document repeats its keys and card names many times).
const STACKED_STRINGS: usize = 200;

/// A parsed JSON document, reusable.
#[derive(Default)]
pub(crate) struct Tape {
    pub(super) toks: Vec<Tok>,
    text: String,
    /// The distinct strings: (start, len) in `text`, in order of first appearance.
    syms: Vec<(u32, u32)>,
    /// Each distinct string's first 8 bytes as a number (see `prefix`), for sorting keys.
    prefixes: Vec<u64>,
    /// Open-addressing index of `syms` by content: 0 = empty, else sym + 1.
    index: Vec<u32>,
    /// Entry positions of objects that are not in key order (see `Tok::Obj`).
    order: Vec<u32>,
    /// Scratch for sorting an object's entries: (key prefix, key symbol, first token).
    entries: Vec<(u64, u32, u32)>,
}

impl Tape {
    /// An empty tape with room for a typical observation (it grows as needed).
    pub(crate) fn with_capacity() -> Tape {
        Tape {
            toks: Vec::with_capacity(512),
            text: String::with_capacity(1024),
            syms: Vec::with_capacity(128),
            prefixes: Vec::with_capacity(128),
            index: vec![0; 256],
            order: Vec::with_capacity(128),
            entries: Vec::with_capacity(32),
        }
    }

    /// Parses `json` into the tape (replacing what it held).
    pub(crate) fn parse(&mut self, json: &str) -> Result<(), serde_json::Error> {
        self.clear();
        let mut de = serde_json::Deserializer::from_str(json);
        Seed(self).deserialize(&mut de)?;
        de.end()
    }

    pub(super) fn clear(&mut self) {
        self.toks.clear();
        self.text.clear();
        self.syms.clear();
        self.prefixes.clear();
        self.order.clear();
        self.index.iter_mut().for_each(|e| *e = 0);
    }

    /// The bytes of string `sym`.
    fn sym(&self, sym: u32) -> &[u8] {
        let (start, len) = self.syms[sym as usize];
        &self.text.as_bytes()[start as usize..(start + len) as usize]
    }

    /// Appends a string token, interning its text.
    pub(super) fn push_str(&mut self, s: &str) {
        let sym = self.intern(s);
        self.toks.push(Tok::Str(sym));
    }

    fn intern(&mut self, s: &str) -> u32 {
        if (self.syms.len() + 1) * 2 > self.index.len() {
            self.grow_index();
        }
        let mask = self.index.len() - 1;
        let mut slot = hash(s.as_bytes()) as usize & mask;
        loop {
            match self.index[slot] {
                0 => break,
                e if self.sym(e - 1) == s.as_bytes() => return e - 1,
                _ => slot = (slot + 1) & mask,
            }
        }
        let sym = self.syms.len() as u32;
        self.syms.push((self.text.len() as u32, s.len() as u32));
        self.prefixes.push(prefix(s.as_bytes()));
        self.text.push_str(s);
        self.index[slot] = sym + 1;
        sym
    }

    fn grow_index(&mut self) {
        let size = (self.index.len() * 2).max(64);
        self.index = vec![0; size];
        for sym in 0..self.syms.len() as u32 {
            let mut slot = hash(self.sym(sym)) as usize & (size - 1);
            while self.index[slot] != 0 {
                slot = (slot + 1) & (size - 1);
            }
            self.index[slot] = sym + 1;
        }
    }

    /// Tokens taken by the value at `at` (1, or 1 + span for containers).
    fn size(&self, at: usize) -> usize {
        match self.toks[at] {
            Tok::Arr { span, .. } | Tok::Obj { span, .. } => 1 + span as usize,
            _ => 1,
        }
    }

    /// Completes the header of the array whose elements follow `head`.
    pub(super) fn close_array(&mut self, head: usize, count: usize) {
        let span = (self.toks.len() - head - 1) as u32;
        self.toks[head] = Tok::Arr { count: count as u32, span };
    }

    /// Completes the header of the object whose (key, value) entries follow `head`: its
    /// entries in key order (stable), the last of equal keys kept.
    pub(super) fn close_object(&mut self, head: usize) {
        let mut entries = std::mem::take(&mut self.entries);
        entries.clear();
        let end = self.toks.len();
        let mut at = head + 1;
        while at < end {
            let sym = match self.toks[at] {
                Tok::Str(sym) => sym,
                _ => unreachable!("object keys are strings"),
            };
            entries.push((self.prefixes[sym as usize], sym, at as u32));
            at += 1 + self.size(at + 1);
        }
        // By the keys' bytes: the first 8 (big-endian, zero-padded) decide almost always.
        let cmp = |t: &Tape, a: &(u64, u32, u32), b: &(u64, u32, u32)| {
            if a.1 == b.1 {
                std::cmp::Ordering::Equal
            } else {
                a.0.cmp(&b.0).then_with(|| t.sym(a.1).cmp(t.sym(b.1)))
            }
        };
        let order = if entries.windows(2).all(|w| cmp(self, &w[0], &w[1]).is_lt()) {
            NATURAL
        } else {
            entries.sort_by(|a, b| cmp(self, a, b));
            // Of equal keys (now adjacent, in document order), the last one wins.
            entries.dedup_by(|later, earlier| {
                if later.1 == earlier.1 {
                    *earlier = *later;
                    true
                } else {
                    false
                }
            });
            let order = self.order.len() as u32;
            self.order.extend(entries.iter().map(|e| e.2));
            order
        };
        let span = (end - head - 1) as u32;
        self.toks[head] = Tok::Obj { count: entries.len() as u32, span, order };
        self.entries = entries;
    }

    /// Whether two tapes hold the same document in the same form (tokens, strings, orders).
    #[cfg(feature = "baseline")]
    pub(crate) fn same_as(&self, other: &Tape) -> bool {
        self.toks == other.toks
            && self.order == other.order
            && self.syms.len() == other.syms.len()
            && (0..self.syms.len() as u32).all(|s| self.sym(s) == other.sym(s))
    }

    /// The document as a nested value with objects in key order (for comparing two tapes).
    #[cfg(test)]
    pub(super) fn render(&self) -> String {
        fn go(t: &Tape, at: usize, out: &mut String) -> usize {
            match t.toks[at] {
                Tok::Str(sym) => out.push_str(&format!("{:?}", String::from_utf8_lossy(t.sym(sym)))),
                Tok::Arr { count, .. } => {
                    out.push('[');
                    let mut next = at + 1;
                    for _ in 0..count {
                        next = go(t, next, out);
                        out.push(',');
                    }
                    out.push(']');
                    return next;
                }
                Tok::Obj { count, span, order } => {
                    out.push('{');
                    let mut next = at + 1;
                    for k in 0..count as usize {
                        let e = if order == NATURAL { next } else { t.order[order as usize + k] as usize };
                        go(t, e, out);
                        out.push(':');
                        next = go(t, e + 1, out);
                        out.push(',');
                    }
                    out.push('}');
                    return at + 1 + span as usize;
                }
                other => out.push_str(&format!("{other:?}")),
            }
            at + 1
        }
        let mut out = String::new();
        if !self.toks.is_empty() {
            go(self, 0, &mut out);
        }
        out
    }
}

/// The first 8 bytes of a key as a big-endian number (zero-padded): comparing two of these
/// orders keys as comparing their bytes does, unless both are equal.
fn prefix(key: &[u8]) -> u64 {
    let n = key.len().min(8);
    key[..n].iter().fold(0u64, |w, &b| w << 8 | u64::from(b)) << (8 * (8 - n) as u32 % 64)
}

/// A fast hash of a short string (FxHash's mixing, 8 bytes at a time).
fn hash(bytes: &[u8]) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mut h = bytes.len() as u64;
    let mut chunks = bytes.chunks_exact(8);
    for c in &mut chunks {
        h = (h.rotate_left(5) ^ u64::from_le_bytes(c.try_into().expect("8 bytes"))).wrapping_mul(K);
    }
    // The last bytes shifted in one by one (a copy into a buffer read back as one word would
    // stall on store forwarding).
    let last = chunks.remainder().iter().rev().fold(0u64, |w, &b| w << 8 | u64::from(b));
    let h = (h.rotate_left(5) ^ last).wrapping_mul(K);
    // The product's low bits depend only on the inputs' low bits: fold the high ones in.
    h ^ (h >> 32)
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
        self.0.push_str(s);
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
        tape.close_array(head, count);
        Ok(())
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        let tape = self.0;
        let head = tape.toks.len();
        tape.toks.push(Tok::Obj { count: 0, span: 0, order: NATURAL });
        while map.next_key_seed(Seed(tape))?.is_some() {
            map.next_value_seed(Seed(tape))?;
        }
        tape.close_object(head);
        Ok(())
    }
}

use super::vm::{LuaFailure, Vm};

/// Pushes the parsed document onto the stack of `vm` (`nil` for an empty tape), in a
/// protected call: building the tables may hit the memory cap. Nesting is bounded by
/// serde_json's parser (128).
pub(crate) fn push_tape(vm: &Vm, tape: &Tape) -> Result<(), LuaFailure> {
    push_tape_watched(vm, tape, false)
}

/// [`push_tape`]; with `watch`, every object table gets the metatable that
/// [`watch_unknown_fields`] made, so that reading a key it lacks is recorded.
pub(crate) fn push_tape_watched(vm: &Vm, tape: &Tape, watch: bool) -> Result<(), LuaFailure> {
    if tape.toks.is_empty() {
        // SAFETY: the host keeps free slots on the stack between calls.
        unsafe { ffi::lua_pushnil(vm.state()) };
        return Ok(());
    }
    let mut arg = BuildArg { tape, watch };
    // SAFETY: `build` reads the argument, which outlives the call.
    unsafe { vm.pcall_c(build, &mut arg as *mut BuildArg<'_> as *mut c_void, 1) }
}

/// What `build` receives.
struct BuildArg<'a> {
    tape: &'a Tape,
    watch: bool,
}

/// The registry key (its address) of the metatable of watched observation tables.
static UNKNOWN_FIELDS: u8 = 0;

/// The distinct missing keys recorded per decision.
pub(crate) const MAX_UNKNOWN_FIELDS: usize = 4;

/// Makes the metatable of watched observation tables (once per VM, outside any phase): its
/// `__index` records the string keys read that a table lacks ([`super::vm::Ctx`]), and
/// answers nil as a plain table would. A C function runs no Lua instruction, but the call may
/// allocate a call frame the unwatched VM would not, which is charged: a decision that reads a
/// missing key can use a few more fuel units watched (docs/tools.md).
pub(crate) fn watch_unknown_fields(vm: &Vm) {
    let l = vm.state();
    // SAFETY: a live state between calls (free slots); creating a small table and setting a
    // field can only fail for memory, which the heap's cap leaves for the host's set-up.
    unsafe {
        ffi::lua_createtable(l, 0, 1);
        ffi::lua_pushcfunction(l, unknown_field);
        ffi::lua_setfield(l, -2, c"__index".as_ptr());
        ffi::lua_rawsetp(l, ffi::LUA_REGISTRYINDEX, &UNKNOWN_FIELDS as *const u8 as *const c_void);
    }
}

/// `__index(t, k)` of a watched table: records `k` (a string, its first 64 bytes) among the
/// decision's first [`MAX_UNKNOWN_FIELDS`] distinct keys; returns nil.
unsafe extern "C-unwind" fn unknown_field(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua with (table, key) on its stack; copying the key's bytes into a
    // Rust string neither allocates in Lua nor raises.
    unsafe {
        if ffi::lua_type(l, 2) == ffi::LUA_TSTRING {
            let ctx = super::vm::ctx(l);
            let mut seen = ctx.unknown_fields.borrow_mut();
            if seen.len() < MAX_UNKNOWN_FIELDS {
                let mut len = 0;
                let p = ffi::lua_tolstring(l, 2, &mut len);
                let key = String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len.min(64)));
                if !seen.iter().any(|k| *k == key) {
                    seen.push(key.into_owned());
                }
            }
        }
        ffi::lua_pushnil(l);
    }
    1
}

/// The protected part of [`push_tape`]: the first [`STACKED_STRINGS`] distinct strings go on
/// the stack (each interned once), then the tables are built, copying those strings.
unsafe extern "C-unwind" fn build(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: the argument is the tape of `push_tape`; `push` leaves exactly one value on the
    // stack and keeps nothing with a destructor in its frames (only borrows and integers), so
    // a memory error that unwinds through it leaks nothing.
    unsafe {
        let arg = &*(ffi::lua_touserdata(l, 1) as *const BuildArg<'_>);
        let tape = arg.tape;
        ffi::lua_pop(l, 1);
        // the metatable of watched tables below everything else (0: none). The bot can reach
        // it (`getmetatable(obs)`) and change it; one that gained a `__gc` is not set on new
        // tables, since finalizers run unmetered (raw reads only: its own metatable is the bot's).
        let meta = if arg.watch
            && ffi::lua_rawgetp(l, ffi::LUA_REGISTRYINDEX, &UNKNOWN_FIELDS as *const u8 as *const c_void)
                == ffi::LUA_TTABLE
            && {
                ffi::lua_pushstring(l, c"__gc".as_ptr());
                let gc = ffi::lua_rawget(l, -2);
                ffi::lua_pop(l, 1);
                gc == ffi::LUA_TNIL
            } {
            ffi::lua_gettop(l)
        } else {
            0
        };
        let stacked = tape.syms.len().min(STACKED_STRINGS);
        ffi::luaL_checkstack(l, stacked as c_int + 1, c"observation strings".as_ptr());
        let base = ffi::lua_gettop(l) + 1;
        for sym in 0..stacked as u32 {
            let b = tape.sym(sym);
            ffi::lua_pushlstring(l, b.as_ptr().cast(), b.len());
        }
        let cx = Build { tape, base, stacked: stacked as u32, meta };
        push(l, &cx, 0);
        ffi::lua_copy(l, -1, base);
        ffi::lua_settop(l, base);
    }
    1
}

/// What `push` reads: the tape and where its stacked strings are.
struct Build<'a> {
    tape: &'a Tape,
    base: c_int,
    stacked: u32,
    /// The stack slot of the watched tables' metatable, or 0.
    meta: c_int,
}

/// Pushes the value whose first token is at `at`; returns the index after it.
///
/// # Safety
/// `state` is a live Lua state inside the protected call of `build`.
unsafe fn push(state: *mut ffi::lua_State, cx: &Build<'_>, at: usize) -> usize {
    let tape = cx.tape;
    // SAFETY (all blocks): see the function's contract. Free slots: the caller has one for
    // this value; a container checks for three more before it opens (its table, then a key
    // and a value at a time).
    unsafe {
        match tape.toks[at] {
            Tok::Null => ffi::lua_pushnil(state),
            Tok::Bool(b) => ffi::lua_pushboolean(state, c_int::from(b)),
            Tok::Int(i) => ffi::lua_pushinteger(state, i),
            Tok::Float(f) => ffi::lua_pushnumber(state, f),
            Tok::Str(sym) if sym < cx.stacked => ffi::lua_pushvalue(state, cx.base + sym as c_int),
            Tok::Str(sym) => {
                let b = tape.sym(sym);
                ffi::lua_pushlstring(state, b.as_ptr().cast(), b.len());
            }
            Tok::Arr { count, .. } => {
                ffi::luaL_checkstack(state, 3, std::ptr::null());
                ffi::lua_createtable(state, clamp(count as usize), 0);
                let mut next = at + 1;
                for i in 1..=count {
                    next = push(state, cx, next);
                    ffi::lua_rawseti(state, -2, ffi::lua_Integer::from(i));
                }
                return next;
            }
            Tok::Obj { count, span, order } => {
                ffi::luaL_checkstack(state, 3, std::ptr::null());
                ffi::lua_createtable(state, 0, clamp(count as usize));
                let mut next = at + 1;
                for k in 0..count as usize {
                    let entry = if order == NATURAL { next } else { tape.order[order as usize + k] as usize };
                    push(state, cx, entry); // the key
                    next = push(state, cx, entry + 1); // the value
                    ffi::lua_rawset(state, -3);
                }
                if cx.meta != 0 {
                    ffi::lua_pushvalue(state, cx.meta);
                    ffi::lua_setmetatable(state, -2);
                }
                return at + 1 + span as usize;
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
        assert_eq!(t.render(), r#"{"a":Float(2.5),"b":Int(3),}"#);
        assert!(matches!(t.toks[0], Tok::Obj { count: 2, .. }));
        t.parse(r#"{"a":1,"b":{"c":[],"d":"c"}}"#).unwrap();
        assert_eq!(t.render(), r#"{"a":Int(1),"b":{"c":[],"d":"c",},}"#);
        assert_eq!(t.toks[0], Tok::Obj { count: 2, span: 8, order: NATURAL }, "in key order already");
        assert_eq!(t.syms.len(), 4, "a, b, c, d: each string once");
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
        use std::sync::Arc;
        let vm = Vm::new(Arc::new(super::super::Meter::new(u64::MAX)), crate::log::LogBook::new(0), false)
            .unwrap();
        let code = br#"local obs = ... local k = {} for key in pairs(obs) do k[#k+1] = key end table.sort(k)
                return table.concat(k, ",") .. "|" .. obs.legal[2] .. #obs.legal .. "|" ..
                tostring(obs.n.x[1]) .. math.type(obs.n.x[2]) .. "|" .. obs.s"#;
        vm.load(code, c"=t", c"t").unwrap();
        let mut t = Tape::default();
        t.parse(r#"{"legal":["1","B"],"n":{"x":[null,2]},"s":"h\u00e9\n"}"#).unwrap();
        push_tape(&vm, &t).unwrap();
        unsafe { vm.call(1, 1) }.unwrap();
        let mut len = 0;
        let s = unsafe { ffi::lua_tolstring(vm.state(), -1, &mut len) };
        let s = unsafe { std::slice::from_raw_parts(s as *const u8, len) };
        assert_eq!(std::str::from_utf8(s).unwrap(), "legal,n,s|B2|nilinteger|hé\n");
        assert!(t.parse("{").is_err());
        assert!(t.parse("[1] x").is_err());
    }
}
