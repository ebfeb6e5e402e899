//! Results in SQLite, next to the tournament file. Only this module knows SQLite.
//!
//! Every finished match is one row, committed as soon as the writer receives it (matches that
//! finish together share one transaction: a group commit), keyed by a
//! string that names everything that decides the match (event, game, variant, limits, deal seed,
//! and every seat's bot name and content hash). Rerunning a tournament skips the keys it finds, so
//! it resumes; a killed run loses at most the matches that were still being played, and the
//! unique key makes a duplicate impossible. A bot whose file changed has a new hash, hence new
//! keys: it is a new entrant and its matches are played again.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use anyhow::Context;
use rusqlite::{params, Connection, OptionalExtension};

use super::MatchSummary;
use crate::runner::Replay;

/// A match ready to store: its summary as JSON and its replay as deflated JSON. Made by
/// [`pack`] on the worker threads, so that the thread writing the database only writes.
pub struct Packed {
    summary: String,
    replay: Vec<u8>,
}

/// Serializes and compresses one match for [`Store::insert`].
pub fn pack(summary: &MatchSummary, replay: &Replay) -> Packed {
    Packer::new().pack(summary, replay)
}

/// [`pack`] with its buffers and deflate state kept between matches: a worker thread owns one
/// (a fresh compressor per match allocated and zeroed a few hundred KiB, ~14% of a Blade
/// tournament's CPU time).
pub struct Packer {
    json: Vec<u8>,
    deflate: flate2::write::DeflateEncoder<Vec<u8>>,
}

impl Packer {
    /// A packer with empty buffers.
    pub fn new() -> Packer {
        Packer {
            json: Vec::new(),
            deflate: flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast()),
        }
    }

    /// Serializes and compresses one match (the same bytes as a fresh encoder would give).
    pub fn pack(&mut self, summary: &MatchSummary, replay: &Replay) -> Packed {
        self.json.clear();
        serde_json::to_writer(&mut self.json, replay).expect("replays serialize");
        self.deflate.write_all(&self.json).expect("writing to memory");
        let replay = self.deflate.reset(Vec::new()).expect("writing to memory");
        Packed { summary: serde_json::to_string(summary).expect("summaries serialize"), replay }
    }
}

impl Default for Packer {
    fn default() -> Packer {
        Packer::new()
    }
}

/// An open results database.
pub struct Store {
    conn: Connection,
    path: PathBuf,
}

