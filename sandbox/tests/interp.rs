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
