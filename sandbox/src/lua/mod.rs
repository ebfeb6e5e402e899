//! Lua 5.4 bots: a fresh, curated VM per match, metered by an instruction hook, a metering
//! allocator and charged library wrappers.
//!
//! Why each piece exists (see also sandbox-research.md §1):
//! * A raw count hook on the main state ([`meter`]'s `fuel_hook`), not mlua's hook callbacks
//!   (which would run pending `__close` metamethods with hooks off when they fail), and no
//!   `coroutine` library (each new coroutine would restart the hook's count).
//! * Sticky exhaustion ([`meter::Meter::trip`]): otherwise `pcall` swallows the budget error.
//! * The metering allocator: `..`, `string.rep`, table growth and every other allocation cost
//!   fuel, so work that the VM does inside one instruction is still paid for.
//! * The prelude (`prelude.lua`) and the Rust pattern matcher: library functions that loop
//!   without allocating are charged for their steps, or rewritten in metered Lua.
//! * Text-only chunks: bytecode can crash the interpreter.
//! * No `__gc`: finalizers run with hooks off, and at teardown.

mod json;
mod meter;
mod pattern;

use std::sync::{Arc, Mutex};
#[cfg(test)]
use std::time::Duration;

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaOptions, LuaString, MultiValue, StdLib, Value};

pub(crate) use self::json::parse_to_lua;
pub(crate) use self::meter::Meter;
use self::meter::{metered_alloc, Trip};
use crate::log::LogBook;
use crate::watchdog::Watchlist;
use crate::{Fault, Limits, Verdict, LUA_HOOK_STEP, MAX_LUA_SOURCE, MAX_REPLY_BYTES};

const PRELUDE: &str = include_str!("prelude.lua");

/// Fuel charged for each call from Lua into a host function (about the cost of the call).
pub(crate) const HOST_CALL_FUEL: u64 = 10;
/// Fuel charged for each `print` line, plus 1 per 8 bytes.
const EMIT_FUEL: u64 = 50;

/// A checked Lua source, shared by every match of that bot.
///
/// The source is compiled once, here, and every match loads the compiled function (the
/// bytecode that *our* compiler made from the text: a bot's own bytecode is never loaded).
pub(crate) struct LuaProgram {
    chunk_name: String,
    bytecode: Vec<u8>,
    prelude: Arc<[u8]>,
    watch: Arc<Watchlist>,
}

/// Compiles the prelude once per sandbox.
pub(crate) fn compile_prelude() -> Result<Vec<u8>, String> {
    let lua = Lua::new_with(StdLib::NONE, LuaOptions::default()).map_err(|e| format!("Lua: {e}"))?;
    let f = lua
        .load(PRELUDE)
        .set_name("=sandbox")
        .set_mode(ChunkMode::Text)
        .into_function()
        .map_err(|e| format!("the sandbox's Lua prelude does not compile: {e}"))?;
    Ok(f.dump(true))
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
        if bytes.starts_with(b"\x1bLua") {
            return Err(Fault::load("precompiled Lua bytecode is not accepted; submit the source text"));
        }
        let chunk_name = format!("@{name}");
        // Compile in a bare VM (no libraries, nothing runs): syntax errors are reported at load.
        let lua = Lua::new_with(StdLib::NONE, LuaOptions::default())
            .map_err(|e| Fault::load(format!("cannot create a Lua state: {e}")))?;
        let function = lua
            .load(bytes)
            .set_name(&chunk_name)
            .set_mode(ChunkMode::Text)
            .into_function()
            .map_err(|e| Fault::load(syntax_message(&e)))?;
        // Not stripped: tracebacks keep the file name and line numbers.
        let bytecode = function.dump(false);
        Ok(LuaProgram { chunk_name, bytecode, prelude, watch })
    }

    /// A fresh VM with the bot's chunk run and `init(info)` called, under `limits.fuel_init`.
    pub(crate) fn start(&self, limits: &Limits, seed: u64, info_json: &str) -> Result<LuaInstance, Fault> {
        let mut inst = LuaInstance::new(limits, seed, self.watch.clone(), &self.prelude)?;
        crate::stack::on_guest_stack(|| inst.run_init(self, info_json))?;
        Ok(inst)
    }
}

