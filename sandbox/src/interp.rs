//! Interpreted bots (JavaScript; Python through the same code): the bot's source runs in an
//! interpreter compiled to WebAssembly, so every step of the interpreter is wasmtime fuel and its
//! heap is the instance's linear memory, under the same limits as a WASM bot.
//!
//! # The interpreter module ABI
//!
//! An interpreter module is a wasm32-wasi (wasip1) *reactor* (no `_start`). Exports, all
//! required:
//!
//! | export | type | meaning |
//! |---|---|---|
//! | `memory` | 32-bit unshared memory | |
//! | `_initialize` | `() -> ()` | the C library's constructors (run before `wizer.initialize`) |
//! | `wizer.initialize` | `() -> ()` | boots the interpreter, no bot yet; the sandbox snapshots the instance after it |
//! | `buf_alloc` | `(len: i32) -> i32` | a fresh buffer of `len + 1` bytes (0: out of memory); the host writes `len` bytes and a NUL; a buffer passed to a `bot_*` call belongs to the guest from then on (it frees it) |
//! | `bot_seed` | `(seed: i64) -> ()` | reseeds everything random in the language from the match's seed for this bot; called first on every fresh instance |
//! | `bot_load` | `(src: i32, src_len: i32, name: i32, name_len: i32) -> i32` | compiles and runs the bot's top level; `name` (the file name) is the one tracebacks show |
//! | `bot_init` | `(info: i32, info_len: i32) -> i32` | parses the info JSON and calls the bot's `init(info)` if it has one |
//! | `bot_act` | `(obs: i32, obs_len: i32) -> i32` | parses the observation JSON and calls `act(obs)` |
//! | `out_ptr`, `out_len` | `() -> i32` | the UTF-8 text of the last `bot_*` call's result, valid until the next call |
//!
//! The `bot_*` calls return a status, the text at `out_ptr`/`out_len` saying more:
//! `0` ok (for `bot_act`, the text is the action); `1` an uncaught error, the language's
//! message and traceback, starting `file:line: ` when a frame is in the bot's file (verdict
//! `load` from `bot_load`, else `crash`); `2` a mistake about the interface: no `act` (`load`),
//! or `act` returned something other than a string (`invalid`); `3` recursion deeper than the
//! interpreter's own limit (`stack`); `4` the interpreter's own heap limit (`memory`). A trap
//! (fuel, a refused `memory.grow`, the wasm stack) gets the verdicts of WASM bots and discards
//! the instance: the next decision starts the bot again.
//!
//! Imports: `env.log(ptr, len)` (one line of the bot's log: `print`, `console.log`; charged as a
//! WASM bot's) and `wasi_snapshot_preview1` functions, served by the deterministic shim of
//! `wasi.rs` (a fixed clock, seeded `random_get`, no files; the preview1 functions it does not
//! write, such as the file ones a library links but never calls for a bot, answer NOSYS);
//! nothing else links.
//!
//! # Life of an interpreted bot
//!
//! At the first bot of a language, the sandbox instantiates the interpreter under the shim, runs
//! `_initialize` and `wizer.initialize` and takes a snapshot of the instance with
//! `wasmtime-wizer` (a module whose data segments are the booted heap), then compiles it once
//! (lanes load the compiled code). Each match instantiates the snapshot (no boot), then
//! `bot_seed`, `bot_load`, `bot_init`, all under the init fuel, and one `bot_act` per decision.

use std::future::Future;
use std::sync::{Arc, OnceLock};
use std::task::{Context, Poll, Waker};

use sha2::Digest;
use wasmtime::{Engine, Instance, Linker, Memory, Module, OptLevel, ResourceLimiter, Store, TypedFunc};
use wasmtime_wizer::{InstanceState, SnapshotVal, Wizer};

use crate::log::LogBook;
use crate::wasm::{classify, epoch_ticks, Host};
use crate::{Fault, Kind, Limits, Verdict, MAX_REPLY_BYTES};

/// An interpreter the sandbox ships.
pub(crate) struct Language {
    /// The kind of bot it runs.
    pub(crate) kind: Kind,
    /// The interpreter's module (see the module docs for its ABI).
    pub(crate) module: &'static [u8],
    /// What a wasm `unreachable` trap (the interpreter aborting) usually means in this
    /// interpreter, added to the `crash` message; empty if nothing is known.
    pub(crate) abort_hint: &'static str,
}

