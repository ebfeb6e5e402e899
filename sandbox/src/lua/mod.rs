//! Lua 5.4 bots: a fresh, curated VM per match, metered by an instruction hook, a metering
//! allocator and charged library wrappers.
//!
//! Why each piece exists (see also sandbox-research.md §1):
//! * A raw count hook on the main state ([`meter`]'s `fuel_hook`), not mlua's hook callbacks
//!   (which would run pending `__close` metamethods with hooks off when they fail). The
//!   patched VM keeps its count in the main thread for every coroutine, so coroutines are
//!   metered by the same count.
//! * Sticky exhaustion ([`meter::Meter::trip`]): otherwise `pcall` swallows the budget error.
//! * The metering allocator ([`vm::metered_alloc`]): `..`, `string.rep`, table growth and every
//!   other allocation cost fuel, so work that the VM does inside one instruction is still paid
//!   for.
//! * The prelude (`prelude.lua`) and the Rust pattern matcher: library functions that loop
//!   without allocating are charged for their steps, or rewritten in metered Lua.
//! * Text-only chunks: bytecode can crash the interpreter.
//! * No `__gc`: finalizers run with hooks off, and at teardown.
//!
//! The VM is driven through Lua's C API ([`vm`]), in its own memory ([`heap`]): starting one
//! is most of the cost of a short match.

mod frames;
mod heap;
mod host;
mod json;
mod meter;
mod pattern;
mod tape_ser;
mod vm;

use std::ffi::{c_int, CStr, CString};
use std::sync::Arc;
impl Overdue for Meter {
    fn past_deadline(&self) -> bool {
        Meter::past_deadline(self)
    }

    fn poke(&self) {
        Meter::poke(self)
    }
}

#[cfg(test)]
use std::time::Duration;

use mlua::chunk::ChunkMode;
use mlua::{ffi, Lua, LuaOptions, StdLib};

#[cfg(feature = "baseline")]
pub(crate) use self::json::push_tape as push_observation;
pub(crate) use self::json::Tape;
pub(crate) use self::meter::Meter;
use self::meter::Trip;
pub(crate) use self::vm::{LuaFailure, Vm};
use crate::log::LogBook;
use crate::watchdog::{Overdue, Registered, Watchlist};
use crate::{Fault, Limits, Verdict, LUA_HOOK_STEP, MAX_LUA_SOURCE, MAX_REPLY_BYTES};

const PRELUDE: &str = include_str!("prelude.lua");

/// Fuel charged for each call from Lua into a host function (about the cost of the call).
pub(crate) const HOST_CALL_FUEL: u64 = 10;
/// Fuel charged for each `print` line, plus 1 per 8 bytes.
pub(crate) const EMIT_FUEL: u64 = 50;

/// Stack slot of the bot's `act` function in the main thread, between calls.
const ACT_SLOT: c_int = 1;

/// A checked Lua source, shared by every match of that bot.
///
/// The source is compiled once, here, and every match loads the compiled function (the
/// bytecode that *our* compiler made from the text: a bot's own bytecode is never loaded).
pub(crate) struct LuaProgram {
    chunk_name: CString,
    bytecode: Vec<u8>,
    prelude: Arc<[u8]>,
    watch: Arc<Watchlist>,
}

/// Compiles the prelude once per sandbox (stripped of debug information: a third less to
/// load per start).
pub(crate) fn compile_prelude() -> Result<Vec<u8>, String> {
    vm::compile(PRELUDE.as_bytes(), c"=sandbox", true)
        .map_err(|e| format!("the sandbox's Lua prelude does not compile: {e}"))
}

impl LuaProgram {
    /// Checks that `bytes` is Lua source text that parses, and compiles it.
    pub(crate) fn load(
        name: &str,
        bytes: &[u8],
        watch: Arc<Watchlist>,
        prelude: Arc<[u8]>,
    ) -> Result<LuaProgram, Fault> {
        if bytes.len() > MAX_LUA_SOURCE {
            return Err(Fault::load(format!(
                "Lua source is {} bytes; the limit is {MAX_LUA_SOURCE}",
                bytes.len()
            )));
        }
        let bytes = source_text(bytes);
        if bytes.starts_with(b"\x1bLua") {
            return Err(Fault::load("precompiled Lua bytecode is not accepted; submit the source text"));
        }
        let chunk_name = CString::new(format!("@{name}").replace('\0', "?")).expect("no NUL left");
        // Compiled in a throwaway VM (nothing runs): syntax errors are reported at load. Not
        // stripped: tracebacks keep the file name and line numbers.
        let bytecode = vm::compile(&bytes, &chunk_name, false).map_err(Fault::load)?;
        Ok(LuaProgram { chunk_name, bytecode, prelude, watch })
    }

    /// A fresh VM with the bot's chunk run and `init(info)` called, under `limits.fuel_init`.
    pub(crate) fn start(&self, limits: &Limits, seed: u64, info_json: &str) -> Result<LuaInstance, Fault> {
        let mut inst = LuaInstance::new(limits, seed, self.watch.clone(), &self.prelude)?;
        crate::stack::on_guest_stack(|| inst.run_init(self, info_json))?;
        Ok(inst)
    }
}

/// The chunk Lua compiles from a file's bytes, as stock Lua's `luaL_loadfile` reads a file: a
/// UTF-8 byte-order mark (which some editors write) is skipped, and so is a first line that
/// starts with `#` (a `#!` line), whose newline stays so that line numbers do not change.
fn source_text(bytes: &[u8]) -> std::borrow::Cow<'_, [u8]> {
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    if bytes.starts_with(b"#") {
        let rest = bytes.iter().position(|&b| b == b'\n').map_or(&[][..], |at| &bytes[at..]);
        return std::borrow::Cow::Owned(rest.to_vec());
    }
    std::borrow::Cow::Borrowed(bytes)
}

