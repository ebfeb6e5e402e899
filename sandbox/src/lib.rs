//! The sandbox: runs untrusted Lua, JavaScript and WASM bots in-process under deterministic
//! limits (JavaScript in an interpreter compiled to WASM, `interp.rs`). It
//! knows no game: observation JSON text goes in, an action string comes out.
//!
//! ```
//! use cardarena_sandbox::{Kind, Limits, Sandbox, Verdict};
//!
//! let sandbox = Sandbox::new()?; // once per process; cheap to clone and share
//! let source = br#"
//!     function act(obs) return obs.legal[math.random(#obs.legal)] end
//! "#;
//! let program = sandbox.load("random.lua", Kind::Lua, source)?; // checked once
//! let limits = Limits::default_for(program.kind());
//! let info = r#"{"game":"blade","variant":"readme","seat":0,"players":2,"seed":7}"#;
//! let mut bot = program.start(&limits, 7, info)?; // one match
//! let action = bot.act(r#"{"phase":"play","legal":["1","B","M"]}"#)?;
//! assert!(["1", "B", "M"].contains(&action.as_str()));
//! println!("used {} fuel", bot.fuel_used_last());
//!
//! let looping = sandbox.load("loop.lua", Kind::Lua, b"function act() while true do end end")?;
//! let fault = looping.start(&limits, 7, info)?.act("{}").unwrap_err();
//! assert_eq!(fault.verdict, Verdict::Fuel);
//! # Ok::<_, Box<dyn std::error::Error>>(())
//! ```
//!
//! * [`Sandbox`] holds the wasmtime engine (configured once) and its epoch ticker thread.
//! * [`Program`] is a compiled Lua source or a compiled, ABI-checked WASM module, shared by
//!   every match of a bot ([`Sandbox::load`]).
//! * [`Instance`] is one bot in one match: a fresh Lua VM or WASM instance
//!   ([`Program::start`]), asked for one decision at a time ([`Instance::act`]).
//! * Every failure is a [`Fault`] with a [`Verdict`] and the fuel and memory numbers.
//!
//! Fuel is the deterministic currency: the same bot given the same seed, init info and
//! observations uses the same fuel, on any machine (for a given build of this crate). The
//! wall-clock backstop only stops runaways. See `docs/sandbox.md` for the limits, the
//! verdicts, the Lua library and the WASM ABI.
//!
//! Threads: guest calls need native stack (up to 512 KiB for WASM frames, about 0.7 MiB for
//! Lua's deepest nesting of C calls). A call made with less than 1.5 MiB of stack left (4 MiB
//! in debug builds) runs on a freshly allocated 8 MiB segment (a cost per call, docs/sandbox.md);
//! a fresh thread with Rust's default 2 MiB stack does not need it in release builds.

#![deny(missing_docs)]
#![warn(unsafe_op_in_unsafe_fn)]

#[cfg(feature = "baseline")]
pub mod baseline;
mod bulk;
mod fault;
mod interp;
mod limits;
mod log;
mod lua;
mod shape;
mod shape_key;
mod stack;
mod stdio;
mod wasi;
mod wasm;
mod watchdog;

use std::fmt;
use std::path::Path;
use std::sync::Arc;

use sha2::{Digest, Sha256};

pub use fault::{Fault, Verdict};
pub use limits::Limits;
pub use wasi::{StdioInstance, StdioProgram, IOVEC_FUEL, IOV_MAX, IO_BASE_FUEL, MAX_STDOUT, SHIM_VERSION};

/// How many WASM bots one [`Sandbox`] runs at once (its instance pool); one more fails to start
/// with a [`Verdict::Crash`] naming the limit.
pub const WASM_POOL_SLOTS: u32 = wasm::POOL_SLOTS;

/// The instance pool of a lane ([`Sandbox::lane`]), which serves one worker thread.
pub const WASM_LANE_POOL_SLOTS: u32 = wasm::LANE_POOL_SLOTS;

/// The Lua instruction hook fires every this many VM instructions: fuel for plain Lua code
/// is counted in steps of this size, and the wall clock is checked this often.
pub const LUA_HOOK_STEP: u32 = 1000;

