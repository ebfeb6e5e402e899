//! Runs the cases of a target: each case twice (the results must be identical), panics caught,
//! a watchdog for hangs, the process's peak memory against the documented bound, and every
//! failure written down with its seed, its input file and the command that replays it.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub struct Target {
    pub name: &'static str,
    /// One case from its seed: a description of everything that came out, or what went wrong.
    pub case: fn(u64) -> Result<String, String>,
    /// The case's input as a file would hold it (written beside a failure).
    pub input: fn(u64) -> Vec<u8>,
    pub ext: &'static str,
    /// How far a case may take the process's resident memory above what it was before the case,
    /// in MiB: the bound of docs/sandbox.md ("Memory of the host process": the seated bots'
    /// `memory_bytes`, 16 MiB per Lua bot, 64 MiB fixed) for the bots the case runs.
    pub growth_mib: u64,
    /// How far a case got, from its description: the labels it counts under in a campaign's
    /// coverage table (none for targets that run no bot).
    pub coverage: fn(&str) -> Vec<String>,
}

/// No coverage labels: the targets that run no bot.
pub fn no_coverage(_: &str) -> Vec<String> {
    Vec::new()
}

/// How many cases counted under each coverage label.
#[derive(Default)]
pub struct Coverage {
    cases: u64,
    counts: std::collections::BTreeMap<String, u64>,
}

impl Coverage {
    pub fn add(&mut self, labels: Vec<String>) {
        self.cases += 1;
        for l in labels {
            *self.counts.entry(l).or_default() += 1;
        }
    }

    pub fn count(&self, label: &str) -> u64 {
        self.counts.get(label).copied().unwrap_or(0)
    }

    /// `label N (P%)` for every label, in the order of the labels' names.
    pub fn line(&self) -> String {
        let share = |n: u64| 100.0 * n as f64 / self.cases.max(1) as f64;
        self.counts.iter().map(|(l, &n)| format!("{l} {n} ({:.1}%)", share(n))).collect::<Vec<_>>().join(", ")
    }
}

/// How a clean case ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Clean {
    /// Both runs gave the same result.
    Same,
    /// The runs differ, and the wall-clock backstop ended one of them (a `wallclock` verdict):
    /// its numbers depend on timing.
    Wallclock,
}

/// A case longer than this is a hang: every stage of a case is bounded by fuel and by the
/// sandbox's wall-clock backstop (3 s), so only a bug gets near it.
const HANG: Duration = Duration::from_secs(120);

/// Runs `case` once, turning a panic into an error.
fn once(target: &Target, seed: u64) -> Result<String, String> {
    match catch_unwind(AssertUnwindSafe(|| (target.case)(seed))) {
        Ok(r) => r,
        Err(p) => {
            let msg = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_else(|| "a panic".into());
            Err(format!("panic: {msg}"))
        }
    }
}

/// One case, twice; with how it ended, the first run's description.
pub fn run_case(target: &Target, seed: u64) -> Result<(Clean, String), String> {
    let first = once(target, seed)?;
    let second = once(target, seed)?;
    if first != second && (first.contains("wallclock") || second.contains("wallclock")) {
        return Ok((Clean::Wallclock, first));
    }
    if first != second {
        let at = first.bytes().zip(second.bytes()).take_while(|(a, b)| a == b).count();
        let around =
            |s: &str| s.get(at.saturating_sub(80)..(at + 200).min(s.len())).unwrap_or("").to_string();
        return Err(format!(
            "the same case gave different results; first run:\n{}\nsecond run:\n{}",
            around(&first),
            around(&second)
        ));
    }
    Ok((Clean::Same, first))
}

/// The process's resident memory now and its peak since the last [`reset_peak`] (or its start),
/// in MiB (Linux: `VmRSS` and `VmHWM`).
pub fn rss_mib() -> Option<(u64, u64)> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let field = |name: &str| -> Option<u64> {
        let line = status.lines().find(|l| l.starts_with(name))?;
        Some(line[name.len()..].trim().trim_end_matches("kB").trim().parse::<u64>().ok()? / 1024)
    };
    Some((field("VmRSS:")?, field("VmHWM:")?))
}