/// QuickJS-ng, built by `scripts/build-interp.sh` from `sandbox/interp/quickjs`. Another build
/// of it changes JS bots' fuel: raise [`crate::COST_MODEL`] with it.
pub(crate) const JAVASCRIPT: Language =
    Language { kind: Kind::Js, module: include_bytes!("../interp/quickjs/quickjs.wasm"), abort_hint: "" };

/// RustPython, built by `scripts/build-python.sh` from `sandbox/interp/python/glue`. Another
/// build of it changes Python bots' fuel: raise [`crate::COST_MODEL`] with it.
pub(crate) const PYTHON: Language = Language {
    kind: Kind::Python,
    module: include_bytes!("../interp/python/python.wasm"),
    abort_hint: "the Python interpreter aborted (an internal error of RustPython, not a limit of the \
                 sandbox)",
};

/// Every interpreter, in the order of [`Interpreters`]' slots.
const LANGUAGES: [&Language; 2] = [&JAVASCRIPT, &PYTHON];

/// The interpreter for a kind of bot, with its slot in [`Interpreters`].
pub(crate) fn language(kind: Kind) -> Option<(usize, &'static Language)> {
    LANGUAGES.iter().enumerate().find(|(_, l)| l.kind == kind).map(|(i, l)| (i, *l))
}

/// Fuel of the load-time check of a bot (its source compiled, its top level run, `act` looked
/// for): about 10 ms of QuickJS.
const LOAD_CHECK_FUEL: u64 = 50_000_000;

/// Fuel the snapshot's boot may use (the interpreter's own start-up, not a bot's).
const BOOT_FUEL: u64 = 1 << 40;

type Slot<T> = OnceLock<Result<T, String>>;

/// One engine's interpreters, each made at its first use: the snapshot's compiled code (shared
/// by a sandbox and its lanes) and its linked form on this engine.
pub(crate) struct Interpreters {
    code: Arc<[Slot<Vec<u8>>; LANGUAGES.len()]>,
    pre: [Slot<wasmtime::InstancePre<Host>>; LANGUAGES.len()],
}

impl Interpreters {
    pub(crate) fn new() -> Interpreters {
        Interpreters { code: Arc::default(), pre: Default::default() }
    }

    /// The same compiled snapshots for another engine (a lane), linked there when first used.
    pub(crate) fn for_lane(&self) -> Interpreters {
        Interpreters { code: self.code.clone(), pre: Default::default() }
    }
}

/// The linker of interpreter modules: `env.log` and the WASI shim.
fn linker(engine: &Engine) -> wasmtime::Result<Linker<Host>> {
    let mut linker = Linker::<Host>::new(engine);
    crate::wasi::define(&mut linker)?;
    linker.func_wrap("env", "log", crate::wasm::host_log)?;
    Ok(linker)
}

fn fresh_host(memory_limit: usize, log: LogBook) -> Host {
    Host {
        log,
        memory_limit,
        memory_peak: 0,
        resource_denied: false,
        host_fuel_out: false,
        stdio: crate::stdio::Stdio::default(),
    }
}

/// The linked snapshot of `kind`'s interpreter on the sandbox's engine (made at the first call).
fn interpreter(
    shared: &crate::Shared,
    slot: usize,
    lang: &Language,
) -> Result<wasmtime::InstancePre<Host>, Fault> {
    let engine = &shared.wasm.engine;
    let made = shared.interp.pre[slot].get_or_init(|| {
        let code = shared.interp.code[slot].get_or_init(|| {
            let cache = cache_file(engine, lang);
            if let Some(code) = cache.as_deref().and_then(|path| read_cache(engine, path)) {
                return Ok(code);
            }
            let snapshot = snapshot(lang.module)?;
            let module =
                Module::new(engine, &snapshot).map_err(|e| format!("compiling the snapshot: {e:#}"))?;
            let code = module.serialize().map_err(|e| format!("{e:#}"))?;
            if let Some(path) = cache {
                write_cache(&path, &code);
            }
            Ok(code)
        });
        let code = code.as_ref().map_err(Clone::clone)?;
        // SAFETY: `code` is what `Module::serialize` made in this process, on an engine of this
        // sandbox's configuration (a lane's engine is configured the same); `deserialize`
        // refuses code of an incompatible engine.
        let module = unsafe { Module::deserialize(engine, code) }.map_err(|e| format!("{e:#}"))?;
        let mut linker = linker(engine).map_err(|e| format!("{e:#}"))?;
        crate::wasi::define_stubs(&mut linker, &module).map_err(|e| format!("{e:#}"))?;
        linker.instantiate_pre(&module).map_err(|e| format!("linking the interpreter: {e:#}"))
    });
    made.clone()
        .map_err(|e| Fault::new(Verdict::Load, format!("the {} interpreter does not start: {e}", lang.kind)))
}

