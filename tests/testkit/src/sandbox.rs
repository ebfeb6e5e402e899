//! The sandbox's test fixtures: a Blade observation and its match info, the test bots of
//! sandbox/tests/bots/, and the checks of the hostile-bot suite (sandbox/tests/it/hostile.rs);
//! shared with the sandbox's examples (calibration, fuel_cost).

use std::path::PathBuf;
use std::time::{Duration, Instant};

use cardarena_sandbox::{Fault, Instance, Kind, Limits, Program, Sandbox, Verdict};

pub const INFO: &str = r#"{"game":"blade","variant":"readme","seat":0,"players":2,"seed":42}"#;
pub const OBS: &str = r#"{"game":"blade","variant":"readme","seat":0,"phase":"play","legal":["1","3","B","M"],"hand":[1,3],"scores":[0,0]}"#;
pub const SEED: u64 = 42;

/// Generous bound on any single hostile case (speed belongs in benchmarks).
pub const CASE_TIME_BOUND: Duration = Duration::from_secs(10);

pub fn bot_path(file: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../sandbox/tests/bots").join(file)
}

pub fn load(sb: &Sandbox, file: &str) -> Result<Program, Fault> {
    sb.load_file(&bot_path(file))
}

pub fn limits_for(file: &str) -> Limits {
    let kind = if file.ends_with(".lua") { Kind::Lua } else { Kind::Wasm };
    Limits::default_for(kind)
}

/// Where a hostile bot is expected to fail.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Stage {
    Load,
    Start,
    Act,
}

/// A normal bot's reference run: its reply and fuel on a fresh instance.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Reference {
    pub reply: String,
    pub fuel_init: u64,
    pub fuel: u64,
}

pub fn reference(sb: &Sandbox, file: &str) -> Reference {
    let program = load(sb, file).expect("normal bot loads");
    let mut inst = program.start(&limits_for(file), SEED, INFO).expect("normal bot starts");
    let reply = inst.act(OBS).expect("normal bot acts");
    Reference { reply, fuel_init: inst.fuel_init(), fuel: inst.fuel_used_last() }
}

/// Runs a hostile bot to its fault, with `limits`.
pub fn run_to_fault(sb: &Sandbox, file: &str, limits: &Limits) -> (Stage, Fault) {
    let program = match load(sb, file) {
        Ok(p) => p,
        Err(f) => return (Stage::Load, f),
    };
    let mut inst: Instance = match program.start(limits, SEED, INFO) {
        Ok(i) => i,
        Err(f) => return (Stage::Start, f),
    };
    match inst.act(OBS) {
        Ok(reply) => panic!("{file}: expected a fault, got the reply {reply:?}"),
        Err(f) => {
            // The host survives and the instance can be asked again (and fails again or
            // answers; either way, no panic and no hang).
            let again = Instant::now();
            let _ = inst.act(OBS);
            assert!(again.elapsed() < CASE_TIME_BOUND, "{file}: second act too slow");
            (Stage::Act, f)
        }
    }
}

/// The full check of one hostile case: exact stage and verdict, bounded wall time, and a
/// normal bot of each kind run right after gives the same reply and fuel as a fresh run.
pub fn check_case(
    sb: &Sandbox,
    refs: &[(&str, Reference)],
    file: &str,
    limits: &Limits,
    stage: Stage,
    verdict: Verdict,
) -> Fault {
    let t = Instant::now();
    let (got_stage, fault) = run_to_fault(sb, file, limits);
    let elapsed = t.elapsed();
    eprintln!("[{file}] {elapsed:.2?} {stage:?} {fault}");
    assert_eq!(
        (got_stage, fault.verdict),
        (stage, verdict),
        "{file}: wrong stage/verdict; fault: {fault}\ntrace: {:?}",
        fault.trace
    );
    assert!(elapsed < CASE_TIME_BOUND, "{file}: took {elapsed:?} (fault: {fault})");
    for (normal, expected) in refs {
        let after = reference(sb, normal);
        assert_eq!(&after, expected, "{normal} changed after {file}");
    }
    fault
}

/// `n` strings of 8 lowercase letters whose hashes under the sandbox's Lua string seed
/// (`luai_makeseed` = 0x5eed, `.cargo/config.toml`) agree in their low 13 bits, so they share
/// one bucket of a string table of up to 8192 buckets: a long chain for every lookup.
pub fn colliding_lua_strings(n: usize) -> Vec<String> {
    fn lua_hash(s: &[u8]) -> u32 {
        let mut h = 0x5eed_u32 ^ s.len() as u32;
        for &c in s.iter().rev() {
            h ^= (h << 5).wrapping_add(h >> 2).wrapping_add(u32::from(c));
        }
        h
    }
    let mut found = Vec::with_capacity(n);
    let mut k: u64 = 0;
    while found.len() < n {
        let mut s = [b'a'; 8];
        let mut x = k;
        for b in s.iter_mut() {
            *b = b'a' + (x % 26) as u8;
            x /= 26;
        }
        if lua_hash(&s) & 0x1fff == 0x0abc {
            found.push(String::from_utf8(s.to_vec()).expect("ascii"));
        }
        k += 1;
    }
    found
}
