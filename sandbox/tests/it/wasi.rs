//! The WASI preview1 shim for legacy stdin/stdout bots (`wasi.rs`, docs/legacy-bots.md): the
//! example C and Rust programs on the COMP1511 spec's examples (seed-games.md §4(c)), and
//! hostile commands written in WAT.

use std::path::PathBuf;

use cardarena_sandbox::{Limits, Sandbox, StdioProgram, Verdict};

fn example(file: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../example_bots/legacy").join(file);
    std::fs::read(&path)
        .unwrap_or_else(|e| panic!("{}: {e} (scripts/build-example-bots.sh builds it)", path.display()))
}

fn load(sandbox: &Sandbox, name: &str, bytes: &[u8]) -> StdioProgram {
    sandbox.load_stdio(name, bytes).unwrap_or_else(|f| panic!("{name}: {}", f.message))
}

fn run(program: &StdioProgram, stdin: &str) -> Result<String, cardarena_sandbox::Fault> {
    let mut bot = program.start(&Limits::WASM, 7);
    bot.run(stdin.as_bytes()).map(|out| String::from_utf8(out).expect("UTF-8"))
}

/// The spec's two verbatim examples (seed-games.md §4(c)).
const SPEC_PASS: &str = "1\n13 19 24 25 29 32 39 44 46 49\n";
const SPEC_PLAY: &str = "2\n9 2 0\n11 15 18 23 33 34 47 48 49\n24 26\n16 13 19 12\n37 38 39\n34 47 48\n";

/// The example C bot gives the spec's answers: pass `29 39 49`, play `23` (the only legal
/// card). Its name has no newline and it never calls fflush (like the starter code): the C
/// library flushes at exit, and the name still arrives.
#[test]
fn c_intensity_bot_gives_the_spec_answers() {
    let sandbox = Sandbox::new().unwrap();
    let bot = load(&sandbox, "intensity_c.wasm", &example("intensity_c.wasm"));
    assert_eq!(run(&bot, SPEC_PASS).unwrap(), "29 39 49\n");
    assert_eq!(run(&bot, SPEC_PLAY).unwrap(), "23\n");
    assert_eq!(run(&bot, "0\n").unwrap(), "legacy c example");
}

/// The Rust wasip1 bot (std's stdin, a HashMap seeded through `random_get`) runs too, and plays
/// the only legal card.
#[test]
fn rust_wasip1_bot_runs_with_the_stubs() {
    let sandbox = Sandbox::new().unwrap();
    let bot = load(&sandbox, "intensity_rust.wasm", &example("intensity_rust.wasm"));
    assert_eq!(run(&bot, SPEC_PLAY).unwrap(), "23\n");
    assert_eq!(run(&bot, SPEC_PASS).unwrap(), "44 46 49\n");
}

/// A command copied to a lane (`StdioProgram::on`, another engine) is the same program: the
/// same name, hash, output and fuel for every input; a lane's copy is also made from a copy.
#[test]
fn a_command_on_a_lane_behaves_as_on_its_sandbox() {
    let sandbox = Sandbox::new().unwrap();
    let lane = sandbox.lane().unwrap();
    let program = load(&sandbox, "intensity_c.wasm", &example("intensity_c.wasm"));
    let moved = program.on(&lane).unwrap();
    assert_eq!((moved.name(), moved.hash()), (program.name(), program.hash()));
    let runs = |p: &StdioProgram| {
        let mut bot = p.start(&Limits::WASM, 7);
        [SPEC_PASS, SPEC_PLAY, "0\n"].map(|stdin| (bot.run(stdin.as_bytes()).unwrap(), bot.fuel_used_last()))
    };
    assert_eq!(runs(&moved), runs(&program));
    let back = moved.on(&sandbox).unwrap();
    assert_eq!(runs(&back), runs(&program));
}

/// Same input, same output and the same fuel, run after run: `srand(time(NULL))` in the Blade
/// bot reads the virtual clock (fixed date plus fuel used).
#[test]
fn runs_are_deterministic_with_srand_time() {
    let sandbox = Sandbox::new().unwrap();
    let bot = load(&sandbox, "blade_c.wasm", &example("blade_c.wasm"));
    // No card wins (2 + 3 < 10, no B or M): the bot falls back to rand() % 2.
    let stdin = r#"{"file":"f","turn":3,"player":{"hand":[{"type":2,"value":2,"valid":true},{"type":3,"value":3,"valid":true}],"field":[{"type":2,"value":2,"valid":true}],"deck":0,"score":2,"lastmove":null},"opponent":{"hand":3,"field":[{"type":7,"value":7,"valid":true},{"type":3,"value":3,"valid":true}],"deck":0,"score":10,"lastmove":null}}"#;
    let mut first = None;
    for _ in 0..3 {
        let mut inst = bot.start(&Limits::WASM, 7);
        let out = inst.run(format!("{stdin}\n").as_bytes()).unwrap();
        let got = (out, inst.fuel_used_last());
        assert_eq!(first.get_or_insert_with(|| got.clone()), &got);
    }
}

