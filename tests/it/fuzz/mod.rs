//! Fuzzing every untrusted input on the stable toolchain: generated WASM modules, Lua,
//! JavaScript and Python bots, reply strings, replay files, crash capsules and tournament files, each case checked for no
//! panic, no hang, a clear error or a verdict, peak memory within the documented bound, and the
//! same result when it runs twice.
//!
//! The suite runs a small fixed budget of each target (the `*_budget` tests). Long campaigns:
//! `scripts/fuzz.sh [MINUTES]` (the ignored `campaign` test); a failing case replays with
//! `scripts/fuzz.sh --replay TARGET SEED` (the ignored `replay` test). docs/fuzzing.md says more.

mod driver;
mod files;
mod gen;
mod js;
mod lua;
mod python;
mod regressions;
mod replies;
mod sandbox;
mod wasm;

use std::io::Write;
use std::time::{Duration, Instant};

use driver::{no_coverage, quick, report, reset_peak, rss_mib, run_case, Clean, Coverage, Target, Watchdog};

/// Every target, in the order a campaign runs them. `growth_mib`: replies and tournament files
/// run no bot; the `wasm`, `lua` and `js` cases one bot at 32 MiB, `python` one at 48 MiB; a capsule one Lua bot at its
/// recorded limits (64 MiB); a replay's verification up to two Lua bots at 64 MiB.
fn targets() -> Vec<Target> {
    vec![
        Target {
            name: "replies",
            case: replies::case,
            input: |_| Vec::new(),
            ext: "txt",
            growth_mib: 64,
            coverage: no_coverage,
        },
        Target {
            name: "config",
            case: files::config_case,
            input: files::config_input,
            ext: "toml",
            growth_mib: 64,
            coverage: no_coverage,
        },
        Target {
            name: "wasm",
            case: wasm::case,
            input: wasm::input,
            ext: "wasm",
            growth_mib: 96,
            coverage: wasm::coverage,
        },
        Target {
            name: "lua",
            case: lua::case,
            input: lua::input,
            ext: "lua",
            growth_mib: 112,
            coverage: lua::coverage,
        },
        Target {
            name: "js",
            case: js::case,
            input: js::input,
            ext: "js",
            growth_mib: 112,
            coverage: js::coverage,
        },
        Target {
            name: "python",
            case: python::case,
            input: python::input,
            ext: "py",
            growth_mib: 112,
            coverage: python::coverage,
        },
        Target {
            name: "capsule",
            case: files::capsule_case,
            input: files::capsule_input,
            ext: "json",
            growth_mib: 144,
            coverage: no_coverage,
        },
        Target {
            name: "replay",
            case: files::replay_case,
            input: files::replay_input,
            ext: "json",
            growth_mib: 224,
            coverage: no_coverage,
        },
    ]
}

fn target(name: &str) -> Target {
    targets().into_iter().find(|t| t.name == name).unwrap_or_else(|| {
        panic!(
            "no fuzz target {name:?}; targets: {}",
            targets().iter().map(|t| t.name).collect::<Vec<_>>().join(", ")
        )
    })
}

#[test]
fn replies_budget() {
    quick(&target("replies"), 500);
}

#[test]
fn config_budget() {
    quick(&target("config"), 500);
}

#[test]
fn wasm_budget() {
    let coverage = quick(&target("wasm"), 150);
    // The generators' reach: a third of the modules get through load and start into decisions
    // (the grafted modules; most others stop at load on purpose).
    let reached = coverage.count("reached a decision");
    assert!(reached >= 50, "only {reached} of 150 modules reached a decision: {}", coverage.line());
}

#[test]
fn js_budget() {
    let coverage = quick(&target("js"), 60);
    let reached = coverage.count("reached a decision");
    assert!(reached >= 35, "only {reached} of 60 JavaScript bots reached a decision: {}", coverage.line());
}

#[test]
fn python_budget() {
    let coverage = quick(&target("python"), 40);
    let reached = coverage.count("reached a decision");
    assert!(reached >= 20, "only {reached} of 40 Python bots reached a decision: {}", coverage.line());
}

#[test]
fn lua_budget() {
    let coverage = quick(&target("lua"), 150);
    // The generators' reach: bots that end at the memory cap, and bots whose peak passes half
    // of it.
    let (hit, half) = (coverage.count("hit memory"), coverage.count("peak over half the cap"));
    assert!(
        hit >= 10 && half >= 30,
        "{hit} bots hit the memory cap, {half} passed half of it: {}",
        coverage.line()
    );
}

#[test]
fn capsule_budget() {
    quick(&target("capsule"), 100);
}

#[test]
fn replay_budget() {
    quick(&target("replay"), 100);
}

fn env_u64(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    Some(
        match v.strip_prefix("0x") {
            Some(hex) => u64::from_str_radix(hex, 16),
            None => v.parse(),
        }
        .unwrap_or_else(|e| panic!("{name}={v:?}: {e}")),
    )
}

