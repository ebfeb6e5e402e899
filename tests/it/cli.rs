//! `arena play` and `arena games` as a user runs them.

use std::process::Command;

fn arena(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_arena")).args(args).output().expect("arena runs")
}

fn stdout(o: &std::process::Output) -> String {
    String::from_utf8(o.stdout.clone()).unwrap()
}

fn stderr(o: &std::process::Output) -> String {
    String::from_utf8(o.stderr.clone()).unwrap()
}

#[test]
fn games_lists_every_game_and_variant() {
    let o = arena(&["games"]);
    assert!(o.status.success());
    let out = stdout(&o);
    for word in [
        "blade",
        "readme",
        "controller",
        "ecard",
        "manga",
        "lost-cities",
        "classic",
        "six-suits",
        "intensity",
        "standard",
    ] {
        assert!(out.contains(word), "missing {word} in {out}");
    }
}

#[test]
fn play_json_is_one_object_with_the_documented_fields() {
    for (game, bots) in [
        ("blade", "greedy,random"),
        ("ecard", "greedy,random"),
        ("lost-cities", "random,greedy"),
        ("intensity", "greedy,random,random,random"),
    ] {
        let o = arena(&["play", "--game", game, "--bots", bots, "--seed", "7", "--json"]);
        assert!(o.status.success(), "{}", stderr(&o));
        let out = stdout(&o);
        assert_eq!(out.lines().count(), 1, "{out}");
        let v: serde_json::Value = serde_json::from_str(&out).unwrap();
        assert_eq!(v["game"], game);
        assert_eq!(v["seed"], 7);
        let seats = v["seats"].as_array().unwrap();
        assert_eq!(seats.len(), bots.split(',').count());
        for (seat, name) in seats.iter().zip(bots.split(',')) {
            assert_eq!(seat["bot"], name);
            assert!(seat["points"].is_i64());
            assert!(seat["rank"].as_u64().unwrap() >= 1);
            assert!(seat["faults"].as_array().unwrap().is_empty());
        }
        let keys: Vec<&String> = v.as_object().unwrap().keys().collect();
        assert_eq!(keys.len(), 4, "{keys:?}");
    }
}

#[test]
fn same_arguments_give_identical_bytes() {
    for extra in [&["--json"][..], &[][..]] {
        let mut args = vec!["play", "--game", "lost-cities", "--bots", "greedy,random", "--seed", "3"];
        args.extend_from_slice(extra);
        let a = arena(&args);
        let b = arena(&args);
        assert!(a.status.success());
        assert_eq!(a.stdout, b.stdout);
    }
}

