//! The ladder's work on the job queue (`cardarena::tournament::queue`): a validation is one smoke match per
//! variant and seat against `random`, a duplicate set one match per seat rotation; worker
//! processes (`arena worker`) play them like any queued match. The ladder remembers what each
//! job is for (`pending` in its database) and [`collect`]s the results: matches onto the
//! boards, smoke matches into a version's verdicts.

use std::collections::BTreeMap;
use std::sync::Mutex;

use serde::{Deserialize, Serialize};

use super::config::LadderConfig;
use super::db::{Db, DbError, Pending, Taken};
use cardarena::games::rng::derive_seed;
use cardarena::play::games::GameId;
use cardarena::tournament::queue::{JobQueue, JobSpec, NewJob, QueueError, SeatSpec};
use cardarena::tournament::schedule::rotations;
use cardarena::tournament::MatchSummary;

/// How a version is named in replays and standings: `<bot>@v<N>.<lang>`.
pub fn label(bot: &str, v: &super::db::Version) -> String {
    format!("{bot}@v{}.{}", v.number, v.lang)
}

/// The queue group of every ladder job (`arena worker --group ladder` plays only these).
pub const GROUP: &str = "ladder";

/// Something the ladder wants done by a worker.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Job {
    /// Check an uploaded version: a smoke match per variant on the ladder and seat against
    /// `random`, without a fault (a file that does not load fails them all).
    Validate {
        /// The version's id.
        version: i64,
    },
    /// One deal of `game`/`variant` dealt from `seed`, played with the seats in every rotation
    /// of `versions` (a duplicate set).
    Play {
        /// Game.
        game: String,
        /// Variant.
        variant: String,
        /// Deal seed.
        seed: u64,
        /// The matchmaking tick that made it.
        tick: i64,
        /// Version ids in first-seat order.
        versions: Vec<i64>,
    },
}

/// One validation check: a smoke match (or the load).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Check {
    /// What was checked.
    pub what: String,
    /// Whether it passed.
    pub ok: bool,
    /// The verdict (`load`, `fuel`, `crash`, ...) when it failed.
    pub verdict: Option<String>,
    /// What happened.
    pub message: String,
}

