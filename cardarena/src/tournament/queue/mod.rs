//! The job queue: matches planned by one program, played by any number of worker processes on
//! any number of machines, their results stored once.
//!
//! A **job** is one match, described completely by its [`JobSpec`] (game, variant, deal seed,
//! the bots in seat order by name and content hash, the limits); the bots' bytes are stored in
//! the queue by content hash ([`JobQueue::put_bots`]), so a worker needs nothing but the queue.
//! A match is a pure function of (arena version, spec, bot bytes), so a job's **key**
//! ([`job_key`]) is the hash of the arena version and the spec: the same match planned twice is
//! one job, and a worker of another arena version never plays it.
//!
//! The protocol, the same on every backend:
//! - [`JobQueue::enqueue`] adds jobs (a key already there is left as it is).
//! - [`JobQueue::claim`] takes the oldest job that is queued (of the highest lane,
//!   [`NewJob::priority`]), or running with an expired lease, and leases it to the worker: the lease is a visibility timeout. A claim never returns a job
//!   planned by another arena version; a job whose attempts reached its cap is failed instead.
//!   A job still leased to the claiming worker's name is claimed again at once (a worker claims
//!   only when it holds nothing: that lease is a claim whose answer was lost with the
//!   connection, or its name's before a restart), so give each worker its own name.
//! - [`JobQueue::heartbeat`] extends the lease while the match plays.
//! - [`JobQueue::complete`] inserts the result under the job's key if there is none yet
//!   (idempotent) and marks the job done. A second result for the same key is compared by its
//!   replay hash: the same hash is the expected duplicate of at-least-once delivery; another hash
//!   is a **determinism alarm**, stored ([`JobQueue::status`]) and returned, never dropped.
//! - [`JobQueue::fail`] records a host failure (not a bot's fault: that is a verdict inside the
//!   result): the job is queued again until its attempts reach the cap, then failed.
//! - [`JobQueue::status`] counts jobs by state, lists the running and failed ones, the work done
//!   per worker and the alarms.
//!
//! At-least-once delivery plus the idempotent insert is exactly-once: a worker that dies
//! mid-match loses its lease, another worker plays the job again, and one row is stored.
//!
//! Backends: [`sqlite`] (one machine: `BEGIN IMMEDIATE` claims, WAL) and, with the cargo
//! feature `postgres`, [`postgres`] (many machines: `FOR UPDATE SKIP LOCKED` claims). [`open`]
//! picks one from a URL. [`worker::run`] is the worker loop (claim, play through
//! [`crate::play::Match`], complete); [`tournament`] plays a tournament file's matches as jobs
//! and reads its standings back. The queue itself knows no tournament: the web ladder enqueues
//! its own jobs (a duplicate set of one deal, every seat rotation) with its own group name.

#[cfg(feature = "postgres")]
pub mod postgres;
pub mod retry;
pub mod sqlite;
pub mod tournament;
pub mod worker;

use std::collections::BTreeMap;
use std::time::Duration;

use serde::{Deserialize, Serialize};

use crate::play::limits::LimitsConfig;

/// The arena version a job is planned for: the crate version and the sandbox's cost model (a
/// change to either can change a match's result). Part of every job's key.
pub fn arena_version() -> String {
    let model = crate::bots::bot::content_hash(cardarena_sandbox::COST_MODEL.as_bytes());
    format!("{}+{}", env!("CARGO_PKG_VERSION"), &model[..12])
}

/// Everything that decides a match, apart from the arena version and the bots' bytes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JobSpec {
    /// The game's name (`blade`, `ecard`, `lost-cities`, `intensity`).
    pub game: String,
    /// The variant's name.
    pub variant: String,
    /// The deal seed.
    pub seed: u64,
    /// The bots in seat order.
    pub seats: Vec<SeatSpec>,
    /// The limits of the Lua and WASM bots, layered on their kind's defaults.
    #[serde(default)]
    pub limits: LimitsConfig,
}

/// One seat of a job.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeatSpec {
    /// The bot's name as recorded in the replay: a built-in (`greedy`, `strong:2`) or a file
    /// name ending in `.lua`, `.wasm` or `.wat` (its file name is the program's name, as when
    /// loaded from a file).
    pub name: String,
    /// The content hash: a built-in's hash, or the SHA-256 of the program's bytes, which the
    /// queue holds ([`JobQueue::put_bots`]).
    pub hash: String,
    /// The error with which the planner could not load this bot, if it could not: the seat then
    /// faults with the verdict `load` at the start, as in a local tournament.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failed: Option<String>,
}

