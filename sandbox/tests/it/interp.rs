//! JavaScript bots: the QuickJS-ng interpreter module (its build and hash), the ABI of
//! `src/interp.rs`, verdicts, logs and determinism.

use cardarena_sandbox::{Kind, Limits, Sandbox, Verdict};
use sha2::{Digest, Sha256};

const INFO: &str = r#"{"game":"blade","variant":"readme","seat":0,"players":2,"seed":42}"#;
const OBS: &str = r#"{"seat":0,"phase":"play","legal":["1","3","B","M"],"hand":[1,3],"scores":[0,0]}"#;

fn sandbox() -> Sandbox {
    Sandbox::new().unwrap()
}

/// The committed module is the one `scripts/build-interp.sh` makes from the vendored sources
/// (the script's `--check` rebuilds it byte for byte; this pins what the arena ships).
#[test]
fn the_quickjs_module_is_the_pinned_build() {
    let bytes = std::fs::read(concat!(env!("CARGO_MANIFEST_DIR"), "/interp/quickjs/quickjs.wasm")).unwrap();
    let hash: String = Sha256::digest(&bytes).iter().map(|b| format!("{b:02x}")).collect();
    assert_eq!(hash, "2f92c34d6e116c2b5fb0e927cead614a2d62dde254f67fcc3857c9fd22f97986");
}

#[test]
fn a_script_bot_acts_and_logs() {
    let sb = sandbox();
    let src = br#"
        let calls = 0;
        function init(info) { console.log("seat", info.seat, {a: [1, 2]}); }
        function act(obs) { calls += 1; print("call", calls); return obs.legal[calls % obs.legal.length]; }
    "#;
    let program = sb.load("first.js", Kind::Js, src).unwrap();
    let mut bot = program.start(&Limits::default_for(Kind::Js), 7, INFO).unwrap();
    assert_eq!(bot.take_log(), vec!["seat 0 {\"a\":[1,2]}".to_string()]);
    assert_eq!(bot.act(OBS).unwrap(), "3");
    assert_eq!(bot.act(OBS).unwrap(), "B");
    assert_eq!(bot.take_log(), vec!["call 1".to_string(), "call 2".to_string()]);
    assert!(bot.fuel_used_last() > 0);
    eprintln!("init fuel {} act fuel {}", bot.fuel_init(), bot.fuel_used_last());
}

fn js(src: &str) -> cardarena_sandbox::Program {
    sandbox().load("bot.js", Kind::Js, src.as_bytes()).unwrap()
}

fn first_act(src: &str) -> Result<String, cardarena_sandbox::Fault> {
    js(src).start(&Limits::default_for(Kind::Js), 7, INFO)?.act(OBS)
}

#[test]
fn loading_does_not_call_init() {
    let src = "let seat;\nfunction init(info) { seat = info.players.toString(); }\nfunction act(obs) { return seat; }";
    assert_eq!(first_act(src).unwrap(), "2");
}

#[test]
fn an_es_module_exporting_act_works() {
    assert_eq!(first_act("export function act(obs) { return obs.legal[2]; }").unwrap(), "B");
    let e = sandbox().load("m.js", Kind::Js, b"import x from 'os';\nexport function act() {}").unwrap_err();
    assert_eq!(e.verdict, Verdict::Load, "{e:?}");
}

#[test]
fn beginner_mistakes_get_plain_messages() {
    let sb = sandbox();
    let e = sb.load("bot.js", Kind::Js, b"function Act(obs) { return obs.legal[0]; }").unwrap_err();
    assert_eq!(e.verdict, Verdict::Load);
    assert!(e.message.contains("no function `act`") && e.message.contains("`Act`"), "{}", e.message);
    let e = sb
        .load("bot.js", Kind::Js, b"let x = 1;\nfunction act(obs) {\n  return obs.legal[0\n}\n")
        .unwrap_err();
    assert_eq!(e.verdict, Verdict::Load);
    assert!(e.message.starts_with("bot.js:4: SyntaxError"), "{}", e.message);
    let e = first_act("function act(obs) { return 3; }").unwrap_err();
    assert_eq!(e.verdict, Verdict::Invalid);
    assert!(e.message.contains("act returned a number (3)"), "{}", e.message);
    let e = first_act("function act(obs) { obs.legal[0]; }").unwrap_err();
    assert_eq!(e.verdict, Verdict::Invalid);
    assert!(e.message.contains("undefined") && e.message.contains("return"), "{}", e.message);
    let e = first_act("function act(obs) {\n  return obs.hand.card.rank;\n}").unwrap_err();
    assert_eq!(e.verdict, Verdict::Crash);
    assert!(e.message.starts_with("bot.js:2: TypeError"), "{}", e.message);
    assert!(e.trace.as_deref().unwrap_or("").contains("at act"), "{e:?}");
}

