//! Riding out a database that goes away for a while: [`Resilient`] wraps a queue and, when a
//! call fails with a transient error ([`QueueError::is_transient`]: the server refused or
//! closed the connection, it is shutting down or starting up, SQLite's file stays locked), opens
//! a new connection and calls again, waiting 0.1 s, 0.2 s, … up to 2 s between tries, until the
//! call succeeds or the give-up time has passed since its first failure. A permanent error (a
//! database that does not exist, a refused password, a file that is no database) is returned at
//! once.
//!
//! Calling again is safe because every call of the protocol is one transaction that can be
//! repeated (module [`super`]): a claim whose answer was lost leaves a job leased to this worker
//! that another worker claims again once the lease expires; a result stored twice is stored
//! once.
//!
//! An outage is logged twice, whatever the connections and calls that meet it: when it starts
//! (the error, and how long the queue will retry) and when it ends (how long it lasted). A
//! call's first failure is retried at once, on a new connection, and only the second is
//! logged: a connection that was idle through an outage now over fails once, and is replaced
//! without a word.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use super::{Claimed, Completion, Failure, JobOutput, JobQueue, NewJob, QueueError, Status, StoredResult};

/// The default give-up time: long enough for a database server's restart or fail-over.
pub const DEFAULT_GIVE_UP: Duration = Duration::from_secs(300);

/// The longest wait between two tries.
const MAX_DELAY: Duration = Duration::from_secs(2);

/// Where the outage messages go.
pub type Log = Arc<dyn Fn(&str) + Send + Sync>;

/// How a [`Resilient`] queue retries.
#[derive(Clone)]
pub struct Retry {
    /// How long one call keeps trying after its first failure (zero: one more try at once, on
    /// a new connection, then the error).
    pub give_up: Duration,
    /// The outage messages (default: standard error).
    pub log: Log,
    /// Set (Ctrl-C, SIGTERM): stop retrying and return the error (`None`: retry on).
    pub stop: Option<Arc<AtomicBool>>,
}

impl std::fmt::Debug for Retry {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Retry")
            .field("give_up", &self.give_up)
            .field("stop", &self.stop)
            .finish_non_exhaustive()
    }
}

impl Retry {
    /// Retries for `give_up`, logging to standard error.
    pub fn new(give_up: Duration) -> Retry {
        Retry { give_up, log: Arc::new(|m: &str| eprintln!("{m}")), stop: None }
    }
}

impl Default for Retry {
    fn default() -> Retry {
        Retry::new(DEFAULT_GIVE_UP)
    }
}

/// The outage the connections of one [`Resilient`] queue (and its reconnections) are in.
#[derive(Default)]
struct Outage {
    /// When its first failure was met (`None`: no outage).
    since: Option<Instant>,
    /// Failed tries so far.
    failures: u64,
}

/// A queue that rides out transient errors (see the module comment).
pub struct Resilient {
    inner: Box<dyn JobQueue>,
    retry: Retry,
    outage: Arc<Mutex<Outage>>,
}

/// `d` for messages: `300 s`, `1.5 s`.
fn secs(d: Duration) -> String {
    let s = d.as_secs_f64();
    if s >= 10.0 {
        format!("{s:.0} s")
    } else {
        format!("{s:.1} s")
    }
}

impl Resilient {
    /// Opens a queue with `open`, retrying transient errors as any call is retried.
    ///
    /// # Errors
    /// A permanent error, or a transient one past the give-up time.
    pub fn open(
        retry: Retry,
        mut open: impl FnMut() -> Result<Box<dyn JobQueue>, QueueError>,
    ) -> Result<Resilient, QueueError> {
        let outage = Arc::new(Mutex::new(Outage::default()));
        let inner = run_retrying(&retry, &outage, &mut open)?;
        Ok(Resilient { inner, retry, outage })
    }

    /// Calls `f` on the connection, on a new one after each transient failure, until it
    /// succeeds, fails for good, or the give-up time has passed.
    fn call<T>(
        &mut self,
        mut f: impl FnMut(&mut dyn JobQueue) -> Result<T, QueueError>,
    ) -> Result<T, QueueError> {
        let mut fresh = false;
        let (retry, outage) = (self.retry.clone(), self.outage.clone());
        let inner = &mut self.inner;
        run_retrying(&retry, &outage, &mut || {
            if fresh {
                // The last try failed: its connection may be gone (a restarted server).
                *inner = inner.reconnect()?;
            }
            fresh = true;
            f(inner.as_mut())
        })
    }
}

