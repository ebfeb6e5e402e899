//! The hostile-bot suite: every case asserts the exact verdict (and where it happens), that
//! the host survives, that the case ends in bounded time, and that normal bots run right after
//! are unaffected (same reply, same fuel as on a fresh run).

use testkit::sandbox;

use std::time::Duration;

use cardarena_sandbox::{Fault, Limits, Sandbox, Verdict};
use testkit::sandbox::{check_case, limits_for, reference, Reference, Stage};

const NORMAL: [&str; 2] = ["normal.lua", "normal.wat"];

fn setup() -> (Sandbox, Vec<(&'static str, Reference)>) {
    let sb = Sandbox::new().expect("sandbox");
    let refs = NORMAL.iter().map(|f| (*f, reference(&sb, f))).collect();
    (sb, refs)
}

fn case(file: &str, stage: Stage, verdict: Verdict) -> Fault {
    case_with(file, stage, verdict, limits_for(file))
}

fn case_with(file: &str, stage: Stage, verdict: Verdict, limits: Limits) -> Fault {
    let (sb, refs) = setup();
    check_case(&sb, &refs, file, &limits, stage, verdict)
}

/// Limits whose wall-clock backstop fires sooner, for the cases that end on it.
fn short_wall(file: &str) -> Limits {
    Limits { wall_per_decision: Duration::from_millis(500), ..limits_for(file) }
}

macro_rules! cases {
    ($($name:ident: $file:literal, $stage:ident, $verdict:ident;)*) => {
        $(
            #[test]
            fn $name() {
                case($file, Stage::$stage, Verdict::$verdict);
            }
        )*
    };
}

cases! {
    // Lua: budgets and the ways around them
    lua_infinite_loop: "lua_infinite_loop.lua", Act, Fuel;
    lua_pcall_swallow: "lua_pcall_swallow.lua", Act, Fuel;
    lua_xpcall_handler_loop: "lua_xpcall_handler_loop.lua", Act, Fuel;
    lua_nested_pcall: "lua_nested_pcall.lua", Act, Fuel;
    // Lua: coroutines and load under the same budgets
    lua_coroutine: "lua_coroutine.lua", Act, Fuel;
    lua_coroutine_yield_loop: "lua_coroutine_yield_loop.lua", Act, Fuel;
    lua_coroutine_pcall_swallow: "lua_coroutine_pcall_swallow.lua", Act, Fuel;
    lua_coroutine_close_loop: "lua_coroutine_close_loop.lua", Act, Fuel;
    lua_coroutine_memory: "lua_coroutine_memory.lua", Act, Memory;
    lua_coroutine_nest: "lua_coroutine_nest.lua", Act, Stack;
    lua_coroutine_recursion: "lua_coroutine_recursion.lua", Act, Stack;
    lua_load_loop: "lua_load_loop.lua", Act, Fuel;
    lua_load_bomb: "lua_load_bomb.lua", Act, Fuel;
    lua_load_memory: "lua_load_memory.lua", Act, Crash;
    lua_load_nesting: "lua_load_nesting.lua", Act, Crash;
    lua_load_overflow_then_error: "lua_load_overflow_then_error.lua", Act, Crash;
    lua_load_bytecode: "lua_load_bytecode.lua", Act, Crash;
    lua_escape_load_env: "lua_escape_load_env.lua", Act, Crash;
    lua_init_loop: "lua_init_loop.lua", Start, Fuel;
    lua_toplevel_loop: "lua_toplevel_loop.lua", Start, Fuel;
    lua_index_metamethod_loop: "lua_index_metamethod_loop.lua", Act, Fuel;
    lua_tostring_error_loop: "lua_tostring_error_loop.lua", Act, Fuel;
    lua_close_metamethod: "lua_close_metamethod.lua", Act, Fuel;
    lua_close_direct: "lua_close_direct.lua", Act, Fuel;
    lua_xpcall_handler_after_trip: "lua_xpcall_handler_after_trip.lua", Act, Fuel;
    // Lua: memory
    lua_memory_table_bomb: "lua_memory_table_bomb.lua", Act, Memory;
    lua_memory_rep_huge: "lua_memory_rep_huge.lua", Act, Memory;
    lua_memory_pcall_retry: "lua_memory_pcall_retry.lua", Act, Fuel;
    lua_toplevel_memory: "lua_toplevel_memory.lua", Start, Memory;
    // Lua: C-function time bombs, charged for their work
    lua_rep_bomb: "lua_rep_bomb.lua", Act, Fuel;
    lua_rep_empty_bomb: "lua_rep_empty_bomb.lua", Act, Fuel;
    lua_concat_bomb: "lua_concat_bomb.lua", Act, Fuel;
    lua_table_concat_bomb: "lua_table_concat_bomb.lua", Act, Fuel;
    lua_table_move_bomb: "lua_table_move_bomb.lua", Act, Fuel;
    lua_format_bomb: "lua_format_bomb.lua", Act, Fuel;
    lua_pattern_bomb: "lua_pattern_bomb.lua", Act, Fuel;
    lua_gsub_bomb: "lua_gsub_bomb.lua", Act, Fuel;
    lua_gmatch_bomb: "lua_gmatch_bomb.lua", Act, Fuel;
    lua_sort_bomb: "lua_sort_bomb.lua", Act, Fuel;
    lua_insert_front_bomb: "lua_insert_front_bomb.lua", Act, Fuel;
    // 1e8 results is past Lua's stack limit: Lua refuses it at once ("too many results to
    // unpack", checked before charging), the bot's own error.
    lua_unpack_bomb: "lua_unpack_bomb.lua", Act, Crash;
    lua_utf8_bomb: "lua_utf8_bomb.lua", Act, Fuel;
    lua_tonumber_bomb: "lua_tonumber_bomb.lua", Act, Fuel;
    lua_unpack_string_bomb: "lua_unpack_string_bomb.lua", Act, Fuel;
    lua_print_spam: "lua_print_spam.lua", Act, Fuel;
    // Lua: host CPU per unit of fuel: float keys that shared one hash chain, and
    // string.pack's byte-by-byte padding
    lua_float_key_chain: "lua_float_key_chain.lua", Act, Fuel;
    lua_pack_pad_bomb: "lua_pack_pad_bomb.lua", Act, Fuel;
    // Lua: host CPU per unit of fuel in single VM instructions, charged by the patched VM:
    // integer keys k * 16383 on one hash chain (each step past 8 costs 1), a 1900-table
    // __index chain (each table past 2 costs 1), long strings compared (1 per 64 bytes),
    // hundreds of thousands of varargs moved (1 per 8 past 64), and string.format of huge
    // floats (3 per integer digit)
    lua_int_key_chain: "lua_int_key_chain.lua", Act, Fuel;
    lua_index_chain: "lua_index_chain.lua", Act, Fuel;
    lua_long_string_compare: "lua_long_string_compare.lua", Act, Fuel;
    lua_vararg_copy: "lua_vararg_copy.lua", Act, Fuel;
    lua_format_float_bomb: "lua_format_float_bomb.lua", Act, Fuel;
    lua_for_coerce: "lua_for_coerce.lua", Act, Fuel;
    // Lua: the compiler's work is bounded by the chunk's size: a chain of 100,000 `or` is
    // refused by load (the bot then raises the message: crash); 20,000 colliding constants
    // stop at the bound too, and the chain steps charged on the way end the decision (fuel)
    lua_load_or_chain: "lua_load_or_chain.lua", Act, Crash;
    lua_load_constant_chain: "lua_load_constant_chain.lua", Act, Fuel;
    // Lua: verdicts come from what the sandbox observed, not from the bot's message
    lua_fake_stack_overflow: "lua_fake_stack_overflow.lua", Act, Crash;
    lua_fake_memory_error: "lua_fake_memory_error.lua", Act, Crash;
    lua_caught_stack_overflow: "lua_caught_stack_overflow.lua", Act, Crash;
    lua_coroutine_caught_overflow: "lua_coroutine_caught_overflow.lua", Act, Crash;
    // Lua: stacks
    lua_deep_recursion: "lua_deep_recursion.lua", Act, Stack;
    lua_c_stack_overflow: "lua_c_stack_overflow.lua", Act, Stack;
    lua_gsub_recursion: "lua_gsub_recursion.lua", Act, Stack;
    lua_sort_recursion: "lua_sort_recursion.lua", Act, Stack;
    lua_sort_yield: "lua_sort_yield.lua", Act, Crash;
    // Lua: finalizers
    lua_gc_finalizer: "lua_gc_finalizer.lua", Act, Crash;
    // Lua: escape attempts (every one of these is simply absent)
    lua_escape_io: "lua_escape_io.lua", Act, Crash;
    lua_escape_os: "lua_escape_os.lua", Act, Crash;
    lua_escape_require: "lua_escape_require.lua", Act, Crash;
    lua_escape_dofile: "lua_escape_dofile.lua", Act, Crash;
    lua_escape_debug: "lua_escape_debug.lua", Act, Crash;
    lua_escape_dump: "lua_escape_dump.lua", Act, Crash;
    lua_escape_package: "lua_escape_package.lua", Act, Crash;
    lua_escape_collectgarbage: "lua_escape_collectgarbage.lua", Act, Crash;
    lua_escape_string_metatable: "lua_escape_string_metatable.lua", Act, Crash;
    lua_bytecode: "lua_bytecode.lua", Load, Load;
    // Lua: work inside one instruction, charged
    lua_next_empty_hash: "lua_next_empty_hash.lua", Act, Fuel;
    lua_next_empty_array: "lua_next_empty_array.lua", Act, Fuel;
    // Lua: loading and replies
    lua_syntax_error: "lua_syntax_error.lua", Load, Load;
    lua_missing_act: "lua_missing_act.lua", Start, Load;
    lua_runtime_error: "lua_runtime_error.lua", Act, Crash;
    lua_bad_reply_nil: "lua_bad_reply_nil.lua", Act, Invalid;
    lua_bad_reply_number: "lua_bad_reply_number.lua", Act, Invalid;
    lua_bad_reply_table: "lua_bad_reply_table.lua", Act, Invalid;
    lua_bad_reply_boolean: "lua_bad_reply_boolean.lua", Act, Invalid;
    lua_bad_reply_utf8: "lua_bad_reply_utf8.lua", Act, Invalid;
    lua_bad_reply_huge: "lua_bad_reply_huge.lua", Act, Invalid;

    // WASM: budgets
    wasm_infinite_loop: "wasm_infinite_loop.wat", Act, Fuel;
    wasm_start_loop: "wasm_start_loop.wat", Start, Fuel;
    wasm_init_loop: "wasm_init_loop.wat", Start, Fuel;
    wasm_memcopy_bomb: "wasm_memcopy_bomb.wat", Act, Fuel;
    wasm_memfill_bomb: "wasm_memfill_bomb.wat", Act, Fuel;
    wasm_memcopy_small: "wasm_memcopy_small.wat", Act, Fuel;
    wasm_log_spam: "wasm_log_spam.wat", Act, Fuel;
    // WASM: traps
    wasm_unreachable: "wasm_unreachable.wat", Act, Crash;
    wasm_div_zero: "wasm_div_zero.wat", Act, Crash;
    wasm_oob_load: "wasm_oob_load.wat", Act, Crash;
    wasm_memfill_oob: "wasm_memfill_oob.wat", Act, Crash;
    wasm_call_indirect_null: "wasm_call_indirect_null.wat", Act, Crash;
    wasm_log_oob: "wasm_log_oob.wat", Act, Crash;
    wasm_stack_overflow: "wasm_stack_overflow.wat", Act, Stack;
    // WASM: memory and tables
    wasm_memory_grow_bomb: "wasm_memory_grow_bomb.wat", Act, Memory;
    wasm_big_initial_memory: "wasm_big_initial_memory.wat", Start, Memory;
    wasm_table_grow_bomb: "wasm_table_grow_bomb.wat", Act, Memory;
    // WASM: loading
    wasm_unknown_import: "wasm_unknown_import.wat", Load, Load;
    wasm_wasi_import: "wasm_wasi_import.wat", Load, Load;
    wasm_imported_memory: "wasm_imported_memory.wat", Load, Load;
    wasm_wrong_import_sig: "wasm_wrong_import_sig.wat", Load, Load;
    wasm_missing_act: "wasm_missing_act.wat", Load, Load;
    wasm_missing_memory: "wasm_missing_memory.wat", Load, Load;
    wasm_wrong_act_sig: "wasm_wrong_act_sig.wat", Load, Load;
    wasm_wrong_init_sig: "wasm_wrong_init_sig.wat", Load, Load;
    wasm_bad_syntax: "wasm_bad_syntax.wat", Load, Load;
    wasm_malformed: "wasm_malformed.wasm", Load, Load;
    // WASM: replies
    wasm_reply_oob: "wasm_reply_oob.wat", Act, Invalid;
    wasm_reply_utf8: "wasm_reply_utf8.wat", Act, Invalid;
    wasm_reply_huge: "wasm_reply_huge.wat", Act, Invalid;
    wasm_alloc_oob: "wasm_alloc_oob.wat", Act, Invalid;
}

/// Attacks the host's memory through the Lua heap's size classes: filling one class, freeing it
/// and moving to the next keeps little live but left every freed block in its class (about
/// 90 MiB held here for an 8 MiB limit, then `memory` at the heap's cap). At the cap the heap
/// now gives back its empty chunks, so the freed memory serves the next classes: the bot
/// finishes, within its limit.
#[test]
fn lua_heap_class_churn() {
    let limits = Limits {
        memory_bytes: 8 << 20,
        fuel_per_decision: 1 << 40,
        fuel_per_match: 1 << 41,
        ..limits_for("lua_heap_class_churn.lua")
    };
    let sb = Sandbox::new().unwrap();
    let program = sandbox::load(&sb, "lua_heap_class_churn.lua").unwrap();
    let mut bot = program.start(&limits, sandbox::SEED, sandbox::INFO).unwrap();
    assert_eq!(bot.act(sandbox::OBS).unwrap(), "done");
    assert!(bot.memory_peak() <= 8 << 20, "{}", bot.memory_peak());
}

/// Attacks CPU per fuel through Lua's string table: the string hash's seed is fixed (for
/// determinism), so strings that share a bucket can be found offline; each string made with
/// the contents of one of them walks the bucket (600 long). Steps past 8 cost 1 each, so the
/// loop ends in `fuel` (before: about 1 µs per unit of fuel, stopped by the wall clock).
#[test]
fn lua_string_table_bucket() {
    let strings = sandbox::colliding_lua_strings(600);
    let list: Vec<String> = strings.iter().map(|s| format!("'{s}'")).collect();
    let source = format!(
        "local S = {{{}}}\nfunction act(obs)\n  while true do\n    for i = 1, #S do\n      \
         local s = S[i]:sub(1, 4) .. S[i]:sub(5)\n    end\n  end\nend\n",
        list.join(", ")
    );
    let sb = Sandbox::new().unwrap();
    let program =
        sb.load("lua_string_table_bucket.lua", cardarena_sandbox::Kind::Lua, source.as_bytes()).unwrap();
    let mut bot = program.start(&limits_for("x.lua"), sandbox::SEED, sandbox::INFO).unwrap();
    let t = std::time::Instant::now();
    let fault = bot.act(sandbox::OBS).unwrap_err();
    assert_eq!(fault.verdict, Verdict::Fuel, "{fault}");
    assert!(t.elapsed() < sandbox::CASE_TIME_BOUND, "{:?}", t.elapsed());
}

/// A `string.format` precision or width past any integer: Lua refuses the format, and the
/// charge the sandbox computes from it first neither overflows nor stops the bot.
#[test]
fn lua_format_with_a_huge_precision_is_refused_by_lua() {
    let sb = Sandbox::new().unwrap();
    let program = sandbox::load(&sb, "lua_format_huge_precision.lua").unwrap();
    let mut bot = program.start(&Limits::LUA, sandbox::SEED, sandbox::INFO).unwrap();
    assert_eq!(bot.act(sandbox::OBS).unwrap(), "1");
}

/// Attacks charging before checking: Lua refuses `table.unpack({}, 1, 2^31 - 1)` and a
/// `table.concat` with a table as separator before doing any work, so a `pcall` around them
/// returns false instead of the decision dying of fuel.
#[test]
fn lua_refused_calls_are_not_charged() {
    let sb = Sandbox::new().unwrap();
    let program = sandbox::load(&sb, "lua_unpack_too_many.lua").unwrap();
    let mut bot = program.start(&Limits::LUA, sandbox::SEED, sandbox::INFO).unwrap();
    assert_eq!(bot.act(sandbox::OBS).unwrap(), "ok");
    // What is left is Lua's own work: a failed `lua_checkstack` still allocates the 16 MiB
    // stack that Lua keeps for handling the error (about 500,000 fuel of allocation).
    assert!(bot.fuel_used_last() < Limits::LUA.fuel_per_decision / 4, "{}", bot.fuel_used_last());
}

/// A WASM module with the ABI's exports whose `act` runs `body` (one page of memory, a table
/// of 10 funcrefs, a passive data segment `$d` of 3 bytes and a passive element segment `$e`).
fn wasm_act(body: &str) -> String {
    format!(
        r#"(module
          (memory (export "memory") 1)
          (table 10 funcref)
          (data $d "abc")
          (elem $e func $alloc)
          (func $alloc (export "alloc") (param i32) (result i32) (i32.const 1024))
          (func (export "act") (param i32 i32) (result i64) {body} (i64.const 0)))"#
    )
}

