//! `arena bench`: the in-process promise, measured. One run measures every figure next to its
//! baseline (the same run, the same machine load), prints a table with the targets
//! flagged met / not met, or one JSON object with `--json` (keys documented in BENCHMARKS.md).
//!
//! Every timing is the median of several batches; throughputs are the median of several
//! windows. Nothing here reads a clock inside a match: the clock only surrounds whole calls.
//!
//! The bots are embedded in the binary (no files, no compilers, no network at run time):
//! `trivial.lua`, `trivial.wat`, `random.lua`, `random.wat` here; from example_bots the
//! Monte-Carlo Blade bots in Lua and Rust (the compute-heavy bots of the metering measure),
//! `first_legal.wat` and the Rust greedy Blade bot; and the calibration loops of the
//! sandbox's tests. The process-per-decision baseline
//! spawns `arena-bench-child` (`src/bin/`, installed beside `arena`), which reads one
//! observation line on stdin and writes its first legal action on stdout (like the Blade
//! controller's bots).

use std::borrow::Cow;
use std::io::{BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::{bail, Context};
use cardarena_sandbox::baseline::{PlainLua, PlainWasm};
use cardarena_sandbox::{Kind, Limits, Program, Sandbox};
use serde_json::{json, Map, Value};

use cardarena::bots::bot::{Bot, Fault, InitInfo};
use cardarena::games::blade::Blade;
use cardarena::games::{Game, Observation};
use cardarena::play::limits::LimitsConfig;
use cardarena::play::registry::{BotSource, Lanes};
use cardarena::play::Hosted;
use cardarena::play::Match;

const TRIVIAL_LUA: &str = include_str!("../../benches/bots/trivial.lua");
const RANDOM_LUA: &str = include_str!("../../benches/bots/random.lua");
const TRIVIAL_JS: &str = include_str!("../../benches/bots/trivial.js");
const RANDOM_JS: &str = include_str!("../../benches/bots/random.js");
/// The example greedy JavaScript bots, by game (their matches per second).
const GREEDY_JS: &[(&str, &str)] = &[
    ("blade", include_str!("../../example_bots/js/blade_greedy.js")),
    ("ecard", include_str!("../../example_bots/js/ecard_greedy.js")),
    ("lost-cities", include_str!("../../example_bots/js/lost-cities_greedy.js")),
    ("intensity", include_str!("../../example_bots/js/intensity_greedy.js")),
];
const TRIVIAL_PY: &str = include_str!("../../benches/bots/trivial.py");
const RANDOM_PY: &str = include_str!("../../benches/bots/random.py");
/// The example greedy Python bots, by game (their matches per second; Blade's is also the
/// class's bot).
const GREEDY_PY: &[(&str, &str)] = &[
    ("blade", include_str!("../../example_bots/python/blade_greedy.py")),
    ("ecard", include_str!("../../example_bots/python/ecard_greedy.py")),
    ("lost-cities", include_str!("../../example_bots/python/lost-cities_greedy.py")),
    ("intensity", include_str!("../../example_bots/python/intensity_greedy.py")),
];
/// The line of the Blade greedy Python example that the class's variants change.
const PY_GREEDY_KNOB: &str = "EFFECT_COST = 6";
const RANDOM_WAT: &str = include_str!("../../benches/bots/random.wat");
const TRIVIAL_WAT: &str = include_str!("../../benches/bots/trivial.wat");
const FIRST_LEGAL_WAT: &str = include_str!("../../example_bots/wat/first_legal.wat");
const CALIB_LUA: &str = include_str!("../../sandbox/tests/bots/calib.lua");
const CALIB_WAT: &str = include_str!("../../sandbox/tests/bots/calib.wat");
/// A compiled Rust bot (the Blade example, serde JSON parsing and greedy rules): fuel's cost on
/// ordinary compiled code.
const RUST_WASM: &[u8] = include_bytes!("../../example_bots/wasm/blade_rust.wasm");
/// The compute-heavy bots: the same determinized Monte-Carlo search in Lua and in Rust.
const MC_LUA: &str = include_str!("../../example_bots/lua/blade_montecarlo.lua");
const MC_WASM: &[u8] = include_bytes!("../../example_bots/wasm/blade_montecarlo_rust.wasm");
/// A legacy stdin/stdout bot (a WASI command in C, docs/legacy-bots.md) and the COMP1511 spec's
/// play example, whose only legal answer is 23: one decision is a fresh instance, libc start-up
/// and `main`.
const LEGACY_WASM: &[u8] = include_bytes!("../../example_bots/legacy/intensity_c.wasm");
const LEGACY_STDIN: &[u8] = b"2\n9 2 0\n11 15 18 23 33 34 47 48 49\n24 26\n16 13 19 12\n37 38 39\n34 47 48\n";
/// The Lua bot's cap on fuel per decision, lifted for the measure so that it always plays its
/// full 100 deals: the unmetered copy (whose `budget_left()` never goes down) does.
const MC_LUA_CAP: &str = "local PER_DECISION = 2500000";

/// Version of the JSON output's keys and of what they measure: raised whenever a key's meaning
/// changes (BENCHMARKS.md, "JSON keys", says what each version changed).
pub const BENCH_FORMAT: u32 = 7;

/// What `arena bench` measures and prints.
#[derive(Debug, Clone)]
pub struct BenchArgs {
    /// Print one JSON object (keys documented in BENCHMARKS.md) instead of the table.
    pub json: bool,
    /// A few seconds instead of about a minute: every measure, with few samples.
    pub quick: bool,
    /// Threads for the throughput measures.
    pub threads: usize,
}

/// How long to measure.
#[derive(Clone, Copy)]
pub(crate) struct Clock {
    /// Length of one timed batch.
    batch: Duration,
    /// Batches per timing (the median is kept).
    samples: usize,
    /// Length of one throughput window.
    window: Duration,
    /// Windows per throughput (the median is kept).
    windows: usize,
    /// Most calls in one timed batch, however fast the call.
    max_batch: u64,
}

impl Clock {
    fn new(quick: bool) -> Clock {
        if quick {
            Clock {
                batch: Duration::from_millis(2),
                samples: 3,
                window: Duration::from_millis(40),
                windows: 1,
                max_batch: 1 << 26,
            }
        } else {
            Clock {
                batch: Duration::from_millis(25),
                samples: 9,
                window: Duration::from_millis(400),
                windows: 3,
                max_batch: 1 << 26,
            }
        }
    }

    /// Median nanoseconds of this thread's CPU time per call of `f`, over `samples` batches of
    /// at least `batch` each.
    fn ns_per_call(&self, f: impl FnMut()) -> f64 {
        self.ns_per_call_by(thread_cpu, f)
    }

    /// Most calls [`Clock::ns_per_call`] makes: the warm-up, the growing batches (each at least
    /// 1.5 times the one before, so together under three times the largest) and the samples.
    fn max_calls(&self) -> u64 {
        (self.samples as u64 + 4).saturating_mul(self.max_batch)
    }

    /// As [`Clock::ns_per_call`], with CPU time counted by `now` (a monotonic CPU clock).
    fn ns_per_call_by(&self, now: fn() -> Duration, mut f: impl FnMut()) -> f64 {
        f(); // warm up
        let mut n: u64 = 1;
        loop {
            let t = now();
            for _ in 0..n {
                f();
            }
            let e = now().saturating_sub(t);
            if e >= self.batch || n >= self.max_batch {
                break;
            }
            let grow = if e.is_zero() { 16.0 } else { self.batch.as_secs_f64() / e.as_secs_f64() * 1.2 };
            n = ((n as f64 * grow.clamp(1.5, 16.0)) as u64).max(n + 1).min(self.max_batch);
        }
        let mut per: Vec<f64> = (0..self.samples)
            .map(|_| {
                let t = now();
                for _ in 0..n {
                    f();
                }
                now().saturating_sub(t).as_nanos() as f64 / n as f64
            })
            .collect();
        median(&mut per)
    }

    /// Median calls per second of `f(k, i)` on `threads` threads (k = the thread's index,
    /// i = 0, 1, 2, … shared by all threads), over `windows` windows of `window` each.
    fn per_second(&self, threads: usize, f: &(dyn Fn(usize, u64) + Sync)) -> f64 {
        let counter = AtomicU64::new(0);
        let mut rates: Vec<f64> = (0..self.windows)
            .map(|_| {
                let stop = AtomicBool::new(false);
                let done = AtomicU64::new(0);
                let start = Instant::now();
                let (stop, done, counter) = (&stop, &done, &counter);
                std::thread::scope(|s| {
                    for k in 0..threads {
                        std::thread::Builder::new()
                            .stack_size(8 << 20) // as the tournament's workers
                            .spawn_scoped(s, move || {
                                while !stop.load(Ordering::Relaxed) {
                                    f(k, counter.fetch_add(1, Ordering::Relaxed));
                                    done.fetch_add(1, Ordering::Relaxed);
                                    if start.elapsed() >= self.window {
                                        stop.store(true, Ordering::Relaxed);
                                    }
                                }
                            })
                            .expect("spawn a bench thread");
                    }
                });
                done.load(Ordering::Relaxed) as f64 / start.elapsed().as_secs_f64()
            })
            .collect();
        median(&mut rates)
    }
}

/// CPU time of the calling thread: what a call costs, whatever else the machine runs (wall
/// time on a shared machine counts the other processes' turns too).
pub(crate) fn thread_cpu() -> Duration {
    #[cfg(unix)]
    return clock(libc::CLOCK_THREAD_CPUTIME_ID);
    #[cfg(not(unix))]
    wall()
}

/// Monotonic wall time (for the process baseline's wall-time figure).
fn monotonic() -> Duration {
    #[cfg(unix)]
    return clock(libc::CLOCK_MONOTONIC);
    #[cfg(not(unix))]
    wall()
}

/// The time of clock `id`, or wall time if the clock cannot be read.
#[cfg(unix)]
fn clock(id: libc::clockid_t) -> Duration {
    let mut ts = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: clock_gettime writes one timespec, which lives on this stack.
    if unsafe { libc::clock_gettime(id, &mut ts) } == 0 {
        return Duration::new(ts.tv_sec as u64, ts.tv_nsec as u32);
    }
    wall()
}

/// The calling thread's CPU time plus that of every child process waited for (user and
/// system): the CPU cost of spawning a process and talking to it.
fn thread_and_children_cpu() -> Duration {
    match rusage_cpu(Rusage::Children) {
        Some(children) => thread_cpu() + children,
        None => wall(),
    }
}

/// CPU time of the whole process (user and system, every thread), where `getrusage` exists.
fn process_cpu() -> Option<Duration> {
    rusage_cpu(Rusage::Process)
}

/// Whose CPU time `getrusage` reports.
enum Rusage {
    /// This process, every thread.
    Process,
    /// The child processes waited for.
    Children,
}

/// User plus system CPU time from `getrusage`, where it exists.
fn rusage_cpu(who: Rusage) -> Option<Duration> {
    #[cfg(unix)]
    {
        let who = match who {
            Rusage::Process => libc::RUSAGE_SELF,
            Rusage::Children => libc::RUSAGE_CHILDREN,
        };
        // SAFETY: getrusage fills one rusage struct, zero-initialised here.
        let mut ru: libc::rusage = unsafe { std::mem::zeroed() };
        // SAFETY: as above; the struct lives on this stack.
        if unsafe { libc::getrusage(who, &mut ru) } == 0 {
            let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
            return Some(tv(ru.ru_utime) + tv(ru.ru_stime));
        }
    }
    #[cfg(not(unix))]
    let _ = who;
    None
}

/// Wall time (the fallback where CPU clocks are not available).
fn wall() -> Duration {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default()
}

fn median(v: &mut [f64]) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// The native trivial bot: the first legal action, on the typed observation.
struct FirstLegal;

impl<G: Game> Bot<G> for FirstLegal {
    fn act(&mut self, obs: &G::Observation) -> Result<String, Fault> {
        Ok(obs.legal()[0].clone())
    }
}

/// The bots of the benchmark, loaded once, and the sandbox they were loaded on.
pub(crate) struct Programs {
    sandbox: Sandbox,
    trivial_lua: Program,
    trivial_wasm: Program,
    first_legal: Program,
    random_lua: Program,
    random_wasm: Program,
    trivial_js: Program,
    random_js: Program,
    trivial_py: Program,
    random_py: Program,
}

fn load(sandbox: &Sandbox, name: &str, kind: Kind, source: impl AsRef<[u8]>) -> anyhow::Result<Program> {
    sandbox.load(name, kind, source.as_ref()).map_err(|f| anyhow::anyhow!("bench bot {name}: {}", f.message))
}

fn file_source(program: &Program) -> BotSource {
    BotSource::File { name: program.name().to_string(), program: program.clone() }
}

fn info_for<G: Game>(seat: usize, seed: u64) -> InitInfo {
    InitInfo { game: G::NAME, variant: G::variants()[0].to_string(), seat, players: G::PLAYERS, seed }
}

/// A started bot of `source` for seat 0 of a Blade match.
fn started(source: &BotSource, seed: u64) -> Box<dyn Bot<Blade>> {
    started_with(source, seed, &LimitsConfig::default())
}

fn started_with(source: &BotSource, seed: u64, limits: &LimitsConfig) -> Box<dyn Bot<Blade>> {
    let mut bot = source.instantiate::<Blade>(seed, 0, limits);
    bot.init(&info_for::<Blade>(0, seed)).expect("bench bot starts");
    bot
}

/// A bot for one timing by `clock`: `limits`, with a match fuel bank that pays for every call
/// the clock may make (the default bank runs out after about a million decisions).
fn started_for(source: &BotSource, clock: &Clock, limits: &LimitsConfig) -> Box<dyn Bot<Blade>> {
    let per_decision =
        limits.fuel_per_decision.unwrap_or(Limits::LUA.fuel_per_decision.max(Limits::WASM.fuel_per_decision));
    let bank = per_decision.saturating_mul(clock.max_calls());
    started_with(source, 1, &LimitsConfig { fuel_per_match: Some(bank), ..limits.clone() })
}

/// One row of the table (and one key of the JSON).
struct Row {
    key: Cow<'static, str>,
    label: String,
    value: f64,
    unit: &'static str,
    /// What it is compared with, and the ratio `value / baseline` or `baseline / value`.
    versus: Option<String>,
    target: Option<Target>,
}

#[derive(Clone, Copy)]
enum Target {
    AtMost(f64),
    AtLeast(f64),
}

impl Target {
    fn met(self, v: f64) -> bool {
        match self {
            Target::AtMost(t) => v <= t,
            Target::AtLeast(t) => v >= t,
        }
    }
}

pub(crate) struct Report {
    rows: Vec<Row>,
    extra: Map<String, Value>,
}

impl Report {
    fn add(
        &mut self,
        key: impl Into<Cow<'static, str>>,
        label: impl Into<String>,
        value: f64,
        unit: &'static str,
    ) -> &mut Row {
        self.rows.push(Row { key: key.into(), label: label.into(), value, unit, versus: None, target: None });
        self.rows.last_mut().expect("just pushed")
    }
}

impl Row {
    fn versus(&mut self, text: String) -> &mut Row {
        self.versus = Some(text);
        self
    }
    fn target(&mut self, t: Target) -> &mut Row {
        self.target = Some(t);
        self
    }
}

fn fmt_value(v: f64, unit: &str) -> String {
    match unit {
        "ns" if v >= 1e6 => format!("{:.2} ms", v / 1e6),
        "ns" if v >= 1e3 => format!("{:.2} µs", v / 1e3),
        "ns" => format!("{v:.0} ns"),
        "bytes" if v >= 1048576.0 => format!("{:.2} MiB", v / 1048576.0),
        "bytes" if v >= 1024.0 => format!("{:.1} KiB", v / 1024.0),
        "bytes" => format!("{v:.0} B"),
        "/s" => format!("{v:.0} /s"),
        "%" => format!("{v:.1} %"),
        "x" => format!("{v:.2}x"),
        _ => format!("{v:.2} {unit}"),
    }
}

fn fmt_target(t: Target, unit: &str) -> String {
    match t {
        Target::AtMost(v) => format!("<= {}", fmt_value(v, unit)),
        Target::AtLeast(v) => format!(">= {}", fmt_value(v, unit)),
    }
}

/// Runs `arena bench`.
///
/// # Errors
/// The sandbox cannot start, the temporary folder cannot be written, or a bench bot fails
/// (a bug: the message says which).
pub fn run(args: &BenchArgs, games: &cardarena::Games, benches: &[GameBench]) -> anyhow::Result<String> {
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    // Before any measure: a missing baseline program is an error at once, not after a minute.
    let child = child_exe()?;
    let clock = Clock::new(args.quick);
    let started_at = Instant::now();
    let sandbox = Sandbox::new().map_err(|e| anyhow::anyhow!("cannot start the sandbox: {e}"))?;
    let p = Programs {
        sandbox: sandbox.clone(),
        trivial_lua: load(&sandbox, "trivial.lua", Kind::Lua, TRIVIAL_LUA)?,
        trivial_wasm: load(&sandbox, "trivial.wat", Kind::Wasm, TRIVIAL_WAT)?,
        first_legal: load(&sandbox, "first_legal.wat", Kind::Wasm, FIRST_LEGAL_WAT)?,
        random_lua: load(&sandbox, "random.lua", Kind::Lua, RANDOM_LUA)?,
        random_wasm: load(&sandbox, "random.wat", Kind::Wasm, RANDOM_WAT)?,
        trivial_js: load(&sandbox, "trivial.js", Kind::Js, TRIVIAL_JS)?,
        random_js: load(&sandbox, "random.js", Kind::Js, RANDOM_JS)?,
        trivial_py: load(&sandbox, "trivial.py", Kind::Python, TRIVIAL_PY)?,
        random_py: load(&sandbox, "random.py", Kind::Python, RANDOM_PY)?,
    };
    let mut report = Report { rows: Vec::new(), extra: Map::new() };

    // Memory first, before the other measures leave freed memory behind to be reused.
    memory(args.quick, &p, &mut report);
    decisions(&clock, &p, &child, &mut report)?;
    starts(&clock, &p, &child, &mut report);
    matches(&clock, args.threads, &p, &mut report, benches);
    metering(&clock, &sandbox, &mut report)?;
    tournaments(args.quick, &mut report, games)?;
    python_class(args.quick, &mut report, games)?;
    analysis(&mut report, games)?;

    report.extra.insert("bench_format".into(), json!(BENCH_FORMAT));
    report.extra.insert("quick".into(), json!(args.quick));
    report.extra.insert("timing".into(), json!(if cfg!(unix) { "cpu" } else { "wall" }));
    report.extra.insert("threads".into(), json!(args.threads));
    report
        .extra
        .insert("cpus".into(), json!(std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)));
    report.extra.insert("seconds".into(), json!(round(started_at.elapsed().as_secs_f64(), 1)));
    Ok(if args.json { render_json(&report) } else { render_table(&report) })
}

