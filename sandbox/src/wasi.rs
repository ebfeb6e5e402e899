//! Legacy stdin/stdout bots: a WASI preview1 *command* (a C, Rust or Zig program compiled for
//! `wasm32-wasi`/`wasm32-wasip1`) run once per decision, as the original referees ran a process
//! per decision: the decision's input is its stdin, ending in EOF; its stdout is the reply.
//!
//! The host side of `wasi_snapshot_preview1` is written here rather than taken from
//! `wasmtime-wasi` (which brings tokio, the component model and a global runtime): every answer
//! the program can get is deterministic and metered.
//!
//! * `fd_read` (fd 0) reads the stdin buffer, then EOF; `fd_write` (fd 1, 2) appends to stdout
//!   (capped at [`MAX_STDOUT`]) or to the bot's log (stderr, one log line per line).
//! * fds 0-2 are character devices (so wasi-libc line-buffers stdout, as on a terminal), not
//!   seekable (`fd_seek`: SPIPE); other fds are BADF, and there are no preopened directories.
//! * `proc_exit` ends the run with an exit code; no arguments, no environment.
//! * Clocks read a fixed date (2018-05-14T00:00:00Z) plus the fuel used so far in the run, one
//!   nanosecond per unit; `random_get` gives a stream seeded by the caller (match seed, seat,
//!   decision).
//! * Every other preview1 function is a stub of the module's own type that answers NOSYS; the
//!   first one called is named in a failing run's message.
//!
//! Bytes read and written cost fuel ([`IO_BASE_FUEL`] per call plus [`IOVEC_FUEL`] per iovec and
//! one per byte); a call takes at most [`IOV_MAX`] iovecs.

use std::sync::{Arc, OnceLock};

use wasmtime::{
    Caller, Extern, ExternType, InstancePre, Linker, Module, ResourceLimiter, Store, Val, ValType,
};

use crate::log::LogBook;
use crate::stdio::Stdio;
use crate::wasm::{charge_host, classify, copy_module, epoch_ticks, Host};
use crate::{Fault, Limits, Sandbox, Verdict, MAX_WASM_MODULE};

/// Most bytes a run may write to stdout; more is the verdict `invalid` ("output over 64 KiB").
pub const MAX_STDOUT: usize = 64 << 10;
/// Fuel charged for each stream call (`fd_read`, `fd_write`, `random_get`), plus one per byte
/// (and [`IOVEC_FUEL`] per iovec).
pub const IO_BASE_FUEL: u64 = 20;
/// Fuel per iovec of an `fd_read`/`fd_write`, charged before the iovecs are read: reading one
/// takes about as long as 4 units of plain wasm (docs/sandbox.md, "CPU per unit of fuel").
pub const IOVEC_FUEL: u64 = 4;
/// Most iovecs in one `fd_read`/`fd_write` (POSIX's `IOV_MAX`); more is EINVAL.
pub const IOV_MAX: usize = 1024;
/// Names the shim's behaviour (what a program can observe of it, and its fuel charges): it is
/// part of a legacy bot's recorded identity, because a change may change a bot's replies or
/// fuel.
pub const SHIM_VERSION: &str = "wasi-shim 2";
/// The clocks' fixed start: 2018-05-14T00:00:00Z (the COMP1511 Intensity deadline), in ns.
const CLOCK_BASE_NS: u64 = 1_526_256_000 * 1_000_000_000;

const MODULE: &str = "wasi_snapshot_preview1";

// Errno values of preview1.
const SUCCESS: i32 = 0;
const BADF: i32 = 8;
const FAULT: i32 = 21;
const INVAL: i32 = 28;
const NOSYS: i32 = 52;
const SPIPE: i32 = 70;
/// `filetype::character_device`.
const CHARACTER_DEVICE: u8 = 2;

