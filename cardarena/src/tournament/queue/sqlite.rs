//! The SQLite backend of the job queue: one machine, any number of worker processes on one
//! database file. A claim is one `BEGIN IMMEDIATE` transaction (SQLite's single writer makes it
//! exclusive), the journal is WAL so that readers never wait for it, and lease times are this
//! machine's clock in milliseconds.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};

use super::{
    Alarm, Claimed, Completion, FailedJob, Failure, JobOutput, JobQueue, Lease, NewJob, QueueError, Status,
    StoredResult, WorkerStats,
};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS queue_jobs (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    grp TEXT NOT NULL,
    version TEXT NOT NULL,
    spec TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    lease_owner TEXT,
    lease_until INTEGER,
    error TEXT,
    priority INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS queue_jobs_claim ON queue_jobs (state, version, id);
CREATE TABLE IF NOT EXISTS queue_results (
    key TEXT PRIMARY KEY,
    replay_hash TEXT NOT NULL,
    summary TEXT NOT NULL,
    replay BLOB NOT NULL,
    worker TEXT NOT NULL,
    play_ms INTEGER NOT NULL,
    finished_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS queue_alarms (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL,
    stored_hash TEXT NOT NULL,
    other_hash TEXT NOT NULL,
    worker TEXT NOT NULL,
    at_ms INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS queue_bots (
    hash TEXT PRIMARY KEY,
    bytes BLOB NOT NULL
);
";

/// The lanes' index (after [`add_lanes`] on a queue made before lanes existed).
const LANE_INDEX: &str =
    "CREATE INDEX IF NOT EXISTS queue_jobs_lane ON queue_jobs (state, version, priority DESC, id);";

/// A queue file made before lanes: its jobs get lane 0.
fn add_lanes(conn: &Connection) -> rusqlite::Result<()> {
    let has: bool =
        conn.prepare("SELECT 1 FROM pragma_table_info('queue_jobs') WHERE name = 'priority'")?.exists([])?;
    if !has {
        conn.execute_batch("ALTER TABLE queue_jobs ADD COLUMN priority INTEGER NOT NULL DEFAULT 0")?;
    }
    conn.execute_batch(LANE_INDEX)
}

/// A job queue in a SQLite file.
pub struct SqliteQueue {
    conn: Connection,
    path: PathBuf,
    lock_wait: LockWait,
}

/// How long a statement waits for a lock that another connection holds before it fails with
/// `database is locked`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LockWait {
    /// 60 s (a caller that does not retry).
    Long,
    /// 1 s: the caller retries for longer ([`super::retry`]) and logs the wait.
    Short,
}

fn now_ms() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

impl SqliteQueue {
    /// Opens (creating if needed) the queue in the file `path`.
    ///
    /// # Errors
    /// The file cannot be opened or is not a SQLite database.
    pub fn open(path: &Path) -> Result<SqliteQueue, QueueError> {
        SqliteQueue::open_with(path, LockWait::Long)
    }

    /// [`SqliteQueue::open`], its statements waiting `lock_wait` for another connection's lock.
    ///
    /// # Errors
    /// The file cannot be opened or is not a SQLite database.
    pub fn open_with(path: &Path, lock_wait: LockWait) -> Result<SqliteQueue, QueueError> {
        let q = SqliteQueue {
            conn: Connection::open(path).map_err(|e| db_error(path, "cannot open the database", e))?,
            path: path.to_path_buf(),
            lock_wait,
        };
        match lock_wait {
            LockWait::Long => crate::tournament::store::set_up::<60_000>(&q.conn),
            LockWait::Short => crate::tournament::store::set_up::<1_000>(&q.conn),
        }
        // A checkpoint (copying the WAL into the database, with two fsyncs) runs in the
        // connection whose commit finds the WAL past this many pages, and blocks it. Workers
        // commit twice a match: at SQLite's default (1000 pages, about 4 MB) they would
        // stop for one every second or so. At 10000 they leave it to a connection that
        // writes less often (the ladder's server, which takes results in every second) or,
        // alone, do it ten times less often.
        .and_then(|_| q.conn.pragma_update(None, "wal_autocheckpoint", 10_000))
        .and_then(|_| q.conn.execute_batch(SCHEMA))
        .and_then(|_| add_lanes(&q.conn))
        .map_err(|e| q.err("is not a usable job queue (name a new file to start one)", e))?;
        Ok(q)
    }

    fn err(&self, what: &'static str, e: rusqlite::Error) -> QueueError {
        db_error(&self.path, what, e)
    }

    /// Runs `f` in one `BEGIN IMMEDIATE` transaction (the write lock taken at once, so that two
    /// claims never interleave) and commits it.
    fn write<T>(
        &mut self,
        what: &'static str,
        f: impl FnOnce(&rusqlite::Transaction) -> rusqlite::Result<T>,
    ) -> Result<T, QueueError> {
        let run = |conn: &mut Connection| {
            let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
            let out = f(&tx)?;
            tx.commit()?;
            Ok(out)
        };
        run(&mut self.conn).map_err(|e| db_error(&self.path, what, e))
    }
}

/// [`JobQueue::complete`] of one job inside the transaction `tx`.
fn complete_in(
    tx: &rusqlite::Transaction,
    id: i64,
    worker: &str,
    output: &JobOutput,
    now: i64,
) -> rusqlite::Result<Completion> {
    let key: String = tx
        .prepare_cached("SELECT key FROM queue_jobs WHERE id = ?1")?
        .query_row(params![id], |r| r.get(0))?;
    let inserted = tx
        .prepare_cached(
            "INSERT OR IGNORE INTO queue_results (key, replay_hash, summary, replay, worker, play_ms, finished_ms)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
        )?
        .execute(params![key, output.replay_hash, output.summary, output.replay, worker, output.play_ms as i64, now])?;
    let completion = if inserted == 1 {
        Completion::Stored
    } else {
        let stored: String =
            tx.query_row("SELECT replay_hash FROM queue_results WHERE key = ?1", params![key], |r| r.get(0))?;
        if stored == output.replay_hash {
            Completion::Duplicate
        } else {
            tx.execute(
                    "INSERT INTO queue_alarms (key, stored_hash, other_hash, worker, at_ms) VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![key, stored, output.replay_hash, worker, now],
                )?;
            Completion::Alarm { stored, other: output.replay_hash.clone() }
        }
    };
    tx.prepare_cached(
        "UPDATE queue_jobs SET state = 'done', lease_owner = NULL, lease_until = NULL WHERE id = ?1",
    )?
    .execute(params![id])?;
    Ok(completion)
}

/// A SQLite error as a queue error: a lock another connection holds too long is transient.
fn db_error(path: &Path, what: &'static str, e: rusqlite::Error) -> QueueError {
    let (db, message) = (format!("sqlite:{}", path.display()), e.to_string());
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::DatabaseBusy | rusqlite::ErrorCode::DatabaseLocked) => {
            QueueError::Unavailable { db, what, message }
        }
        _ => QueueError::Db { db, what, message },
    }
}

