//! The host functions the prelude receives (`host.charge`, …): C functions on the raw API.
//!
//! Each reaches its state's [`Ctx`](super::vm::Ctx) through the allocator's user data, so
//! none of them allocates a closure or holds Rust values inside Lua. An exhausted meter makes
//! them raise the meter's message (a plain string error, as any error of Lua's own library).

use std::ffi::{c_int, CStr};

use mlua::ffi;

use super::pattern::raise;
use super::vm::ctx;
use super::{EMIT_FUEL, HOST_CALL_FUEL};

/// `charge(n)`: `n` units of library work (a number; `NaN` and negatives are 0), plus the
/// call's own cost.
pub(crate) unsafe extern "C-unwind" fn charge(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all blocks): called by Lua with the arguments on its stack; the frame holds
    // only plain values when `raise` jumps out.
    let n = unsafe { ffi::lua_tonumberx(l, 1, std::ptr::null_mut()) };
    let n = if n.is_nan() || n <= 0.0 { 0 } else { n as u64 };
    let meter = unsafe { &ctx(l).meter };
    if meter.charge(HOST_CALL_FUEL.saturating_add(n)).is_err() {
        return unsafe { raise(l, meter.trip_message()) };
    }
    0
}

/// `emit(line)`: one line of the bot's log (`print`), 50 units plus 1 per 8 bytes.
pub(crate) unsafe extern "C-unwind" fn emit(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `charge`; the line is a string on the stack while it is copied.
    let line = unsafe {
        let mut len = 0;
        let p = ffi::luaL_checklstring(l, 1, &mut len);
        std::slice::from_raw_parts(p as *const u8, len)
    };
    let ctx = unsafe { ctx(l) };
    if ctx.meter.charge(EMIT_FUEL + line.len() as u64 / 8).is_err() {
        return unsafe { raise(l, ctx.meter.trip_message()) };
    }
    ctx.log.borrow_mut().push(line);
    0
}

/// `budget_left()`: the fuel left in this phase, to the instruction.
pub(crate) unsafe extern "C-unwind" fn budget_left(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `charge`.
    let meter = unsafe { &ctx(l).meter };
    if meter.charge(HOST_CALL_FUEL).is_err() {
        return unsafe { raise(l, meter.trip_message()) };
    }
    let left = meter.remaining_exact();
    // SAFETY: one free slot (a C function gets LUA_MINSTACK).
    unsafe {
        match i64::try_from(left) {
            Ok(i) => ffi::lua_pushinteger(l, i),
            Err(_) => ffi::lua_pushnumber(l, left as f64),
        }
    }
    1
}

/// `fuel_used()`: the fuel used in this phase so far, to the instruction (`os.clock`).
pub(crate) unsafe extern "C-unwind" fn fuel_used(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: as in `charge`.
    let meter = unsafe { &ctx(l).meter };
    if meter.charge(HOST_CALL_FUEL).is_err() {
        return unsafe { raise(l, meter.trip_message()) };
    }
    let used = meter.used_exact();
    // SAFETY: one free slot (a C function gets LUA_MINSTACK).
    unsafe { ffi::lua_pushinteger(l, i64::try_from(used).unwrap_or(i64::MAX)) };
    1
}

/// `call_noyield(f, ...)`: `f(...)` called as a C library function calls a function it is
/// given (`lua_call`), so a coroutine cannot yield inside it ("attempt to yield across a
/// C-call boundary"): the prelude's `table.sort`, Lua code in the sandbox, is C in Lua. Not
/// charged beyond the instructions that call it (it replaces a plain call).
pub(crate) unsafe extern "C-unwind" fn call_noyield(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: the function and its arguments are the whole stack.
    unsafe {
        ffi::lua_call(l, ffi::lua_gettop(l) - 1, ffi::LUA_MULTRET);
        ffi::lua_gettop(l)
    }
}

// ------------------------------------------------------------------------------------------
// Charged library functions: C closures around the library's own C functions. Each charges
// the call (HOST_CALL_FUEL) plus the work the C function does without the hook seeing it,
// then runs the original *in its own frame* (a direct call of the `lua_CFunction`), so its
// argument errors name the function and the bot's line, exactly as the C library's do. The
// original is the closure's last upvalue (a light C function).

