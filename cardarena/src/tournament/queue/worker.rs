//! The worker loop: claim a job, play its match through [`Match`], store the result; again.
//!
//! A worker fetches each bot's bytes from the queue once (by content hash), loads them through
//! the play layer's [`Loader`] (as a local tournament loads its entrants) and keeps the loaded
//! program for the jobs after. While a match plays, a heartbeat thread extends the lease every
//! third of it. A job the worker cannot play (an unknown game, a bot missing from the queue) is
//! a host failure reported with [`JobQueue::fail`]; a bot that fails is a verdict in the
//! replay, and the job's result is stored like any other: a program the sandbox refuses (or a
//! Lua bot without `act`) plays its matches with the verdict `load` from the start.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use cardarena_sandbox::Kind;

use super::{Completion, JobOutput, JobQueue, JobSpec, QueueError, SeatSpec};
use crate::bots::bot::{builtin_hash, content_hash, is_builtin_name};
use crate::play::games::Find;
use crate::play::person::{is_person, Person, PersonBot};
use crate::play::registry::{BotSource, Loader};
use crate::play::runner::BotEntry;
use crate::play::{Hosted, Match};
use crate::tournament::store::Packer;
use crate::tournament::MatchSummary;

/// How a worker runs.
#[derive(Clone, Debug)]
pub struct WorkerOptions {
    /// The games a job may name, and how each plays a job's match (`cardarena::Games`).
    pub games: Arc<dyn Find<JobOps>>,
    /// The worker's name in the queue (leases, results, `--status`).
    pub name: String,
    /// How long a claim lasts without a heartbeat.
    pub lease: Duration,
    /// Only jobs of this group (`None`: any).
    pub group: Option<String>,
    /// Return when no job can be claimed (else wait `poll` and try again, until stopped).
    pub until_empty: bool,
    /// How long to wait between claims when the queue is empty.
    pub poll: Duration,
    /// Stop after this many jobs (`None`: no limit).
    pub max_jobs: Option<u64>,
    /// A folder of compiled WASM bots, by the engine's compatibility hash and the bot's content
    /// hash (`DIR/COMPAT/HASH.cwasm`), shared by the worker processes of a machine: a bot is
    /// compiled once per machine, not once per process (`None`: no such cache). Only the host
    /// may write there: the code in it runs unchecked.
    pub wasm_cache: Option<std::path::PathBuf>,
    /// Who plays a job's person seats (`human:<who>`, [`crate::play::person`]); `None`: a job
    /// with a person seat fails (this worker cannot reach people).
    pub people: Option<People>,
    /// Work of the embedder's own done between matches (the web ladder's analyses); `None`:
    /// none.
    pub side_work: Option<SideWork>,
}

/// Work a worker does beside its matches, at a lower priority: asked with `idle = true` when
/// the queue has no job for the worker (an idle worker asks again at once while it finds
/// some, before it waits or, `until_empty`, returns), and with `idle = false` after each batch
/// of matches (where it should do only what has waited long, and rarely). Returns whether it
/// did something. Its failures are its own to record (a worker does not stop for them).
#[derive(Clone)]
pub struct SideWork(pub Arc<dyn Fn(bool) -> bool + Send + Sync>);

impl std::fmt::Debug for SideWork {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("SideWork(..)")
    }
}

/// Reaches the person of a job's person seat: given the job's key and the seat, the
/// [`Person`] who plays it (the web ladder's page, through its database).
#[derive(Clone)]
pub struct People(pub Arc<FindPerson>);

/// How [`People`] finds a person: from the job's key and the seat, or why not (the embedder's
/// own error, which the job's failure quotes).
pub type FindPerson =
    dyn Fn(&str, usize) -> Result<Box<dyn Person>, Box<dyn std::error::Error + Send + Sync>> + Send + Sync;

impl std::fmt::Debug for People {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("People(..)")
    }
}