/// Every function of `wasi_snapshot_preview1`. The ones not defined below are NOSYS stubs.
const PREVIEW1: &[&str] = &[
    "args_get",
    "args_sizes_get",
    "clock_res_get",
    "clock_time_get",
    "environ_get",
    "environ_sizes_get",
    "fd_advise",
    "fd_allocate",
    "fd_close",
    "fd_datasync",
    "fd_fdstat_get",
    "fd_fdstat_set_flags",
    "fd_fdstat_set_rights",
    "fd_filestat_get",
    "fd_filestat_set_size",
    "fd_filestat_set_times",
    "fd_pread",
    "fd_prestat_dir_name",
    "fd_prestat_get",
    "fd_pwrite",
    "fd_read",
    "fd_readdir",
    "fd_renumber",
    "fd_seek",
    "fd_sync",
    "fd_tell",
    "fd_write",
    "path_create_directory",
    "path_filestat_get",
    "path_filestat_set_times",
    "path_link",
    "path_open",
    "path_readlink",
    "path_remove_directory",
    "path_rename",
    "path_symlink",
    "path_unlink_file",
    "poll_oneoff",
    "proc_exit",
    "proc_raise",
    "random_get",
    "sched_yield",
    "sock_accept",
    "sock_recv",
    "sock_send",
    "sock_shutdown",
];

/// The error that ends a run at `proc_exit`.
#[derive(Debug)]
struct ProcExit(i32);

impl std::fmt::Display for ProcExit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "proc_exit({})", self.0)
    }
}

impl std::error::Error for ProcExit {}

fn splitmix(state: &mut u64) -> u64 {
    *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
    let mut z = *state;
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The guest's memory and the host state, or FAULT if the module has no memory.
fn memory<'a>(caller: &'a mut Caller<'_, Host>) -> Result<(&'a mut [u8], &'a mut Host), i32> {
    match caller.get_export("memory") {
        Some(Extern::Memory(m)) => Ok(m.data_and_store_mut(caller)),
        _ => Err(FAULT),
    }
}

fn range(data: &[u8], ptr: i32, len: usize) -> Result<std::ops::Range<usize>, i32> {
    let start = ptr as u32 as usize;
    let end = start.checked_add(len).filter(|&e| e <= data.len()).ok_or(FAULT)?;
    Ok(start..end)
}

fn get_u32(data: &[u8], ptr: i32) -> Result<u32, i32> {
    let r = range(data, ptr, 4)?;
    Ok(u32::from_le_bytes(data[r].try_into().expect("4 bytes")))
}

fn put(data: &mut [u8], ptr: i32, bytes: &[u8]) -> Result<(), i32> {
    let r = range(data, ptr, bytes.len())?;
    data[r].copy_from_slice(bytes);
    Ok(())
}

/// The `(buf, len)` pairs of an iovec array, bounds-checked, after charging
/// [`IO_BASE_FUEL`] for the call and [`IOVEC_FUEL`] per iovec (EINVAL past [`IOV_MAX`] iovecs, as POSIX
/// says; so the host reads at most 1024 pairs, 16 KiB, per call).
fn iovecs(
    caller: &mut Caller<'_, Host>,
    iovs: i32,
    count: i32,
) -> wasmtime::Result<Result<Vec<std::ops::Range<usize>>, i32>> {
    let count = match usize::try_from(count) {
        Ok(n) if n <= IOV_MAX => n,
        _ => {
            charge_host(caller, IO_BASE_FUEL)?;
            return Ok(Err(INVAL));
        }
    };
    charge_host(caller, IO_BASE_FUEL + IOVEC_FUEL * count as u64)?;
    let data = match memory(caller) {
        Ok((data, _)) => data,
        Err(e) => return Ok(Err(e)),
    };
    Ok(range(data, iovs, count * 8).and_then(|_| {
        (0..count)
            .map(|i| {
                let at = iovs.wrapping_add(8 * i as i32);
                let (buf, len) = (get_u32(data, at)?, get_u32(data, at.wrapping_add(4))?);
                range(data, buf as i32, len as usize)
            })
            .collect()
    }))
}