/// The fault message of an `act` that returned nothing (or nil): most often `obs.legal[0]` or
/// a function without `return`.
const NIL_REPLY: &str = "act returned nil, not a string (Lua arrays start at 1: the first legal \
    action is obs.legal[1], not obs.legal[0]; and `act` must `return` its action)";

/// One Lua bot in one match.
pub(crate) struct LuaInstance {
    /// Dropped first: the watchdog must forget the meter before the VM goes.
    _registered: Registered,
    vm: Vm,
    /// Whether the bot's `act` is in [`ACT_SLOT`].
    has_act: bool,
    meter: Arc<Meter>,
    /// The parsed observation (or init info), reused from one decision to the next.
    tape: Tape,
    limits: Limits,
    fuel_used_last: u64,
    fuel_total: u64,
    fuel_init: u64,
    /// Whether observation tables record reads of keys they lack ([`LuaInstance::watch_unknown_fields`]).
    watch: bool,
}

impl LuaInstance {
    fn new(limits: &Limits, seed: u64, watch: Arc<Watchlist>, prelude: &[u8]) -> Result<LuaInstance, Fault> {
        let host_err = |e: String| Fault::new(Verdict::Crash, format!("sandbox: {e}"));
        let meter = Arc::new(Meter::new(limits.memory_bytes));
        let vm = Vm::new(meter.clone(), LogBook::new(limits.log_bytes_per_match), true).map_err(host_err)?;
        // SAFETY: the VM's live main state, with no Lua code running.
        unsafe { meter.probe_hookcount() };
        let inst = LuaInstance {
            _registered: watch.register(meter.clone()),
            vm,
            has_act: false,
            meter,
            tape: Tape::with_capacity(),
            limits: limits.clone(),
            fuel_used_last: 0,
            fuel_total: 0,
            fuel_init: 0,
            watch: false,
        };
        inst.install_prelude(seed, prelude).map_err(|f| host_err(f.message))?;
        Ok(inst)
    }

    /// Runs the prelude: library curation, charged wrappers, seeded RNG, log capture.
    fn install_prelude(&self, seed: u64, prelude: &[u8]) -> Result<(), LuaFailure> {
        let l = self.vm.state();
        // SAFETY: the stack is empty; every push has room (LUA_MINSTACK slots); the calls are
        // protected.
        unsafe {
            ffi::lua_createtable(l, 0, 11);
            let functions: [(&CStr, ffi::lua_CFunction); 9] = [
                (c"charge", host::charge),
                (c"call_noyield", host::call_noyield),
                (c"emit", host::emit),
                (c"budget_left", host::budget_left),
                (c"fuel_used", host::fuel_used),
                (c"find", pattern::find),
                (c"match", pattern::str_match),
                (c"gsub", pattern::gsub),
                (c"gmatch", pattern::gmatch),
            ];
            for (name, f) in functions {
                ffi::lua_pushcfunction(l, f);
                ffi::lua_setfield(l, -2, name.as_ptr());
            }
            ffi::lua_pushinteger(l, seed as i64);
            ffi::lua_setfield(l, -2, c"seed".as_ptr());

            // Seed math.random before the prelude replaces math.randomseed.
            ffi::lua_getglobal(l, c"math".as_ptr());
            ffi::lua_getfield(l, -1, c"randomseed".as_ptr());
            ffi::lua_remove(l, -2);
            ffi::lua_pushinteger(l, seed as i64);
            self.vm.call(1, 0)?;

            // Only in the build that runs the official Lua test files: Lua's own `load`,
            // `string.dump` and `collectgarbage`, which the prelude replaces, kept in the
            // registry for their harness (sandbox/tests/official/harness.lua).
            #[cfg(feature = "lua-testes")]
            {
                ffi::lua_createtable(l, 0, 3);
                ffi::lua_getglobal(l, c"load".as_ptr());
                ffi::lua_setfield(l, -2, c"load".as_ptr());
                ffi::lua_getglobal(l, c"collectgarbage".as_ptr());
                ffi::lua_setfield(l, -2, c"collectgarbage".as_ptr());
                ffi::lua_getglobal(l, c"string".as_ptr());
                ffi::lua_getfield(l, -1, c"dump".as_ptr());
                ffi::lua_setfield(l, -3, c"dump".as_ptr());
                ffi::lua_pop(l, 1);
                ffi::lua_setfield(l, ffi::LUA_REGISTRYINDEX, c"lua-testes".as_ptr());
            }

            // Host-made bytecode (`compile_prelude`), not the text: parsing it every match cost
            // more than everything else in starting a VM.
            self.vm.load(prelude, c"=sandbox", c"b")?;
            ffi::lua_insert(l, -2); // the prelude's function, then the host table
            self.vm.call(1, 0)?;
            ffi::lua_settop(l, 0);
            let mut seed = seed as i64;
            self.vm.pcall_c(install_wrappers, &mut seed as *mut i64 as *mut std::ffi::c_void, 0)?;
        }
        Ok(())
    }

    /// Re-arms the instruction hook for a new phase (also resets the hook's count, so a
    /// phase's fuel does not depend on the previous one).
    fn arm_hook(&self) {
        self.meter.arm();
    }

