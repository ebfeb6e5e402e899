//! The table of the match page's analyses (`crate::analysis`): one row per match and seat,
//! asked for by a visitor, computed once by a worker between its matches, and kept.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::{now, DbError, SqliteStore};

type Result<T> = std::result::Result<T, DbError>;

/// The analyses' table (SQLite; `postgres.rs` has the same in PostgreSQL's types). `state` is
/// `queued`, `running` (leased to `worker` until `lease_until`), `done` (with `result`, the
/// analysis' JSON) or `failed` (with `error`); `budget`: samples per decision (NULL: the game's
/// default).
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS analyses (
    match_id INTEGER NOT NULL REFERENCES matches(id),
    seat INTEGER NOT NULL,
    state TEXT NOT NULL,
    result TEXT,
    error TEXT,
    requested_by INTEGER NOT NULL REFERENCES users(id),
    requested INTEGER NOT NULL,
    budget INTEGER,
    worker TEXT,
    lease_until INTEGER,
    attempts INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS analyses_waiting ON analyses(state, requested);
CREATE INDEX IF NOT EXISTS analyses_by ON analyses(requested_by, state);
";

/// One seat's analysis of a match, as asked for.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AnalysisRow {
    /// The match.
    pub match_id: i64,
    /// The seat.
    pub seat: i64,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    /// The analysis (JSON, as `arena analyse --json` prints it), once done.
    pub result: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
    /// When it was asked for (seconds since 1970).
    pub requested: i64,
}

impl AnalysisRow {
    /// Whether a worker has yet to finish it.
    pub fn waiting(&self) -> bool {
        matches!(self.state.as_str(), "queued" | "running")
    }
}

/// An analysis leased to a worker ([`crate::Store::claim_analysis`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClaimedAnalysis {
    /// The match.
    pub match_id: i64,
    /// The seat.
    pub seat: i64,
    /// This claim's attempt (1 for the first).
    pub attempt: i64,
    /// Samples per decision (`None`: the game's default).
    pub budget: Option<u32>,
}

/// The error of an analysis given up after `attempts` claims.
pub(super) fn gave_up(attempts: i64) -> String {
    format!("no worker finished it in {attempts} attempts (each stopped while analysing)")
}

const SELECT: &str = "SELECT match_id, seat, state, result, error, requested FROM analyses";

fn row_of(r: &rusqlite::Row) -> rusqlite::Result<AnalysisRow> {
    Ok(AnalysisRow {
        match_id: r.get(0)?,
        seat: r.get(1)?,
        state: r.get(2)?,
        result: r.get(3)?,
        error: r.get(4)?,
        requested: r.get(5)?,
    })
}

impl SqliteStore {
    pub(super) fn request_analysis(
        &self,
        match_id: i64,
        seat: i64,
        user: i64,
        budget: Option<u32>,
        max_waiting: i64,
    ) -> Result<Option<AnalysisRow>> {
        self.with(|c| {
            c.execute(
                "INSERT OR IGNORE INTO analyses (match_id, seat, state, requested_by, requested, budget)
                 SELECT ?1, ?2, 'queued', ?3, ?4, ?6
                 WHERE (SELECT COUNT(*) FROM analyses WHERE requested_by = ?3 AND state IN ('queued', 'running')) < ?5",
                params![match_id, seat, user, now(), max_waiting, budget],
            )?;
            c.query_row(&format!("{SELECT} WHERE match_id = ?1 AND seat = ?2"), params![match_id, seat], row_of)
                .optional()
        })
    }

    pub(super) fn analysis(&self, match_id: i64, seat: i64) -> Result<Option<AnalysisRow>> {
        self.with(|c| {
            c.query_row(
                &format!("{SELECT} WHERE match_id = ?1 AND seat = ?2"),
                params![match_id, seat],
                row_of,
            )
            .optional()
        })
    }

    pub(super) fn analyses_of(&self, match_id: i64) -> Result<Vec<AnalysisRow>> {
        self.with(|c| {
            let mut s = c.prepare(
                "SELECT match_id, seat, state, NULL, error, requested FROM analyses WHERE match_id = ?1 ORDER BY seat",
            )?;
            let rows = s.query_map(params![match_id], row_of)?.collect();
            rows
        })
    }

    pub(super) fn claim_analysis(
        &self,
        worker: &str,
        lease_seconds: i64,
        asked_before: i64,
        max_attempts: i64,
    ) -> Result<Option<ClaimedAnalysis>> {
        let now = now();
        self.with(|c| {
            c.execute(
                "UPDATE analyses SET state = 'failed', error = ?1, worker = NULL, lease_until = NULL
                 WHERE state = 'running' AND lease_until < ?2 AND attempts >= ?3",
                params![gave_up(max_attempts), now, max_attempts],
            )?;
            c.query_row(
                "UPDATE analyses SET state = 'running', worker = ?1, lease_until = ?2, attempts = attempts + 1
                 WHERE (match_id, seat) = (
                     SELECT match_id, seat FROM analyses
                     WHERE (state = 'queued' OR (state = 'running' AND lease_until < ?3)) AND requested <= ?4
                     ORDER BY requested, match_id, seat LIMIT 1)
                 RETURNING match_id, seat, attempts, budget",
                params![worker, now + lease_seconds, now, asked_before],
                |r| {
                    Ok(ClaimedAnalysis {
                        match_id: r.get(0)?,
                        seat: r.get(1)?,
                        attempt: r.get(2)?,
                        budget: r.get(3)?,
                    })
                },
            )
            .optional()
        })
    }

    pub(super) fn finish_analysis(
        &self,
        match_id: i64,
        seat: i64,
        outcome: std::result::Result<&str, &str>,
    ) -> Result<()> {
        let (state, result, error) = match outcome {
            Ok(json) => ("done", Some(json), None),
            Err(e) => ("failed", None, Some(e)),
        };
        self.with(|c| {
            c.execute(
                "UPDATE analyses SET state = ?1, result = ?2, error = ?3, worker = NULL, lease_until = NULL
                 WHERE match_id = ?4 AND seat = ?5 AND state <> 'done'",
                params![state, result, error, match_id, seat],
            )
        })
        .map(drop)
    }
}
