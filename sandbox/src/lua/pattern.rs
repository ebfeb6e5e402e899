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

use std::ffi::{c_char, c_int};
use std::panic::{catch_unwind, AssertUnwindSafe};

use mlua::ffi;

use super::meter::{Meter, Trip};
use super::vm::ctx;
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
    Lua(&'static str),
    /// `invalid capture index %N`.
    CaptureIndex(i32),
    /// Out of fuel or past the wall-clock deadline (the meter has tripped).
    Stopped,
    /// A bug in the matcher (a Rust panic, caught).
    Internal,
}

type Res<T> = Result<T, PatError>;

fn lua_err<T>(msg: &'static str) -> Res<T> {
    Err(PatError::Lua(msg))
}

/// Raises `msg` as a Lua error without position (the sandbox's own errors).
///
/// # Safety
/// `l` is a live state inside a C function called by Lua; the calling Rust frames hold no
/// values with destructors (the error jumps over them).
pub(crate) unsafe fn raise(l: *mut ffi::lua_State, msg: &str) -> c_int {
    // SAFETY: see the function's contract.
    unsafe {
        ffi::lua_pushlstring(l, msg.as_ptr() as *const c_char, msg.len());
        ffi::lua_error(l)
    }
}

/// Raises a matcher error as `string.find` & co. of the C library do (`luaL_error`: the
/// caller's position, then the message), or the meter's message once it has tripped.
///
/// # Safety
/// As [`raise`].
unsafe fn raise_pat(l: *mut ffi::lua_State, meter: &Meter, e: PatError) -> c_int {
    let mut buf = [0u8; 48];
    let msg: &str = match e {
        PatError::Stopped => return unsafe { raise(l, meter.trip_message()) },
        PatError::Internal => return unsafe { raise(l, "sandbox: internal error in the pattern matcher") },
        PatError::Lua(m) => m,
        PatError::CaptureIndex(i) => {
            use std::io::Write;
            let mut w = &mut buf[..];
            let _ = write!(w, "invalid capture index %{i}");
            let n = 48 - w.len();
            std::str::from_utf8(&buf[..n]).unwrap_or("invalid capture index")
        }
    };
    // SAFETY: see the function's contract.
    unsafe {
        ffi::luaL_where(l, 1);
        ffi::lua_pushlstring(l, msg.as_ptr() as *const c_char, msg.len());
        ffi::lua_concat(l, 2);
        ffi::lua_error(l)
    }
}

/// Runs matcher code, turning a panic (a bug) into [`PatError::Internal`]: a panic must not
/// unwind into Lua's C frames.
fn guarded<T>(f: impl FnOnce() -> Res<T>) -> Res<T> {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(Err(PatError::Internal))
}

/// Charges the fixed cost of a call into the matcher.
fn charge_call(meter: &Meter) -> Res<()> {
    meter.charge(HOST_CALL_FUEL).map_err(|()| PatError::Stopped)
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
            return Err(PatError::CaptureIndex(l + 1));
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
                return Err(PatError::CaptureIndex(i as i32 + 1));
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

    /// Pushes the captures (or the whole match), as `push_captures` of lstrlib.c; returns
    /// how many.
    ///
    /// # Safety
    /// `l` is the state of the calling C function (errors jump over the caller, see `raise`).
    unsafe fn push_captures(&self, l: *mut ffi::lua_State, whole: Option<(usize, usize)>) -> c_int {
        let nlevels = if self.level == 0 && whole.is_some() { 1 } else { self.level };
        // SAFETY: see the function's contract.
        unsafe {
            ffi::luaL_checkstack(l, nlevels as c_int, c"too many captures".as_ptr());
            for i in 0..nlevels {
                match self.get_onecapture(i, whole) {
                    Ok(c) => push_capture(l, self.src, c),
                    Err(e) => return raise_pat(l, self.meter, e),
                }
            }
        }
        nlevels as c_int
    }
}