fn syntax_message(e: &mlua::Error) -> String {
    match e {
        mlua::Error::SyntaxError { message, .. } => message.clone(),
        other => other.to_string(),
    }
}

/// One Lua bot in one match.
pub(crate) struct LuaInstance {
    // `Drop` hands the VM its original allocator back before the fields are dropped (dropping
    // `lua` closes the VM), so closing it never calls into `meter`.
    lua: Lua,
    act: Option<Function>,
    meter: Arc<Meter>,
    watch: Arc<Watchlist>,
    log: Arc<Mutex<LogBook>>,
    /// The parsed observation (or init info), reused from one decision to the next.
    tape: json::Tape,
    limits: Limits,
    fuel_used_last: u64,
    fuel_total: u64,
    fuel_init: u64,
}

impl LuaInstance {
    fn new(limits: &Limits, seed: u64, watch: Arc<Watchlist>, prelude: &[u8]) -> Result<LuaInstance, Fault> {
        let host_err = |e: mlua::Error| Fault::new(Verdict::Crash, format!("sandbox: {e}"));
        let lua = Lua::new_with(
            StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
            LuaOptions::default(),
        )
        .map_err(host_err)?;
        // A non-zero limit makes mlua guard its own operations against allocation failure;
        // the real cap is enforced by the metering allocator.
        lua.set_memory_limit(usize::MAX / 4).map_err(host_err)?;

        // Install the metering allocator in front of mlua's.
        let mut original = None;
        // SAFETY: only reads the current allocator.
        unsafe {
            lua.exec_raw::<()>((), |state| {
                let mut ud = std::ptr::null_mut();
                let f = mlua::ffi::lua_getallocf(state, &mut ud);
                original = Some((f, ud, state));
            })
        }
        .map_err(host_err)?;
        let (f, ud, _) = original.ok_or_else(|| host_err(mlua::Error::StackError))?;
        let meter = Arc::new(Meter::new(f, ud, limits.memory_bytes));
        let meter_ptr = Arc::as_ptr(&meter) as *mut std::ffi::c_void;
        let mut main_state = std::ptr::null_mut();
        // SAFETY: `metered_alloc` forwards every request to the original allocator, so blocks
        // allocated before and after the switch are owned by the same allocator; `meter` is
        // kept alive by the instance until `Drop` has restored the original allocator.
        unsafe {
            lua.exec_raw::<()>((), |state| {
                mlua::ffi::lua_setallocf(state, metered_alloc, meter_ptr);
                main_state = state;
            })
        }
        .map_err(host_err)?;
        meter.set_main_state(main_state);
        // SAFETY: `main_state` is this VM's live main state and no Lua code is running.
        unsafe { meter.probe_hookcount() };

        let log = Arc::new(Mutex::new(LogBook::new(limits.log_bytes_per_match)));
        let mut inst = LuaInstance {
            lua,
            act: None,
            meter,
            watch,
            log,
            tape: json::Tape::default(),
            limits: limits.clone(),
            fuel_used_last: 0,
            fuel_total: 0,
            fuel_init: 0,
        };
        inst.install_prelude(seed, prelude).map_err(host_err)?;
        Ok(inst)
    }