/// Where the compiled snapshot of `lang`'s interpreter is kept between processes (making it
/// takes seconds of Cranelift): `$CARDARENA_CACHE_DIR`, else `$XDG_CACHE_HOME/cardarena`, else
/// `~/.cache/cardarena`; the name holds the interpreter's and the engine's hashes, so another
/// build, shim or configuration never reads it. `None` (no cache) if none of them is set.
fn cache_file(engine: &Engine, lang: &Language) -> Option<std::path::PathBuf> {
    let env = |name| std::env::var_os(name).filter(|v| !v.is_empty()).map(std::path::PathBuf::from);
    let dir = env("CARDARENA_CACHE_DIR")
        .or_else(|| env("XDG_CACHE_HOME").map(|d| d.join("cardarena")))
        .or_else(|| env("HOME").map(|d| d.join(".cache/cardarena")))?;
    // The snapshot is the module booted under the shim: both name it.
    let module = crate::hex_sha256(&[lang.module, crate::SHIM_VERSION.as_bytes()].concat());
    let engine = crate::engine_hash(engine);
    Some(dir.join(format!("interp-{}-{}-{}.cwasm", lang.kind, &module[..16], &engine[..16])))
}

/// The cached compiled snapshot at `path`, if it is whole (its first 32 bytes are the SHA-256
/// of the rest) and loads into `engine`.
fn read_cache(engine: &Engine, path: &std::path::Path) -> Option<Vec<u8>> {
    let bytes = std::fs::read(path).ok()?;
    let (sum, code) = bytes.split_at_checked(32)?;
    if sha2::Sha256::digest(code).as_slice() != sum {
        return None;
    }
    // SAFETY: a file this code wrote (`write_cache`), whole (its checksum matches), for an
    // engine with this configuration and wasmtime version (its name; `deserialize` checks
    // them again). The cache directory is the user's own, as trusted as the binary.
    unsafe { Module::deserialize(engine, code) }.ok()?;
    Some(code.to_vec())
}

/// Compiled snapshots of one interpreter kept at most: other builds of the arena (another
/// version installed beside this one) keep theirs, and the folder does not grow without end.
const CACHE_KEEP: usize = 3;

/// Stores a compiled snapshot for later processes, and removes the oldest others of its
/// interpreter beyond [`CACHE_KEEP`]; a cache that cannot be written is skipped.
fn write_cache(path: &std::path::Path, code: &[u8]) {
    let Some(dir) = path.parent() else { return };
    if let Some(name) = path.file_name().and_then(|n| n.to_str()) {
        prune_cache(dir, name, CACHE_KEEP - 1);
    }
    let tmp = dir.join(format!(
        ".{}.{}",
        std::process::id(),
        path.file_name().map_or("x".into(), |n| n.to_string_lossy())
    ));
    let mut bytes = sha2::Sha256::digest(code).to_vec();
    bytes.extend_from_slice(code);
    let written = std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&tmp, &bytes));
    if written.and_then(|()| std::fs::rename(&tmp, path)).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

/// Removes from `dir` the snapshots of `name`'s interpreter (`interp-<kind>-…`) but the `keep`
/// newest (by modification time), and temporary files a stopped process left there.
fn prune_cache(dir: &std::path::Path, name: &str, keep: usize) {
    let Some(kind) = name.split('-').nth(1) else { return };
    let prefix = format!("interp-{kind}-");
    let Ok(entries) = std::fs::read_dir(dir) else { return };
    let mut ours = Vec::new();
    for e in entries.flatten() {
        let file = e.file_name().to_string_lossy().into_owned();
        let modified = e.metadata().and_then(|m| m.modified()).ok();
        let day_old = modified.and_then(|m| m.elapsed().ok()).is_some_and(|a| a.as_secs() > 86_400);
        if file.starts_with('.') && file.ends_with(".cwasm") && day_old {
            let _ = std::fs::remove_file(e.path());
        } else if file.starts_with(&prefix) && file.ends_with(".cwasm") && file != name {
            ours.push((modified, e.path()));
        }
    }
    ours.sort_by_key(|o| std::cmp::Reverse(o.0));
    for (_, path) in ours.into_iter().skip(keep) {
        let _ = std::fs::remove_file(path);
    }
}

