//! WASM modules from `wasm-smith`: with and without the ABI exports, with the two host imports,
//! random imports or none, and with counts pushed to and past the loader's module limits
//! (docs/sandbox.md, "WASM module limits"); some then damaged a few bytes. Each goes through
//! load, start and two decisions.

use arbitrary::Unstructured;
use cardarena_sandbox::{Kind, Limits};
use wasm_smith::{Config, Module};

use super::gen::Gen;
use super::sandbox;

pub fn limits() -> Limits {
    Limits {
        fuel_per_decision: 5_000_000,
        fuel_per_match: 8_000_000,
        fuel_init: 5_000_000,
        memory_bytes: 32 << 20,
        ..Limits::WASM
    }
}

/// The ABI's exports (docs/sandbox.md, "WASM ABI"), `init` optional.
fn abi_exports(init: bool) -> Vec<u8> {
    let init = if init { r#"(func (export "init") (param i32 i32))"# } else { "" };
    wat::parse_str(format!(
        r#"(module
            (memory (export "memory") 1)
            (func (export "alloc") (param i32) (result i32) i32.const 1024)
            (func (export "act") (param i32 i32) (result i64) i64.const 0)
            {init})"#
    ))
    .expect("the ABI exports parse")
}

/// The two host functions, sometimes with imports the host does not have.
fn imports(g: &mut Gen) -> Vec<u8> {
    let extra = *g.pick(&[
        "",
        "",
        r#"(import "env" "abort" (func))"#,
        r#"(import "env" "log" (func (param i64)))"#,
        r#"(import "env" "memory" (memory 1))"#,
        r#"(import "env" "table" (table 1 funcref))"#,
        r#"(import "env" "g" (global i32))"#,
        r#"(import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))"#,
    ]);
    imports_with(extra)
}

/// The two host functions and `extra` imports.
fn imports_with(extra: &str) -> Vec<u8> {
    wat::parse_str(format!(
        r#"(module
            (import "env" "log" (func (param i32 i32)))
            (import "env" "budget_left" (func (result i64)))
            {extra})"#
    ))
    .expect("the imports parse")
}

/// A loader limit and the wasm-smith knobs that reach it: `n` of them.
fn push_count(config: &mut Config, g: &mut Gen) {
    // (limit, how far past it or below it)
    let near = |g: &mut Gen, limit: usize| match g.below(3) {
        0 => limit,
        1 => limit + 1,
        _ => limit + 1 + g.below(limit / 10 + 1),
    };
    match g.below(9) {
        0 => {
            let n = near(g, 5_000);
            config.min_funcs = n;
            config.max_funcs = n;
            config.max_instructions = 2;
        }
        1 => {
            let n = near(g, 1_000);
            config.min_globals = n;
            config.max_globals = n;
        }
        2 => {
            let n = near(g, 1_000);
            config.min_exports = n;
            config.max_exports = n;
            config.export_everything = true;
        }
        3 => {
            let n = near(g, 10_000);
            config.min_data_segments = n;
            config.max_data_segments = n;
            config.min_memories = 1;
        }
        4 => {
            let n = near(g, 1_000);
            config.min_element_segments = n;
            config.max_element_segments = n;
            config.min_tables = 1;
        }
        5 => {
            // (wasm-smith can loop for minutes filling 10,000 types: `sized_module` makes them.)
            let n = near(g, 1_000);
            config.min_element_segments = n;
            config.max_element_segments = n;
            config.min_tables = 1;
            config.bulk_memory_enabled = true;
        }
        6 => {
            let n = near(g, 8);
            config.min_imports = n;
            config.max_imports = n;
            config.available_imports = None;
        }
        7 => {
            config.min_tables = 2;
            config.max_tables = 2 + g.below(3);
            config.reference_types_enabled = true;
        }
        _ => {
            config.min_memories = 2;
            config.max_memories = 2 + g.below(3);
            config.multi_value_enabled = true;
        }
    }
}