/// A long campaign: `FUZZ_MINUTES` (per target, default 1), `FUZZ_TARGETS` (comma-separated,
/// default all), `FUZZ_SEED` (the first seed; default from the clock, printed), `FUZZ_STATE` (a
/// file that holds the running case, so that the script can name it if the process dies).
#[test]
#[ignore = "a long campaign: scripts/fuzz.sh [MINUTES]"]
fn campaign() {
    let minutes: f64 =
        std::env::var("FUZZ_MINUTES").ok().map_or(1.0, |m| m.parse().expect("FUZZ_MINUTES is a number"));
    let base = env_u64("FUZZ_SEED").unwrap_or_else(|| {
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap().as_nanos() as u64
    });
    let state = std::env::var_os("FUZZ_STATE");
    let chosen: Vec<Target> = match std::env::var("FUZZ_TARGETS") {
        Ok(list) if !list.trim().is_empty() => list.split(',').map(|n| target(n.trim())).collect(),
        _ => targets(),
    };
    println!("fuzz campaign: {minutes} min per target, first seed {base:#018x}");
    // Each case's peak memory needs the peak reset before it (Linux).
    let measured = reset_peak() && rss_mib().is_some();
    if !measured {
        println!("(the peak resident memory of a case cannot be measured here: not checked)");
    }
    let watchdog = Watchdog::start();
    let mut failures = Vec::new();
    let mut table = Vec::new();
    for (k, t) in chosen.iter().enumerate() {
        let start = Instant::now();
        let budget = Duration::from_secs_f64(minutes * 60.0);
        let (mut cases, mut wallclock, mut failed, mut most_growth) = (0u64, 0u64, 0u64, 0u64);
        let mut coverage = Coverage::default();
        // Each target draws from its own range of seeds.
        let first = base.wrapping_add((k as u64) << 48);
        while start.elapsed() < budget {
            let seed = first.wrapping_add(cases);
            let what = format!("{} seed {seed:#018x}", t.name);
            let measured = measured && reset_peak();
            if let Some(path) = &state {
                std::fs::write(path, format!("{} {seed:#018x}\n", t.name)).ok();
            }
            watchdog.case(Some(what));
            let before = if measured { rss_mib().map(|(now, _)| now) } else { None };
            let result = run_case(t, seed).and_then(|(clean, summary)| {
                coverage.add((t.coverage)(&summary));
                let (Some(before), Some((_, peak))) = (before, rss_mib()) else { return Ok(clean) };
                let growth = peak.saturating_sub(before);
                most_growth = most_growth.max(growth);
                if growth > t.growth_mib {
                    return Err(format!(
                        "resident memory grew by {growth} MiB (from {before} to {peak} MiB), over the bound of {} MiB",
                        t.growth_mib
                    ));
                }
                Ok(clean)
            });
            watchdog.case(None);
            cases += 1;
            match result {
                Ok(Clean::Same) => {}
                Ok(Clean::Wallclock) => wallclock += 1,
                Err(what) => {
                    failed += 1;
                    let r = report(t, seed, &what);
                    println!("{r}");
                    std::io::stdout().flush().ok();
                    failures.push(r);
                }
            }
        }
        let line = format!(
            "{:<8} {cases:>8} cases {:>6.1} min  {failed} failed  {wallclock} ended by the wall clock  most memory growth in a case {most_growth} MiB",
            t.name,
            start.elapsed().as_secs_f64() / 60.0,
        );
        let line = match coverage.line() {
            c if c.is_empty() => line,
            c => format!("{line}\n         coverage: {c}"),
        };
        println!("{line}");
        table.push(line);
    }
    // No case is running: an empty state file tells the script the process did not die in one.
    if let Some(path) = &state {
        std::fs::write(path, "").ok();
    }
    println!("fuzz campaign, first seed {base:#018x}:\n{}", table.join("\n"));
    assert!(failures.is_empty(), "{} failing cases:\n{}", failures.len(), failures.join("\n"));
}

/// Replays one case: `FUZZ_TARGET` and `FUZZ_CASE` (the seed a failure printed).
#[test]
#[ignore = "replays one case: scripts/fuzz.sh --replay TARGET SEED"]
fn replay() {
    let t = target(&std::env::var("FUZZ_TARGET").expect("FUZZ_TARGET names a target"));
    let seed = env_u64("FUZZ_CASE").expect("FUZZ_CASE is the case's seed");
    // First, so that a case that hangs or aborts still leaves its input.
    println!("{}", driver::save_input(&t, seed));
    match (t.case)(seed) {
        Ok(summary) => println!("{summary}"),
        Err(what) => println!("first run failed: {what}"),
    }
    if let Err(what) = run_case(&t, seed) {
        panic!("{}", report(&t, seed, &what));
    }
    println!(
        "{} seed {seed:#018x}: clean; peak resident memory {:?} MiB",
        t.name,
        rss_mib().map(|(_, peak)| peak)
    );
}