/// Every bulk operation whose range is out of bounds traps as the engine's bounds check does
/// (`crash`, "out of bounds"), whatever its length: wasmtime charged the length first and
/// ended a length past the fuel left as `fuel`. The trap costs only the instructions before it.
#[test]
fn wasm_bulk_operations_out_of_bounds_trap_before_they_are_charged() {
    let sb = Sandbox::new().unwrap();
    let huge = "(i32.const 0x7fffffff)";
    let bodies = [
        format!("(memory.fill (i32.const 65000) (i32.const 7) {huge})"),
        format!("(memory.copy (i32.const 0) (i32.const 65000) {huge})"),
        format!("(memory.init $d (i32.const 0) (i32.const 0) {huge})"),
        format!("(table.fill (i32.const 0) (ref.null func) {huge})"),
        format!("(table.copy (i32.const 0) (i32.const 0) {huge})"),
        format!("(table.init $e (i32.const 0) (i32.const 0) {huge})"),
        // Within memory, but past the segment (3 bytes) or the table (10 elements).
        "(memory.init $d (i32.const 0) (i32.const 2) (i32.const 200))".to_string(),
        "(table.copy (i32.const 5) (i32.const 0) (i32.const 200))".to_string(),
    ];
    for body in bodies {
        let program = sb.load("bulk.wat", cardarena_sandbox::Kind::Wasm, wasm_act(&body).as_bytes()).unwrap();
        let mut bot = program.start(&Limits::WASM, sandbox::SEED, sandbox::INFO).unwrap();
        let fault = bot.act(sandbox::OBS).unwrap_err();
        assert_eq!(fault.verdict, Verdict::Crash, "{body}: {fault}");
        assert!(fault.message.contains("out of bounds"), "{body}: {}", fault.message);
        assert!(fault.fuel_used < 1000, "{body}: {fault}");
    }
}