/// # Safety
/// A free stack slot; `src` holds the capture.
unsafe fn push_capture(l: *mut ffi::lua_State, src: &[u8], c: Capture) {
    // SAFETY: see the function's contract.
    unsafe {
        match c {
            Capture::Str(init, len) => {
                ffi::lua_pushlstring(l, src[init..init + len].as_ptr() as *const c_char, len);
            }
            Capture::Pos(pos) => ffi::lua_pushinteger(l, pos as ffi::lua_Integer),
        }
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

/// A string argument (strings, and numbers converted in place, as `luaL_checklstring`).
///
/// # Safety
/// `l` is the state of a C function called by Lua; the slice is valid while the argument
/// stays on the stack.
unsafe fn check_bytes<'a>(l: *mut ffi::lua_State, arg: c_int) -> &'a [u8] {
    let mut len = 0;
    // SAFETY: see the function's contract (a bad argument raises the usual error).
    unsafe {
        let p = ffi::luaL_checklstring(l, arg, &mut len);
        std::slice::from_raw_parts(p as *const u8, len)
    }
}

/// `string.find`.
pub(crate) unsafe extern "C-unwind" fn find(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua.
    unsafe { find_aux(l, true) }
}

/// `string.match`.
pub(crate) unsafe extern "C-unwind" fn str_match(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: called by Lua.
    unsafe { find_aux(l, false) }
}

/// `str_find_aux` of lstrlib.c: `string.find` (`find == true`) and `string.match`.
///
/// # Safety
/// Called by Lua as a C function of a sandboxed state.
unsafe fn find_aux(l: *mut ffi::lua_State, find: bool) -> c_int {
    // SAFETY (all blocks): the arguments are checked as the C library checks them; every
    // Lua call that may raise happens with only references and integers in this frame.
    let (s, p_full, init_arg, plain) = unsafe {
        (check_bytes(l, 1), check_bytes(l, 2), ffi::luaL_optinteger(l, 3, 1), ffi::lua_toboolean(l, 4) != 0)
    };
    let meter: &Meter = unsafe { &ctx(l).meter };
    if charge_call(meter).is_err() {
        return unsafe { raise(l, meter.trip_message()) };
    }
    let ls = s.len();
    let init = posrelat_i(init_arg, ls) - 1;
    if init > ls {
        unsafe { ffi::lua_pushnil(l) };
        return 1;
    }
    if find && (plain || no_specials(p_full)) {
        let work = (ls - init) as u64 / 8 + p_full.len() as u64 / 8 + 1;
        if meter.charge(work).is_err() {
            return unsafe { raise(l, meter.trip_message()) };
        }
        return match memchr::memmem::find(&s[init..], p_full) {
            Some(at) => unsafe {
                ffi::lua_pushinteger(l, (init + at + 1) as ffi::lua_Integer);
                ffi::lua_pushinteger(l, (init + at + p_full.len()) as ffi::lua_Integer);
                2
            },
            None => unsafe {
                ffi::lua_pushnil(l);
                1
            },
        };
    }
    let anchor = p_full.first() == Some(&b'^');
    let p = if anchor { &p_full[1..] } else { p_full };
    let mut ms = MatchState::new(s, p, meter);
    let mut s1 = init;
    loop {
        ms.reprep();
        match guarded(|| ms.do_match(s1, 0)) {
            Err(e) => return unsafe { raise_pat(l, meter, e) },
            Ok(Some(e)) => {
                if let Err(err) = ms.settle() {
                    return unsafe { raise_pat(l, meter, err) };
                }
                return unsafe {
                    if find {
                        ffi::lua_pushinteger(l, (s1 + 1) as ffi::lua_Integer);
                        ffi::lua_pushinteger(l, e as ffi::lua_Integer);
                        ms.push_captures(l, None) + 2
                    } else {
                        ms.push_captures(l, Some((s1, e)))
                    }
                };
            }
            Ok(None) => {}
        }
        if s1 >= ls || anchor {
            break;
        }
        s1 += 1;
    }
    if let Err(err) = ms.settle() {
        return unsafe { raise_pat(l, meter, err) };
    }
    unsafe { ffi::lua_pushnil(l) };
    1
}

/// `string.gmatch(s, p [, init])`: an iterator closure over (s, p, position, last match + 1
/// or 0), as `gmatch` of lstrlib.c keeps them in its state.
pub(crate) unsafe extern "C-unwind" fn gmatch(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all blocks): as in `find_aux`.
    let (s, _) = unsafe { (check_bytes(l, 1), check_bytes(l, 2)) };
    let init_arg = unsafe { ffi::luaL_optinteger(l, 3, 1) };
    let meter: &Meter = unsafe { &ctx(l).meter };
    if charge_call(meter).is_err() {
        return unsafe { raise(l, meter.trip_message()) };
    }
    let ls = s.len();
    let mut init = posrelat_i(init_arg, ls) - 1;
    if init > ls {
        init = ls + 1;
    }
    unsafe {
        ffi::lua_settop(l, 2);
        ffi::lua_pushinteger(l, init as ffi::lua_Integer);
        ffi::lua_pushinteger(l, 0);
        ffi::lua_pushcclosure(l, gmatch_aux, 4);
    }
    1
}

/// One step of a `string.gmatch` iterator.
unsafe extern "C-unwind" fn gmatch_aux(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all blocks): the closure's upvalues are the ones `gmatch` set.
    let meter: &Meter = unsafe { &ctx(l).meter };
    if charge_call(meter).is_err() {
        return unsafe { raise(l, meter.trip_message()) };
    }
    let (sb, pb, mut src, last) = unsafe {
        let mut ls = 0;
        let mut lp = 0;
        let s = ffi::lua_tolstring(l, ffi::lua_upvalueindex(1), &mut ls);
        let p = ffi::lua_tolstring(l, ffi::lua_upvalueindex(2), &mut lp);
        (
            std::slice::from_raw_parts(s as *const u8, ls),
            std::slice::from_raw_parts(p as *const u8, lp),
            ffi::lua_tointeger(l, ffi::lua_upvalueindex(3)) as usize,
            ffi::lua_tointeger(l, ffi::lua_upvalueindex(4)) as usize,
        )
    };
    let lastmatch = last.checked_sub(1);
    let mut ms = MatchState::new(sb, pb, meter);
    while src <= sb.len() {
        ms.reprep();
        match guarded(|| ms.do_match(src, 0)) {
            Err(e) => return unsafe { raise_pat(l, meter, e) },
            Ok(Some(e)) if Some(e) != lastmatch => {
                if let Err(err) = ms.settle() {
                    return unsafe { raise_pat(l, meter, err) };
                }
                return unsafe {
                    ffi::lua_pushinteger(l, e as ffi::lua_Integer);
                    ffi::lua_replace(l, ffi::lua_upvalueindex(3));
                    ffi::lua_pushinteger(l, e as ffi::lua_Integer + 1);
                    ffi::lua_replace(l, ffi::lua_upvalueindex(4));
                    ms.push_captures(l, Some((src, e)))
                };
            }
            Ok(_) => {}
        }
        src += 1;
    }
    if let Err(err) = ms.settle() {
        return unsafe { raise_pat(l, meter, err) };
    }
    0
}

