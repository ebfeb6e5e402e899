//! Lua 5.4 bots: a fresh, curated VM per match, metered by an instruction hook, a metering
//! allocator and charged library wrappers.
//!
//! Why each piece exists (see also sandbox-research.md §1):
//! * `set_global_hook` rather than `set_hook`, and no `coroutine` library: a per-thread hook is
//!   dropped in coroutines, and each new coroutine restarts the hook count.
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

use mlua::chunk::ChunkMode;
use mlua::{Function, HookTriggers, Lua, LuaOptions, LuaString, MultiValue, StdLib, Value, VmState};

use self::meter::{metered_alloc, Meter, Trip};
use crate::log::LogBook;
use crate::{Fault, Limits, Verdict, LUA_HOOK_STEP, MAX_LUA_SOURCE, MAX_REPLY_BYTES};

const PRELUDE: &str = include_str!("prelude.lua");

/// A checked Lua source, shared by every match of that bot.
pub(crate) struct LuaProgram {
    chunk_name: String,
    source: Vec<u8>,
}

impl LuaProgram {
    /// Checks that `bytes` is Lua source text that parses.
    pub(crate) fn load(name: &str, bytes: &[u8]) -> Result<LuaProgram, Fault> {
        if bytes.len() > MAX_LUA_SOURCE {
            return Err(Fault::load(format!(
                "Lua source is {} bytes; the limit is {MAX_LUA_SOURCE}",
                bytes.len()
            )));
        }
        if bytes.starts_with(b"\x1bLua") {
            return Err(Fault::load("precompiled Lua bytecode is not accepted; submit the source text"));
        }
        let program = LuaProgram { chunk_name: format!("@{name}"), source: bytes.to_vec() };
        // Parse in a bare VM (no libraries, nothing runs) to report syntax errors at load.
        let lua = Lua::new_with(StdLib::NONE, LuaOptions::default())
            .map_err(|e| Fault::load(format!("cannot create a Lua state: {e}")))?;
        lua.load(&program.source[..])
            .set_name(&program.chunk_name)
            .set_mode(ChunkMode::Text)
            .into_function()
            .map_err(|e| Fault::load(syntax_message(&e)))?;
        Ok(program)
    }

    /// A fresh VM with the bot's chunk run and `init(info)` called, under `limits.fuel_init`.
    pub(crate) fn start(&self, limits: &Limits, seed: u64, info_json: &str) -> Result<LuaInstance, Fault> {
        let mut inst = LuaInstance::new(limits, seed)?;
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
    // `Drop` restores the original allocator before these fields are dropped (which closes
    // the VM), so `meter` must outlive `lua`: it does, as fields drop in order and the VM is
    // closed by dropping `lua`.
    lua: Lua,
    act: Option<Function>,
    meter: Arc<Meter>,
    log: Arc<Mutex<LogBook>>,
    limits: Limits,
    fuel_used_last: u64,
    fuel_total: u64,
    fuel_init: u64,
    allocator_installed: bool,
}

impl LuaInstance {
    fn new(limits: &Limits, seed: u64) -> Result<LuaInstance, Fault> {
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

        let log = Arc::new(Mutex::new(LogBook::new(limits.log_bytes_per_match)));
        let mut inst = LuaInstance {
            lua,
            act: None,
            meter,
            log,
            limits: limits.clone(),
            fuel_used_last: 0,
            fuel_total: 0,
            fuel_init: 0,
            allocator_installed: true,
        };
        inst.install_prelude(seed).map_err(host_err)?;
        Ok(inst)
    }

