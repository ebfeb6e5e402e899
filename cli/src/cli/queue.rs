//! `arena worker`, `arena merge`, and the job-queue side of `arena tournament` (`--db URL`,
//! `--enqueue`, `--status`, `--shard`): docs/scale-out.md.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context};

use cardarena::tournament::queue::tournament::{QueueDispatch, QueueOptions};
use cardarena::tournament::queue::worker::{self, WorkerOptions};
use cardarena::tournament::queue::{Alarm, Status};
use cardarena::tournament::{Config, RunOptions, TournamentResult};

use super::{print_out, TournamentArgs};

/// Two runs of one match gave two different results (exit code 3).
#[derive(Debug, thiserror::Error)]
#[error("{0}")]
pub struct DeterminismAlarm(pub String);

#[derive(Debug, clap::Args)]
#[command(after_help = "Examples:
  arena worker --db sqlite:club.queue                  play jobs until Ctrl-C
  arena worker --db postgres://arena@db.lan/arena --threads 4
  arena worker --db sqlite:club.queue --until-empty    play what is queued, then exit")]
pub struct WorkerArgs {
    /// The job queue: sqlite:PATH or postgres://USER@HOST:PORT/DB.
    #[arg(long, value_name = "URL")]
    db: String,
    /// Worker threads in this process (each claims its own jobs).
    #[arg(long, default_value_t = 1)]
    threads: usize,
    /// The worker's name in the queue (default: host name and process id).
    #[arg(long)]
    name: Option<String>,
    /// Lease of a claimed job in seconds; a heartbeat renews it every third of it while the
    /// match plays, and another worker may claim the job once it expires.
    #[arg(long, value_name = "SECS", default_value_t = 60.0)]
    lease: f64,
    /// Exit when no job is left to claim (default: wait for more).
    #[arg(long)]
    until_empty: bool,
    /// Seconds between looks at an empty queue.
    #[arg(long, value_name = "SECS", default_value_t = 1.0)]
    poll: f64,
    /// Only jobs of this group (a tournament's are `tournament/EVENT`). With `ladder` and a
    /// ladder's database as the queue (`sqlite:` its file, or its `postgres://` database, as
    /// `arena serve` starts its workers), the worker also plays the games people play in the
    /// browser and, between matches, computes the analyses asked for on its match pages.
    #[arg(long)]
    group: Option<String>,
    /// Where compiled WASM bots are kept for the next worker of this machine (default:
    /// $XDG_CACHE_HOME/cardarena/wasm or ~/.cache/cardarena/wasm; only this machine's user may
    /// write there).
    #[arg(long, value_name = "DIR")]
    wasm_cache: Option<PathBuf>,
    /// Compile every WASM bot, keep no compiled code.
    #[arg(long, conflicts_with = "wasm_cache")]
    no_wasm_cache: bool,
    /// How long to keep retrying while the queue's database is out of reach (connection
    /// refused or lost, file locked) before giving up with exit code 2: 300s, 5m, 90 (seconds).
    /// A database that does not exist, or a refused login, is an error at once.
    #[arg(long, value_name = "TIME", default_value = "300s", value_parser = parse_time)]
    give_up_after: Duration,
}

/// The default folder of compiled WASM bots.
fn default_wasm_cache() -> Option<PathBuf> {
    let base = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))?;
    Some(base.join("cardarena").join("wasm"))
}

#[derive(Debug, clap::Args)]
pub struct MergeArgs {
    /// The merged results database (created if needed).
    out: PathBuf,
    /// The shards' results databases.
    #[arg(required = true)]
    shards: Vec<PathBuf>,
}

/// `I/N` with I < N.
pub fn parse_shard(text: &str) -> Result<(u32, u32), String> {
    let bad = || {
        format!("{text:?}: a shard is I/N with 0 <= I < N, e.g. 0/4 (Slurm: $SLURM_ARRAY_TASK_ID/$SLURM_ARRAY_TASK_COUNT)")
    };
    let (i, n) = text.split_once('/').ok_or_else(bad)?;
    let (i, n): (u32, u32) = (i.trim().parse().map_err(|_| bad())?, n.trim().parse().map_err(|_| bad())?);
    if i >= n {
        return Err(bad());
    }
    Ok((i, n))
}

