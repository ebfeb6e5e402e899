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
    assert_eq!(hash, "89030191a12bc4730a0c0b2953488f426b74810a47fedd6e794b6f7638bdc117");
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
    eprintln!("{a}");
    assert_eq!(run(7), (a.clone(), fuel), "same seed, same replies and fuel");
    assert_ne!(run(8).0, a, "another seed, other random numbers");
    let on_lane = program.on(&sandbox().lane().unwrap()).unwrap();
    let mut bot = on_lane.start(&Limits::default_for(Kind::Js), 7, INFO).unwrap();
    assert_eq!((bot.act(OBS).unwrap(), bot.fuel_used_last()), (a, fuel), "the same on a lane");
}
