//! Lua 5.4 pattern matching (`string.find/match/gmatch/gsub`), ported from `lstrlib.c` with a
//! fuel counter.
//!
//! The C matcher backtracks without ever returning to the VM, so the instruction hook cannot
//! see it: `string.find(('a'):rep(300), '.-.-.-b')` runs for seconds on zero instructions. This
//! port is the same algorithm, step for step (same results, same error messages), but every
//! step of the matcher costs fuel ([`FUEL_PER_STEP`]) and a match stops as soon as the
//! decision's budget is gone. Plain searches use `memchr::memmem` (linear) and cost one unit per 8 bytes.
//!
//! Character classes use the C locale (ASCII), as the vendored Lua does in this process.

use mlua::{Function, Lua, LuaString, MultiValue, Value};

use super::meter::{Meter, Trip};
use super::HOST_CALL_FUEL;

const MAXCCALLS: i32 = 200;
const MAXCAPTURES: usize = 32;
const CAP_UNFINISHED: isize = -1;
const CAP_POSITION: isize = -2;
const L_ESC: u8 = b'%';
const SPECIALS: &[u8] = b"^$*+?.([%-";
/// Fuel per matcher step (a step takes about twice as long as a Lua instruction).
const FUEL_PER_STEP: u64 = 2;

/// Why a match stopped early.
pub(crate) enum PatError {
    /// A Lua error with this message (malformed pattern and the like).
    Lua(String),
    /// Out of fuel or past the wall-clock deadline (the meter has tripped).
    Stopped,
}

type Res<T> = Result<T, PatError>;

fn lua_err<T>(msg: impl Into<String>) -> Res<T> {
    Err(PatError::Lua(msg.into()))
}

/// Charges the fixed cost of a call into the matcher.
pub(crate) fn charge_call(meter: &Meter) -> mlua::Result<()> {
    meter.charge(HOST_CALL_FUEL).map_err(|()| mlua::Error::runtime(meter.trip_message()))
}

/// Converts a matcher error into the error raised in Lua.
pub(crate) fn to_lua_error(meter: &Meter, e: PatError) -> mlua::Error {
    match e {
        PatError::Lua(m) => mlua::Error::runtime(m),
        PatError::Stopped => mlua::Error::runtime(meter.trip_message()),
    }
}

/// A capture: a slice of the subject or a position.
enum Capture {
    Str(usize, usize),
    Pos(usize),
}

struct MatchState<'a> {
    src: &'a [u8],
    pat: &'a [u8],
    level: usize,
    capture: [(usize, isize); MAXCAPTURES],
    matchdepth: i32,
    /// Steps taken since the last settlement with the meter.
    steps: u64,
    /// Steps allowed before the meter's budget is gone.
    allowed: u64,
    meter: &'a Meter,
}

impl<'a> MatchState<'a> {
    fn new(src: &'a [u8], pat: &'a [u8], meter: &'a Meter) -> Self {
        MatchState {
            src,
            pat,
            level: 0,
            capture: [(0, 0); MAXCAPTURES],
            matchdepth: MAXCCALLS,
            steps: 0,
            allowed: meter.remaining() / FUEL_PER_STEP,
            meter,
        }
    }

    fn reprep(&mut self) {
        self.matchdepth = MAXCCALLS;
        self.level = 0;
    }

    /// Pays the meter for the steps taken so far (before calling back into Lua, and at the
    /// end) and refreshes the allowance.
    fn settle(&mut self) -> Res<()> {
        let steps = std::mem::take(&mut self.steps);
        if self.meter.charge(steps * FUEL_PER_STEP).is_err() {
            return Err(PatError::Stopped);
        }
        self.allowed = self.meter.remaining() / FUEL_PER_STEP;
        Ok(())
    }

    #[inline]
    fn tick(&mut self, n: u64) -> Res<()> {
        self.steps += n;
        if self.steps > self.allowed {
            let _ = self.meter.charge(self.steps * FUEL_PER_STEP);
            self.steps = 0;
            self.meter.trip(Trip::Fuel);
            return Err(PatError::Stopped);
        }
        if self.steps & 0xffff == 0 && self.meter.past_deadline() {
            self.meter.trip(Trip::Wall);
            return Err(PatError::Stopped);
        }
        Ok(())
    }