/// Turns an errno result into the guest's return value.
fn errno(r: Result<(), i32>) -> i32 {
    r.err().unwrap_or(SUCCESS)
}

fn fd_read(
    mut caller: Caller<'_, Host>,
    fd: i32,
    iovs: i32,
    count: i32,
    nread: i32,
) -> wasmtime::Result<i32> {
    if fd != 0 {
        return Ok(BADF);
    }
    let left = {
        let s = &caller.data().stdio;
        s.stdin.len() - s.read
    };
    let ranges = match iovecs(&mut caller, iovs, count)? {
        Ok(v) => v,
        Err(e) => return Ok(e),
    };
    // Charged before the copy, on at most what is left: a read past EOF costs no bytes.
    let wanted = ranges.iter().map(|r| r.len()).sum::<usize>().min(left);
    charge_host(&mut caller, wanted as u64)?;
    let (data, host) = match memory(&mut caller) {
        Ok(x) => x,
        Err(e) => return Ok(e),
    };
    let mut n = 0usize;
    for r in ranges {
        let s = &mut host.stdio;
        let take = r.len().min(s.stdin.len() - s.read);
        data[r.start..r.start + take].copy_from_slice(&s.stdin[s.read..s.read + take]);
        s.read += take;
        n += take;
    }
    Ok(errno(put(data, nread, &(n as u32).to_le_bytes())))
}

fn fd_write(
    mut caller: Caller<'_, Host>,
    fd: i32,
    iovs: i32,
    count: i32,
    nwritten: i32,
) -> wasmtime::Result<i32> {
    if fd != 1 && fd != 2 {
        return Ok(BADF);
    }
    let ranges = match iovecs(&mut caller, iovs, count)? {
        Ok(v) => v,
        Err(e) => return Ok(e),
    };
    let total = ranges.iter().map(|r| r.len()).sum::<usize>();
    charge_host(&mut caller, total as u64)?;
    let (data, host) = match memory(&mut caller) {
        Ok(x) => x,
        Err(e) => return Ok(e),
    };
    for r in ranges {
        let bytes = &data[r];
        if fd == 1 {
            let s = &mut host.stdio;
            let room = MAX_STDOUT - s.stdout.len();
            s.stdout.extend_from_slice(&bytes[..bytes.len().min(room)]);
            s.stdout_over |= bytes.len() > room;
        } else {
            for (i, part) in bytes.split(|&b| b == b'\n').enumerate() {
                if i > 0 {
                    host.log.push(&std::mem::take(&mut host.stdio.stderr_line));
                }
                let line = &mut host.stdio.stderr_line;
                line.extend_from_slice(&part[..part.len().min(MAX_STDOUT.saturating_sub(line.len()))]);
            }
        }
    }
    // The whole write counts as done (even past the cap), so libc never retries it.
    Ok(errno(put(data, nwritten, &(total as u32).to_le_bytes())))
}

fn fd_close(_: Caller<'_, Host>, fd: i32) -> i32 {
    if (0..=2).contains(&fd) {
        SUCCESS
    } else {
        BADF
    }
}

fn fd_seek(_: Caller<'_, Host>, fd: i32, _offset: i64, _whence: i32, _new: i32) -> i32 {
    if (0..=2).contains(&fd) {
        SPIPE
    } else {
        BADF
    }
}

fn fd_fdstat_get(mut caller: Caller<'_, Host>, fd: i32, buf: i32) -> i32 {
    if !(0..=2).contains(&fd) {
        return BADF;
    }
    // filetype u8 @0, flags u16 @2, rights_base u64 @8, rights_inheriting u64 @16. No rights:
    // with a character device, wasi-libc's isatty() is true, so stdout is line-buffered.
    let mut stat = [0u8; 24];
    stat[0] = CHARACTER_DEVICE;
    errno(memory(&mut caller).and_then(|(data, _)| put(data, buf, &stat)))
}