/// `arena analyse` of one seat of one match per game (`greedy` in every seat, seed 1) at the
/// game's default budget, on one thread: CPU seconds.
fn analysis(report: &mut Report, games: &cardarena::Games) -> anyhow::Result<()> {
    let arena = cardarena::Arena::new().with_games(games.clone());
    let one = rayon::ThreadPoolBuilder::new().num_threads(1).build()?;
    for game in games.iter().filter(|g| g.has_analysis() && g.id().has_builtin("greedy")) {
        let id = game.id();
        let bots = vec!["greedy"; id.players()];
        let replay = arena.play(id, 1, &bots)?;
        let start = process_cpu().unwrap_or_else(wall);
        let analysis = one.install(|| game.analyse(&replay, "bench", 0, None))?;
        let seconds = process_cpu().unwrap_or_else(wall).saturating_sub(start).as_secs_f64();
        let name = id.name();
        report
            .add(
                format!("analyse_{}_seconds", name.replace('-', "_")),
                format!("{name}: analyse one seat of a match ({} decisions)", analysis.decisions.len()),
                seconds,
                "s",
            )
            .target(Target::AtMost(2.0));
    }
    Ok(())
}

fn round(v: f64, digits: i32) -> f64 {
    let m = 10f64.powi(digits);
    (v * m).round() / m
}

