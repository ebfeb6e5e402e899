//! WASM bots: core modules compiled once by Cranelift, a fresh instance per match, metered by
//! wasmtime fuel, capped by a resource limiter, with an epoch ticker as the wall-clock
//! backstop.
//!
//! ABI (CONTRACT.md §3): exports `memory`, `alloc(len: i32) -> i32`,
//! `act(ptr: i32, len: i32) -> i64` (reply packed as `ptr << 32 | len`), optional
//! `init(ptr: i32, len: i32)`; optional imports `env.log(ptr: i32, len: i32)`,
//! `env.budget_left() -> i64` and `env.abort(msg, file, line, col)` (AssemblyScript's, which its
//! compiler imports by default). Everything else is refused at load.

use std::num::NonZeroUsize;
use std::sync::mpsc::{self, RecvTimeoutError};
use std::sync::{Arc, OnceLock};
use std::thread::JoinHandle;
use std::time::Duration;

use wasmtime::{
    Caller, Config, Engine, Extern, ExternType, FuncType, InstanceAllocationStrategy, InstancePre, Linker,
    Memory, Module, OptLevel, PoolingAllocationConfig, ResourceLimiter, Store, Strategy, Trap, TypedFunc,
    WasmBacktrace, WasmBacktraceDetails,
};

use crate::log::LogBook;
use crate::shape::MAX_TABLE_ELEMENTS;
use crate::watchdog::Watchlist;
use crate::{Fault, Limits, Verdict, MAX_REPLY_BYTES, MAX_WASM_MODULE, MAX_WAT_TEXT};

/// Period of the epoch ticker. The wall-clock backstop fires within about two ticks of its
/// deadline.
const TICK: Duration = Duration::from_millis(10);
/// Native stack the guest's wasm frames may use.
pub(crate) const MAX_WASM_STACK: usize = 512 << 10;
/// Fuel charged for each `env.log` call, plus one per byte.
const LOG_BASE_FUEL: u64 = 100;
/// Fuel charged for each `env.budget_left` call (about the time of the host call).
const BUDGET_LEFT_FUEL: u64 = 20;

/// The wasmtime engine, configured once, and the epoch ticker that serves it.
pub(crate) struct WasmEngine {
    pub(crate) engine: Engine,
    linker: Linker<Host>,
    ticker: Option<Ticker>,
    /// Whether instances come from the pool (else: on demand, see `WasmEngine::new`).
    pub(crate) pooled: bool,
}

/// How many WASM instances (bots in running matches) one sandbox holds at once. A tournament
/// needs 2-4 per worker thread; `arena bench` holds 400 to measure memory.
pub const POOL_SLOTS: u32 = 500;

/// The pool of a lane ([`crate::Sandbox::lane`]): the instances of one worker thread's matches.
pub const LANE_POOL_SLOTS: u32 = 64;

/// The engine configuration: every knob that matters for safety or determinism.
pub(crate) fn config() -> Config {
    let mut c = Config::new();
    c.strategy(Strategy::Cranelift) // never Winch (CVE-2026-34987 was a Winch escape)
        .cranelift_opt_level(OptLevel::Speed)
        .parallel_compilation(true)
        // The deterministic budget: a fuel counter in the generated code.
        .consume_fuel(true)
        // The wall-clock backstop: a cheap check against a global epoch bumped by a ticker.
        .epoch_interruption(true)
        // Wasm frames may use this much native stack; deeper recursion traps with
        // StackOverflow (calls also run on a big enough native stack, see stack.rs).
        .max_wasm_stack(MAX_WASM_STACK)
        // Determinism: NaN bit patterns are the only nondeterminism of scalar floats; relaxed
        // SIMD gets its deterministic lowering. Threads are not compiled in.
        .cranelift_nan_canonicalization(true)
        .relaxed_simd_deterministic(true)
        // The ABI has 32-bit pointers and one memory.
        .wasm_memory64(false)
        .wasm_multi_memory(false)
        .wasm_custom_page_sizes(false)
        .wasm_stack_switching(false)
        // Backtraces with function names (from the name section), no DWARF lookups, and no
        // dependence on the WASMTIME_BACKTRACE_DETAILS environment variable.
        .wasm_backtrace_max_frames(NonZeroUsize::new(32))
        .wasm_backtrace_details(WasmBacktraceDetails::Disable);
    c
}

