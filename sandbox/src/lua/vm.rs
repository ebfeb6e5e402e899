//! A Lua 5.4 state on the raw C API (`mlua::ffi`), with its own memory.
//!
//! The sandbox drives Lua through the C API rather than through mlua's `Lua` type: a `Lua`
//! sets up its own bookkeeping in every new state (error registry, userdata metatables, a
//! reference thread) and runs a full collection when it is dropped, which together cost more
//! than the rest of starting a bot's VM. Here a state is `lua_newstate` with the sandbox's
//! allocator, the four libraries, and nothing else.
//!
//! Everything the state's C callbacks need (the allocator, the fuel hook, the host functions)
//! is in one [`Ctx`], reached through the allocator's user data (`lua_getallocf`). A `Ctx`
//! holds no Rust values inside Lua objects, and every Lua object lives in the `Ctx`'s
//! [`Heap`], so dropping a [`Vm`] frees the whole VM without `lua_close` (nothing of the bot
//! can run at teardown: there are no finalizers and no open to-be-closed variables between
//! calls).
//!
//! Errors: Lua raises them with `longjmp`. Rust frames that a Lua error can jump over hold
//! only plain values and references (no destructors), the rule for mixing the two; the host
//! functions do their Rust work first and call Lua only to return results or raise.

use std::cell::{RefCell, UnsafeCell};
use std::ffi::{c_char, c_int, c_void, CStr};
use std::ptr;
use std::sync::Arc;

use mlua::ffi;

use super::frames::{line_of, stack_line};
use super::heap::Heap;
use super::meter::{Meter, Trip};
use crate::log::LogBook;

/// Allocation (KiB) a new VM may do before its collector's first step. Lua would otherwise
/// start a collection cycle at once, marking the whole VM (libraries, prelude) during the
/// bot's first calls: the cost of a start again, for nothing in most short matches. When and
/// what the collector frees is deterministic either way (it follows the allocations).
const GC_CREDIT_KIB: c_int = 64;

/// What a metered VM's heap may take from the system beyond its memory limit: room for blocks
/// freed in one size class and not reusable by another (docs/sandbox.md, "Memory").
pub(crate) const HEAP_SLACK: usize = 16 << 20;

/// The ceiling of a metered VM's [`Heap`] for a memory limit of `limit` bytes.
fn heap_cap(limit: u64) -> usize {
    usize::try_from(limit).unwrap_or(usize::MAX).saturating_add(HEAP_SLACK)
}

/// Stack slots `luaL_traceback` may need (as mlua reserves).
const TRACEBACK_STACK: c_int = 11;

/// What the C callbacks of one state share: its meter, its memory, its log.
pub(crate) struct Ctx {
    pub(crate) meter: Arc<Meter>,
    heap: UnsafeCell<Heap>,
    pub(crate) log: RefCell<LogBook>,
    /// The keys watched observation tables lacked, read in this decision, first
    /// [`MAX_UNKNOWN_FIELDS`](super::json::MAX_UNKNOWN_FIELDS) distinct (`json::watch_unknown_fields`).
    pub(crate) unknown_fields: RefCell<Vec<String>>,
}

impl Ctx {
    /// [`Heap::identity`] of a block of the state's heap.
    ///
    /// # Safety
    /// As [`Heap::identity`]; called from the state's thread, outside the allocator.
    pub(crate) unsafe fn block_identity(&self, block: *const u8, size: usize) -> Option<u64> {
        // SAFETY: see the function's contract (no allocation runs meanwhile).
        unsafe { (*self.heap.get()).identity(block, size) }
    }
}

/// The `Ctx` of the state `L` (its allocator's user data).
///
/// # Safety
/// `L` is a live state created by [`Vm::new`].
pub(crate) unsafe fn ctx<'a>(l: *mut ffi::lua_State) -> &'a Ctx {
    let mut ud = ptr::null_mut();
    // SAFETY: see the function's contract: the user data is the `Ctx`, which outlives the state.
    unsafe {
        ffi::lua_getallocf(l, &mut ud);
        &*(ud as *const Ctx)
    }
}

