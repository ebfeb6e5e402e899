//! The tables of class mode (`crate::class`): events, their frozen entrants and their queued
//! matches.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::{BotRow, DbError, SqliteStore, Store, Version};
use crate::time::utc_text;
use cardarena::games::rng::derive_seed;

/// A class event.
#[derive(Clone, Debug, Serialize)]
pub struct Event {
    /// Row id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The game.
    pub game: String,
    /// The variant.
    pub variant: String,
    /// Deals per reference bot and per pairing of the round robin.
    pub deals: u32,
    /// The reference bots.
    pub against: Vec<String>,
    /// The submission deadline (seconds since 1970, UTC).
    pub deadline: i64,
    /// The deadline as text (UTC).
    pub deadline_text: String,
    /// The deals' seed (derived from the ladder's seed and the id).
    pub seed: u64,
    /// `open` (taking uploads), `running` (frozen, matches queued), `done`, `ended` (not
    /// graded; `message` says why).
    pub state: String,
    /// Why an event ended without grades.
    pub message: String,
    /// Matches played so far (of a running event).
    pub done: i64,
}

/// An event as the admin's form asks for it.
#[derive(Clone, Debug)]
pub struct NewEvent {
    /// Its name.
    pub name: String,
    /// The game's name.
    pub game: String,
    /// The variant (a board of the ladder).
    pub variant: String,
    /// Deals per reference bot and per pairing.
    pub deals: u32,
    /// The reference bots.
    pub against: Vec<String>,
    /// The submission deadline (seconds since 1970, UTC).
    pub deadline: i64,
}

/// A frozen entrant of an event.
#[derive(Clone, Debug, Serialize)]
pub struct Entry {
    /// Its place (the grade's order: by file name).
    pub position: i64,
    /// The frozen version's id.
    pub version: i64,
    /// Its name in the grade (`<bot>@v<N>.<lang>`).
    pub file: String,
    /// The content hash of the frozen file.
    pub hash: String,
    /// The bot's id.
    pub bot: i64,
    /// The owner's name.
    pub owner: String,
}

const EVENT_SELECT: &str =
    "SELECT id, name, game, variant, deals, against, deadline, seed, state, message, done FROM class_events";

fn event_of(r: &rusqlite::Row) -> rusqlite::Result<Event> {
    let against: String = r.get(5)?;
    let seed: i64 = r.get(7)?;
    let deadline: i64 = r.get(6)?;
    Ok(Event {
        id: r.get(0)?,
        name: r.get(1)?,
        game: r.get(2)?,
        variant: r.get(3)?,
        deals: r.get(4)?,
        against: against.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect(),
        deadline,
        deadline_text: utc_text(deadline),
        seed: seed as u64,
        state: r.get(8)?,
        message: r.get(9)?,
        done: r.get(10)?,
    })
}

/// What stands at an event's deadline.
pub enum Frozen {
    /// Versions uploaded before the deadline are still being validated: wait for them.
    Validating(usize),
    /// The newest ready version of every bot, uploaded before the deadline.
    Ready(Vec<(BotRow, Version)>),
}

/// What stands at `deadline` in `game` of `db`, given how many versions uploaded by then are
/// still being validated (each backend counts them in its own SQL).
pub(super) fn frozen(db: &dyn Store, game: &str, deadline: i64, validating: i64) -> Result<Frozen, DbError> {
    if validating > 0 {
        return Ok(Frozen::Validating(validating as usize));
    }
    let mut out = Vec::new();
    for bot in db.bots()?.into_iter().filter(|b| b.game == game && !b.disabled) {
        if db.user(bot.owner)?.is_none_or(|u| u.disabled) {
            continue;
        }
        let newest = db.versions(bot.id)?.into_iter().find(|v| v.created <= deadline && v.state == "ready");
        if let Some(v) = newest {
            out.push((bot, v));
        }
    }
    Ok(Frozen::Ready(out))
}