/// A bulk operation in bounds costs what wasmtime charges, 1 + 1 per byte or element, checked
/// or not: the check gives back the fuel of the instructions it adds.
#[test]
fn wasm_bulk_operations_in_bounds_cost_their_length() {
    let sb = Sandbox::new().unwrap();
    let fuel = |body: &str| {
        let program = sb.load("bulk.wat", cardarena_sandbox::Kind::Wasm, wasm_act(body).as_bytes()).unwrap();
        let mut bot = program.start(&Limits::WASM, sandbox::SEED, sandbox::INFO).unwrap();
        assert_eq!(bot.act(sandbox::OBS).unwrap(), "");
        bot.fuel_used_last()
    };
    // 100 is a small constant (not checked), 5000 and a length from a local are checked.
    let base = fuel("(memory.fill (i32.const 0) (i32.const 7) (i32.const 100))");
    assert_eq!(fuel("(memory.fill (i32.const 0) (i32.const 7) (i32.const 5000))"), base + 4900);
    assert_eq!(fuel("(memory.copy (i32.const 0) (i32.const 9000) (i32.const 5000))"), base + 4900);
    let local = "(local.set 0 (i32.const 5000)) (memory.fill (i32.const 0) (i32.const 7) (local.get 0))";
    assert_eq!(fuel(local), base + 4900 + 2);
    let base = fuel("(memory.init $d (i32.const 0) (i32.const 0) (i32.const 1))");
    let local = "(local.set 0 (i32.const 3)) (memory.init $d (i32.const 0) (i32.const 0) (local.get 0))";
    assert_eq!(fuel(local), base + 2 + 2);
    let base = fuel("(table.fill (i32.const 0) (ref.null func) (i32.const 1))");
    let local = "(local.set 0 (i32.const 10)) (table.fill (i32.const 0) (ref.null func) (local.get 0))";
    assert_eq!(fuel(local), base + 9 + 2);
}