/// The allocator of sandboxed states: enforces the memory cap, tracks the peak, charges
/// allocations as fuel and refuses growth once the fuel is gone (all in [`Meter`]); the
/// blocks come from the state's [`Heap`].
///
/// # Safety
/// `ud` points to the state's live `Ctx`; Lua calls it from the one thread running the state.
pub(crate) unsafe extern "C" fn metered_alloc(
    ud: *mut c_void,
    block: *mut c_void,
    osize: usize,
    nsize: usize,
) -> *mut c_void {
    // SAFETY: see the function's contract.
    let ctx = unsafe { &*(ud as *const Ctx) };
    // With a null `block`, `osize` encodes the kind of object being created, not a size.
    let old = if block.is_null() { 0 } else { osize };
    if nsize > old && !ctx.meter.admit((nsize - old) as u64) {
        if ctx.meter.charging() {
            ctx.meter.note_site(if block.is_null() { 0 } else { old });
        }
        return ptr::null_mut();
    }
    // SAFETY: the heap is only ever used from here, by the state's thread.
    let result = unsafe { (*ctx.heap.get()).realloc(block as *mut u8, old, nsize) } as *mut c_void;
    if nsize == 0 {
        ctx.meter.note_size_change(old, 0);
    } else if !result.is_null() {
        ctx.meter.note_size_change(old, nsize);
    }
    result
}

/// The allocator of unmetered states (benchmark baselines): the same heap, no accounting.
///
/// # Safety
/// As [`metered_alloc`].
unsafe extern "C" fn plain_alloc(
    ud: *mut c_void,
    block: *mut c_void,
    osize: usize,
    nsize: usize,
) -> *mut c_void {
    // SAFETY: see the function's contract.
    let ctx = unsafe { &*(ud as *const Ctx) };
    let old = if block.is_null() { 0 } else { osize };
    // SAFETY: as in `metered_alloc`.
    unsafe { (*ctx.heap.get()).realloc(block as *mut u8, old, nsize) as *mut c_void }
}

/// A Lua error caught at a protected call.
#[derive(Debug)]
pub(crate) struct LuaFailure {
    /// The error message (for runtime errors, without the traceback).
    pub(crate) message: String,
    /// `stack traceback:` and its lines, for runtime errors.
    pub(crate) trace: Option<String>,
    /// What Lua itself ran into and that ended the call (never read from the message, which
    /// the bot controls).
    pub(crate) fault: Fault,
}

/// A failure that Lua (or the host) observed, as opposed to an error the bot raised.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Fault {
    None,
    /// Lua refused an allocation (the memory cap), and that memory error ended the call.
    Memory,
    /// The Lua stack or the C stack of calls overflowed, and no `pcall` caught it.
    Stack,
}

extern "C-unwind" {
    /// The patched Lua's record of a refused allocation or a stack overflow since the last
    /// call (cleared by `pcall`/`xpcall` when they catch an error); clears it
    /// (vendor/lua-src/README.md).
    fn lua_takefault(l: *mut ffi::lua_State) -> c_int;
}

const LUA_FAULT_MEM: c_int = 1;
const LUA_FAULT_STACK: c_int = 2;

/// One Lua state and its `Ctx`.
pub(crate) struct Vm {
    l: *mut ffi::lua_State,
    ctx: Box<Ctx>,
}

// SAFETY: a `Vm` (its state, heap and log) is used by one thread at a time; the only thing
// shared with another thread is the `Arc<Meter>`, which is `Sync`.
unsafe impl Send for Vm {}