/// The original C function of the running wrapper (its upvalue `up`).
///
/// # Safety
/// Called from a wrapper made by [`wrap`], whose upvalue `up` is a light C function.
unsafe fn original(l: *mut ffi::lua_State, up: c_int) -> ffi::lua_CFunction {
    // SAFETY: see the function's contract.
    unsafe { ffi::lua_tocfunction(l, ffi::lua_upvalueindex(up)).expect("wrapped C function") }
}

/// Charges `fuel`, or raises the meter's error.
///
/// # Safety
/// Called by a C function of a sandboxed state, whose frame holds only plain values.
unsafe fn pay(l: *mut ffi::lua_State, fuel: u64) {
    // SAFETY: see the function's contract.
    let meter = unsafe { &ctx(l).meter };
    if meter.charge(fuel).is_err() {
        // SAFETY: as above.
        unsafe { raise(l, meter.trip_message()) };
    }
}

/// Bytes of the string at `idx` (0 for other types).
///
/// # Safety
/// A valid stack index of a live state.
unsafe fn string_len(l: *mut ffi::lua_State, idx: c_int) -> u64 {
    // SAFETY: see the function's contract.
    unsafe {
        if ffi::lua_type(l, idx) == ffi::LUA_TSTRING {
            ffi::lua_rawlen(l, idx) as u64
        } else {
            0
        }
    }
}

/// Bytes of every string argument.
///
/// # Safety
/// As [`string_len`].
unsafe fn string_args_len(l: *mut ffi::lua_State) -> u64 {
    // SAFETY: see the function's contract.
    unsafe { (1..=ffi::lua_gettop(l)).map(|i| string_len(l, i)).sum() }
}

/// `string.format`: 1 per 8 bytes of string arguments, plus each conversion's work
/// ([`format_work`]); then [`name_pointed_strings`].
unsafe extern "C-unwind" fn format(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`.
    unsafe {
        pay(l, HOST_CALL_FUEL + string_args_len(l) / 8 + format_work(l));
        name_pointed_strings(l);
        original(l, 1)(l)
    }
}

/// Fuel per conversion of `string.format` (each one is a `snprintf` call, or a `tostring`)
/// past the first [`FORMAT_FREE_ITEMS`] of a call.
const FORMAT_ITEM_FUEL: u64 = 8;
/// Conversions of one `string.format` call that cost only the call, so everyday formats
/// (`"pass %d %d %d"`) cost what they did.
const FORMAT_FREE_ITEMS: u64 = 4;
/// Integer digits, and digits of precision, of a `%f`/`%e`/`%g` conversion that cost nothing.
const FORMAT_FREE_DIGITS: u64 = 8;

/// The work of `string.format`'s conversions, from its format string (argument 1) and the
/// arguments they convert: [`FORMAT_ITEM_FUEL`] each past the first [`FORMAT_FREE_ITEMS`];
/// `%q` 4 per byte of its string (it escapes byte by byte); `%f`/`%e`/`%g` 3 per integer digit
/// of the number (`%f` of 1e308 writes 309 of them, exactly, with big-number arithmetic) plus
/// 1 per 2 of precision, each past [`FORMAT_FREE_DIGITS`]. Lua's own checks (a bad conversion,
/// a missing argument) still raise, after this charge.
///
/// # Safety
/// The arguments of a running `string.format` call are on the stack.
unsafe fn format_work(l: *mut ffi::lua_State) -> u64 {
    // SAFETY: see the function's contract; values are read without converting them.
    let fmt = unsafe {
        if ffi::lua_type(l, 1) != ffi::LUA_TSTRING {
            return 0;
        }
        let mut len = 0;
        let p = ffi::lua_tolstring(l, 1, &mut len);
        std::slice::from_raw_parts(p as *const u8, len)
    };
    let mut work = 0u64;
    let mut items = 0u64;
    let mut arg = 1;
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            i += 1;
            continue;
        }
        i += 1;
        if fmt.get(i) == Some(&b'%') {
            i += 1;
            continue;
        }
        arg += 1;
        while i < fmt.len() && b"-+ #0".contains(&fmt[i]) {
            i += 1;
        }
        while i < fmt.len() && fmt[i].is_ascii_digit() {
            i += 1;
        }
        let mut precision = 6u64;
        if fmt.get(i) == Some(&b'.') {
            i += 1;
            precision = 0;
            while i < fmt.len() && fmt[i].is_ascii_digit() {
                precision = precision.saturating_mul(10).saturating_add(u64::from(fmt[i] - b'0'));
                i += 1;
            }
        }
        items += 1;
        if items > FORMAT_FREE_ITEMS {
            work = work.saturating_add(FORMAT_ITEM_FUEL);
        }
        // SAFETY: `arg` is a stack index (an absent argument reads as none).
        unsafe {
            match fmt.get(i) {
                Some(b'q') => work = work.saturating_add(string_len(l, arg).saturating_mul(4)),
                Some(b'f' | b'F' | b'e' | b'E' | b'g' | b'G')
                    if ffi::lua_type(l, arg) == ffi::LUA_TNUMBER =>
                {
                    let x = ffi::lua_tonumberx(l, arg, std::ptr::null_mut()).abs();
                    let digits = if x >= 10.0 && x.is_finite() { x.log10().min(400.0) as u64 } else { 0 };
                    work = work.saturating_add(
                        3 * digits.saturating_sub(FORMAT_FREE_DIGITS)
                            + precision.min(400).saturating_sub(FORMAT_FREE_DIGITS) / 2,
                    );
                }
                _ => {}
            }
        }
        i += 1;
    }
    work
}

/// `string.pack`, `string.packsize`: 1 per 8 bytes of string arguments.
unsafe extern "C-unwind" fn scan_strings(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`.
    unsafe {
        pay(l, HOST_CALL_FUEL + string_args_len(l) / 8);
        original(l, 1)(l)
    }
}