    /// Pattern byte at `i`; 0 past the end (C strings are NUL-terminated).
    #[inline]
    fn pc(&self, i: usize) -> u8 {
        self.pat.get(i).copied().unwrap_or(0)
    }

    /// Subject byte at `i`; 0 past the end.
    #[inline]
    fn sc(&self, i: usize) -> u8 {
        self.src.get(i).copied().unwrap_or(0)
    }

    fn check_capture(&self, l: u8) -> Res<usize> {
        let l = i32::from(l) - i32::from(b'1');
        if l < 0 || l as usize >= self.level || self.capture[l as usize].1 == CAP_UNFINISHED {
            return lua_err(format!("invalid capture index %{}", l + 1));
        }
        Ok(l as usize)
    }

    fn capture_to_close(&self) -> Res<usize> {
        (0..self.level)
            .rev()
            .find(|&l| self.capture[l].1 == CAP_UNFINISHED)
            .map_or_else(|| lua_err("invalid pattern capture"), Ok)
    }

    fn class_end(&mut self, mut p: usize) -> Res<usize> {
        let c = self.pc(p);
        p += 1;
        if c == L_ESC {
            if p >= self.pat.len() {
                return lua_err("malformed pattern (ends with '%')");
            }
            return Ok(p + 1);
        }
        if c == b'[' {
            if self.pc(p) == b'^' {
                p += 1;
            }
            loop {
                if p >= self.pat.len() {
                    return lua_err("malformed pattern (missing ']')");
                }
                let cc = self.pc(p);
                p += 1;
                if cc == L_ESC && p < self.pat.len() {
                    p += 1;
                }
                self.tick(1)?;
                if self.pc(p) == b']' {
                    break;
                }
            }
            return Ok(p + 1);
        }
        Ok(p)
    }

    fn match_bracket_class(&self, c: u8, mut p: usize, ec: usize) -> bool {
        let mut sig = true;
        if self.pc(p + 1) == b'^' {
            sig = false;
            p += 1;
        }
        loop {
            p += 1;
            if p >= ec {
                break;
            }
            if self.pc(p) == L_ESC {
                p += 1;
                if match_class(c, self.pc(p)) {
                    return sig;
                }
            } else if self.pc(p + 1) == b'-' && p + 2 < ec {
                p += 2;
                if self.pc(p - 2) <= c && c <= self.pc(p) {
                    return sig;
                }
            } else if self.pc(p) == c {
                return sig;
            }
        }
        !sig
    }

    fn single_match(&mut self, s: usize, p: usize, ep: usize) -> Res<bool> {
        if s >= self.src.len() {
            return Ok(false);
        }
        let c = self.src[s];
        Ok(match self.pc(p) {
            b'.' => true,
            L_ESC => match_class(c, self.pc(p + 1)),
            b'[' => {
                self.tick((ep - p) as u64 / 4)?;
                self.match_bracket_class(c, p, ep - 1)
            }
            pc => pc == c,
        })
    }

    fn match_balance(&mut self, s: usize, p: usize) -> Res<Option<usize>> {
        if p + 1 >= self.pat.len() {
            return lua_err("malformed pattern (missing arguments to '%b')");
        }
        if self.sc(s) != self.pc(p) {
            return Ok(None);
        }
        let (b, e) = (self.pc(p), self.pc(p + 1));
        let mut cont = 1;
        let mut s = s + 1;
        while s < self.src.len() {
            self.tick(1)?;
            let ch = self.src[s];
            if ch == e {
                cont -= 1;
                if cont == 0 {
                    return Ok(Some(s + 1));
                }
            } else if ch == b {
                cont += 1;
            }
            s += 1;
        }
        Ok(None)
    }

    fn max_expand(&mut self, s: usize, p: usize, ep: usize) -> Res<Option<usize>> {
        let mut i = 0;
        while self.single_match(s + i, p, ep)? {
            i += 1;
            self.tick(1)?;
        }
        loop {
            if let Some(res) = self.do_match(s + i, ep + 1)? {
                return Ok(Some(res));
            }
            if i == 0 {
                return Ok(None);
            }
            i -= 1;
        }
    }