    /// Runs the prelude: library curation, charged wrappers, seeded RNG, log capture.
    fn install_prelude(&mut self, seed: u64, prelude: &[u8]) -> mlua::Result<()> {
        let lua = &self.lua;
        let host = lua.create_table()?;

        let m = self.meter.clone();
        host.set(
            "charge",
            lua.create_function(move |_, n: f64| {
                let n = if n.is_nan() || n <= 0.0 { 0 } else { n as u64 };
                m.charge(HOST_CALL_FUEL.saturating_add(n))
                    .map_err(|()| mlua::Error::runtime(m.trip_message()))
            })?,
        )?;
        let m = self.meter.clone();
        host.set(
            "charge_strings",
            lua.create_function(move |_, args: MultiValue| {
                let bytes: usize = args
                    .iter()
                    .map(|v| match v {
                        Value::String(s) => s.as_bytes().len(),
                        _ => 0,
                    })
                    .sum();
                m.charge(HOST_CALL_FUEL + bytes as u64 / 8)
                    .map_err(|()| mlua::Error::runtime(m.trip_message()))
            })?,
        )?;
        let m = self.meter.clone();
        let log = self.log.clone();
        host.set(
            "emit",
            lua.create_function(move |_, line: LuaString| {
                let bytes = line.as_bytes();
                m.charge(EMIT_FUEL + bytes.len() as u64 / 8)
                    .map_err(|()| mlua::Error::runtime(m.trip_message()))?;
                log.lock().unwrap_or_else(|p| p.into_inner()).push(&bytes);
                Ok(())
            })?,
        )?;
        let m = self.meter.clone();
        host.set(
            "budget_left",
            lua.create_function(move |_, ()| {
                m.charge(HOST_CALL_FUEL).map_err(|()| mlua::Error::runtime(m.trip_message()))?;
                Ok(m.remaining_exact())
            })?,
        )?;
        host.set("seed", seed as i64)?;
        host.set("memory_limit", self.meter.memory_limit() as f64)?;

        let m = self.meter.clone();
        host.set("find", lua.create_function(move |lua, args| pattern::find_aux(lua, &m, args, true))?)?;
        let m = self.meter.clone();
        host.set("match", lua.create_function(move |lua, args| pattern::find_aux(lua, &m, args, false))?)?;
        let m = self.meter.clone();
        host.set("gsub", lua.create_function(move |lua, args| pattern::gsub(lua, &m, args))?)?;
        let m = self.meter.clone();
        host.set(
            "gmatch",
            lua.create_function(move |lua, (s, p, init): (LuaString, LuaString, Option<i64>)| {
                pattern::charge_call(&m)?;
                let mut state = pattern::gmatch_start(s, p, init);
                let m = m.clone();
                lua.create_function_mut(move |lua, ()| pattern::gmatch_next(lua, &m, &mut state))
            })?,
        )?;

        // Seed math.random before the prelude replaces math.randomseed.
        let randomseed: Function = lua.globals().get::<mlua::Table>("math")?.get("randomseed")?;
        randomseed.call::<()>(seed as i64)?;

        // Host-made bytecode (`compile_prelude`), not the text: parsing it every match cost more
        // than everything else in starting a VM.
        lua.load(prelude).set_name("=sandbox").set_mode(ChunkMode::Binary).call::<()>(host)
    }

    /// Re-arms the instruction hook for a new phase (also resets the hook's count, so a
    /// phase's fuel does not depend on the previous one).
    fn arm_hook(&self) -> mlua::Result<()> {
        self.meter.arm();
        Ok(())
    }

    fn run_init(&mut self, program: &LuaProgram, info_json: &str) -> Result<(), Fault> {
        let meter = self.meter.clone();
        meter.begin(self.limits.fuel_init, self.limits.wall_per_decision);
        if let Err(e) = self.tape.parse(info_json) {
            return Err(self.host_fault(format!("init info is not valid JSON: {e}")));
        }
        let watching = self.watch.watch(&meter);
        let result = (|| -> mlua::Result<Option<Function>> {
            self.arm_hook()?;
            meter.set_charging(true);
            let chunk = self
                .lua
                .load(&program.bytecode[..])
                .set_name(&program.chunk_name)
                .set_mode(ChunkMode::Binary) // compiled by `LuaProgram::load` from the text
                .into_function()?;
            chunk.call::<()>(())?;
            let globals = self.lua.globals();
            let act = match globals.raw_get::<Value>("act")? {
                Value::Function(f) => Some(f),
                _ => None,
            };
            if let Value::Function(init) = globals.raw_get::<Value>("init")? {
                meter.set_charging(false);
                let info = json::to_lua(&self.lua, &self.tape)?;
                meter.set_charging(true);
                init.call::<()>(info)?;
            }
            Ok(act)
        })();
        drop(watching);
        meter.set_charging(false);
        meter.end_phase();
        self.fuel_init = meter.total();
        self.fuel_used_last = self.fuel_init;
        if result.is_ok() && self.fuel_init > self.limits.fuel_init {
            meter.trip(Trip::Fuel);
        }
        match result {
            Ok(Some(act)) if meter.trip_state() == Trip::None => {
                self.act = Some(act);
                Ok(())
            }
            Ok(None) if meter.trip_state() == Trip::None => {
                Err(self.fault(Verdict::Load, "the bot does not define a global function `act`".into(), None))
            }
            Ok(_) => Err(self.classify(mlua::Error::runtime(meter.trip_message()), true)),
            Err(mlua::Error::SyntaxError { message, .. }) => Err(self.fault(Verdict::Load, message, None)),
            Err(e) => Err(self.classify(e, true)),
        }
    }