/// Runs `f` until it succeeds, fails with a permanent error, or `retry.give_up` has passed since
/// its first transient failure; logs the start and the end of an outage once.
fn run_retrying<T>(
    retry: &Retry,
    outage: &Mutex<Outage>,
    f: &mut dyn FnMut() -> Result<T, QueueError>,
) -> Result<T, QueueError> {
    let mut first: Option<Instant> = None;
    let mut delay = Duration::from_millis(100);
    loop {
        let tried = Instant::now();
        let error = match f() {
            Ok(v) => {
                let mut o = outage.lock().expect("outage lock");
                if let Some(since) = o.since.take() {
                    (retry.log)(&format!(
                        "job queue: reachable again after {} ({} failed tries)",
                        secs(since.elapsed()),
                        o.failures
                    ));
                    o.failures = 0;
                }
                return Ok(v);
            }
            Err(e) if !e.is_transient() => return Err(e),
            Err(e) => e,
        };
        // The outage started when its first failing try did (a SQLite try waits for the lock).
        if first.is_none() {
            // A connection idle through an outage that is over fails once: the next try, on a
            // new connection, goes at once and, if it succeeds, unlogged.
            first = Some(tried);
            continue;
        }
        let started = first.unwrap_or(tried);
        {
            let mut o = outage.lock().expect("outage lock");
            if o.since.is_none() {
                o.since = Some(started);
                (retry.log)(&format!(
                    "{error}; retrying for up to {} (--give-up-after)",
                    secs(retry.give_up)
                ));
            }
            o.failures += 1;
        }
        let waited = started.elapsed();
        if waited >= retry.give_up {
            return Err(error.gave_up(&format!("gave up after {} of retries", secs(waited))));
        }
        // Sleeps in steps, to stop soon after a stop is asked for.
        let until = Instant::now() + delay.min(retry.give_up - waited);
        while let Some(left) = until.checked_duration_since(Instant::now()).filter(|d| !d.is_zero()) {
            if retry.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst)) {
                return Err(
                    error.gave_up(&format!("stopped while retrying, after {}", secs(started.elapsed())))
                );
            }
            std::thread::sleep(left.min(Duration::from_millis(50)));
        }
        delay = (delay * 2).min(MAX_DELAY);
    }
}

impl JobQueue for Resilient {
    fn reconnect(&self) -> Result<Box<dyn JobQueue>, QueueError> {
        let inner = run_retrying(&self.retry, &self.outage, &mut || self.inner.reconnect())?;
        Ok(Box::new(Resilient { inner, retry: self.retry.clone(), outage: self.outage.clone() }))
    }

    fn name(&self) -> String {
        self.inner.name()
    }

    fn enqueue(&mut self, jobs: &[NewJob]) -> Result<u64, QueueError> {
        self.call(|q| q.enqueue(jobs))
    }

    fn put_bots(&mut self, bots: &[(String, Vec<u8>)]) -> Result<(), QueueError> {
        self.call(|q| q.put_bots(bots))
    }

    fn bot(&mut self, hash: &str) -> Result<Option<Vec<u8>>, QueueError> {
        self.call(|q| q.bot(hash))
    }

    fn claim(
        &mut self,
        worker: &str,
        lease: Duration,
        version: &str,
        group: Option<&str>,
    ) -> Result<Option<Claimed>, QueueError> {
        self.call(|q| q.claim(worker, lease, version, group))
    }

    fn claim_some(
        &mut self,
        worker: &str,
        lease: Duration,
        version: &str,
        group: Option<&str>,
        max: usize,
    ) -> Result<Vec<Claimed>, QueueError> {
        self.call(|q| q.claim_some(worker, lease, version, group, max))
    }

    fn complete_all(
        &mut self,
        worker: &str,
        done: &[(i64, JobOutput)],
    ) -> Result<Vec<Completion>, QueueError> {
        self.call(|q| q.complete_all(worker, done))
    }

    fn heartbeat(&mut self, id: i64, worker: &str, lease: Duration) -> Result<bool, QueueError> {
        self.call(|q| q.heartbeat(id, worker, lease))
    }

    fn complete(&mut self, id: i64, worker: &str, output: &JobOutput) -> Result<Completion, QueueError> {
        self.call(|q| q.complete(id, worker, output))
    }

    fn fail(&mut self, id: i64, worker: &str, error: &str) -> Result<Failure, QueueError> {
        self.call(|q| q.fail(id, worker, error))
    }

    fn status(&mut self, version: &str) -> Result<Status, QueueError> {
        self.call(|q| q.status(version))
    }

    fn results(&mut self, keys: &[String]) -> Result<BTreeMap<String, StoredResult>, QueueError> {
        self.call(|q| q.results(keys))
    }

    fn states(&mut self, keys: &[String]) -> Result<BTreeMap<String, (String, Option<String>)>, QueueError> {
        self.call(|q| q.states(keys))
    }

    fn replay(&mut self, key: &str) -> Result<Option<Vec<u8>>, QueueError> {
        self.call(|q| q.replay(key))
    }
}
