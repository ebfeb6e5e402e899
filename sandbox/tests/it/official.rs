//! The official Lua 5.4 test files (`testes/` of the Lua distribution) run inside the sandbox,
//! each as a bot whose `init` loads the file with `load` and whose first `act` runs it, under
//! raised limits, behind the small harness in `official/harness.lua`; twice, with the same
//! fuel both times.
//!
//! The files are not in the repository: `scripts/lua-testes.sh` fetches them from a Lua
//! checkout or mirror and runs this test with `LUA_TESTES` pointing at them and the `lua-testes`
//! feature, which gives the test files Lua's real `debug` library (a bot never gets it). The test
//! is ignored by a plain `cargo test`; run without `LUA_TESTES` or the feature, it fails naming
//! that script.

use testkit::sandbox;

use std::time::Duration;

use cardarena_sandbox::{Kind, Limits, Sandbox};

/// The official files the sandbox must pass.
const FILES: [&str; 17] = [
    "pm",
    "sort",
    "tpack",
    "vararg",
    "utf8",
    "math",
    "strings",
    "coroutine",
    "nextvar",
    "closure",
    "calls",
    "events",
    "locals",
    "literals",
    "constructs",
    "goto",
    "bitwise",
];

const HARNESS: &str = include_str!("../official/harness.lua");

/// `text` as a Lua long string literal (a level of `=` the text does not close).
fn long_string(text: &[u8]) -> Vec<u8> {
    let closes = |eq: &str| text.windows(eq.len() + 2).any(|w| w == format!("]{eq}]").as_bytes());
    let level = (0..).map(|n| "=".repeat(n)).find(|eq| !closes(eq)).unwrap();
    [format!("[{level}[\n").as_bytes(), text, format!("]{level}]").as_bytes()].concat()
}

/// The bot that runs one test file.
fn bot_source(name: &str, text: &[u8], modules: &[u8]) -> Vec<u8> {
    [
        b"MODULES = { bwcoercion = ".as_slice(),
        &long_string(modules),
        format!(" }}\n{HARNESS}\nlocal chunk\nfunction init()\n  chunk = assert(load(").as_bytes(),
        &long_string(text),
        format!(", '@{name}.lua'))\nend\nfunction act()\n  chunk()\n  return 'ok'\nend\n").as_bytes(),
    ]
    .concat()
}

#[test]
#[ignore = "needs the official Lua test files: scripts/lua-testes.sh fetches them and runs it"]
fn official_lua_test_files_pass() {
    let dir = std::env::var_os("LUA_TESTES").unwrap_or_else(|| {
        panic!(
            "LUA_TESTES is not set; run `scripts/lua-testes.sh <lua checkout or git dir>` to fetch \
             the official Lua 5.4 test files and run them"
        )
    });
    if !cfg!(feature = "lua-testes") {
        panic!(
            "the test files need the `lua-testes` feature (Lua's debug library); run \
             `scripts/lua-testes.sh <lua checkout or git dir>`"
        );
    }
    let dir = std::path::PathBuf::from(dir);
    let sb = Sandbox::new().unwrap();
    let limits = Limits {
        fuel_per_decision: 1 << 40,
        fuel_per_match: 1 << 40,
        fuel_init: 1 << 30,
        memory_bytes: 1 << 30,
        wall_per_decision: Duration::from_secs(300),
        log_bytes_per_match: 1 << 20,
    };
    let bwcoercion = std::fs::read(dir.join("bwcoercion.lua")).unwrap_or_default();
    let only = std::env::var("LUA_TESTES_ONLY").ok();
    let mut failed = Vec::new();
    for name in FILES.iter().filter(|n| only.as_deref().is_none_or(|o| o.split(',').any(|x| x == **n))) {
        let path = dir.join(format!("{name}.lua"));
        let text = std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let program =
            sb.load(&format!("{name}_harness.lua"), Kind::Lua, &bot_source(name, &text, &bwcoercion));
        let run = || {
            program
                .as_ref()
                .map_err(|f| f.to_string())
                .and_then(|p| p.start(&limits, sandbox::SEED, sandbox::INFO).map_err(|f| f.to_string()))
                .and_then(|mut bot| {
                    let reply = bot.act(sandbox::OBS).map_err(|f| f.to_string());
                    reply.map(|_| bot.fuel_used_last())
                })
        };
        // Twice: a file that passes must use the same fuel both times (determinism).
        let result = run().and_then(|fuel| match run() {
            Ok(again) if again == fuel => Ok(fuel),
            Ok(again) => Err(format!("fuel differs between two runs: {fuel} then {again}")),
            Err(e) => Err(format!("the second run failed: {e}")),
        });
        match result {
            Ok(fuel) => eprintln!("PASS {name}.lua (fuel {fuel}, the same in two runs)"),
            Err(e) => {
                eprintln!("FAIL {name}.lua: {}", e.lines().next().unwrap_or(""));
                failed.push(*name);
            }
        }
    }
    assert!(failed.is_empty(), "official test files that fail in the sandbox: {failed:?}");
}