impl SqliteStore {
    pub(super) fn create_class_event(
        &self,
        event: &NewEvent,
        by: i64,
        ladder_seed: u64,
    ) -> Result<i64, DbError> {
        let mut conn = self.conn();
        let run = |c: &mut rusqlite::Connection| -> rusqlite::Result<i64> {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO class_events (name, game, variant, deals, against, deadline, created_by, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    event.name,
                    event.game,
                    event.variant,
                    event.deals,
                    event.against.join(","),
                    event.deadline,
                    by,
                    super::now()
                ],
            )?;
            let id = tx.last_insert_rowid();
            let seed = derive_seed(&[ladder_seed, id as u64]);
            tx.execute("UPDATE class_events SET seed = ?1 WHERE id = ?2", params![seed as i64, id])?;
            tx.commit()?;
            Ok(id)
        };
        run(&mut conn).map_err(|e| self.err(e))
    }

    pub(super) fn class_events(&self) -> Result<Vec<Event>, DbError> {
        self.with(|c| {
            let mut s = c.prepare(&format!("{EVENT_SELECT} ORDER BY id DESC"))?;
            let rows = s.query_map([], event_of)?.collect();
            rows
        })
    }

    pub(super) fn class_event(&self, id: i64) -> Result<Option<Event>, DbError> {
        self.with(|c| c.query_row(&format!("{EVENT_SELECT} WHERE id = ?1"), params![id], event_of).optional())
    }

    pub(super) fn class_entries(&self, event: i64) -> Result<Vec<Entry>, DbError> {
        self.with(|c| {
            let mut s = c.prepare(
                "SELECT e.position, e.version, e.file, e.hash, v.bot, u.name FROM class_entries e
                 JOIN versions v ON v.id = e.version JOIN bots b ON b.id = v.bot JOIN users u ON u.id = b.owner
                 WHERE e.event = ?1 ORDER BY e.position",
            )?;
            let rows = s
                .query_map(params![event], |r| {
                    Ok(Entry {
                        position: r.get(0)?,
                        version: r.get(1)?,
                        file: r.get(2)?,
                        hash: r.get(3)?,
                        bot: r.get(4)?,
                        owner: r.get(5)?,
                    })
                })?
                .collect();
            rows
        })
    }

    pub(super) fn class_match_keys(&self, event: i64) -> Result<Vec<String>, DbError> {
        self.with(|c| {
            let mut s = c.prepare("SELECT key FROM class_matches WHERE event = ?1 ORDER BY position")?;
            let rows = s.query_map(params![event], |r| r.get(0))?.collect();
            rows
        })
    }

    pub(super) fn frozen_at(&self, game: &str, deadline: i64) -> Result<Frozen, DbError> {
        let validating: i64 = self.with(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM versions v JOIN bots b ON b.id = v.bot
                 WHERE b.game = ?1 AND v.created <= ?2 AND v.state = 'pending'",
                params![game, deadline],
                |r| r.get(0),
            )
        })?;
        frozen(self, game, deadline, validating)
    }

    pub(super) fn freeze_class_event(
        &self,
        event: i64,
        entries: &[(i64, String, String)],
        keys: &[String],
    ) -> Result<(), DbError> {
        let mut conn = self.conn();
        let run = |c: &mut rusqlite::Connection| -> rusqlite::Result<()> {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            for (i, (version, file, hash)) in entries.iter().enumerate() {
                tx.execute(
                    "INSERT OR REPLACE INTO class_entries (event, position, version, file, hash)
                     VALUES (?1, ?2, ?3, ?4, ?5)",
                    params![event, i as i64, version, file, hash],
                )?;
            }
            for (i, key) in keys.iter().enumerate() {
                tx.execute(
                    "INSERT OR REPLACE INTO class_matches (event, position, key) VALUES (?1, ?2, ?3)",
                    params![event, i as i64, key],
                )?;
            }
            tx.execute(
                "UPDATE class_events SET state = 'running' WHERE id = ?1 AND state = 'open'",
                params![event],
            )?;
            tx.commit()
        };
        run(&mut conn).map_err(|e| self.err(e))
    }

    pub(super) fn set_class_state(&self, event: i64, state: &str, message: &str) -> Result<(), DbError> {
        self.with(|c| {
            c.execute(
                "UPDATE class_events SET state = ?1, message = ?2 WHERE id = ?3",
                params![state, message, event],
            )
        })
        .map(drop)
    }

    pub(super) fn set_class_done(&self, event: i64, done: usize) -> Result<(), DbError> {
        self.with(|c| {
            c.execute("UPDATE class_events SET done = ?1 WHERE id = ?2", params![done as i64, event])
        })
        .map(drop)
    }

    pub(super) fn finish_class_event(
        &self,
        event: i64,
        csv: &str,
        report: &str,
        rows: &str,
        done: usize,
    ) -> Result<(), DbError> {
        self.with(|c| {
            c.execute(
                "UPDATE class_events SET state = 'done', csv = ?1, report = ?2, rows = ?3, done = ?4 WHERE id = ?5",
                params![csv, report, rows, done as i64, event],
            )
        })
        .map(drop)
    }

    pub(super) fn class_results(&self, event: i64) -> Result<Option<(String, String, String)>, DbError> {
        self.with(|c| {
            c.query_row(
                "SELECT csv, report, rows FROM class_events WHERE id = ?1 AND state = 'done'",
                params![event],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
        })
    }
}