/// A string given to a `%p` of `string.format` is shown by a number that names it in the VM's
/// heap ([`Heap::identity`](super::heap::Heap::identity)) instead of Lua's address: the same in
/// every run, distinct for distinct live strings, equal for equal short strings (Lua keeps one
/// copy of each). It replaces the argument (a light userdata, which `%p` prints as it is).
/// Tables, functions and coroutines already show their creation numbers (the patched
/// `lua_topointer`).
///
/// # Safety
/// The arguments of a running `string.format` call are on the stack.
unsafe fn name_pointed_strings(l: *mut ffi::lua_State) {
    // SAFETY (all): the format string is read while it is on the stack, and only string
    // arguments at valid indices are replaced.
    unsafe {
        if ffi::lua_type(l, 1) != ffi::LUA_TSTRING {
            return;
        }
        let mut len = 0;
        let text = ffi::lua_tolstring(l, 1, &mut len) as *const u8;
        let text = std::slice::from_raw_parts(text, len);
        let top = ffi::lua_gettop(l);
        for arg in pointer_args(text).filter(|&a| a <= top) {
            if ffi::lua_type(l, arg) == ffi::LUA_TSTRING {
                let mut n = 0;
                let bytes = ffi::lua_tolstring(l, arg, &mut n) as *const u8;
                let block = bytes.wrapping_sub(TSTRING_CONTENTS);
                if let Some(id) = ctx(l).block_identity(block, TSTRING_CONTENTS + n + 1) {
                    ffi::lua_pushlightuserdata(l, id as usize as *mut std::ffi::c_void);
                    ffi::lua_replace(l, arg);
                }
            }
        }
    }
}

/// Where a Lua string's bytes start in its block (`offsetof(TString, contents)` of Lua 5.4 on
/// a 64-bit target); its block has this many bytes more than the string, plus its `\0`.
const TSTRING_CONTENTS: usize = 24;

/// The argument positions of a format's `%p` items, as `str_format` (lstrlib.c) walks it:
/// `%%` takes no argument, every other item the next one (the format itself is argument 1);
/// an item is `%`, flags, width and precision (`-+#0 123456789.`), then its conversion.
fn pointer_args(text: &[u8]) -> impl Iterator<Item = c_int> + '_ {
    let mut i = 0;
    let mut arg: c_int = 1;
    std::iter::from_fn(move || {
        while i < text.len() {
            if text[i] != b'%' {
                i += 1;
                continue;
            }
            if text.get(i + 1) == Some(&b'%') {
                i += 2;
                continue;
            }
            i += 1;
            arg = arg.saturating_add(1);
            while i < text.len() && b"-+#0 123456789.".contains(&text[i]) {
                i += 1;
            }
            let conversion = text.get(i).copied();
            i += 1;
            if conversion == Some(b'p') {
                return Some(arg);
            }
        }
        None
    })
}