fn fd_fdstat_set_flags(_: Caller<'_, Host>, fd: i32, _flags: i32) -> i32 {
    if (0..=2).contains(&fd) {
        SUCCESS
    } else {
        BADF
    }
}

fn fd_prestat_get(_: Caller<'_, Host>, _fd: i32, _buf: i32) -> i32 {
    BADF // no preopened directories: ends libc's scan of them
}

fn fd_prestat_dir_name(_: Caller<'_, Host>, _fd: i32, _path: i32, _len: i32) -> i32 {
    BADF
}

fn proc_exit(_: Caller<'_, Host>, code: i32) -> wasmtime::Result<()> {
    Err(wasmtime::Error::new(ProcExit(code)))
}

/// `args_sizes_get` and `environ_sizes_get`: zero entries, zero bytes.
fn sizes_get(mut caller: Caller<'_, Host>, count: i32, size: i32) -> i32 {
    errno(memory(&mut caller).and_then(|(data, _)| {
        put(data, count, &0u32.to_le_bytes())?;
        put(data, size, &0u32.to_le_bytes())
    }))
}

/// `args_get` and `environ_get`: nothing to write.
fn list_get(_: Caller<'_, Host>, _ptrs: i32, _buf: i32) -> i32 {
    SUCCESS
}

fn clock_time_get(
    mut caller: Caller<'_, Host>,
    id: i32,
    _precision: i64,
    time: i32,
) -> wasmtime::Result<i32> {
    let used = caller.data().stdio.fuel_start.saturating_sub(caller.get_fuel()?);
    let now = match id {
        0 => CLOCK_BASE_NS + used, // realtime
        1..=3 => used,             // monotonic, process and thread CPU time
        _ => return Ok(INVAL),
    };
    Ok(errno(memory(&mut caller).and_then(|(data, _)| put(data, time, &now.to_le_bytes()))))
}

fn clock_res_get(mut caller: Caller<'_, Host>, id: i32, res: i32) -> i32 {
    if !(0..=3).contains(&id) {
        return INVAL;
    }
    errno(memory(&mut caller).and_then(|(data, _)| put(data, res, &1u64.to_le_bytes())))
}

fn random_get(mut caller: Caller<'_, Host>, buf: i32, len: i32) -> wasmtime::Result<i32> {
    charge_host(&mut caller, IO_BASE_FUEL + len as u32 as u64)?;
    let (data, host) = match memory(&mut caller) {
        Ok(x) => x,
        Err(e) => return Ok(e),
    };
    let r = range(data, buf, len as u32 as usize).map(|r| {
        for chunk in data[r].chunks_mut(8) {
            let word = splitmix(&mut host.stdio.random).to_le_bytes();
            chunk.copy_from_slice(&word[..chunk.len()]);
        }
    });
    Ok(errno(r))
}

fn sched_yield(_: Caller<'_, Host>) -> i32 {
    SUCCESS
}

/// The WASI functions written here; the rest of [`PREVIEW1`] are NOSYS stubs.
pub(crate) fn define(linker: &mut Linker<Host>) -> wasmtime::Result<()> {
    linker
        .func_wrap(MODULE, "fd_read", fd_read)?
        .func_wrap(MODULE, "fd_write", fd_write)?
        .func_wrap(MODULE, "fd_close", fd_close)?
        .func_wrap(MODULE, "fd_seek", fd_seek)?
        .func_wrap(MODULE, "fd_fdstat_get", fd_fdstat_get)?
        .func_wrap(MODULE, "fd_fdstat_set_flags", fd_fdstat_set_flags)?
        .func_wrap(MODULE, "fd_prestat_get", fd_prestat_get)?
        .func_wrap(MODULE, "fd_prestat_dir_name", fd_prestat_dir_name)?
        .func_wrap(MODULE, "proc_exit", proc_exit)?
        .func_wrap(MODULE, "args_sizes_get", sizes_get)?
        .func_wrap(MODULE, "environ_sizes_get", sizes_get)?
        .func_wrap(MODULE, "args_get", list_get)?
        .func_wrap(MODULE, "environ_get", list_get)?
        .func_wrap(MODULE, "clock_time_get", clock_time_get)?
        .func_wrap(MODULE, "clock_res_get", clock_res_get)?
        .func_wrap(MODULE, "random_get", random_get)?
        .func_wrap(MODULE, "sched_yield", sched_yield)?;
    Ok(())
}