fn render_json(r: &Report) -> String {
    let mut out = r.extra.clone();
    let mut targets = Map::new();
    for row in &r.rows {
        out.insert(row.key.to_string(), json!(round(row.value, 3)));
        if let Some(t) = row.target {
            let (op, v) = match t {
                Target::AtMost(v) => ("<=", v),
                Target::AtLeast(v) => (">=", v),
            };
            targets.insert(
                row.key.to_string(),
                json!({ "target": format!("{op} {v}"), "met": t.met(row.value) }),
            );
        }
    }
    out.insert("targets".into(), Value::Object(targets));
    serde_json::to_string_pretty(&Value::Object(out)).expect("json") + "\n"
}

fn render_table(r: &Report) -> String {
    let mut out = String::new();
    let w = r.rows.iter().map(|row| row.label.chars().count()).max().unwrap_or(10);
    let vw = 12;
    out.push_str(&format!(
        "{:<w$}  {:>vw$}  {:<44}  {}\n",
        "measure", "value", "versus (same run)", "target"
    ));
    out.push_str(&format!("{}\n", "-".repeat(w + vw + 64)));
    let mut met = 0;
    let mut total = 0;
    for row in &r.rows {
        let target = match row.target {
            Some(t) => {
                total += 1;
                let ok = t.met(row.value);
                met += usize::from(ok);
                format!("{} {}", fmt_target(t, row.unit), if ok { "met" } else { "NOT MET" })
            }
            None => String::new(),
        };
        out.push_str(&format!(
            "{:<w$}  {:>vw$}  {:<44}  {}\n",
            row.label,
            fmt_value(row.value, row.unit),
            row.versus.as_deref().unwrap_or(""),
            target
        ));
    }
    out.push_str(&format!(
        "\n{met} of {total} targets met; {} threads for throughputs, {} cpus, {:.0} s{}\n",
        r.extra["threads"],
        r.extra["cpus"],
        r.extra["seconds"].as_f64().unwrap_or(0.0),
        if r.extra["quick"] == json!(true) { " (--quick: rough numbers)" } else { "" }
    ));
    out.push_str("times per call are CPU time (this thread, plus the child for the process baseline); throughputs are wall time\n");
    out.push_str(
        "process baseline: `arena-bench-child` spawned per decision (one JSON line in, one line out)\n",
    );
    out
}