#[test]
fn hostile_bots_end_in_their_verdicts() {
    let cases: &[(&str, &str, Verdict)] = &[
        ("infinite loop", "function act() { for (;;) {} }", Verdict::Fuel),
        (
            "swallowed exceptions",
            "function act() { for (;;) { try { null.x; } catch (e) {} } }",
            Verdict::Fuel,
        ),
        (
            "deep recursion",
            "function f(n) { return f(n + 1) + 1; }\nfunction act() { return f(0); }",
            Verdict::Stack,
        ),
        // Concatenation makes ropes: the doubling reaches the language's longest string first.
        ("string doubling", "function act() { let s = 'x'; for (;;) s = s + s; }", Verdict::Crash),
        (
            "buffer bomb",
            "function act() { return String(new ArrayBuffer(1e9).byteLength); }",
            Verdict::Memory,
        ),
        ("repeat bomb", "function act() { return 'x'.repeat(1e9); }", Verdict::Memory),
        ("array growth", "function act() { const a = []; for (;;) a.push([1, 2, 3]); }", Verdict::Memory),
        (
            "typed array bomb",
            "function act() { return String(new Float64Array(1e8).length); }",
            Verdict::Memory,
        ),
        (
            "catastrophic regex",
            "function act() { return String(/^(a+)+$/.test('a'.repeat(40) + 'b')); }",
            Verdict::Fuel,
        ),
        ("eval loop", "function act() { eval('while (true) {}'); }", Verdict::Fuel),
        ("Function loop", "function act() { new Function('for (;;) {}')(); }", Verdict::Fuel),
        ("throw", "function act() { throw new Error('boom'); }", Verdict::Crash),
        ("throw a string", "function act() { throw 'boom'; }", Verdict::Crash),
        ("async act", "async function act(obs) { return obs.legal[0]; }", Verdict::Invalid),
        (
            "promise loop",
            "function act() { const go = () => Promise.resolve().then(go); go(); return '1'; }",
            Verdict::Fuel,
        ),
    ];
    for (what, src, verdict) in cases {
        let e = first_act(src).expect_err(what);
        assert_eq!(e.verdict, *verdict, "{what}: {e:?}");
        let again = first_act(src).unwrap_err();
        assert_eq!((again.fuel_used, &again.message), (e.fuel_used, &e.message), "{what}: not deterministic");
    }
}

#[test]
fn deep_recursion_is_a_catchable_range_error_with_the_line() {
    let src = "let depth = 0;\nfunction f(n) { depth = n; return f(n + 1) + 1; }\nfunction act() {\n  try { return String(f(0)); } catch (e) { return depth + ' ' + e; }\n}";
    let reply = first_act(src).unwrap();
    let (depth, error) = reply.split_once(' ').unwrap();
    assert!(depth.parse::<u32>().unwrap() > 300, "{reply}");
    assert_eq!(error, "RangeError: Maximum call stack size exceeded");
    let e =
        first_act("function f(n) {\n  return f(n + 1) + 1;\n}\nfunction act() { return f(0); }").unwrap_err();
    assert_eq!(e.verdict, Verdict::Stack);
    assert!(e.message.starts_with("bot.js:2: RangeError: Maximum call stack size exceeded"), "{}", e.message);
}

#[test]
fn the_host_is_out_of_reach_and_the_observation_is_the_bots_own() {
    let src = r#"
        function act(obs) {
            const names = ['require', 'process', 'std', 'os', 'fetch', 'XMLHttpRequest', 'WebAssembly', 'setTimeout'];
            const seen = names.filter(n => typeof globalThis[n] !== 'undefined');
            Object.prototype.legal = ['polluted'];
            Array.prototype.push = null;
            return JSON.stringify(seen) + obs.legal[0];
        }"#;
    let program = js(src);
    let mut bot = program.start(&Limits::default_for(Kind::Js), 7, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap(), "[]1");
    assert_eq!(bot.act(OBS).unwrap(), "[]1", "the next observation is parsed fresh");
}

#[test]
fn state_persists_between_decisions_and_a_trap_restarts_the_bot() {
    let src = r#"
        const make = () => { let n = 0; return () => ++n; };
        const next = make();
        function act(obs) {
            const n = next();
            if (n == 3) for (;;) {}
            return String(n);
        }"#;
    let program = js(src);
    let mut bot = program.start(&Limits::default_for(Kind::Js), 7, INFO).unwrap();
    assert_eq!(bot.act(OBS).unwrap(), "1");
    assert_eq!(bot.act(OBS).unwrap(), "2");
    assert_eq!(bot.act(OBS).unwrap_err().verdict, Verdict::Fuel);
    assert_eq!(bot.act(OBS).unwrap(), "1", "a fresh start after the trap");
}