impl Vm {
    /// A new state with the base, table, string, utf8, math and coroutine libraries, metered
    /// by `meter` or unmetered.
    pub(crate) fn new(meter: Arc<Meter>, log: LogBook, metered: bool) -> Result<Vm, String> {
        let cap = if metered { heap_cap(meter.memory_limit()) } else { usize::MAX };
        let ctx = Box::new(Ctx {
            meter,
            heap: UnsafeCell::new(Heap::new(cap)),
            log: RefCell::new(log),
            unknown_fields: RefCell::new(Vec::new()),
        });
        let alloc: ffi::lua_Alloc = if metered { metered_alloc } else { plain_alloc };
        // SAFETY: the `Ctx` is boxed (a stable address) and lives as long as the state.
        let l = unsafe { ffi::lua_newstate(alloc, &*ctx as *const Ctx as *mut c_void) };
        if l.is_null() {
            return Err("cannot create a Lua state (out of memory)".into());
        }
        if metered {
            ctx.meter.set_main_state(l, fuel_hook);
        }
        let vm = Vm { l, ctx };
        // The collector waits until the VM is set up (`Vm::restart_gc`): collecting while the
        // libraries and the prelude are being built finds nothing to free.
        // SAFETY: a live state, no Lua code running.
        unsafe { ffi::lua_gc(l, ffi::LUA_GCSTOP, 0) };
        // SAFETY: `open_libs` is a C function that takes no arguments.
        unsafe { vm.pcall_c(open_libs, ptr::null_mut(), 0) }
            .map_err(|f| format!("Lua libraries: {}", f.message))?;
        Ok(vm)
    }

    /// Starts the collector (stopped by `new`) once the host's set-up is done, with
    /// [`GC_CREDIT_KIB`] of allocation before its first step.
    pub(crate) fn restart_gc(&self) {
        // SAFETY: a live state, no Lua code running. `LUA_GCSTEP` adds its argument (KiB) to
        // the collector's debt and steps only if the debt is then positive (lapi.c of the
        // vendored Lua 5.4.9): a negative argument is a credit.
        unsafe {
            ffi::lua_gc(self.l, ffi::LUA_GCRESTART, 0);
            ffi::lua_gc(self.l, ffi::LUA_GCSTEP, -GC_CREDIT_KIB);
        }
    }

    pub(crate) fn state(&self) -> *mut ffi::lua_State {
        self.l
    }

    pub(crate) fn ctx(&self) -> &Ctx {
        &self.ctx
    }

    /// Calls the C function `f` with one light userdata argument, protected; leaves its
    /// `nresults` results on the stack.
    ///
    /// # Safety
    /// `f` reads its argument as what `arg` points to, which is alive for the call.
    pub(crate) unsafe fn pcall_c(
        &self,
        f: ffi::lua_CFunction,
        arg: *mut c_void,
        nresults: c_int,
    ) -> Result<(), LuaFailure> {
        // SAFETY: two free slots exist (LUA_MINSTACK is 20 and the host keeps its stack short).
        unsafe {
            ffi::lua_pushcfunction(self.l, f);
            ffi::lua_pushlightuserdata(self.l, arg);
            let status = ffi::lua_pcall(self.l, 1, nresults, 0);
            self.status(status)
        }
    }

    /// Calls the function below its `nargs` arguments on the top of the stack, protected, with
    /// a traceback for runtime errors; leaves `nresults` results.
    ///
    /// # Safety
    /// The function and its arguments are on the stack.
    pub(crate) unsafe fn call(&self, nargs: c_int, nresults: c_int) -> Result<(), LuaFailure> {
        // SAFETY: the handler goes below the function; `lua_checkstack` makes its slot.
        unsafe {
            if ffi::lua_checkstack(self.l, 1) == 0 {
                return Err(LuaFailure {
                    message: "stack overflow".into(),
                    trace: None,
                    fault: Fault::Stack,
                });
            }
            let base = ffi::lua_gettop(self.l) - nargs;
            ffi::lua_pushcfunction(self.l, traceback);
            ffi::lua_insert(self.l, base);
            let status = ffi::lua_pcall(self.l, nargs, nresults, base);
            ffi::lua_remove(self.l, base);
            self.status(status)
        }
    }