/// Names the sandbox's cost model: what a bot's fuel and memory numbers (and, through its
/// random numbers, its replies) are for the same code and observations (the Lua VM, the
/// prelude, the charges, the random key of [`Program::random_key`], the wasmtime version and
/// configuration). It changes whenever they may change, so results stored under an older
/// model (a tournament database) are played again rather than mixed with new ones.
pub const COST_MODEL: &str =
    "7: raw Lua 5.4.9 with LUA_MASKFUEL for every coroutine, C wrappers, load and os, \
     non-yielding sort and luaL_len in insert/remove, charged VM work, math.random keyed by \
     the program; wasmtime 48; QuickJS-ng of build-interp.sh; RustPython 0.5.0 of \
     build-python.sh with 28-bit reference counts";
/// Longest reply accepted from `act`, in bytes. Longer replies are [`Verdict::Invalid`].
pub const MAX_REPLY_BYTES: usize = 4096;
/// What a log line costs beyond its text, in bytes, against the log caps (its framing in a
/// replay and in memory): an empty line is not free.
pub const LOG_LINE_FRAMING: usize = 16;
/// Most log lines kept from one decision (between two [`Instance::take_log`] calls); past it
/// one marker line is added and the decision's further lines are dropped (still charged).
pub const LOG_LINES_PER_DECISION: usize = 100;
/// Most log bytes (framing included) kept from one decision, as [`LOG_LINES_PER_DECISION`].
pub const LOG_BYTES_PER_DECISION: usize = 16 << 10;
/// Largest Lua source accepted, in bytes.
pub const MAX_LUA_SOURCE: usize = 4 << 20;
/// Largest WASM module accepted, in bytes (binary; a text module is also held to
/// [`MAX_WAT_TEXT`]). Its shape is checked against further limits before it is compiled
/// (docs/sandbox.md, "WASM module limits").
pub const MAX_WASM_MODULE: usize = 4 << 20;
/// Largest WASM text module (`.wat`) accepted, in bytes: parsing text takes about 100 times its
/// size in memory, so text is for small hand-written bots.
pub const MAX_WAT_TEXT: usize = 256 << 10;

/// The kind of a bot program, from its file extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A Lua 5.4 source file (`.lua`).
    Lua,
    /// A WebAssembly core module, binary (`.wasm`) or text (`.wat`).
    Wasm,
    /// A JavaScript source file (`.js`, `.mjs`), run by the QuickJS-ng interpreter compiled to
    /// WebAssembly: a script defining `function act(obs)`, or a module exporting `act`.
    Js,
    /// A Python source file (`.py`), run by RustPython compiled to WebAssembly: a module
    /// defining `def act(obs)`.
    Python,
}

impl Kind {
    /// The kind for a file name's extension (`.lua`, `.wasm`, `.wat`; case-insensitive).
    pub fn from_path(path: &Path) -> Option<Kind> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        match ext.as_str() {
            "lua" => Some(Kind::Lua),
            "wasm" | "wat" => Some(Kind::Wasm),
            "js" | "mjs" => Some(Kind::Js),
            "py" => Some(Kind::Python),
            _ => None,
        }
    }

    /// `"lua"`, `"wasm"`, `"js"` or `"python"`.
    pub const fn as_str(self) -> &'static str {
        match self {
            Kind::Lua => "lua",
            Kind::Wasm => "wasm",
            Kind::Js => "js",
            Kind::Python => "python",
        }
    }

    /// Whether bots of this kind are source text run by an interpreter compiled to WebAssembly
    /// (JavaScript, Python): fuel and memory as for WASM bots, the source's own language for
    /// the rest.
    pub const fn interpreted(self) -> bool {
        matches!(self, Kind::Js | Kind::Python)
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// The sandbox could not be set up (a problem with this build or machine, not with a bot).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxError(String);

impl fmt::Display for SandboxError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for SandboxError {}

/// What every program and instance of one sandbox shares.
pub(crate) struct Shared {
    wasm: wasm::WasmEngine,
    watch: Arc<watchdog::Watchlist>,
    /// The Lua prelude, compiled once by this process (host-made bytecode).
    lua_prelude: Arc<[u8]>,
    /// The interpreters of interpreted bots, snapshotted and compiled at their first use.
    interp: interp::Interpreters,
}

/// The sandbox: create one per process, clone it freely (clones share the engine); give each
/// further worker thread a [`Sandbox::lane`].
///
/// The epoch ticker thread (10 ms) lives as long as the last clone of the sandbox or of any
/// WASM program loaded with it.
#[derive(Clone)]
pub struct Sandbox {
    shared: Arc<Shared>,
}

impl fmt::Debug for Sandbox {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Sandbox").finish_non_exhaustive()
    }
}