/// Empty copies in a loop, each behind its bounds check (a host call): they end in `fuel`. With
/// a tenth of the default budget, as the host call is several times slower in a debug build
/// (release: 3.3 ns per unit, docs/sandbox.md).
#[test]
fn wasm_memcopy_empty() {
    let limits = Limits { fuel_per_decision: 10_000_000, ..limits_for("wasm_memcopy_empty.wat") };
    case_with("wasm_memcopy_empty.wat", Stage::Act, Verdict::Fuel, limits);
}

/// The checks' imports are the sandbox's: a module that imports one itself is refused.
#[test]
fn wasm_modules_may_not_import_the_bulk_checks() {
    let sb = Sandbox::new().unwrap();
    let text = r#"(module
        (import "cardarena:bulk" "memory_fill" (func (param i32 i32 i32 i32) (result i32 i32 i32)))
        (memory (export "memory") 1)
        (func (export "alloc") (param i32) (result i32) (i32.const 0))
        (func (export "act") (param i32 i32) (result i64) (i64.const 0)))"#;
    let fault = sb.load("import.wat", cardarena_sandbox::Kind::Wasm, text.as_bytes()).unwrap_err();
    assert_eq!(fault.verdict, Verdict::Load);
    assert!(fault.message.contains("cardarena:bulk"), "{}", fault.message);
}