/// `string.gsub(s, p, repl [, n])`, as `str_gsub` of lstrlib.c: the result is built in a
/// `luaL_Buffer` (so its memory is the bot's, counted and capped like any other), and a
/// function or table replacement is called on the Lua stack (its errors and tracebacks are
/// the C library's).
pub(crate) unsafe extern "C-unwind" fn gsub(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all blocks): as in `find_aux`; `b` is a buffer on this frame, used as lstrlib.c
    // uses it (values pushed above it are consumed before the next buffer call).
    let (src_all, pat_full) = unsafe { (check_bytes(l, 1), check_bytes(l, 2)) };
    let tr = unsafe { ffi::lua_type(l, 3) };
    let max_s = unsafe { ffi::luaL_optinteger(l, 4, src_all.len() as ffi::lua_Integer + 1) };
    if !matches!(tr, ffi::LUA_TNUMBER | ffi::LUA_TSTRING | ffi::LUA_TFUNCTION | ffi::LUA_TTABLE) {
        // `luaL_argexpected` of the C library.
        unsafe {
            let got = ffi::luaL_typename(l, 3);
            let msg = ffi::lua_pushfstring(l, c"string/function/table expected, got %s".as_ptr(), got);
            ffi::luaL_argerror(l, 3, msg);
        }
    }
    let meter: &Meter = unsafe { &ctx(l).meter };
    if charge_call(meter).is_err() {
        return unsafe { raise(l, meter.trip_message()) };
    }
    let anchor = pat_full.first() == Some(&b'^');
    let pat: &[u8] = if anchor { &pat_full[1..] } else { pat_full };
    let mut ms = MatchState::new(src_all, pat, meter);
    let mut b = std::mem::MaybeUninit::<ffi::luaL_Buffer>::uninit();
    let b = b.as_mut_ptr();
    unsafe { ffi::luaL_buffinit(l, b) };
    let mut changed = false;
    let mut n: ffi::lua_Integer = 0;
    let mut src = 0usize;
    let mut lastmatch: Option<usize> = None;
    while n < max_s {
        ms.reprep();
        match guarded(|| ms.do_match(src, 0)) {
            Err(e) => return unsafe { raise_pat(l, meter, e) },
            Ok(Some(e)) if Some(e) != lastmatch => {
                n += 1;
                changed |= unsafe { add_value(l, &mut ms, b, src, e, tr) };
                src = e;
                lastmatch = Some(e);
            }
            Ok(_) if src < src_all.len() => {
                unsafe { ffi::luaL_addchar(b, src_all[src] as c_char) };
                src += 1;
            }
            Ok(_) => break,
        }
        if anchor {
            break;
        }
    }
    if let Err(err) = ms.settle() {
        return unsafe { raise_pat(l, meter, err) };
    }
    unsafe {
        if !changed {
            ffi::lua_pushvalue(l, 1);
        } else {
            let rest = &src_all[src..];
            ffi::luaL_addlstring(b, rest.as_ptr() as *const c_char, rest.len());
            ffi::luaL_pushresult(b);
        }
        ffi::lua_pushinteger(l, n);
    }
    2
}