/// Boots the interpreter `module` under the deterministic shim and returns the snapshot: a module
/// whose memory and globals are the booted instance's.
fn snapshot(module: &[u8]) -> Result<Vec<u8>, String> {
    let mut wizer = Wizer::new();
    wizer.init_func("wizer.initialize");
    let (cx, instrumented) = wizer.instrument(module).map_err(|e| format!("{e:#}"))?;
    // A throw-away engine: the boot runs once, so its code need not be fast, only quick to make.
    let mut config = wasmtime::Config::new();
    config.cranelift_opt_level(OptLevel::None).consume_fuel(true).cranelift_nan_canonicalization(true);
    let engine = Engine::new(&config).map_err(|e| format!("{e:#}"))?;
    let module = Module::new(&engine, &instrumented).map_err(|e| format!("{e:#}"))?;
    let mut linker = linker(&engine).map_err(|e| format!("{e:#}"))?;
    crate::wasi::define_stubs(&mut linker, &module).map_err(|e| format!("{e:#}"))?;
    let mut store = Store::new(&engine, fresh_host(usize::MAX, LogBook::new(64 << 10)));
    let booted = store.set_fuel(BOOT_FUEL).and_then(|()| {
        let instance = linker.instantiate(&mut store, &module)?;
        for name in ["_initialize", "wizer.initialize"] {
            instance.get_typed_func::<(), ()>(&mut store, name)?.call(&mut store, ())?;
        }
        Ok(instance)
    });
    let instance = booted.map_err(|e| format!("booting the interpreter: {e:#}"))?;
    let mut state = Booted { store: &mut store, instance };
    ready(wizer.snapshot(&cx, &mut state)).and_then(|r| r.map_err(|e| format!("{e:#}")))
}

/// The value of a future that never waits (the snapshot's reads of a finished instance).
fn ready<F: Future>(future: F) -> Result<F::Output, String> {
    let mut future = std::pin::pin!(future);
    match future.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(v) => Ok(v),
        Poll::Pending => Err("the snapshot waited for something".into()),
    }
}

/// A booted instance, read by the snapshot.
struct Booted<'a> {
    store: &'a mut Store<Host>,
    instance: Instance,
}

impl InstanceState for Booted<'_> {
    async fn global_get(&mut self, name: &str, _type_hint: wasmparser::ValType) -> SnapshotVal {
        let value = self.instance.get_global(&mut *self.store, name).map(|g| g.get(&mut *self.store));
        match value {
            Some(wasmtime::Val::I32(x)) => SnapshotVal::I32(x),
            Some(wasmtime::Val::I64(x)) => SnapshotVal::I64(x),
            Some(wasmtime::Val::F32(x)) => SnapshotVal::F32(x),
            Some(wasmtime::Val::F64(x)) => SnapshotVal::F64(x),
            Some(wasmtime::Val::V128(x)) => SnapshotVal::V128(x.as_u128()),
            // The instrumented module exports every global it asks for, of a numeric type.
            _ => SnapshotVal::I32(0),
        }
    }

    async fn memory_contents(&mut self, name: &str, contents: impl FnOnce(&[u8]) + Send) {
        match self.instance.get_memory(&mut *self.store, name) {
            Some(memory) => contents(memory.data(&*self.store)),
            None => contents(&[]),
        }
    }
}

/// A bot's source with its interpreter, shared by every match of that bot.
pub(crate) struct InterpProgram {
    kind: Kind,
    /// The file name the interpreter's tracebacks show.
    name: Arc<str>,
    source: Arc<[u8]>,
    pre: wasmtime::InstancePre<Host>,
    shared: Arc<crate::Shared>,
}