/// Per-decision overhead on one Blade observation: encode, call, decode, check.
fn decisions(clock: &Clock, p: &Programs, child: &Path, report: &mut Report) -> anyhow::Result<()> {
    let obs = cardarena::games::testkit::blade_observation();
    let json_text = serde_json::to_string(&obs)?;
    let check = |reply: &str| assert!(obs.legal().iter().any(|l| l == reply), "bench bot replied {reply:?}");
    let mut buf = Vec::with_capacity(4096);
    let encode = clock.ns_per_call(|| {
        buf.clear();
        serde_json::to_writer(&mut buf, std::hint::black_box(&obs)).expect("json");
        std::hint::black_box(&buf);
    });
    let write_json = clock.ns_per_call(|| {
        buf.clear();
        std::hint::black_box(&obs).write_json(&mut buf).expect("json");
        std::hint::black_box(&buf);
    });
    let mut native: Box<dyn Bot<Blade>> = Box::new(FirstLegal);
    let native_ns = clock.ns_per_call(|| check(&native.act(&obs).expect("acts")));
    let mut lua = started_for(&file_source(&p.trivial_lua), clock, &LimitsConfig::default());
    let lua_ns = clock.ns_per_call(|| check(&lua.act(&obs).expect("acts")));
    let mut wasm = started_for(&file_source(&p.trivial_wasm), clock, &LimitsConfig::default());
    let wasm_ns = clock.ns_per_call(|| check(&wasm.act(&obs).expect("acts")));
    let mut js = started_for(&file_source(&p.trivial_js), clock, &LimitsConfig::default());
    let js_ns = clock.ns_per_call(|| check(&js.act(&obs).expect("acts")));
    let mut py = started_for(&file_source(&p.trivial_py), clock, &LimitsConfig::default());
    let py_ns = clock.ns_per_call(|| check(&py.act(&obs).expect("acts")));
    let fuel_of = |program: &Program| -> anyhow::Result<u64> {
        let limits = Limits::default_for(program.kind());
        let mut bot = program.start(&limits, 1, "{}").map_err(|f| anyhow::anyhow!("{}", f.message))?;
        bot.act(&json_text).map_err(|f| anyhow::anyhow!("{}", f.message))?;
        Ok(bot.fuel_used_last())
    };
    let js_fuel = fuel_of(&p.trivial_js)?;
    let py_fuel = fuel_of(&p.trivial_py)?;
    let mut first_legal = started_for(&file_source(&p.first_legal), clock, &LimitsConfig::default());
    let first_legal_ns = clock.ns_per_call(|| check(&first_legal.act(&obs).expect("acts")));
    let legacy_program = p
        .sandbox
        .load_stdio("intensity_c.wasm", LEGACY_WASM)
        .map_err(|f| anyhow::anyhow!("bench bot intensity_c.wasm: {}", f.message))?;
    let mut legacy = legacy_program.start(&Limits { fuel_per_match: u64::MAX, ..Limits::WASM }, 1);
    let legacy_ns = clock.ns_per_call(|| {
        let out = legacy.run(LEGACY_STDIN).expect("the legacy bench bot runs");
        assert_eq!(out, b"23\n", "the legacy bench bot's answer");
    });
    check(&spawn_child(child, &json_text)?); // a clear error before timing, not a panic in it
    let process_clock = Clock { batch: clock.batch * 4, ..*clock };
    let process_ns = process_clock.ns_per_call_by(thread_and_children_cpu, || {
        check(&spawn_child(child, &json_text).expect("arena-bench-child answered before"))
    });
    // The same in wall time, for reference: it adds the moments when neither process runs
    // (the hand-overs between them), which a busy machine fills with other work.
    let process_wall_ns = process_clock.ns_per_call_by(monotonic, || {
        check(&spawn_child(child, &json_text).expect("arena-bench-child answered before"))
    });

    report.add("observation_json_bytes", "blade observation (JSON)", json_text.len() as f64, "bytes");
    report.add("observation_encode_ns", "encode the observation (serde_json, reused buffer)", encode, "ns");
    report
        .add(
            "observation_write_json_ns",
            "encode it by hand (Blade's write_json, what WASM bots get)",
            write_json,
            "ns",
        )
        .versus(format!("{:.1}x faster than serde_json", encode / write_json));
    report.add("decision_native_ns", "decision: native (first legal)", native_ns, "ns");
    for (key, label, v, target) in [
        ("decision_lua_ns", "decision: Lua (trivial.lua)", lua_ns, 3000.0),
        ("decision_wasm_ns", "decision: WASM (trivial.wat)", wasm_ns, 1000.0),
        ("decision_js_ns", "decision: JavaScript (trivial.js)", js_ns, 100_000.0),
        ("decision_python_ns", "decision: Python (trivial.py)", py_ns, 100_000.0),
    ] {
        report
            .add(key, label, v, "ns")
            .versus(format!("{:.0}x faster than process, {:.1}x native", process_ns / v, v / native_ns))
            .target(Target::AtMost(target));
    }
    report
        .add("decision_wasm_first_legal_ns", "decision: WASM (first_legal.wat example)", first_legal_ns, "ns")
        .versus(format!("{:.0}x faster than process", process_ns / first_legal_ns));
    report
        .add("decision_legacy_ns", "decision: legacy WASI command (intensity_c.wasm)", legacy_ns, "ns")
        .versus(format!("{:.0}x faster than process", process_ns / legacy_ns));
    for (key, label, ns, fuel) in [
        ("decision_js_fuel", "fuel of that JavaScript decision", js_ns, js_fuel),
        ("decision_python_fuel", "fuel of that Python decision", py_ns, py_fuel),
    ] {
        report
            .add(key, label, fuel as f64, "fuel")
            .versus(format!("{:.2} ns per unit", ns / fuel.max(1) as f64));
    }
    report.add("decision_process_ns", "decision: process per decision", process_ns, "ns");
    report
        .add("decision_process_wall_ns", "the same in wall time (no target)", process_wall_ns, "ns")
        .versus(format!("{:.0}x the WASM decision", process_wall_ns / wasm_ns));
    for (key, label, v) in [
        ("process_over_lua", "process / Lua decision", process_ns / lua_ns),
        ("process_over_wasm", "process / WASM decision", process_ns / wasm_ns),
    ] {
        report.add(key, label, v, "x").target(Target::AtLeast(1000.0));
    }
    Ok(())
}

