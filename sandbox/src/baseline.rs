//! Unmetered runners, for benchmark baselines only (`arena bench` measures the cost of fuel
//! metering against them). They are **not sandboxes**: no fuel, no memory cap, no wall clock,
//! no library curation. Never run an untrusted bot with them.

use std::sync::Arc;

use mlua::ffi;
use wasmtime::{Engine, Linker, Memory, Module, Store, TypedFunc};

use crate::lua::{Meter, Tape, Vm};

/// A Lua program's `act` in a plain VM: the sandbox's libraries, memory and observation
/// conversion, without the fuel hook, the metering allocator or the prelude. `math.random` is
/// seeded as the sandbox seeds it; `budget_left()` answers a large number and `print` does
/// nothing, so anytime bots do the same work as under a huge budget.
pub struct PlainLua {
    vm: Vm,
    tape: Tape,
}

unsafe extern "C-unwind" fn plain_budget_left(l: *mut ffi::lua_State) -> std::ffi::c_int {
    // SAFETY: one free slot in a C function.
    unsafe { ffi::lua_pushinteger(l, i64::MAX / 2) };
    1
}

unsafe extern "C-unwind" fn plain_print(_l: *mut ffi::lua_State) -> std::ffi::c_int {
    0
}

impl PlainLua {
    /// Runs the chunk of `source` (with `math.random` seeded from `seed`) and keeps its
    /// global `act`.
    ///
    /// # Errors
    /// The source does not compile or run, or defines no `act`.
    pub fn new(source: &str, seed: u64) -> Result<PlainLua, String> {
        let vm = Vm::new(Arc::new(Meter::new(u64::MAX)), crate::log::LogBook::new(0), false)?;
        vm.restart_gc();
        let l = vm.state();
        // SAFETY: pushes with room on a fresh stack; the calls are protected.
        unsafe {
            ffi::lua_pushcfunction(l, plain_budget_left);
            ffi::lua_setglobal(l, c"budget_left".as_ptr());
            ffi::lua_pushcfunction(l, plain_print);
            ffi::lua_setglobal(l, c"print".as_ptr());
            ffi::lua_getglobal(l, c"math".as_ptr());
            ffi::lua_getfield(l, -1, c"randomseed".as_ptr());
            ffi::lua_remove(l, -2);
            ffi::lua_pushinteger(l, seed as i64);
            vm.call(1, 0).map_err(|f| f.message)?;
            vm.load(source.as_bytes(), c"=plain", c"t").map_err(|f| f.message)?;
            vm.call(0, 0).map_err(|f| f.message)?;
            vm.push_raw_global(c"act");
            if ffi::lua_type(l, -1) != ffi::LUA_TFUNCTION {
                return Err("the chunk defines no function `act`".into());
            }
        }
        Ok(PlainLua { vm, tape: Tape::default() })
    }

    /// One call of `act` with the observation converted as the sandbox converts it.
    ///
    /// # Errors
    /// Invalid JSON, a Lua error, or a reply that is not a string.
    pub fn act(&mut self, observation_json: &str) -> Result<String, String> {
        self.tape.parse(observation_json).map_err(|e| e.to_string())?;
        let l = self.vm.state();
        // SAFETY: slot 1 holds `act`; the calls are protected; the stack returns to slot 1.
        unsafe {
            ffi::lua_pushvalue(l, 1);
            let called = crate::lua::push_observation(&self.vm, &self.tape).and_then(|()| self.vm.call(1, 1));
            let out = match called {
                Err(f) => Err(f.message),
                Ok(()) if ffi::lua_type(l, -1) == ffi::LUA_TSTRING => {
                    let mut len = 0;
                    let p = ffi::lua_tolstring(l, -1, &mut len);
                    Ok(String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned())
                }
                Ok(()) => Err("act returned something other than a string".into()),
            };
            ffi::lua_settop(l, 1);
            out
        }
    }
}

/// A WASM module's `act` on the sandbox's engine configuration without fuel metering (the
/// epoch check stays). The sandbox's imports are stubs: `log` drops its line, `budget_left`
/// answers a large number.
pub struct PlainWasm {
    store: Store<()>,
    instance: wasmtime::Instance,
    memory: Memory,
    alloc: TypedFunc<i32, i32>,
    act: TypedFunc<(i32, i32), i64>,
}