/// A working ABI module with the sizes wasm-smith does not control (or only slowly) set at, just
/// past or well past their limits: locals in one function, bytes in one body, bytes of all
/// bodies, types.
fn sized_module(g: &mut Gen) -> Vec<u8> {
    let near =
        |g: &mut Gen, limit: usize| limit - 1 + g.below(3) + if g.one_in(3) { g.below(limit) } else { 0 };
    let (locals, body, bodies, types) = match g.below(4) {
        0 => (near(g, 1_000), 16, 1, 0),
        1 => (4, near(g, 128 << 10) / 2, 1, 0),
        2 => (4, (100 << 10) / 2, near(g, 11), 0),
        _ => (0, 0, 0, near(g, 10_000) - 3),
    };
    let types = "(type (func (param i32 i32 i32)))".repeat(types);
    let locals = "(local i64)".repeat(locals);
    // `i32.const 0 drop` is 3 bytes; `nop` 1: bodies of about `body * 2` bytes.
    let code = "i32.const 0 drop ".repeat(body / 3) + &"nop ".repeat(body * 2 % 3);
    let extra: String = (0..bodies).map(|i| format!("(func $f{i} {locals} {code})")).collect();
    wat::parse_str(format!(
        r#"(module
            {types}
            (memory (export "memory") 1)
            (func (export "alloc") (param i32) (result i32) {locals} {code} i32.const 1024)
            (func (export "act") (param i32 i32) (result i64) i64.const 1024 i64.const 32 i64.shl i64.const 1 i64.or)
            {extra})"#
    ))
    .expect("the sized module parses")
}

/// The number of the function a module exports as `name`, from its text
/// (`(export "name" (func N))`).
fn exported_func(text: &str, name: &str) -> Option<u32> {
    let pattern = format!("(export \"{name}\" (func ");
    let at = text.find(&pattern)? + pattern.len();
    text[at..].split(')').next()?.parse().ok()
}

/// A module whose decisions run generated code: wasm-smith makes a module that exports `memory`
/// and two functions with generated bodies (`work` and `step`), and the ABI's `alloc`, `act` and
/// sometimes `init` are grafted on in text. `act` calls `work` once and `step` in a loop, then
/// replies with a string it writes in memory (or, now and then, with what `work` returned);
/// `alloc` sometimes asks `step` for the pointer.
fn grafted_module(g: &mut Gen) -> Vec<u8> {
    let n = 1024 + g.below(16 << 10);
    let data = g.bytes(n);
    let mut u = Unstructured::new(&data);
    let config = Config {
        // Initial memories below the cap mostly; `memory.grow` can still pass it.
        max_memory32_bytes: if g.one_in(4) { 1 << 26 } else { 1 << 22 },
        memory64_enabled: false,
        threads_enabled: false,
        custom_page_sizes_enabled: false,
        // wasm-smith adds the exported memory to those it makes: none of its own, so the
        // module has the one memory the loader allows.
        max_memories: 0,
        max_tables: 1,
        gc_enabled: false,
        exceptions_enabled: false,
        custom_descriptors_enabled: false,
        shared_everything_threads_enabled: false,
        reference_types_enabled: false,
        max_funcs: 20,
        max_instructions: 50 + g.below(500),
        disallow_traps: !g.one_in(3),
        exports: Some(
            wat::parse_str(
                r#"(module
                    (memory (export "memory") 1)
                    (func (export "work") (param i32 i32) (result i64) i64.const 0)
                    (func (export "step") (param i32) (result i32) i32.const 0))"#,
            )
            .expect("the grafted exports parse"),
        ),
        // Only the host's functions (without a list, wasm-smith makes up imports).
        available_imports: Some(imports_with("")),
        ..Config::default()
    };
    let Ok(module) = Module::new(config, &mut u) else { return abi_exports(true) };
    let bytes = module.to_bytes();
    let Ok(text) = wasmprinter::print_bytes(&bytes) else { return bytes };
    let (Some(work), Some(step)) = (exported_func(&text, "work"), exported_func(&text, "step")) else {
        return bytes;
    };
    let alloc = if g.one_in(5) { format!("local.get 0 call {step}") } else { "i32.const 1024".into() };
    let init = if g.one_in(3) {
        format!(r#"(func (export "init") (param i32 i32) local.get 0 local.get 1 call {work} drop)"#)
    } else {
        String::new()
    };
    let steps = *g.pick(&[0, 1, 3, 100, 10_000]);
    // The reply "1" at 60000 (in the first page), or whatever `work` returned.
    let reply = if g.one_in(6) {
        format!("local.get 0 local.get 1 call {work}")
    } else {
        "i32.const 60000 i32.const 49 i32.store8 i64.const 0xea6000000001".into()
    };
    let graft = format!(
        r#"(func (export "alloc") (param i32) (result i32) {alloc})
        (func (export "act") (param i32 i32) (result i64) (local i32)
          local.get 0 local.get 1 call {work} drop
          (block (loop
            local.get 2 i32.const {steps} i32.ge_u br_if 1
            local.get 2 call {step} drop
            local.get 2 i32.const 1 i32.add local.set 2
            br 0))
          {reply})
        {init}"#
    );
    let Some(end) = text.rfind(')') else { return bytes };
    let grafted = wat::parse_str(format!("{}{graft}{}", &text[..end], &text[end..])).unwrap_or(bytes);
    if g.one_in(10) {
        g.mutate_bytes(&grafted)
    } else {
        grafted
    }
}