    fn run_init(&mut self, program: &LuaProgram, info_json: &str) -> Result<(), Fault> {
        let meter = self.meter.clone();
        meter.begin(self.limits.fuel_init, self.limits.wall_per_decision);
        let _call = CallScope(&meter);
        if let Err(e) = self.tape.parse(info_json) {
            return Err(self.host_fault(format!("init info is not valid JSON: {e}")));
        }
        let l = self.vm.state();
        self.vm.restart_gc();
        let result = (|| -> Result<bool, LuaFailure> {
            self.arm_hook();
            meter.set_charging(true);
            // SAFETY: the stack is empty; the chunk is our own compiler's bytecode.
            unsafe {
                self.vm.load(&program.bytecode, &program.chunk_name, c"b")?;
                self.vm.call(0, 0)?;
                self.vm.push_raw_global(c"act");
                let has_act = ffi::lua_type(l, -1) == ffi::LUA_TFUNCTION;
                // ACT_SLOT (1): the bot's `act` (or whatever the global holds), kept for the match.
                self.vm.push_raw_global(c"init");
                if ffi::lua_type(l, -1) == ffi::LUA_TFUNCTION {
                    meter.set_charging(false);
                    let built = json::push_tape(&self.vm, &self.tape);
                    meter.set_charging(true);
                    built?;
                    self.vm.call(1, 0)?;
                } else {
                    ffi::lua_pop(l, 1);
                }
                Ok(has_act)
            }
        })();
        meter.set_charging(false);
        meter.end_phase();
        // SAFETY: whatever the outcome, only ACT_SLOT stays on the stack.
        unsafe { ffi::lua_settop(l, ACT_SLOT) };
        self.fuel_init = meter.total();
        self.fuel_used_last = self.fuel_init;
        if result.is_ok() && self.fuel_init > self.limits.fuel_init {
            meter.trip(Trip::Fuel);
        }
        match result {
            Ok(true) if meter.trip_state() == Trip::None => {
                self.has_act = true;
                Ok(())
            }
            Ok(false) if meter.trip_state() == Trip::None => {
                Err(self.fault(Verdict::Load, "the bot does not define a global function `act`".into(), None))
            }
            Ok(_) => Err(self.classify(trip_failure(&meter), true)),
            Err(e) => Err(self.classify(e, true)),
        }
    }

    /// One decision, on an observation given as JSON text.
    pub(crate) fn act(&mut self, observation_json: &str) -> Result<String, Fault> {
        crate::stack::on_guest_stack(|| {
            self.decide(|tape| {
                tape.parse(observation_json).map_err(|e| format!("observation is not valid JSON: {e}"))
            })
        })
    }

    /// One decision, on an observation given as a value: the same tables as its JSON text
    /// would give (`tape_ser`), without the text.
    pub(crate) fn act_value<T: serde::Serialize + ?Sized>(
        &mut self,
        observation: &T,
    ) -> Result<String, Fault> {
        crate::stack::on_guest_stack(|| {
            self.decide(|tape| {
                tape.serialize(observation).map_err(|e| format!("observation has no JSON form: {e}"))
            })
        })
    }

    fn decide(&mut self, fill: impl FnOnce(&mut Tape) -> Result<(), String>) -> Result<String, Fault> {
        let meter = self.meter.clone();
        let budget = self.limits.decision_budget(self.fuel_total);
        meter.begin(budget, self.limits.wall_per_decision);
        let _call = CallScope(&meter);
        self.fuel_used_last = 0;
        if budget == 0 {
            return Err(self.fault(Verdict::Fuel, self.limits.bank_used_up(), None));
        }
        if !self.has_act {
            return Err(self.fault(Verdict::Crash, "the bot has no `act`".into(), None));
        }
        if let Err(e) = fill(&mut self.tape) {
            return Err(self.host_fault(e));
        }
        let l = self.vm.state();
        // SAFETY: ACT_SLOT holds `act`; the pushes have room; the calls are protected.
        self.vm.ctx().unknown_fields.borrow_mut().clear();
        let result = unsafe {
            ffi::lua_pushvalue(l, ACT_SLOT);
            json::push_tape_watched(&self.vm, &self.tape, self.watch).and_then(|()| {
                self.arm_hook();
                meter.set_charging(true);
                self.vm.call(1, 1)
            })
        };
        meter.set_charging(false);
        meter.end_phase();
        let used = meter.total();
        self.fuel_used_last = used;
        self.fuel_total = self.fuel_total.saturating_add(used);
        let outcome = if meter.trip_state() != Trip::None || (result.is_ok() && used > budget) {
            // (A reply that comes back over budget is late: the hook only checks every
            // LUA_HOOK_STEP instructions, and the remainder is booked at the end.)
            meter.trip(Trip::Fuel);
            Err(self.classify(trip_failure(&meter), false))
        } else {
            match result {
                // SAFETY: the reply is on the top of the stack.
                Ok(()) => unsafe { self.reply() },
                Err(e) => Err(self.classify(e, false)),
            }
        };
        // SAFETY: back to ACT_SLOT alone.
        unsafe { ffi::lua_settop(l, ACT_SLOT) };
        outcome
    }