impl InterpProgram {
    /// The interpreter of `kind` with this source, tried once (compiled, top level run, `act`
    /// looked for) so that a bot that cannot start fails at load.
    pub(crate) fn load(
        shared: &Arc<crate::Shared>,
        kind: Kind,
        name: &str,
        source: &[u8],
    ) -> Result<InterpProgram, Fault> {
        let (slot, lang) =
            language(kind).ok_or_else(|| Fault::load(format!("no interpreter for {kind} bots")))?;
        if source.len() > crate::MAX_LUA_SOURCE {
            return Err(Fault::load(format!(
                "the source is {} bytes; the limit is {}",
                source.len(),
                crate::MAX_LUA_SOURCE
            )));
        }
        if let Err(e) = std::str::from_utf8(source) {
            return Err(Fault::load(format!("{name}: the source is not UTF-8 text: {e}")));
        }
        let pre = interpreter(shared, slot, lang)?;
        let program =
            InterpProgram { kind, name: name.into(), source: source.into(), pre, shared: shared.clone() };
        let program = Arc::new(program);
        // Loaded only: `init` needs the info of a match, which the sandbox does not know here.
        // Only what no limits could change refuses the bot (a syntax error, an error at the top
        // level, no `act`); running out of fuel or memory is left to the matches' own limits.
        // The check's own budget is small: a top level that needs more is checked by its
        // matches instead (under their limits), and a load stays quick.
        let check = Limits { fuel_init: LOAD_CHECK_FUEL, ..Limits::default_for(kind) };
        match program.instance(&check, 0, None) {
            Err(fault) if fault.verdict == Verdict::Load => return Err(fault),
            _ => {}
        }
        Arc::try_unwrap(program).map_err(|_| Fault::load("sandbox: the program is still shared"))
    }

    /// The same program on another sandbox's engine (a lane).
    pub(crate) fn on(self: &Arc<Self>, shared: &Arc<crate::Shared>) -> Result<Arc<InterpProgram>, Fault> {
        if Arc::ptr_eq(&self.shared, shared) {
            return Ok(self.clone());
        }
        let (slot, lang) = language(self.kind).ok_or_else(|| Fault::load("no interpreter"))?;
        let pre = interpreter(shared, slot, lang)?;
        Ok(Arc::new(InterpProgram {
            kind: self.kind,
            name: self.name.clone(),
            source: self.source.clone(),
            pre,
            shared: shared.clone(),
        }))
    }

    /// A fresh instance of the interpreter with the bot loaded and `init` run, under
    /// `limits.fuel_init`.
    pub(crate) fn start(
        self: &Arc<Self>,
        limits: &Limits,
        seed: u64,
        init_info_json: &str,
    ) -> Result<InterpInstance, Fault> {
        self.instance(limits, seed, Some(init_info_json))
    }

    /// A fresh instance with the bot loaded and, given its info, `init` run.
    fn instance(
        self: &Arc<Self>,
        limits: &Limits,
        seed: u64,
        init_info_json: Option<&str>,
    ) -> Result<InterpInstance, Fault> {
        let mut inst = InterpInstance {
            program: self.clone(),
            limits: limits.clone(),
            seed,
            init_info: init_info_json.map(|i| i.as_bytes().to_vec()),
            store: None,
            live: None,
            log: Some(LogBook::new(limits.log_bytes_per_match)),
            memory_peak: 0,
            fuel_used_last: 0,
            fuel_total: 0,
            fuel_init: 0,
            json: Vec::new(),
        };
        crate::stack::on_guest_stack(|| inst.instantiate())?;
        Ok(inst)
    }
}

/// The exports of a live interpreter instance.
struct Live {
    memory: Memory,
    buf_alloc: TypedFunc<i32, i32>,
    act: TypedFunc<(i32, i32), i32>,
    out_ptr: TypedFunc<(), i32>,
    out_len: TypedFunc<(), i32>,
}

/// Why a call into the interpreter did not return status 0.
enum Failed {
    /// A trap or host error: the instance is broken.
    Trap(wasmtime::Error),
    /// The guest broke the ABI (a buffer outside its memory): the instance is broken.
    Bad(String),
    /// The interpreter reported a status (1-4) with its text; the instance is fine.
    Status(i32, String),
}

/// One interpreted bot in one match. After a trap the instance is discarded and the next
/// decision starts the bot again (seed, load, init), as a WASM bot is.
pub(crate) struct InterpInstance {
    program: Arc<InterpProgram>,
    limits: Limits,
    seed: u64,
    /// `None`: load the bot only (the load-time check).
    init_info: Option<Vec<u8>>,
    store: Option<Store<Host>>,
    live: Option<Live>,
    log: Option<LogBook>,
    memory_peak: u64,
    fuel_used_last: u64,
    fuel_total: u64,
    fuel_init: u64,
    /// The observation's JSON text, for `act_value` (reused from one decision to the next).
    json: Vec<u8>,
}