    /// Turns a call's status into a result, popping the error object of a failed call.
    unsafe fn status(&self, status: c_int) -> Result<(), LuaFailure> {
        // SAFETY: a live state, no Lua code running.
        let fault = unsafe { lua_takefault(self.l) };
        if status == ffi::LUA_OK {
            return Ok(());
        }
        // A bot can raise a memory error itself (`error("not enough memory", 0)`): only one
        // that follows a refused allocation is the cap's.
        let fault = match fault {
            LUA_FAULT_MEM if status == ffi::LUA_ERRMEM => Fault::Memory,
            LUA_FAULT_STACK => Fault::Stack,
            _ => Fault::None,
        };
        // SAFETY: a failed protected call leaves its error object on the top.
        let mut message = unsafe { self.top_text() };
        unsafe { ffi::lua_pop(self.l, 1) };
        let mut trace = None;
        if let Some(at) = message.find("\nstack traceback:") {
            trace = Some(message[at + 1..].to_owned());
            message.truncate(at);
        }
        Err(LuaFailure { message, trace, fault })
    }

    /// The value on the top of the stack as text (an error object is normally a string).
    unsafe fn top_text(&self) -> String {
        // SAFETY: reading the top slot; `lua_tolstring` on a string does not allocate.
        unsafe {
            if ffi::lua_type(self.l, -1) == ffi::LUA_TSTRING {
                let mut len = 0;
                let p = ffi::lua_tolstring(self.l, -1, &mut len);
                String::from_utf8_lossy(std::slice::from_raw_parts(p as *const u8, len)).into_owned()
            } else {
                let t = CStr::from_ptr(ffi::lua_typename(self.l, ffi::lua_type(self.l, -1)));
                format!("(error object is a {} value)", t.to_string_lossy())
            }
        }
    }

    /// Loads a chunk (`mode` "t" for text, "b" for our own bytecode) and leaves its function
    /// on the stack.
    pub(crate) fn load(&self, bytes: &[u8], name: &CStr, mode: &CStr) -> Result<(), LuaFailure> {
        let mut reader = Reader { data: bytes, done: false };
        // SAFETY: the reader outlives the call; name and mode are C strings.
        let status = unsafe {
            ffi::lua_load(
                self.l,
                read_all,
                &mut reader as *mut Reader as *mut c_void,
                name.as_ptr(),
                mode.as_ptr(),
            )
        };
        // SAFETY: as `status`.
        unsafe { self.status(status) }
    }

    /// The function on the top of the stack as bytecode (debug information kept or
    /// stripped); pops it.
    pub(crate) fn dump(&self, strip: bool) -> Vec<u8> {
        let mut out = Vec::new();
        // SAFETY: the writer only appends to `out`, which outlives the call.
        unsafe {
            ffi::lua_dump(self.l, write_all, &mut out as *mut Vec<u8> as *mut c_void, c_int::from(strip));
            ffi::lua_pop(self.l, 1);
        }
        out
    }

    /// Pushes the global `name` (a raw read of the globals table: no metamethods).
    pub(crate) fn push_raw_global(&self, name: &CStr) {
        // SAFETY: pushes the globals table and a short string that already exists in any
        // state where this is called (both are in the chunk's constants), then swaps the
        // table for the value.
        unsafe {
            ffi::lua_rawgeti(self.l, ffi::LUA_REGISTRYINDEX, ffi::LUA_RIDX_GLOBALS);
            ffi::lua_pushstring(self.l, name.as_ptr());
            ffi::lua_rawget(self.l, -2);
            ffi::lua_remove(self.l, -2);
        }
    }
}