/// The process baseline's program: `<this binary>-bench-child` beside this binary
/// (`arena-bench-child`, `kuhn-arena-bench-child`: cargo builds and installs a package's
/// binaries together).
fn child_exe() -> anyhow::Result<PathBuf> {
    let exe = std::env::current_exe().context("cannot find the arena binary")?;
    let stem = exe.file_stem().and_then(|s| s.to_str()).unwrap_or("arena");
    let child = exe.with_file_name(format!("{stem}-bench-child{}", std::env::consts::EXE_SUFFIX));
    if !child.is_file() {
        bail!(
            "the process baseline needs {}, which is not there: build it with `cargo build --release` \
             (it is one of this package's binaries)",
            child.display()
        );
    }
    Ok(child)
}

/// Spawns `arena-bench-child`, hands it one observation line and reads its reply line.
fn spawn_child(exe: &Path, observation: &str) -> anyhow::Result<String> {
    let mut child = std::process::Command::new(exe)
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .spawn()
        .with_context(|| format!("cannot spawn {}", exe.display()))?;
    {
        let mut stdin = child.stdin.take().context("no stdin")?;
        stdin.write_all(observation.as_bytes())?;
        stdin.write_all(b"\n")?;
    }
    let mut line = String::new();
    std::io::BufReader::new(child.stdout.take().context("no stdout")?).read_line(&mut line)?;
    let status = child.wait()?;
    if !status.success() {
        bail!("{} failed ({status})", exe.display());
    }
    Ok(line.trim_end().to_string())
}

/// Starting a bot for one match (new VM or instance, chunk or start function, `init`), and
/// dropping it at the end; the baseline is the process a process-per-match arena would spawn.
fn starts(clock: &Clock, p: &Programs, child: &Path, report: &mut Report) {
    let obs = cardarena::games::testkit::blade_observation();
    let json_text = serde_json::to_string(&obs).expect("json");
    let mut seed = 0u64;
    let mut start = |program: &Program| {
        let source = file_source(program);
        clock.ns_per_call(|| {
            seed += 1;
            drop(std::hint::black_box(started(&source, seed)));
        })
    };
    let lua = start(&p.random_lua);
    let wasm = start(&p.random_wasm);
    let js = start(&p.random_js);
    let python = start(&p.random_py);
    let process_clock = Clock { batch: clock.batch * 2, samples: clock.samples.min(5), ..*clock };
    let process = process_clock.ns_per_call_by(thread_and_children_cpu, || {
        std::hint::black_box(spawn_child(child, &json_text).expect("arena-bench-child answered before"));
    });
    for (key, label, v, target) in [
        ("start_lua_ns", "start a bot: Lua", lua, 50_000.0),
        ("start_wasm_ns", "start a bot: WASM", wasm, 10_000.0),
        ("start_js_ns", "start a bot: JavaScript (snapshot, load, init)", js, 2_000_000.0),
        ("start_python_ns", "start a bot: Python (snapshot, load, init)", python, 2_000_000.0),
    ] {
        report
            .add(key, label, v, "ns")
            .versus(format!("{:.0}x faster than spawning a process", process / v))
            .target(Target::AtMost(target));
    }
}

/// The bots of a match, one per seat, with their entries (names and hashes) computed once, as
/// a tournament does per event (a built-in's hash is a SHA-256), and a lane per thread as the
/// tournament's workers have.
struct Seats {
    bots: Lanes,
    entries: Vec<cardarena::play::runner::BotEntry>,
}

impl Seats {
    /// `threads`: the most threads that will play them.
    fn new(p: &Programs, sources: Vec<BotSource>, threads: usize) -> Seats {
        let entries = sources.iter().map(BotSource::entry).collect();
        Seats { bots: Lanes::new(Some(&p.sandbox), sources, threads), entries }
    }
}

/// Plays one match of `G` between `seats`, on thread `k`'s lane.
fn play<G: Hosted>(seats: &Seats, k: usize, seed: u64) {
    let limits = LimitsConfig::default();
    let replay = seats
        .bots
        .for_worker(Some(k))
        .iter()
        .zip(&seats.entries)
        .fold(Match::<G>::new(G::variants()[0], seed), |t, (s, entry)| {
            t.seat_with(entry.clone(), s, s.limits(&limits).as_ref())
        })
        .play();
    debug_assert!(replay.faults.iter().all(Vec::is_empty), "{:?}", replay.faults);
    std::hint::black_box(replay);
}

/// `bench`'s matches per second of game `G` (native, Lua and WASM random bots).
pub(crate) type GameBench = fn(&Clock, usize, &Programs, &mut Report);

/// Game `G`'s [`GameBench`].
pub(crate) fn game_bench<G: Hosted>() -> GameBench {
    game_matches::<G>
}

fn game_matches<G: Hosted>(clock: &Clock, threads: usize, p: &Programs, report: &mut Report) {
    let key = |kind: &str| format!("matches_{}_{kind}", G::NAME.replace('-', "_"));
    let native = Seats::new(p, vec![BotSource::Builtin("random".into()); G::PLAYERS], threads);
    let lua = Seats::new(p, vec![file_source(&p.random_lua); G::PLAYERS], threads);
    let wasm = Seats::new(p, vec![file_source(&p.random_wasm); G::PLAYERS], threads);
    let rate = |seats: &Seats| clock.per_second(threads, &|k, i| play::<G>(seats, k, i));
    let n = rate(&native);
    report.add(key("native"), format!("{} matches: native random", G::NAME), n, "/s");
    let is_blade = G::NAME == "blade";
    for (key, kind, sources, target) in
        [(key("lua"), "Lua", &lua, 10_000.0), (key("wasm"), "WASM", &wasm, 20_000.0)]
    {
        let v = rate(sources);
        let row = report
            .add(key, format!("{} matches: {kind} random", G::NAME), v, "/s")
            .versus(format!("{:.2}x native", v / n));
        if is_blade {
            row.target(Target::AtLeast(target));
        }
    }
    for (kind, language, random, greedy, ext, lang) in [
        ("js", "JavaScript", &p.random_js, GREEDY_JS, "js", Kind::Js),
        ("python", "Python", &p.random_py, GREEDY_PY, "py", Kind::Python),
    ] {
        let seats = Seats::new(p, vec![file_source(random); G::PLAYERS], threads);
        let v = rate(&seats);
        report
            .add(key(kind), format!("{} matches: {language} random", G::NAME), v, "/s")
            .versus(format!("{:.2}x native", v / n));
        let greedy = greedy
            .iter()
            .find(|(g, _)| *g == G::NAME)
            .and_then(|(g, src)| p.sandbox.load(&format!("{g}_greedy.{ext}"), lang, src.as_bytes()).ok());
        if let Some(greedy) = greedy {
            let seats = Seats::new(p, vec![file_source(&greedy); G::PLAYERS], threads);
            let v = rate(&seats);
            report
                .add(
                    key(&format!("{kind}_greedy")),
                    format!("{} matches: {language} greedy examples", G::NAME),
                    v,
                    "/s",
                )
                .versus(format!("{:.2}x native", v / n));
        }
    }
}