impl Sandbox {
    /// Configures the wasmtime engine, starts its epoch ticker, and checks that the vendored
    /// Lua was built with the deterministic `pairs`/`table.sort` defines.
    ///
    /// # Errors
    ///
    /// If the engine cannot be created, the ticker thread cannot be spawned, or Lua was built
    /// without the determinism settings of `vendor/lua-src` (see the message).
    pub fn new() -> Result<Sandbox, SandboxError> {
        if !cardarena_detmath::active() {
            return Err(SandboxError(
                "the C library's math functions are in use instead of cardarena-detmath's, so \
                 Lua bots' floating-point results would depend on the CPU: link the program with \
                 cardarena-detmath (see detmath/src/lib.rs)"
                    .into(),
            ));
        }
        lua::self_check().map_err(SandboxError)?;
        let lua_prelude = lua::compile_prelude().map_err(SandboxError)?.into();
        let watch = Arc::new(watchdog::Watchlist::default());
        let wasm = wasm::WasmEngine::new(watch.clone(), WASM_POOL_SLOTS, None).map_err(SandboxError)?;
        let interp = interp::Interpreters::new();
        Ok(Sandbox { shared: Arc::new(Shared { wasm, watch, lua_prelude, interp }) })
    }

    /// A lane of this sandbox for one more worker thread: a wasmtime engine of its own (with a
    /// pool of [`WASM_LANE_POOL_SLOTS`] instances and its own epoch ticker), sharing this
    /// sandbox's Lua state. Move programs to it with [`Program::on`].
    ///
    /// Why: every WASM instantiation updates reference counts that belong to its engine (the
    /// engine's types and its registry of modules). Threads that start instances of one engine
    /// pass those cache lines between cores at every match; with an engine per thread they stay
    /// put (the profile is in BENCHMARKS.md). The more cores, the more it matters.
    ///
    /// A lane is the same kind as its sandbox: pooled, or (where the pool's address space was
    /// refused) with instances allocated on demand.
    ///
    /// # Errors
    ///
    /// If the engine cannot be created (for a pooled sandbox: its pool's address space is
    /// refused), or its ticker thread cannot be spawned.
    pub fn lane(&self) -> Result<Sandbox, SandboxError> {
        let pooled = Some(self.shared.wasm.pooled);
        let wasm = wasm::WasmEngine::new(self.shared.watch.clone(), WASM_LANE_POOL_SLOTS, pooled)
            .map_err(SandboxError)?;
        Ok(Sandbox {
            shared: Arc::new(Shared {
                wasm,
                watch: self.shared.watch.clone(),
                lua_prelude: self.shared.lua_prelude.clone(),
                interp: self.shared.interp.for_lane(),
            }),
        })
    }

    /// Whether WASM instances come from the sandbox's pool of [`WASM_POOL_SLOTS`] (the normal
    /// case), or are allocated on demand because the pool's address space was refused.
    pub fn wasm_pooled(&self) -> bool {
        self.shared.wasm.pooled
    }

    /// Compiles a Lua source (text only), or compiles and validates a WASM module. `name` is
    /// used in messages and Lua tracebacks (e.g. the file name).
    ///
    /// # Errors
    ///
    /// A [`Fault`] with [`Verdict::Load`]: syntax error, bytecode, oversized source or module,
    /// malformed module, unknown import, missing or mistyped export.
    pub fn load(&self, name: &str, kind: Kind, bytes: &[u8]) -> Result<Program, Fault> {
        let hash = hex_sha256(bytes);
        let inner = match kind {
            Kind::Lua => ProgramInner::Lua(Arc::new(lua::LuaProgram::load(
                name,
                bytes,
                self.shared.watch.clone(),
                self.shared.lua_prelude.clone(),
            )?)),
            Kind::Wasm => ProgramInner::Wasm(Arc::new(wasm::WasmProgram::load(&self.shared, bytes)?)),
            Kind::Js | Kind::Python => {
                ProgramInner::Interp(Arc::new(interp::InterpProgram::load(&self.shared, kind, name, bytes)?))
            }
        };
        let random_key = match kind {
            Kind::Lua => shape_key::lua_key(bytes),
            Kind::Wasm | Kind::Js | Kind::Python => hash_key(&hash),
        };
        Ok(Program { name: name.into(), kind, hash, random_key, inner })
    }