/// Appends the replacement of the match `s..e` (`add_value` of lstrlib.c); returns whether
/// the subject changed.
///
/// # Safety
/// Called from `gsub` with its buffer; errors jump over both frames.
unsafe fn add_value(
    l: *mut ffi::lua_State,
    ms: &mut MatchState<'_>,
    b: *mut ffi::luaL_Buffer,
    s: usize,
    e: usize,
    tr: c_int,
) -> bool {
    let meter = ms.meter;
    // SAFETY (all blocks): see the function's contract.
    match tr {
        ffi::LUA_TFUNCTION => unsafe {
            if let Err(err) = ms.settle() {
                raise_pat(l, meter, err);
            }
            ffi::lua_pushvalue(l, 3);
            let n = ms.push_captures(l, Some((s, e)));
            ffi::lua_call(l, n, 1);
            ms.allowed = meter.remaining() / FUEL_PER_STEP;
        },
        ffi::LUA_TTABLE => unsafe {
            if let Err(err) = ms.settle() {
                raise_pat(l, meter, err);
            }
            match ms.get_onecapture(0, Some((s, e))) {
                Ok(c) => push_capture(l, ms.src, c),
                Err(err) => {
                    raise_pat(l, meter, err);
                }
            }
            ffi::lua_gettable(l, 3);
            ms.allowed = meter.remaining() / FUEL_PER_STEP;
        },
        _ => {
            // A string (or a number, as its string): `%0`-`%9` and `%%`.
            let news = unsafe {
                let mut len = 0;
                let p = ffi::lua_tolstring(l, 3, &mut len);
                std::slice::from_raw_parts(p as *const u8, len)
            };
            if let Err(err) = guarded(|| add_s(ms, b, s, e, news)) {
                unsafe { raise_pat(l, meter, err) };
            }
            return true;
        }
    }
    // SAFETY: the replacement value is on the top.
    unsafe {
        if ffi::lua_toboolean(l, -1) == 0 {
            ffi::lua_pop(l, 1);
            let whole = &ms.src[s..e];
            ffi::luaL_addlstring(b, whole.as_ptr() as *const c_char, whole.len());
            false
        } else if ffi::lua_isstring(l, -1) == 0 {
            let t = ffi::lua_typename(l, ffi::lua_type(l, -1));
            ffi::luaL_error(l, c"invalid replacement value (a %s)".as_ptr(), t);
            false
        } else {
            ffi::luaL_addvalue(b);
            true
        }
    }
}

/// `add_s` of lstrlib.c: a replacement string with `%0`-`%9` and `%%`.
fn add_s(ms: &mut MatchState<'_>, b: *mut ffi::luaL_Buffer, s: usize, e: usize, news: &[u8]) -> Res<()> {
    ms.tick(news.len() as u64 / 8)?;
    let add = |bytes: &[u8]| {
        // SAFETY: `b` is the caller's live buffer; adding may raise a memory error, which
        // jumps over this frame (references and integers only).
        unsafe { ffi::luaL_addlstring(b, bytes.as_ptr() as *const c_char, bytes.len()) }
    };
    let mut i = 0;
    while i < news.len() {
        let c = news[i];
        if c != L_ESC {
            let run = news[i..].iter().position(|&c| c == L_ESC).unwrap_or(news.len() - i);
            add(&news[i..i + run]);
            i += run;
            continue;
        }
        i += 1;
        let d = news.get(i).copied().unwrap_or(0);
        if d == L_ESC {
            add(b"%");
        } else if d == b'0' {
            add(&ms.src[s..e]);
        } else if d.is_ascii_digit() {
            match ms.get_onecapture(usize::from(d - b'1'), Some((s, e)))? {
                Capture::Str(init, len) => add(&ms.src[init..init + len]),
                Capture::Pos(pos) => {
                    let mut buf = itoa_buf(pos);
                    add(buf.as_bytes_mut());
                }
            }
        } else {
            return lua_err("invalid use of '%' in replacement string");
        }
        i += 1;
    }
    Ok(())
}

/// A position as decimal digits, without allocating.
struct Digits {
    buf: [u8; 20],
    start: usize,
}

impl Digits {
    fn as_bytes_mut(&mut self) -> &[u8] {
        &self.buf[self.start..]
    }
}

fn itoa_buf(mut n: usize) -> Digits {
    let mut d = Digits { buf: [0; 20], start: 20 };
    loop {
        d.start -= 1;
        d.buf[d.start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            return d;
        }
    }
}