#[test]
fn lua_wallclock_fires_within_one_slow_instruction() {
    // Coercing the string is charged (1 per 8 bytes): with the default budget, `fuel`.
    case("lua_wallclock_coerce.lua", Stage::Act, Verdict::Fuel);
    // With fuel to spare, only the wall clock stops it. Without the watchdog this took about
    // 5 s per decision (1000 instructions of ~25 ms between two clock checks); with it, the
    // limit plus one instruction and one tick.
    let limits = Limits {
        fuel_per_decision: u64::MAX / 4,
        fuel_per_match: u64::MAX / 2,
        ..short_wall("lua_wallclock_coerce.lua")
    };
    let sb = Sandbox::new().unwrap();
    let program = sandbox::load(&sb, "lua_wallclock_coerce.lua").unwrap();
    let mut bot = program.start(&limits, sandbox::SEED, sandbox::INFO).unwrap();
    let t = std::time::Instant::now();
    assert_eq!(bot.act(sandbox::OBS).unwrap_err().verdict, Verdict::Wallclock);
    let took = t.elapsed();
    assert!(took < Duration::from_millis(1500), "{took:?}");
}

#[test]
fn wasm_wallclock_when_fuel_is_plentiful() {
    let limits = Limits {
        fuel_per_decision: u64::MAX / 4,
        fuel_per_match: u64::MAX / 2,
        ..short_wall("wasm_infinite_loop.wat")
    };
    case_with("wasm_infinite_loop.wat", Stage::Act, Verdict::Wallclock, limits);
}