    /// A hash of this sandbox's WASM engine configuration and wasmtime version (wasmtime's
    /// `Engine::precompile_compatibility_hash`), lowercase hex: compiled code
    /// ([`Program::compiled`]) made by one sandbox loads into another with the same hash. A
    /// cache of compiled bots is keyed by it and the bot's content hash.
    pub fn compatibility_hash(&self) -> String {
        engine_hash(&self.shared.wasm.engine)
    }

    /// A WASM program from the compiled code of [`Program::compiled`], named `name`, with the
    /// content hash `hash` of the bytes it was compiled from; checked against the ABI as
    /// [`Sandbox::load`] checks a module.
    ///
    /// # Safety
    /// `compiled` must be what [`Program::compiled`] returned for a module with content hash
    /// `hash`, kept where only the host could write it: wasmtime runs the machine code in it
    /// unchecked. Code of another engine configuration or wasmtime version
    /// ([`Sandbox::compatibility_hash`]) is refused with an error.
    ///
    /// # Errors
    /// A [`Verdict::Load`] fault: the code is not compatible, or the module fails the ABI check.
    pub unsafe fn load_compiled(&self, name: &str, hash: &str, compiled: &[u8]) -> Result<Program, Fault> {
        // SAFETY: the caller's promise.
        let program = unsafe { wasm::WasmProgram::from_compiled(&self.shared, compiled) }?;
        Ok(Program {
            name: name.into(),
            kind: Kind::Wasm,
            hash: hash.to_string(),
            random_key: hash_key(hash),
            inner: ProgramInner::Wasm(Arc::new(program)),
        })
    }

    /// Compiles and checks a legacy stdin/stdout program: a WASI preview1 command (`_start`),
    /// run once per decision by [`StdioInstance::run`] (see `docs/legacy-bots.md`).
    ///
    /// # Errors
    ///
    /// A [`Verdict::Load`] fault: oversized or malformed module, an import that is not a WASI
    /// preview1 function (`needs WASI function X (not provided)`), no `_start` or `memory`.
    pub fn load_stdio(&self, name: &str, bytes: &[u8]) -> Result<StdioProgram, Fault> {
        StdioProgram::load(&self.shared, name, bytes)
    }

    /// Reads a program file; the kind comes from the extension (`.lua`, `.wasm`, `.wat`).
    ///
    /// # Errors
    ///
    /// A [`Verdict::Load`] fault if the extension is unknown, the file cannot be read, or
    /// [`Sandbox::load`] refuses it.
    pub fn load_file(&self, path: &Path) -> Result<Program, Fault> {
        let kind = Kind::from_path(path).ok_or_else(|| {
            Fault::load(format!(
                "{}: unknown bot file extension (expected .lua, .js, .py, .wasm or .wat)",
                path.display()
            ))
        })?;
        let limit = match kind {
            Kind::Lua | Kind::Js | Kind::Python => MAX_LUA_SOURCE,
            Kind::Wasm => MAX_WASM_MODULE,
        } as u64;
        let too_big = |n: u64| Fault::load(format!("{}: {n} bytes; the limit is {limit}", path.display()));
        let size =
            std::fs::metadata(path).map_err(|e| Fault::load(format!("{}: {e}", path.display())))?.len();
        if size > limit {
            return Err(too_big(size));
        }
        let bytes = std::fs::read(path).map_err(|e| Fault::load(format!("{}: {e}", path.display())))?;
        // The compiler also takes text; a `.wasm` must be binary, or its errors would be a text
        // parser's multi-line diagrams about something that was never meant as text.
        let binary_ext = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("wasm"));
        if binary_ext && !bytes.starts_with(b"\0asm") {
            return Err(Fault::load(format!(
                "{}: not a WebAssembly module (a .wasm file starts with the bytes \\0asm); compile the bot to WebAssembly, or name a text module .wat",
                path.display()
            )));
        }
        let name =
            path.file_name().map_or_else(|| path.display().to_string(), |n| n.to_string_lossy().into_owned());
        self.load(&name, kind, &bytes)
    }
}