/// A NOSYS stub of preview1 function `name`, of the importer's own type `ty`: it answers NOSYS
/// (any other result is zero) and the first one called is named in a failing run's message.
fn define_stub(linker: &mut Linker<Host>, name: &str, ty: wasmtime::FuncType) -> wasmtime::Result<()> {
    let fname: Arc<str> = name.into();
    let wide: Vec<bool> = ty.results().map(|t| matches!(t, ValType::I64)).collect();
    linker.func_new(MODULE, name, ty, move |mut caller, _params, results: &mut [Val]| {
        let stdio = &mut caller.data_mut().stdio;
        stdio.nosys.get_or_insert_with(|| fname.to_string());
        for (slot, (val, &wide)) in results.iter_mut().zip(&wide).enumerate() {
            *val = match (wide, slot) {
                (true, _) => Val::I64(0),
                (false, 0) => Val::I32(NOSYS),
                (false, _) => Val::I32(0),
            };
        }
        Ok(())
    })?;
    Ok(())
}

/// NOSYS stubs for the preview1 functions `module` imports that [`define`] does not write
/// (an interpreter's C or Rust library may import file functions it never calls for a bot).
pub(crate) fn define_stubs(linker: &mut Linker<Host>, module: &Module) -> wasmtime::Result<()> {
    for import in module.imports() {
        let (m, n) = (import.module(), import.name());
        if m == MODULE && PREVIEW1.contains(&n) && !DEFINED.contains(&n) {
            if let ExternType::Func(ty) = import.ty() {
                define_stub(linker, n, ty)?;
            }
        }
    }
    Ok(())
}

const DEFINED: &[&str] = &[
    "fd_read",
    "fd_write",
    "fd_close",
    "fd_seek",
    "fd_fdstat_get",
    "fd_fdstat_set_flags",
    "fd_prestat_get",
    "fd_prestat_dir_name",
    "proc_exit",
    "args_sizes_get",
    "environ_sizes_get",
    "args_get",
    "environ_get",
    "clock_time_get",
    "clock_res_get",
    "random_get",
    "sched_yield",
];

/// A compiled WASI command, checked and linked once, shared by every match of that bot. Cheap
/// to clone and shareable across threads.
#[derive(Clone)]
pub struct StdioProgram {
    name: Arc<str>,
    hash: String,
    pre: InstancePre<Host>,
    shared: Arc<crate::Shared>,
    /// The compiled module, serialized at the first [`StdioProgram::on`] another engine.
    compiled: Arc<OnceLock<Result<Vec<u8>, String>>>,
}

impl std::fmt::Debug for StdioProgram {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StdioProgram")
            .field("name", &self.name)
            .field("hash", &self.hash)
            .finish_non_exhaustive()
    }
}

impl StdioProgram {
    pub(crate) fn load(shared: &Arc<crate::Shared>, name: &str, bytes: &[u8]) -> Result<StdioProgram, Fault> {
        if bytes.len() > MAX_WASM_MODULE {
            return Err(Fault::load(format!(
                "the module is {} bytes; the limit is {MAX_WASM_MODULE}",
                bytes.len()
            )));
        }
        let malformed =
            |e: &dyn std::fmt::Display| Fault::load(format!("malformed WebAssembly module: {e:#}"));
        let binary = wat::parse_bytes(bytes).map_err(|e| malformed(&e))?;
        let binary = crate::bulk::instrument(&binary)?;
        let module = Module::from_binary(&shared.wasm.engine, &binary).map_err(|e| malformed(&e))?;
        StdioProgram::linked(shared, name.into(), crate::hex_sha256(bytes), &module, Arc::default())
    }