impl WorkerOptions {
    /// Options for a worker called `name` that plays the jobs of `games` (`cardarena::Games`):
    /// a 60 s lease, any group, polling every second.
    pub fn new(name: &str, games: Arc<dyn Find<JobOps>>) -> WorkerOptions {
        WorkerOptions {
            games,
            name: name.to_string(),
            lease: Duration::from_secs(60),
            group: None,
            until_empty: false,
            poll: Duration::from_secs(1),
            max_jobs: None,
            wasm_cache: None,
            people: None,
            side_work: None,
        }
    }
}

/// A default worker name: this machine's host name and the process id.
pub fn default_name() -> String {
    let mut buf = [0u8; 256];
    // SAFETY: the buffer is valid for its length; gethostname writes at most that many bytes.
    let ok = unsafe { libc::gethostname(buf.as_mut_ptr().cast(), buf.len()) } == 0;
    let end = buf.iter().position(|&b| b == 0).unwrap_or(buf.len());
    let host = if ok && end > 0 { String::from_utf8_lossy(&buf[..end]).into_owned() } else { "host".into() };
    format!("{host}:{}", std::process::id())
}

/// What a worker did.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct WorkerReport {
    /// Jobs whose result this worker stored first.
    pub stored: u64,
    /// Jobs that had a result with the same hash already (played twice).
    pub duplicates: u64,
    /// Determinism alarms this worker raised (the job's key and both hashes).
    pub alarms: Vec<(String, String, String)>,
    /// Host failures reported (key and error).
    pub failures: Vec<(String, String)>,
    /// When the queue had nothing for this worker: jobs planned by other arena versions that it
    /// refused, by version.
    pub refused: BTreeMap<String, u64>,
    /// WASM bots loaded from the compiled cache ([`WorkerOptions::wasm_cache`]) instead of compiled.
    pub compiled_from_cache: u64,
}

/// Runs the worker loop on `queue` until `stop` is set, the queue is empty (`until_empty`), or
/// `max_jobs` are done. `loader`: the process's loader, for a worker thread in a process that
/// has several (the worker loads and plays on a lane of its sandbox); `None`: the worker makes
/// its own.
///
/// # Errors
/// The queue's database fails. A job the worker cannot play is not an error of the loop: it is
/// reported to the queue ([`JobQueue::fail`]) and listed in the report.
pub fn run(
    queue: &mut dyn JobQueue,
    opts: &WorkerOptions,
    loader: Option<&Loader>,
    stop: &AtomicBool,
) -> Result<WorkerReport, QueueError> {
    let version = super::arena_version();
    let mut report = WorkerReport::default();
    let mut cache = BotCache::new(loader, opts.wasm_cache.clone());
    let mut beat = Heartbeat::none();
    let mut jobs = 0;
    // Jobs claimed at once: as many as play in about BATCH_PLAY (one match's time measured on
    // the batch before), so that short matches share a claim and a commit.
    let mut batch = 1;
    let result = loop {
        if stop.load(Ordering::SeqCst) || opts.max_jobs.is_some_and(|m| jobs >= m) {
            break Ok(());
        }
        let max = opts.max_jobs.map_or(batch, |m| batch.min((m - jobs) as usize));
        let claimed = match queue.claim_some(&opts.name, opts.lease, &version, opts.group.as_deref(), max) {
            Ok(c) => c,
            Err(e) => break Err(e),
        };
        if claimed.is_empty() {
            if opts.side_work.as_ref().is_some_and(|w| (w.0)(true)) {
                continue;
            }
            let status = match queue.status(&version) {
                Ok(s) => s,
                Err(e) => break Err(e),
            };
            report.refused = status.other_versions;
            if opts.until_empty {
                break Ok(());
            }
            sleep_unless(stop, opts.poll);
            continue;
        }
        report.refused.clear();
        jobs += claimed.len() as u64;
        if beat.thread.is_none() {
            match queue.reconnect() {
                Ok(conn) => beat = Heartbeat::start(conn, opts),
                Err(e) => break Err(e),
            }
        }
        let started = Instant::now();
        let mut done: Vec<(i64, JobOutput)> = Vec::new();
        let mut keys: Vec<&str> = Vec::new();
        let mut outcome = Ok(());
        for (k, job) in claimed.iter().enumerate() {
            beat.watch(claimed[k..].iter().map(|j| j.id).collect());
            let one = Instant::now();
            match play_job(&job.key, &job.spec, queue, &mut cache, opts) {
                Ok((packed, hash)) => {
                    done.push((
                        job.id,
                        JobOutput {
                            replay_hash: hash,
                            summary: packed.summary().to_string(),
                            replay: packed.replay().to_vec(),
                            play_ms: one.elapsed().as_millis() as u64,
                        },
                    ));
                    keys.push(&job.key);
                }
                Err(error) => {
                    let error = format!("worker {}: {error}", opts.name);
                    report.failures.push((job.key.clone(), error.clone()));
                    outcome = queue.fail(job.id, &opts.name, &error).map(|_| ());
                }
            }
            if outcome.is_err() {
                break;
            }
            // Results wait for the batch's commit no longer than a batch is meant to take (a
            // batch that holds a person's game, or a slow bot, does not hold the others back).
            if started.elapsed() >= BATCH_PLAY && !done.is_empty() {
                outcome = complete(queue, &opts.name, &mut done, &mut keys, &mut report);
                if outcome.is_err() {
                    break;
                }
            }
        }
        beat.watch(Vec::new());
        if outcome.is_ok() && !done.is_empty() {
            outcome = complete(queue, &opts.name, &mut done, &mut keys, &mut report);
        }
        if let Err(e) = outcome {
            break Err(e);
        }
        let each = started.elapsed() / claimed.len() as u32;
        if let Some(w) = &opts.side_work {
            (w.0)(false);
        }
        batch = (BATCH_PLAY.as_micros() / each.as_micros().max(1)).clamp(1, MAX_BATCH as u128) as usize;
    };
    beat.finish();
    report.compiled_from_cache = cache.from_disk;
    result.map(|()| report)
}