#[derive(Clone)]
enum ProgramInner {
    Lua(Arc<lua::LuaProgram>),
    Wasm(Arc<wasm::WasmProgram>),
    Interp(Arc<interp::InterpProgram>),
}

/// A loaded bot program: compiled Lua source, or a compiled WASM module with its imports
/// resolved. Cheap to clone and shareable across threads.
#[derive(Clone)]
pub struct Program {
    name: Arc<str>,
    kind: Kind,
    hash: String,
    /// See [`Program::random_key`].
    random_key: u64,
    inner: ProgramInner,
}

impl fmt::Debug for Program {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Program")
            .field("name", &self.name)
            .field("kind", &self.kind)
            .field("hash", &self.hash)
            .finish_non_exhaustive()
    }
}

impl Program {
    /// Lua or WASM.
    pub fn kind(&self) -> Kind {
        self.kind
    }

    /// The name given at load.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// SHA-256 of the program's bytes, lowercase hex.
    pub fn hash(&self) -> String {
        self.hash.clone()
    }

    /// The key of the program's random stream, which the host mixes into the seed it gives
    /// [`Program::start`]. For Lua, a digest of the source's tokens with comments dropped,
    /// every name made the same and the tokens sorted: a copy with other comments, other names
    /// or its functions in another order has the same key (it draws the same `math.random`
    /// numbers), programs written apart almost never do. For WASM (which gets no seed from
    /// [`Program::start`]), the start of its content hash.
    pub fn random_key(&self) -> u64 {
        self.random_key
    }

    /// A WASM program's compiled code, for a cache ([`Sandbox::load_compiled`] loads it);
    /// `None` for Lua (nothing to gain: its source compiles in microseconds).
    pub fn compiled(&self) -> Option<Vec<u8>> {
        match &self.inner {
            ProgramInner::Lua(_) | ProgramInner::Interp(_) => None,
            ProgramInner::Wasm(p) => p.compiled().ok(),
        }
    }

    /// This program on `sandbox` (a [`Sandbox::lane`], say): a WASM module's compiled code is
    /// loaded into that sandbox's engine (serialized once, at the first call; loading is far
    /// cheaper than compiling, docs/sandbox.md), unless it is already that engine's;
    /// a Lua program is shared as it is. Replies and fuel are the same on either.
    ///
    /// # Errors
    ///
    /// As [`Sandbox::load`] (for a program that loaded once, only a lack of resources).
    pub fn on(&self, sandbox: &Sandbox) -> Result<Program, Fault> {
        let inner = match &self.inner {
            ProgramInner::Lua(p) => ProgramInner::Lua(p.clone()),
            ProgramInner::Wasm(p) => ProgramInner::Wasm(p.on(&sandbox.shared)?),
            ProgramInner::Interp(p) => ProgramInner::Interp(p.on(&sandbox.shared)?),
        };
        Ok(Program {
            name: self.name.clone(),
            kind: self.kind,
            hash: self.hash.clone(),
            random_key: self.random_key,
            inner,
        })
    }

    /// Starts the bot for one match: a fresh VM or instance, the Lua top-level chunk or WASM
    /// start function, then `init(info)` if the bot defines it, all under `limits.fuel_init`.
    ///
    /// `seed` seeds Lua's `math.random` (WASM bots get it in the info). `init_info_json` is
    /// the JSON object `{ game, variant, seat, players, seed }` (given to Lua's `init` as a
    /// table, to WASM's `init(ptr, len)` as the bytes).
    ///
    /// # Errors
    ///
    /// A [`Fault`]: [`Verdict::Load`] if a Lua bot defines no `act`, otherwise the verdict of
    /// whatever went wrong while starting.
    pub fn start(&self, limits: &Limits, seed: u64, init_info_json: &str) -> Result<Instance, Fault> {
        let inner = match &self.inner {
            ProgramInner::Lua(p) => InstanceInner::Lua(Box::new(p.start(limits, seed, init_info_json)?)),
            ProgramInner::Wasm(p) => InstanceInner::Wasm(Box::new(p.start(limits, init_info_json)?)),
            ProgramInner::Interp(p) => {
                InstanceInner::Interp(Box::new(p.start(limits, seed, init_info_json)?))
            }
        };
        Ok(Instance { inner })
    }
}