/// Full matches per second, every game, random bots of every kind.
fn matches(clock: &Clock, threads: usize, p: &Programs, report: &mut Report, benches: &[GameBench]) {
    for bench in benches {
        bench(clock, threads, p, report);
    }
    // Scaling of the runner alone (no storage): Blade with WASM random bots on 1 and 2 threads,
    // next to what the machine itself gives two threads of plain arithmetic (no memory, no
    // shared data): the ceiling of any program's scaling here.
    let wasm = Seats::new(p, vec![file_source(&p.random_wasm); 2], 2);
    let one = clock.per_second(1, &|k, i| play::<Blade>(&wasm, k, i));
    let two = clock.per_second(2, &|k, i| play::<Blade>(&wasm, k, i));
    let spin_one = clock.per_second(1, &|_, i| spin(i));
    let spin_two = clock.per_second(2, &|_, i| spin(i));
    let mem_one = clock.per_second(1, &|_, i| churn(i));
    let mem_two = clock.per_second(2, &|_, i| churn(i));
    let native = Seats::new(p, vec![BotSource::Builtin("random".into()); 2], 2);
    let native_one = clock.per_second(1, &|k, i| play::<Blade>(&native, k, i));
    let native_two = clock.per_second(2, &|k, i| play::<Blade>(&native, k, i));
    report.add("runner_1_thread", "blade WASM matches, 1 thread", one, "/s");
    report
        .add("runner_2_threads", "blade WASM matches, 2 threads", two, "/s")
        .versus(format!("{:.2}x 1 thread", two / one));
    report
        .add("machine_scaling", "machine scaling 1 -> 2 threads (arithmetic)", spin_two / spin_one, "x")
        .versus("plain arithmetic in registers".into());
    report
        .add("machine_memory_scaling", "machine scaling 1 -> 2 threads (memory)", mem_two / mem_one, "x")
        .versus("allocate, fill and read 96 KiB".into());
    report
        .add("native_scaling", "native matches scaling 1 -> 2 threads", native_two / native_one, "x")
        .versus("the runner with built-in bots, no sandbox".into());
    report
        .add("runner_scaling", "runner scaling 1 -> 2 threads", two / one, "x")
        .versus(format!("{:.0}% of the machine's", (two / one) / (spin_two / spin_one) * 100.0))
        .target(Target::AtLeast(1.8));
}

/// Memory traffic like a match's (the second machine-scaling probe): allocate 96 KiB (below
/// the allocator's mmap threshold, as a Lua VM's chunks and a WASM instance's pages), fill it,
/// read it back, free it.
fn churn(i: u64) {
    let mut v = vec![0u64; 12 << 10];
    let mut x = i | 1;
    for e in v.iter_mut() {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        *e = x;
    }
    std::hint::black_box(v.iter().fold(0u64, |a, &e| a.wrapping_add(e)));
}

/// A fixed amount of register-only arithmetic (the machine-scaling probe).
fn spin(i: u64) {
    let mut x = i | 1;
    for _ in 0..50_000 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
    }
    std::hint::black_box(x);
}

/// Limits that never stop a bench bot (the measures compare the same work, done to its end).
fn unlimited(kind: Kind) -> Limits {
    Limits { fuel_per_decision: u64::MAX / 8, fuel_per_match: u64::MAX / 4, ..Limits::default_for(kind) }
}

/// Median ns per decision of `program` metered (the sandbox) and unmetered (`plain`), after
/// checking that both give the same reply on `obs`.
fn metered_vs_plain(
    clock: &Clock,
    program: &Program,
    info: &str,
    obs: &str,
    mut plain: impl FnMut(&str) -> Result<String, String>,
) -> anyhow::Result<(f64, f64, Vec<String>)> {
    let name = program.name().to_string();
    let mut metered =
        program.start(&unlimited(program.kind()), 1, info).map_err(|f| anyhow::anyhow!("{name}: {f}"))?;
    let reference = metered.act(obs).map_err(|f| anyhow::anyhow!("{name}: {f}"))?;
    let log = metered.take_log();
    let unmetered = plain(obs).map_err(|e| anyhow::anyhow!("{name}, unmetered: {e}"))?;
    anyhow::ensure!(
        unmetered == reference,
        "{name}: the unmetered run replied {unmetered:?}, the sandbox {reference:?}"
    );
    let m = clock.ns_per_call(|| {
        metered.act(obs).expect("bench bot acts");
        metered.take_log();
    });
    let u = clock.ns_per_call(|| {
        plain(obs).expect("bench bot acts");
    });
    Ok((m, u, log))
}