/// Resets the peak that [`rss_mib`] reads to the current resident memory (Linux `clear_refs`);
/// false where the kernel does not allow it.
pub fn reset_peak() -> bool {
    std::fs::write("/proc/self/clear_refs", "5").is_ok()
}

/// Where failures' inputs go.
fn failures_dir() -> PathBuf {
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("target"));
    target.join("fuzz").join("failures")
}

/// Writes a case's input under `target/fuzz/failures/`; says where, or why not.
pub fn save_input(target: &Target, seed: u64) -> String {
    let dir = failures_dir();
    let file = dir.join(format!("{}-{seed:#018x}.{}", target.name, target.ext));
    std::fs::create_dir_all(&dir)
        .and_then(|()| {
            let input = catch_unwind(AssertUnwindSafe(|| (target.input)(seed)))
                .unwrap_or_else(|_| b"(the generator panicked on this seed)".to_vec());
            std::fs::write(&file, input)
        })
        .map(|()| format!("input: {}", file.display()))
        .unwrap_or_else(|e| format!("input not saved: {e}"))
}

/// Writes a failing case's input and says how to replay it.
pub fn report(target: &Target, seed: u64, what: &str) -> String {
    let saved = save_input(target, seed);
    format!(
        "FAIL {} seed {seed:#018x}: {what}\n  {saved}\n  replay: {}",
        target.name,
        replay_command(target, seed)
    )
}

/// A watchdog over the running case: if one case runs past [`HANG`], it prints the case and
/// ends the process (a hang cannot be caught like a panic).
pub struct Watchdog {
    current: Arc<Mutex<Option<(Instant, String)>>>,
    done: Arc<AtomicBool>,
    thread: Option<std::thread::JoinHandle<()>>,
}

impl Watchdog {
    pub fn start() -> Watchdog {
        let current: Arc<Mutex<Option<(Instant, String)>>> = Arc::new(Mutex::new(None));
        let done = Arc::new(AtomicBool::new(false));
        let (c, d) = (current.clone(), done.clone());
        let thread = std::thread::spawn(move || {
            while !d.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(200));
                if let Some((since, what)) = &*c.lock().unwrap() {
                    if since.elapsed() > HANG {
                        eprintln!("HANG: {what} ran for more than {} s", HANG.as_secs());
                        std::process::exit(3);
                    }
                }
            }
        });
        Watchdog { current, done, thread: Some(thread) }
    }

    /// Marks the start of a case (`what` says how to replay it), or its end (`None`).
    pub fn case(&self, what: Option<String>) {
        *self.current.lock().unwrap() = what.map(|w| (Instant::now(), w));
    }
}

impl Drop for Watchdog {
    fn drop(&mut self) {
        self.done.store(true, Ordering::Relaxed);
        if let Some(t) = self.thread.take() {
            t.join().ok();
        }
    }
}

/// The replay command of a case, for messages.
pub fn replay_command(target: &Target, seed: u64) -> String {
    format!("scripts/fuzz.sh --replay {} {seed:#018x}", target.name)
}

/// The seeds of the test suite's budget: fixed, so the suite is the same at every run. Returns
/// the coverage of its cases.
pub fn quick(target: &Target, cases: u64) -> Coverage {
    let watchdog = Watchdog::start();
    let mut failures = Vec::new();
    let mut coverage = Coverage::default();
    for i in 0..cases {
        let seed = 0x5eed_0000_0000_0000 ^ (i << 8) ^ (target.name.len() as u64);
        watchdog.case(Some(format!("{} seed {seed:#018x}", target.name)));
        match run_case(target, seed) {
            Ok((_, summary)) => coverage.add((target.coverage)(&summary)),
            Err(what) => failures.push(report(target, seed, &what)),
        }
    }
    watchdog.case(None);
    assert!(failures.is_empty(), "{} of {cases} cases failed:\n{}", failures.len(), failures.join("\n"));
    println!("{} coverage of {cases} cases: {}", target.name, coverage.line());
    coverage
}