/// Copies `bytes` into a fresh guest buffer (with the NUL the ABI promises).
fn write_buf(store: &mut Store<Host>, live: &Live, bytes: &[u8]) -> Result<(i32, i32), Failed> {
    let len = i32::try_from(bytes.len()).map_err(|_| Failed::Bad("an input over 2 GiB".into()))?;
    let ptr = live.buf_alloc.call(&mut *store, len).map_err(Failed::Trap)?;
    if ptr == 0 {
        return Err(Failed::Status(4, "out of memory for the input".into()));
    }
    let at = ptr as u32 as usize;
    live.memory
        .write(&mut *store, at, bytes)
        .and_then(|()| live.memory.write(&mut *store, at + bytes.len(), &[0]))
        .map_err(|_| Failed::Bad(format!("buf_alloc({len}) returned a buffer outside linear memory")))?;
    Ok((ptr, len))
}

/// The text of the last call's result.
fn read_out(store: &mut Store<Host>, live: &Live) -> Result<String, Failed> {
    let ptr = live.out_ptr.call(&mut *store, ()).map_err(Failed::Trap)? as u32 as usize;
    let len = live.out_len.call(&mut *store, ()).map_err(Failed::Trap)? as u32 as usize;
    let data = live.memory.data(&*store);
    let bytes = ptr
        .checked_add(len)
        .and_then(|end| data.get(ptr..end))
        .ok_or_else(|| Failed::Bad(format!("the result at {ptr}..{} is outside linear memory", ptr + len)))?;
    Ok(String::from_utf8_lossy(bytes).into_owned())
}

/// A status call's outcome: its text on 0, or [`Failed::Status`].
fn status(store: &mut Store<Host>, live: &Live, code: wasmtime::Result<i32>) -> Result<String, Failed> {
    let code = code.map_err(Failed::Trap)?;
    let text = read_out(store, live)?;
    if code == 0 {
        Ok(text)
    } else {
        Err(Failed::Status(code, text))
    }
}

impl InterpInstance {
    /// Instantiates the snapshot, then seeds, loads and inits the bot, under the init fuel.
    fn instantiate(&mut self) -> Result<(), Fault> {
        self.live = None;
        let log = self
            .log
            .take()
            .or_else(|| self.store.take().map(|s| s.into_data().log))
            .unwrap_or_else(|| LogBook::new(self.limits.log_bytes_per_match));
        let memory_limit = usize::try_from(self.limits.memory_bytes).unwrap_or(usize::MAX);
        let mut store = Store::new(&self.program.shared.wasm.engine, fresh_host(memory_limit, log));
        store.limiter(|h| h as &mut dyn ResourceLimiter);
        store.epoch_deadline_trap();
        let budget = self.limits.fuel_init;
        let result = self.boot(&mut store, budget);
        self.fuel_init = budget - store.get_fuel().unwrap_or(0);
        self.fuel_used_last = self.fuel_init;
        self.memory_peak = self.memory_peak.max(store.data().memory_peak as u64);
        match result {
            Ok(live) => {
                self.store = Some(store);
                self.live = Some(live);
                Ok(())
            }
            Err((phase, failed)) => {
                let fault = self.failure(&store, failed, phase);
                self.store = Some(store);
                Err(fault)
            }
        }
    }

    fn boot(&self, store: &mut Store<Host>, budget: u64) -> Result<Live, (&'static str, Failed)> {
        let start = |e| ("start", Failed::Trap(e));
        store.set_fuel(budget).map_err(start)?;
        store.set_epoch_deadline(epoch_ticks(self.limits.wall_per_decision));
        let instance = self.program.pre.instantiate(&mut *store).map_err(start)?;
        let memory = instance
            .get_memory(&mut *store, "memory")
            .ok_or_else(|| ("start", Failed::Bad("the interpreter has no memory".into())))?;
        let size = memory.data_size(&*store);
        store.data_mut().memory_peak = store.data().memory_peak.max(size);
        if size as u64 > self.limits.memory_bytes {
            return Err((
                "start",
                Failed::Status(
                    4,
                    format!(
                        "the interpreter needs {size} bytes of memory to start; the cap is {}",
                        self.limits.memory_bytes
                    ),
                ),
            ));
        }
        let live = (|| {
            Ok::<_, wasmtime::Error>(Live {
                memory,
                buf_alloc: instance.get_typed_func(&mut *store, "buf_alloc")?,
                act: instance.get_typed_func(&mut *store, "bot_act")?,
                out_ptr: instance.get_typed_func(&mut *store, "out_ptr")?,
                out_len: instance.get_typed_func(&mut *store, "out_len")?,
            })
        })()
        .map_err(start)?;
        let seed = instance.get_typed_func::<i64, ()>(&mut *store, "bot_seed").map_err(start)?;
        let load =
            instance.get_typed_func::<(i32, i32, i32, i32), i32>(&mut *store, "bot_load").map_err(start)?;
        let init = instance.get_typed_func::<(i32, i32), i32>(&mut *store, "bot_init").map_err(start)?;
        seed.call(&mut *store, self.seed as i64).map_err(start)?;
        let loaded = write_buf(store, &live, &self.program.source).and_then(|(src, src_len)| {
            let (name, name_len) = write_buf(store, &live, self.program.name.as_bytes())?;
            let code = load.call(&mut *store, (src, src_len, name, name_len));
            status(store, &live, code)
        });
        loaded.map_err(|f| ("load", f))?;
        if let Some(info) = &self.init_info {
            let inited = write_buf(store, &live, info).and_then(|(info, len)| {
                let code = init.call(&mut *store, (info, len));
                status(store, &live, code)
            });
            inited.map_err(|f| ("init", f))?;
        }
        Ok(live)
    }