/// [`config`] with instances from a pool of slots reserved once per engine, instead of an
/// mmap/munmap of each instance's memory (4 GiB reservation plus guard pages) per start: starts
/// are several times cheaper (docs/sandbox.md), and starts on several threads do not serialize
/// on the kernel's address-space lock. Each slot can hold the largest wasm32 memory; the bot's own
/// cap is the store's ResourceLimiter. The slots cost address space only (PROT_NONE, about
/// 4 GiB each), not memory.
fn pooled_config(slots: u32) -> Config {
    let mut c = config();
    let mut pool = PoolingAllocationConfig::new();
    pool.total_core_instances(slots)
        .total_memories(slots)
        .total_tables(slots)
        .max_memories_per_module(1)
        .max_tables_per_module(1)
        // A freed slot's first 32 MiB stay resident: the pages a bot wrote are put back (zeroed,
        // or copied from the module's memory image) rather than returned to the kernel, so the
        // next instance in the slot writes them without a page fault. Copy-on-write faults on an
        // interpreter's snapshot (16 MiB) otherwise cost more than its bot's work, and on two
        // threads each one interrupts the other core to flush its TLB. The rest goes back.
        .linear_memory_keep_resident(32 << 20)
        .table_keep_resident(64 << 10);
    c.allocation_strategy(InstanceAllocationStrategy::Pooling(pool));
    c
}

/// [`config`] for instances allocated on demand, when the pool's address space is refused (a
/// `ulimit -v`): a memory reserves what it uses plus 64 MiB to grow into (the default cap, so a
/// bot growing a page at a time is not copied at every page), and moves when it grows past that,
/// with explicit bounds checks instead of a 4 GiB reservation and guard region per instance
/// (which a limited address space refuses too). The guest sees the same memory, traps and fuel:
/// fuel counts wasm operators, not the machine code's bounds checks.
fn on_demand_config() -> Config {
    let mut c = config();
    c.memory_reservation(0).memory_guard_size(0).memory_reservation_for_growth(64 << 20);
    c
}

impl WasmEngine {
    /// The engine with a pool of `slots` instances (or, if `pool` is `None`, whichever works:
    /// the pool, else on-demand instances), and the ticker that serves both its epochs and the
    /// Lua `watch` list.
    ///
    /// `pool: Some(pooled)` asks for that kind of engine only: a lane must be the same kind as
    /// its sandbox, because compiled code moves between them and depends on the kind.
    pub(crate) fn new(watch: Arc<Watchlist>, slots: u32, pool: Option<bool>) -> Result<WasmEngine, String> {
        // The pool reserves its address space up front (about 4 GiB per slot); where that is
        // refused (a `ulimit -v`, or very many sandboxes alive in one process) instances are
        // allocated on demand instead: slower starts, the same behaviour and fuel.
        let pooled = match pool {
            Some(false) => Err(None),
            _ => Engine::new(&pooled_config(slots)).map_err(Some),
        };
        let (engine, pooled) = match (pooled, pool) {
            (Ok(engine), _) => (engine, true),
            (Err(e), Some(true)) => {
                return Err(format!(
                    "the WASM instance pool of {slots} slots cannot reserve its address space ({}); \
                     raise the address-space limit (`ulimit -v`) or run fewer sandboxes at once",
                    e.map_or_else(String::new, |e| format!("{e:#}"))
                ))
            }
            (Err(_), _) => {
                (Engine::new(&on_demand_config()).map_err(|e| format!("wasmtime engine: {e:#}"))?, false)
            }
        };
        let mut linker = Linker::<Host>::new(&engine);
        linker
            .func_wrap("env", "log", host_log)
            .and_then(|l| l.func_wrap("env", "budget_left", host_budget_left))
            .and_then(|l| l.func_wrap("env", "abort", host_abort))
            .and_then(|l| crate::bulk::define(l, out_of_fuel))
            .map_err(|e| format!("wasmtime linker: {e:#}"))?;
        let ticker = Ticker::start(engine.clone(), watch).map_err(|e| format!("epoch ticker: {e}"))?;
        Ok(WasmEngine { engine, linker, ticker: Some(ticker), pooled })
    }
}

impl Drop for WasmEngine {
    fn drop(&mut self) {
        drop(self.ticker.take());
    }
}

/// Every [`TICK`] until dropped: bumps the engine's epoch (the WASM backstop) and pokes the
/// overdue Lua calls (the Lua backstop, see `watchdog.rs`).
struct Ticker {
    stop: Option<mpsc::Sender<()>>,
    thread: Option<JoinHandle<()>>,
}