    /// The value `act` returned (on the top of the stack) as the reply.
    unsafe fn reply(&self) -> Result<String, Fault> {
        let l = self.vm.state();
        // SAFETY: reading the top slot; `lua_tolstring` on a string does not allocate.
        let bytes = unsafe {
            match ffi::lua_type(l, -1) {
                ffi::LUA_TSTRING => {
                    let mut len = 0;
                    let p = ffi::lua_tolstring(l, -1, &mut len);
                    std::slice::from_raw_parts(p as *const u8, len)
                }
                ffi::LUA_TNIL => return Err(self.fault(Verdict::Invalid, NIL_REPLY.into(), None)),
                _ => {
                    return Err(self.fault(
                        Verdict::Invalid,
                        format!("act returned {}, not a string", describe(l, -1)),
                        None,
                    ))
                }
            }
        };
        if bytes.len() > MAX_REPLY_BYTES {
            return Err(self.fault(
                Verdict::Invalid,
                format!("the reply is {} bytes long; the limit is {MAX_REPLY_BYTES}", bytes.len()),
                None,
            ));
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => Err(self.fault(Verdict::Invalid, format!("the reply is not valid UTF-8: {e}"), None)),
        }
    }

    /// Maps a Lua error (after the meter has had its say) to a fault.
    fn classify(&self, e: LuaFailure, init: bool) -> Fault {
        let phase = if init { "init" } else { "decision" };
        match self.meter.trip_state() {
            Trip::Fuel => {
                let limit = self.meter.limit();
                let msg = if !init && limit < self.limits.fuel_per_decision {
                    format!("fuel exhausted: {}", self.limits.bank_used_up())
                } else {
                    format!("fuel exhausted: the {phase} budget is {limit}")
                };
                let msg = match self.meter.site() {
                    Some(site) => format!("{msg}; it ran out at {site}"),
                    None => msg,
                };
                return self.fault(Verdict::Fuel, msg, None);
            }
            Trip::Wall => {
                return self.fault(
                    Verdict::Wallclock,
                    format!(
                        "stopped by the wall-clock backstop after {:?} (the fuel did not run out)",
                        self.limits.wall_per_decision
                    ),
                    None,
                )
            }
            Trip::None => {}
        }
        // The verdict comes from what Lua observed, never from the message (the bot's own).
        let LuaFailure { message, trace, fault } = e;
        match fault {
            vm::Fault::Memory => {
                let msg = format!("memory cap of {} bytes reached: {message}", self.meter.memory_limit());
                let msg = match self.meter.alloc_site() {
                    Some(site) => format!("{msg}; it ran out at {site}"),
                    None => msg,
                };
                self.fault(Verdict::Memory, msg, trace)
            }
            vm::Fault::Stack => self.fault(Verdict::Stack, message, trace),
            // `error("")` would otherwise be a fault that says nothing.
            vm::Fault::None if message.trim().is_empty() => self.fault(
                Verdict::Crash,
                format!("the bot raised an error with an empty message ({message:?})"),
                trace,
            ),
            vm::Fault::None => self.fault(Verdict::Crash, message, trace),
        }
    }

    fn fault(&self, verdict: Verdict, message: String, trace: Option<String>) -> Fault {
        Fault::new(verdict, message)
            .with_usage(self.fuel_used_last, self.fuel_total, self.meter.peak())
            .with_trace(trace)
    }

    /// A failure caused by the caller (malformed JSON), reported without blaming the bot's
    /// numbers.
    fn host_fault(&self, message: String) -> Fault {
        self.fault(Verdict::Crash, format!("host error: {message}"), None)
    }

    /// From the next decision on, the observation's tables record the first key read that they
    /// lack (a typo such as `obs.deck`): for `arena check`. Bots see the same values; a read of
    /// a missing key may cost a few fuel units more (the metamethod's call frame), and
    /// `getmetatable(obs)` tells the difference.
    pub(crate) fn watch_unknown_fields(&mut self) {
        if !self.watch {
            json::watch_unknown_fields(&self.vm);
            self.watch = true;
        }
    }

    /// The keys watched observation tables lacked, read in the last decision (in the order
    /// first read; at most 4 distinct).
    pub(crate) fn unknown_fields(&self) -> Vec<String> {
        self.vm.ctx().unknown_fields.borrow().clone()
    }

    pub(crate) fn fuel_used_last(&self) -> u64 {
        self.fuel_used_last
    }

    pub(crate) fn fuel_total(&self) -> u64 {
        self.fuel_total
    }

    pub(crate) fn fuel_init(&self) -> u64 {
        self.fuel_init
    }

    pub(crate) fn memory_peak(&self) -> u64 {
        self.meter.peak()
    }

    pub(crate) fn take_log(&mut self) -> Vec<String> {
        self.vm.ctx().log.borrow_mut().take()
    }
}

/// The protected part of installing the charged wrappers (its argument: the match seed).
unsafe extern "C-unwind" fn install_wrappers(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: the argument is the seed of `install_prelude`.
    unsafe {
        let seed = *(ffi::lua_touserdata(l, 1) as *const i64);
        ffi::lua_pop(l, 1);
        host::install_wrappers(l, seed);
        // Only in the build that runs the official Lua test files (`scripts/lua-testes.sh`):
        // they inspect locals, upvalues and hooks, which no bot may (docs/sandbox.md).
        #[cfg(feature = "lua-testes")]
        {
            ffi::luaL_requiref(l, c"debug".as_ptr(), ffi::luaopen_debug, 1);
            ffi::lua_settop(l, 0);
        }
    }
    0
}

/// Ends the meter's call (its wall-clock deadline) when dropped, whatever the way out.
struct CallScope<'a>(&'a Meter);

impl Drop for CallScope<'_> {
    fn drop(&mut self) {
        self.0.end_call();
    }
}

/// The failure reported for a call the meter stopped.
fn trip_failure(meter: &Meter) -> LuaFailure {
    LuaFailure { message: meter.trip_message().into(), trace: None, fault: vm::Fault::None }
}