/// A time: a number with `ms`, `s`, `m` or `h` after it, or none (seconds).
pub fn parse_time(text: &str) -> Result<Duration, String> {
    let t = text.trim();
    let (number, unit) = match t.find(|c: char| c.is_ascii_alphabetic()) {
        Some(i) => t.split_at(i),
        None => (t, "s"),
    };
    let scale = match unit {
        "ms" => 0.001,
        "s" => 1.0,
        "m" | "min" => 60.0,
        "h" => 3600.0,
        _ => {
            return Err(format!("{text:?}: a time is a number with ms, s, m or h after it, e.g. 300s or 5m"))
        }
    };
    number.trim().parse::<f64>().ok().and_then(|n| Duration::try_from_secs_f64(n * scale).ok()).ok_or_else(
        || format!("{text:?}: a time is a number >= 0 with ms, s, m or h after it, e.g. 300s or 5m"),
    )
}

fn seconds(value: f64, flag: &str) -> anyhow::Result<Duration> {
    Duration::try_from_secs_f64(value).with_context(|| format!("{flag} must be a number of seconds >= 0"))
}

/// The queue at `url`, riding out outages of up to `give_up`, or until `stop` is set
/// (docs/scale-out.md).
fn open_queue(
    url: &str,
    give_up: Duration,
    stop: Option<&Arc<AtomicBool>>,
) -> anyhow::Result<Box<dyn cardarena::tournament::queue::JobQueue>> {
    let mut retry = cardarena::tournament::queue::retry::Retry::new(give_up);
    retry.stop = stop.cloned();
    Ok(cardarena::tournament::queue::open_resilient(url, retry)?)
}

/// Ctrl-C (or SIGTERM, as Kubernetes and systemd stop a process): the first stops after the matches in play; the second exits at once.
fn stop_on_ctrl_c(what: &'static str) -> Arc<AtomicBool> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = stop.clone();
    let _ = ctrlc::set_handler(move || {
        if flag.swap(true, Ordering::SeqCst) {
            eprintln!("\nstopping now: {what}");
            std::process::exit(130);
        }
        eprintln!("\nstopping after the matches in play (Ctrl-C again to stop now: {what})");
    });
    stop
}