impl Ticker {
    fn start(engine: Engine, watch: Arc<Watchlist>) -> std::io::Result<Ticker> {
        let (stop, stopped) = mpsc::channel::<()>();
        let thread = std::thread::Builder::new()
            .name("cardarena-sandbox-epoch".into())
            .stack_size(64 << 10)
            .spawn(move || {
                while let Err(RecvTimeoutError::Timeout) = stopped.recv_timeout(TICK) {
                    engine.increment_epoch();
                    watch.poke_overdue();
                }
            })?;
        Ok(Ticker { stop: Some(stop), thread: Some(thread) })
    }
}

impl Drop for Ticker {
    fn drop(&mut self) {
        drop(self.stop.take()); // wakes the thread with `Disconnected`
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// Per-store host state.
pub(crate) struct Host {
    pub(crate) log: LogBook,
    pub(crate) memory_limit: usize,
    pub(crate) memory_peak: usize,
    /// The limiter refused a memory or table growth during the current call.
    pub(crate) resource_denied: bool,
    /// A host function ran out of fuel during the current call.
    pub(crate) host_fuel_out: bool,
    /// The standard streams of a WASI command (`wasi.rs`); empty for ABI bots.
    pub(crate) stdio: crate::stdio::Stdio,
}

/// The error that traps a guest whose memory or table growth the limiter refused.
#[derive(Debug)]
struct ResourceCap(String);

impl std::fmt::Display for ResourceCap {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for ResourceCap {}

/// The error that traps a guest when a host function cannot be paid for.
#[derive(Debug)]
struct HostFuelOut;

impl std::fmt::Display for HostFuelOut {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("all fuel consumed (in a host call)")
    }
}

impl std::error::Error for HostFuelOut {}

impl ResourceLimiter for Host {
    fn memory_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.memory_limit {
            self.resource_denied = true;
            return Err(wasmtime::Error::new(ResourceCap(format!(
                "linear memory of {desired} bytes requested; the cap is {} bytes",
                self.memory_limit
            ))));
        }
        self.memory_peak = self.memory_peak.max(desired);
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > MAX_TABLE_ELEMENTS {
            self.resource_denied = true;
            return Err(wasmtime::Error::new(ResourceCap(format!(
                "table of {desired} elements requested; the cap is {MAX_TABLE_ELEMENTS}"
            ))));
        }
        Ok(true)
    }

    fn instances(&self) -> usize {
        1
    }

    fn tables(&self) -> usize {
        1
    }

    fn memories(&self) -> usize {
        1
    }
}

/// Takes `cost` fuel from the store, or traps with [`HostFuelOut`].
pub(crate) fn charge_host(caller: &mut Caller<'_, Host>, cost: u64) -> wasmtime::Result<()> {
    let fuel = caller.get_fuel()?;
    if cost > fuel {
        caller.set_fuel(0)?;
        return Err(out_of_fuel(caller));
    }
    caller.set_fuel(fuel - cost)
}

/// The error that ends a guest whose fuel ran out in a host call (the verdict `fuel`).
pub(crate) fn out_of_fuel(caller: &mut Caller<'_, Host>) -> wasmtime::Error {
    caller.data_mut().host_fuel_out = true;
    wasmtime::Error::new(HostFuelOut)
}

/// `env.log(ptr, len)`: one line of the bot's log.
pub(crate) fn host_log(mut caller: Caller<'_, Host>, ptr: i32, len: i32) -> wasmtime::Result<()> {
    let (ptr, len) = (ptr as u32 as usize, len as u32 as usize);
    charge_host(&mut caller, LOG_BASE_FUEL + len as u64)?;
    let Some(Extern::Memory(memory)) = caller.get_export("memory") else {
        return Err(wasmtime::Error::msg("env.log: the module has no memory export"));
    };
    let (data, host) = memory.data_and_store_mut(&mut caller);
    match ptr.checked_add(len).filter(|&end| end <= data.len()) {
        Some(end) => {
            host.log.push(&data[ptr..end]);
            Ok(())
        }
        None => Err(wasmtime::Error::msg(format!(
            "env.log: bytes {ptr}..{} are outside linear memory ({} bytes)",
            ptr as u64 + len as u64,
            data.len()
        ))),
    }
}

/// `env.budget_left() -> i64`: the fuel left for this decision (already the smaller of the
/// decision's and the match's remaining fuel).
fn host_budget_left(mut caller: Caller<'_, Host>) -> wasmtime::Result<i64> {
    charge_host(&mut caller, BUDGET_LEFT_FUEL)?;
    Ok(i64::try_from(caller.get_fuel()?).unwrap_or(i64::MAX))
}

/// The most bytes of an AssemblyScript string `env.abort` reads (the rest is cut).
const ABORT_TEXT_BYTES: usize = 1024;

/// The error of a bot that called `env.abort`: its message and place, as the `crash` verdict's
/// message.
#[derive(Debug)]
struct Aborted(String);

impl std::fmt::Display for Aborted {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Aborted {}

/// `env.abort(msg, file, line, col)`, as AssemblyScript's compiler imports it by default (an
/// `assert` or a `throw` that fails): stops the bot with the `crash` verdict, its message and
/// place decoded. Charged as `env.log` is.
fn host_abort(
    mut caller: Caller<'_, Host>,
    msg: i32,
    file: i32,
    line: i32,
    col: i32,
) -> wasmtime::Result<()> {
    let Some(Extern::Memory(memory)) = caller.get_export("memory") else {
        return Err(wasmtime::Error::new(Aborted("the bot called env.abort".into())));
    };
    let data = memory.data(&caller);
    let (msg, file) = (assemblyscript_string(data, msg), assemblyscript_string(data, file));
    charge_host(&mut caller, LOG_BASE_FUEL + (msg.len() + file.len()) as u64)?;
    let msg = if msg.is_empty() { "(no message)".to_string() } else { msg };
    let place =
        if file.is_empty() { String::new() } else { format!(" at {file}:{}:{}", line as u32, col as u32) };
    Err(wasmtime::Error::new(Aborted(format!("the bot aborted: {msg}{place}"))))
}

/// An AssemblyScript string at `ptr` in `memory`: UTF-16LE code units, with their length in
/// bytes in the 32-bit word before `ptr` (the runtime's object header). Empty for a null or
/// out-of-bounds pointer; cut at [`ABORT_TEXT_BYTES`].
fn assemblyscript_string(memory: &[u8], ptr: i32) -> String {
    let ptr = ptr as u32 as usize;
    let Some(header) = ptr.checked_sub(4).and_then(|at| memory.get(at..ptr)) else {
        return String::new();
    };
    let len = u32::from_le_bytes(header.try_into().expect("4 bytes")) as usize;
    let len = len.min(ABORT_TEXT_BYTES) & !1;
    let Some(bytes) = memory.get(ptr..ptr.saturating_add(len)) else {
        return String::new();
    };
    let units: Vec<u16> = bytes.chunks_exact(2).map(|u| u16::from_le_bytes([u[0], u[1]])).collect();
    String::from_utf16_lossy(&units)
}

/// `module` on another sandbox's engine, without compiling it again: serialized once (kept in
/// `compiled`) and loaded into that engine, a small fraction of a compile. The program that
/// owns `module` links the copy again.
pub(crate) fn copy_module(
    module: &Module,
    compiled: &OnceLock<Result<Vec<u8>, String>>,
    shared: &crate::Shared,
) -> Result<Module, Fault> {
    let copy_failed =
        |e: &dyn std::fmt::Display| Fault::load(format!("cannot copy the module to a lane: {e}"));
    let compiled = compiled.get_or_init(|| module.serialize().map_err(|e| format!("{e:#}")));
    let compiled = compiled.as_ref().map_err(|e| copy_failed(e))?;
    // SAFETY: `compiled` is what `Module::serialize` made of this very module, in this process,
    // on an engine with the same configuration (`config()`; the pool is not part of the compiled
    // code). `deserialize` checks that the two engines are compatible and fails otherwise.
    unsafe { Module::deserialize(&shared.wasm.engine, compiled) }.map_err(|e| copy_failed(&e))
}

/// A validated, compiled module, shared by every match of that bot.
pub(crate) struct WasmProgram {
    pre: InstancePre<Host>,
    has_init: bool,
    engine: Arc<crate::Shared>,
    /// The compiled module, serialized at the first [`WasmProgram::on`] (for other lanes).
    compiled: OnceLock<Result<Vec<u8>, String>>,
}

fn signature(f: &FuncType) -> String {
    let list = |it: &mut dyn Iterator<Item = wasmtime::ValType>| {
        it.map(|t| t.to_string()).collect::<Vec<_>>().join(" ")
    };
    format!("(param {}) (result {})", list(&mut f.params()), list(&mut f.results()))
}

const SIG_LOG: &str = "(param i32 i32) (result )";
const SIG_BUDGET: &str = "(param ) (result i64)";
const SIG_ABORT: &str = "(param i32 i32 i32 i32) (result )";
const SIG_ALLOC: &str = "(param i32) (result i32)";
const SIG_ACT: &str = "(param i32 i32) (result i64)";
const SIG_INIT: &str = "(param i32 i32) (result )";

fn pretty(sig: &str) -> String {
    sig.replace("(param )", "").replace("(result )", "").trim().replace("  ", " ")
}

impl WasmProgram {
    /// Compiles and validates a `.wasm` or `.wat` module against the ABI.
    pub(crate) fn load(shared: &Arc<crate::Shared>, bytes: &[u8]) -> Result<WasmProgram, Fault> {
        if bytes.len() > MAX_WASM_MODULE {
            return Err(Fault::load(format!(
                "the module is {} bytes; the limit is {MAX_WASM_MODULE}",
                bytes.len()
            )));
        }
        if !bytes.starts_with(b"\0asm") && bytes.len() > MAX_WAT_TEXT {
            return Err(Fault::load(format!(
                "the module's text is {} bytes; the limit for text (.wat) is {MAX_WAT_TEXT}: \
                 compile it to a binary .wasm",
                bytes.len()
            )));
        }
        let malformed =
            |e: &dyn std::fmt::Display| Fault::load(format!("malformed WebAssembly module: {e:#}"));
        let binary = wat::parse_bytes(bytes).map_err(|e| malformed(&e))?;
        crate::shape::check(&binary)?;
        let binary = crate::bulk::instrument(&binary)?;
        let module = Module::from_binary(&shared.wasm.engine, &binary).map_err(|e| malformed(&e))?;
        WasmProgram::checked(shared, &module)
    }