/// Fuel metering overhead: the sandbox against an unmetered VM / engine running the same code.
/// The targets are on the compute-heavy bots (the Monte-Carlo Blade bot in Lua and in Rust, on
/// the bench's Blade observation); the calibration loops (the worst case: a handful of
/// instructions per iteration) and the Rust greedy bot (mostly JSON parsing) are shown too.
fn metering(clock: &Clock, sandbox: &Sandbox, report: &mut Report) -> anyhow::Result<()> {
    let obs = serde_json::to_string(&cardarena::games::testkit::blade_observation())?;
    let info = serde_json::to_string(&info_for::<Blade>(0, 7))?;

    let mc_lua = MC_LUA.replace(MC_LUA_CAP, "local PER_DECISION = 1e15");
    anyhow::ensure!(mc_lua != MC_LUA, "blade_montecarlo.lua no longer has the line {MC_LUA_CAP:?}");
    let program = load(sandbox, "blade_montecarlo.lua", Kind::Lua, &mc_lua)?;
    let mut plain = PlainLua::new(&mc_lua, 1).map_err(anyhow::Error::msg)?;
    let (m, u, log) = metered_vs_plain(clock, &program, &info, &obs, |o| plain.act(o))?;
    anyhow::ensure!(
        log.iter().any(|l| l.starts_with("100 deals")),
        "blade_montecarlo.lua did not play its 100 deals: {log:?}"
    );
    let lua = (m, u);

    let program = load(sandbox, "blade_montecarlo_rust.wasm", Kind::Wasm, MC_WASM)?;
    let mut plain = PlainWasm::new(MC_WASM).map_err(anyhow::Error::msg)?;
    plain.init(&info).map_err(anyhow::Error::msg)?;
    let (m, u, log) = metered_vs_plain(clock, &program, &info, &obs, |o| plain.act(o))?;
    anyhow::ensure!(
        log.iter().any(|l| l.starts_with("200 deals")),
        "blade_montecarlo_rust.wasm did not play its 200 deals: {log:?}"
    );
    let wasm = (m, u);

    for (name, key_u, key_m, key_o, (m, u), target) in [
        ("Lua", "unmetered_lua_ns", "metered_lua_ns", "metering_overhead_lua_pct", lua, 60.0),
        ("WASM", "unmetered_wasm_ns", "metered_wasm_ns", "metering_overhead_wasm_pct", wasm, 15.0),
    ] {
        report.add(key_u, format!("Monte-Carlo bot decision, {name}, unmetered"), u, "ns");
        report.add(key_m, format!("Monte-Carlo bot decision, {name}, metered"), m, "ns");
        report
            .add(
                key_o,
                format!("fuel metering overhead, {name} (Monte-Carlo bot)"),
                (m / u - 1.0) * 100.0,
                "%",
            )
            .versus("metered vs unmetered, same run".into())
            .target(Target::AtMost(target));
    }

    // The worst case: tight loops of a few instructions (no target).
    let calib_obs = r#"{"legal":["1"]}"#;
    for (kind, name, text, keys) in [
        (
            Kind::Lua,
            "calib.lua",
            CALIB_LUA,
            ["unmetered_calib_lua_ns", "metered_calib_lua_ns", "metering_overhead_calib_lua_pct"],
        ),
        (
            Kind::Wasm,
            "calib.wat",
            CALIB_WAT,
            ["unmetered_calib_wasm_ns", "metered_calib_wasm_ns", "metering_overhead_calib_wasm_pct"],
        ),
    ] {
        let program = load(sandbox, name, kind, text)?;
        let (m, u, _) = match kind {
            Kind::Lua => {
                let mut plain = PlainLua::new(text, 1).map_err(anyhow::Error::msg)?;
                metered_vs_plain(clock, &program, "{}", calib_obs, |o| plain.act(o))?
            }
            Kind::Wasm | Kind::Js | Kind::Python => {
                let mut plain = PlainWasm::new(text.as_bytes()).map_err(anyhow::Error::msg)?;
                metered_vs_plain(clock, &program, "{}", calib_obs, |o| plain.act(o))?
            }
        };
        report.add(keys[0], format!("tight loops ({name}), unmetered"), u, "ns");
        report.add(keys[1], format!("tight loops ({name}), metered"), m, "ns");
        report
            .add(keys[2], format!("fuel metering overhead, tight loops ({name})"), (m / u - 1.0) * 100.0, "%")
            .versus("the worst case, no target".into());
    }

    // Ordinary compiled code: the Rust greedy bot (serde JSON parsing and rules; no target).
    let program = load(sandbox, "blade_rust.wasm", Kind::Wasm, RUST_WASM)?;
    let mut plain = PlainWasm::new(RUST_WASM).map_err(anyhow::Error::msg)?;
    plain.init(&info).map_err(anyhow::Error::msg)?;
    let (m, u, _) = metered_vs_plain(clock, &program, &info, &obs, |o| plain.act(o))?;
    report.add("unmetered_rust_wasm_ns", "Rust greedy bot decision, WASM, unmetered", u, "ns");
    report.add("metered_rust_wasm_ns", "Rust greedy bot decision, WASM, metered", m, "ns");
    report
        .add(
            "metering_overhead_rust_wasm_pct",
            "fuel metering overhead, Rust greedy bot",
            (m / u - 1.0) * 100.0,
            "%",
        )
        .versus("metered vs unmetered, same run".into());
    Ok(())
}

/// A match held open: its state and both seats' bots.
type OpenMatch = (Blade, Vec<Box<dyn Bot<Blade>>>);

/// Resident memory per concurrent match: many Blade matches held open at once (both bots
/// started and one decision made), RSS before and after.
fn memory(quick: bool, p: &Programs, report: &mut Report) {
    let n = if quick { 16 } else { 200 };
    let obs = cardarena::games::testkit::blade_observation();
    for (key, label, program) in [
        ("rss_per_match_lua_bytes", "resident memory per match: Lua", &p.random_lua),
        ("rss_per_match_wasm_bytes", "resident memory per match: WASM", &p.random_wasm),
    ] {
        let source = file_source(program);
        let before = rss_bytes();
        let held: Vec<OpenMatch> = (0..n)
            .map(|i| {
                let state = Blade::new(Blade::variants()[0], i);
                let mut bots = vec![started(&source, i), started(&source, i + 1)];
                for bot in &mut bots {
                    bot.act(&obs).expect("acts");
                }
                (state, bots)
            })
            .collect();
        let after = rss_bytes();
        drop(std::hint::black_box(held));
        if let (Some(b), Some(a)) = (before, after) {
            report
                .add(key, label, a.saturating_sub(b) as f64 / n as f64, "bytes")
                .target(Target::AtMost(4.0 * 1048576.0));
        }
    }
}

/// This process's resident set size (Linux: /proc/self/status), if known.
fn rss_bytes() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Tournament throughput with storage (SQLite), 1 and 2 threads: a Blade round robin of the
/// built-in random and greedy bots and the Lua and WASM random bots, in a temporary folder.
fn tournaments(quick: bool, report: &mut Report, games: &cardarena::Games) -> anyhow::Result<()> {
    let dir = TempDir::new()?;
    std::fs::write(dir.0.join("random.lua"), RANDOM_LUA)?;
    std::fs::write(dir.0.join("random.wat"), RANDOM_WAT)?;
    // Enough matches that the run's fixed costs (opening the event and loading the bots, the
    // standings after the last match) are a small part of it (BENCHMARKS.md, "How it measures").
    let deals = if quick { 5 } else { 1000 };
    let toml = format!(
        "[[event]]\ngame = \"blade\"\nbots = [\"random\", \"greedy\", \"random.lua\", \"random.wat\"]\ndeals = {deals}\nduplicate = true\n"
    );
    let file = dir.0.join("bench.toml");
    std::fs::write(&file, &toml)?;
    let config = cardarena::tournament::config::load(&file, games)?;
    let mut rates = Vec::new();
    // The cores each run kept busy (process CPU time / wall time): the writer thread runs
    // beside the workers, so "1 thread" is more than one core's work.
    let mut cores = Vec::new();
    for threads in [1, 2] {
        let db = dir.0.join(format!("bench-{threads}.db"));
        let store = cardarena::tournament::store::Store::open(&db)?;
        let opts = cardarena::tournament::RunOptions {
            games: std::sync::Arc::new(games.clone()),
            threads,
            progress: std::sync::Arc::new(cardarena::tournament::Silent),
            stop_now: None,
        };
        let cpu = process_cpu();
        let t = Instant::now();
        let result = cardarena::tournament::run(&config, &store, &opts, &AtomicBool::new(false))?;
        let elapsed = t.elapsed();
        rates.push(result.played_now as f64 / elapsed.as_secs_f64());
        if let (Some(before), Some(after)) = (cpu, process_cpu()) {
            cores.push(after.saturating_sub(before).as_secs_f64() / elapsed.as_secs_f64());
        }
    }
    report.add("tournament_1_thread", "tournament with storage, 1 thread", rates[0], "/s");
    report
        .add("tournament_2_threads", "tournament with storage, 2 threads", rates[1], "/s")
        .versus(format!("{:.2}x 1 thread", rates[1] / rates[0]));
    if let [one, two] = cores[..] {
        report.add("tournament_cores_1_thread", "tournament, cores busy with 1 thread", one, "cores");
        report.add("tournament_cores_2_threads", "tournament, cores busy with 2 threads", two, "cores");
    }
    report
        .add("tournament_scaling", "tournament scaling 1 -> 2 threads", rates[1] / rates[0], "x")
        .target(Target::AtLeast(1.8));
    Ok(())
}