    fn min_expand(&mut self, mut s: usize, p: usize, ep: usize) -> Res<Option<usize>> {
        loop {
            if let Some(res) = self.do_match(s, ep + 1)? {
                return Ok(Some(res));
            } else if self.single_match(s, p, ep)? {
                s += 1;
            } else {
                return Ok(None);
            }
        }
    }

    fn start_capture(&mut self, s: usize, p: usize, what: isize) -> Res<Option<usize>> {
        let level = self.level;
        if level >= MAXCAPTURES {
            return lua_err("too many captures");
        }
        self.capture[level] = (s, what);
        self.level = level + 1;
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.level -= 1;
        }
        Ok(res)
    }

    fn end_capture(&mut self, s: usize, p: usize) -> Res<Option<usize>> {
        let l = self.capture_to_close()?;
        self.capture[l].1 = (s - self.capture[l].0) as isize;
        let res = self.do_match(s, p)?;
        if res.is_none() {
            self.capture[l].1 = CAP_UNFINISHED;
        }
        Ok(res)
    }

    fn match_capture(&mut self, s: usize, l: u8) -> Res<Option<usize>> {
        let l = self.check_capture(l)?;
        let (init, len) = self.capture[l];
        if len < 0 {
            return Ok(None); // a position capture never matches text (C compares a huge size)
        }
        let len = len as usize;
        self.tick(len as u64 / 8)?;
        if self.src.len() - s >= len && self.src[init..init + len] == self.src[s..s + len] {
            Ok(Some(s + len))
        } else {
            Ok(None)
        }
    }

    fn do_match(&mut self, mut s: usize, mut p: usize) -> Res<Option<usize>> {
        if self.matchdepth == 0 {
            return lua_err("pattern too complex");
        }
        self.matchdepth -= 1;
        let result = loop {
            self.tick(1)?;
            if p == self.pat.len() {
                break Some(s);
            }
            match self.pat[p] {
                b'(' => {
                    break if self.pc(p + 1) == b')' {
                        self.start_capture(s, p + 2, CAP_POSITION)?
                    } else {
                        self.start_capture(s, p + 1, CAP_UNFINISHED)?
                    };
                }
                b')' => break self.end_capture(s, p + 1)?,
                b'$' if p + 1 == self.pat.len() => {
                    break (s == self.src.len()).then_some(s);
                }
                L_ESC if self.pc(p + 1) == b'b' => match self.match_balance(s, p + 2)? {
                    Some(ns) => {
                        s = ns;
                        p += 4;
                        continue;
                    }
                    None => break None,
                },
                L_ESC if self.pc(p + 1) == b'f' => {
                    p += 2;
                    if self.pc(p) != b'[' {
                        return lua_err("missing '[' after '%f' in pattern");
                    }
                    let ep = self.class_end(p)?;
                    let previous = if s == 0 { 0 } else { self.src[s - 1] };
                    if !self.match_bracket_class(previous, p, ep - 1)
                        && self.match_bracket_class(self.sc(s), p, ep - 1)
                    {
                        p = ep;
                        continue;
                    }
                    break None;
                }
                L_ESC if self.pc(p + 1).is_ascii_digit() => match self.match_capture(s, self.pc(p + 1))? {
                    Some(ns) => {
                        s = ns;
                        p += 2;
                        continue;
                    }
                    None => break None,
                },
                _ => {
                    let ep = self.class_end(p)?;
                    if !self.single_match(s, p, ep)? {
                        let suffix = self.pc(ep);
                        if suffix == b'*' || suffix == b'?' || suffix == b'-' {
                            p = ep + 1;
                            continue;
                        }
                        break None;
                    }
                    match self.pc(ep) {
                        b'?' => {
                            if let Some(res) = self.do_match(s + 1, ep + 1)? {
                                break Some(res);
                            }
                            p = ep + 1;
                            continue;
                        }
                        b'+' => break self.max_expand(s + 1, p, ep)?,
                        b'*' => break self.max_expand(s, p, ep)?,
                        b'-' => break self.min_expand(s, p, ep)?,
                        _ => {
                            s += 1;
                            p = ep;
                            continue;
                        }
                    }
                }
            }
        };
        self.matchdepth += 1;
        Ok(result)
    }

    /// The i-th capture (or the whole match `s..e` when there are none and `i == 0`).
    fn get_onecapture(&self, i: usize, whole: Option<(usize, usize)>) -> Res<Capture> {
        if i >= self.level {
            if i != 0 {
                return lua_err(format!("invalid capture index %{}", i + 1));
            }
            let (s, e) = whole.unwrap_or((0, 0));
            return Ok(Capture::Str(s, e - s));
        }
        let (init, len) = self.capture[i];
        match len {
            CAP_UNFINISHED => lua_err("unfinished capture"),
            CAP_POSITION => Ok(Capture::Pos(init + 1)),
            len => Ok(Capture::Str(init, len as usize)),
        }
    }

    fn capture_value(&self, lua: &Lua, c: Capture) -> mlua::Result<Value> {
        Ok(match c {
            Capture::Str(init, len) => Value::String(lua.create_string(&self.src[init..init + len])?),
            Capture::Pos(pos) => Value::Integer(pos as i64),
        })
    }

    /// All captures (or the whole match), as Lua values.
    fn push_captures(&self, lua: &Lua, whole: Option<(usize, usize)>) -> mlua::Result<MultiValue> {
        let nlevels = if self.level == 0 && whole.is_some() { 1 } else { self.level };
        let mut out = MultiValue::with_capacity(nlevels);
        for i in 0..nlevels {
            let c = self.get_onecapture(i, whole).map_err(|e| to_lua_error(self.meter, e))?;
            out.push_back(self.capture_value(lua, c)?);
        }
        Ok(out)
    }
}