    /// Checks a compiled module against the ABI and links it.
    fn checked(shared: &Arc<crate::Shared>, module: &Module) -> Result<WasmProgram, Fault> {
        let mut problems = Vec::new();
        for import in module.imports() {
            let (m, n) = (import.module(), import.name());
            let want = match (m, n) {
                ("env", "log") => SIG_LOG,
                ("env", "budget_left") => SIG_BUDGET,
                ("env", "abort") => SIG_ABORT,
                // The bounds checks that `bulk::instrument` added (a bot's own are refused there).
                (crate::bulk::MODULE, _) => continue,
                _ => {
                    problems.push(format!(
                        "unknown import `{m}.{n}` (only env.log, env.budget_left and env.abort are provided)"
                    ));
                    continue;
                }
            };
            match import.ty() {
                ExternType::Func(f) if signature(&f) == want => {}
                other => problems.push(format!(
                    "import `{m}.{n}` must be a function {}, not {}",
                    pretty(want),
                    describe_extern(&other)
                )),
            }
        }
        let mut has = |name: &str, want: Option<&str>| -> bool {
            match (module.get_export(name), want) {
                (None, _) => false,
                (Some(ExternType::Memory(m)), None) => {
                    if m.is_64() || m.is_shared() {
                        problems.push(format!("export `{name}` must be a 32-bit, unshared memory"));
                    }
                    true
                }
                (Some(ExternType::Func(f)), Some(want)) if signature(&f) == want => true,
                (Some(other), want) => {
                    problems.push(format!(
                        "export `{name}` must be {}, not {}",
                        want.map_or("a memory".to_string(), |w| format!("a function {}", pretty(w))),
                        describe_extern(&other)
                    ));
                    true
                }
            }
        };
        let required = [("memory", None), ("alloc", Some(SIG_ALLOC)), ("act", Some(SIG_ACT))];
        let mut missing: Vec<&str> = Vec::new();
        for (name, want) in required {
            if !has(name, want) {
                missing.push(name);
            }
        }
        let has_init = has("init", Some(SIG_INIT));
        if !missing.is_empty() {
            problems.push(format!(
                "missing export{} {}",
                if missing.len() > 1 { "s" } else { "" },
                missing.iter().map(|n| format!("`{n}`")).collect::<Vec<_>>().join(", ")
            ));
        }
        if !problems.is_empty() {
            return Err(Fault::load(problems.join("; ")));
        }
        let pre = shared
            .wasm
            .linker
            .instantiate_pre(module)
            .map_err(|e| Fault::load(format!("cannot link the module: {e:#}")))?;
        Ok(WasmProgram { pre, has_init, engine: shared.clone(), compiled: OnceLock::new() })
    }

