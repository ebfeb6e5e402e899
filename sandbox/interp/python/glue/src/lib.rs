//! RustPython behind the arena's interpreter module ABI (sandbox/src/interp.rs): a wasm32-wasip1
//! reactor exporting `wizer.initialize`, `buf_alloc`, `bot_seed`, `bot_load`, `bot_init`,
//! `bot_act`, `out_ptr` and `out_len`. The bot-facing logic is Python (prelude.py); this file
//! boots the interpreter, passes buffers and guards `import`.
//!
//! The module is single-threaded; its state lives in thread-locals (one instance = one bot).

use std::alloc::{alloc, dealloc, Layout};
use std::cell::RefCell;

use rustpython_vm::builtins::{PyDictRef, PyStr, PyTuple};
use rustpython_vm::compiler::Mode;
use rustpython_vm::function::FuncArgs;
use rustpython_vm::{AsObject, Interpreter, PyObjectRef, PyResult, Settings, VirtualMachine};

/// The modules a bot may import (and the ones the prelude loads before the snapshot).
const ALLOWED: &[&str] =
    &["math", "random", "json", "re", "collections", "itertools", "functools", "heapq", "bisect", "string"];

#[link(wasm_import_module = "env")]
extern "C" {
    /// One line of the bot's log.
    #[link_name = "log"]
    fn host_log(ptr: *const u8, len: usize);
}

struct State {
    interp: Interpreter,
    /// The prelude's globals: its `seed`, `load`, `init` and `act`.
    api: PyDictRef,
}

thread_local! {
    static STATE: RefCell<Option<State>> = const { RefCell::new(None) };
    static OUT: RefCell<Vec<u8>> = const { RefCell::new(Vec::new()) };
    /// importlib's `__import__`, which the guard calls for an allowed import.
    static REAL_IMPORT: RefCell<Option<PyObjectRef>> = const { RefCell::new(None) };
}

fn set_out(text: &str) {
    OUT.with(|o| {
        let mut o = o.borrow_mut();
        o.clear();
        o.extend_from_slice(text.as_bytes());
    });
}

#[no_mangle]
pub extern "C" fn out_ptr() -> *const u8 {
    OUT.with(|o| o.borrow().as_ptr())
}

#[no_mangle]
pub extern "C" fn out_len() -> usize {
    OUT.with(|o| o.borrow().len())
}

fn buf_layout(len: usize) -> Option<Layout> {
    Layout::from_size_align(len.checked_add(1)?, 1).ok()
}

/// A buffer of `len + 1` bytes for the host to write into (0: none).
#[no_mangle]
pub extern "C" fn buf_alloc(len: usize) -> *mut u8 {
    match buf_layout(len) {
        // SAFETY: the layout has a non-zero size.
        Some(layout) => unsafe { alloc(layout) },
        None => std::ptr::null_mut(),
    }
}

/// The text of a buffer from `buf_alloc`, which is freed.
fn take_buf(ptr: *mut u8, len: usize) -> String {
    if ptr.is_null() {
        return String::new();
    }
    // SAFETY: the host passes back a buffer of `buf_alloc(len)`, `len` bytes written.
    let text = String::from_utf8_lossy(unsafe { std::slice::from_raw_parts(ptr, len) }).into_owned();
    if let Some(layout) = buf_layout(len) {
        // SAFETY: allocated by `buf_alloc` with this layout.
        unsafe { dealloc(ptr, layout) };
    }
    text
}

fn emit(line: rustpython_vm::builtins::PyStrRef) {
    let text = line.as_wtf8().to_string_lossy();
    // SAFETY: the host reads `len` bytes at `ptr` during the call.
    unsafe { host_log(text.as_ptr(), text.len()) };
}

/// `builtins.__import__` for everything after boot: the allowed modules, and the stdlib's own
/// imports (globals of a loaded module); anything else is an ImportError naming the allow-list.
fn guarded_import(args: FuncArgs, vm: &VirtualMachine) -> PyResult {
    let name = args
        .args
        .first()
        .and_then(|n| n.downcast_ref::<PyStr>().map(|s| s.as_wtf8().to_string_lossy().into_owned()))
        .unwrap_or_default();
    let top = name.split('.').next().unwrap_or("");
    let level = match args.args.get(4).or_else(|| args.kwargs.get("level")) {
        Some(l) => l.try_index(vm)?.as_bigint().try_into().unwrap_or(1i64),
        None => 0,
    };
    // The importer is the frame that runs, not the `globals` argument a caller may pass.
    let globals = vm.current_frame().map(|frame| frame.globals.clone().into());
    let allowed = (level == 0 && ALLOWED.contains(&top)) || from_loaded_module(globals, vm);
    if !allowed {
        let what = if level > 0 { format!("relative import of '{name}'") } else { format!("'{name}'") };
        return Err(vm.new_import_error(
            format!("import of {what} is not allowed: a bot may import {}", ALLOWED.join(", ")),
            vm.ctx.new_str(name),
        ));
    }
    let real = REAL_IMPORT.with(|r| r.borrow().clone());
    match real {
        Some(f) => f.call(args, vm),
        None => Err(vm.new_import_error("import is not ready".to_owned(), vm.ctx.new_str(name))),
    }
}