/// A short description of the value at `idx`, for `invalid` messages.
fn describe(l: *mut ffi::lua_State, idx: c_int) -> String {
    // SAFETY: reading a slot of a live state; no conversion allocates.
    unsafe {
        match ffi::lua_type(l, idx) {
            ffi::LUA_TNIL | ffi::LUA_TNONE => "nil".into(),
            ffi::LUA_TBOOLEAN => format!("a boolean ({})", ffi::lua_toboolean(l, idx) != 0),
            ffi::LUA_TNUMBER if ffi::lua_isinteger(l, idx) != 0 => {
                format!("a number ({})", ffi::lua_tointeger(l, idx))
            }
            ffi::LUA_TNUMBER => format!("a number ({})", ffi::lua_tonumber(l, idx)),
            ffi::LUA_TTABLE => "a table".into(),
            ffi::LUA_TFUNCTION => "a function".into(),
            t => format!("a {}", CStr::from_ptr(ffi::lua_typename(l, t)).to_string_lossy()),
        }
    }
}

/// Checks, once per `Sandbox`, that the vendored Lua was built with the deterministic hash seed
/// and sort pivot (vendor/lua-src's luaconf.h): the iteration order of `pairs` over a fixed set of
/// string keys must be the pinned one.
pub(crate) fn self_check() -> Result<(), String> {
    if !vm::fuel_hook_works()? {
        return Err("the Lua library is not the sandbox's patched Lua 5.4.9 (vendor/lua-src): its fuel \
                    hook does not run, so bots would not be metered; build cardarena-sandbox from the \
                    cardarena workspace, whose [patch.crates-io] provides it"
            .into());
    }
    let order = pairs_probe().map_err(|e| format!("Lua self-check failed: {e}"))?;
    if order != PINNED_PAIRS_ORDER {
        return Err(format!(
            "the vendored Lua was not built with the sandbox's determinism defines \
             (pairs order {order:?}); build cardarena-sandbox from the cardarena workspace, \
             whose [patch.crates-io] provides vendor/lua-src"
        ));
    }
    Ok(())
}

/// The order in which `pairs` visits [`PAIRS_PROBE_KEYS`] when Lua is built with
/// `luai_makeseed(L)` defined as `0x5eedu`, then the probe's table (`t`), function (`f`) and boolean keys
/// (ordered by creation numbers in the patched Lua).
pub(crate) const PINNED_PAIRS_ORDER: &str =
    "bravo,hotel,charlie,golf,lima,alpha,juliet,india,delta,kilo,foxtrot,echo,f5,t6,T,f1,t2,f3,t4,F";

/// Keys inserted, in this order, by the pairs-order probe.
pub(crate) const PAIRS_PROBE_KEYS: &str =
    "alpha bravo charlie delta echo foxtrot golf hotel india juliet kilo lima";

