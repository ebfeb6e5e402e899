//! The PostgreSQL backend of the job queue (cargo feature `postgres`): workers on many machines.
//! A claim is one `UPDATE … WHERE id = (SELECT … FOR UPDATE SKIP LOCKED LIMIT 1)`, so that
//! concurrent claimers never wait for each other's rows; lease times are the server's clock, so
//! the workers' clocks do not matter. The tables are those of the SQLite backend.

use std::collections::BTreeMap;
use std::time::Duration;

use postgres::{Client, NoTls, Statement};

use super::{
    redact, Alarm, Claimed, Completion, FailedJob, Failure, JobOutput, JobQueue, Lease, NewJob, QueueError,
    Status, StoredResult, WorkerStats,
};

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS queue_jobs (
    id BIGSERIAL PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    grp TEXT NOT NULL,
    version TEXT NOT NULL,
    spec TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'queued',
    attempts INT NOT NULL DEFAULT 0,
    max_attempts INT NOT NULL,
    lease_owner TEXT,
    lease_until TIMESTAMPTZ,
    error TEXT
);
CREATE INDEX IF NOT EXISTS queue_jobs_claim ON queue_jobs (state, version, id);
CREATE TABLE IF NOT EXISTS queue_results (
    key TEXT PRIMARY KEY,
    replay_hash TEXT NOT NULL,
    summary TEXT NOT NULL,
    replay BYTEA NOT NULL,
    worker TEXT NOT NULL,
    play_ms BIGINT NOT NULL,
    finished_at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS queue_alarms (
    id BIGSERIAL PRIMARY KEY,
    key TEXT NOT NULL,
    stored_hash TEXT NOT NULL,
    other_hash TEXT NOT NULL,
    worker TEXT NOT NULL,
    at TIMESTAMPTZ NOT NULL DEFAULT now()
);
CREATE TABLE IF NOT EXISTS queue_bots (
    hash TEXT PRIMARY KEY,
    bytes BYTEA NOT NULL
);
ALTER TABLE queue_jobs ADD COLUMN IF NOT EXISTS priority INT NOT NULL DEFAULT 0;
CREATE INDEX IF NOT EXISTS queue_jobs_lane ON queue_jobs (state, version, priority DESC, id);
";

/// An arbitrary constant naming the lock that serializes creating the tables (two workers
/// starting at once would otherwise race on `CREATE TABLE IF NOT EXISTS`).
const SCHEMA_LOCK: i64 = 0x6361_7264_6172_656e;

/// A job queue in a PostgreSQL database.
pub struct PgQueue {
    client: Client,
    url: String,
    /// The statements of a job's round trip, prepared once per connection (a statement given
    /// as text is prepared again at every call: one more round trip each).
    st: Prepared,
}

struct Prepared {
    expire: Statement,
    claim: Statement,
    heartbeat: Statement,
    key_of: Statement,
    insert_result: Statement,
    stored_hash: Statement,
    done: Statement,
}

const EXPIRE: &str = "UPDATE queue_jobs SET state = 'failed', lease_owner = NULL, lease_until = NULL,
        error = 'its worker stopped answering (lease expired) on each of ' || attempts || ' attempts; last: ' || lease_owner
    WHERE id IN (SELECT id FROM queue_jobs
                 WHERE state = 'running' AND lease_until < now() AND attempts >= max_attempts
                 FOR UPDATE SKIP LOCKED)";

const CLAIM: &str = "UPDATE queue_jobs SET state = 'running', attempts = attempts + 1, lease_owner = $1,
        lease_until = now() + make_interval(secs => $2)
    WHERE id = (SELECT id FROM queue_jobs
                WHERE (state = 'queued'
                       OR (state = 'running' AND lease_until < now() AND attempts < max_attempts)
                       OR (state = 'running' AND lease_owner = $1))
                  AND version = $3 AND ($4::text IS NULL OR grp = $4)
                ORDER BY (CASE WHEN state = 'queued' THEN priority ELSE 0 END) DESC, id
                FOR UPDATE SKIP LOCKED LIMIT 1)
    RETURNING id, key, grp, spec, attempts";

impl PgQueue {
    /// Connects to `url` (`postgres://USER[:PASSWORD]@HOST:PORT/DB`, or libpq's key=value
    /// form) and creates the queue's tables if needed.
    ///
    /// # Errors
    /// The server cannot be reached or refuses the connection or the tables.
    pub fn connect(url: &str) -> Result<PgQueue, QueueError> {
        let mut client = Client::connect(url, NoTls).map_err(|e| {
            err(
                url,
                "cannot connect (is the server running, and the URL's user, host, port and database right?)",
                e,
            )
        })?;
        let mut tx = client.transaction().map_err(|e| err(url, "cannot create the tables", e))?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&SCHEMA_LOCK])
            .and_then(|_| tx.batch_execute(SCHEMA))
            .and_then(|()| tx.commit())
            .map_err(|e| err(url, "cannot create the tables", e))?;
        // A commit that a server crash loses is only a claim or a lease made again: the job's
        // lease expires and it is played again, with the same result. So this session's commits
        // do not wait for the disk (docs/scale-out.md has the difference it makes), except a
        // result's (`complete`): a result once stored is never lost.
        client
            .batch_execute("SET synchronous_commit = off")
            .map_err(|e| err(url, "cannot configure the session", e))?;
        let st = (|| -> Result<Prepared, postgres::Error> {
            Ok(Prepared {
                expire: client.prepare(EXPIRE)?,
                claim: client.prepare(CLAIM)?,
                heartbeat: client.prepare(
                    "UPDATE queue_jobs SET lease_until = now() + make_interval(secs => $1)
                     WHERE id = $2 AND lease_owner = $3 AND state = 'running'",
                )?,
                key_of: client.prepare("SELECT key FROM queue_jobs WHERE id = $1")?,
                insert_result: client.prepare(
                    "INSERT INTO queue_results (key, replay_hash, summary, replay, worker, play_ms)
                     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (key) DO NOTHING",
                )?,
                stored_hash: client.prepare("SELECT replay_hash FROM queue_results WHERE key = $1")?,
                done: client.prepare(
                    "UPDATE queue_jobs SET state = 'done', lease_owner = NULL, lease_until = NULL WHERE id = $1",
                )?,
            })
        })()
        .map_err(|e| err(url, "cannot prepare the queue's statements", e))?;
        Ok(PgQueue { client, url: url.to_string(), st })
    }

    fn err(&self, what: &'static str, e: postgres::Error) -> QueueError {
        err(&self.url, what, e)
    }
}