impl JobQueue for SqliteQueue {
    fn reconnect(&self) -> Result<Box<dyn JobQueue>, QueueError> {
        Ok(Box::new(SqliteQueue::open_with(&self.path, self.lock_wait)?))
    }

    fn name(&self) -> String {
        format!("sqlite:{}", self.path.display())
    }

    fn enqueue(&mut self, jobs: &[NewJob]) -> Result<u64, QueueError> {
        self.write("cannot add jobs", |tx| {
            let mut stmt = tx.prepare_cached(
                "INSERT OR IGNORE INTO queue_jobs (key, grp, version, spec, max_attempts, priority) VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            let mut added = 0;
            for j in jobs {
                let spec = serde_json::to_string(&j.spec).expect("job specs serialize");
                added += stmt.execute(params![j.key, j.group, j.version, spec, j.max_attempts, j.priority])? as u64;
            }
            Ok(added)
        })
    }

    fn put_bots(&mut self, bots: &[(String, Vec<u8>)]) -> Result<(), QueueError> {
        self.write("cannot store bots", |tx| {
            let mut stmt =
                tx.prepare_cached("INSERT OR IGNORE INTO queue_bots (hash, bytes) VALUES (?1, ?2)")?;
            for (hash, bytes) in bots {
                stmt.execute(params![hash, bytes])?;
            }
            Ok(())
        })
    }

    fn bot(&mut self, hash: &str) -> Result<Option<Vec<u8>>, QueueError> {
        self.conn
            .query_row("SELECT bytes FROM queue_bots WHERE hash = ?1", params![hash], |r| r.get(0))
            .optional()
            .map_err(|e| self.err("cannot read a bot", e))
    }

    fn claim(
        &mut self,
        worker: &str,
        lease: Duration,
        version: &str,
        group: Option<&str>,
    ) -> Result<Option<Claimed>, QueueError> {
        Ok(self.claim_some(worker, lease, version, group, 1)?.pop())
    }

    fn claim_some(
        &mut self,
        worker: &str,
        lease: Duration,
        version: &str,
        group: Option<&str>,
        max: usize,
    ) -> Result<Vec<Claimed>, QueueError> {
        let now = now_ms();
        let until = now + lease.as_millis() as i64;
        self.write("cannot claim a job", |tx| {
            // An expired lease on a job at its attempts cap: the job fails instead of a rerun.
            tx.prepare_cached(
                "UPDATE queue_jobs SET state = 'failed', lease_owner = NULL, lease_until = NULL,
                     error = 'its worker stopped answering (lease expired) on each of ' || attempts || ' attempts; last: ' || lease_owner
                 WHERE state = 'running' AND lease_until < ?1 AND attempts >= max_attempts",
            )?
            .execute(params![now])?;
            // The oldest claimable job of each kind, each found at the start of its stretch of
            // an index; one query with `OR` walks past every finished job instead. A queued job
            // of a higher lane comes before any other.
            let mut next = tx.prepare_cached(
                "UPDATE queue_jobs SET state = 'running', attempts = attempts + 1, lease_owner = ?1, lease_until = ?2
                 WHERE id = (SELECT CASE WHEN qp > 0 THEN q ELSE min(coalesce(q, r), coalesce(r, q)) END FROM
                             (SELECT (SELECT id FROM queue_jobs
                                      WHERE state = 'queued' AND version = ?4 AND (?5 IS NULL OR grp = ?5)
                                      ORDER BY priority DESC, id LIMIT 1) AS q,
                                     (SELECT priority FROM queue_jobs
                                      WHERE state = 'queued' AND version = ?4 AND (?5 IS NULL OR grp = ?5)
                                      ORDER BY priority DESC, id LIMIT 1) AS qp,
                                     (SELECT id FROM queue_jobs
                                      WHERE state = 'running' AND lease_until < ?3 AND attempts < max_attempts
                                        AND version = ?4 AND (?5 IS NULL OR grp = ?5)
                                      ORDER BY id LIMIT 1) AS r))
                 RETURNING id, key, grp, spec, attempts",
            )?;
            // Jobs still leased to this worker's name first: it holds none while it claims, so
            // they are a claim whose answer it never had, or its name's before a restart.
            let mut claimed: Vec<Claimed> = tx
                .prepare_cached(
                    "UPDATE queue_jobs SET attempts = attempts + 1, lease_until = ?2
                     WHERE id IN (SELECT id FROM queue_jobs
                                  WHERE state = 'running' AND lease_owner = ?1 AND version = ?3
                                    AND (?4 IS NULL OR grp = ?4)
                                  ORDER BY id LIMIT ?5)
                     RETURNING id, key, grp, spec, attempts",
                )?
                .query_map(params![worker, until, version, group, max.max(1) as i64], |r| {
                    Ok(Claimed { id: r.get(0)?, key: r.get(1)?, group: r.get(2)?, spec: r.get(3)?, attempt: r.get(4)? })
                })?
                .collect::<rusqlite::Result<_>>()?;
            while claimed.len() < max.max(1) {
                let job = next
                    .query_row(params![worker, until, now, version, group], |r| {
                        Ok(Claimed {
                            id: r.get(0)?,
                            key: r.get(1)?,
                            group: r.get(2)?,
                            spec: r.get(3)?,
                            attempt: r.get(4)?,
                        })
                    })
                    .optional()?;
                match job {
                    Some(job) => claimed.push(job),
                    None => break,
                }
            }
            Ok(claimed)
        })
    }

    fn heartbeat(&mut self, id: i64, worker: &str, lease: Duration) -> Result<bool, QueueError> {
        let until = now_ms() + lease.as_millis() as i64;
        let n = self
            .conn
            .execute(
                "UPDATE queue_jobs SET lease_until = ?1 WHERE id = ?2 AND lease_owner = ?3 AND state = 'running'",
                params![until, id, worker],
            )
            .map_err(|e| self.err("cannot extend a lease", e))?;
        Ok(n > 0)
    }

    fn complete(&mut self, id: i64, worker: &str, output: &JobOutput) -> Result<Completion, QueueError> {
        let now = now_ms();
        self.write("cannot store a result", |tx| complete_in(tx, id, worker, output, now))
    }

    fn complete_all(
        &mut self,
        worker: &str,
        done: &[(i64, JobOutput)],
    ) -> Result<Vec<Completion>, QueueError> {
        let now = now_ms();
        self.write("cannot store a result", |tx| {
            done.iter().map(|(id, output)| complete_in(tx, *id, worker, output, now)).collect()
        })
    }

    fn fail(&mut self, id: i64, worker: &str, error: &str) -> Result<Failure, QueueError> {
        self.write("cannot record a failure", |tx| {
            let state: Option<String> = tx
                .query_row(
                    "UPDATE queue_jobs SET
                         state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
                         error = ?3, lease_owner = NULL, lease_until = NULL
                     WHERE id = ?1 AND lease_owner = ?2 AND state = 'running'
                     RETURNING state",
                    params![id, worker, error],
                    |r| r.get(0),
                )
                .optional()?;
            Ok(match state.as_deref() {
                Some("failed") => Failure::Failed,
                Some(_) => Failure::Requeued,
                None => Failure::NotOurs,
            })
        })
    }

    fn status(&mut self, version: &str) -> Result<Status, QueueError> {
        let now = now_ms();
        // One read transaction: the counts and the lists are of one moment (the running count
        // is the running list's length).
        let read = |conn: &mut Connection| -> rusqlite::Result<Status> {
            let tx = conn.transaction()?;
            let mut st = Status::default();
            let mut stmt = tx.prepare(
                "SELECT state, version = ?1, version, count(*) FROM queue_jobs GROUP BY state, version ORDER BY version",
            )?;
            let rows = stmt.query_map(params![version], |r| {
                Ok((
                    r.get::<_, String>(0)?,
                    r.get::<_, bool>(1)?,
                    r.get::<_, String>(2)?,
                    r.get::<_, i64>(3)?,
                ))
            })?;
            for row in rows {
                let (state, ours, v, n) = row?;
                st.add_jobs(&state, ours, v, n as u64);
            }
            let mut stmt = tx.prepare(
                "SELECT key, lease_owner, lease_until, attempts FROM queue_jobs WHERE state = 'running' ORDER BY id",
            )?;
            st.leases = stmt
                .query_map([], |r| {
                    Ok(Lease {
                        key: r.get(0)?,
                        worker: r.get::<_, Option<String>>(1)?.unwrap_or_default(),
                        expires_in: (r.get::<_, Option<i64>>(2)?.unwrap_or(now) - now) as f64 / 1000.0,
                        attempt: r.get(3)?,
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            let mut stmt = tx.prepare(
                "SELECT key, attempts, coalesce(error, '') FROM queue_jobs WHERE state = 'failed' ORDER BY id LIMIT 50",
            )?;
            st.failures = stmt
                .query_map([], |r| Ok(FailedJob { key: r.get(0)?, attempts: r.get(1)?, error: r.get(2)? }))?
                .collect::<rusqlite::Result<_>>()?;
            let mut stmt = tx.prepare(
                "SELECT worker, count(*), sum(play_ms) FROM queue_results GROUP BY worker ORDER BY worker",
            )?;
            st.workers = stmt
                .query_map([], |r| {
                    let (n, ms) = (r.get::<_, i64>(1)?, r.get::<_, i64>(2)?);
                    Ok(WorkerStats {
                        worker: r.get(0)?,
                        matches: n as u64,
                        per_second: if ms > 0 { n as f64 * 1000.0 / ms as f64 } else { 0.0 },
                    })
                })?
                .collect::<rusqlite::Result<_>>()?;
            let mut stmt =
                tx.prepare("SELECT key, stored_hash, other_hash, worker FROM queue_alarms ORDER BY id")?;
            st.alarms = stmt
                .query_map([], |r| {
                    Ok(Alarm { key: r.get(0)?, stored: r.get(1)?, other: r.get(2)?, worker: r.get(3)? })
                })?
                .collect::<rusqlite::Result<_>>()?;
            // Nothing was written: the transaction ends (rolled back) when dropped.
            Ok(st)
        };
        read(&mut self.conn).map_err(|e| db_error(&self.path, "cannot read the status", e))
    }

    fn results(&mut self, keys: &[String]) -> Result<BTreeMap<String, StoredResult>, QueueError> {
        let read = || -> rusqlite::Result<BTreeMap<String, StoredResult>> {
            let mut stmt = self
                .conn
                .prepare_cached("SELECT replay_hash, summary, worker FROM queue_results WHERE key = ?1")?;
            let mut out = BTreeMap::new();
            for key in keys {
                let row = stmt
                    .query_row(params![key], |r| {
                        Ok(StoredResult { replay_hash: r.get(0)?, summary: r.get(1)?, worker: r.get(2)? })
                    })
                    .optional()?;
                if let Some(row) = row {
                    out.insert(key.clone(), row);
                }
            }
            Ok(out)
        };
        read().map_err(|e| self.err("cannot read results", e))
    }

    fn states(&mut self, keys: &[String]) -> Result<BTreeMap<String, (String, Option<String>)>, QueueError> {
        let read = || -> rusqlite::Result<BTreeMap<String, (String, Option<String>)>> {
            let mut stmt = self.conn.prepare_cached("SELECT state, error FROM queue_jobs WHERE key = ?1")?;
            let mut out = BTreeMap::new();
            for key in keys {
                if let Some(row) = stmt.query_row(params![key], |r| Ok((r.get(0)?, r.get(1)?))).optional()? {
                    out.insert(key.clone(), row);
                }
            }
            Ok(out)
        };
        read().map_err(|e| self.err("cannot read job states", e))
    }

    fn replay(&mut self, key: &str) -> Result<Option<Vec<u8>>, QueueError> {
        self.conn
            .prepare_cached("SELECT replay FROM queue_results WHERE key = ?1")
            .and_then(|mut s| s.query_row(params![key], |r| r.get(0)).optional())
            .map_err(|e| self.err("cannot read a replay", e))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tournament::queue::{JobSpec, SeatSpec};

    fn temp(name: &str) -> (PathBuf, SqliteQueue) {
        let dir = std::env::temp_dir().join(format!("cardarena-queue-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let q = SqliteQueue::open(&dir.join("q.db")).unwrap();
        (dir, q)
    }

    fn job(seed: u64, version: &str) -> NewJob {
        let spec = JobSpec {
            game: "ecard".into(),
            variant: "readme".into(),
            seed,
            seats: vec![
                SeatSpec { name: "random".into(), hash: "a".into(), failed: None },
                SeatSpec { name: "greedy".into(), hash: "b".into(), failed: None },
            ],
            limits: Default::default(),
        };
        NewJob {
            key: crate::tournament::queue::job_key(version, &spec),
            group: "g".into(),
            version: version.into(),
            spec,
            max_attempts: 2,
            priority: 0,
        }
    }

    fn output(hash: &str) -> JobOutput {
        JobOutput { replay_hash: hash.into(), summary: "{}".into(), replay: vec![1, 2], play_ms: 5 }
    }

    /// `--status`'s count of running jobs is the length of its list of them, however fast the
    /// jobs change state: both are read from one snapshot.
    #[test]
    fn the_running_count_agrees_with_the_running_list_while_jobs_change_state() {
        let (dir, mut q) = temp("snapshot");
        let jobs: Vec<NewJob> = (1..=8).map(|s| job(s, "v1")).collect();
        q.enqueue(&jobs).unwrap();
        let stop = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
        let flag = stop.clone();
        let path = dir.join("q.db");
        // Another connection claims and releases jobs as fast as it can.
        let flipper = std::thread::spawn(move || {
            let conn = Connection::open(&path).unwrap();
            conn.busy_timeout(Duration::from_secs(10)).unwrap();
            let mut flips = 0u64;
            while !flag.load(std::sync::atomic::Ordering::SeqCst) {
                conn.execute(
                    "UPDATE queue_jobs SET state = CASE state WHEN 'queued' THEN 'running' ELSE 'queued' END,
                         lease_owner = 'flipper', lease_until = 0 WHERE id = 1 + (?1 % 8)",
                    params![flips as i64],
                )
                .unwrap();
                flips += 1;
            }
            flips
        });
        let started = std::time::Instant::now();
        let mut looks = 0;
        let mut differ = Vec::new();
        while started.elapsed() < Duration::from_secs(2) {
            let st = q.status("v1").unwrap();
            if st.running as usize != st.leases.len() {
                differ.push((st.running, st.leases.len()));
            }
            looks += 1;
        }
        stop.store(true, std::sync::atomic::Ordering::SeqCst);
        let flips = flipper.join().unwrap();
        assert!(flips > 100 && looks > 10, "{flips} flips, {looks} looks");
        assert!(differ.is_empty(), "{} of {looks} looks disagree, e.g. {:?}", differ.len(), differ.first());
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_job_of_the_priority_lane_is_claimed_before_older_jobs_and_an_old_file_gets_lanes() {
        let (dir, mut q) = temp("lanes");
        let old: Vec<NewJob> = (1..=3).map(|s| job(s, "v1")).collect();
        q.enqueue(&old).unwrap();
        let urgent = job(9, "v1").in_lane(crate::tournament::queue::PRIORITY_LANE);
        q.enqueue(std::slice::from_ref(&urgent)).unwrap();
        let lease = Duration::from_secs(60);
        let first = q.claim_some("w", lease, "v1", None, 2).unwrap();
        let keys: Vec<&str> = first.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, [&urgent.key, &old[0].key], "the lane first, then the oldest");
        drop(q);
        // A queue file from before lanes: the column is added, its jobs are lane 0.
        let path = dir.join("old.db");
        let conn = Connection::open(&path).unwrap();
        conn.execute_batch(&SCHEMA.replace(",\n    priority INTEGER NOT NULL DEFAULT 0", "")).unwrap();
        conn.execute(
            "INSERT INTO queue_jobs (key, grp, version, spec, max_attempts) VALUES ('k', 'g', 'v1', '{}', 1)",
            [],
        )
        .unwrap();
        drop(conn);
        let mut q = SqliteQueue::open(&path).unwrap();
        q.enqueue(&[job(5, "v1").in_lane(1)]).unwrap();
        let claimed = q.claim_some("w", lease, "v1", None, 2).unwrap();
        assert_eq!(claimed.len(), 2);
        assert_eq!(claimed[1].key, "k");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn several_jobs_are_claimed_oldest_first_and_completed_in_one_go() {
        let (dir, mut q) = temp("some");
        let jobs: Vec<NewJob> = (1..=5).map(|s| job(s, "v1")).collect();
        q.enqueue(&jobs).unwrap();
        let lease = Duration::from_secs(60);
        let first = q.claim_some("w", lease, "v1", None, 3).unwrap();
        let keys: Vec<&str> = first.iter().map(|c| c.key.as_str()).collect();
        assert_eq!(keys, [&jobs[0].key, &jobs[1].key, &jobs[2].key], "the three oldest");
        let rest = q.claim_some("x", lease, "v1", None, 10).unwrap();
        assert_eq!(rest.len(), 2, "the two left, not the leased ones");
        assert!(q.claim_some("y", lease, "v1", None, 10).unwrap().is_empty());
        let done: Vec<(i64, JobOutput)> = first.iter().map(|c| (c.id, output("h"))).collect();
        assert_eq!(q.complete_all("w", &done).unwrap(), vec![Completion::Stored; 3]);
        assert_eq!(q.complete_all("w", &done[..1]).unwrap(), vec![Completion::Duplicate]);
        let states = q.states(&jobs.iter().map(|j| j.key.clone()).collect::<Vec<_>>()).unwrap();
        let done_states = states.values().filter(|(s, _)| s == "done").count();
        assert_eq!(done_states, 3);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_job_is_claimed_once_completed_once_and_a_rerun_with_another_hash_raises_the_alarm() {
        let (dir, mut q) = temp("claim");
        let jobs = [job(1, "v1"), job(2, "v1")];
        assert_eq!(q.enqueue(&jobs).unwrap(), 2);
        assert_eq!(q.enqueue(&jobs).unwrap(), 0, "keys are unique");
        let lease = Duration::from_secs(60);
        let a = q.claim("w1", lease, "v1", None).unwrap().unwrap();
        let b = q.claim("w2", lease, "v1", None).unwrap().unwrap();
        assert_eq!(
            (a.key.as_str(), b.key.as_str(), a.attempt),
            (jobs[0].key.as_str(), jobs[1].key.as_str(), 1)
        );
        assert_eq!(q.claim("w3", lease, "v1", None).unwrap(), None, "both are leased");
        assert!(q.heartbeat(a.id, "w1", lease).unwrap());
        assert!(!q.heartbeat(a.id, "w2", lease).unwrap(), "not w2's lease");
        assert_eq!(q.complete(a.id, "w1", &output("h")).unwrap(), Completion::Stored);
        assert_eq!(q.complete(a.id, "w9", &output("h")).unwrap(), Completion::Duplicate);
        assert_eq!(
            q.complete(a.id, "w9", &output("x")).unwrap(),
            Completion::Alarm { stored: "h".into(), other: "x".into() }
        );
        let results = q.results(&[jobs[0].key.clone(), jobs[1].key.clone()]).unwrap();
        assert_eq!(results.len(), 1);
        assert_eq!(results[&jobs[0].key].replay_hash, "h");
        assert_eq!(results[&jobs[0].key].worker, "w1");
        assert_eq!(q.replay(&jobs[0].key).unwrap(), Some(vec![1, 2]));
        let st = q.status("v1").unwrap();
        assert_eq!((st.queued, st.running, st.done, st.failed), (0, 1, 1, 0));
        assert_eq!(st.leases[0].worker, "w2");
        assert!(st.leases[0].expires_in > 50.0);
        assert_eq!(st.alarms.len(), 1);
        assert_eq!((st.alarms[0].stored.as_str(), st.alarms[0].other.as_str()), ("h", "x"));
        assert_eq!(st.workers.len(), 1);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn an_expired_lease_is_claimed_again_until_the_attempts_cap_fails_the_job() {
        let (dir, mut q) = temp("lease");
        let j = job(1, "v1");
        q.enqueue(std::slice::from_ref(&j)).unwrap();
        let first = q.claim("w1", Duration::ZERO, "v1", None).unwrap().unwrap();
        std::thread::sleep(Duration::from_millis(5));
        let second = q.claim("w2", Duration::ZERO, "v1", None).unwrap().unwrap();
        assert_eq!((first.id, second.attempt), (second.id, 2));
        assert!(!q.heartbeat(first.id, "w1", Duration::from_secs(9)).unwrap(), "w1 lost its lease");
        std::thread::sleep(Duration::from_millis(5));
        // max_attempts = 2: the second expiry fails the job rather than a third run
        assert_eq!(q.claim("w3", Duration::ZERO, "v1", None).unwrap(), None);
        let st = q.status("v1").unwrap();
        assert_eq!(st.failed, 1);
        assert!(st.failures[0].error.contains("lease expired") && st.failures[0].error.contains("w2"));
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_failed_job_is_queued_again_until_its_cap_and_other_versions_are_never_claimed() {
        let (dir, mut q) = temp("fail");
        q.enqueue(&[job(1, "v1"), job(2, "v0")]).unwrap();
        let lease = Duration::from_secs(60);
        let c = q.claim("w", lease, "v1", None).unwrap().unwrap();
        assert_eq!(q.fail(c.id, "other", "no").unwrap(), Failure::NotOurs);
        assert_eq!(q.fail(c.id, "w", "bot bytes missing").unwrap(), Failure::Requeued);
        let c = q.claim("w", lease, "v1", None).unwrap().unwrap();
        assert_eq!(c.attempt, 2);
        assert_eq!(q.fail(c.id, "w", "bot bytes missing").unwrap(), Failure::Failed);
        assert_eq!(q.claim("w", lease, "v1", None).unwrap(), None, "the v0 job is not ours");
        let st = q.status("v1").unwrap();
        assert_eq!(st.failed, 1);
        assert_eq!(st.failures[0].error, "bot bytes missing");
        assert_eq!(st.other_versions.get("v0"), Some(&1));
        let states = q.states(&[job(1, "v1").key, "nope".into()]).unwrap();
        assert_eq!(states.len(), 1);
        assert_eq!(states[&job(1, "v1").key].0, "failed");
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn bots_are_stored_by_hash_once() {
        let (dir, mut q) = temp("bots");
        q.put_bots(&[("h".into(), b"one".to_vec()), ("h".into(), b"two".to_vec())]).unwrap();
        assert_eq!(q.bot("h").unwrap().as_deref(), Some(&b"one"[..]));
        assert_eq!(q.bot("nope").unwrap(), None);
        std::fs::remove_dir_all(dir).ok();
    }

    #[test]
    fn a_file_that_is_not_a_database_is_a_clear_error() {
        let dir = std::env::temp_dir().join(format!("cardarena-queue-{}-bad", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("not.db");
        std::fs::write(
            &path,
            "hello, this is text and not SQLite at all.............................................",
        )
        .unwrap();
        let err = SqliteQueue::open(&path).err().unwrap().to_string();
        assert!(err.contains("not.db") && err.contains("not a usable job queue"), "{err}");
        std::fs::remove_dir_all(dir).ok();
    }
}