impl SeatSpec {
    /// A built-in bot (`random`, `greedy`, `strong:2`, `nash`) of this arena.
    pub fn builtin(name: &str) -> SeatSpec {
        SeatSpec { name: name.to_string(), hash: crate::bots::bot::builtin_hash(name), failed: None }
    }

    /// A program named `name` (ending in `.lua`, `.wasm` or `.wat`) with these bytes; store the
    /// bytes with [`JobQueue::put_bots`] under the seat's hash.
    pub fn program(name: &str, bytes: &[u8]) -> SeatSpec {
        SeatSpec { name: name.to_string(), hash: crate::bots::bot::content_hash(bytes), failed: None }
    }

    /// A person called `who` (`human:<who>`), played through the worker's
    /// [`worker::People`] ([`crate::play::person`]).
    pub fn person(who: &str) -> SeatSpec {
        let entry = crate::play::person::person_entry(who);
        SeatSpec { name: entry.name, hash: entry.hash, failed: None }
    }
}

/// The key of a job: the SHA-256 of the arena version and the spec's JSON.
pub fn job_key(version: &str, spec: &JobSpec) -> String {
    let json = serde_json::to_string(spec).expect("job specs serialize");
    crate::bots::bot::content_hash(format!("{version}\n{json}").as_bytes())
}

/// A job to add to the queue.
#[derive(Clone, Debug, PartialEq)]
pub struct NewJob {
    /// Its key ([`job_key`] of `version` and `spec`).
    pub key: String,
    /// What the jobs belong to (a tournament event, a ladder), for listing and waiting.
    pub group: String,
    /// The arena version it is planned for.
    pub version: String,
    /// The match.
    pub spec: JobSpec,
    /// How many times it may be claimed before it fails for good.
    pub max_attempts: u32,
    /// Its lane: a claim takes the queued jobs of the highest lane first, then the oldest
    /// ([`PRIORITY_LANE`] for the jobs a person waits on, 0 for the rest).
    pub priority: i32,
}

/// The lane of the jobs a person is waiting on (a try of a bot in the ladder's garage): claimed
/// before every queued job of lane 0, whatever their age.
pub const PRIORITY_LANE: i32 = 1;

impl NewJob {
    /// A job of `group` for this arena version, with the default attempts cap.
    pub fn new(group: &str, spec: JobSpec) -> NewJob {
        let version = arena_version();
        NewJob {
            key: job_key(&version, &spec),
            group: group.to_string(),
            version,
            spec,
            max_attempts: 3,
            priority: 0,
        }
    }

    /// This job in lane `priority` ([`NewJob::priority`]).
    pub fn in_lane(self, priority: i32) -> NewJob {
        NewJob { priority, ..self }
    }
}

/// A job leased to a worker by [`JobQueue::claim`].
#[derive(Clone, Debug, PartialEq)]
pub struct Claimed {
    /// The job's id in the queue.
    pub id: i64,
    /// Its key.
    pub key: String,
    /// Its group.
    pub group: String,
    /// The match, as JSON text (parsed by the worker, which reports a spec it cannot read).
    pub spec: String,
    /// This claim's attempt number (1 for the first).
    pub attempt: u32,
}

/// The result of a job, as a worker hands it to [`JobQueue::complete`].
#[derive(Clone, Debug, PartialEq)]
pub struct JobOutput {
    /// SHA-256 of the replay's JSON: two runs of a job must agree on it.
    pub replay_hash: String,
    /// The match summary (`tournament::MatchSummary`) as JSON.
    pub summary: String,
    /// The replay, zstd-compressed JSON (as `tournament::store` stores them).
    pub replay: Vec<u8>,
    /// Wall time of the match in milliseconds (throughput in [`Status`], never a result).
    pub play_ms: u64,
}

/// What [`JobQueue::complete`] did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Completion {
    /// The first result of this key: stored.
    Stored,
    /// A result with the same replay hash was there already (a job run twice): nothing stored.
    Duplicate,
    /// A result with another replay hash was there: the alarm is stored, the first result kept.
    Alarm {
        /// The hash stored first.
        stored: String,
        /// This result's hash.
        other: String,
    },
}