    pub(crate) fn act(&mut self, observation_json: &str) -> Result<String, Fault> {
        crate::stack::on_guest_stack(|| self.act_inner(observation_json.as_bytes()))
    }

    pub(crate) fn act_value<T: ?Sized, E: std::fmt::Display>(
        &mut self,
        observation: &T,
        write_json: impl FnOnce(&T, &mut Vec<u8>) -> Result<(), E>,
    ) -> Result<String, Fault> {
        let mut json = std::mem::take(&mut self.json);
        json.clear();
        let result = match write_json(observation, &mut json) {
            Err(e) => {
                Err(Fault::new(Verdict::Crash, format!("host error: observation has no JSON form: {e}")))
            }
            Ok(()) => crate::stack::on_guest_stack(|| self.act_inner(&json)),
        };
        self.json = json;
        result
    }

    fn act_inner(&mut self, input: &[u8]) -> Result<String, Fault> {
        self.fuel_used_last = 0;
        let budget = self.limits.decision_budget(self.fuel_total);
        if budget == 0 {
            return Err(self.fault(Verdict::Fuel, self.limits.bank_used_up(), None));
        }
        if self.live.is_none() {
            self.instantiate()?;
        }
        let (Some(store), Some(live)) = (self.store.as_mut(), self.live.as_ref()) else {
            return Err(self.fault(Verdict::Crash, "sandbox: no instance".into(), None));
        };
        let host = store.data_mut();
        host.resource_denied = false;
        host.host_fuel_out = false;
        let result = store.set_fuel(budget).map_err(Failed::Trap).and_then(|()| {
            store.set_epoch_deadline(epoch_ticks(self.limits.wall_per_decision));
            let (ptr, len) = write_buf(store, live, input)?;
            let code = live.act.call(&mut *store, (ptr, len));
            status(store, live, code)
        });
        let used = budget - store.get_fuel().unwrap_or(0);
        self.fuel_used_last = used;
        self.fuel_total = self.fuel_total.saturating_add(used);
        self.memory_peak = self.memory_peak.max(store.data().memory_peak as u64);
        match result {
            Ok(reply) if reply.len() > MAX_REPLY_BYTES => Err(self.fault(
                Verdict::Invalid,
                format!("the reply is {} bytes long; the limit is {MAX_REPLY_BYTES}", reply.len()),
                None,
            )),
            Ok(reply) => Ok(reply),
            Err(failed @ Failed::Status(..)) => {
                let store = self.store.take();
                let fault = match &store {
                    Some(s) => self.failure(s, failed, "decision"),
                    None => self.fault(Verdict::Crash, "sandbox: no instance".into(), None),
                };
                self.store = store;
                Err(fault)
            }
            Err(failed) => {
                let store = self.store.take();
                let fault = match &store {
                    Some(s) => self.failure(s, failed, "decision"),
                    None => self.fault(Verdict::Crash, "sandbox: no instance".into(), None),
                };
                // Discard the instance: after a trap the interpreter's state may be broken.
                self.live = None;
                self.log = store.map(|s| s.into_data().log);
                Err(fault)
            }
        }
    }