/// Whether `globals`, the running frame's, is the dict of a module in `sys.modules` (the stdlib
/// importing its parts).
fn from_loaded_module(globals: Option<PyObjectRef>, vm: &VirtualMachine) -> bool {
    let Some(globals) = globals else { return false };
    let Ok(name) = globals.get_item("__name__", vm) else { return false };
    if name.downcast_ref::<PyStr>().is_some_and(|n| n.as_wtf8().to_string_lossy() == "bot") {
        return false;
    }
    let Ok(modules) = vm.sys_module.get_attr("modules", vm) else { return false };
    let Ok(module) = modules.get_item(&*name, vm) else { return false };
    match module.get_attr("__dict__", vm) {
        Ok(dict) => dict.is(&globals),
        Err(_) => false,
    }
}

fn boot() -> Result<State, String> {
    let mut settings = Settings::default();
    settings.hash_seed = Some(0);
    settings.import_site = false;
    settings.allow_external_library = false;
    settings.isolated = true;
    settings.ignore_environment = true;
    settings.user_site_directory = false;
    settings.write_bytecode = false;
    let builder = Interpreter::builder(settings);
    let defs = rustpython_stdlib::stdlib_module_defs(&builder.ctx);
    let interp = builder
        .add_native_modules(&defs)
        .add_frozen_modules(rustpython_vm::py_freeze!(dir = "../vendor"))
        .build();
    let api = interp.enter(|vm| -> Result<PyDictRef, String> {
        let describe = |e: rustpython_vm::builtins::PyBaseExceptionRef| {
            let mut s = String::new();
            let _ = vm.write_exception(&mut s, &e);
            s
        };
        let scope = vm.new_scope_with_builtins();
        let log = vm.new_function("_emit", emit);
        scope.globals.set_item("_emit", log.into(), vm).map_err(describe)?;
        let code = vm
            .compile(include_str!("prelude.py"), Mode::Exec, "<arena>".to_owned())
            .map_err(|e| format!("prelude: {e}"))?;
        vm.run_code_obj(code, scope.clone()).map_err(describe)?;
        let builtins = vm.builtins.clone();
        let real = builtins.get_attr("__import__", vm).map_err(describe)?;
        REAL_IMPORT.with(|r| *r.borrow_mut() = Some(real));
        let guard = vm.new_function("__import__", guarded_import);
        builtins.set_attr("__import__", guard, vm).map_err(describe)?;
        Ok(scope.globals)
    })?;
    Ok(State { interp, api })
}

extern "C" {
    /// The C library's and Rust's static constructors (wasm-ld makes it).
    fn __wasm_call_ctors();
}

/// The reactor's start: the constructors (the host calls it once, before `wizer.initialize`).
#[no_mangle]
pub extern "C" fn _initialize() {
    // SAFETY: called once by the host before any other export, as a reactor's start is.
    unsafe { __wasm_call_ctors() }
}

/// Boots the interpreter (the snapshot is taken after this).
#[export_name = "wizer.initialize"]
pub extern "C" fn wizer_initialize() {
    if STATE.with(|s| s.borrow().is_some()) {
        return;
    }
    match boot() {
        Ok(state) => STATE.with(|s| *s.borrow_mut() = Some(state)),
        Err(e) => set_out(&format!("the Python interpreter does not start: {e}")),
    }
}

/// Calls the prelude's `func` with `args`; its (status, text) result becomes the call's.
fn call_api(func: &str, args: Vec<PyObjectRef>) -> i32 {
    wizer_initialize();
    STATE.with(|s| {
        let state = s.borrow();
        let Some(state) = state.as_ref() else { return 1 };
        state.interp.enter(|vm| {
            let result = state.api.get_item(func, vm).and_then(|f| f.call(args, vm));
            let pair = result.ok().and_then(|r| {
                let t = r.downcast_ref::<PyTuple>()?;
                let status = t.first()?.try_index(vm).ok()?.as_bigint().try_into().ok()?;
                let text = t.get(1)?.downcast_ref::<PyStr>()?.as_wtf8().to_string_lossy().into_owned();
                Some((status, text))
            });
            let (status, text) = pair.unwrap_or((1, format!("the arena's {func} failed")));
            set_out(&text);
            status
        })
    })
}

fn with_vm<R>(f: impl FnOnce(&VirtualMachine) -> R) -> Option<R> {
    wizer_initialize();
    STATE.with(|s| s.borrow().as_ref().map(|state| state.interp.enter(f)))
}

/// Reseeds `random` for this match and seat.
#[no_mangle]
pub extern "C" fn bot_seed(seed: i64) {
    let _ = with_vm(|vm| vm.ctx.new_int(seed).into()).map(|n: PyObjectRef| call_api("seed", vec![n]));
}

fn text_arg(text: String) -> Option<PyObjectRef> {
    with_vm(|vm| vm.ctx.new_str(text).into())
}

#[no_mangle]
pub extern "C" fn bot_load(src: *mut u8, src_len: usize, name: *mut u8, name_len: usize) -> i32 {
    let src = take_buf(src, src_len);
    let name = take_buf(name, name_len);
    match (text_arg(src), text_arg(name)) {
        (Some(s), Some(n)) => call_api("load", vec![s, n]),
        _ => 1,
    }
}

#[no_mangle]
pub extern "C" fn bot_init(info: *mut u8, info_len: usize) -> i32 {
    match text_arg(take_buf(info, info_len)) {
        Some(i) => call_api("init", vec![i]),
        None => 1,
    }
}

#[no_mangle]
pub extern "C" fn bot_act(obs: *mut u8, obs_len: usize) -> i32 {
    match text_arg(take_buf(obs, obs_len)) {
        Some(o) => call_api("act", vec![o]),
        None => 1,
    }
}