/// How long a worker's batch of claimed jobs is meant to play (see [`run`]).
const BATCH_PLAY: Duration = Duration::from_millis(50);

/// The most jobs a worker claims at once.
const MAX_BATCH: usize = 32;

/// Commits the results in `done` (their keys in `keys`) and counts them in `report`.
fn complete(
    queue: &mut dyn JobQueue,
    worker: &str,
    done: &mut Vec<(i64, JobOutput)>,
    keys: &mut Vec<&str>,
    report: &mut WorkerReport,
) -> Result<(), QueueError> {
    let completions = queue.complete_all(worker, done)?;
    for (c, key) in completions.into_iter().zip(keys.iter()) {
        match c {
            Completion::Stored => report.stored += 1,
            Completion::Duplicate => report.duplicates += 1,
            Completion::Alarm { stored, other } => report.alarms.push((key.to_string(), stored, other)),
        }
    }
    done.clear();
    keys.clear();
    Ok(())
}

fn sleep_unless(stop: &AtomicBool, total: Duration) {
    let until = Instant::now() + total;
    while !stop.load(Ordering::SeqCst) {
        let left = until.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        std::thread::sleep(left.min(Duration::from_millis(50)));
    }
}

/// The lease keeper: a thread that, while a job is being played, extends its lease every third
/// of the lease, on a connection of its own (opened when the first job is claimed).
struct Heartbeat {
    shared: Arc<(Mutex<BeatState>, Condvar)>,
    thread: Option<std::thread::JoinHandle<()>>,
}

#[derive(Default)]
struct BeatState {
    /// The jobs claimed and not yet done, and when their leases were last extended.
    jobs: Option<(Vec<i64>, Instant)>,
    done: bool,
}

impl Heartbeat {
    fn none() -> Heartbeat {
        Heartbeat { shared: Arc::default(), thread: None }
    }