    /// The fault for a failed call in `phase` (`start`, `load`, `init`, `decision`).
    fn failure(&self, store: &Store<Host>, failed: Failed, phase: &str) -> Fault {
        match failed {
            Failed::Trap(e) => {
                let wall = self.limits.wall_per_decision;
                let (verdict, message, _) =
                    classify(store.data(), &e, phase, wall, || self.fuel_message(phase));
                // The interpreter's own wasm frames say nothing about the bot's code.
                let aborted = matches!(
                    e.downcast_ref::<wasmtime::Trap>(),
                    Some(wasmtime::Trap::UnreachableCodeReached)
                );
                let hint = language(self.program.kind).map_or("", |(_, l)| l.abort_hint);
                let message = match verdict {
                    Verdict::Fuel => self.fuel_message(phase),
                    Verdict::Crash if aborted && !hint.is_empty() => format!("{message}: {hint}"),
                    _ => message,
                };
                self.fault(verdict, message, None)
            }
            Failed::Bad(msg) => {
                self.fault(Verdict::Crash, format!("the interpreter broke its ABI: {msg}"), None)
            }
            Failed::Status(code, text) => {
                let verdict = match (code, phase) {
                    (3, _) => Verdict::Stack,
                    (4, _) => Verdict::Memory,
                    (_, "load") => Verdict::Load,
                    (2, "decision") => Verdict::Invalid,
                    _ => Verdict::Crash,
                };
                // The first line is the message; the rest is the interpreter's traceback.
                let (message, trace) = match text.split_once('\n') {
                    Some((first, rest)) if !rest.trim().is_empty() => {
                        (first.to_string(), Some(rest.to_string()))
                    }
                    _ => (text.trim_end().to_string(), None),
                };
                let message = match (verdict, phase) {
                    (Verdict::Stack, _) => format!("{message} (recursion too deep; {phase})"),
                    (Verdict::Crash, "init") => format!("{message} (in init)"),
                    _ => message,
                };
                self.fault(verdict, message, trace)
            }
        }
    }

    fn fuel_message(&self, phase: &str) -> String {
        match phase {
            "decision" => {
                let left_before = self
                    .limits
                    .fuel_per_match
                    .saturating_sub(self.fuel_total.saturating_sub(self.fuel_used_last));
                if left_before < self.limits.fuel_per_decision {
                    format!("fuel exhausted: {}", self.limits.bank_used_up())
                } else {
                    format!("fuel exhausted: the decision budget is {}", self.limits.fuel_per_decision)
                }
            }
            _ => format!(
                "fuel exhausted: the start budget (loading the bot and init) is {}",
                self.limits.fuel_init
            ),
        }
    }

    fn fault(&self, verdict: Verdict, message: String, trace: Option<String>) -> Fault {
        Fault::new(verdict, message)
            .with_usage(self.fuel_used_last, self.fuel_total, self.memory_peak)
            .with_trace(trace)
    }

    pub(crate) fn kind(&self) -> Kind {
        self.program.kind
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
        self.memory_peak
    }

    pub(crate) fn take_log(&mut self) -> Vec<String> {
        let mut lines = self.log.as_mut().map(LogBook::take).unwrap_or_default();
        if let Some(store) = self.store.as_mut() {
            lines.extend(store.data_mut().log.take());
        }
        lines
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cache_keeps_the_newest_snapshots_of_each_interpreter() {
        let dir = std::env::temp_dir().join(format!("cardarena-prune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let old = std::time::SystemTime::now() - std::time::Duration::from_secs(10 * 86_400);
        let files = ["interp-python-a-e.cwasm", "interp-python-b-e.cwasm", "interp-python-c-e.cwasm"];
        for (k, f) in files.iter().enumerate() {
            let file = std::fs::File::create(dir.join(f)).unwrap();
            file.set_modified(old + std::time::Duration::from_secs(k as u64 * 60)).unwrap();
        }
        for f in ["interp-js-a-e.cwasm", "notes.txt", ".17.interp-python-z-e.cwasm"] {
            std::fs::File::create(dir.join(f)).unwrap().set_modified(old).unwrap();
        }
        prune_cache(&dir, "interp-python-new-e.cwasm", 2);
        let mut left: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        left.sort();
        // The two newest other Python snapshots stay (with the new one: three); JavaScript's and
        // other files are not Python's; the day-old temporary file goes.
        assert_eq!(
            left,
            ["interp-js-a-e.cwasm", "interp-python-b-e.cwasm", "interp-python-c-e.cwasm", "notes.txt"]
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