/// What [`JobQueue::fail`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The job is queued again.
    Requeued,
    /// The job reached its attempts cap: failed for good.
    Failed,
    /// The job was no longer this worker's (its lease expired): nothing changed.
    NotOurs,
}

/// A stored result, without its replay.
#[derive(Clone, Debug, PartialEq)]
pub struct StoredResult {
    /// The replay's hash.
    pub replay_hash: String,
    /// The match summary as JSON.
    pub summary: String,
    /// The worker that stored it.
    pub worker: String,
}

/// The state of a queue, for `arena tournament --status`.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Status {
    /// Jobs queued (waiting for a worker), for this arena version.
    pub queued: u64,
    /// Jobs running (leased).
    pub running: u64,
    /// Jobs done.
    pub done: u64,
    /// Jobs failed for good.
    pub failed: u64,
    /// Jobs not done that were planned by another arena version, by version.
    pub other_versions: BTreeMap<String, u64>,
    /// The running jobs.
    pub leases: Vec<Lease>,
    /// The failed jobs (at most 50), with their last error.
    pub failures: Vec<FailedJob>,
    /// Work done per worker.
    pub workers: Vec<WorkerStats>,
    /// Determinism alarms.
    pub alarms: Vec<Alarm>,
}

impl Status {
    /// Counts `n` jobs in `state` planned by arena `version` (`ours`: the asker's version).
    pub fn add_jobs(&mut self, state: &str, ours: bool, version: String, n: u64) {
        match state {
            "queued" if !ours => *self.other_versions.entry(version).or_default() += n,
            "queued" => self.queued += n,
            "running" => self.running += n,
            "done" => self.done += n,
            _ => self.failed += n,
        }
    }
}

/// A running job.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Lease {
    /// The job's key.
    pub key: String,
    /// The worker holding it.
    pub worker: String,
    /// Seconds until the lease expires (negative: expired, another worker may claim it).
    pub expires_in: f64,
    /// The attempt number.
    pub attempt: u32,
}

/// A job that failed for good.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct FailedJob {
    /// The job's key.
    pub key: String,
    /// How many times it was tried.
    pub attempts: u32,
    /// The last error.
    pub error: String,
}

/// One worker's work.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WorkerStats {
    /// The worker's name.
    pub worker: String,
    /// Results it stored.
    pub matches: u64,
    /// Matches per second of its own playing time.
    pub per_second: f64,
}

/// A determinism alarm: two runs of one job whose replays differ.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Alarm {
    /// The job's key.
    pub key: String,
    /// The hash stored first.
    pub stored: String,
    /// The other run's hash.
    pub other: String,
    /// The worker of the other run.
    pub worker: String,
}

/// A job-queue failure: the database's or the request's, never a bot's.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// The database refused or failed (the message names it and what was being done).
    #[error("job queue {db}: {what}: {message}")]
    Db {
        /// The database (a path or a URL without its password).
        db: String,
        /// What was being done.
        what: &'static str,
        /// The database's message.
        message: String,
    },
    /// The database is out of reach for now (refused or closed connection, a server shutting
    /// down or starting up, a file locked by another process): worth trying again
    /// ([`retry::Resilient`]).
    #[error("job queue {db}: {what}: {message}")]
    Unavailable {
        /// The database (a path or a URL without its password).
        db: String,
        /// What was being done.
        what: &'static str,
        /// The database's message.
        message: String,
    },
    /// The URL names no backend this build has.
    #[error("{0}")]
    Url(String),
}

impl QueueError {
    /// Whether the same call may succeed later ([`QueueError::Unavailable`]).
    pub fn is_transient(&self) -> bool {
        matches!(self, QueueError::Unavailable { .. })
    }

    /// This transient error as a permanent one, after retrying it (`why` says how long, and
    /// why no longer).
    fn gave_up(self, why: &str) -> QueueError {
        match self {
            QueueError::Unavailable { db, what, message } => QueueError::Db {
                db,
                what,
                message: format!("{message} ({why}; --give-up-after sets how long)"),
            },
            e => e,
        }
    }
}