impl Drop for Vm {
    fn drop(&mut self) {
        // No `lua_close`: every block of the state is in the heap, which `ctx` frees when it
        // is dropped; the meter forgets the state first (the watchdog may hold the meter).
        self.ctx.meter.unlimit();
    }
}

/// Opens the libraries, as `mlua` did (base first, as `_G`; then table, string, utf8, math),
/// then coroutine, each one also a global.
unsafe extern "C-unwind" fn open_libs(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: a protected call on a fresh state.
    unsafe {
        ffi::lua_settop(l, 0);
        let libs: [(&CStr, ffi::lua_CFunction); 6] = [
            (c"_G", ffi::luaopen_base),
            (c"table", ffi::luaopen_table),
            (c"string", ffi::luaopen_string),
            (c"utf8", ffi::luaopen_utf8),
            (c"math", ffi::luaopen_math),
            (c"coroutine", ffi::luaopen_coroutine),
        ];
        for (name, open) in libs {
            ffi::luaL_requiref(l, name.as_ptr(), open, 1);
            ffi::lua_settop(l, 0);
        }
    }
    0
}

/// The message handler of every call into bot code: the error as text (its `__tostring`, as
/// Lua's own `print` would show it) followed by `luaL_traceback`.
unsafe extern "C-unwind" fn traceback(l: *mut ffi::lua_State) -> c_int {
    // SAFETY: a message handler gets the error object on its stack.
    unsafe {
        if ffi::lua_checkstack(l, 2) == 0 {
            return 1;
        }
        let s = ffi::luaL_tolstring(l, -1, ptr::null_mut());
        if ffi::lua_checkstack(l, TRACEBACK_STACK) != 0 {
            ffi::luaL_traceback(l, l, s, 0);
            ffi::lua_remove(l, -2);
        }
    }
    1
}

struct Reader<'a> {
    data: &'a [u8],
    done: bool,
}