/// A class's round robin: 30 Python bots (variants of the Blade greedy example, each with its
/// own cost of spending B or M) in a Blade tournament with storage on 2 threads, every pair
/// playing one deal with the seats swapped. Quick: 6 of them.
fn python_class(quick: bool, report: &mut Report, games: &cardarena::Games) -> anyhow::Result<()> {
    let (_, greedy) =
        GREEDY_PY.iter().find(|(g, _)| *g == "blade").context("no Blade greedy Python example")?;
    anyhow::ensure!(
        greedy.contains(PY_GREEDY_KNOB),
        "blade_greedy.py no longer has the line {PY_GREEDY_KNOB:?}"
    );
    let dir = TempDir::new()?;
    let students = if quick { 6 } else { 30 };
    let mut bots = Vec::new();
    for i in 0..students {
        let name = format!("student{i:02}.py");
        let text =
            format!("# {name}\n{}", greedy.replace(PY_GREEDY_KNOB, &format!("EFFECT_COST = {}", 2 + i % 9)));
        std::fs::write(dir.0.join(&name), text)?;
        bots.push(format!("{name:?}"));
    }
    let file = dir.0.join("class.toml");
    std::fs::write(
        &file,
        format!("[[event]]\ngame = \"blade\"\nbots = [{}]\ndeals = 1\nduplicate = true\n", bots.join(", ")),
    )?;
    let config = cardarena::tournament::config::load(&file, games)?;
    let store = cardarena::tournament::store::Store::open(&dir.0.join("class.db"))?;
    let opts = cardarena::tournament::RunOptions {
        games: std::sync::Arc::new(games.clone()),
        threads: 2,
        progress: std::sync::Arc::new(cardarena::tournament::Silent),
        stop_now: None,
    };
    let t = Instant::now();
    let result = cardarena::tournament::run(&config, &store, &opts, &AtomicBool::new(false))?;
    let rate = result.played_now as f64 / t.elapsed().as_secs_f64();
    report
        .add(
            "class_python_blade_matches_per_s",
            format!("class round robin: {students} Python greedy bots, Blade, 2 threads"),
            rate,
            "/s",
        )
        .versus(format!("{} matches with storage", result.played_now))
        .target(Target::AtLeast(100.0));
    Ok(())
}

/// A temporary folder, removed when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new() -> anyhow::Result<TempDir> {
        let nanos =
            std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
        let path = std::env::temp_dir().join(format!("cardarena-bench-{}-{nanos}", std::process::id()));
        std::fs::create_dir_all(&path).with_context(|| format!("cannot create {}", path.display()))?;
        Ok(TempDir(path))
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The attack on `arena bench` (it panicked in 3 of 4 runs on an idle machine): a decision
    /// measure given more calls than its match's fuel bank pays for. Here the bank is made
    /// small (ten decisions) and the clock is forced to its batch cap, past it.
    #[test]
    fn a_decision_measure_forced_past_the_bank_keeps_its_fuel() {
        let sandbox = Sandbox::new().expect("sandbox");
        let source = file_source(&load(&sandbox, "first_legal.wat", Kind::Wasm, FIRST_LEGAL_WAT).unwrap());
        let obs = cardarena::games::testkit::blade_observation();
        let mut probe = started(&source, 1);
        probe.act(&obs).unwrap();
        let fuel = probe.fuel_used_last().expect("a sandboxed bot");
        let limits = LimitsConfig {
            fuel_per_decision: Some(2 * fuel),
            fuel_per_match: Some(10 * fuel),
            ..Default::default()
        };
        let clock = Clock {
            batch: Duration::from_secs(3600), // never reached: the cap ends every batch
            samples: 2,
            window: Duration::ZERO,
            windows: 1,
            max_batch: 8,
        };
        let mut calls = 0u64;
        let mut bot = started_for(&source, &clock, &limits);
        clock.ns_per_call(|| {
            calls += 1;
            bot.act(&obs).expect("acts");
        });
        assert!(calls > 10 && calls <= clock.max_calls(), "{calls} calls");
        // The same calls on the bank alone run out: the attack is real.
        let mut bot = started_with(&source, 1, &limits);
        let faults = (0..calls).filter(|_| bot.act(&obs).is_err()).count();
        assert!(faults > 0, "{calls} calls on a bank of ten decisions");
    }

    /// The trivial bots answer the first legal action on every observation of random matches of
    /// every game and variant (so the word-at-a-time search in `trivial.wat` misses no key and
    /// takes no look-alike: `"lost_cities"` starts with `"l` too).
    fn trivial_bots_answer_the_first_legal_action<G: Hosted>() {
        let sandbox = Sandbox::new().expect("sandbox");
        let programs = [
            load(&sandbox, "trivial.wat", Kind::Wasm, TRIVIAL_WAT).unwrap(),
            load(&sandbox, "trivial.lua", Kind::Lua, TRIVIAL_LUA).unwrap(),
        ];
        let mut decisions = 0;
        for &variant in G::variants() {
            for seed in 0..4 {
                let mut state = G::new(variant, seed);
                let mut random: Vec<Box<dyn Bot<G>>> = (0..G::PLAYERS)
                    .map(|seat| cardarena::bots::bot::builtin::<G>("random", seed, seat).expect("random"))
                    .collect();
                let mut trivial: Vec<Vec<Box<dyn Bot<G>>>> = programs
                    .iter()
                    .map(|p| {
                        (0..G::PLAYERS)
                            .map(|seat| {
                                let mut bot =
                                    file_source(p).instantiate::<G>(seed, seat, &LimitsConfig::default());
                                bot.init(&info_for::<G>(seat, seed)).expect("starts");
                                bot
                            })
                            .collect()
                    })
                    .collect();
                while !state.is_over() {
                    for seat in state.to_act() {
                        let obs = state.observe(seat);
                        for (bots, p) in trivial.iter_mut().zip(&programs) {
                            let reply = bots[seat].act(&obs).expect("acts");
                            assert_eq!(reply, obs.legal()[0], "{} {variant} seed {seed}", p.name());
                        }
                        decisions += 1;
                        let action = random[seat].act(&obs).expect("random acts");
                        state.play(seat, &action).expect("legal");
                    }
                }
            }
        }
        assert!(decisions > 0);
    }

    #[test]
    fn trivial_bots_answer_the_first_legal_action_in_every_game() {
        struct EveryGame;
        impl cardarena::AddGame for EveryGame {
            fn add<G: Hosted>(self) -> EveryGame {
                trivial_bots_answer_the_first_legal_action::<G>();
                self
            }
        }
        cardarena::add_builtin(EveryGame);
    }
}