    /// One decision.
    pub(crate) fn act(&mut self, observation_json: &str) -> Result<String, Fault> {
        crate::stack::on_guest_stack(|| self.act_inner(observation_json))
    }

    fn act_inner(&mut self, observation_json: &str) -> Result<String, Fault> {
        let meter = self.meter.clone();
        let left = self.limits.fuel_per_match.saturating_sub(self.fuel_total);
        let budget = self.limits.fuel_per_decision.min(left);
        meter.begin(budget, self.limits.wall_per_decision);
        self.fuel_used_last = 0;
        if budget == 0 {
            return Err(self.fault(
                Verdict::Fuel,
                format!("the match's fuel bank of {} is used up", self.limits.fuel_per_match),
                None,
            ));
        }
        let Some(act) = self.act.clone() else {
            return Err(self.fault(Verdict::Crash, "the bot has no `act`".into(), None));
        };
        if let Err(e) = self.tape.parse(observation_json) {
            return Err(self.host_fault(format!("observation is not valid JSON: {e}")));
        }
        let watching = self.watch.watch(&meter);
        let result = (|| -> mlua::Result<Value> {
            let obs = json::to_lua(&self.lua, &self.tape)?;
            self.arm_hook()?;
            meter.set_charging(true);
            act.call::<Value>(obs)
        })();
        drop(watching);
        meter.set_charging(false);
        meter.end_phase();
        let used = meter.total();
        self.fuel_used_last = used;
        self.fuel_total = self.fuel_total.saturating_add(used);
        if meter.trip_state() != Trip::None || (result.is_ok() && used > budget) {
            // (A reply that comes back over budget is late: the hook only checks every
            // LUA_HOOK_STEP instructions, and the remainder is booked at the end.)
            meter.trip(Trip::Fuel);
            return Err(self.classify(mlua::Error::runtime(meter.trip_message()), false));
        }
        match result {
            Ok(Value::String(s)) => self.reply(&s),
            Ok(other) => Err(self.fault(
                Verdict::Invalid,
                format!("act returned {}, not a string", describe(&other)),
                None,
            )),
            Err(e) => Err(self.classify(e, false)),
        }
    }