/// A WASI command in WAT: `$body` runs as `_start`, with `fd_write`/`fd_read`/`proc_exit`
/// imported, 1 page of memory, and the bytes "x" at 100 with an iovec for them at 0.
fn wat_command(body: &str, extra_imports: &str) -> String {
    format!(
        r#"(module
          (import "wasi_snapshot_preview1" "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))
          (import "wasi_snapshot_preview1" "fd_read" (func $read (param i32 i32 i32 i32) (result i32)))
          (import "wasi_snapshot_preview1" "proc_exit" (func $exit (param i32)))
          {extra_imports}
          (memory (export "memory") 1)
          (data (i32.const 0) "\64\00\00\00\01\00\00\00")
          (data (i32.const 100) "x")
          (func (export "_start") {body}))"#
    )
}

fn hostile(body: &str, extra: &str) -> cardarena_sandbox::Fault {
    let sandbox = Sandbox::new().unwrap();
    let bot = load(&sandbox, "hostile.wat", wat_command(body, extra).as_bytes());
    let limits = Limits { fuel_per_decision: 5_000_000, ..Limits::WASM };
    bot.start(&limits, 1).run(b"1 2 3\n").unwrap_err()
}

#[test]
fn output_flood_is_over_64_kib() {
    let fault = hostile(
        "(loop (drop (call $write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 50))) (br 0))",
        "",
    );
    assert_eq!(fault.verdict, Verdict::Invalid, "{}", fault.message);
    assert_eq!(fault.message, "output over 64 KiB");
}

/// Reading past EOF in a loop: every read answers 0 bytes (and costs fuel) until the fuel runs
/// out.
#[test]
fn reading_past_eof_forever_runs_out_of_fuel() {
    let fault = hostile(
        "(loop (drop (call $read (i32.const 0) (i32.const 0) (i32.const 1) (i32.const 50))) (br 0))",
        "",
    );
    assert_eq!(fault.verdict, Verdict::Fuel, "{}", fault.message);
    assert_eq!(fault.fuel_used, 5_000_000);
}

#[test]
fn proc_exit_200_is_an_exit_code() {
    let fault = hostile("(call $exit (i32.const 200))", "");
    assert_eq!((fault.verdict, fault.message.as_str()), (Verdict::Crash, "exit code 200"));
}

/// `sock_accept` is a preview1 function the shim does not provide: the program links, the call
/// answers NOSYS (52), and a run that then fails names the function.
#[test]
fn sock_accept_answers_nosys_and_is_named() {
    let body = "(if (i32.ne (call $accept (i32.const 3) (i32.const 0) (i32.const 8)) (i32.const 52)) (then unreachable)) (call $exit (i32.const 1))";
    let extra =
        r#"(import "wasi_snapshot_preview1" "sock_accept" (func $accept (param i32 i32 i32) (result i32)))"#;
    let fault = hostile(body, extra);
    assert_eq!(fault.verdict, Verdict::Crash);
    assert_eq!(
        fault.message,
        "exit code 1; needs WASI function sock_accept (not provided: it answered \"not implemented\")"
    );
}

#[test]
fn a_bot_that_never_exits_runs_out_of_fuel() {
    let fault = hostile("(loop (br 0))", "");
    assert_eq!(fault.verdict, Verdict::Fuel, "{}", fault.message);
}

/// Imports that are not preview1 functions are refused at load, by name.
#[test]
fn unknown_imports_are_refused_by_name() {
    let sandbox = Sandbox::new().unwrap();
    let extra = r#"(import "wasi_snapshot_preview1" "fd_frobnicate" (func (param i32) (result i32)))"#;
    let err = sandbox.load_stdio("x.wat", wat_command("", extra).as_bytes()).unwrap_err();
    assert_eq!(
        (err.verdict, err.message.as_str()),
        (Verdict::Load, "needs WASI function fd_frobnicate (not provided)")
    );
    let extra = r#"(import "env" "act" (func (param i32) (result i32)))"#;
    let err = sandbox.load_stdio("x.wat", wat_command("", extra).as_bytes()).unwrap_err();
    assert!(
        err.message.starts_with("imports `env.act`, which is not a WASI preview1 function"),
        "{}",
        err.message
    );
}