    /// Checks a compiled module's imports and exports and links it with the shim.
    fn linked(
        shared: &Arc<crate::Shared>,
        name: Arc<str>,
        hash: String,
        module: &Module,
        compiled: Arc<OnceLock<Result<Vec<u8>, String>>>,
    ) -> Result<StdioProgram, Fault> {
        let mut linker = Linker::<Host>::new(&shared.wasm.engine);
        define(&mut linker)
            .and_then(|()| crate::bulk::define(&mut linker, crate::wasm::out_of_fuel))
            .map_err(|e| Fault::load(format!("wasmtime linker: {e:#}")))?;
        let mut problems = Vec::new();
        for import in module.imports() {
            let (m, n) = (import.module(), import.name());
            if m == crate::bulk::MODULE {
                continue; // the bounds checks that `bulk::instrument` added
            }
            if m != MODULE {
                problems.push(format!(
                    "imports `{m}.{n}`, which is not a WASI preview1 function: compile it as a \
                     wasm32-wasi (wasm32-wasip1) command that uses only the C or Rust standard library"
                ));
                continue;
            }
            if !PREVIEW1.contains(&n) {
                problems.push(format!("needs WASI function {n} (not provided)"));
                continue;
            }
            if DEFINED.contains(&n) {
                continue;
            }
            let ExternType::Func(ty) = import.ty() else {
                problems.push(format!("imports `{m}.{n}` as something other than a function"));
                continue;
            };
            if let Err(e) = define_stub(&mut linker, n, ty) {
                problems.push(format!("cannot stub `{m}.{n}`: {e:#}"));
            }
        }
        match module.get_export("_start") {
            Some(ExternType::Func(f)) if f.params().len() == 0 && f.results().len() == 0 => {}
            Some(_) => {
                problems.push("export `_start` must be a function with no parameters or results".into())
            }
            None => problems.push(
                "no `_start` export: build a command (a program with `main`), not a library or reactor"
                    .into(),
            ),
        }
        if !matches!(module.get_export("memory"), Some(ExternType::Memory(m)) if !m.is_64() && !m.is_shared())
        {
            problems.push("export `memory` must be a 32-bit, unshared memory".into());
        }
        if !problems.is_empty() {
            return Err(Fault::load(problems.join("; ")));
        }
        let pre = linker.instantiate_pre(module).map_err(|e| {
            Fault::load(format!("cannot link the module (a WASI function of the wrong type?): {e:#}"))
        })?;
        Ok(StdioProgram { name, hash, pre, shared: shared.clone(), compiled })
    }

    /// The same program on another sandbox's engine, a [`Sandbox::lane`] (or this program itself
    /// when it is already on that engine's): the same compiled code, so the same replies and
    /// fuel, without compiling it again.
    ///
    /// # Errors
    /// The compiled code cannot be moved to that engine (a [`Verdict::Load`] fault).
    pub fn on(&self, sandbox: &Sandbox) -> Result<StdioProgram, Fault> {
        let shared = &sandbox.shared;
        if Arc::ptr_eq(&self.shared, shared) {
            return Ok(self.clone());
        }
        let module = copy_module(self.pre.module(), &self.compiled, shared)?;
        StdioProgram::linked(shared, self.name.clone(), self.hash.clone(), &module, self.compiled.clone())
    }

    /// The name given at load.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// SHA-256 of the module's bytes, lowercase hex.
    pub fn hash(&self) -> String {
        self.hash.clone()
    }