pub fn worker_cmd(args: WorkerArgs, games: &super::GameSet) -> anyhow::Result<()> {
    if args.threads == 0 {
        bail!("--threads must be at least 1");
    }
    let stop = stop_on_ctrl_c("the jobs in play are claimed again once their leases expire");
    let queue = open_queue(&args.db, args.give_up_after, Some(&stop))?;
    let name = args.name.clone().unwrap_or_else(worker::default_name);
    let mut opts = WorkerOptions::new(&name, Arc::new(games.lib().clone()));
    opts.lease = seconds(args.lease, "--lease")?;
    opts.poll = seconds(args.poll, "--poll")?;
    opts.until_empty = args.until_empty;
    opts.group = args.group.clone();
    opts.wasm_cache =
        if args.no_wasm_cache { None } else { args.wasm_cache.clone().or_else(default_wasm_cache) };
    // A ladder's worker plays the people's games too: their seats wait for moves made on the
    // ladder's pages, in the ladder's database (the queue's file or PostgreSQL database).
    if args.group.as_deref() == Some(cardarena_ladder::jobs::GROUP) {
        let ladder_db = match args.db.strip_prefix("sqlite:") {
            Some(path) => Some(path.strip_prefix("//").unwrap_or(path)),
            None => cardarena_ladder::db::is_postgres(&args.db).then_some(args.db.as_str()),
        };
        if let Some(location) = ladder_db {
            let db = cardarena_ladder::db::open(location)?;
            opts.people = Some(cardarena_ladder::play::people(db.clone()));
            // And, between its matches, the analyses asked for on the ladder's match pages.
            opts.side_work = Some(cardarena_ladder::analysis::side_work(db, games.lib().clone(), &name));
        }
    }
    let version = cardarena::tournament::queue::arena_version();
    eprintln!("worker {name} (arena {version}) on {}", queue.name());
    // One thread loads its own bots; several load on lanes of one sandbox.
    let loader = cardarena::play::registry::Loader::new();
    if args.threads > 1 {
        loader.sandbox()?;
    }
    let queues = (0..args.threads).map(|_| queue.reconnect()).collect::<Result<Vec<_>, _>>()?;
    let reports = std::thread::scope(|scope| {
        let handles: Vec<_> = queues
            .into_iter()
            .enumerate()
            .map(|(k, mut q)| {
                let mut opts = opts.clone();
                if args.threads > 1 {
                    opts.name = format!("{name}/{}", k + 1);
                }
                let (stop, loader) = (&stop, (args.threads > 1).then_some(&loader));
                std::thread::Builder::new()
                    .stack_size(8 << 20)
                    .spawn_scoped(scope, move || worker::run(q.as_mut(), &opts, loader, stop))
            })
            .collect::<Result<_, _>>()
            .context("cannot start the worker threads")?;
        let mut reports = Vec::new();
        for h in handles {
            reports.push(h.join().map_err(|_| anyhow::anyhow!("a worker thread panicked"))??);
        }
        anyhow::Ok(reports)
    })?;
    let stored: u64 = reports.iter().map(|r| r.stored).sum();
    let duplicates: u64 = reports.iter().map(|r| r.duplicates).sum();
    eprintln!(
        "worker {name}: {stored} result(s) stored, {duplicates} job(s) found already played (same result)"
    );
    for r in &reports {
        for (key, error) in &r.failures {
            eprintln!("  job {key} failed: {error}");
        }
    }
    let refused = reports.iter().find(|r| !r.refused.is_empty()).map(|r| r.refused.clone());
    let alarms: Vec<Alarm> = reports
        .iter()
        .flat_map(|r| r.alarms.iter())
        .map(|(key, stored, other)| Alarm {
            key: key.clone(),
            stored: stored.clone(),
            other: other.clone(),
            worker: name.clone(),
        })
        .collect();
    if !alarms.is_empty() {
        return Err(DeterminismAlarm(alarms_text(&alarms)).into());
    }
    if let Some(refused) = refused {
        let list: Vec<String> = refused.iter().map(|(v, n)| format!("{n} planned by arena {v}")).collect();
        bail!(
            "this worker (arena {version}) refuses the queue's remaining jobs: {}; a match's result depends on the arena version, so run a worker of that version",
            list.join(", ")
        );
    }
    Ok(())
}

/// What a tournament through a queue did.
pub struct QueueRun {
    /// The standings so far.
    pub result: TournamentResult,
    /// `--enqueue`: the jobs were planned and nothing else was done.
    pub enqueued: bool,
    /// Determinism alarms on the tournament's jobs.
    pub alarms: Vec<Alarm>,
}

pub fn tournament_via_queue(
    config: &Config,
    url: &str,
    args: &TournamentArgs,
    threads: usize,
    opts: &RunOptions,
    stop: &Arc<AtomicBool>,
    games: &super::GameSet,
) -> anyhow::Result<QueueRun> {
    let queue = open_queue(url, args.give_up_after, Some(stop))?;
    let name = queue.name();
    let dispatch = QueueDispatch::new(
        queue,
        QueueOptions {
            games: Arc::new(games.lib().clone()),
            enqueue_only: args.enqueue,
            threads: if args.enqueue { 0 } else { threads },
            lease: seconds(args.lease, "--lease")?,
            poll: Duration::from_millis(250),
            name: worker::default_name(),
        },
        stop,
    );
    let result = cardarena::tournament::run_dispatched(config, &dispatch, opts, stop)?;
    let planned = dispatch.keys().len();
    if args.enqueue {
        let swiss = config.events.iter().any(|e| e.format == cardarena::tournament::Format::Swiss);
        eprintln!(
            "{} job(s) planned in {name} ({} new){}; start workers with `arena worker --db {name}`, and print the standings with `arena tournament {} --db {name}`",
            planned,
            dispatch.added(),
            if swiss { " (Swiss events: the first round only; the next rounds are planned as the results come in)" } else { "" },
            args.file.display()
        );
        return Ok(QueueRun { result, enqueued: true, alarms: Vec::new() });
    }
    eprintln!(
        "{planned} match(es) of {} through {name} ({} new jobs)",
        args.file.display(),
        dispatch.added()
    );
    let alarms = dispatch.alarms()?;
    Ok(QueueRun { result, enqueued: false, alarms })
}

