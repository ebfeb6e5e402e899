//! Results in SQLite, next to the tournament file. Only this module knows SQLite.
//!
//! Every finished match is one row, committed as soon as the writer receives it (matches that
//! finish together share one transaction: a group commit), keyed by a
//! string that names everything that decides the match (event, game, variant, limits, deal seed,
//! and every seat's bot name and content hash). Rerunning a tournament skips the keys it finds, so
//! it resumes; a killed run loses at most the matches that were still being played, and the
//! unique key makes a duplicate impossible. A bot whose file changed has a new hash, hence new
//! keys: it is a new entrant and its matches are played again.

use std::io::Read;
use std::path::{Path, PathBuf};

use rusqlite::{params, Connection, OptionalExtension};

use super::MatchSummary;
use crate::play::runner::Replay;
use crate::play::HostError;

/// A match ready to store: its summary as JSON and its replay as compressed JSON (a zstd frame,
/// see [`Packer`]). Made by [`pack`] on the worker threads, so that the thread writing the
/// database only writes.
pub struct Packed {
    summary: String,
    replay: Vec<u8>,
}

/// Serializes and compresses one match for [`Store::insert`].
pub fn pack(summary: &MatchSummary, replay: &Replay) -> Packed {
    Packer::new().pack(summary, replay)
}

/// The zstd level of stored replays: the fastest of the regular levels. On a Blade
/// tournament's replays it compresses as well as the deflate it replaced (`Compression::fast`)
/// and at a fraction of the cost (BENCHMARKS.md).
const ZSTD_LEVEL: i32 = 1;

/// The first four bytes of every zstd frame (zstd's magic number, little-endian: 28 B5 2F FD).
/// A stored replay that starts with them is zstd; anything else is raw deflate, as databases
/// written before zstd hold. No deflate stream can start with them: 0x28 opens a stored block,
/// whose length (0x2FB5) and its complement (ending in 0xFD, not 0x4A) then disagree.
const ZSTD_MAGIC: [u8; 4] = zstd::zstd_safe::MAGICNUMBER.to_le_bytes();

/// [`pack`] with its buffers and zstd context kept between matches: a worker thread owns one.
/// A reused context skips setting up its tables per match (a large share of a tournament's
/// CPU time otherwise, BENCHMARKS.md), and its output does not depend on the
/// matches packed before: the same replay always gives the same bytes.
pub struct Packer {
    json: Vec<u8>,
    zstd: zstd::bulk::Compressor<'static>,
}

impl Packer {
    /// A packer with empty buffers.
    pub fn new() -> Packer {
        Packer {
            json: Vec::new(),
            zstd: zstd::bulk::Compressor::new(ZSTD_LEVEL).expect("a zstd context (memory)"),
        }
    }

    /// Serializes and compresses one match (the same bytes as a fresh packer would give).
    pub fn pack(&mut self, summary: &MatchSummary, replay: &Replay) -> Packed {
        self.json.clear();
        serde_json::to_writer(&mut self.json, replay).expect("replays serialize");
        let replay = self.zstd.compress(&self.json).expect("compressing in memory");
        Packed { summary: serde_json::to_string(summary).expect("summaries serialize"), replay }
    }

    /// As [`Packer::pack`], with the SHA-256 of the replay's JSON (lowercase hex): the hash a
    /// job queue's result carries, which two runs of one match must agree on.
    pub fn pack_hashed(&mut self, summary: &MatchSummary, replay: &Replay) -> (Packed, String) {
        let packed = self.pack(summary, replay);
        (packed, crate::bots::bot::content_hash(&self.json))
    }
}

impl Packed {
    /// The summary as JSON.
    pub fn summary(&self) -> &str {
        &self.summary
    }

    /// The replay, compressed (see [`Packer`]).
    pub fn replay(&self) -> &[u8] {
        &self.replay
    }
}

impl Default for Packer {
    fn default() -> Packer {
        Packer::new()
    }
}