fn match_class(c: u8, cl: u8) -> bool {
    let res = match cl.to_ascii_lowercase() {
        b'a' => c.is_ascii_alphabetic(),
        b'c' => c.is_ascii_control(),
        b'd' => c.is_ascii_digit(),
        b'g' => c.is_ascii_graphic(),
        b'l' => c.is_ascii_lowercase(),
        b'p' => c.is_ascii_punctuation(),
        b's' => matches!(c, b' ' | b'\t' | b'\n' | 0x0b | 0x0c | b'\r'),
        b'u' => c.is_ascii_uppercase(),
        b'w' => c.is_ascii_alphanumeric(),
        b'x' => c.is_ascii_hexdigit(),
        b'z' => c == 0,
        _ => return cl == c,
    };
    if cl.is_ascii_lowercase() {
        res
    } else {
        !res
    }
}

/// `posrelatI` of lstrlib.c: a 1-based start position clipped to `[1, len + 1]`-ish.
fn posrelat_i(pos: i64, len: usize) -> usize {
    if pos > 0 {
        pos as usize
    } else if pos == 0 || pos < -(len as i64) {
        1
    } else {
        (len as i64 + pos + 1) as usize
    }
}

fn no_specials(p: &[u8]) -> bool {
    !p.iter().any(|b| SPECIALS.contains(b))
}

fn truthy(v: &Value) -> bool {
    !matches!(v, Value::Nil | Value::Boolean(false))
}

/// `string.find` (`find == true`) and `string.match`.
pub(crate) fn find_aux(
    lua: &Lua,
    meter: &Meter,
    (s, p, init, plain): (LuaString, LuaString, Option<i64>, Value),
    find: bool,
) -> mlua::Result<MultiValue> {
    charge_call(meter)?;
    let s = s.as_bytes();
    let p_full = p.as_bytes();
    let (s, p_full): (&[u8], &[u8]) = (&s, &p_full);
    let ls = s.len();
    let init = posrelat_i(init.unwrap_or(1), ls) - 1;
    let fail = || Ok(MultiValue::from_iter([Value::Nil]));
    if init > ls {
        return fail();
    }
    if find && (truthy(&plain) || no_specials(p_full)) {
        let work = (ls - init) as u64 / 8 + p_full.len() as u64 / 8 + 1;
        if meter.charge(work).is_err() {
            return Err(mlua::Error::runtime(meter.trip_message()));
        }
        return match memchr::memmem::find(&s[init..], p_full) {
            Some(at) => Ok(MultiValue::from_iter([
                Value::Integer((init + at + 1) as i64),
                Value::Integer((init + at + p_full.len()) as i64),
            ])),
            None => fail(),
        };
    }
    let anchor = p_full.first() == Some(&b'^');
    let p = if anchor { &p_full[1..] } else { p_full };
    let mut ms = MatchState::new(s, p, meter);
    let mut s1 = init;
    loop {
        ms.reprep();
        let res = ms.do_match(s1, 0).map_err(|e| to_lua_error(meter, e))?;
        if let Some(e) = res {
            ms.settle().map_err(|e| to_lua_error(meter, e))?;
            return if find {
                let mut out = ms.push_captures(lua, None)?;
                out.push_front(Value::Integer(e as i64));
                out.push_front(Value::Integer((s1 + 1) as i64));
                Ok(out)
            } else {
                ms.push_captures(lua, Some((s1, e)))
            };
        }
        if s1 >= ls || anchor {
            break;
        }
        s1 += 1;
    }
    ms.settle().map_err(|e| to_lua_error(meter, e))?;
    fail()
}