/// The queue or the database failed (never a bot: its failures are verdicts).
#[derive(Debug, thiserror::Error)]
pub enum JobError {
    /// The ladder database.
    #[error(transparent)]
    Db(#[from] DbError),
    /// The job queue.
    #[error(transparent)]
    Queue(#[from] QueueError),
    /// The job names something the database does not have.
    #[error("{0}")]
    Missing(String),
}

/// The ladder's side of the queue: turns [`Job`]s into queued matches and remembers them.
pub struct Jobs {
    queue: Mutex<Box<dyn JobQueue>>,
    config: LadderConfig,
    boards: super::board::Cache,
}

impl Jobs {
    /// Jobs on `queue` (usually `sqlite:` the ladder database itself) for a ladder of `config`.
    pub fn new(queue: Box<dyn JobQueue>, config: LadderConfig) -> Jobs {
        Jobs { queue: Mutex::new(queue), config, boards: super::board::Cache::default() }
    }

    /// The boards' standings and charts as of the last result taken in ([`Jobs::collect`]).
    pub fn boards(&self) -> &super::board::Cache {
        &self.boards
    }

    pub(super) fn queue(&self) -> std::sync::MutexGuard<'_, Box<dyn JobQueue>> {
        self.queue.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Queues the matches of `jobs` (a match already queued is not queued twice): the ladder's
    /// record of them, the bots' bytes and the queue's jobs each in one transaction.
    ///
    /// # Errors
    /// [`JobError`].
    pub fn enqueue(&self, db: &Db, jobs: &[Job]) -> Result<(), JobError> {
        let mut new = Vec::new();
        let mut pending = Vec::new();
        // Each version's seat and bytes, read (and hashed) once however many jobs it plays in.
        let mut seats: BTreeMap<i64, (SeatSpec, String, Vec<u8>)> = BTreeMap::new();
        let mut seat = |v: i64| -> Result<(SeatSpec, String), JobError> {
            if let std::collections::btree_map::Entry::Vacant(e) = seats.entry(v) {
                e.insert(self.seat(db, v)?);
            }
            let (seat, game, _) = &seats[&v];
            Ok((seat.clone(), game.clone()))
        };
        for job in jobs {
            match job {
                Job::Validate { version } => {
                    let (seat, game) = seat(*version)?;
                    let id: GameId = self
                        .config
                        .game(&game)
                        .map_err(|e: cardarena::play::games::UnknownGame| JobError::Missing(e.to_string()))?;
                    let seed = derive_seed(&[u64::from_str_radix(&seat.hash[..16], 16).unwrap_or(0)]);
                    for board in self.config.boards_of(id) {
                        for k in 0..id.players() {
                            let seats = (0..id.players())
                                .map(|s| if s == k { seat.clone() } else { SeatSpec::builtin("random") })
                                .collect();
                            let spec = JobSpec {
                                game: game.clone(),
                                variant: board.variant.clone(),
                                seed,
                                seats,
                                limits: self.config.limits.clone(),
                            };
                            let job = NewJob::new(GROUP, spec);
                            pending.push(Pending {
                                key: job.key.clone(),
                                version: Some(*version),
                                game: game.clone(),
                                variant: board.variant.clone(),
                                seed,
                                seats: vec![k as i64],
                                tick: 0,
                            });
                            new.push(job);
                        }
                    }
                }
                Job::Play { game, variant, seed, tick, versions } => {
                    let mut specs = Vec::new();
                    for &v in versions {
                        specs.push(seat(v)?.0);
                    }
                    let table: Vec<usize> = (0..versions.len()).collect();
                    for order in rotations(&table, 0, true) {
                        let seats = order.iter().map(|&k| specs[k].clone()).collect();
                        let spec = JobSpec {
                            game: game.clone(),
                            variant: variant.clone(),
                            seed: *seed,
                            seats,
                            limits: self.config.limits.clone(),
                        };
                        let job = NewJob::new(GROUP, spec);
                        pending.push(Pending {
                            key: job.key.clone(),
                            version: None,
                            game: game.clone(),
                            variant: variant.clone(),
                            seed: *seed,
                            seats: order.iter().map(|&k| versions[k]).collect(),
                            tick: *tick,
                        });
                        new.push(job);
                    }
                }
            }
        }
        let bots: BTreeMap<String, Vec<u8>> =
            seats.into_values().map(|(seat, _, bytes)| (seat.hash, bytes)).collect();
        let bots: Vec<(String, Vec<u8>)> = bots.into_iter().collect();
        db.add_pending(&pending)?;
        let mut q = self.queue();
        q.put_bots(&bots)?;
        q.enqueue(&new)?;
        Ok(())
    }

    /// A version as a seat of a job: named `<bot>@v<N>.<lang>` (the name in replays), with its
    /// bytes.
    pub(super) fn seat(&self, db: &Db, version: i64) -> Result<(SeatSpec, String, Vec<u8>), JobError> {
        let v = db
            .version(version)?
            .ok_or_else(|| JobError::Missing(format!("no version {version} in the ladder database")))?;
        let bot = db
            .bot(v.bot)?
            .ok_or_else(|| JobError::Missing(format!("no bot {} in the ladder database", v.bot)))?;
        let bytes = db
            .file(&v.hash)?
            .ok_or_else(|| JobError::Missing(format!("no file {} in the ladder database", v.hash)))?;
        let name = label(&bot.name, &v);
        Ok((SeatSpec::program(&name, &bytes), bot.game, bytes))
    }

    /// Runs `f` on the queue (the games people play, `play.rs`).
    pub(super) fn with_queue<T>(&self, f: impl FnOnce(&mut dyn JobQueue) -> T) -> T {
        f(self.queue().as_mut())
    }

    /// Takes in every finished job: a duplicate set's matches onto their board, and a version's
    /// verdicts once all its smoke matches are done. Returns how many jobs were taken in.
    ///
    /// # Errors
    /// [`JobError`].
    pub fn collect(&self, db: &Db) -> Result<usize, JobError> {
        let pending = db.pending()?;
        if pending.is_empty() {
            return Ok(0);
        }
        let keys: Vec<String> = pending.iter().map(|p| p.key.clone()).collect();
        let mut q = self.queue();
        let results = q.results(&keys)?;
        let states = q.states(&keys)?;
        let mut validations: BTreeMap<i64, Vec<&Pending>> = BTreeMap::new();
        // The duplicate sets' matches: played (with the summary and replay) or failed.
        let mut played: Vec<Taken> = Vec::new();
        for p in &pending {
            if let Some(v) = p.version {
                validations.entry(v).or_default().push(p);
                continue;
            }
            if let Some(r) = results.get(&p.key) {
                let replay = q.replay(&p.key)?.unwrap_or_default();
                played.push(Taken { job: p, played: Some((r.summary.as_str(), replay)) });
            } else if states.get(&p.key).is_some_and(|(s, _)| s == "failed") {
                played.push(Taken { job: p, played: None });
            }
        }
        db.take_in(&played)?;
        for t in &played {
            if t.played.is_some() {
                self.boards.invalidate(&t.job.game, &t.job.variant);
            }
        }
        let mut taken = played.len();
        for (version, rows) in validations {
            let mut checks = Vec::new();
            for p in &rows {
                let seat = p.seats[0] as usize;
                let what = format!("smoke match {} against random, seat {seat}", p.variant);
                if let Some(r) = results.get(&p.key) {
                    let summary: MatchSummary = serde_json::from_str(&r.summary)
                        .map_err(|e| JobError::Missing(format!("job {}: {e}", p.key)))?;
                    let faults = summary.faults.get(seat).cloned().unwrap_or_default();
                    let check = match faults.first() {
                        None => Check {
                            what,
                            ok: true,
                            verdict: None,
                            message: format!(
                                "{} decisions, no fault",
                                summary.metered_decisions.get(seat).copied().unwrap_or(0)
                            ),
                        },
                        Some(verdict) => {
                            let message = q
                                .replay(&p.key)?
                                .and_then(|blob| cardarena::tournament::store::unpack(&blob).ok())
                                .and_then(|text| {
                                    serde_json::from_str::<cardarena::play::runner::Replay>(&text).ok()
                                })
                                .and_then(|r| {
                                    r.faults.get(seat).and_then(|f| f.first()).map(|f| f.message.clone())
                                })
                                .unwrap_or_default();
                            Check { what, ok: false, verdict: Some(verdict.name().to_string()), message }
                        }
                    };
                    checks.push(check);
                } else if let Some((state, error)) = states.get(&p.key).filter(|(s, _)| s == "failed") {
                    let _ = state;
                    checks.push(Check {
                        what,
                        ok: false,
                        verdict: Some("load".into()),
                        message: error.clone().unwrap_or_default(),
                    });
                } else {
                    checks.clear();
                    break;
                }
            }
            if checks.len() == rows.len() {
                let ready = checks.iter().all(|c| c.ok);
                db.set_validation(
                    version,
                    ready,
                    &serde_json::to_string(&checks).expect("checks serialize"),
                )?;
                for p in rows {
                    db.remove_pending(&p.key)?;
                }
                taken += 1;
            }
        }
        Ok(taken)
    }
}