enum InstanceInner {
    Lua(Box<lua::LuaInstance>),
    Wasm(Box<wasm::WasmInstance>),
    Interp(Box<interp::InterpInstance>),
}

/// One bot in one match. `Send`, not shared: one decision at a time.
pub struct Instance {
    inner: InstanceInner,
}

impl fmt::Debug for Instance {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Instance")
            .field("kind", &self.kind())
            .field("fuel_total", &self.fuel_total())
            .finish_non_exhaustive()
    }
}

impl Instance {
    /// Asks the bot for one decision: `observation_json` in, the action string out.
    ///
    /// Lua bots get the observation as a table (see `docs/sandbox.md` for the conversion);
    /// WASM bots get the JSON bytes. The decision may use
    /// `min(limits.fuel_per_decision, what is left of limits.fuel_per_match)`.
    ///
    /// After a fault the instance can still be asked again (4-player games keep a faulty bot
    /// playing). A Lua VM keeps its globals (an interrupted decision may have left them
    /// half-updated). A WASM instance that trapped is discarded and instantiated again at the
    /// next call (start function and `init` rerun under the init fuel): its memory is lost.
    ///
    /// # Errors
    ///
    /// A [`Fault`] with the decision's numbers. If `observation_json` is not valid JSON, Lua
    /// bots fail with [`Verdict::Crash`] and a message starting with `host error:` (the
    /// caller's bug, not the bot's).
    pub fn act(&mut self, observation_json: &str) -> Result<String, Fault> {
        match &mut self.inner {
            InstanceInner::Lua(i) => i.act(observation_json),
            InstanceInner::Wasm(i) => i.act(observation_json),
            InstanceInner::Interp(i) => i.act(observation_json),
        }
    }

    /// One decision on an observation given as a value: the bot receives exactly what
    /// [`Instance::act`] would give it for `serde_json::to_string(observation)` (a Lua bot
    /// the same tables, built without the text; a WASM bot that text).
    ///
    /// # Errors
    /// As [`Instance::act`]; a value with no JSON form (a map with non-string keys) is a
    /// host error.
    pub fn act_value<T: serde::Serialize + ?Sized>(&mut self, observation: &T) -> Result<String, Fault> {
        self.act_value_with(observation, |value, out| {
            serde_json::to_writer(out, value).map_err(|e| e.to_string())
        })
    }

    /// [`Instance::act_value`] with the caller's JSON encoder for WASM bots: `write_json` must
    /// append exactly the bytes of `serde_json::to_writer(out, observation)` (a hand-written
    /// encoder is several times faster than serde's derived code). Lua bots get the tables built
    /// from the value, as with `act_value`.
    ///
    /// # Errors
    /// As [`Instance::act`]; an `Err` from `write_json` is a host error.
    pub fn act_value_with<T: serde::Serialize + ?Sized, E: std::fmt::Display>(
        &mut self,
        observation: &T,
        write_json: impl FnOnce(&T, &mut Vec<u8>) -> Result<(), E>,
    ) -> Result<String, Fault> {
        match &mut self.inner {
            InstanceInner::Lua(i) => i.act_value(observation),
            InstanceInner::Wasm(i) => i.act_value(observation, write_json),
            InstanceInner::Interp(i) => i.act_value(observation, write_json),
        }
    }

    /// From the next decision on, record the first read of a field the observation does not
    /// have (Lua: its tables get an `__index` that records the key and answers nil; the values
    /// and the fuel are the same). WASM bots read JSON bytes: nothing to watch.
    pub fn watch_unknown_fields(&mut self) {
        if let InstanceInner::Lua(i) = &mut self.inner {
            i.watch_unknown_fields();
        }
    }

    /// The fields the last decision read that its observation tables did not have, in the
    /// order first read, at most 4 distinct (after [`Instance::watch_unknown_fields`]; none for
    /// WASM bots).
    pub fn unknown_fields(&self) -> Vec<String> {
        match &self.inner {
            InstanceInner::Lua(i) => i.unknown_fields(),
            InstanceInner::Wasm(_) | InstanceInner::Interp(_) => Vec::new(),
        }
    }

    /// Lua or WASM.
    pub fn kind(&self) -> Kind {
        match &self.inner {
            InstanceInner::Lua(_) => Kind::Lua,
            InstanceInner::Wasm(_) => Kind::Wasm,
            InstanceInner::Interp(i) => i.kind(),
        }
    }