/// stdin arrives whole then EOF; stdout and stderr are separate (stderr goes to the log).
#[test]
fn stdin_echo_and_stderr_log() {
    let sandbox = Sandbox::new().unwrap();
    // Read into 200.., write what was read to stdout, then "x" to stderr.
    let body = "(i32.store (i32.const 8) (i32.const 200)) (i32.store (i32.const 12) (i32.const 64))
        (drop (call $read (i32.const 0) (i32.const 8) (i32.const 1) (i32.const 16)))
        (i32.store (i32.const 12) (i32.load (i32.const 16)))
        (drop (call $write (i32.const 1) (i32.const 8) (i32.const 1) (i32.const 20)))
        (drop (call $write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 20)))";
    let bot = load(&sandbox, "echo.wat", wat_command(body, "").as_bytes());
    let mut inst = bot.start(&Limits::WASM, 1);
    assert_eq!(inst.run(b"2 9 0\n").unwrap(), b"2 9 0\n");
    assert_eq!(inst.take_log(), vec!["x".to_string()]);
}

/// POSIX's `IOV_MAX` (1024) bounds the iovecs of one `fd_write`/`fd_read`: 1024 are written,
/// 1025 are refused with EINVAL (28) before any is read, for both calls.
#[test]
fn more_than_iov_max_iovecs_are_einval() {
    let sandbox = Sandbox::new().unwrap();
    // The iovec at 200 points at "x"; the ones after it are zero-length (the memory is zero).
    let body = "(i64.store (i32.const 200) (i64.const 0x100000064))
        (if (i32.ne (call $write (i32.const 1) (i32.const 200) (i32.const 1024) (i32.const 60000)) (i32.const 0)) (then unreachable))
        (if (i32.ne (i32.load (i32.const 60000)) (i32.const 1)) (then unreachable))
        (if (i32.ne (call $write (i32.const 1) (i32.const 200) (i32.const 1025) (i32.const 60000)) (i32.const 28)) (then unreachable))
        (if (i32.ne (call $read (i32.const 0) (i32.const 200) (i32.const 1025) (i32.const 60000)) (i32.const 28)) (then unreachable))
        (if (i32.ne (call $read (i32.const 0) (i32.const 200) (i32.const 1024) (i32.const 60000)) (i32.const 0)) (then unreachable))";
    let bot = load(&sandbox, "iov_max.wat", wat_command(body, "").as_bytes());
    let mut inst = bot.start(&Limits::WASM, 1);
    assert_eq!(inst.run(b"y").unwrap(), b"x");
}

/// Each iovec costs `IOVEC_FUEL` (4, on top of the call's 20 and 1 per byte), charged before the
/// iovecs are read: a write of "x" through 1024 iovecs (1023 of them empty) costs 1023 times
/// that more than through one, and so does a read.
#[test]
fn every_iovec_is_charged() {
    let sandbox = Sandbox::new().unwrap();
    let fuel = |call: &str, count: u32| {
        let body = format!(
            "(i64.store (i32.const 200) (i64.const 0x100000064))
             (drop (call {call} (i32.const {}) (i32.const 200) (i32.const {count}) (i32.const 60000)))",
            if call == "$write" { 1 } else { 0 }
        );
        let bot = load(&sandbox, "iovecs.wat", wat_command(&body, "").as_bytes());
        let mut inst = bot.start(&Limits::WASM, 1);
        inst.run(b"y").unwrap();
        inst.fuel_used_last()
    };
    assert_eq!(fuel("$write", 1024) - fuel("$write", 1), 1023 * cardarena_sandbox::IOVEC_FUEL);
    assert_eq!(fuel("$read", 1024) - fuel("$read", 1), 1023 * cardarena_sandbox::IOVEC_FUEL);
}

/// Attacks CPU per fuel and the host's memory with millions of zero-length iovecs per call (a
/// 64 MiB memory of zeros is 8 million of them): each call was about 38 ms of host work for 20
/// fuel, collected every iovec twice (about 214 MB of host memory), and every decision ended
/// by the wall clock. Now such a call is EINVAL at once, and the loop ends in `fuel`.
#[test]
fn millions_of_empty_iovecs_run_out_of_fuel() {
    let sandbox = Sandbox::new().unwrap();
    let wat = r#"(module
        (import "wasi_snapshot_preview1" "fd_write" (func $write (param i32 i32 i32 i32) (result i32)))
        (import "wasi_snapshot_preview1" "fd_read" (func $read (param i32 i32 i32 i32) (result i32)))
        (memory (export "memory") 1024)
        (func (export "_start")
          (loop
            (drop (call $write (i32.const 1) (i32.const 0) (i32.const 8000000) (i32.const 0)))
            (drop (call $read (i32.const 0) (i32.const 0) (i32.const 8000000) (i32.const 0)))
            (br 0))))"#;
    let bot = load(&sandbox, "iovec_flood.wat", wat.as_bytes());
    let limits = Limits { fuel_per_decision: 5_000_000, ..Limits::WASM };
    let fault = bot.start(&limits, 1).run(b"1 2 3\n").unwrap_err();
    assert_eq!(fault.verdict, Verdict::Fuel, "{}", fault.message);
    assert_eq!(fault.fuel_used, 5_000_000);
}
