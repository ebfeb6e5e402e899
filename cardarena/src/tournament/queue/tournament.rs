//! A tournament through the job queue: every match of an event becomes a job, workers (local
//! threads, `arena worker` processes anywhere) play them, and the standings are computed from
//! the stored results in plan order, so they are byte-identical to a local run's.

use std::cell::RefCell;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::worker::{self, WorkerOptions};
use super::{JobQueue, JobSpec, NewJob, QueueError, SeatSpec};
use crate::play::registry::{BotSource, Loader};
use crate::play::HostError;
use crate::tournament::schedule::MatchPlan;
use crate::tournament::{Dispatch, DispatchEvent, MatchSummary};

/// Why a tournament's matches could not be played through the queue.
#[derive(Debug, thiserror::Error)]
pub enum DispatchError {
    /// The queue's database failed.
    #[error(transparent)]
    Queue(#[from] QueueError),
    /// A bot cannot be planned as a job (the message names the event and the bot file).
    #[error("{0}")]
    Bot(String),
    /// This process could not run its workers (the sandbox, a thread).
    #[error("{0}")]
    Host(String),
    /// Jobs failed for good (the message names one, its error, and `--status`).
    #[error("{0}")]
    Failed(String),
    /// A stored result does not read back.
    #[error("job {key}: its stored summary does not parse: {message}")]
    Corrupt {
        /// The job's key.
        key: String,
        /// The parser's message.
        message: String,
    },
}

impl From<DispatchError> for HostError {
    fn from(e: DispatchError) -> HostError {
        match e {
            DispatchError::Queue(q) => q.into(),
            DispatchError::Bot(m) => HostError::Request(m),
            DispatchError::Host(m) | DispatchError::Failed(m) => HostError::Host(m),
            e @ DispatchError::Corrupt { .. } => HostError::Damaged(e.to_string()),
        }
    }
}

/// How a tournament uses the queue.
#[derive(Clone, Debug)]
pub struct QueueOptions {
    /// The games the local workers play (`cardarena::Games`).
    pub games: std::sync::Arc<dyn crate::play::games::Find<worker::JobOps>>,
    /// Only plan the jobs and return (`arena tournament --enqueue`).
    pub enqueue_only: bool,
    /// Worker threads in this process (0: only wait for other workers).
    pub threads: usize,
    /// The local workers' lease.
    pub lease: Duration,
    /// How often to look at the queue while waiting for other workers.
    pub poll: Duration,
    /// The local workers' name prefix (`NAME/1`, `NAME/2`, …).
    pub name: String,
}

/// Plays a tournament's events through a job queue ([`crate::tournament::run_dispatched`]).
pub struct QueueDispatch<'a> {
    queue: RefCell<Box<dyn JobQueue>>,
    opts: QueueOptions,
    stop: &'a AtomicBool,
    /// The local workers' loader (each worker thread loads on a lane of its sandbox).
    loader: Loader,
    /// The local workers' connections, opened once (the loop that waits for other workers
    /// runs the local ones again at every look).
    workers: RefCell<Vec<Box<dyn JobQueue>>>,
    /// The keys of every job planned, in plan order (for `alarms`).
    keys: RefCell<Vec<String>>,
    /// Jobs added to the queue by this run.
    added: RefCell<u64>,
}