    /// The same compiled code on another sandbox's engine (or this program itself when it is
    /// already that engine's), so the bot's replies and fuel do not depend on the engine it
    /// runs on. The code is not compiled again: it is serialized once and loaded into the other
    /// engine, which costs a small fraction of a compile.
    pub(crate) fn on(self: &Arc<Self>, shared: &Arc<crate::Shared>) -> Result<Arc<WasmProgram>, Fault> {
        if Arc::ptr_eq(&self.engine, shared) {
            return Ok(self.clone());
        }
        let module = copy_module(self.pre.module(), &self.compiled, shared)?;
        WasmProgram::checked(shared, &module).map(Arc::new)
    }

    /// The module's compiled code, serialized (made once, shared with [`WasmProgram::on`]).
    pub(crate) fn compiled(&self) -> Result<Vec<u8>, String> {
        self.compiled.get_or_init(|| self.pre.module().serialize().map_err(|e| format!("{e:#}"))).clone()
    }

    /// A program from compiled code that [`WasmProgram::compiled`] made on an engine with the
    /// same configuration, checked against the ABI again.
    ///
    /// # Safety
    /// `compiled` must be bytes that `compiled` made (wasmtime runs the machine code in them):
    /// never bytes from anyone the host does not trust.
    pub(crate) unsafe fn from_compiled(
        shared: &Arc<crate::Shared>,
        compiled: &[u8],
    ) -> Result<WasmProgram, Fault> {
        // SAFETY: the caller's promise; `deserialize` itself refuses code of another engine
        // configuration or wasmtime version.
        let module = unsafe { Module::deserialize(&shared.wasm.engine, compiled) }
            .map_err(|e| Fault::load(format!("cannot load compiled code: {e:#}")))?;
        WasmProgram::checked(shared, &module)
    }