    fn reply(&self, s: &LuaString) -> Result<String, Fault> {
        let bytes = s.as_bytes();
        if bytes.len() > MAX_REPLY_BYTES {
            return Err(self.fault(
                Verdict::Invalid,
                format!("the reply is {} bytes long; the limit is {MAX_REPLY_BYTES}", bytes.len()),
                None,
            ));
        }
        match std::str::from_utf8(&bytes) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => Err(self.fault(Verdict::Invalid, format!("the reply is not valid UTF-8: {e}"), None)),
        }
    }

    /// Maps a Lua error (after the meter has had its say) to a fault.
    fn classify(&self, e: mlua::Error, init: bool) -> Fault {
        let phase = if init { "init" } else { "decision" };
        match self.meter.trip_state() {
            Trip::Fuel => {
                let limit = self.meter.limit();
                let msg = if !init && limit < self.limits.fuel_per_decision {
                    format!(
                        "fuel exhausted: the match's fuel bank of {} is used up",
                        self.limits.fuel_per_match
                    )
                } else {
                    format!("fuel exhausted: the {phase} budget is {limit}")
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
        let (mut message, mut trace, is_memory) = flatten(&e);
        if is_memory || (self.meter.memory_denied() && message.contains("not enough memory")) {
            return self.fault(
                Verdict::Memory,
                format!("memory cap of {} bytes reached: {message}", self.meter.memory_limit()),
                trace,
            );
        }
        if let Some(at) = message.find("\nstack traceback:") {
            let t = message[at + 1..].to_owned();
            message.truncate(at);
            trace = Some(match trace {
                Some(outer) => format!("{t}\n{outer}"),
                None => t,
            });
        }
        let verdict = if message.contains("stack overflow") { Verdict::Stack } else { Verdict::Crash };
        self.fault(verdict, message, trace)
    }

    fn fault(&self, verdict: Verdict, message: String, trace: Option<String>) -> Fault {
        Fault {
            verdict,
            fuel_used: self.fuel_used_last,
            fuel_total: self.fuel_total,
            memory_peak: self.meter.peak(),
            ..Fault::new(verdict, message)
        }
        .with_trace(trace)
    }

    /// A failure caused by the caller (malformed JSON), reported without blaming the bot's
    /// numbers.
    fn host_fault(&self, message: String) -> Fault {
        self.fault(Verdict::Crash, format!("host error: {message}"), None)
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
        self.log.lock().unwrap_or_else(|p| p.into_inner()).take()
    }
}

impl Drop for LuaInstance {
    fn drop(&mut self) {
        // Nothing of the bot can run at teardown (no __gc), but the VM frees its blocks through
        // the allocator: hand it back to mlua first, so `meter` is not needed any more.
        self.meter.unlimit();
        let (f, ud) = self.meter.original();
        // SAFETY: restores the allocator that owns every block (ours only forwarded to it).
        let restored = unsafe { self.lua.exec_raw::<()>((), |state| mlua::ffi::lua_setallocf(state, f, ud)) };
        if restored.is_err() {
            // The state still points at `meter`: keep it alive for as long as the process.
            std::mem::forget(self.meter.clone());
        }
    }
}

/// A short description of a returned value, for `invalid` messages.
fn describe(v: &Value) -> String {
    match v {
        Value::Nil => "nil".into(),
        Value::Boolean(b) => format!("a boolean ({b})"),
        Value::Integer(i) => format!("a number ({i})"),
        Value::Number(n) => format!("a number ({n})"),
        Value::Table(_) => "a table".into(),
        Value::Function(_) => "a function".into(),
        other => format!("a {}", other.type_name()),
    }
}

/// The innermost message of an mlua error, the traceback if any, and whether it is a memory
/// error.
fn flatten(e: &mlua::Error) -> (String, Option<String>, bool) {
    match e {
        mlua::Error::CallbackError { traceback, cause } => {
            let (m, t, mem) = flatten(cause);
            (m, t.or_else(|| Some(traceback.clone())), mem)
        }
        mlua::Error::WithContext { cause, .. } => flatten(cause),
        mlua::Error::MemoryError(m) => (m.clone(), None, true),
        mlua::Error::RuntimeError(m) => (m.clone(), None, false),
        other => (other.to_string(), None, false),
    }
}

/// Checks, once per `Sandbox`, that the vendored Lua was built with the deterministic hash seed
/// and sort pivot (`.cargo/config.toml`): the iteration order of `pairs` over a fixed set of
/// string keys must be the pinned one.
pub(crate) fn self_check() -> Result<(), String> {
    let order = pairs_probe().map_err(|e| format!("Lua self-check failed: {e}"))?;
    if order != PINNED_PAIRS_ORDER {
        return Err(format!(
            "the vendored Lua was not built with the sandbox's determinism defines \
             (pairs order {order:?}); build from the workspace so .cargo/config.toml applies, \
             after `cargo clean -p mlua-sys`"
        ));
    }
    Ok(())
}

/// The order in which `pairs` visits [`PAIRS_PROBE_KEYS`] when Lua is built with
/// `-Dluai_makeseed(L)=0x5eedu`.
pub(crate) const PINNED_PAIRS_ORDER: &str =
    "bravo,hotel,charlie,golf,lima,alpha,juliet,india,delta,kilo,foxtrot,echo";

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
        let sandboxed = inst
            .lua
            .load(code)
            .set_name("=t")
            .call::<LuaString>(())
            .map_or_else(|e| format!("ERROR {e}"), |s| s.to_string_lossy());
        let plain = Lua::new_with(StdLib::ALL_SAFE, LuaOptions::default()).unwrap();
        let original = plain
            .load(code)
            .set_name("=t")
            .call::<LuaString>(())
            .map_or_else(|e| format!("ERROR {e}"), |s| s.to_string_lossy());
        (sandboxed, original)
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
            return table.concat(out, '\\n')"
        );
        let (sandboxed, original) = both(&code);
        for (i, (a, b)) in sandboxed.lines().zip(original.lines()).enumerate() {
            assert_eq!(a, b, "line {i}");
        }
        assert_eq!(sandboxed, original);
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
}