impl From<QueueError> for crate::play::HostError {
    fn from(e: QueueError) -> Self {
        match e {
            QueueError::Db { db, what, message } | QueueError::Unavailable { db, what, message } => {
                crate::play::HostError::Store {
                    what: format!("job queue {db}: {what}"),
                    source: message.into(),
                }
            }
            QueueError::Url(m) => crate::play::HostError::Request(m),
        }
    }
}

/// One job queue. Every method is one short transaction; a worker holds no transaction while
/// it plays. Implementations: [`sqlite::SqliteQueue`] and, with the feature `postgres`,
/// `postgres::PgQueue`.
pub trait JobQueue: Send {
    /// Another connection to the same queue (a worker's heartbeat thread, another worker thread).
    ///
    /// # Errors
    /// The database cannot be opened.
    fn reconnect(&self) -> Result<Box<dyn JobQueue>, QueueError>;

    /// The database, for messages (a URL without its password).
    fn name(&self) -> String;

    /// Adds jobs; keys already in the queue are left as they are. Returns how many were new.
    ///
    /// # Errors
    /// Database errors.
    fn enqueue(&mut self, jobs: &[NewJob]) -> Result<u64, QueueError>;

    /// Stores bot programs by content hash (bytes already there are left as they are).
    ///
    /// # Errors
    /// Database errors.
    fn put_bots(&mut self, bots: &[(String, Vec<u8>)]) -> Result<(), QueueError>;

    /// The bytes of the bot with content hash `hash`, if stored.
    ///
    /// # Errors
    /// Database errors.
    fn bot(&mut self, hash: &str) -> Result<Option<Vec<u8>>, QueueError>;

    /// Leases the oldest claimable job of arena version `version` (and of `group`, if given) to
    /// `worker` for `lease`.
    ///
    /// # Errors
    /// Database errors.
    fn claim(
        &mut self,
        worker: &str,
        lease: Duration,
        version: &str,
        group: Option<&str>,
    ) -> Result<Option<Claimed>, QueueError>;

    /// Leases up to `max` of the oldest claimable jobs at once, each as [`JobQueue::claim`]
    /// leases one, for a worker whose matches are short: one transaction instead of `max`. The
    /// default claims one.
    ///
    /// # Errors
    /// Database errors.
    fn claim_some(
        &mut self,
        worker: &str,
        lease: Duration,
        version: &str,
        group: Option<&str>,
        max: usize,
    ) -> Result<Vec<Claimed>, QueueError> {
        let _ = max;
        Ok(self.claim(worker, lease, version, group)?.into_iter().collect())
    }

    /// Stores the results of several jobs, each as [`JobQueue::complete`] does (in one
    /// transaction where the queue can). The default completes them one by one.
    ///
    /// # Errors
    /// Database errors, or a job that is not there.
    fn complete_all(
        &mut self,
        worker: &str,
        done: &[(i64, JobOutput)],
    ) -> Result<Vec<Completion>, QueueError> {
        done.iter().map(|(id, output)| self.complete(*id, worker, output)).collect()
    }

    /// Extends `worker`'s lease on job `id` to `lease` from now; `false` if the job is no longer
    /// leased to it.
    ///
    /// # Errors
    /// Database errors.
    fn heartbeat(&mut self, id: i64, worker: &str, lease: Duration) -> Result<bool, QueueError>;

    /// Stores the result of job `id` (see the module comment).
    ///
    /// # Errors
    /// Database errors, or no job `id`.
    fn complete(&mut self, id: i64, worker: &str, output: &JobOutput) -> Result<Completion, QueueError>;

    /// Records a host failure of `worker` on job `id`.
    ///
    /// # Errors
    /// Database errors.
    fn fail(&mut self, id: i64, worker: &str, error: &str) -> Result<Failure, QueueError>;

    /// The queue's state, `version` being the arena version of the one asking.
    ///
    /// # Errors
    /// Database errors.
    fn status(&mut self, version: &str) -> Result<Status, QueueError>;

    /// The stored results of the jobs with these keys (keys without a result are absent).
    ///
    /// # Errors
    /// Database errors.
    fn results(&mut self, keys: &[String]) -> Result<BTreeMap<String, StoredResult>, QueueError>;

    /// The states of the jobs with these keys (`queued`, `running`, `done`, `failed`; keys not
    /// in the queue are absent), with the last error of each.
    ///
    /// # Errors
    /// Database errors.
    fn states(&mut self, keys: &[String]) -> Result<BTreeMap<String, (String, Option<String>)>, QueueError>;