    /// A fresh instance: start function and `init` run under `limits.fuel_init`.
    pub(crate) fn start(
        self: &Arc<Self>,
        limits: &Limits,
        init_info_json: &str,
    ) -> Result<WasmInstance, Fault> {
        let mut inst = WasmInstance {
            program: self.clone(),
            limits: limits.clone(),
            init_info: init_info_json.as_bytes().to_vec(),
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

fn describe_extern(t: &ExternType) -> String {
    match t {
        ExternType::Func(f) => format!("a function {}", pretty(&signature(f))),
        ExternType::Memory(_) => "a memory".into(),
        ExternType::Table(_) => "a table".into(),
        ExternType::Global(_) => "a global".into(),
        _ => "another kind of item".into(),
    }
}

/// The exports of a live instance.
struct Live {
    memory: Memory,
    alloc: TypedFunc<i32, i32>,
    act: TypedFunc<(i32, i32), i64>,
}

/// One WASM bot in one match. After any trap the instance is discarded; the next `act`
/// instantiates the module again (start function and `init` rerun under the init fuel), so
/// the bot's in-memory state is lost.
pub(crate) struct WasmInstance {
    program: Arc<WasmProgram>,
    limits: Limits,
    init_info: Vec<u8>,
    store: Option<Store<Host>>,
    live: Option<Live>,
    /// The log while no store holds it (between a trap and the next instantiation).
    log: Option<LogBook>,
    memory_peak: u64,
    fuel_used_last: u64,
    fuel_total: u64,
    fuel_init: u64,
    /// The observation's JSON text, for `act_value` (reused from one decision to the next).
    json: Vec<u8>,
}

pub(crate) fn epoch_ticks(wall: Duration) -> u64 {
    (wall.as_nanos() / TICK.as_nanos()) as u64 + 1
}

impl WasmInstance {
    /// Creates a store and instance, then runs `init`, under the init fuel.
    fn instantiate(&mut self) -> Result<(), Fault> {
        self.live = None;
        let log = self
            .log
            .take()
            .or_else(|| self.store.take().map(|s| s.into_data().log))
            .unwrap_or_else(|| LogBook::new(self.limits.log_bytes_per_match));
        let memory_limit = usize::try_from(self.limits.memory_bytes).unwrap_or(usize::MAX);
        let mut store = Store::new(
            &self.program.engine.wasm.engine,
            Host {
                log,
                memory_limit,
                memory_peak: 0,
                resource_denied: false,
                host_fuel_out: false,
                stdio: crate::stdio::Stdio::default(),
            },
        );
        store.limiter(|h| h as &mut dyn ResourceLimiter);
        store.epoch_deadline_trap();
        let budget = self.limits.fuel_init;
        let prepared = store
            .set_fuel(budget)
            .map(|()| store.set_epoch_deadline(epoch_ticks(self.limits.wall_per_decision)));
        let result = prepared.and_then(|()| {
            let instance = self.program.pre.instantiate(&mut store)?;
            let live = Live {
                memory: instance
                    .get_memory(&mut store, "memory")
                    .ok_or_else(|| wasmtime::Error::msg("no memory export"))?,
                alloc: instance.get_typed_func(&mut store, "alloc")?,
                act: instance.get_typed_func(&mut store, "act")?,
            };
            let init = if self.program.has_init {
                Some(instance.get_typed_func::<(i32, i32), ()>(&mut store, "init")?)
            } else {
                None
            };
            Ok((live, init))
        });
        self.fuel_init = budget - store.get_fuel().unwrap_or(0);
        self.fuel_used_last = self.fuel_init;
        self.memory_peak = self.memory_peak.max(store.data().memory_peak as u64);
        let (live, init) = match result {
            Ok(x) => x,
            Err(e) => {
                let fault = self.classify(&store, &e, "start");
                self.store = Some(store);
                return Err(fault);
            }
        };
        if let Some(init) = init {
            let info = std::mem::take(&mut self.init_info);
            let r = write_input(&mut store, &live, &info)
                .and_then(|ptr| init.call(&mut store, (ptr, info.len() as i32)).map_err(CallError::Trap));
            self.init_info = info;
            self.fuel_init = budget - store.get_fuel().unwrap_or(0);
            self.fuel_used_last = self.fuel_init;
            self.memory_peak = self.memory_peak.max(store.data().memory_peak as u64);
            if let Err(e) = r {
                let fault = match e {
                    CallError::Bad(msg) => self.fault(Verdict::Invalid, msg, None),
                    CallError::Trap(e) => self.classify(&store, &e, "init"),
                };
                self.store = Some(store);
                return Err(fault);
            }
        }
        self.store = Some(store);
        self.live = Some(live);
        Ok(())
    }

    pub(crate) fn act(&mut self, observation_json: &str) -> Result<String, Fault> {
        crate::stack::on_guest_stack(|| self.act_inner(observation_json.as_bytes()))
    }

    /// One decision on a value: its JSON text, written by `write_json` into a buffer reused
    /// across decisions.
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
        let prepared = store.set_fuel(budget).map(|()| {
            store.set_epoch_deadline(epoch_ticks(self.limits.wall_per_decision));
        });
        let result = match prepared {
            Err(e) => Err(CallError::Trap(e)),
            Ok(()) => write_input(store, live, input).and_then(|ptr| {
                live.act.call(&mut *store, (ptr, input.len() as i32)).map_err(CallError::Trap)
            }),
        };
        let used = budget - store.get_fuel().unwrap_or(0);
        self.fuel_used_last = used;
        self.fuel_total = self.fuel_total.saturating_add(used);
        self.memory_peak = self.memory_peak.max(store.data().memory_peak as u64);
        match result {
            Ok(packed) => self.read_reply(packed),
            Err(CallError::Bad(msg)) => Err(self.fault(Verdict::Invalid, msg, None)),
            Err(CallError::Trap(e)) => {
                let store = self.store.take();
                let fault = match &store {
                    Some(s) => self.classify(s, &e, "decision"),
                    None => self.fault(Verdict::Crash, format!("{e:#}"), None),
                };
                // Discard the instance: after a trap its state (e.g. the shadow stack
                // pointer of a Rust or C guest) may be broken.
                self.live = None;
                self.log = store.map(|s| s.into_data().log);
                Err(fault)
            }
        }
    }

    fn read_reply(&self, packed: i64) -> Result<String, Fault> {
        let (Some(store), Some(live)) = (self.store.as_ref(), self.live.as_ref()) else {
            return Err(self.fault(Verdict::Crash, "sandbox: no instance".into(), None));
        };
        let ptr = (packed as u64 >> 32) as usize;
        let len = (packed as u64 & 0xffff_ffff) as usize;
        let data = live.memory.data(store);
        let Some(bytes) = ptr.checked_add(len).and_then(|end| data.get(ptr..end)) else {
            return Err(self.fault(
                Verdict::Invalid,
                format!(
                    "act returned bytes {ptr}..{} which are outside linear memory ({} bytes)",
                    ptr + len,
                    data.len()
                ),
                None,
            ));
        };
        if len > MAX_REPLY_BYTES {
            return Err(self.fault(
                Verdict::Invalid,
                format!("the reply is {len} bytes long; the limit is {MAX_REPLY_BYTES}"),
                None,
            ));
        }
        match std::str::from_utf8(bytes) {
            Ok(s) => Ok(s.to_owned()),
            Err(e) => Err(self.fault(Verdict::Invalid, format!("the reply is not valid UTF-8: {e}"), None)),
        }
    }

    /// Maps a wasmtime error to a fault (see [`classify`]).
    fn classify(&self, store: &Store<Host>, e: &wasmtime::Error, phase: &str) -> Fault {
        let (verdict, message, trace) =
            classify(store.data(), e, phase, self.limits.wall_per_decision, || self.fuel_message(phase));
        self.fault(verdict, message, trace)
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
            _ => format!("fuel exhausted: the {phase} budget is {}", self.limits.fuel_init),
        }
    }

    fn fault(&self, verdict: Verdict, message: String, trace: Option<String>) -> Fault {
        Fault::new(verdict, message)
            .with_usage(self.fuel_used_last, self.fuel_total, self.memory_peak)
            .with_trace(trace)
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

/// Maps a wasmtime error of a guest call to a verdict, a message and the backtrace, in one
/// place for every kind of WASM bot. `fuel_message` says which fuel budget ran out.
pub(crate) fn classify(
    host: &Host,
    e: &wasmtime::Error,
    phase: &str,
    wall: Duration,
    fuel_message: impl FnOnce() -> String,
) -> (Verdict, String, Option<String>) {
    let trace = e.downcast_ref::<WasmBacktrace>().map(|b| b.to_string());
    if host.resource_denied || e.downcast_ref::<ResourceCap>().is_some() {
        let msg = e.downcast_ref::<ResourceCap>().map_or_else(|| format!("{e:#}"), |c| c.0.clone());
        return (Verdict::Memory, format!("{msg} ({phase})"), trace);
    }
    if host.host_fuel_out || e.downcast_ref::<HostFuelOut>().is_some() {
        return (Verdict::Fuel, fuel_message(), trace);
    }
    let (verdict, message) = match e.downcast_ref::<Trap>() {
        Some(Trap::OutOfFuel) => {
            let site = e.downcast_ref::<WasmBacktrace>().and_then(|b| b.frames().first()).map(|f| {
                f.func_name()
                    .map_or_else(|| format!("function #{}", f.func_index()), |n| format!("function `{n}`"))
            });
            let msg = fuel_message();
            (Verdict::Fuel, site.map_or_else(|| msg.clone(), |s| format!("{msg}; it ran out in {s}")))
        }
        Some(Trap::Interrupt) => (
            Verdict::Wallclock,
            format!("stopped by the wall-clock backstop after {wall:?} ({phase}; the fuel did not run out)"),
        ),
        Some(Trap::StackOverflow) => (Verdict::Stack, format!("{} ({phase})", Trap::StackOverflow)),
        Some(t) => (Verdict::Crash, format!("{t} ({phase})")),
        None => (Verdict::Crash, format!("{} ({phase})", root_message(e))),
    };
    (verdict, message, trace)
}

/// Why a guest call failed: a trap (or host error), or an ABI violation by the guest.
enum CallError {
    Trap(wasmtime::Error),
    Bad(String),
}

/// Copies `input` into guest memory at a pointer from the guest's `alloc`.
fn write_input(store: &mut Store<Host>, live: &Live, input: &[u8]) -> Result<i32, CallError> {
    let len = i32::try_from(input.len())
        .map_err(|_| CallError::Bad("the input does not fit in an i32 length".into()))?;
    let ptr = live.alloc.call(&mut *store, len).map_err(CallError::Trap)?;
    live.memory.write(&mut *store, ptr as u32 as usize, input).map_err(|_| {
        CallError::Bad(format!(
            "alloc({len}) returned {}, and {len} bytes there are outside linear memory",
            ptr as u32
        ))
    })?;
    Ok(ptr)
}

/// The innermost message of an error chain (without the backtrace context).
fn root_message(e: &wasmtime::Error) -> String {
    e.root_cause().to_string()
}