#[test]
fn lua_fuel_fault_reports_numbers() {
    let f = case("lua_infinite_loop.lua", Stage::Act, Verdict::Fuel);
    let budget = Limits::LUA.fuel_per_decision;
    assert!(f.fuel_used >= budget && f.fuel_used < budget + 2 * 1000, "{f}");
    assert_eq!(f.fuel_total, f.fuel_used);
    assert!(f.memory_peak > 0);
}

#[test]
fn wasm_fuel_fault_reports_numbers() {
    let f = case("wasm_infinite_loop.wat", Stage::Act, Verdict::Fuel);
    assert_eq!(f.fuel_used, Limits::WASM.fuel_per_decision);
    assert_eq!(f.memory_peak, 65536);
}

#[test]
fn lua_runtime_error_has_traceback_with_lines() {
    let f = case("lua_runtime_error.lua", Stage::Act, Verdict::Crash);
    assert!(f.message.contains("lua_runtime_error.lua:2:"), "{}", f.message);
    let trace = f.trace.expect("a traceback");
    assert!(trace.contains("lua_runtime_error.lua:2"), "{trace}");
    assert!(trace.contains("lua_runtime_error.lua:5"), "{trace}");
}

#[test]
fn wasm_trap_has_backtrace_with_names() {
    let f = case("wasm_unreachable.wat", Stage::Act, Verdict::Crash);
    assert!(f.message.contains("unreachable"), "{}", f.message);
    let trace = f.trace.expect("a backtrace");
    assert!(trace.contains("deep_helper"), "{trace}");
}