    /// Fuel used by the last decision (or by the start, before the first decision).
    pub fn fuel_used_last(&self) -> u64 {
        match &self.inner {
            InstanceInner::Lua(i) => i.fuel_used_last(),
            InstanceInner::Wasm(i) => i.fuel_used_last(),
            InstanceInner::Interp(i) => i.fuel_used_last(),
        }
    }

    /// Fuel used by all decisions of this match (the start's fuel is not included).
    pub fn fuel_total(&self) -> u64 {
        match &self.inner {
            InstanceInner::Lua(i) => i.fuel_total(),
            InstanceInner::Wasm(i) => i.fuel_total(),
            InstanceInner::Interp(i) => i.fuel_total(),
        }
    }

    /// Fuel used by the (latest) start: Lua chunk and `init`, or WASM instantiation and `init`.
    pub fn fuel_init(&self) -> u64 {
        match &self.inner {
            InstanceInner::Lua(i) => i.fuel_init(),
            InstanceInner::Wasm(i) => i.fuel_init(),
            InstanceInner::Interp(i) => i.fuel_init(),
        }
    }

    /// Peak memory so far, in bytes: the Lua heap (including the standard library and the
    /// sandbox's prelude, about 28 KiB), or the WASM linear memory.
    pub fn memory_peak(&self) -> u64 {
        match &self.inner {
            InstanceInner::Lua(i) => i.memory_peak(),
            InstanceInner::Wasm(i) => i.memory_peak(),
            InstanceInner::Interp(i) => i.memory_peak(),
        }
    }

    /// The log lines written since the last call (`print` in Lua, `env.log` in WASM). Each call
    /// ends a decision's log: [`LOG_LINES_PER_DECISION`] and [`LOG_BYTES_PER_DECISION`] count
    /// from here (the match runner takes the log after every decision).
    pub fn take_log(&mut self) -> Vec<String> {
        match &mut self.inner {
            InstanceInner::Lua(i) => i.take_log(),
            InstanceInner::Wasm(i) => i.take_log(),
            InstanceInner::Interp(i) => i.take_log(),
        }
    }
}

/// [`Sandbox::compatibility_hash`] of an engine.
pub(crate) fn engine_hash(engine: &wasmtime::Engine) -> String {
    struct Sha(Sha256);
    impl std::hash::Hasher for Sha {
        fn write(&mut self, bytes: &[u8]) {
            self.0.update(bytes);
        }
        fn finish(&self) -> u64 {
            0
        }
    }
    let mut h = Sha(Sha256::new());
    std::hash::Hash::hash(&engine.precompile_compatibility_hash(), &mut h);
    h.0.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// The first 16 hex digits of a content hash as a number (0 if it has none).
fn hash_key(hash: &str) -> u64 {
    hash.get(..16).and_then(|h| u64::from_str_radix(h, 16).ok()).unwrap_or(0)
}

pub(crate) fn hex_sha256(bytes: &[u8]) -> String {
    Sha256::digest(bytes).iter().map(|b| format!("{b:02x}")).collect()
}

#[allow(dead_code)]
fn assert_thread_traits() {
    fn send_sync_clone<T: Send + Sync + Clone>() {}
    fn send<T: Send>() {}
    send_sync_clone::<Sandbox>();
    send_sync_clone::<Program>();
    send::<Instance>();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kind_from_extension() {
        assert_eq!(Kind::from_path(Path::new("a/b.lua")), Some(Kind::Lua));
        assert_eq!(Kind::from_path(Path::new("b.WASM")), Some(Kind::Wasm));
        assert_eq!(Kind::from_path(Path::new("b.wat")), Some(Kind::Wasm));
        assert_eq!(Kind::from_path(Path::new("b.js")), Some(Kind::Js));
        assert_eq!(Kind::from_path(Path::new("b.mjs")), Some(Kind::Js));
        assert_eq!(Kind::from_path(Path::new("b.py")), Some(Kind::Python));
        assert_eq!(Kind::from_path(Path::new("b.rb")), None);
        assert_eq!(Kind::from_path(Path::new("lua")), None);
    }

    #[test]
    fn sha256_is_lowercase_hex() {
        assert_eq!(hex_sha256(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }
}