pub fn alarms_text(alarms: &[Alarm]) -> String {
    let mut out = format!(
        "determinism alarm: {} job(s) gave two different results when played twice (the first result is kept); a bot or the arena is not deterministic:\n",
        alarms.len()
    );
    for a in alarms {
        out.push_str(&format!("  job {}: stored {}, then {} from {}\n", a.key, a.stored, a.other, a.worker));
    }
    out.push_str(
        "  replay both runs' matches with `arena replay --verify` to find the first differing decision",
    );
    out
}

pub fn status_cmd(url: &str, give_up: Duration) -> anyhow::Result<()> {
    let mut queue = open_queue(url, give_up, None)?;
    let version = cardarena::tournament::queue::arena_version();
    let st = queue.status(&version)?;
    print_out(&status_text(&st, &queue.name(), &version))?;
    if !st.alarms.is_empty() {
        return Err(DeterminismAlarm(alarms_text(&st.alarms)).into());
    }
    Ok(())
}

fn status_text(st: &Status, name: &str, version: &str) -> String {
    let mut out = format!(
        "{name} (arena {version}): {} queued, {} running, {} done, {} failed, {} alarm(s)\n",
        st.queued,
        st.running,
        st.done,
        st.failed,
        st.alarms.len()
    );
    for (v, n) in &st.other_versions {
        out.push_str(&format!("  {n} job(s) planned by arena {v}: only workers of that version play them\n"));
    }
    if !st.leases.is_empty() {
        out.push_str("running:\n");
        for l in &st.leases {
            let lease = if l.expires_in >= 0.0 {
                format!("lease {:.0} s left", l.expires_in)
            } else {
                format!("lease expired {:.0} s ago: another worker will run it", -l.expires_in)
            };
            out.push_str(&format!("  {} on {} (attempt {}, {lease})\n", l.key, l.worker, l.attempt));
        }
    }
    if !st.failures.is_empty() {
        out.push_str("failed:\n");
        for f in &st.failures {
            out.push_str(&format!("  {} after {} attempt(s): {}\n", f.key, f.attempts, f.error));
        }
    }
    if !st.workers.is_empty() {
        out.push_str("workers:\n");
        for w in &st.workers {
            out.push_str(&format!(
                "  {}: {} match(es), {:.1} matches/s while playing\n",
                w.worker, w.matches, w.per_second
            ));
        }
    }
    if !st.alarms.is_empty() {
        out.push_str("alarms:\n");
        for a in &st.alarms {
            out.push_str(&format!("  {}: stored {}, then {} from {}\n", a.key, a.stored, a.other, a.worker));
        }
    }
    out
}

pub fn merge_cmd(args: MergeArgs) -> anyhow::Result<()> {
    let store = cardarena::tournament::store::Store::open(&args.out)?;
    let mut differ = Vec::new();
    for shard in &args.shards {
        let (added, keys) = store.merge(shard)?;
        eprintln!("{}: {added} match(es) added", shard.display());
        differ.extend(keys.into_iter().map(|k| (shard.clone(), k)));
    }
    if !differ.is_empty() {
        let mut text = format!(
            "determinism alarm: {} match(es) were played in two shards with different results (the first kept):\n",
            differ.len()
        );
        for (shard, key) in &differ {
            text.push_str(&format!("  {key} (again in {})\n", shard.display()));
        }
        return Err(DeterminismAlarm(text).into());
    }
    Ok(())
}