#[test]
fn randomness_and_time_come_from_the_match() {
    let src = "function act(obs) { return [Math.random(), Math.random(), Date.now(), new Date().getFullYear(), performance.now()].join(' '); }";
    let program = js(src);
    let run = |seed| {
        let mut bot = program.start(&Limits::default_for(Kind::Js), seed, INFO).unwrap();
        (bot.act(OBS).unwrap(), bot.fuel_used_last())
    };
    let (a, fuel) = run(7);
    assert!(a.ends_with(" 1526256000000 2018 0"), "the shim's fixed clock: {a}");
    assert_eq!(run(7), (a.clone(), fuel), "same seed, same replies and fuel");
    assert_ne!(run(8).0, a, "another seed, other random numbers");
    let on_lane = program.on(&sandbox().lane().unwrap()).unwrap();
    let mut bot = on_lane.start(&Limits::default_for(Kind::Js), 7, INFO).unwrap();
    assert_eq!((bot.act(OBS).unwrap(), bot.fuel_used_last()), (a, fuel), "the same on a lane");
}

/// QuickJS-ng's own test files (`tests/` of the `rquickjs-sys` crate's quickjs tree), each run
/// as a bot's top level inside the sandbox: a file passes when it loads without an uncaught
/// error. Run by `scripts/js-conformance.sh`, which fetches the crate and sets
/// `QUICKJS_TESTS`; files that need what the arena leaves out are listed with why.
#[test]
#[ignore = "needs the QuickJS-ng test files: scripts/js-conformance.sh"]
fn quickjs_own_tests_pass_in_the_sandbox() {
    let dir =
        std::path::PathBuf::from(std::env::var("QUICKJS_TESTS").expect("QUICKJS_TESTS=<quickjs>/tests"));
    let assert_js =
        std::fs::read_to_string(dir.join("assert.js")).unwrap().replace("export function", "function");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .filter(|n| n.ends_with(".js") && n != "assert.js" && !n.starts_with("fixture_"))
        .collect();
    files.sort();
    let sb = sandbox();
    let (mut passed, mut failed, mut excluded) = (Vec::new(), Vec::new(), Vec::new());
    for file in &files {
        let text = std::fs::read_to_string(dir.join(file)).unwrap();
        let imports: Vec<&str> = text.lines().filter(|l| l.starts_with("import ")).collect();
        if let Some(why) = EXCLUDED.iter().find(|(f, _)| f == file).map(|(_, why)| *why) {
            excluded.push(format!("{file}: {why}"));
            continue;
        }
        if imports.iter().any(|l| l.contains("qjs:")) {
            excluded.push(format!(
                "{file}: imports qjs:std or qjs:os (quickjs-libc: files, processes, timers; not linked)"
            ));
            continue;
        }
        if imports.iter().any(|l| !l.contains("./assert.js")) || text.contains("import(") {
            excluded.push(format!("{file}: imports another module (bots have no module loader)"));
            continue;
        }
        // The import lines become empty lines, so that line numbers stay.
        let body: String = text
            .lines()
            .map(|l| if l.starts_with("import ") { "\n".into() } else { format!("{l}\n") })
            .collect();
        let module = !imports.is_empty() || body.lines().any(|l| l.starts_with("export "));
        let act =
            if module { "export function act() { return 'ok'; }" } else { "function act() { return 'ok'; }" };
        // After the test's own lines, so that its line numbers stay; function declarations are
        // hoisted. `gc()` is qjs's (quickjs-libc's) collector call: the sandbox has none.
        let src = format!("{body}\n{act}\nfunction gc() {{}}\n{assert_js}\n");
        // A test marked `negative: ... type: E` must end in an uncaught E.
        let negative = text.contains("negative:").then(|| {
            text.lines().find_map(|l| l.trim().strip_prefix("type: ")).unwrap_or("Error").to_string()
        });
        match (sb.load(file, Kind::Js, src.as_bytes()), negative) {
            (Ok(_), None) => passed.push(file.clone()),
            (Err(e), Some(want)) if e.message.contains(&format!(": {want}")) => passed.push(file.clone()),
            (Ok(_), Some(want)) => failed.push(format!("{file}: expected an uncaught {want}")),
            (Err(e), _) => failed.push(format!("{file}: {:?} {}", e.verdict, e.message)),
        }
    }
    eprintln!(
        "passed {} of {} files ({} excluded)",
        passed.len(),
        passed.len() + failed.len(),
        excluded.len()
    );
    for e in &excluded {
        eprintln!("excluded {e}");
    }
    for f in &failed {
        eprintln!("FAILED {f}");
    }
    assert!(failed.is_empty(), "{} files failed", failed.len());
}

/// QuickJS-ng test files that test what bots do not have, with why.
const EXCLUDED: &[(&str, &str)] = &[
    ("microbench.js", "a benchmark, not a test"),
    ("atomics-store-leak.js", "uses Atomics, which QuickJS leaves out of wasm32-wasi builds (no threads)"),
    ("bug1301.js", "uses Atomics, which QuickJS leaves out of wasm32-wasi builds (no threads)"),
    ("bug1302.js", "uses Atomics, which QuickJS leaves out of wasm32-wasi builds (no threads)"),
];