    /// The stored replay (zstd JSON) of the job with this key.
    ///
    /// # Errors
    /// Database errors.
    fn replay(&mut self, key: &str) -> Result<Option<Vec<u8>>, QueueError>;
}

/// Whether `db` names a job queue (a URL: `sqlite:PATH`, `postgres://…`, `postgresql://…`)
/// rather than a local results database file.
pub fn is_queue_url(db: &str) -> bool {
    db.starts_with("sqlite:") || db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// Opens the queue at `url`: `sqlite:PATH` (a file, created if needed) or, in a build with
/// the feature `postgres`, `postgres://user@host:port/db`.
///
/// # Errors
/// The database cannot be opened, or the URL names a backend this build lacks.
pub fn open(url: &str) -> Result<Box<dyn JobQueue>, QueueError> {
    if let Some(path) = url.strip_prefix("sqlite:") {
        let path = path.strip_prefix("//").unwrap_or(path);
        return Ok(Box::new(sqlite::SqliteQueue::open(std::path::Path::new(path))?));
    }
    if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        #[cfg(feature = "postgres")]
        return Ok(Box::new(postgres::PgQueue::connect(url)?));
        #[cfg(not(feature = "postgres"))]
        return Err(QueueError::Url(format!(
            "{}: this arena was built without PostgreSQL; build it with `cargo build --release --features postgres`, or use sqlite:PATH",
            redact(url)
        )));
    }
    Err(QueueError::Url(format!(
        "{url:?} is not a job-queue URL: use sqlite:PATH (one machine) or postgres://USER@HOST:PORT/DB (many)"
    )))
}

/// Opens the queue at `url` as [`open`] does, behind [`retry::Resilient`]: the opening and
/// every call after ride out an outage of up to `retry.give_up` (a worker, a tournament waiting
/// for its workers). On SQLite a lock held by another process is met after 1 s instead of 60 s,
/// and then retried as any other outage.
///
/// # Errors
/// As [`open`]: a permanent error at once, a transient one past the give-up time.
pub fn open_resilient(url: &str, retry: retry::Retry) -> Result<Box<dyn JobQueue>, QueueError> {
    let open = || -> Result<Box<dyn JobQueue>, QueueError> {
        match url.strip_prefix("sqlite:") {
            Some(path) => {
                let path = path.strip_prefix("//").unwrap_or(path);
                Ok(Box::new(sqlite::SqliteQueue::open_with(
                    std::path::Path::new(path),
                    sqlite::LockWait::Short,
                )?))
            }
            None => open(url),
        }
    };
    Ok(Box::new(retry::Resilient::open(retry, open)?))
}

/// `url` without its password, for messages.
pub fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => {
            let auth = &url[s + 3..at];
            match auth.find(':') {
                Some(c) => format!("{}{}:***{}", &url[..s + 3], &auth[..c], &url[at..]),
                None => url.to_string(),
            }
        }
        _ => url.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(seed: u64) -> JobSpec {
        JobSpec {
            game: "blade".into(),
            variant: "readme".into(),
            seed,
            seats: vec![
                SeatSpec { name: "random".into(), hash: "h1".into(), failed: None },
                SeatSpec { name: "greedy".into(), hash: "h2".into(), failed: None },
            ],
            limits: LimitsConfig::default(),
        }
    }

    #[test]
    fn a_key_names_the_version_and_every_part_of_the_spec() {
        let k = job_key("1", &spec(1));
        assert_eq!(k, job_key("1", &spec(1)));
        assert_ne!(k, job_key("2", &spec(1)));
        assert_ne!(k, job_key("1", &spec(2)));
        let mut swapped = spec(1);
        swapped.seats.reverse();
        assert_ne!(k, job_key("1", &swapped));
    }

    #[test]
    fn urls_pick_a_backend_and_hide_passwords() {
        assert!(is_queue_url("sqlite:/tmp/q.db") && is_queue_url("postgres://a@b/c"));
        assert!(!is_queue_url("results.db"));
        let err = open("mysql://x").err().unwrap().to_string();
        assert!(err.contains("sqlite:PATH"), "{err}");
        assert_eq!(redact("postgres://me:secret@host:5432/db"), "postgres://me:***@host:5432/db");
        assert_eq!(redact("postgres://me@host/db"), "postgres://me@host/db");
    }
}