impl PlainWasm {
    /// Compiles and instantiates `bytes` (binary or text).
    ///
    /// # Errors
    /// The module does not compile, has other imports, or lacks the ABI's exports.
    pub fn new(bytes: &[u8]) -> Result<PlainWasm, String> {
        let mut config = crate::wasm::config();
        config.consume_fuel(false);
        let engine = Engine::new(&config).map_err(|e| format!("{e:#}"))?;
        let module = Module::new(&engine, bytes).map_err(|e| format!("{e:#}"))?;
        let mut store = Store::new(&engine, ());
        store.set_epoch_deadline(u64::MAX / 2);
        let mut linker = Linker::new(&engine);
        linker
            .func_wrap("env", "log", |_: i32, _: i32| {})
            .and_then(|l| l.func_wrap("env", "budget_left", || i64::MAX / 2))
            .map_err(|e| format!("{e:#}"))?;
        let instance = linker.instantiate(&mut store, &module).map_err(|e| format!("{e:#}"))?;
        let memory = instance.get_memory(&mut store, "memory").ok_or("no memory export")?;
        let alloc = instance.get_typed_func(&mut store, "alloc").map_err(|e| format!("{e:#}"))?;
        let act = instance.get_typed_func(&mut store, "act").map_err(|e| format!("{e:#}"))?;
        Ok(PlainWasm { store, instance, memory, alloc, act })
    }

    /// Calls the module's `init` export, if it has one, with `info` (the init info JSON).
    ///
    /// # Errors
    /// A trap.
    pub fn init(&mut self, info: &str) -> Result<(), String> {
        let Ok(init) = self.instance.get_typed_func::<(i32, i32), ()>(&mut self.store, "init") else {
            return Ok(());
        };
        let input = info.as_bytes();
        let ptr = self.alloc.call(&mut self.store, input.len() as i32).map_err(|e| format!("{e:#}"))?;
        self.memory.write(&mut self.store, ptr as u32 as usize, input).map_err(|e| e.to_string())?;
        init.call(&mut self.store, (ptr, input.len() as i32)).map_err(|e| format!("{e:#}"))
    }

    /// One call of `act` with the observation's bytes, as the sandbox makes it.
    ///
    /// # Errors
    /// A trap, or a reply outside memory.
    pub fn act(&mut self, observation_json: &str) -> Result<String, String> {
        let input = observation_json.as_bytes();
        let ptr = self.alloc.call(&mut self.store, input.len() as i32).map_err(|e| format!("{e:#}"))?;
        self.memory.write(&mut self.store, ptr as u32 as usize, input).map_err(|e| e.to_string())?;
        let packed =
            self.act.call(&mut self.store, (ptr, input.len() as i32)).map_err(|e| format!("{e:#}"))? as u64;
        let (ptr, len) = ((packed >> 32) as usize, (packed & 0xffff_ffff) as usize);
        let data = self.memory.data(&self.store);
        let bytes = data.get(ptr..ptr.saturating_add(len)).ok_or("reply outside memory")?;
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }
}

/// Checks that a Lua bot gets the same observation tables from a value ([`crate::Instance::act_value`])
/// as from its JSON text ([`crate::Instance::act`]): the tape built from the value and the one
/// parsed from `serde_json::to_string(value)` must be identical. For tests of the arena's
/// observation types.
///
/// # Errors
/// What differs (or why the value has no JSON form).
pub fn lua_observation_agrees<T: serde::Serialize + ?Sized>(value: &T) -> Result<(), String> {
    let text = serde_json::to_string(value).map_err(|e| e.to_string())?;
    let mut parsed = Tape::default();
    parsed.parse(&text).map_err(|e| e.to_string())?;
    let mut typed = Tape::default();
    typed.serialize(value).map_err(|e| e.to_string())?;
    if typed.same_as(&parsed) {
        Ok(())
    } else {
        Err(format!("the tables built from the value differ from those of its JSON {text}"))
    }
}