/// The module of a case.
pub fn input(seed: u64) -> Vec<u8> {
    let mut g = Gen::new(seed);
    if g.one_in(12) {
        return sized_module(&mut g);
    }
    if g.one_in(2) {
        return grafted_module(&mut g);
    }
    let n = 1024 + g.below(32 << 10);
    let data = g.bytes(n);
    let mut u = Unstructured::new(&data);
    let mut config = if g.one_in(4) {
        Config::arbitrary_config(&data)
    } else {
        Config {
            max_memory32_bytes: 1 << 26,
            memory64_enabled: false,
            threads_enabled: false,
            custom_page_sizes_enabled: false,
            max_memories: 1,
            max_tables: 1,
            // Proposals the engine does not compile (docs/sandbox.md): such modules are the
            // arbitrary configurations' business; these ones should load.
            gc_enabled: false,
            exceptions_enabled: false,
            custom_descriptors_enabled: false,
            shared_everything_threads_enabled: false,
            // Typed function references need the engine's `gc` feature, which is not compiled.
            reference_types_enabled: g.one_in(4),
            max_funcs: 40,
            max_instructions: 200,
            ..Config::default()
        }
    };
    match g.below(5) {
        0..=2 => {
            config.exports = Some(abi_exports(g.one_in(2)));
            // wasm-smith adds the exported memory to the ones it makes: mostly none of its own,
            // so that the module has the one memory the loader allows.
            if !g.one_in(6) {
                config.max_memories = config.min_memories as usize;
            }
            config.available_imports = Some(imports(&mut g));
        }
        3 => config.available_imports = (!g.one_in(3)).then(|| imports(&mut g)),
        _ => {}
    }
    config.disallow_traps = g.one_in(3);
    if g.one_in(8) {
        push_count(&mut config, &mut g);
        // wasm-smith asserts every minimum is within its maximum.
        config.max_memories = config.max_memories.max(config.min_memories as usize);
        config.max_tables = config.max_tables.max(config.min_tables as usize);
        config.max_funcs = config.max_funcs.max(config.min_funcs);
        config.max_globals = config.max_globals.max(config.min_globals);
        config.max_exports = config.max_exports.max(config.min_exports);
        config.max_imports = config.max_imports.max(config.min_imports);
        config.max_types = config.max_types.max(config.min_types);
        config.max_data_segments = config.max_data_segments.max(config.min_data_segments);
        config.max_element_segments = config.max_element_segments.max(config.min_element_segments);
    }
    let bytes = match Module::new(config, &mut u) {
        Ok(m) => m.to_bytes(),
        // A configuration wasm-smith cannot satisfy: the plain ABI module, damaged below.
        Err(_) => abi_exports(true),
    };
    if g.one_in(6) {
        g.mutate_bytes(&bytes)
    } else {
        bytes
    }
}

/// An arbitrary configuration: wasm-smith's own, from the case's bytes.
trait ArbitraryConfig {
    fn arbitrary_config(data: &[u8]) -> Config;
}

impl ArbitraryConfig for Config {
    fn arbitrary_config(data: &[u8]) -> Config {
        let mut u = Unstructured::new(data);
        u.arbitrary().unwrap_or_default()
    }
}

/// How far a case got (`sandbox::coverage`).
pub fn coverage(summary: &str) -> Vec<String> {
    sandbox::coverage(summary, limits().memory_bytes)
}

pub fn case(seed: u64) -> Result<String, String> {
    run_module(&input(seed))
}

pub fn run_module(bytes: &[u8]) -> Result<String, String> {
    let run = sandbox::run(Kind::Wasm, "fuzz.wasm", bytes, &limits())?;
    Ok(run.summary)
}