/// A PostgreSQL error as a queue error, transient or not (see [`transient`]), with the
/// server's own message (the client's `Display` says only `db error`).
fn err(url: &str, what: &'static str, e: postgres::Error) -> QueueError {
    let (db, message) = (redact(url), describe(&e));
    if transient(&e) {
        QueueError::Unavailable { db, what, message }
    } else {
        QueueError::Db { db, what, message }
    }
}

/// The server's message, detail and hint, or the client's error and its causes.
fn describe(e: &postgres::Error) -> String {
    if let Some(db) = e.as_db_error() {
        let mut m = format!("{} (SQLSTATE {})", db.message(), db.code().code());
        if let Some(detail) = db.detail() {
            m.push_str(&format!("; {detail}"));
        }
        if let Some(hint) = db.hint() {
            m.push_str(&format!("; hint: {hint}"));
        }
        return m;
    }
    let mut m = e.to_string();
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        let text = c.to_string();
        if !m.contains(&text) {
            m.push_str(&format!(": {text}"));
        }
        cause = c.source();
    }
    m
}

/// Whether a call that failed with `e` may succeed later: the connection was refused, closed or
/// broken, or the server said it is shutting down, starting up, out of connections, or chose
/// this transaction as a deadlock's or a serialization conflict's victim. Anything else (a
/// database that does not exist, a refused password, an SQL error) is permanent.
fn transient(e: &postgres::Error) -> bool {
    if let Some(code) = e.code() {
        let c = code.code();
        return c.starts_with("08")
            || c.starts_with("53")
            || matches!(c, "57P01" | "57P02" | "57P03" | "40001" | "40P01" | "58030");
    }
    let mut cause = std::error::Error::source(e);
    while let Some(c) = cause {
        if c.is::<std::io::Error>() {
            return true;
        }
        cause = c.source();
    }
    e.is_closed()
}

fn secs(d: Duration) -> f64 {
    d.as_secs_f64()
}

impl JobQueue for PgQueue {
    fn reconnect(&self) -> Result<Box<dyn JobQueue>, QueueError> {
        Ok(Box::new(PgQueue::connect(&self.url)?))
    }

    fn name(&self) -> String {
        redact(&self.url)
    }