#[test]
fn load_errors_name_the_problem() {
    let sb = Sandbox::new().unwrap();
    let msg = |file| sandbox::load(&sb, file).unwrap_err().message;
    assert!(msg("wasm_unknown_import.wat").contains("env.clock_ms"));
    assert!(msg("wasm_wasi_import.wat").contains("wasi_snapshot_preview1.fd_write"));
    assert!(msg("wasm_wrong_import_sig.wat").contains("env.log"));
    assert!(msg("wasm_missing_act.wat").contains("`act`"));
    assert!(msg("wasm_missing_memory.wat").contains("`memory`"));
    assert!(msg("wasm_wrong_act_sig.wat").contains("`act`"));
    assert!(msg("wasm_wrong_init_sig.wat").contains("`init`"));
    assert!(msg("lua_syntax_error.lua").contains("lua_syntax_error.lua:2"));
    assert!(msg("lua_bytecode.lua").contains("bytecode"));
}

#[test]
fn oversized_programs_are_refused() {
    let sb = Sandbox::new().unwrap();
    let big = vec![b' '; cardarena_sandbox::MAX_WASM_MODULE + 1];
    let f = sb.load("big.wasm", cardarena_sandbox::Kind::Wasm, &big).unwrap_err();
    assert_eq!(f.verdict, Verdict::Load);
    let big = vec![b' '; cardarena_sandbox::MAX_LUA_SOURCE + 1];
    let f = sb.load("big.lua", cardarena_sandbox::Kind::Lua, &big).unwrap_err();
    assert_eq!(f.verdict, Verdict::Load);
}

/// Attacks the log cap with lines that carry no text (`env.log(0, 0)`, `print()` in a loop):
/// each line costs its framing, so a decision keeps at most `LOG_LINES_PER_DECISION` lines and a
/// match at most `log_bytes_per_match / LOG_LINE_FRAMING`, each cut marked by one line.
#[test]
fn empty_log_lines_are_capped_per_decision_and_per_match() {
    use cardarena_sandbox::{LOG_LINES_PER_DECISION, LOG_LINE_FRAMING};
    let (sb, _) = setup();
    for file in ["wasm_log_empty_lines.wat", "lua_print_empty_lines.lua"] {
        let program = sandbox::load(&sb, file).unwrap();
        let base = limits_for(file);
        let per_decision = base.fuel_per_decision / 50;
        let limits = Limits {
            fuel_per_decision: per_decision,
            fuel_per_match: 10 * per_decision,
            log_bytes_per_match: 250 * LOG_LINE_FRAMING,
            ..base
        };
        let mut bot = program.start(&limits, sandbox::SEED, sandbox::INFO).unwrap();
        let mut kept = 0;
        for _ in 0..12 {
            let fault = bot.act(sandbox::OBS).unwrap_err();
            assert_eq!(fault.verdict, Verdict::Fuel, "{file}: {fault}");
            let log = bot.take_log();
            assert!(log.len() <= LOG_LINES_PER_DECISION + 1, "{file}: {} lines", log.len());
            if let Some(last) = log.last() {
                assert!(last.starts_with("[sandbox: log"), "{file}: {last:?}");
            }
            kept += log.iter().filter(|l| l.is_empty()).count();
        }
        assert_eq!(kept, 250, "{file}: the match's cap in lines");
    }
}