/// Sets up a connection as every cardarena database is: a WAL journal (readers never wait for
/// the writer), `synchronous = NORMAL` (commits are synced at checkpoints, not one by one), and
/// a wait of up to `LIMIT_MS` for another connection's write lock (see [`busy_wait`]).
///
/// # Errors
/// The pragmas fail (the file is not a database, or is read-only).
pub fn set_up<const LIMIT_MS: u64>(conn: &Connection) -> rusqlite::Result<()> {
    conn.pragma_update(None, "journal_mode", "WAL")?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.busy_handler(Some(busy_wait::<LIMIT_MS>))
}

/// Waits while another connection holds the write lock: every 100 µs for the first 100 tries,
/// then every 5 ms, giving up after about `LIMIT_MS`. SQLite's own busy timeout first sleeps
/// 1 ms, then longer: as long as a whole match, while the write transactions that collide here
/// (a worker's claim or result, the ladder's bookkeeping) take a fraction of a millisecond.
fn busy_wait<const LIMIT_MS: u64>(tries: i32) -> bool {
    const SHORT: u64 = 100;
    let tries = u64::try_from(tries).unwrap_or(0);
    let waited_ms = if tries < SHORT { tries / 10 } else { SHORT / 10 + (tries - SHORT) * 5 };
    if waited_ms >= LIMIT_MS {
        return false;
    }
    let step = if tries < SHORT {
        std::time::Duration::from_micros(100)
    } else {
        std::time::Duration::from_millis(5)
    };
    std::thread::sleep(step);
    true
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
    pub fn open(path: &Path) -> Result<Store, HostError> {
        let conn = Connection::open(path)
            .map_err(HostError::store(format!("cannot open results database {}", path.display())))?;
        set_up::<10_000>(&conn)
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
            .map_err(HostError::store(format!(
                "{} is not a usable cardarena results database (delete it to start afresh)",
                path.display()
            )))?;
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
    pub fn summaries(
        &self,
        event: &str,
    ) -> Result<std::collections::BTreeMap<String, MatchSummary>, HostError> {
        let read = || -> rusqlite::Result<Vec<(String, String)>> {
            let mut stmt = self.conn.prepare("SELECT key, summary FROM matches WHERE event = ?1")?;
            let rows = stmt.query_map(params![event], |r| Ok((r.get(0)?, r.get(1)?)))?;
            rows.collect()
        };
        let mut out = std::collections::BTreeMap::new();
        for (key, text) in read().map_err(self.reading())? {
            let summary = serde_json::from_str(&text).map_err(|e| {
                HostError::Damaged(format!("{}: corrupt summary for match {key:?}: {e}", self.path.display()))
            })?;
            out.insert(key, summary);
        }
        Ok(out)
    }

    /// A database error while reading, naming the file.
    fn reading(&self) -> impl FnOnce(rusqlite::Error) -> HostError {
        HostError::store(format!("cannot read results database {}", self.path.display()))
    }

    /// Stores finished matches, as made by [`pack`], in one transaction (a group commit: the
    /// writer commits whatever has finished since its last commit). Keys already there are left
    /// as they are.
    ///
    /// # Errors
    /// Database errors.
    pub fn insert(&self, matches: &[(&str, &str, &Packed)]) -> Result<(), HostError> {
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
        write().map_err(HostError::store(format!("cannot write to {}", self.path.display())))
    }

    /// Every stored match, in id order, optionally of one event only: `(id, event, summary)`.
    ///
    /// # Errors
    /// Database errors, or a stored summary that does not parse.
    pub fn list(&self, event: Option<&str>) -> Result<Vec<(i64, String, MatchSummary)>, HostError> {
        let read = || -> rusqlite::Result<Vec<(i64, String, String)>> {
            let mut stmt = self.conn.prepare(
                "SELECT id, event, summary FROM matches WHERE ?1 IS NULL OR event = ?1 ORDER BY id",
            )?;
            let rows = stmt.query_map(params![event], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            rows.collect()
        };
        let mut out = Vec::new();
        for (id, event, text) in read().map_err(self.reading())? {
            let summary = serde_json::from_str(&text).map_err(|e| {
                HostError::Damaged(format!("{}: corrupt summary for match {id}: {e}", self.path.display()))
            })?;
            out.push((id, event, summary));
        }
        Ok(out)
    }

    /// The id of the match stored under `key`, if any.
    ///
    /// # Errors
    /// Database errors.
    pub fn id_of(&self, key: &str) -> Result<Option<i64>, HostError> {
        self.conn
            .query_row("SELECT id FROM matches WHERE key = ?1", params![key], |r| r.get(0))
            .optional()
            .map_err(self.reading())
    }

    /// Copies every match of the results database `other` (a shard's, `arena tournament
    /// --shard`) into this one, in `other`'s id order; keys already here are kept. Returns how
    /// many matches were added and the keys that both hold with different replays (a
    /// determinism alarm: the same match played twice gave two results).
    ///
    /// # Errors
    /// `other` cannot be read as a results database, or this one cannot be written.
    pub fn merge(&self, other: &Path) -> Result<(u64, Vec<String>), HostError> {
        if !other.is_file() {
            return Err(HostError::Request(format!("no results database {} to merge", other.display())));
        }
        let merge = || -> rusqlite::Result<(u64, Vec<String>)> {
            self.conn.execute("ATTACH DATABASE ?1 AS shard", params![other.to_string_lossy()])?;
            let run = || -> rusqlite::Result<(u64, Vec<String>)> {
                let tx = self.conn.unchecked_transaction()?;
                let differ = {
                    let mut stmt = tx.prepare(
                        "SELECT s.key FROM shard.matches s JOIN main.matches m ON m.key = s.key
                         WHERE m.replay != s.replay ORDER BY s.id",
                    )?;
                    let rows = stmt.query_map([], |r| r.get::<_, String>(0))?;
                    rows.collect::<rusqlite::Result<Vec<_>>>()?
                };
                let added = tx.execute(
                    "INSERT OR IGNORE INTO main.matches (key, event, summary, replay)
                     SELECT key, event, summary, replay FROM shard.matches ORDER BY id",
                    [],
                )?;
                tx.commit()?;
                Ok((added as u64, differ))
            };
            let out = run();
            self.conn.execute("DETACH DATABASE shard", [])?;
            out
        };
        merge().map_err(HostError::store(format!(
            "cannot merge {} into {} (is it a cardarena results database?)",
            other.display(),
            self.path.display()
        )))
    }

    /// The replay of match `id` (the row id shown by `arena tournament`).
    ///
    /// # Errors
    /// No such match, or a corrupt row.
    pub fn replay(&self, id: i64) -> Result<Replay, HostError> {
        let blob: Vec<u8> = self
            .conn
            .query_row("SELECT replay FROM matches WHERE id = ?1", params![id], |r| r.get(0))
            .optional()
            .map_err(self.reading())?
            .ok_or_else(|| HostError::Request(format!("no match with id {id} in {}", self.path.display())))?;
        let corrupt = |e: &dyn std::fmt::Display| {
            HostError::Damaged(format!("{}: match {id}: corrupt replay: {e}", self.path.display()))
        };
        let text = unpack(&blob).map_err(|e| corrupt(&e))?;
        serde_json::from_str(&text).map_err(|e| corrupt(&e))
    }
}

/// A stored replay's JSON text: zstd (this version) or raw deflate (earlier databases).
///
/// # Errors
/// The bytes are not a compressed replay.
pub fn unpack(blob: &[u8]) -> std::io::Result<String> {
    let bytes = if blob.starts_with(&ZSTD_MAGIC) {
        zstd::stream::decode_all(blob)?
    } else {
        let mut out = Vec::new();
        flate2::read::DeflateDecoder::new(blob).read_to_end(&mut out)?;
        out
    };
    String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
}

/// Reads the replay of match `id` from a tournament database.
///
/// # Errors
/// The database does not exist or has no such match.
pub fn load_replay(db: &Path, id: i64) -> Result<Replay, HostError> {
    if !db.is_file() {
        return Err(HostError::Request(format!(
            "no results database {} (a tournament writes <file>.db beside its arena.toml)",
            db.display()
        )));
    }
    let store = Store::open(db)?;
    let replay = store.replay(id).map_err(|e| match e {
        HostError::Request(m) => HostError::Request(format!(
            "{m}; list the matches with `arena replay --db {} --list`",
            db.display()
        )),
        e => e,
    })?;
    crate::play::resim::check_format(&replay, &format!("{} match {id}", db.display()))?;
    Ok(replay)
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

    /// A Blade match between the built-in random bots.
    fn blade_replay(seed: u64) -> Replay {
        use crate::games::blade::Blade;
        use crate::games::Game;
        let source = crate::play::registry::Loader::new().resolve::<Blade>("random").unwrap();
        let limits = crate::play::limits::LimitsConfig::default();
        let spec = crate::play::runner::MatchSpec::<Blade> {
            variant: Blade::variants()[0],
            seed,
            entries: vec![source.entry(), source.entry()],
        };
        let mut bots = vec![
            source.instantiate::<Blade>(seed, 0, &limits),
            source.instantiate::<Blade>(seed, 1, &limits),
        ];
        crate::play::runner::run_match(&spec, &mut bots, &mut crate::play::runner::Quiet)
    }

    /// A packer's bytes depend only on the match, not on the matches it packed before (so a
    /// tournament's database does not depend on which worker packed which match), and they are
    /// zstd frames that read back as the replay.
    #[test]
    fn packed_replays_do_not_depend_on_the_packers_history() {
        let (a, b) = (blade_replay(1), blade_replay(2));
        let fresh_a = pack(&MatchSummary::of(&a), &a);
        let mut packer = Packer::new();
        packer.pack(&MatchSummary::of(&b), &b);
        let after_b = packer.pack(&MatchSummary::of(&a), &a);
        assert_eq!(after_b.replay, fresh_a.replay);
        assert!(fresh_a.replay.starts_with(&ZSTD_MAGIC));
        let json = serde_json::to_vec(&a).unwrap();
        assert!(fresh_a.replay.len() * 3 < json.len(), "{} of {} bytes", fresh_a.replay.len(), json.len());
        let back: Replay = serde_json::from_str(&unpack(&fresh_a.replay).unwrap()).unwrap();
        assert_eq!(back, a);
    }

    /// `arena merge`: shards' rows are added once, and a key two shards hold with different
    /// replays is reported (the first kept).
    #[test]
    fn merging_shards_adds_each_match_once_and_reports_different_results() {
        let dir = std::env::temp_dir().join(format!("cardarena-merge-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let (a, b) = (blade_replay(1), blade_replay(2));
        let (pa, pb) = (pack(&MatchSummary::of(&a), &a), pack(&MatchSummary::of(&b), &b));
        let shard0 = Store::open(&dir.join("s0.db")).unwrap();
        shard0.insert(&[("k1", "e", &pa), ("k2", "e", &pa)]).unwrap();
        let shard1 = Store::open(&dir.join("s1.db")).unwrap();
        shard1.insert(&[("k2", "e", &pb), ("k3", "e", &pb)]).unwrap();
        let out = Store::open(&dir.join("all.db")).unwrap();
        assert_eq!(out.merge(&dir.join("s0.db")).unwrap(), (2, vec![]));
        assert_eq!(out.merge(&dir.join("s1.db")).unwrap(), (1, vec!["k2".to_string()]));
        assert_eq!(out.merge(&dir.join("s0.db")).unwrap(), (0, vec![]), "merging again adds nothing");
        let stored = out.summaries("e").unwrap();
        assert_eq!(stored.len(), 3);
        assert_eq!(stored["k2"], MatchSummary::of(&a), "the first result is kept");
        assert!(out.merge(&dir.join("missing.db")).unwrap_err().to_string().contains("missing.db"));
        std::fs::remove_dir_all(&dir).ok();
    }

    /// Databases written before zstd hold raw deflate: they still read.
    #[test]
    fn a_deflated_replay_from_an_earlier_database_still_reads() {
        use std::io::Write;
        let replay = blade_replay(3);
        let mut deflate = flate2::write::DeflateEncoder::new(Vec::new(), flate2::Compression::fast());
        deflate.write_all(&serde_json::to_vec(&replay).unwrap()).unwrap();
        let blob = deflate.finish().unwrap();
        let back: Replay = serde_json::from_str(&unpack(&blob).unwrap()).unwrap();
        assert_eq!(back, replay);
        // and a blob that is neither is an error, not a panic
        assert!(unpack(&[0x28, 0xB5, 0x2F, 0xFD, 1, 2, 3]).is_err());
        assert!(unpack(b"not compressed").is_err());
    }
}