/// The state of one `string.gmatch` iterator.
pub(crate) struct GMatch {
    s: LuaString,
    p: LuaString,
    src: usize,
    lastmatch: Option<usize>,
}

/// `string.gmatch(s, p [, init])`: the iterator's state.
pub(crate) fn gmatch_start(s: LuaString, p: LuaString, init: Option<i64>) -> GMatch {
    let ls = s.as_bytes().len();
    let mut init = posrelat_i(init.unwrap_or(1), ls) - 1;
    if init > ls {
        init = ls + 1;
    }
    GMatch { s, p, src: init, lastmatch: None }
}

/// One step of a `string.gmatch` iterator.
pub(crate) fn gmatch_next(lua: &Lua, meter: &Meter, gm: &mut GMatch) -> mlua::Result<MultiValue> {
    charge_call(meter)?;
    let (sb, pb) = (gm.s.as_bytes(), gm.p.as_bytes());
    let mut ms = MatchState::new(&sb, &pb, meter);
    let mut src = gm.src;
    while src <= sb.len() {
        ms.reprep();
        let res = ms.do_match(src, 0).map_err(|e| to_lua_error(meter, e))?;
        if let Some(e) = res.filter(|&e| Some(e) != gm.lastmatch) {
            ms.settle().map_err(|e| to_lua_error(meter, e))?;
            gm.src = e;
            gm.lastmatch = Some(e);
            return ms.push_captures(lua, Some((src, e)));
        }
        src += 1;
    }
    ms.settle().map_err(|e| to_lua_error(meter, e))?;
    Ok(MultiValue::new())
}

/// The replacement argument of `gsub`.
enum Repl {
    Str(LuaString),
    Table(mlua::Table),
    Func(Function),
}

/// `string.gsub(s, p, repl [, n])`.
pub(crate) fn gsub(
    lua: &Lua,
    meter: &Meter,
    (s_str, p, repl, max_n): (LuaString, LuaString, Value, Option<i64>),
) -> mlua::Result<(Value, i64)> {
    charge_call(meter)?;
    let sb = s_str.as_bytes();
    let pb = p.as_bytes();
    let src_all: &[u8] = &sb;
    let repl = match repl {
        Value::String(r) => Repl::Str(r),
        v @ (Value::Integer(_) | Value::Number(_)) => match lua.coerce_string(v)? {
            Some(r) => Repl::Str(r),
            None => return Err(mlua::Error::runtime("bad argument #3 to 'gsub'")),
        },
        Value::Table(t) => Repl::Table(t),
        Value::Function(f) => Repl::Func(f),
        other => {
            return Err(mlua::Error::runtime(format!(
                "bad argument #3 to 'gsub' (string/function/table expected, got {})",
                lua_typename(&other)
            )))
        }
    };
    let max_s = max_n.unwrap_or(src_all.len() as i64 + 1);
    let anchor = pb.first() == Some(&b'^');
    let pat: &[u8] = if anchor { &pb[1..] } else { &pb };
    let mut ms = MatchState::new(src_all, pat, meter);
    let mem_limit = meter.memory_limit();
    let mut out: Vec<u8> = Vec::new();
    let mut changed = false;
    let mut n: i64 = 0;
    let mut src = 0usize;
    let mut lastmatch: Option<usize> = None;
    let err = |e| to_lua_error(meter, e);
    while n < max_s {
        ms.reprep();
        let res = ms.do_match(src, 0).map_err(err)?;
        if let Some(e) = res.filter(|&e| Some(e) != lastmatch) {
            n += 1;
            changed |= add_value(lua, &mut ms, &mut out, src, e, &repl)?;
            src = e;
            lastmatch = Some(e);
        } else if src < src_all.len() {
            out.push(src_all[src]);
            src += 1;
        } else {
            break;
        }
        if out.len() as u64 > mem_limit {
            return Err(mlua::Error::MemoryError(
                "not enough memory (gsub result exceeds the memory cap)".into(),
            ));
        }
        if anchor {
            break;
        }
    }
    ms.settle().map_err(err)?;
    if !changed {
        return Ok((Value::String(s_str.clone()), n));
    }
    out.extend_from_slice(&src_all[src..]);
    if meter.charge(out.len() as u64 / 16).is_err() {
        return Err(mlua::Error::runtime(meter.trip_message()));
    }
    Ok((Value::String(lua.create_string(&out)?), n))
}