    fn start(mut conn: Box<dyn JobQueue>, opts: &WorkerOptions) -> Heartbeat {
        let shared: Arc<(Mutex<BeatState>, Condvar)> = Arc::default();
        let (name, lease) = (opts.name.clone(), opts.lease);
        let every = (lease / 3).max(Duration::from_millis(10));
        let state = shared.clone();
        let thread = std::thread::spawn(move || {
            let (lock, wake) = &*state;
            let mut st = lock.lock().expect("heartbeat lock");
            loop {
                if st.done {
                    break;
                }
                st = wake.wait_timeout(st, every).expect("heartbeat lock").0;
                if let Some((ids, _)) = st.jobs.take().filter(|(_, last)| last.elapsed() >= every) {
                    st.jobs = Some((ids.clone(), Instant::now()));
                    drop(st);
                    // A lost lease (`false`) or a failed write changes nothing here: the result
                    // is stored idempotently whoever plays the job again.
                    for id in ids {
                        let _ = conn.heartbeat(id, &name, lease);
                    }
                    st = lock.lock().expect("heartbeat lock");
                }
            }
        });
        Heartbeat { shared, thread: Some(thread) }
    }

    fn watch(&self, jobs: Vec<i64>) {
        let mut st = self.shared.0.lock().expect("heartbeat lock");
        let last = st.jobs.as_ref().map_or_else(Instant::now, |(_, last)| *last);
        st.jobs = (!jobs.is_empty()).then_some((jobs, last));
    }