    fn enqueue(&mut self, jobs: &[NewJob]) -> Result<u64, QueueError> {
        let url = self.url.clone();
        let run = |client: &mut Client| -> Result<u64, postgres::Error> {
            let mut tx = client.transaction()?;
            let stmt = tx.prepare(
                "INSERT INTO queue_jobs (key, grp, version, spec, max_attempts, priority) VALUES ($1, $2, $3, $4, $5, $6)
                 ON CONFLICT (key) DO NOTHING",
            )?;
            let mut added = 0;
            for j in jobs {
                let spec = serde_json::to_string(&j.spec).expect("job specs serialize");
                let max = j.max_attempts as i32;
                added += tx.execute(&stmt, &[&j.key, &j.group, &j.version, &spec, &max, &j.priority])?;
            }
            tx.commit()?;
            Ok(added)
        };
        run(&mut self.client).map_err(|e| err(&url, "cannot add jobs", e))
    }

    fn put_bots(&mut self, bots: &[(String, Vec<u8>)]) -> Result<(), QueueError> {
        let url = self.url.clone();
        let run = |client: &mut Client| -> Result<(), postgres::Error> {
            let mut tx = client.transaction()?;
            let stmt = tx.prepare(
                "INSERT INTO queue_bots (hash, bytes) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING",
            )?;
            for (hash, bytes) in bots {
                tx.execute(&stmt, &[hash, bytes])?;
            }
            tx.commit()
        };
        run(&mut self.client).map_err(|e| err(&url, "cannot store bots", e))
    }

    fn bot(&mut self, hash: &str) -> Result<Option<Vec<u8>>, QueueError> {
        let row = self
            .client
            .query_opt("SELECT bytes FROM queue_bots WHERE hash = $1", &[&hash])
            .map_err(|e| self.err("cannot read a bot", e))?;
        Ok(row.map(|r| r.get(0)))
    }

    fn claim(
        &mut self,
        worker: &str,
        lease: Duration,
        version: &str,
        group: Option<&str>,
    ) -> Result<Option<Claimed>, QueueError> {
        // An expired lease on a job at its attempts cap: the job fails instead of a rerun.
        self.client.execute(&self.st.expire, &[]).map_err(|e| err(&self.url, "cannot claim a job", e))?;
        let row = self
            .client
            .query_opt(&self.st.claim, &[&worker, &secs(lease), &version, &group])
            .map_err(|e| self.err("cannot claim a job", e))?;
        Ok(row.map(|r| Claimed {
            id: r.get(0),
            key: r.get(1),
            group: r.get(2),
            spec: r.get(3),
            attempt: r.get::<_, i32>(4) as u32,
        }))
    }

    fn heartbeat(&mut self, id: i64, worker: &str, lease: Duration) -> Result<bool, QueueError> {
        let n = self
            .client
            .execute(&self.st.heartbeat, &[&secs(lease), &id, &worker])
            .map_err(|e| err(&self.url, "cannot extend a lease", e))?;
        Ok(n > 0)
    }

    fn complete(&mut self, id: i64, worker: &str, output: &JobOutput) -> Result<Completion, QueueError> {
        let url = self.url.clone();
        let st = &self.st;
        let run = |client: &mut Client| -> Result<Completion, postgres::Error> {
            let mut tx = client.transaction()?;
            tx.batch_execute("SET LOCAL synchronous_commit = on")?;
            let key: String = tx.query_one(&st.key_of, &[&id])?.get(0);
            let play_ms = output.play_ms as i64;
            let inserted = tx.execute(
                &st.insert_result,
                &[&key, &output.replay_hash, &output.summary, &output.replay, &worker, &play_ms],
            )?;
            let completion = if inserted == 1 {
                Completion::Stored
            } else {
                let stored: String = tx.query_one(&st.stored_hash, &[&key])?.get(0);
                if stored == output.replay_hash {
                    Completion::Duplicate
                } else {
                    tx.execute(
                        "INSERT INTO queue_alarms (key, stored_hash, other_hash, worker) VALUES ($1, $2, $3, $4)",
                        &[&key, &stored, &output.replay_hash, &worker],
                    )?;
                    Completion::Alarm { stored, other: output.replay_hash.clone() }
                }
            };
            tx.execute(&st.done, &[&id])?;
            tx.commit()?;
            Ok(completion)
        };
        run(&mut self.client).map_err(|e| err(&url, "cannot store a result", e))
    }