impl Store {
    /// Opens (creating if needed) the database at `path`.
    ///
    /// # Errors
    /// The file cannot be opened or is not a cardarena results database.
    pub fn open(path: &Path) -> anyhow::Result<Store> {
        let conn = Connection::open(path)
            .with_context(|| format!("cannot open results database {}", path.display()))?;
        conn.pragma_update(None, "journal_mode", "WAL")
            .and_then(|_| conn.pragma_update(None, "synchronous", "NORMAL"))
            .and_then(|_| conn.busy_timeout(std::time::Duration::from_secs(10)))
            .and_then(|_| {
                conn.execute_batch(
                    "CREATE TABLE IF NOT EXISTS matches (
                        id INTEGER PRIMARY KEY,
                        key TEXT NOT NULL UNIQUE,
                        event TEXT NOT NULL,
                        summary TEXT NOT NULL,
                        replay BLOB NOT NULL
                    );",
                )
            })
            .with_context(|| {
                format!(
                    "{} is not a usable cardarena results database (delete it to start afresh)",
                    path.display()
                )
            })?;
        Ok(Store { conn, path: path.to_path_buf() })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Every stored match summary of an event, by key (one query, for resuming).
    ///
    /// # Errors
    /// Database errors, or a stored summary that does not parse.
    pub fn summaries(&self, event: &str) -> anyhow::Result<std::collections::BTreeMap<String, MatchSummary>> {
        let mut stmt = self.conn.prepare("SELECT key, summary FROM matches WHERE event = ?1")?;
        let rows =
            stmt.query_map(params![event], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))?;
        let mut out = std::collections::BTreeMap::new();
        for row in rows {
            let (key, text) = row?;
            let summary =
                serde_json::from_str(&text).with_context(|| format!("corrupt summary for match {key:?}"))?;
            out.insert(key, summary);
        }
        Ok(out)
    }

    /// Stores finished matches, as made by [`pack`], in one transaction (a group commit: the
    /// writer commits whatever has finished since its last commit). Keys already there are left
    /// as they are.
    ///
    /// # Errors
    /// Database errors.
    pub fn insert(&self, matches: &[(&str, &str, &Packed)]) -> anyhow::Result<()> {
        let write = || -> rusqlite::Result<()> {
            let tx = self.conn.unchecked_transaction()?;
            {
                let mut stmt = tx.prepare_cached(
                    "INSERT OR IGNORE INTO matches (key, event, summary, replay) VALUES (?1, ?2, ?3, ?4)",
                )?;
                for (key, event, packed) in matches {
                    stmt.execute(params![key, event, packed.summary, packed.replay])?;
                }
            }
            tx.commit()
        };
        write().with_context(|| format!("cannot write to {}", self.path.display()))
    }

    /// Every stored match, in id order, optionally of one event only: `(id, event, summary)`.
    ///
    /// # Errors
    /// Database errors, or a stored summary that does not parse.
    pub fn list(&self, event: Option<&str>) -> anyhow::Result<Vec<(i64, String, MatchSummary)>> {
        let mut stmt = self
            .conn
            .prepare("SELECT id, event, summary FROM matches WHERE ?1 IS NULL OR event = ?1 ORDER BY id")?;
        let rows = stmt.query_map(params![event], |r| {
            Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?, r.get::<_, String>(2)?))
        })?;
        let mut out = Vec::new();
        for row in rows {
            let (id, event, text) = row?;
            let summary =
                serde_json::from_str(&text).with_context(|| format!("corrupt summary for match {id}"))?;
            out.push((id, event, summary));
        }
        Ok(out)
    }

    /// The id of the match stored under `key`, if any.
    ///
    /// # Errors
    /// Database errors.
    pub fn id_of(&self, key: &str) -> anyhow::Result<Option<i64>> {
        Ok(self
            .conn
            .query_row("SELECT id FROM matches WHERE key = ?1", params![key], |r| r.get(0))
            .optional()?)
    }

    /// The replay of match `id` (the row id shown by `arena tournament`).
    ///
    /// # Errors
    /// No such match, or a corrupt row.
    pub fn replay(&self, id: i64) -> anyhow::Result<Replay> {
        let blob: Vec<u8> = self
            .conn
            .query_row("SELECT replay FROM matches WHERE id = ?1", params![id], |r| r.get(0))
            .optional()?
            .with_context(|| format!("no match with id {id} in {}", self.path.display()))?;
        let mut text = String::new();
        flate2::read::DeflateDecoder::new(&blob[..])
            .read_to_string(&mut text)
            .with_context(|| format!("match {id}: corrupt replay"))?;
        serde_json::from_str(&text).with_context(|| format!("match {id}: corrupt replay"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Outcome;

    #[test]
    fn a_stored_replay_reads_back_by_id_and_a_key_is_stored_once() {
        let dir = std::env::temp_dir().join(format!("cardarena-store-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("t.db");
        let store = Store::open(&db).unwrap();
        let replay = Replay {
            format: 1,
            game: "ecard".into(),
            variant: "readme".into(),
            seed: 3,
            bots: Vec::new(),
            deal: serde_json::json!({"variant": "readme"}),
            decisions: Vec::new(),
            faults: vec![Vec::new(), Vec::new()],
            outcome: Outcome { points: vec![1, 0], ranks: vec![1, 2] },
            limits: Vec::new(),
        };
        let summary = MatchSummary::of(&replay);
        let packed = pack(&summary, &replay);
        // A reused packer gives the same bytes, match after match.
        let mut packer = Packer::new();
        for _ in 0..3 {
            let again = packer.pack(&summary, &replay);
            assert_eq!((&again.summary, &again.replay), (&packed.summary, &packed.replay));
        }
        store.insert(&[("k", "e", &packed), ("k", "e", &packed)]).unwrap();
        assert_eq!(store.summaries("e").unwrap().len(), 1);
        assert_eq!(store.replay(1).unwrap(), replay);
        assert!(store.replay(2).unwrap_err().to_string().contains("no match with id 2"));
        std::fs::remove_dir_all(&dir).ok();
    }
}