    /// The bot for one match: each [`StdioInstance::run`] is a fresh instance under `limits`
    /// (fuel per decision and per match, memory, wall-clock backstop, log bytes; `fuel_init`
    /// is not used: start-up is part of each decision). `seed` seeds `random_get`.
    pub fn start(&self, limits: &Limits, seed: u64) -> StdioInstance {
        StdioInstance {
            program: self.clone(),
            limits: limits.clone(),
            seed,
            runs: 0,
            log: Some(LogBook::new(limits.log_bytes_per_match)),
            memory_peak: 0,
            fuel_used_last: 0,
            fuel_total: 0,
        }
    }
}

/// One legacy bot in one match: a fresh instance of the command for every decision.
pub struct StdioInstance {
    program: StdioProgram,
    limits: Limits,
    seed: u64,
    runs: u64,
    log: Option<LogBook>,
    memory_peak: u64,
    fuel_used_last: u64,
    fuel_total: u64,
}

impl std::fmt::Debug for StdioInstance {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("StdioInstance")
            .field("program", &self.program.name)
            .field("fuel_total", &self.fuel_total)
            .finish_non_exhaustive()
    }
}

impl StdioInstance {
    /// Runs the command once with `stdin` (then EOF) and returns what it wrote to stdout. Its
    /// stderr goes to the log, a line at a time.
    ///
    /// # Errors
    ///
    /// A [`Fault`]: [`Verdict::Invalid`] for more than [`MAX_STDOUT`] bytes of output,
    /// [`Verdict::Crash`] for a non-zero exit code (`exit code N`) or a trap, and the limits'
    /// verdicts (fuel, memory, stack, wallclock).
    pub fn run(&mut self, stdin: &[u8]) -> Result<Vec<u8>, Fault> {
        crate::stack::on_guest_stack(|| self.run_inner(stdin))
    }

    fn run_inner(&mut self, stdin: &[u8]) -> Result<Vec<u8>, Fault> {
        self.fuel_used_last = 0;
        let budget = self.limits.decision_budget(self.fuel_total);
        if budget == 0 {
            return Err(self.fault(Verdict::Fuel, self.limits.bank_used_up(), None));
        }
        let mut random = self.seed ^ self.runs.wrapping_mul(0xd1b5_4a32_d192_ed03);
        self.runs += 1;
        splitmix(&mut random);
        let log = self.log.take().unwrap_or_else(|| LogBook::new(self.limits.log_bytes_per_match));
        let host = Host {
            log,
            memory_limit: usize::try_from(self.limits.memory_bytes).unwrap_or(usize::MAX),
            memory_peak: 0,
            resource_denied: false,
            host_fuel_out: false,
            stdio: Stdio { stdin: stdin.to_vec(), random, fuel_start: budget, ..Stdio::default() },
        };
        let mut store = Store::new(&self.program.shared.wasm.engine, host);
        store.limiter(|h| h as &mut dyn ResourceLimiter);
        store.epoch_deadline_trap();
        let result = store
            .set_fuel(budget)
            .map(|()| store.set_epoch_deadline(epoch_ticks(self.limits.wall_per_decision)))
            .and_then(|()| {
                let instance = self.program.pre.instantiate(&mut store)?;
                let start = instance.get_typed_func::<(), ()>(&mut store, "_start")?;
                start.call(&mut store, ())
            });
        let used = budget - store.get_fuel().unwrap_or(0);
        self.fuel_used_last = used;
        self.fuel_total = self.fuel_total.saturating_add(used);
        self.memory_peak = self.memory_peak.max(store.data().memory_peak as u64);
        let exit = match &result {
            Ok(()) => Ok(0),
            Err(e) => e.downcast_ref::<ProcExit>().map(|p| p.0).ok_or(e),
        };
        let fault = match exit {
            _ if store.data().stdio.stdout_over => {
                Some((Verdict::Invalid, format!("output over {} KiB", MAX_STDOUT >> 10), None))
            }
            Ok(0) => None,
            Ok(code) => Some((Verdict::Crash, format!("exit code {code}"), None)),
            Err(e) => Some(classify(store.data(), e, "decision", self.limits.wall_per_decision, || {
                self.fuel_message()
            })),
        };
        let Host { mut log, stdio, .. } = store.into_data();
        if !stdio.stderr_line.is_empty() {
            log.push(&stdio.stderr_line);
        }
        self.log = Some(log);
        match fault {
            None => Ok(stdio.stdout),
            Some((verdict, mut message, trace)) => {
                if let Some(name) = stdio.nosys {
                    message.push_str(&format!(
                        "; needs WASI function {name} (not provided: it answered \"not implemented\")"
                    ));
                }
                Err(self.fault(verdict, message, trace))
            }
        }
    }