/// Runs the pairs-order probe in a fresh bare VM.
pub(crate) fn pairs_probe() -> mlua::Result<String> {
    let lua = Lua::new_with(StdLib::TABLE | StdLib::STRING, LuaOptions::default())?;
    lua.load(
        r#"
        local keys = ...
        local t, out = {}, {}
        for k in keys:gmatch("%a+") do t[k] = true end
        for k in pairs(t) do out[#out + 1] = k end
        -- Table, function and boolean keys: their order follows creation numbers, not
        -- addresses (vendor/lua-src/README.md).
        local u, names = {}, {}
        for i = 1, 6 do
          local k = i % 2 == 0 and {} or function() return i end
          u[k], names[k] = true, (i % 2 == 0 and "t" or "f") .. i
        end
        u[true], u[false], names[true], names[false] = true, true, "T", "F"
        for k in pairs(u) do out[#out + 1] = names[k] end
        return table.concat(out, ",")
        "#,
    )
    .set_mode(ChunkMode::Text)
    .call::<String>(PAIRS_PROBE_KEYS)
}

/// A hook step of zero would disable counting.
const _: () = assert!(LUA_HOOK_STEP > 0);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_order_is_pinned() {
        assert_eq!(pairs_probe().unwrap(), PINNED_PAIRS_ORDER);
    }

    /// Runs `code` (a chunk returning one string) in a sandboxed VM and in a plain Lua VM with
    /// the original C library, and returns both results.
    fn both(code: &str) -> (String, String) {
        let limits = Limits::LUA;
        let prelude = compile_prelude().unwrap();
        let inst = LuaInstance::new(&limits, 1, Arc::default(), &prelude).unwrap();
        inst.meter.begin(u64::MAX / 2, Duration::from_secs(60));
        inst.meter.set_charging(true);
        let sandboxed = run_text(&inst.vm, code);
        let plain = Lua::new_with(StdLib::ALL_SAFE, LuaOptions::default()).unwrap();
        let original = plain
            .load(code)
            .set_name("=t")
            .call::<mlua::LuaString>(())
            .map_or_else(|e| format!("ERROR {e}"), |s| s.to_string_lossy());
        (sandboxed, original)
    }

    /// Runs a chunk that returns one string in `vm`.
    fn run_text(vm: &Vm, code: &str) -> String {
        let l = vm.state();
        match vm.load(code.as_bytes(), c"=t", c"t").and_then(|()| unsafe { vm.call(0, 1) }) {
            Err(e) => format!("ERROR {}", e.message),
            Ok(()) => unsafe {
                let mut len = 0;
                let p = ffi::lua_tolstring(l, -1, &mut len);
                let out =
                    String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned();
                ffi::lua_pop(l, 1);
                out
            },
        }
    }

    /// The Lua-side helper that turns any list of results into one comparable string.
    const SHOW: &str = r#"
        local function show(...)
          local n = select('#', ...)
          local out = {}
          for i = 1, n do
            local v = select(i, ...)
            out[#out + 1] = type(v) .. ":" .. tostring(v)
          end
          return n .. "[" .. table.concat(out, ",") .. "]"
        end
        local function try(f, ...)
          local r = table.pack(pcall(f, ...))
          if not r[1] then return "error" end
          return show(table.unpack(r, 2, r.n))
        end
    "#;

    #[test]
    fn pattern_functions_match_the_c_library() {
        let subjects = [
            "",
            "hello world",
            "  key = value  ",
            "a,b,,c",
            "THE (quick) [brown] fox",
            "aaa",
            "x=1, y=22, z=333",
            "f(a(b)c)d",
            "caf\\xc3\\xa9",
            "one\\0two",
            "%d%%",
            "THE END",
            "2024-11-22T02:34:12Z",
        ];
        let patterns = [
            "",
            "o",
            "l+",
            "l*",
            "l-",
            "l?",
            "^h",
            "d$",
            "^$",
            "%a+",
            "%d+",
            "%s*(.-)%s*$",
            "(%w+)=(%w+)",
            "()",
            "()ll()",
            "[%a_][%w_]*",
            "[^,]*",
            "%b()",
            "%b[]",
            "%f[%w]%w+",
            "%f[%W]",
            "(a)%1",
            "(.)%1",
            ".-b",
            "[a-c]+",
            "[%]]",
            "[]]",
            "[^%s]+",
            "%u+",
            "%l+",
            "%p+",
            "%c",
            "%x+",
            "%g+",
            "(h)(e)(l)(l)(o)",
            "((a)(b))",
            "%",
            "[a",
            "(()",
            "%1",
            "(a",
            "a)",
            "%bx",
            "%f",
            "%z",
            ".",
            ".-",
            "(.-)$",
            "[a-]",
            "[-a]",
            "%.",
            "x*$",
        ];
        let mut code = String::from(SHOW);
        code.push_str("local out = {}\n");
        for s in subjects {
            for p in patterns {
                let (s, p) = (format!("\"{s}\""), format!("{p:?}"));
                code.push_str(&format!(
                    "out[#out+1] = try(string.find, {s}, {p}) .. try(string.find, {s}, {p}, 3) \
                     .. try(string.find, {s}, {p}, -2, true) .. try(string.match, {s}, {p}) \
                     .. try(string.gsub, {s}, {p}, '<%0>') .. try(string.gsub, {s}, {p}, '%1', 2) \
                     .. try(function() local r = {{}} for a, b in string.gmatch({s}, {p}) do \
                          r[#r+1] = tostring(a) .. '/' .. tostring(b) if #r > 50 then break end end \
                          return table.concat(r, ' ') end)\n"
                ));
            }
        }
        code.push_str("return table.concat(out, '\\n')");
        let (sandboxed, original) = both(&code);
        assert!(!original.starts_with("ERROR"), "{original}");
        assert_eq!(original.lines().count(), 13 * 52, "one line per (subject, pattern)");
        assert!(original.contains("number:1,number:5"), "{}", &original[..300]);
        for (i, (a, b)) in sandboxed.lines().zip(original.lines()).enumerate() {
            assert_eq!(a, b, "case {i}");
        }
        assert_eq!(sandboxed, original);
    }

    #[test]
    fn gsub_replacements_match_the_c_library() {
        let code = format!(
            "{SHOW} return table.concat({{
                try(string.gsub, 'hello world', '%w+', '%0 %0'),
                try(string.gsub, 'hello world', '(%w+)', '<%1>'),
                try(string.gsub, 'hello world', '()(%w+)', '%1'),
                try(string.gsub, 'abc', '%w', '%%'),
                try(string.gsub, 'abc', '%w', '%2'),
                try(string.gsub, 'abc', '%w', '%'),
                try(string.gsub, 'abc', '%w', '%x'),
                try(string.gsub, 'abc', '', '-'),
                try(string.gsub, 'abc', '.', {{a = 1, b = true, c = false}}),
                try(string.gsub, 'abc', '.', {{a = {{}}}}),
                try(string.gsub, 'abc', '(.)', function(c) return c:upper() .. 1.5 end),
                try(string.gsub, 'abc', '.', function(c) if c == 'b' then return nil end return 7 end),
                try(string.gsub, 'abc', '.', function() return {{}} end),
                try(string.gsub, 'abc', '.', 'x', 0),
                try(string.gsub, 'abc', '.', 'x', -1),
                try(string.gsub, 'abc', '.', 'x', 2.0),
                try(string.gsub, 'abc', '^.', 'x'),
                try(string.gsub, 'a.b.c', '%.', '/'),
                try(string.gsub, 'abc', '.', 42),
                try(string.gsub, 'abc', '.', nil),
                try(string.gsub, 12345, '3', 'x'),
                try(string.find, 12345, 3),
                try(string.find, 'abc', 'b', 10),
                try(string.find, 'abc', 'b', -10),
                try(string.find, 'abc', '', 4),
                try(string.find, 'abc', '', 5),
                try(string.match, 'key=val', '(%w+)=(%w+)', 2),
                try(string.gmatch('abc', '.', 2)),
                try(string.gmatch('', '')),
              }}, '\\n')"
        );
        let (sandboxed, original) = both(&code);
        for (i, (a, b)) in sandboxed.lines().zip(original.lines()).enumerate() {
            assert_eq!(a, b, "case {i}");
        }
        assert_eq!(sandboxed, original);
    }

    #[test]
    fn table_functions_match_the_c_library() {
        let code = format!(
            "{SHOW}
            local function dump(t) local r = {{}} for i = 1, 12 do r[i] = tostring(t[i]) end return table.concat(r, ' ') end
            local out = {{}}
            local t = {{5, 3, 8, 1, 9, 2, 7}}
            table.insert(t, 4) out[#out+1] = dump(t)
            table.insert(t, 1, 0) out[#out+1] = dump(t)
            table.insert(t, #t + 1, 10) out[#out+1] = dump(t)
            out[#out+1] = try(table.insert, t, 0, 1)
            out[#out+1] = try(table.insert, t, 20, 1)
            out[#out+1] = try(table.insert, t, 1, 2, 3)
            out[#out+1] = try(table.insert, t, 1.5, 2)
            out[#out+1] = try(table.insert, nil, 1)
            out[#out+1] = show(table.remove(t)) .. dump(t)
            out[#out+1] = show(table.remove(t, 1)) .. dump(t)
            out[#out+1] = show(table.remove(t, #t + 1)) .. dump(t)
            out[#out+1] = try(table.remove, t, #t + 2)
            out[#out+1] = show(table.remove({{}})) .. show(table.remove({{}}, 0))
            local m = {{1, 2, 3, 4, 5}}
            table.move(m, 2, 4, 1) out[#out+1] = dump(m)
            m = {{1, 2, 3, 4, 5}} table.move(m, 1, 3, 3) out[#out+1] = dump(m)
            local d = table.move({{1, 2, 3}}, 1, 3, 2, {{}}) out[#out+1] = dump(d)
            out[#out+1] = try(table.move, {{}}, 1, math.maxinteger, 2)
            out[#out+1] = try(table.move, {{}}, -1, math.maxinteger, 2)
            out[#out+1] = show(table.concat({{1, 2, 'x'}}, '-')) .. show(table.concat({{}}, 'x'))
            out[#out+1] = try(table.concat, {{1, {{}}, 3}})
            out[#out+1] = show(table.concat({{1, 2, 3, 4}}, ',', 2, 3))
            out[#out+1] = show(table.unpack({{1, 2, 3}})) .. show(table.unpack({{1, 2, 3}}, 2)) .. show(table.unpack({{1, 2}}, 0, 3))
            for _, n in ipairs({{0, 1, 2, 3, 10, 99, 100, 101, 250, 1000}}) do
              local s = {{}}
              local x = 7
              for i = 1, n do x = (x * 1103515245 + 12345) % 2147483648; s[i] = x % 50 end
              table.sort(s) out[#out+1] = table.concat(s, ' ')
              table.sort(s, function(a, b) return a > b end) out[#out+1] = table.concat(s, ' ')
              local recs = {{}}
              for i = 1, n do recs[i] = {{k = s[i] % 5, id = i}} end
              table.sort(recs, function(a, b) return a.k < b.k end)
              local ids = {{}} for i = 1, n do ids[i] = recs[i].id end
              out[#out+1] = table.concat(ids, ' ')
            end
            out[#out+1] = try(table.sort, {{3, 'a', 1}})
            out[#out+1] = try(table.sort, {{3, 2, 1}}, 5)
            out[#out+1] = try(table.sort, {{1, 2, 3, 4, 5}}, function() return true end)
            for _, n in ipairs({{'abc', 2.5, {{}}, 2.0, '2'}}) do
              local odd = setmetatable({{}}, {{__len = function() return n end}})
              out[#out+1] = try(table.insert, odd, 1) .. try(table.remove, odd)
            end
            out[#out+1] = coroutine.wrap(function() return try(table.sort, {{1, 2, 3}}, coroutine.yield) end)()
            return table.concat(out, '\\n')"
        );
        let (sandboxed, original) = both(&code);
        for (i, (a, b)) in sandboxed.lines().zip(original.lines()).enumerate() {
            assert_eq!(a, b, "line {i}");
        }
        assert_eq!(sandboxed, original);
    }

    /// `string.format('%p')` of a string names it in the VM's heap: equal for equal short
    /// strings (Lua keeps one copy), distinct for distinct long ones, the very string that
    /// `gsub` returns when nothing was replaced, and the same text in two runs.
    #[test]
    fn strings_have_a_deterministic_identity() {
        let code = "local p = function(x) return string.format('%p', x) end
            local s1, s2 = string.rep('a', 10), string.rep('aa', 5)
            local l1, l2 = string.rep('a', 300), string.rep('a', 300)
            local b1, b2 = string.rep('b', 5000), string.rep('b', 5000)
            return table.concat({ tostring(p(s1) == p(s2)), tostring(p(l1) ~= p(l2)),
              tostring(p(b1) ~= p(b2)), tostring(p(b1) == p(b1)), tostring(p(s1) ~= p(l1)),
              tostring(p(l1) == p((string.gsub(l1, 'x', 'y')))),
              tostring(p(l1) ~= p((string.gsub(l1, 'a', 'a')))),
              string.format('%5.1s|%p|%%|%-20p|', 'abc', l1, b1), p(s1), p(b2), p('') }, ' ')";
        let first = both(code).0;
        assert_eq!(first, both(code).0, "the same in two runs");
        let (checks, shown) = first.split_at(first.find("    a|").expect(&first));
        assert_eq!(checks, "true true true true true true true ");
        assert!(!shown.contains("(null)"), "{shown}");
    }

    #[test]
    fn string_and_utf8_wrappers_match_the_c_library() {
        let code = format!(
            "{SHOW} local s = 'h\\xc3\\xa9llo \\xe2\\x82\\xac'
            local r = {{}}
            for p, c in utf8.codes(s) do r[#r+1] = p .. ':' .. c end
            return table.concat({{
              table.concat(r, ' '),
              try(string.byte, 'hello', 1, -1), try(string.byte, 'hello'), try(string.byte, 'hello', 10),
              try(utf8.len, s), try(utf8.len, '\\xff'), try(utf8.codepoint, s, 1, -1),
              try(utf8.offset, s, 3), try(utf8.offset, s, -1),
              try(tonumber, '0x10'), try(tonumber, '  12  '), try(tonumber, 'z', 36), try(tonumber, '12', 100),
              try(tonumber), try(tonumber, nil),
              try(string.format, '%5.2f|%-5s|%q|%x', 3.14159, 'ab', 'a\\nb', 255),
              try(string.format, '%d', 1.5),
              try(utf8.codes, '\\x80'),
              try(function() for p, c in utf8.codes('a\\xffb') do end end),
              try(math.randomseed, 5), try(select, '#', math.random(10)),
              try(string.pack, '>i4 s1 z', 7, 'ab', 'cd'), try(string.packsize, 'i4 i8'),
              try(string.unpack, '>i4 s1 z', string.pack('>i4 s1 z', 7, 'ab', 'cd')),
              try(string.unpack, 'i4', 'ab'), try(string.rep, 'ab', 3, ','), try(string.rep, 'x', 0),
              try(string.rep, '', 3), try(string.rep, 5, 2),
            }}, '\\n')"
        );
        let (sandboxed, original) = both(&code);
        for (i, (a, b)) in sandboxed.lines().zip(original.lines()).enumerate() {
            assert_eq!(a, b, "line {i}");
        }
    }
    #[test]
    fn coroutine_and_load_match_plain_lua() {
        let code = format!(
            "{SHOW}
            local out = {{}}
            local gen = coroutine.wrap(function(a) local b = coroutine.yield(a + 1) return b * 2 end)
            out[#out+1] = show(gen(1)) .. show(gen(5)) .. try(gen)
            local co = coroutine.create(function(...) coroutine.yield(...) error('boom') end)
            out[#out+1] = show(coroutine.resume(co, 1, nil, 3)) .. coroutine.status(co)
            out[#out+1] = show(coroutine.resume(co)) .. coroutine.status(co) .. show(coroutine.resume(co))
            out[#out+1] = show(coroutine.isyieldable()) .. show(select(2, coroutine.running()))
            local c2 = coroutine.create(function() local x <close> = setmetatable({{}}, {{__close = function() out[#out+1] = 'closed' end}}) coroutine.yield() end)
            coroutine.resume(c2)
            out[#out+1] = show(coroutine.close(c2)) .. coroutine.status(c2)
            out[#out+1] = try(coroutine.resume, 1) .. try(coroutine.wrap, 1) .. try(coroutine.yield, 1)
            out[#out+1] = show(load('return 1 + ...')(2)) .. show(load('syntax error here'))
            out[#out+1] = show(load('return x', 'chunk', 't', {{x = 7}})()) .. type(load('return x', '=c', 't', nil))
            out[#out+1] = show(load('return 1', 'c', 'b')) .. try(load, 'return 1', {{}}) .. try(load)
            out[#out+1] = try(load, {{}}) .. show(load(42)) .. show(load('return 42', '=n')())
            local parts = {{'return ', '1 ', '+ 2'}}
            local i = 0
            out[#out+1] = show(load(function() i = i + 1 return parts[i] end)())
            out[#out+1] = show(pcall(load('error(\"e\")', '@f.lua')))
            for _, t in ipairs({{0, 86399, 951782400, 1767225600, -86400, 4102444800}}) do
              out[#out+1] = os.date('!%Y-%m-%d %H:%M:%S %a %A %b %B %j %p %I %y %D %e %F %T %u %w', t)
                .. os.date('!%c|%x|%X|%%', t)
              local d = os.date('!*t', t)
              out[#out+1] = d.year .. d.month .. d.day .. d.hour .. d.min .. d.sec .. d.wday .. d.yday .. tostring(d.isdst)
            end
            out[#out+1] = try(os.date, '!%Ez', 0) .. try(os.date, '!%Q', 0)
            return table.concat(out, '\\n')"
        );
        let (sandboxed, original) = both(&code);
        assert!(original.contains("1[boolean:true]dead"), "{original}");
        for (i, (a, b)) in sandboxed.lines().zip(original.lines()).enumerate() {
            assert_eq!(a, b, "line {i}");
        }
        assert_eq!(sandboxed, original);
    }

    #[test]
    fn os_time_is_the_calendar_in_utc() {
        let (sandboxed, _) = both(
            "return table.concat({ os.time{year = 2000, month = 3, day = 1, hour = 0},
               os.time{year = 2026, month = 13, day = 1}, os.time{year = 1970, month = 1, day = 1},
               tostring(os.time() == os.time()), tostring(os.time() >= 1767225600),
               select(2, pcall(os.time, {year = 2000})), select(2, pcall(function() return os.getenv end)) }, ' ')",
        );
        let words: Vec<&str> = sandboxed.splitn(6, ' ').collect();
        assert_eq!(&words[..5], ["951868800", "1798804800", "43200", "true", "true"], "{sandboxed}");
        assert!(sandboxed.contains("field 'month' missing in date table"), "{sandboxed}");
        assert!(sandboxed.contains("os.getenv: the sandbox leaves out"), "{sandboxed}");
    }
}