impl<'a> QueueDispatch<'a> {
    /// A dispatcher on `queue`; `stop` (Ctrl-C) ends the waiting with the results so far.
    pub fn new(queue: Box<dyn JobQueue>, opts: QueueOptions, stop: &'a AtomicBool) -> QueueDispatch<'a> {
        QueueDispatch {
            queue: RefCell::new(queue),
            opts,
            stop,
            loader: Loader::new(),
            workers: RefCell::new(Vec::new()),
            keys: RefCell::new(Vec::new()),
            added: RefCell::new(0),
        }
    }

    /// The keys of the jobs planned so far, in plan order.
    pub fn keys(&self) -> Vec<String> {
        self.keys.borrow().clone()
    }

    /// How many jobs this run added to the queue (the others were there already).
    pub fn added(&self) -> u64 {
        *self.added.borrow()
    }

    /// The determinism alarms raised on this run's jobs.
    ///
    /// # Errors
    /// The queue cannot be read.
    pub fn alarms(&self) -> Result<Vec<super::Alarm>, QueueError> {
        let status = self.queue.borrow_mut().status(&super::arena_version())?;
        let keys = self.keys.borrow();
        Ok(status.alarms.into_iter().filter(|a| keys.contains(&a.key)).collect())
    }

    /// Runs the local worker threads until the queue has nothing left for them.
    fn work(&self, group: &str) -> Result<(), DispatchError> {
        if self.opts.threads == 0 {
            return Ok(());
        }
        self.loader.sandbox().map_err(|e| DispatchError::Host(e.to_string()))?;
        let loader = Some(&self.loader);
        let mut queues = self.workers.borrow_mut();
        while queues.len() < self.opts.threads {
            queues.push(self.queue.borrow().reconnect()?);
        }
        std::thread::scope(|scope| {
            let handles: Vec<_> = queues
                .iter_mut()
                .enumerate()
                .map(|(k, queue)| {
                    let mut opts =
                        WorkerOptions::new(&format!("{}/{}", self.opts.name, k + 1), self.opts.games.clone());
                    opts.lease = self.opts.lease;
                    opts.group = Some(group.to_string());
                    opts.until_empty = true;
                    let stop = self.stop;
                    std::thread::Builder::new()
                        .stack_size(8 << 20)
                        .spawn_scoped(scope, move || worker::run(queue.as_mut(), &opts, loader, stop))
                })
                .collect::<Result<_, _>>()
                .map_err(|e| DispatchError::Host(format!("cannot start the worker threads: {e}")))?;
            for h in handles {
                h.join().map_err(|_| DispatchError::Host("a worker thread panicked".into()))??;
            }
            Ok(())
        })
    }
}

/// The seat of entrant `e` of an event, and its bytes when it is a program.
fn seat(event: &DispatchEvent, e: usize) -> Result<(SeatSpec, Option<Vec<u8>>), DispatchError> {
    let entry = &event.entries[e];
    let spec =
        |failed: Option<String>| SeatSpec { name: entry.name.clone(), hash: entry.hash.clone(), failed };
    Ok(match &event.sources[e] {
        BotSource::Builtin(_) => (spec(None), None),
        BotSource::Failed { error, .. } => (spec(Some(error.clone())), None),
        BotSource::Legacy { .. } => {
            return Err(DispatchError::Bot(format!(
                "event {:?}: {}: legacy bots cannot be played through a job queue yet; run this event locally (--db FILE)",
                event.event.name, entry.name
            )))
        }
        BotSource::File { .. } => {
            let path = &event.event.bot_paths[e];
            let bytes = std::fs::read(path)
                .map_err(|e| DispatchError::Bot(format!("event {:?}: cannot read bot file {path}: {e}", event.event.name)))?;
            if crate::bots::bot::content_hash(&bytes) != entry.hash {
                return Err(DispatchError::Bot(format!(
                    "bot file {path} changed while the tournament was being planned; run it again"
                )));
            }
            (spec(None), Some(bytes))
        }
    })
}

impl Dispatch for QueueDispatch<'_> {
    fn play(&self, event: &DispatchEvent, plans: &[MatchPlan]) -> Result<Vec<MatchSummary>, HostError> {
        Ok(self.play_event(event, plans)?)
    }
}

impl QueueDispatch<'_> {
    /// [`Dispatch::play`]: plans the event's jobs, works on them, waits for the rest.
    fn play_event(
        &self,
        event: &DispatchEvent,
        plans: &[MatchPlan],
    ) -> Result<Vec<MatchSummary>, DispatchError> {
        let mut seats = Vec::new();
        let mut bots = Vec::new();
        for e in 0..event.entries.len() {
            let (s, bytes) = seat(event, e)?;
            if let Some(bytes) = bytes {
                bots.push((s.hash.clone(), bytes));
            }
            seats.push(s);
        }
        let group = format!("tournament/{}", event.event.name);
        let jobs: Vec<NewJob> = plans
            .iter()
            .map(|p| {
                let spec = JobSpec {
                    game: event.game.to_string(),
                    variant: event.variant.clone(),
                    seed: p.seed,
                    seats: p.seats.iter().map(|&e| seats[e].clone()).collect(),
                    limits: event.event.limits.clone(),
                };
                NewJob::new(&group, spec)
            })
            .collect();
        let keys: Vec<String> = jobs.iter().map(|j| j.key.clone()).collect();
        self.keys.borrow_mut().extend(keys.iter().cloned());
        {
            let mut queue = self.queue.borrow_mut();
            queue.put_bots(&bots)?;
            *self.added.borrow_mut() += queue.enqueue(&jobs)?;
        }
        loop {
            let results = self.queue.borrow_mut().results(&keys)?;
            let done = keys.iter().take_while(|k| results.contains_key(*k)).count();
            if self.opts.enqueue_only || done == keys.len() || self.stop.load(Ordering::SeqCst) {
                return keys[..done]
                    .iter()
                    .map(|k| {
                        serde_json::from_str(&results[k].summary)
                            .map_err(|e| DispatchError::Corrupt { key: k.clone(), message: e.to_string() })
                    })
                    .collect();
            }
            let pending: Vec<String> = keys.iter().filter(|k| !results.contains_key(*k)).cloned().collect();
            let states = self.queue.borrow_mut().states(&pending)?;
            if let Some((key, (_, error))) = states.iter().find(|(_, (state, _))| state == "failed") {
                let failed = states.values().filter(|(s, _)| s == "failed").count();
                return Err(DispatchError::Failed(format!(
                    "event {:?}: {failed} job(s) failed for good, e.g. {key}: {}; see `arena tournament --status --db {}`",
                    event.event.name,
                    error.as_deref().unwrap_or("no error recorded"),
                    self.queue.borrow().name()
                )));
            }
            self.work(&group)?;
            // What is left is being played by other workers (or waits for their leases to expire).
            if self.queue.borrow_mut().results(&keys)?.len() < keys.len() {
                std::thread::sleep(self.opts.poll);
            }
        }
    }
}