unsafe extern "C-unwind" fn read_all(
    _l: *mut ffi::lua_State,
    ud: *mut c_void,
    size: *mut usize,
) -> *const c_char {
    // SAFETY: `ud` is the `Reader` of `Vm::load`.
    let r = unsafe { &mut *(ud as *mut Reader<'_>) };
    if r.done || r.data.is_empty() {
        // SAFETY: Lua passes a valid size pointer.
        unsafe { *size = 0 };
        return ptr::null();
    }
    r.done = true;
    // SAFETY: as above.
    unsafe { *size = r.data.len() };
    r.data.as_ptr() as *const c_char
}

unsafe extern "C-unwind" fn write_all(
    _l: *mut ffi::lua_State,
    p: *const c_void,
    sz: usize,
    ud: *mut c_void,
) -> c_int {
    // SAFETY: `ud` is the `Vec` of `Vm::dump`; `p` holds `sz` bytes.
    unsafe { (*(ud as *mut Vec<u8>)).extend_from_slice(std::slice::from_raw_parts(p as *const u8, sz)) };
    0
}

/// Whether the Lua this process runs is the sandbox's patched one (`vendor/lua-src`): a
/// `LUA_MASKFUEL` hook must stop a loop. In an unpatched Lua the mask bit is unknown and the
/// hook never runs, which would leave bots unmetered.
pub(crate) fn fuel_hook_works() -> Result<bool, String> {
    unsafe extern "C-unwind" fn stop(l: *mut ffi::lua_State, _ar: *mut ffi::lua_Debug) {
        // SAFETY: a count hook may raise errors.
        unsafe {
            ffi::lua_pushstring(l, c"fuel hook ran".as_ptr());
            ffi::lua_error(l);
        }
    }
    let vm = Vm::new(Arc::new(Meter::new(u64::MAX)), LogBook::new(0), false)?;
    vm.restart_gc();
    vm.load(b"local n = 0 for i = 1, 100000 do n = n + i end return n", c"=probe", c"t")
        .map_err(|f| f.message)?;
    // SAFETY: a live state; the hook is removed with the VM.
    unsafe { ffi::lua_sethook(vm.state(), Some(stop), super::meter::LUA_MASKFUEL, 1000) };
    // SAFETY: the chunk's function is on the stack.
    Ok(matches!(unsafe { vm.call(0, 1) }, Err(f) if f.message.contains("fuel hook ran")))
}

/// Compiles Lua source text to bytecode in a throwaway unmetered state (debug information
/// kept unless `strip`, so tracebacks name files and lines). Syntax errors come back as text.
pub(crate) fn compile(source: &[u8], chunk_name: &CStr, strip: bool) -> Result<Vec<u8>, String> {
    let vm = Vm::new(Arc::new(Meter::new(u64::MAX)), LogBook::new(0), false)?;
    vm.restart_gc();
    vm.load(source, chunk_name, c"t").map_err(|f| f.message)?;
    Ok(vm.dump(strip))
}

/// The message Lua uses for memory errors (`MEMERRMSG`). `lua_error` with this exact string
/// raises a *memory* error, which Lua unwinds without calling any message handler; the VM
/// holds the string from its creation, so pushing it allocates nothing.
const MEMERRMSG: &CStr = c"not enough memory";

/// The count hook of every sandboxed state: books `LUA_HOOK_STEP` instructions and, once the
/// meter has tripped, raises an error at every instruction.
///
/// Two details keep bot code from running unmetered while the error unwinds:
/// * It is a raw hook rather than mlua's `set_global_hook`: when a hook callback fails, mlua
///   resets the stack top of the *running Lua function* (a hook runs in its frame), and
///   `lua_settop` then calls that function's pending `__close` metamethods right there, with
///   hooks disabled. `lua_error` leaves them to the normal unwinding, which runs them with
///   hooks on.
/// * The error is raised as a memory error. A regular error would call the message handler
///   of an enclosing `xpcall` from inside this hook, where Lua disables hooks, so a looping
///   handler would never be stopped. (The host tells the verdict from the meter, not from the
///   error.)
///
/// # Safety
///
/// Called by Lua on a state whose allocator is `metered_alloc` with a live `Ctx`.
pub(crate) unsafe extern "C-unwind" fn fuel_hook(state: *mut ffi::lua_State, _ar: *mut ffi::lua_Debug) {
    let mut ud = ptr::null_mut();
    // SAFETY: `state` is the running state.
    let alloc = unsafe { ffi::lua_getallocf(state, &mut ud) };
    if !ptr::fn_addr_eq(alloc, metered_alloc as ffi::lua_Alloc) || ud.is_null() {
        return;
    }
    // SAFETY: the allocator's user data is the state's `Ctx`, alive while the state runs.
    let meter = unsafe { &*(*(ud as *const Ctx)).meter };
    if meter.on_hook().is_ok() {
        return;
    }
    if meter.trip_state() == Trip::Fuel {
        // SAFETY: `ar` is the hook's record of the running function; levels above it are read
        // with `lua_getstack`; nothing here runs Lua code.
        meter.record_site(|| unsafe { running_line(state, _ar) });
    }
    // SAFETY: a count hook may raise errors; nothing in this frame needs dropping.
    unsafe {
        ffi::lua_pushstring(state, MEMERRMSG.as_ptr());
        ffi::lua_error(state);
    }
}

/// `file:line` of the innermost Lua function running (a C function such as `string.rep` is
/// skipped for the Lua line that called it).
///
/// # Safety
///
/// Called from a hook on the running `state` with the hook's `ar`.
unsafe fn running_line(state: *mut ffi::lua_State, ar: *mut ffi::lua_Debug) -> Option<String> {
    // SAFETY: see the function's contract.
    unsafe {
        if !ar.is_null() && ffi::lua_getinfo(state, c"Sl".as_ptr(), ar) != 0 {
            if let Some(site) = line_of(&*ar) {
                return Some(site);
            }
        }
        stack_line(state, 1, 0)
    }
}