    fn finish(mut self) {
        self.shared.0.lock().expect("heartbeat lock").done = true;
        self.shared.1.notify_all();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The bots a worker has loaded, by content hash and name.
struct BotCache<'s> {
    parent: Option<&'s Loader>,
    loader: Option<Loader>,
    programs: BTreeMap<(String, String), BotSource>,
    /// The compiled WASM cache's folder for this engine (`DIR/COMPAT`), if any.
    disk: Option<std::path::PathBuf>,
    /// WASM bots loaded from it.
    from_disk: u64,
}

impl<'s> BotCache<'s> {
    fn new(parent: Option<&'s Loader>, disk: Option<std::path::PathBuf>) -> BotCache<'s> {
        BotCache { parent, loader: None, programs: BTreeMap::new(), disk, from_disk: 0 }
    }

    /// A WASM bot from the compiled cache, if it is there and loads.
    fn cached(&mut self, file: &str, hash: &str) -> Option<cardarena_sandbox::Program> {
        let dir = self.disk.clone()?;
        let sandbox = self.loader().ok()?.sandbox().ok()?;
        let code =
            std::fs::read(dir.join(sandbox.compatibility_hash()).join(format!("{hash}.cwasm"))).ok()?;
        // SAFETY: the cache holds only what `store` wrote (`Program::compiled` of the module
        // with this content hash), in a folder only the host writes (WorkerOptions::wasm_cache).
        let program = unsafe { sandbox.load_compiled(file, hash, &code) }.ok()?;
        self.from_disk += 1;
        Some(program)
    }

    /// Keeps a WASM bot's compiled code in the cache (best effort: a cache that cannot be
    /// written only costs a compile later). Written to a temporary file and renamed, so that a
    /// reader never sees half a file.
    fn store(&mut self, hash: &str, program: &cardarena_sandbox::Program) {
        let (Some(dir), Some(code)) = (self.disk.clone(), program.compiled()) else {
            return;
        };
        let Ok(sandbox) = self.loader().and_then(|l| l.sandbox().map_err(|e| e.to_string())) else {
            return;
        };
        let dir = dir.join(sandbox.compatibility_hash());
        let tmp = dir.join(format!("{hash}.{}.tmp", std::process::id()));
        let _ = std::fs::create_dir_all(&dir)
            .and_then(|()| std::fs::write(&tmp, code))
            .and_then(|()| std::fs::rename(&tmp, dir.join(format!("{hash}.cwasm"))));
    }

    /// This worker's loader: on a lane of the parent's sandbox, or its own.
    fn loader(&mut self) -> Result<&Loader, String> {
        if self.loader.is_none() {
            let made = match self.parent {
                Some(p) => p.lane().map_err(|e| e.to_string())?,
                None => Loader::new(),
            };
            self.loader = Some(made);
        }
        Ok(self.loader.as_ref().expect("just made"))
    }

    /// The bot of one seat: a built-in, a program from the queue's bot store, or a bot the
    /// planner could not load.
    fn source<G: Hosted>(&mut self, seat: &SeatSpec, queue: &mut dyn JobQueue) -> Result<BotSource, String> {
        let name = &seat.name;
        if let Some(error) = &seat.failed {
            return Ok(BotSource::Failed {
                name: name.clone(),
                hash: seat.hash.clone(),
                error: error.clone(),
            });
        }
        if is_builtin_name(name) {
            let here = builtin_hash(name);
            if here != seat.hash {
                return Err(format!(
                    "the built-in bot {name:?} of this arena has hash {here}, the job wants {}",
                    seat.hash
                ));
            }
            return self.loader()?.resolve::<G>(name).map_err(|e| e.to_string());
        }
        let key = (seat.hash.clone(), name.clone());
        if let Some(source) = self.programs.get(&key) {
            return Ok(source.clone());
        }
        let path = Path::new(name);
        let kind = Kind::from_path(path).ok_or_else(|| {
            format!("seat {name:?} is neither a built-in nor a .lua, .js, .py, .wasm or .wat bot; a job names bots as a tournament does")
        })?;
        let file = path.file_name().map_or_else(|| name.clone(), |n| n.to_string_lossy().into_owned());
        if kind == Kind::Wasm {
            if let Some(program) = self.cached(&file, &seat.hash) {
                let source = BotSource::File { name: name.clone(), program };
                self.programs.insert(key, source.clone());
                return Ok(source);
            }
        }
        let bytes = queue.bot(&seat.hash).map_err(|e| e.to_string())?.ok_or_else(|| {
            format!(
                "bot {name:?} ({}) is not in the queue's bot store; enqueue its bytes with the job",
                seat.hash
            )
        })?;
        if content_hash(&bytes) != seat.hash {
            return Err(format!("the queue's bytes for bot {name:?} do not have its hash {}", seat.hash));
        }
        // A program that does not load is the bot's verdict (`BotSource::Failed`), not a host
        // failure to retry: the same bytes never load.
        let source = self.loader()?.load_program::<G>(name, &bytes).map_err(|e| e.to_string())?;
        if let BotSource::File { program, .. } = &source {
            self.store(&seat.hash, program);
        }
        self.programs.insert(key, source.clone());
        Ok(source)
    }
}

/// Plays the match of a job's spec (JSON) and packs its result.
fn play_job(
    key: &str,
    spec: &str,
    queue: &mut dyn JobQueue,
    cache: &mut BotCache,
    opts: &WorkerOptions,
) -> Result<(crate::tournament::store::Packed, String), String> {
    let spec: JobSpec =
        serde_json::from_str(spec).map_err(|e| format!("the job's spec does not parse: {e}"))?;
    let JobOps(play_spec) = opts.games.find(&spec.game).map_err(|e| e.to_string())?;
    play_spec(key, &spec, queue, cache, opts.people.as_ref())
}

/// How a game plays a job's match: what the list of games keeps per game for
/// [`WorkerOptions::games`].
#[derive(Clone, Copy)]
pub struct JobOps(PlaySpec);

type PlaySpec = fn(
    &str,
    &JobSpec,
    &mut dyn JobQueue,
    &mut BotCache,
    Option<&People>,
) -> Result<(crate::tournament::store::Packed, String), String>;

impl JobOps {
    /// Game `G`'s.
    pub fn of<G: Hosted>() -> JobOps {
        JobOps(play_spec::<G>)
    }
}

fn play_spec<G: Hosted>(
    key: &str,
    spec: &JobSpec,
    queue: &mut dyn JobQueue,
    cache: &mut BotCache,
    people: Option<&People>,
) -> Result<(crate::tournament::store::Packed, String), String> {
    let variant = crate::play::registry::variant::<G>(Some(&spec.variant)).map_err(|e| format!("{e:#}"))?;
    if spec.seats.len() != G::PLAYERS {
        return Err(format!("{} has {} seats, the job names {} bots", G::NAME, G::PLAYERS, spec.seats.len()));
    }
    let mut table = Match::<G>::new(variant, spec.seed);
    for (k, seat) in spec.seats.iter().enumerate() {
        if is_person(&seat.name) {
            let people = people.ok_or_else(|| {
                format!("seat {k} is a person ({}); this worker cannot reach people (a ladder's `arena worker --group ladder` can)", seat.name)
            })?;
            let person = (people.0)(key, k).map_err(|e| e.to_string())?;
            let entry = BotEntry { name: seat.name.clone(), hash: seat.hash.clone() };
            table = table.seat_bot(entry, Box::new(PersonBot::new(person)));
            continue;
        }
        let source = cache.source::<G>(seat, queue)?;
        let entry = BotEntry { name: seat.name.clone(), hash: seat.hash.clone() };
        table = table.seat_with(entry, &source, source.limits(&spec.limits).as_ref());
    }
    let (replay, memory) = table.play_measured(&mut crate::play::runner::Quiet);
    Ok(Packer::new().pack_hashed(&MatchSummary::measured(&replay, memory), &replay))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Game;
    use crate::tournament::queue::sqlite::SqliteQueue;
    use crate::tournament::queue::{NewJob, SeatSpec};

    const FIRST: &str = "function act(obs) return obs.legal[1] end\n";

    fn temp(name: &str) -> (std::path::PathBuf, SqliteQueue) {
        let dir = std::env::temp_dir().join(format!("cardarena-worker-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let q = SqliteQueue::open(&dir.join("q.db")).unwrap();
        (dir, q)
    }

    fn spec(seed: u64, seats: Vec<SeatSpec>) -> JobSpec {
        JobSpec { game: "ecard".into(), variant: "readme".into(), seed, seats, limits: Default::default() }
    }

    /// A job's result is the match a local `Match` plays: the same replay, hence the same hash.
    #[test]
    fn a_worker_plays_every_job_as_a_local_match_would() {
        let (dir, mut q) = temp("play");
        let lua = SeatSpec::program("bots/first.lua", FIRST.as_bytes());
        q.put_bots(&[(lua.hash.clone(), FIRST.as_bytes().to_vec())]).unwrap();
        let jobs: Vec<NewJob> = (0..3)
            .map(|seed| NewJob::new("test", spec(seed, vec![lua.clone(), SeatSpec::builtin("greedy")])))
            .collect();
        q.enqueue(&jobs).unwrap();
        let mut opts = WorkerOptions::new("w", std::sync::Arc::new(crate::Games::builtin()));
        opts.until_empty = true;
        let report = run(&mut q, &opts, None, &AtomicBool::new(false)).unwrap();
        assert_eq!((report.stored, report.failures.len()), (3, 0), "{report:?}");
        let keys: Vec<String> = jobs.iter().map(|j| j.key.clone()).collect();
        let results = q.results(&keys).unwrap();
        // the same match played here, through the loader and `Match`
        let file = dir.join("first.lua");
        std::fs::write(&file, FIRST).unwrap();
        let loader = crate::play::registry::Loader::new();
        let local = loader.resolve::<crate::games::ecard::Ecard>(file.to_str().unwrap()).unwrap();
        let greedy = loader.resolve::<crate::games::ecard::Ecard>("greedy").unwrap();
        for (seed, key) in keys.iter().enumerate() {
            let limits = Default::default();
            let replay = Match::<crate::games::ecard::Ecard>::new(
                crate::games::ecard::Ecard::variants()[0],
                seed as u64,
            )
            .seat_with(
                BotEntry { name: "bots/first.lua".into(), hash: lua.hash.clone() },
                &local,
                local.limits(&limits).as_ref(),
            )
            .seat(&greedy, &limits)
            .play();
            let json = serde_json::to_vec(&replay).unwrap();
            assert_eq!(results[key].replay_hash, content_hash(&json), "seed {seed}");
            let summary: MatchSummary = serde_json::from_str(&results[key].summary).unwrap();
            // The worker measured the Lua seat's memory; the built-in has none.
            assert!(summary.memory_peak[0].is_some_and(|m| m > 0), "{summary:?}");
            assert_eq!(summary.memory_peak[1], None);
            assert_eq!(MatchSummary { memory_peak: Vec::new(), ..summary }, MatchSummary::of(&replay));
            let stored = crate::tournament::store::unpack(&q.replay(key).unwrap().unwrap()).unwrap();
            assert_eq!(stored.as_bytes(), &json[..]);
        }
        // playing the jobs again (a second delivery) stores nothing and raises no alarm
        let mut again = q.reconnect().unwrap();
        again.enqueue(&[NewJob { key: "other".into(), ..jobs[0].clone() }]).unwrap();
        let report = run(again.as_mut(), &opts, None, &AtomicBool::new(false)).unwrap();
        assert_eq!((report.stored, report.alarms.len()), (1, 0));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_job_that_cannot_be_played_fails_with_a_reason_and_other_versions_are_refused() {
        let (dir, mut q) = temp("fail");
        let missing = SeatSpec::program("gone.lua", b"function act(o) return o.legal[1] end");
        let mut job = NewJob::new("test", spec(1, vec![missing, SeatSpec::builtin("random")]));
        job.max_attempts = 1;
        let mut old =
            NewJob::new("test", spec(2, vec![SeatSpec::builtin("random"), SeatSpec::builtin("random")]));
        old.version = "0.0.1+old".into();
        old.key = crate::tournament::queue::job_key(&old.version, &old.spec);
        q.enqueue(&[job.clone(), old]).unwrap();
        let mut opts = WorkerOptions::new("w", std::sync::Arc::new(crate::Games::builtin()));
        opts.until_empty = true;
        let report = run(&mut q, &opts, None, &AtomicBool::new(false)).unwrap();
        assert_eq!(report.stored, 0);
        assert_eq!(report.failures.len(), 1);
        assert!(report.failures[0].1.contains("not in the queue's bot store"), "{:?}", report.failures);
        assert_eq!(report.refused.get("0.0.1+old"), Some(&1));
        let st = q.status(&crate::tournament::queue::arena_version()).unwrap();
        assert_eq!(st.failed, 1);
        assert!(st.failures[0].error.contains("gone.lua"));
        std::fs::remove_dir_all(dir).ok();
    }

    /// A WASM bot is compiled once per machine: the next worker loads its compiled code from
    /// the cache, with the same results.
    #[test]
    fn a_second_worker_loads_a_wasm_bot_compiled_by_the_first() {
        let (dir, mut q) = temp("wasm");
        let wat =
            std::fs::read(format!("{}/benches/bots/random.wat", concat!(env!("CARGO_MANIFEST_DIR"), "/..")))
                .unwrap();
        let bot = SeatSpec::program("random.wat", &wat);
        q.put_bots(&[(bot.hash.clone(), wat)]).unwrap();
        let jobs: Vec<NewJob> = (0..2)
            .map(|seed| NewJob::new("test", spec(seed, vec![bot.clone(), SeatSpec::builtin("random")])))
            .collect();
        q.enqueue(&jobs[..1]).unwrap();
        let mut opts = WorkerOptions::new("w", std::sync::Arc::new(crate::Games::builtin()));
        opts.until_empty = true;
        opts.wasm_cache = Some(dir.join("cache"));
        let first = run(&mut q, &opts, None, &AtomicBool::new(false)).unwrap();
        assert_eq!((first.stored, first.compiled_from_cache), (1, 0));
        let compat = std::fs::read_dir(dir.join("cache")).unwrap().count();
        assert_eq!(compat, 1, "one folder per engine compatibility hash");
        q.enqueue(&jobs[1..]).unwrap();
        let second = run(&mut q, &opts, None, &AtomicBool::new(false)).unwrap();
        assert_eq!((second.stored, second.compiled_from_cache), (1, 1));
        // the same match as a worker that compiles gives
        let mut fresh = WorkerOptions::new("w2", std::sync::Arc::new(crate::Games::builtin()));
        fresh.until_empty = true;
        let (dir2, mut q2) = temp("wasm2");
        q2.put_bots(&[(
            bot.hash.clone(),
            std::fs::read(format!("{}/benches/bots/random.wat", concat!(env!("CARGO_MANIFEST_DIR"), "/..")))
                .unwrap(),
        )])
        .unwrap();
        q2.enqueue(&jobs[1..]).unwrap();
        run(&mut q2, &fresh, None, &AtomicBool::new(false)).unwrap();
        let key = vec![jobs[1].key.clone()];
        assert_eq!(
            q.results(&key).unwrap()[&key[0]].replay_hash,
            q2.results(&key).unwrap()[&key[0]].replay_hash
        );
        std::fs::remove_dir_all(dir).ok();
        std::fs::remove_dir_all(dir2).ok();
    }

    /// A person seat is played through the worker's `people`, told the job's key and the seat;
    /// a worker without it fails the job with a reason.
    #[test]
    fn a_person_seat_is_asked_through_the_workers_people() {
        struct Last;
        impl Person for Last {
            fn act(&mut self, p: &crate::play::person::Prompt) -> Result<String, crate::bots::bot::Fault> {
                Ok(p.legal.last().unwrap().clone())
            }
        }
        let (dir, mut q) = temp("person");
        let mut job =
            NewJob::new("test", spec(5, vec![SeatSpec::builtin("greedy"), SeatSpec::person("ann")]));
        job.max_attempts = 1;
        q.enqueue(std::slice::from_ref(&job)).unwrap();
        let mut opts = WorkerOptions::new("w", std::sync::Arc::new(crate::Games::builtin()));
        opts.until_empty = true;
        let report = run(&mut q, &opts, None, &AtomicBool::new(false)).unwrap();
        assert!(report.failures[0].1.contains("cannot reach people"), "{:?}", report.failures);
        let mut again = job.clone();
        again.spec.seed = 6;
        again.key = crate::tournament::queue::job_key(&again.version, &again.spec);
        q.enqueue(std::slice::from_ref(&again)).unwrap();
        let asked = Arc::new(Mutex::new(Vec::new()));
        let seen = asked.clone();
        opts.people = Some(People(Arc::new(move |key: &str, seat: usize| {
            seen.lock().unwrap().push((key.to_string(), seat));
            Ok(Box::new(Last) as Box<dyn Person>)
        })));
        let report = run(&mut q, &opts, None, &AtomicBool::new(false)).unwrap();
        assert_eq!(report.stored, 1, "{report:?}");
        assert_eq!(*asked.lock().unwrap(), vec![(again.key.clone(), 1)]);
        let replay: crate::play::runner::Replay = serde_json::from_str(
            &crate::tournament::store::unpack(&q.replay(&again.key).unwrap().unwrap()).unwrap(),
        )
        .unwrap();
        assert_eq!(replay.bots[1].name, "human:ann");
        let person_moves: Vec<_> = replay.decisions.iter().filter(|d| d.seat == 1).collect();
        assert!(!person_moves.is_empty());
        assert!(
            person_moves.iter().all(|d| d.reply.as_ref() == d.legal.last()),
            "the person's moves were played"
        );
        std::fs::remove_dir_all(dir).ok();
    }

    /// While a match plays, the heartbeat keeps the lease: a second worker cannot claim it.
    #[test]
    fn the_heartbeat_extends_the_lease_of_the_job_being_played() {
        let (dir, mut q) = temp("beat");
        q.enqueue(&[NewJob::new(
            "test",
            spec(1, vec![SeatSpec::builtin("random"), SeatSpec::builtin("random")]),
        )])
        .unwrap();
        let lease = Duration::from_millis(300);
        let version = crate::tournament::queue::arena_version();
        let job = q.claim("w", lease, &version, None).unwrap().unwrap();
        let mut opts = WorkerOptions::new("w", std::sync::Arc::new(crate::Games::builtin()));
        opts.lease = lease;
        let beat = Heartbeat::start(q.reconnect().unwrap(), &opts);
        beat.watch(vec![job.id]);
        std::thread::sleep(Duration::from_millis(700));
        assert_eq!(q.claim("other", lease, &version, None).unwrap(), None, "the lease was kept");
        beat.watch(Vec::new());
        beat.finish();
        std::thread::sleep(Duration::from_millis(400));
        assert!(q.claim("other", lease, &version, None).unwrap().is_some(), "without heartbeats it expires");
        std::fs::remove_dir_all(dir).ok();
    }
}
