//! The same bytes on any machine: a match and a tournament give identical output whether the
//! C library uses its FMA/AVX2 code paths or not (`GLIBC_TUNABLES` turns them off, as an older
//! CPU would run). Without cardarena-detmath both differ on a machine that has FMA: the Lua
//! bot's moves come from the last bits of math results, and the ratings call `exp`/`ln`.

use std::path::{Path, PathBuf};
use std::process::Command;

const NO_FMA: &str = "glibc.cpu.hwcaps=-AVX2,-FMA";

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("cardarena-determinism-{name}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

/// Runs `arena` in `root()` with `GLIBC_TUNABLES` set to `tunables` (or unset).
fn arena(args: &[&str], tunables: Option<&str>) {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_arena"));
    cmd.current_dir(root()).args(args).env_remove("GLIBC_TUNABLES");
    if let Some(t) = tunables {
        cmd.env("GLIBC_TUNABLES", t);
    }
    let out = cmd.output().expect("arena runs");
    assert!(out.status.success(), "arena {args:?}: {}", String::from_utf8_lossy(&out.stderr));
}

#[test]
fn a_math_heavy_lua_bot_plays_the_same_match_without_fma() {
    let dir = scratch("play");
    let mut replays = Vec::new();
    for (i, tunables) in [None, Some(NO_FMA)].into_iter().enumerate() {
        let path = dir.join(format!("replay{i}.json"));
        let path_str = path.to_str().unwrap();
        arena(
            &[
                "play",
                "--game",
                "ecard",
                "--bots",
                "tests/data/bots/math_hash.lua,random",
                "--seed",
                "5",
                "--replay",
                path_str,
            ],
            tunables,
        );
        replays.push(std::fs::read(&path).unwrap());
    }
    assert!(replays[0] == replays[1], "the replays differ with {NO_FMA}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn a_tournaments_standings_are_the_same_bytes_without_fma() {
    let dir = scratch("tournament");
    std::fs::write(
        dir.join("t.toml"),
        format!(
            "[defaults]\nseed = 27\nduplicate = true\n\n[[event]]\ngame = \"ecard\"\ndeals = 6\n\
             bots = [\"greedy\", \"random\", \"{0}/tests/data/bots/math_hash.lua\", \
             \"{0}/example_bots/lua/ecard_greedy.lua\"]\n",
            root().display()
        ),
    )
    .unwrap();
    let mut outputs = Vec::new();
    for (i, tunables) in [None, Some(NO_FMA)].into_iter().enumerate() {
        let toml = dir.join("t.toml");
        let json = dir.join(format!("s{i}.json"));
        let csv = dir.join(format!("s{i}.csv"));
        let db = dir.join(format!("t{i}.db"));
        arena(
            &[
                "tournament",
                toml.to_str().unwrap(),
                "--db",
                db.to_str().unwrap(),
                "--json",
                json.to_str().unwrap(),
                "--csv",
                csv.to_str().unwrap(),
            ],
            tunables,
        );
        outputs.push((std::fs::read(&json).unwrap(), std::fs::read(&csv).unwrap()));
    }
    assert!(outputs[0].0 == outputs[1].0, "the standings JSON differs with {NO_FMA}");
    assert!(outputs[0].1 == outputs[1].1, "the standings CSV differs with {NO_FMA}");
    let _ = std::fs::remove_dir_all(&dir);
}