/// Attacks the compiler with modules whose compile time or memory grows with their shape; each
/// is refused before compiling, naming the limit and the value.
#[test]
fn wasm_modules_past_the_shape_limits_are_refused_at_load() {
    let sb = Sandbox::new().unwrap();
    let abi = r#"(memory (export "memory") 1)
        (func (export "alloc") (param i32) (result i32) (i32.const 0))
        (func (export "act") (param i32 i32) (result i64) (i64.const 0))"#;
    let cases = [
        (format!("(module {abi} {})", "(func)".repeat(5_000)), "5002 functions; the limit is 5000"),
        (format!("(module {abi} (func (local {})))", "i64 ".repeat(1_001)), "1001 locals in one function"),
        (format!("(module {abi} (table 1 funcref) (table 1 funcref))"), "2 tables; the limit is 1"),
        (format!("(module {abi} (table 20000 funcref))"), "20000 initial table elements"),
    ];
    for (text, want) in cases {
        let t = std::time::Instant::now();
        let fault = sb.load("shape.wat", cardarena_sandbox::Kind::Wasm, text.as_bytes()).unwrap_err();
        assert_eq!(fault.verdict, Verdict::Load);
        assert!(fault.message.contains(want), "{want}: {}", fault.message);
        assert!(t.elapsed() < Duration::from_secs(5), "{want}: {:?}", t.elapsed());
    }
    let text = format!("(module {abi} (func (local {})))", "i64 ".repeat(1_000));
    sb.load("shape.wat", cardarena_sandbox::Kind::Wasm, text.as_bytes()).unwrap();
    let big_text = vec![b' '; cardarena_sandbox::MAX_WAT_TEXT + 1];
    let fault = sb.load("big.wat", cardarena_sandbox::Kind::Wasm, &big_text).unwrap_err();
    assert!(fault.message.contains("compile it to a binary .wasm"), "{}", fault.message);
}

#[test]
fn lua_coroutine_kept_for_a_later_decision_is_charged_there() {
    let sb = Sandbox::new().unwrap();
    let program = sandbox::load(&sb, "lua_coroutine_kept.lua").unwrap();
    let mut bot = program.start(&Limits::LUA, sandbox::SEED, sandbox::INFO).unwrap();
    assert_eq!(bot.act(sandbox::OBS).unwrap(), "started");
    assert!(bot.fuel_used_last() < 1000, "{}", bot.fuel_used_last());
    let f = bot.act(sandbox::OBS).unwrap_err();
    assert_eq!(f.verdict, Verdict::Fuel, "{f}");
    let budget = Limits::LUA.fuel_per_decision;
    assert!(f.fuel_used >= budget && f.fuel_used < budget + 2 * 1000, "{f}");
}

#[test]
fn lua_absent_libraries_say_so() {
    for file in
        ["lua_escape_io.lua", "lua_escape_os.lua", "lua_escape_debug.lua", "lua_escape_collectgarbage.lua"]
    {
        let f = case(file, Stage::Act, Verdict::Crash);
        assert!(f.message.contains("the sandbox leaves out"), "{file}: {}", f.message);
        assert!(f.message.contains("(see `arena docs sandbox`)"), "{file}: {}", f.message);
    }
    for file in ["lua_escape_require.lua", "lua_escape_dofile.lua"] {
        let f = case(file, Stage::Act, Verdict::Crash);
        assert!(f.message.contains("the sandbox has no files"), "{file}: {}", f.message);
    }
    let f = case("lua_load_bytecode.lua", Stage::Act, Verdict::Crash);
    assert!(f.message.contains("source text only"), "{}", f.message);
    let f = case("lua_escape_load_env.lua", Stage::Act, Verdict::Crash);
    assert!(f.message.contains("global 'os'"), "{}", f.message);
}
