//! Unmetered runners, for benchmark baselines only (`arena bench` measures the cost of fuel
//! metering against them). They are **not sandboxes**: no fuel, no memory cap, no wall clock,
//! no library curation. Never run an untrusted bot with them.

use mlua::chunk::ChunkMode;
use mlua::{Function, Lua, LuaOptions, StdLib, Value};
use wasmtime::{Engine, Linker, Memory, Module, Store, TypedFunc};

/// A Lua program's `act` in a plain VM: the sandbox's libraries and observation conversion,
/// without the fuel hook, the metering allocator or the prelude.
pub struct PlainLua {
    lua: Lua,
    act: Function,
}

impl PlainLua {
    /// Runs the chunk of `source` and keeps its global `act`.
    ///
    /// # Errors
    /// The source does not compile or run, or defines no `act`.
    pub fn new(source: &str) -> Result<PlainLua, String> {
        let lua = Lua::new_with(
            StdLib::TABLE | StdLib::STRING | StdLib::MATH | StdLib::UTF8,
            LuaOptions::default(),
        )
        .map_err(|e| e.to_string())?;
        lua.load(source).set_mode(ChunkMode::Text).exec().map_err(|e| e.to_string())?;
        let act = lua.globals().get::<Function>("act").map_err(|e| e.to_string())?;
        Ok(PlainLua { lua, act })
    }

    /// One call of `act` with the observation converted as the sandbox converts it.
    ///
    /// # Errors
    /// Invalid JSON, a Lua error, or a reply that is not a string.
    pub fn act(&mut self, observation_json: &str) -> Result<String, String> {
        let obs = crate::lua::parse_to_lua(&self.lua, observation_json)
            .map_err(|e| e.to_string())?
            .map_err(|e| e.to_string())?;
        match self.act.call::<Value>(obs).map_err(|e| e.to_string())? {
            Value::String(s) => Ok(s.to_string_lossy()),
            other => Err(format!("act returned a {}", other.type_name())),
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