/// `tonumber(v, base)`, `utf8.len`, `utf8.offset`: 1 per 8 bytes of the first argument
/// when it is a string.
unsafe extern "C-unwind" fn scan_first(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`.
    unsafe {
        pay(l, HOST_CALL_FUEL + string_len(l, 1) / 8);
        original(l, 1)(l)
    }
}

/// `tonumber(v [, base])`: with a base, as [`scan_first`]; without one, the patched Lua charges
/// the conversion itself (`lua_stringtonumber`, 1 per 8 bytes).
unsafe extern "C-unwind" fn tonumber(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`.
    unsafe {
        let based = ffi::lua_type(l, 2) > ffi::LUA_TNIL;
        pay(l, HOST_CALL_FUEL + if based { string_len(l, 1) / 8 } else { 0 });
        original(l, 1)(l)
    }
}

/// `utf8.char`: 1 per argument (each is encoded and added to a buffer).
unsafe extern "C-unwind" fn per_arg(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`.
    unsafe {
        pay(l, HOST_CALL_FUEL + ffi::lua_gettop(l) as u64);
        original(l, 1)(l)
    }
}

/// `string.byte`: 1 per value returned.
unsafe extern "C-unwind" fn per_result(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`.
    unsafe {
        pay(l, HOST_CALL_FUEL);
        let n = original(l, 1)(l);
        pay(l, n as u64);
        n
    }
}

/// `string.unpack`: 1 per 8 bytes of string arguments and 1 per value returned.
unsafe extern "C-unwind" fn scan_strings_per_result(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`.
    unsafe {
        pay(l, HOST_CALL_FUEL + string_args_len(l) / 8);
        let n = original(l, 1)(l);
        pay(l, n as u64);
        n
    }
}

/// `utf8.codepoint`: 1 per 8 bytes of the string and 1 per value returned.
unsafe extern "C-unwind" fn scan_first_per_result(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`.
    unsafe {
        pay(l, HOST_CALL_FUEL + string_len(l, 1) / 8);
        let n = original(l, 1)(l);
        pay(l, n as u64);
        n
    }
}

/// `string.rep(s, n [, sep])`: it loops once per repetition, even for an empty result
/// (`rep("", 1e12)` spins for minutes): 1 per 2 repetitions, unless the result would exceed
/// the memory cap (then it fails at once, as a memory error).
unsafe extern "C-unwind" fn rep(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`; the lengths are read without converting the
    // arguments in place.
    unsafe {
        let mut work = 0;
        let mut valid = 0;
        let k = ffi::lua_tointegerx(l, 2, &mut valid);
        if valid != 0 && k > 0 {
            let total = k as f64 * text_len(l, 1) as f64 + (k as f64 - 1.0) * text_len(l, 3) as f64;
            if total <= ctx(l).meter.memory_limit() as f64 {
                work = (k / 2) as u64;
            }
        }
        pay(l, HOST_CALL_FUEL.saturating_add(work));
        original(l, 1)(l)
    }
}

/// The length of a string, or of a number's text (as `tostring` writes it), else 0.
///
/// # Safety
/// A valid stack index of a live state, with a free slot.
unsafe fn text_len(l: *mut ffi::lua_State, idx: c_int) -> u64 {
    // SAFETY: see the function's contract; a number is converted on a copy, popped after.
    unsafe {
        match ffi::lua_type(l, idx) {
            ffi::LUA_TSTRING => ffi::lua_rawlen(l, idx) as u64,
            ffi::LUA_TNUMBER => {
                ffi::lua_pushvalue(l, idx);
                let mut len = 0;
                ffi::lua_tolstring(l, -1, &mut len);
                ffi::lua_pop(l, 1);
                len as u64
            }
            _ => 0,
        }
    }
}

/// `setmetatable(t, mt)`: no finalizers. Lua runs `__gc` with hooks disabled (and at VM
/// teardown), so a finalizer could loop unmetered; an object is marked for finalization only
/// if its metatable has `__gc` when `setmetatable` is called, so refusing that here is enough.
unsafe extern "C-unwind" fn setmetatable(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap`; the raw read of `__gc` does not run metamethods.
    unsafe {
        pay(l, HOST_CALL_FUEL);
        if ffi::lua_type(l, 2) == ffi::LUA_TTABLE {
            ffi::lua_pushstring(l, c"__gc".as_ptr());
            let t = ffi::lua_rawget(l, 2);
            ffi::lua_pop(l, 1);
            if t != ffi::LUA_TNIL {
                ffi::luaL_where(l, 1);
                ffi::lua_pushstring(l, c"__gc metamethods are not available in the sandbox".as_ptr());
                ffi::lua_concat(l, 2);
                ffi::lua_error(l);
            }
        }
        original(l, 1)(l)
    }
}