#[test]
fn play_writes_a_replay_file() {
    let dir = std::env::temp_dir().join(format!("cardarena-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join("r.json");
    let o = arena(&[
        "play",
        "--game",
        "blade",
        "--variant",
        "controller",
        "--bots",
        "random,random",
        "--seed",
        "5",
        "--replay",
        path.to_str().unwrap(),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let v: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&path).unwrap()).unwrap();
    assert_eq!(v["game"], "blade");
    assert_eq!(v["variant"], "controller");
    assert_eq!(v["seed"], 5);
    assert_eq!(v["bots"].as_array().unwrap().len(), 2);
    assert!(v["bots"][0]["hash"].as_str().unwrap().len() == 64);
    assert!(!v["decisions"].as_array().unwrap().is_empty());
    assert!(v["deal"].is_object());
    std::fs::remove_dir_all(&dir).ok();
}

#[test]
fn the_log_is_readable() {
    let o = arena(&["play", "--game", "ecard", "--bots", "greedy,random", "--seed", "1"]);
    assert!(o.status.success());
    let out = stdout(&o);
    assert!(out.starts_with("ecard (readme), seed 1: seat 0 greedy, seat 1 random"), "{out}");
    assert!(out.contains("Result:"));
    assert!(out.contains("seat 1 (random):"));
}

/// Intensity's points are penalties (fewer is better): results call them penalty points, and
/// the other games keep plain points.
#[test]
fn intensity_results_say_penalty_points() {
    let o = arena(&["play", "--game", "intensity", "--bots", "greedy,greedy,random,random", "--seed", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let result = &out[out.find("Result:").expect("a result")..];
    assert_eq!(result.matches(" penalty points, rank ").count(), 4, "{result}");
    let o = arena(&["play", "--game", "ecard", "--bots", "greedy,random", "--seed", "1"]);
    let out = stdout(&o);
    assert!(out.contains(" points, rank ") && !out.contains("penalty"), "{out}");
}

#[test]
fn bad_input_gets_a_clear_error() {
    let cases: &[(&[&str], &str)] = &[
        (&["play", "--game", "chess", "--bots", "random,random"], "unknown game \"chess\""),
        (&["play", "--game", "blade", "--variant", "nope", "--bots", "random,random"], "variant"),
        (&["play", "--game", "blade", "--bots", "random"], "2-player game but --bots names 1"),
        (&["play", "--game", "intensity", "--bots", "random,random"], "4-player"),
        (
            &["play", "--game", "blade", "--bots", "random,clever"],
            "unknown bot \"clever\": a bot is a built-in of blade",
        ),
        (
            &["play", "--game", "blade", "--bots", "random,gredy"],
            "unknown bot \"gredy\" (did you mean \"greedy\"?)",
        ),
        (&["play", "--game", "blade", "--bots", "random,strong:99"], "bad level in \"strong:99\""),
        (&["play", "--game", "blade", "--bots", "random,/nonexistent/bot.lua"], "cannot read bot file"),
    ];
    for (args, needle) in cases {
        let o = arena(args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert!(err.contains(needle), "{args:?}: {err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

/// Writes a bot file into a fresh folder and returns its path.
fn bot_file(name: &str, text: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-cli-bots-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

fn play_json(args: &[&str]) -> serde_json::Value {
    let o = arena(args);
    assert!(o.status.success(), "{}", stderr(&o));
    serde_json::from_str(&stdout(&o)).unwrap()
}

#[test]
fn lua_and_wat_bots_play_anywhere_a_bot_is_named() {
    let lua = bot_file("first.lua", "function act(obs)\n  return obs.legal[1]\nend\n");
    let wat = bot_file(
        "last.wat",
        r#"(module
  (memory (export "memory") 1)
  (global $next (mut i32) (i32.const 1024))
  (func (export "alloc") (param $len i32) (result i32)
    (local $p i32)
    (local.set $p (global.get $next))
    (global.set $next (i32.add (global.get $next) (local.get $len)))
    (local.get $p))
  ;; replies with the 3-byte string "C" padded? no: the literal "C" at offset 16
  (data (i32.const 16) "C")
  (func (export "act") (param i32 i32) (result i64)
    (i64.or (i64.shl (i64.const 16) (i64.const 32)) (i64.const 1))))"#,
    );
    let v = play_json(&[
        "play",
        "--game",
        "ecard",
        "--bots",
        &format!("{},{}", lua.display(), wat.display()),
        "--json",
    ]);
    for seat in v["seats"].as_array().unwrap() {
        assert!(seat["faults"].as_array().unwrap().is_empty(), "{v}");
    }
}

#[test]
fn bot_faults_carry_the_verdict_and_the_lua_traceback() {
    let crash = bot_file("crash.lua", "function act(obs)\n  local x = nil\n  return x.field\nend\n");
    let spin = bot_file("spin.lua", "function act(obs)\n  while true do end\nend\n");
    // seat 1 is the Slave side in round 1: it holds no Emperor
    let illegal = bot_file("illegal.lua", "function act(obs)\n  return 'E'\nend\n");
    let cases = [(&crash, "crash"), (&spin, "fuel"), (&illegal, "illegal")];
    for (bot, verdict) in cases {
        let dir = std::env::temp_dir().join(format!("cardarena-cli-replay-{}-{verdict}", std::process::id()));
        let replay = dir.with_extension("json");
        let v = play_json(&[
            "play",
            "--game",
            "ecard",
            "--bots",
            &format!("random,{}", bot.display()),
            "--seed",
            "4",
            "--json",
            "--replay",
            replay.to_str().unwrap(),
        ]);
        let faults = v["seats"][1]["faults"].as_array().unwrap();
        assert_eq!(faults.len(), 1, "{v}");
        assert_eq!(faults[0]["verdict"], verdict, "{v}");
        assert_eq!(v["seats"][1]["rank"], 2);
        assert_eq!(v["seats"][0]["rank"], 1);
        let r: serde_json::Value = serde_json::from_str(&std::fs::read_to_string(&replay).unwrap()).unwrap();
        let fault = &r["faults"][1][0];
        if verdict == "crash" {
            let trace = fault["trace"].as_str().unwrap_or_default();
            assert!(trace.contains(":3"), "traceback with the line number: {fault}");
        }
        if verdict != "illegal" {
            assert!(fault["fuel_used"].as_u64().unwrap() > 0, "{fault}");
        }
        std::fs::remove_file(&replay).ok();
    }
}

#[test]
fn limit_flags_reach_the_sandbox() {
    let busy = bot_file(
        "busy.lua",
        "function act(obs)\n  local s = 0\n  for i = 1, 20000 do s = s + i end\n  return obs.legal[1]\nend\n",
    );
    let b = format!("{},random", busy.display());
    // faults write crash capsules; keep them out of the checkout
    let caps = busy.with_file_name("capsules");
    let caps = caps.to_str().unwrap();
    let v = play_json(&["play", "--game", "ecard", "--bots", &b, "--json"]);
    assert!(v["seats"][0]["faults"].as_array().unwrap().is_empty(), "{v}");
    let v = play_json(&[
        "play",
        "--game",
        "ecard",
        "--bots",
        &b,
        "--json",
        "--capsules",
        caps,
        "--fuel-per-decision",
        "1000",
    ]);
    assert_eq!(v["seats"][0]["faults"][0]["verdict"], "fuel", "{v}");
    let v = play_json(&[
        "play",
        "--game",
        "ecard",
        "--bots",
        &b,
        "--json",
        "--capsules",
        caps,
        "--fuel-per-match",
        "100000",
    ]);
    assert_eq!(v["seats"][0]["faults"][0]["verdict"], "fuel", "{v}");
}

#[test]
fn a_broken_bot_file_is_refused_with_its_name() {
    let bad = bot_file("syntax.lua", "function act(obs\n");
    let o = arena(&["play", "--game", "blade", "--bots", &format!("{},random", bad.display())]);
    assert_eq!(o.status.code(), Some(2));
    let err = stderr(&o);
    assert!(err.contains("syntax.lua") && err.contains("cannot be loaded"), "{err}");
}

/// A fresh, empty folder for one test.
fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("cli-{name}"));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

fn repo(path: &str) -> String {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(path).to_string_lossy().into_owned()
}

/// Runs `cmd` with its output in files of `dir`, and returns its exit code, stdout, stderr and
/// peak resident memory in bytes (the child's own `ru_maxrss`, from `wait4`).
fn run_measured(mut cmd: Command, dir: &std::path::Path) -> (Option<i32>, String, String, u64) {
    let (out, err) = (dir.join("stdout.txt"), dir.join("stderr.txt"));
    cmd.stdout(std::fs::File::create(&out).unwrap()).stderr(std::fs::File::create(&err).unwrap());
    #[allow(clippy::zombie_processes)] // reaped by `wait4` below, which also gives its usage
    let child = cmd.spawn().expect("spawns");
    let mut status = 0;
    // SAFETY: plain system call on our own child, with valid pointers to locals.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    let pid = unsafe { libc::wait4(child.id() as libc::pid_t, &mut status, 0, &mut usage) };
    assert_eq!(pid, child.id() as libc::pid_t);
    let code = libc::WIFEXITED(status).then(|| libc::WEXITSTATUS(status));
    let read = |p: &std::path::Path| String::from_utf8_lossy(&std::fs::read(p).unwrap()).into_owned();
    (code, read(&out), read(&err), usage.ru_maxrss as u64 * 1024)
}

/// Attacks the host's memory through a bot: log spam of empty lines (each once kept as a
/// line of its own), a Lua table bomb and a WASM memory filled to its cap. The process's peak
/// resident memory stays within the seated bots' memory limits plus the fixed overhead stated
/// in docs/sandbox.md ("Memory of the host process"), and the replay stays small.
#[test]
fn arena_play_peak_memory_stays_within_the_bound_under_hostile_bots() {
    let dir = scratch("memory-bound");
    let fill = dir.join("fill_memory.wat");
    std::fs::write(
        &fill,
        r#"(module (memory (export "memory") 1)
          (func (export "alloc") (param i32) (result i32) (i32.const 0))
          (func (export "act") (param i32 i32) (result i64)
            (drop (memory.grow (i32.const 1000)))
            (memory.fill (i32.const 0) (i32.const 7) (i32.const 65601536))
            (loop $l (br $l))
            (i64.const 0)))"#,
    )
    .unwrap();
    // Intensity for the log spam: a faulty seat keeps playing, so the bot attacks at every
    // decision (with less fuel per decision than the default, still 20,000 lines or more).
    let spam: &[&str] = &["--fuel-per-decision", "2000000"];
    let bots = [
        (repo("sandbox/tests/bots/wasm_log_empty_lines.wat"), "intensity", spam),
        (repo("sandbox/tests/bots/lua_print_empty_lines.lua"), "intensity", spam),
        (repo("sandbox/tests/bots/lua_memory_table_bomb.lua"), "ecard", &[][..]),
        (fill.to_string_lossy().into_owned(), "ecard", &[][..]),
    ];
    const MIB: u64 = 1 << 20;
    // One sandboxed seat of 64 MiB (the default) and built-ins, plus the fixed overhead.
    let bound = 64 * MIB + 64 * MIB;
    for (bot, game, flags) in bots {
        let replay = dir.join("replay.json");
        let others = if game == "intensity" { ",random,random,random" } else { ",random" };
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
        cmd.args(["play", "--game", game, "--seed", "1", "--json", "--bots"])
            .arg(format!("{bot}{others}"))
            .arg("--replay")
            .arg(&replay)
            .arg("--capsules")
            .arg(dir.join("capsules"))
            .args(flags);
        let (code, out, err, rss) = run_measured(cmd, &dir);
        assert_eq!(code, Some(0), "{bot}: {err}");
        assert!(out.contains("\"verdict\""), "{bot}: {out}");
        eprintln!("{bot}: peak RSS {:.1} MiB", rss as f64 / MIB as f64);
        assert!(rss <= bound, "{bot}: peak RSS {} MiB; the bound is {} MiB", rss / MIB, bound / MIB);
        let size = std::fs::metadata(&replay).unwrap().len();
        assert!(size < MIB, "{bot}: replay of {size} bytes");
    }
}

/// Attacks the terminal through bot output and file names: ESC sequences, BEL and CR in a log
/// line, a fault message and a bot's file name reach `arena play` and `arena replay` escaped.
#[test]
fn play_and_replay_escape_control_characters_from_bots() {
    let dir = scratch("control-characters");
    let bot = dir.join("evil\x1b[2J.lua");
    std::fs::write(
        &bot,
        "function act(obs)\n  print('\\27[31mred\\7\\rover')\n  error('boom\\27]0;title\\7')\nend\n",
    )
    .unwrap();
    let replay = dir.join("replay.json");
    let o = Command::new(env!("CARGO_BIN_EXE_arena"))
        .args(["play", "--game", "ecard", "--seed", "1", "--bots"])
        .arg(format!("{},random", bot.display()))
        .arg("--replay")
        .arg(&replay)
        .arg("--capsules")
        .arg(dir.join("capsules"))
        .output()
        .unwrap();
    assert!(o.status.success(), "{}", stderr(&o));
    let shown = Command::new(env!("CARGO_BIN_EXE_arena")).arg("replay").arg(&replay).output().unwrap();
    assert!(shown.status.success(), "{}", stderr(&shown));
    for (what, text) in [("play", stdout(&o)), ("replay", stdout(&shown))] {
        for c in ['\x1b', '\x07', '\r'] {
            assert!(!text.contains(c), "{what} printed a raw {c:?}:\n{text}");
        }
        assert!(text.contains("\\x1b[31mred\\x07\\x0dover"), "{what}:\n{text}");
        assert!(text.contains("boom\\x1b]0;title\\x07"), "{what}:\n{text}");
        assert!(text.contains("evil\\x1b[2J.lua"), "{what}:\n{text}");
    }
}

/// Attacks `arena grade` through its folder: a link to a file outside it (whose first line
/// must not be quoted) and a 2 GiB sparse file (which must not be read).
#[test]
fn grade_refuses_links_out_of_the_folder_and_checks_size_before_reading() {
    let dir = scratch("grade-inputs");
    let class = dir.join("class");
    std::fs::create_dir_all(&class).unwrap();
    std::fs::copy(repo("example_bots/lua/ecard_random.lua"), class.join("alice.lua")).unwrap();
    let secret = dir.join("secret.txt");
    std::fs::write(&secret, "TOP SECRET first line\n").unwrap();
    std::os::unix::fs::symlink(&secret, class.join("bob.lua")).unwrap();
    std::os::unix::fs::symlink(class.join("alice.lua"), class.join("carol.lua")).unwrap();
    std::fs::File::create(class.join("huge.lua")).unwrap().set_len(2 << 30).unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.args(["grade", "--game", "ecard", "--against", "random", "--deals", "1", "--csv", "-", "--bots"])
        .arg(&class);
    let (code, out, err, rss) = run_measured(cmd, &dir);
    assert_eq!(code, Some(0), "{err}");
    assert!(!out.contains("SECRET") && !err.contains("SECRET"), "{out}{err}");
    let row =
        |file: &str| out.lines().find(|l| l.starts_with(file)).unwrap_or_else(|| panic!("{file}: {out}"));
    assert!(
        row("bob.lua").starts_with("bob.lua,,load error: a symbolic link out of the graded folder"),
        "{out}"
    );
    assert!(!row("carol.lua").contains("link"), "a link inside the folder is graded: {out}");
    assert!(row("huge.lua").contains("2147483648 bytes; the limit is"), "{out}");
    assert!(rss < 512 << 20, "peak RSS {} MiB", rss >> 20);
}

/// Attacks the fallback without the instance pool (`ulimit -v`): the same replay, byte for
/// byte, as with the pool, and a two-table module refused at load the same way.
#[test]
fn wasm_without_the_instance_pool_plays_the_same() {
    let dir = scratch("no-pool");
    let two_tables = dir.join("two_tables.wat");
    std::fs::write(
        &two_tables,
        r#"(module (memory (export "memory") 1) (table 1 funcref) (table 1 funcref)
          (func (export "alloc") (param i32) (result i32) (i32.const 0))
          (func (export "act") (param i32 i32) (result i64) (i64.const 0)))"#,
    )
    .unwrap();
    let bot = repo("example_bots/wasm/ecard_rust.wasm");
    let run = |limit: &str, bots: &str, replay: &str| {
        let script = format!("{limit} exec \"$0\" play --game ecard --seed 3 --bots \"$1\" --replay \"$2\"");
        Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(env!("CARGO_BIN_EXE_arena"))
            .arg(bots)
            .arg(dir.join(replay))
            .output()
            .unwrap()
    };
    let pooled = run("", &format!("{bot},random"), "pooled.json");
    assert!(pooled.status.success(), "{}", stderr(&pooled));
    let limited = run("ulimit -v 3000000 &&", &format!("{bot},random"), "limited.json");
    assert!(limited.status.success(), "{}", stderr(&limited));
    let read = |f: &str| std::fs::read(dir.join(f)).unwrap();
    assert!(!String::from_utf8_lossy(&read("limited.json")).contains("\"fault\""));
    assert_eq!(read("pooled.json"), read("limited.json"), "replays differ without the pool");
    // Growing memory a page at a time: the same `memory` verdict and fuel (not a copy of the
    // whole memory at every page, which ended in `wallclock`).
    let grow = repo("sandbox/tests/bots/wasm_memory_grow_bomb.wat");
    let pooled = run("", &format!("{grow},random"), "grow-pooled.json");
    let limited = run("ulimit -v 3000000 &&", &format!("{grow},random"), "grow-limited.json");
    assert!(pooled.status.success() && limited.status.success(), "{}", stderr(&limited));
    assert!(String::from_utf8_lossy(&read("grow-pooled.json")).contains("\"verdict\": \"memory\""));
    assert_eq!(read("grow-pooled.json"), read("grow-limited.json"), "replays differ without the pool");
    for limit in ["", "ulimit -v 3000000 &&"] {
        let o = run(limit, &format!("{},random", two_tables.display()), "t.json");
        assert_eq!(o.status.code(), Some(2), "{limit}");
        assert!(stderr(&o).contains("2 tables; the limit is 1"), "{limit}: {}", stderr(&o));
    }
}

/// Bit-exact Lua: a bot whose log and moves follow what used to be heap addresses
/// (`tostring` of tables and functions, `%p`, the `pairs` order of table, function and boolean
/// keys) gives byte-identical replays in two separate processes.
#[test]
fn object_identity_and_pairs_order_are_the_same_in_two_processes() {
    let dir = std::env::temp_dir().join(format!("cardarena-cli-identity-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let bot = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/bots/identity_order.lua");
    let run = |name: &str| {
        let path = dir.join(name);
        let bots = format!("{bot},random");
        let o = arena(&[
            "play",
            "--game",
            "ecard",
            "--bots",
            &bots,
            "--seed",
            "1",
            "--replay",
            path.to_str().unwrap(),
        ]);
        assert!(o.status.success(), "{}", stderr(&o));
        std::fs::read(&path).unwrap()
    };
    let (a, b) = (run("a.json"), run("b.json"));
    let text = String::from_utf8_lossy(&a);
    assert!(text.contains("table: 0x"), "{text}");
    assert!(text.contains("function: 0x"), "{text}");
    assert!(!text.contains("\"crash\""), "{text}");
    assert!(a == b, "two runs of one bot gave different replays");
    std::fs::remove_dir_all(&dir).ok();
}