fn lua_typename(v: &Value) -> &'static str {
    match v {
        Value::Nil => "nil",
        Value::Boolean(_) => "boolean",
        Value::Integer(_) | Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Table(_) => "table",
        Value::Function(_) => "function",
        Value::Thread(_) => "thread",
        _ => "userdata",
    }
}

/// Appends the replacement of the match `s..e`; returns whether the subject changed.
fn add_value(
    lua: &Lua,
    ms: &mut MatchState<'_>,
    out: &mut Vec<u8>,
    s: usize,
    e: usize,
    repl: &Repl,
) -> mlua::Result<bool> {
    let meter = ms.meter;
    let err = |e| to_lua_error(meter, e);
    let value = match repl {
        Repl::Str(r) => {
            add_s(ms, out, s, e, &r.as_bytes()).map_err(err)?;
            return Ok(true);
        }
        Repl::Func(f) => {
            let args = ms.push_captures(lua, Some((s, e)))?;
            ms.settle().map_err(err)?;
            let v: Value = f.call(args)?;
            ms.allowed = meter.remaining() / FUEL_PER_STEP;
            v
        }
        Repl::Table(t) => {
            let key = ms.get_onecapture(0, Some((s, e))).map_err(err)?;
            let key = ms.capture_value(lua, key)?;
            ms.settle().map_err(err)?;
            let v: Value = t.get(key)?;
            ms.allowed = meter.remaining() / FUEL_PER_STEP;
            v
        }
    };
    match value {
        Value::Nil | Value::Boolean(false) => {
            out.extend_from_slice(&ms.src[s..e]);
            Ok(false)
        }
        Value::String(v) => {
            out.extend_from_slice(&v.as_bytes());
            Ok(true)
        }
        v @ (Value::Integer(_) | Value::Number(_)) => {
            if let Some(v) = lua.coerce_string(v)? {
                out.extend_from_slice(&v.as_bytes());
            }
            Ok(true)
        }
        other => Err(mlua::Error::runtime(format!("invalid replacement value (a {})", lua_typename(&other)))),
    }
}

/// `add_s` of lstrlib.c: a replacement string with `%0`-`%9` and `%%`.
fn add_s(ms: &mut MatchState<'_>, out: &mut Vec<u8>, s: usize, e: usize, news: &[u8]) -> Res<()> {
    ms.tick(news.len() as u64 / 8)?;
    let mut i = 0;
    while i < news.len() {
        let c = news[i];
        if c != L_ESC {
            out.push(c);
            i += 1;
            continue;
        }
        i += 1;
        let d = news.get(i).copied().unwrap_or(0);
        if d == L_ESC {
            out.push(L_ESC);
        } else if d == b'0' {
            out.extend_from_slice(&ms.src[s..e]);
        } else if d.is_ascii_digit() {
            match ms.get_onecapture(usize::from(d - b'1'), Some((s, e)))? {
                Capture::Str(init, len) => out.extend_from_slice(&ms.src[init..init + len]),
                Capture::Pos(pos) => out.extend_from_slice(pos.to_string().as_bytes()),
            }
        } else {
            return lua_err("invalid use of '%' in replacement string");
        }
        i += 1;
    }
    Ok(())
}