/// `math.randomseed([x [, y]])`: without arguments Lua would reseed from the clock; it reseeds
/// from the match seed (upvalue 2) instead. Upvalue 1 is the library's random state, which the
/// original reads as its own upvalue 1.
unsafe extern "C-unwind" fn randomseed(l: *mut ffi::lua_State) -> c_int {
    // SAFETY (all): a wrapper made by `wrap` with the random state and the seed before the
    // original.
    unsafe {
        pay(l, HOST_CALL_FUEL);
        if ffi::lua_gettop(l) == 0 {
            ffi::lua_pushvalue(l, ffi::lua_upvalueindex(2));
        }
        original(l, 3)(l)
    }
}

/// Replaces `lib[name]` (a C function) with a wrapper closure: `extra` values on the top of
/// the stack become its first upvalues (popped), the original its last.
///
/// # Safety
/// `lib` is an absolute index of a table whose field `name` is a C function; `extra` values
/// are on the top of the stack.
unsafe fn wrap(l: *mut ffi::lua_State, lib: c_int, name: &CStr, wrapper: ffi::lua_CFunction, extra: c_int) {
    // SAFETY: see the function's contract.
    unsafe {
        ffi::lua_getfield(l, lib, name.as_ptr());
        let f = ffi::lua_tocfunction(l, -1).expect("a C library function");
        ffi::lua_pop(l, 1);
        ffi::lua_pushcfunction(l, f);
        ffi::lua_pushcclosure(l, wrapper, extra + 1);
        ffi::lua_setfield(l, lib, name.as_ptr());
    }
}

/// Installs the charged wrappers in the libraries (after the prelude, which keeps some of the
/// originals for itself).
///
/// # Safety
/// A protected call on a sandboxed state with the libraries open; `seed` the match seed.
pub(crate) unsafe fn install_wrappers(l: *mut ffi::lua_State, seed: i64) {
    // SAFETY: see the function's contract; every table index is absolute.
    unsafe {
        ffi::lua_rawgeti(l, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_GLOBALS);
        let g = ffi::lua_gettop(l);
        wrap(l, g, c"tonumber", tonumber, 0);
        wrap(l, g, c"setmetatable", setmetatable, 0);
        ffi::lua_getfield(l, g, c"string".as_ptr());
        let s = ffi::lua_gettop(l);
        wrap(l, s, c"rep", rep, 0);
        wrap(l, s, c"format", format, 0);
        wrap(l, s, c"pack", scan_strings, 0);
        wrap(l, s, c"packsize", scan_strings, 0);
        wrap(l, s, c"unpack", scan_strings_per_result, 0);
        wrap(l, s, c"byte", per_result, 0);
        ffi::lua_getfield(l, g, c"utf8".as_ptr());
        let u = ffi::lua_gettop(l);
        wrap(l, u, c"len", scan_first, 0);
        wrap(l, u, c"offset", scan_first, 0);
        wrap(l, u, c"codepoint", scan_first_per_result, 0);
        wrap(l, u, c"char", per_arg, 0);
        ffi::lua_getfield(l, g, c"math".as_ptr());
        let m = ffi::lua_gettop(l);
        ffi::lua_getfield(l, m, c"randomseed".as_ptr());
        ffi::lua_getupvalue(l, -1, 1); // the random state
        ffi::lua_remove(l, -2);
        ffi::lua_pushinteger(l, seed);
        wrap(l, m, c"randomseed", randomseed, 2);
        ffi::lua_settop(l, g - 1);
    }
}