    fn fuel_message(&self) -> String {
        let left_before = self.limits.fuel_per_match.saturating_sub(self.fuel_total - self.fuel_used_last);
        if left_before < self.limits.fuel_per_decision {
            format!("fuel exhausted: {}", self.limits.bank_used_up())
        } else {
            format!(
                "fuel exhausted: the decision budget is {} (start-up included; does the program wait \
                 for more input after EOF, or loop forever?)",
                self.limits.fuel_per_decision
            )
        }
    }

    fn fault(&self, verdict: Verdict, message: String, trace: Option<String>) -> Fault {
        Fault::new(verdict, message)
            .with_usage(self.fuel_used_last, self.fuel_total, self.memory_peak)
            .with_trace(trace)
    }

    /// Fuel used by the last run.
    pub fn fuel_used_last(&self) -> u64 {
        self.fuel_used_last
    }

    /// Fuel used by all runs of this match.
    pub fn fuel_total(&self) -> u64 {
        self.fuel_total
    }

    /// Peak linear memory of any run so far, in bytes.
    pub fn memory_peak(&self) -> u64 {
        self.memory_peak
    }

    /// The stderr lines written since the last call.
    pub fn take_log(&mut self) -> Vec<String> {
        self.log.as_mut().map(LogBook::take).unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example C and Rust commands use bulk memory operations (memset, memcpy); with the
    /// sandbox's bounds checks in front of them (`bulk.rs`) they give the same output for the
    /// same fuel, run by run, as compiled as they were uploaded.
    #[test]
    fn bulk_checks_leave_the_example_commands_fuel_unchanged() {
        let sandbox = Sandbox::new().unwrap();
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../example_bots/legacy");
        let inputs: [&[u8]; 3] = [
            b"1\n13 19 24 25 29 32 39 44 46 49\n",
            b"2\n9 2 0\n11 15 18 23 33 34 47 48 49\n24 26\n16 13 19 12\n37 38 39\n34 47 48\n",
            b"0\n",
        ];
        let mut checked = 0;
        for file in ["intensity_c.wasm", "intensity_rust.wasm"] {
            let bytes = std::fs::read(root.join(file)).unwrap();
            if matches!(crate::bulk::instrument(&bytes).unwrap(), std::borrow::Cow::Borrowed(_)) {
                continue;
            }
            checked += 1;
            let plain = Module::from_binary(&sandbox.shared.wasm.engine, &bytes).unwrap();
            let plain =
                StdioProgram::linked(&sandbox.shared, file.into(), String::new(), &plain, Arc::default())
                    .unwrap();
            let checked_program = sandbox.load_stdio(file, &bytes).unwrap();
            let runs = |p: &StdioProgram| {
                let mut bot = p.start(&Limits::WASM, 7);
                inputs.map(|stdin| (bot.run(stdin).unwrap(), bot.fuel_used_last()))
            };
            assert_eq!(runs(&checked_program), runs(&plain), "{file}");
        }
        assert!(checked > 0, "no example command uses a bulk operation");
    }
}