    fn fail(&mut self, id: i64, worker: &str, error: &str) -> Result<Failure, QueueError> {
        let row = self
            .client
            .query_opt(
                "UPDATE queue_jobs SET
                     state = CASE WHEN attempts >= max_attempts THEN 'failed' ELSE 'queued' END,
                     error = $3, lease_owner = NULL, lease_until = NULL
                 WHERE id = $1 AND lease_owner = $2 AND state = 'running'
                 RETURNING state",
                &[&id, &worker, &error],
            )
            .map_err(|e| self.err("cannot record a failure", e))?;
        Ok(match row.map(|r| r.get::<_, String>(0)).as_deref() {
            Some("failed") => Failure::Failed,
            Some(_) => Failure::Requeued,
            None => Failure::NotOurs,
        })
    }

    fn status(&mut self, version: &str) -> Result<Status, QueueError> {
        let url = self.url.clone();
        // One read-only snapshot: the counts and the lists are of one moment (the running
        // count is the running list's length).
        let run = |client: &mut Client| -> Result<Status, postgres::Error> {
            let mut c = client
                .build_transaction()
                .isolation_level(postgres::IsolationLevel::RepeatableRead)
                .read_only(true)
                .start()?;
            let mut st = Status::default();
            for r in c.query(
                "SELECT state, version = $1, version, count(*) FROM queue_jobs GROUP BY state, version ORDER BY version",
                &[&version],
            )? {
                let (state, ours, v, n): (String, bool, String, i64) = (r.get(0), r.get(1), r.get(2), r.get(3));
                st.add_jobs(&state, ours, v, n as u64);
            }
            st.leases = c
                .query(
                    "SELECT key, coalesce(lease_owner, ''), extract(epoch FROM lease_until - now())::float8, attempts
                     FROM queue_jobs WHERE state = 'running' ORDER BY id",
                    &[],
                )?
                .iter()
                .map(|r| Lease {
                    key: r.get(0),
                    worker: r.get(1),
                    expires_in: r.get::<_, Option<f64>>(2).unwrap_or(0.0),
                    attempt: r.get::<_, i32>(3) as u32,
                })
                .collect();
            st.failures = c
                .query(
                    "SELECT key, attempts, coalesce(error, '') FROM queue_jobs WHERE state = 'failed' ORDER BY id LIMIT 50",
                    &[],
                )?
                .iter()
                .map(|r| FailedJob { key: r.get(0), attempts: r.get::<_, i32>(1) as u32, error: r.get(2) })
                .collect();
            st.workers = c
                .query(
                    "SELECT worker, count(*), sum(play_ms)::bigint FROM queue_results GROUP BY worker ORDER BY worker",
                    &[],
                )?
                .iter()
                .map(|r| {
                    let (n, ms): (i64, i64) = (r.get(1), r.get(2));
                    WorkerStats {
                        worker: r.get(0),
                        matches: n as u64,
                        per_second: if ms > 0 { n as f64 * 1000.0 / ms as f64 } else { 0.0 },
                    }
                })
                .collect();
            st.alarms = c
                .query("SELECT key, stored_hash, other_hash, worker FROM queue_alarms ORDER BY id", &[])?
                .iter()
                .map(|r| Alarm { key: r.get(0), stored: r.get(1), other: r.get(2), worker: r.get(3) })
                .collect();
            c.commit()?;
            Ok(st)
        };
        run(&mut self.client).map_err(|e| err(&url, "cannot read the status", e))
    }

    fn results(&mut self, keys: &[String]) -> Result<BTreeMap<String, StoredResult>, QueueError> {
        let rows = self
            .client
            .query(
                "SELECT key, replay_hash, summary, worker FROM queue_results WHERE key = ANY($1)",
                &[&keys],
            )
            .map_err(|e| self.err("cannot read results", e))?;
        Ok(rows
            .iter()
            .map(|r| (r.get(0), StoredResult { replay_hash: r.get(1), summary: r.get(2), worker: r.get(3) }))
            .collect())
    }

    fn states(&mut self, keys: &[String]) -> Result<BTreeMap<String, (String, Option<String>)>, QueueError> {
        let rows = self
            .client
            .query("SELECT key, state, error FROM queue_jobs WHERE key = ANY($1)", &[&keys])
            .map_err(|e| self.err("cannot read job states", e))?;
        Ok(rows.iter().map(|r| (r.get(0), (r.get(1), r.get(2)))).collect())
    }

    fn replay(&mut self, key: &str) -> Result<Option<Vec<u8>>, QueueError> {
        let row = self
            .client
            .query_opt("SELECT replay FROM queue_results WHERE key = $1", &[&key])
            .map_err(|e| self.err("cannot read a replay", e))?;
        Ok(row.map(|r| r.get(0)))
    }
}