    /// Runs the prelude: library curation, charged wrappers, seeded RNG, log capture.
    fn install_prelude(&mut self, seed: u64) -> mlua::Result<()> {
        let lua = &self.lua;
        let host = lua.create_table()?;

        let m = self.meter.clone();
        host.set(
            "charge",
            lua.create_function(move |_, n: f64| {
                let n = if n.is_nan() || n <= 0.0 { 0 } else { n as u64 };
                m.charge(n).map_err(|()| mlua::Error::runtime(m.trip_message()))
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
                m.charge(bytes as u64 / 8).map_err(|()| mlua::Error::runtime(m.trip_message()))
            })?,
        )?;
        let m = self.meter.clone();
        let log = self.log.clone();
        host.set(
            "emit",
            lua.create_function(move |_, line: LuaString| {
                let bytes = line.as_bytes();
                m.charge(1 + bytes.len() as u64 / 16).map_err(|()| mlua::Error::runtime(m.trip_message()))?;
                log.lock().unwrap_or_else(|p| p.into_inner()).push(&bytes);
                Ok(())
            })?,
        )?;
        let m = self.meter.clone();
        host.set("budget_left", lua.create_function(move |_, ()| Ok(m.remaining()))?)?;
        host.set("seed", seed as i64)?;

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
                let mut state = pattern::gmatch_start(s, p, init);
                let m = m.clone();
                lua.create_function_mut(move |lua, ()| pattern::gmatch_next(lua, &m, &mut state))
            })?,
        )?;

        // Seed math.random before the prelude replaces math.randomseed.
        let randomseed: Function = lua.globals().get::<mlua::Table>("math")?.get("randomseed")?;
        randomseed.call::<()>(seed as i64)?;

        lua.load(PRELUDE).set_name("=sandbox").set_mode(ChunkMode::Text).call::<()>(host)
    }

    /// Re-arms the instruction hook for a new phase (also resets the hook's count, so a
    /// phase's fuel does not depend on the previous one).
    fn arm_hook(&self) -> mlua::Result<()> {
        let m = self.meter.clone();
        self.lua.set_global_hook(
            HookTriggers::new().every_nth_instruction(LUA_HOOK_STEP),
            move |_, _| match m.on_hook() {
                Ok(()) => Ok(VmState::Continue),
                Err(()) => Err(mlua::Error::runtime(m.trip_message())),
            },
        )
    }

    fn run_init(&mut self, program: &LuaProgram, info_json: &str) -> Result<(), Fault> {
        let meter = self.meter.clone();
        meter.begin(self.limits.fuel_init, self.limits.wall_per_decision);
        let info = match serde_json::from_str::<serde_json::Value>(info_json) {
            Ok(v) => v,
            Err(e) => return Err(self.host_fault(format!("init info is not valid JSON: {e}"))),
        };
        let result = (|| -> mlua::Result<Option<Function>> {
            self.arm_hook()?;
            meter.set_charging(true);
            let chunk = self
                .lua
                .load(&program.source[..])
                .set_name(&program.chunk_name)
                .set_mode(ChunkMode::Text)
                .into_function()?;
            chunk.call::<()>(())?;
            let globals = self.lua.globals();
            let act = match globals.raw_get::<Value>("act")? {
                Value::Function(f) => Some(f),
                _ => None,
            };
            if let Value::Function(init) = globals.raw_get::<Value>("init")? {
                meter.set_charging(false);
                let info = json::to_lua(&self.lua, &info)?;
                meter.set_charging(true);
                init.call::<()>(info)?;
            }
            Ok(act)
        })();
        meter.set_charging(false);
        self.fuel_init = meter.total();
        self.fuel_used_last = self.fuel_init;
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
        let obs = match serde_json::from_str::<serde_json::Value>(observation_json) {
            Ok(v) => v,
            Err(e) => return Err(self.host_fault(format!("observation is not valid JSON: {e}"))),
        };
        let result = (|| -> mlua::Result<Value> {
            let obs = json::to_lua(&self.lua, &obs)?;
            self.arm_hook()?;
            meter.set_charging(true);
            act.call::<Value>(obs)
        })();
        meter.set_charging(false);
        let used = meter.total();
        self.fuel_used_last = used;
        self.fuel_total = self.fuel_total.saturating_add(used);
        if meter.trip_state() != Trip::None {
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
        if !self.allocator_installed {
            return;
        }
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
}
