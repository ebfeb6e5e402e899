//! The ladder's storage in PostgreSQL (cargo feature `postgres`): the tables of the SQLite
//! database with PostgreSQL's types, so that `arena serve --db postgres://…` and `arena worker`
//! processes on other machines share one ladder. One client behind a mutex, as SQLite has one
//! connection; a client whose connection was lost is replaced at the next call.
//!
//! Where SQLite serialises writers (`BEGIN IMMEDIATE`), the transactions that read before they
//! write (upload, registration) take one advisory lock, so two servers or two requests at once
//! give the same answers as on SQLite.

use std::sync::{Mutex, MutexGuard};

use postgres::{Client, NoTls, Row};

use super::analysis::{gave_up, AnalysisRow, ClaimedAnalysis};
use super::class::{Entry, Event, Frozen, NewEvent};
use super::garage::{self, Draft, NewTry, Try};
use super::play::{Game, NewPlayGame, Turn};
use super::{
    name_key, now, secret, BotRow, DbError, MatchRow, Pending, Store, Taken, TokenRow, UploadRefused, User,
    Version,
};
use crate::time::utc_text;
use cardarena::bots::bot::content_hash;
use cardarena::games::rng::derive_seed;

type Result<T, E = DbError> = std::result::Result<T, E>;

/// The ladder's tables. Names are unique by `name_key` from the start (SQLite adds the column
/// to older files); `tokens` and `pending` have an id column where SQLite uses its `rowid`.
const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS users (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    name_key TEXT NOT NULL UNIQUE,
    pw_hash TEXT NOT NULL,
    admin BOOLEAN NOT NULL DEFAULT false,
    disabled BOOLEAN NOT NULL DEFAULT false,
    session_epoch BIGINT NOT NULL DEFAULT 0,
    created BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS invites (
    code_hash TEXT PRIMARY KEY,
    admin BOOLEAN NOT NULL,
    made_by BIGINT REFERENCES users(id),
    used_by BIGINT REFERENCES users(id),
    created BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    id BIGSERIAL UNIQUE,
    hash TEXT PRIMARY KEY,
    user_id BIGINT NOT NULL REFERENCES users(id),
    label TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    expiry BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
    hash TEXT PRIMARY KEY,
    bytes BYTEA NOT NULL
);
CREATE TABLE IF NOT EXISTS bots (
    id BIGSERIAL PRIMARY KEY,
    owner BIGINT NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    name_key TEXT NOT NULL,
    published BOOLEAN NOT NULL DEFAULT false,
    disabled BOOLEAN NOT NULL DEFAULT false,
    UNIQUE (game, name),
    UNIQUE (game, name_key)
);
CREATE TABLE IF NOT EXISTS versions (
    id BIGSERIAL PRIMARY KEY,
    bot BIGINT NOT NULL REFERENCES bots(id),
    number BIGINT NOT NULL,
    hash TEXT NOT NULL REFERENCES files(hash),
    lang TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    verdicts TEXT NOT NULL DEFAULT '[]',
    created BIGINT NOT NULL,
    UNIQUE (bot, number)
);
CREATE INDEX IF NOT EXISTS versions_hash ON versions(hash);
CREATE TABLE IF NOT EXISTS matches (
    id BIGSERIAL PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seats TEXT NOT NULL,
    summary TEXT NOT NULL,
    replay BYTEA NOT NULL,
    tick BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_board ON matches(game, variant);
CREATE TABLE IF NOT EXISTS pending (
    id BIGSERIAL UNIQUE,
    key TEXT PRIMARY KEY,
    version BIGINT,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    seed BIGINT NOT NULL,
    seats TEXT NOT NULL,
    tick BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS counters (
    name TEXT PRIMARY KEY,
    value BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS play_games (
    id BIGSERIAL PRIMARY KEY,
    "user" BIGINT NOT NULL REFERENCES users(id),
    version BIGINT NOT NULL REFERENCES versions(id),
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    seat BIGINT NOT NULL,
    seed BIGINT NOT NULL,
    key TEXT NOT NULL UNIQUE,
    move_seconds BIGINT NOT NULL,
    state TEXT NOT NULL,
    error TEXT,
    summary TEXT,
    replay BYTEA,
    created BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS play_games_user ON play_games("user");
-- At most one game in play per person: two starts at once make one game.
CREATE UNIQUE INDEX IF NOT EXISTS play_games_live ON play_games("user")
    WHERE state IN ('queued', 'playing', 'resigned');
CREATE TABLE IF NOT EXISTS play_turns (
    game BIGINT NOT NULL REFERENCES play_games(id),
    n BIGINT NOT NULL,
    view TEXT NOT NULL,
    observation TEXT NOT NULL,
    legal TEXT NOT NULL,
    action TEXT,
    PRIMARY KEY (game, n)
);
CREATE TABLE IF NOT EXISTS class_events (
    id BIGSERIAL PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    deals BIGINT NOT NULL,
    against TEXT NOT NULL,
    deadline BIGINT NOT NULL,
    seed BIGINT NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'open',
    message TEXT NOT NULL DEFAULT '',
    done BIGINT NOT NULL DEFAULT 0,
    csv TEXT,
    report TEXT,
    rows TEXT,
    created_by BIGINT NOT NULL REFERENCES users(id),
    created BIGINT NOT NULL
);
CREATE TABLE IF NOT EXISTS class_entries (
    event BIGINT NOT NULL REFERENCES class_events(id),
    position BIGINT NOT NULL,
    version BIGINT NOT NULL REFERENCES versions(id),
    file TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (event, position)
);
CREATE TABLE IF NOT EXISTS class_matches (
    event BIGINT NOT NULL REFERENCES class_events(id),
    position BIGINT NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (event, position)
);
"#;

/// The analyses' table (`db/analysis.rs` has SQLite's).
const ANALYSIS_SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS analyses (
    match_id BIGINT NOT NULL REFERENCES matches(id),
    seat BIGINT NOT NULL,
    state TEXT NOT NULL,
    result TEXT,
    error TEXT,
    requested_by BIGINT NOT NULL REFERENCES users(id),
    requested BIGINT NOT NULL,
    budget BIGINT,
    worker TEXT,
    lease_until BIGINT,
    attempts BIGINT NOT NULL DEFAULT 0,
    PRIMARY KEY (match_id, seat)
);
CREATE INDEX IF NOT EXISTS analyses_waiting ON analyses(state, requested);
CREATE INDEX IF NOT EXISTS analyses_by ON analyses(requested_by, state);
"#;

/// The advisory lock that serialises creating the tables (a server and its workers start at
/// once) and the transactions that read before they write.
const LADDER_LOCK: i64 = 0x6c61_6464_6572_0001;

/// The ladder's storage in a PostgreSQL database.
pub struct PgStore {
    client: Mutex<Client>,
    url: String,
}

fn connect(url: &str) -> Result<Client> {
    Client::connect(url, NoTls).map_err(|e| DbError::new(cardarena::tournament::queue::redact(url), e))
}

impl PgStore {
    /// Connects to `url` (`postgres://USER[:PASSWORD]@HOST:PORT/DB`) and creates the ladder's
    /// tables if needed.
    ///
    /// # Errors
    /// The server cannot be reached or refuses the connection or the tables.
    pub fn connect(url: &str) -> Result<PgStore> {
        let mut client = connect(url)?;
        let store_err = |e: postgres::Error| DbError::new(cardarena::tournament::queue::redact(url), e);
        let mut tx = client.transaction().map_err(store_err)?;
        tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LADDER_LOCK])
            .and_then(|_| tx.batch_execute(SCHEMA))
            .and_then(|()| tx.batch_execute(garage::pg::SCHEMA))
            .and_then(|()| tx.batch_execute(ANALYSIS_SCHEMA))
            .and_then(|()| tx.commit())
            .map_err(store_err)?;
        Ok(PgStore { client: Mutex::new(client), url: url.to_string() })
    }

    fn client(&self) -> Result<MutexGuard<'_, Client>> {
        // A panic while holding the lock leaves the server consistent (a transaction not
        // committed is rolled back).
        let mut client = self.client.lock().unwrap_or_else(std::sync::PoisonError::into_inner);
        if client.is_closed() {
            *client = connect(&self.url)?;
        }
        Ok(client)
    }

    fn err(&self, source: postgres::Error) -> DbError {
        DbError::new(self.location(), source)
    }

    /// Runs `f` on the client, mapping its errors to [`DbError`].
    fn with<T>(&self, f: impl FnOnce(&mut Client) -> Result<T, postgres::Error>) -> Result<T> {
        let mut client = self.client()?;
        f(&mut client).map_err(|e| self.err(e))
    }

    /// Runs `f` in one transaction holding the ladder's advisory lock.
    fn locked<T>(
        &self,
        f: impl FnOnce(&mut postgres::Transaction<'_>) -> Result<T, postgres::Error>,
    ) -> Result<T> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute("SELECT pg_advisory_xact_lock($1)", &[&LADDER_LOCK])?;
            let out = f(&mut tx)?;
            tx.commit()?;
            Ok(out)
        })
    }
}

const BOT_SELECT: &str = "SELECT b.id, b.owner, u.name, b.game, b.name, b.published, b.disabled
    FROM bots b JOIN users u ON u.id = b.owner";
const VERSION_SELECT: &str = "SELECT id, bot, number, hash, lang, state, verdicts, created FROM versions";
const MATCH_SELECT: &str = "SELECT id, key, game, variant, seed, seats, summary, tick FROM matches";
const EVENT_SELECT: &str =
    "SELECT id, name, game, variant, deals, against, deadline, seed, state, message, done FROM class_events";
const GAME_SELECT: &str = r#"SELECT id, "user", version, game, variant, seat, seed, key, move_seconds, state, error, summary FROM play_games"#;

const ANALYSIS_SELECT: &str = "SELECT match_id, seat, state, result, error, requested FROM analyses";

fn analysis_of(r: &Row) -> AnalysisRow {
    AnalysisRow {
        match_id: r.get(0),
        seat: r.get(1),
        state: r.get(2),
        result: r.get(3),
        error: r.get(4),
        requested: r.get(5),
    }
}

fn user_of(r: &Row) -> User {
    User { id: r.get(0), name: r.get(1), admin: r.get(2), disabled: r.get(3) }
}

fn bot_of(r: &Row) -> BotRow {
    BotRow {
        id: r.get(0),
        owner: r.get(1),
        owner_name: r.get(2),
        game: r.get(3),
        name: r.get(4),
        published: r.get(5),
        disabled: r.get(6),
    }
}

fn version_of(r: &Row) -> Version {
    Version {
        id: r.get(0),
        bot: r.get(1),
        number: r.get(2),
        hash: r.get(3),
        lang: r.get(4),
        state: r.get(5),
        verdicts: r.get(6),
        created: r.get(7),
    }
}

fn match_of(r: &Row) -> MatchRow {
    let seats: String = r.get(5);
    MatchRow {
        id: r.get(0),
        key: r.get(1),
        game: r.get(2),
        variant: r.get(3),
        seed: r.get::<_, i64>(4) as u64,
        seats: serde_json::from_str(&seats).unwrap_or_default(),
        summary: r.get(6),
        tick: r.get(7),
    }
}

fn event_of(r: &Row) -> Event {
    let against: String = r.get(5);
    let deadline: i64 = r.get(6);
    Event {
        id: r.get(0),
        name: r.get(1),
        game: r.get(2),
        variant: r.get(3),
        deals: u32::try_from(r.get::<_, i64>(4)).unwrap_or(0),
        against: against.split(',').filter(|s| !s.is_empty()).map(str::to_string).collect(),
        deadline,
        deadline_text: utc_text(deadline),
        seed: r.get::<_, i64>(7) as u64,
        state: r.get(8),
        message: r.get(9),
        done: r.get(10),
    }
}

fn game_of(r: &Row) -> Game {
    Game {
        id: r.get(0),
        user: r.get(1),
        version: r.get(2),
        game: r.get(3),
        variant: r.get(4),
        seat: r.get(5),
        seed: (r.get::<_, i64>(6) as u64).to_string(),
        key: r.get(7),
        move_seconds: r.get(8),
        state: r.get(9),
        error: r.get(10),
        summary: r.get(11),
    }
}

fn turn_of(r: &Row) -> Turn {
    let legal: String = r.get(2);
    Turn {
        n: r.get(0),
        view: r.get(1),
        legal: serde_json::from_str(&legal).unwrap_or_default(),
        action: r.get(3),
        observation: r.get(4),
        hand: Vec::new(),
        moves: Vec::new(),
    }
}

impl Store for PgStore {
    fn location(&self) -> String {
        cardarena::tournament::queue::redact(&self.url)
    }

    fn create_class_event(&self, event: &NewEvent, by: i64, ladder_seed: u64) -> Result<i64> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            let id: i64 = tx
                .query_one(
                    "INSERT INTO class_events (name, game, variant, deals, against, deadline, created_by, created)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id",
                    &[
                        &event.name,
                        &event.game,
                        &event.variant,
                        &i64::from(event.deals),
                        &event.against.join(","),
                        &event.deadline,
                        &by,
                        &now(),
                    ],
                )?
                .get(0);
            let seed = derive_seed(&[ladder_seed, id as u64]) as i64;
            tx.execute("UPDATE class_events SET seed = $1 WHERE id = $2", &[&seed, &id])?;
            tx.commit()?;
            Ok(id)
        })
    }

    fn class_events(&self) -> Result<Vec<Event>> {
        self.with(|c| {
            Ok(c.query(&format!("{EVENT_SELECT} ORDER BY id DESC"), &[])?.iter().map(event_of).collect())
        })
    }

    fn class_event(&self, id: i64) -> Result<Option<Event>> {
        self.with(|c| {
            Ok(c.query_opt(&format!("{EVENT_SELECT} WHERE id = $1"), &[&id])?.as_ref().map(event_of))
        })
    }

    fn class_entries(&self, event: i64) -> Result<Vec<Entry>> {
        self.with(|c| {
            let rows = c.query(
                "SELECT e.position, e.version, e.file, e.hash, v.bot, u.name FROM class_entries e
                 JOIN versions v ON v.id = e.version JOIN bots b ON b.id = v.bot JOIN users u ON u.id = b.owner
                 WHERE e.event = $1 ORDER BY e.position",
                &[&event],
            )?;
            Ok(rows
                .iter()
                .map(|r| Entry {
                    position: r.get(0),
                    version: r.get(1),
                    file: r.get(2),
                    hash: r.get(3),
                    bot: r.get(4),
                    owner: r.get(5),
                })
                .collect())
        })
    }

    fn class_match_keys(&self, event: i64) -> Result<Vec<String>> {
        self.with(|c| {
            let rows =
                c.query("SELECT key FROM class_matches WHERE event = $1 ORDER BY position", &[&event])?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn frozen_at(&self, game: &str, deadline: i64) -> Result<Frozen> {
        let validating: i64 = self.with(|c| {
            Ok(c.query_one(
                "SELECT COUNT(*) FROM versions v JOIN bots b ON b.id = v.bot
                 WHERE b.game = $1 AND v.created <= $2 AND v.state = 'pending'",
                &[&game, &deadline],
            )?
            .get(0))
        })?;
        super::class::frozen(self, game, deadline, validating)
    }

    fn freeze_class_event(
        &self,
        event: i64,
        entries: &[(i64, String, String)],
        keys: &[String],
    ) -> Result<()> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            for (i, (version, file, hash)) in entries.iter().enumerate() {
                tx.execute(
                    "INSERT INTO class_entries (event, position, version, file, hash) VALUES ($1, $2, $3, $4, $5)
                     ON CONFLICT (event, position) DO UPDATE
                     SET version = excluded.version, file = excluded.file, hash = excluded.hash",
                    &[&event, &(i as i64), version, file, hash],
                )?;
            }
            for (i, key) in keys.iter().enumerate() {
                tx.execute(
                    "INSERT INTO class_matches (event, position, key) VALUES ($1, $2, $3)
                     ON CONFLICT (event, position) DO UPDATE SET key = excluded.key",
                    &[&event, &(i as i64), key],
                )?;
            }
            tx.execute("UPDATE class_events SET state = 'running' WHERE id = $1 AND state = 'open'", &[&event])?;
            tx.commit()
        })
    }

    fn set_class_state(&self, event: i64, state: &str, message: &str) -> Result<()> {
        self.with(|c| {
            c.execute(
                "UPDATE class_events SET state = $1, message = $2 WHERE id = $3",
                &[&state, &message, &event],
            )
        })
        .map(drop)
    }

    fn set_class_done(&self, event: i64, done: usize) -> Result<()> {
        self.with(|c| c.execute("UPDATE class_events SET done = $1 WHERE id = $2", &[&(done as i64), &event]))
            .map(drop)
    }

    fn finish_class_event(&self, event: i64, csv: &str, report: &str, rows: &str, done: usize) -> Result<()> {
        self.with(|c| {
            c.execute(
                "UPDATE class_events SET state = 'done', csv = $1, report = $2, rows = $3, done = $4 WHERE id = $5",
                &[&csv, &report, &rows, &(done as i64), &event],
            )
        })
        .map(drop)
    }

    fn class_results(&self, event: i64) -> Result<Option<(String, String, String)>> {
        self.with(|c| {
            Ok(c.query_opt(
                "SELECT csv, report, rows FROM class_events WHERE id = $1 AND state = 'done'",
                &[&event],
            )?
            .map(|r| (r.get(0), r.get(1), r.get(2))))
        })
    }

    fn garage_draft(&self, user: i64, game: &str) -> Result<Option<Draft>> {
        self.with(|c| garage::pg::draft(c, user, game))
    }

    fn garage_drafts_of(&self, user: i64) -> Result<Vec<Draft>> {
        self.with(|c| garage::pg::drafts_of(c, user))
    }

    fn save_garage_draft(&self, draft: &Draft) -> Result<()> {
        self.with(|c| garage::pg::save_draft(c, draft, now()))
    }

    fn add_garage_try(&self, t: &NewTry<'_>) -> Result<i64> {
        self.with(|c| garage::pg::add_try(c, t, now()))
    }

    fn garage_try(&self, id: i64) -> Result<Option<Try>> {
        self.with(|c| garage::pg::get_try(c, id))
    }

    fn garage_tries_of(&self, user: i64, game: &str) -> Result<Vec<Try>> {
        self.with(|c| garage::pg::tries_of(c, user, game))
    }

    fn garage_analysis(&self, try_id: i64) -> Result<Option<String>> {
        self.with(|c| garage::pg::analysis(c, try_id))
    }

    fn save_garage_analysis(&self, try_id: i64, result: &str) -> Result<()> {
        self.with(|c| garage::pg::save_analysis(c, try_id, result))
    }

    fn play_game(&self, id: i64) -> Result<Option<Game>> {
        self.with(|c| Ok(c.query_opt(&format!("{GAME_SELECT} WHERE id = $1"), &[&id])?.as_ref().map(game_of)))
    }

    fn play_game_by_key(&self, key: &str) -> Result<Option<Game>> {
        self.with(|c| {
            Ok(c.query_opt(&format!("{GAME_SELECT} WHERE key = $1"), &[&key])?.as_ref().map(game_of))
        })
    }

    fn play_games_of(&self, user: i64) -> Result<Vec<Game>> {
        self.with(|c| {
            let rows =
                c.query(&format!(r#"{GAME_SELECT} WHERE "user" = $1 ORDER BY id DESC LIMIT 20"#), &[&user])?;
            Ok(rows.iter().map(game_of).collect())
        })
    }

    fn last_play_turn(&self, id: i64) -> Result<Option<Turn>> {
        self.with(|c| {
            Ok(c.query_opt(
                "SELECT n, view, legal, action, observation FROM play_turns WHERE game = $1 ORDER BY n DESC LIMIT 1",
                &[&id],
            )?
            .as_ref()
            .map(turn_of))
        })
    }

    fn set_play_state(&self, id: i64, from: &[&str], to: &str) -> Result<bool> {
        let from: Vec<&str> = from.to_vec();
        self.with(|c| {
            c.execute(
                "UPDATE play_games SET state = $1 WHERE id = $2 AND state = ANY($3)",
                &[&to, &id, &from],
            )
        })
        .map(|n| n > 0)
    }

    fn play_turn_answer(&self, game: i64, n: i64) -> Result<(Option<String>, String)> {
        self.with(|c| {
            let action: Option<String> = c
                .query_opt("SELECT action FROM play_turns WHERE game = $1 AND n = $2", &[&game, &n])?
                .and_then(|r| r.get(0));
            let state: String = c.query_one("SELECT state FROM play_games WHERE id = $1", &[&game])?.get(0);
            Ok((action, state))
        })
    }

    fn put_play_turn(&self, game: i64, n: i64, view: &str, observation: &str, legal: &str) -> Result<()> {
        self.with(|c| {
            c.execute(
                "INSERT INTO play_turns (game, n, view, observation, legal) VALUES ($1, $2, $3, $4, $5)
                 ON CONFLICT (game, n) DO NOTHING",
                &[&game, &n, &view, &observation, &legal],
            )?;
            c.execute("UPDATE play_games SET state = 'playing' WHERE id = $1 AND state = 'queued'", &[&game])
        })
        .map(drop)
    }

    fn set_play_action(&self, game: i64, n: i64, action: &str) -> Result<bool> {
        self.with(|c| {
            c.execute(
                "UPDATE play_turns SET action = $1 WHERE game = $2 AND n = $3 AND action IS NULL",
                &[&action, &game, &n],
            )
        })
        .map(|n| n > 0)
    }

    fn finish_play_game(&self, id: i64, summary: &str, replay: &[u8]) -> Result<()> {
        self.with(|c| {
            c.execute(
                "UPDATE play_games SET state = 'done', summary = $1, replay = $2 WHERE id = $3",
                &[&summary, &replay, &id],
            )
        })
        .map(drop)
    }

    fn fail_play_game(&self, id: i64, error: &str) -> Result<()> {
        self.with(|c| {
            c.execute("UPDATE play_games SET state = 'failed', error = $1 WHERE id = $2", &[&error, &id])
        })
        .map(drop)
    }

    fn start_play_game(&self, g: &NewPlayGame<'_>) -> Result<Option<i64>> {
        self.with(|c| {
            Ok(c.query_opt(
                r#"INSERT INTO play_games ("user", version, game, variant, seat, seed, key, move_seconds, state, created)
                   VALUES ($1, $2, $3, $4, $5, $6, $7, $8, 'queued', $9)
                   ON CONFLICT ("user") WHERE state IN ('queued', 'playing', 'resigned') DO NOTHING
                   RETURNING id"#,
                &[
                    &g.user,
                    &g.version,
                    &g.game,
                    &g.variant,
                    &(g.seat as i64),
                    &(g.seed as i64),
                    &g.key,
                    &(g.move_seconds as i64),
                    &now(),
                ],
            )?
            .map(|r| r.get(0)))
        })
    }

    fn play_replay(&self, id: i64) -> Result<Option<Vec<u8>>> {
        self.with(|c| {
            Ok(c.query_opt("SELECT replay FROM play_games WHERE id = $1", &[&id])?.and_then(|r| r.get(0)))
        })
    }

    fn request_analysis(
        &self,
        match_id: i64,
        seat: i64,
        user: i64,
        budget: Option<u32>,
        max_waiting: i64,
    ) -> Result<Option<AnalysisRow>> {
        let budget = budget.map(i64::from);
        // Under the ladder's lock: two requests of one account at once count each other.
        self.locked(|tx| {
            tx.execute(
                "INSERT INTO analyses (match_id, seat, state, requested_by, requested, budget)
                 SELECT $1, $2, 'queued', $3, $4, $6
                 WHERE (SELECT COUNT(*) FROM analyses WHERE requested_by = $3 AND state IN ('queued', 'running')) < $5
                 ON CONFLICT DO NOTHING",
                &[&match_id, &seat, &user, &now(), &max_waiting, &budget],
            )?;
            let row = tx.query_opt(
                &format!("{ANALYSIS_SELECT} WHERE match_id = $1 AND seat = $2"),
                &[&match_id, &seat],
            )?;
            Ok(row.as_ref().map(analysis_of))
        })
    }

    fn analysis(&self, match_id: i64, seat: i64) -> Result<Option<AnalysisRow>> {
        self.with(|c| {
            let row = c.query_opt(
                &format!("{ANALYSIS_SELECT} WHERE match_id = $1 AND seat = $2"),
                &[&match_id, &seat],
            )?;
            Ok(row.as_ref().map(analysis_of))
        })
    }

    fn analyses_of(&self, match_id: i64) -> Result<Vec<AnalysisRow>> {
        self.with(|c| {
            let rows = c.query(
                "SELECT match_id, seat, state, NULL::TEXT, error, requested FROM analyses WHERE match_id = $1 ORDER BY seat",
                &[&match_id],
            )?;
            Ok(rows.iter().map(analysis_of).collect())
        })
    }

    fn claim_analysis(
        &self,
        worker: &str,
        lease_seconds: i64,
        asked_before: i64,
        max_attempts: i64,
    ) -> Result<Option<ClaimedAnalysis>> {
        let now = now();
        self.with(|c| {
            c.execute(
                "UPDATE analyses SET state = 'failed', error = $1, worker = NULL, lease_until = NULL
                 WHERE state = 'running' AND lease_until < $2 AND attempts >= $3",
                &[&gave_up(max_attempts), &now, &max_attempts],
            )?;
            let row = c.query_opt(
                "UPDATE analyses SET state = 'running', worker = $1, lease_until = $2, attempts = attempts + 1
                 WHERE (match_id, seat) IN (
                     SELECT match_id, seat FROM analyses
                     WHERE (state = 'queued' OR (state = 'running' AND lease_until < $3)) AND requested <= $4
                     ORDER BY requested, match_id, seat LIMIT 1 FOR UPDATE SKIP LOCKED)
                 RETURNING match_id, seat, attempts, budget",
                &[&worker, &(now + lease_seconds), &now, &asked_before],
            )?;
            Ok(row.map(|r| ClaimedAnalysis {
                match_id: r.get(0),
                seat: r.get(1),
                attempt: r.get(2),
                budget: r.get::<_, Option<i64>>(3).and_then(|b| u32::try_from(b).ok()),
            }))
        })
    }

    fn finish_analysis(
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
                "UPDATE analyses SET state = $1, result = $2, error = $3, worker = NULL, lease_until = NULL
                 WHERE match_id = $4 AND seat = $5 AND state <> 'done'",
                &[&state, &result, &error, &match_id, &seat],
            )
        })
        .map(drop)
    }

    fn first_admin_invite(&self) -> Result<Option<String>> {
        self.locked(|tx| {
            let users: i64 = tx.query_one("SELECT COUNT(*) FROM users", &[])?.get(0);
            if users > 0 {
                return Ok(None);
            }
            tx.execute("DELETE FROM invites WHERE admin AND used_by IS NULL", &[])?;
            let code = secret();
            tx.execute(
                "INSERT INTO invites (code_hash, admin, made_by, created) VALUES ($1, true, NULL, $2)",
                &[&content_hash(code.as_bytes()), &now()],
            )?;
            Ok(Some(code))
        })
    }

    fn create_invite(&self, by: i64, admin: bool) -> Result<String> {
        let code = secret();
        self.with(|c| {
            c.execute(
                "INSERT INTO invites (code_hash, admin, made_by, created) VALUES ($1, $2, $3, $4)",
                &[&content_hash(code.as_bytes()), &admin, &by, &now()],
            )
        })?;
        Ok(code)
    }

    fn register(&self, name: &str, pw_hash: &str, invite: Option<&str>) -> Result<Option<User>> {
        self.locked(|tx| {
            let admin = match invite {
                Some(code) => {
                    let row = tx.query_opt(
                        "SELECT admin FROM invites WHERE code_hash = $1 AND used_by IS NULL",
                        &[&content_hash(code.as_bytes())],
                    )?;
                    match row {
                        Some(r) => r.get(0),
                        None => return Ok(None),
                    }
                }
                None => false,
            };
            let key = name_key(name);
            let taken: bool = tx
                .query_one("SELECT COUNT(*) > 0 FROM users WHERE name = $1 OR name_key = $2", &[&name, &key])?
                .get(0);
            if taken {
                return Ok(None);
            }
            let id: i64 = tx
                .query_one(
                    "INSERT INTO users (name, name_key, pw_hash, admin, created) VALUES ($1, $2, $3, $4, $5)
                     RETURNING id",
                    &[&name, &key, &pw_hash, &admin, &now()],
                )?
                .get(0);
            if let Some(code) = invite {
                tx.execute(
                    "UPDATE invites SET used_by = $1 WHERE code_hash = $2",
                    &[&id, &content_hash(code.as_bytes())],
                )?;
            }
            Ok(Some(User { id, name: name.to_string(), admin, disabled: false }))
        })
    }

    fn login_row(&self, name: &str) -> Result<Option<(User, String)>> {
        self.with(|c| {
            Ok(c.query_opt(
                "SELECT id, name, admin, disabled, pw_hash FROM users WHERE name = $1 OR name_key = $2
                 ORDER BY name = $1 DESC, id LIMIT 1",
                &[&name, &name_key(name)],
            )?
            .map(|r| (user_of(&r), r.get(4))))
        })
    }

    fn user(&self, id: i64) -> Result<Option<User>> {
        self.with(|c| {
            Ok(c.query_opt("SELECT id, name, admin, disabled FROM users WHERE id = $1", &[&id])?
                .as_ref()
                .map(user_of))
        })
    }

    fn users(&self) -> Result<Vec<User>> {
        self.with(|c| {
            Ok(c.query("SELECT id, name, admin, disabled FROM users ORDER BY name", &[])?
                .iter()
                .map(user_of)
                .collect())
        })
    }

    fn set_user_disabled(&self, id: i64, disabled: bool) -> Result<bool> {
        let found = self
            .with(|c| c.execute("UPDATE users SET disabled = $1 WHERE id = $2", &[&disabled, &id]))
            .map(|n| n > 0)?;
        if found && disabled {
            self.end_sessions(id)?;
        }
        Ok(found)
    }

    fn end_sessions(&self, user: i64) -> Result<i64> {
        self.with(|c| {
            c.execute("UPDATE users SET session_epoch = session_epoch + 1 WHERE id = $1", &[&user])?;
            c.execute(
                "DELETE FROM sessions WHERE record::jsonb #> '{data,user}' = to_jsonb($1::bigint)",
                &[&user],
            )?;
            Ok(c.query_one("SELECT session_epoch FROM users WHERE id = $1", &[&user])?.get(0))
        })
    }

    fn user_epoch(&self, id: i64) -> Result<Option<(User, i64)>> {
        self.with(|c| {
            Ok(c.query_opt(
                "SELECT id, name, admin, disabled, session_epoch FROM users WHERE id = $1",
                &[&id],
            )?
            .map(|r| (user_of(&r), r.get(4))))
        })
    }

    fn password_hash(&self, id: i64) -> Result<Option<String>> {
        self.with(|c| Ok(c.query_opt("SELECT pw_hash FROM users WHERE id = $1", &[&id])?.map(|r| r.get(0))))
    }

    fn set_password(&self, id: i64, pw_hash: &str) -> Result<i64> {
        self.with(|c| c.execute("UPDATE users SET pw_hash = $1 WHERE id = $2", &[&pw_hash, &id]))?;
        self.end_sessions(id)
    }

    fn set_bot_disabled(&self, id: i64, disabled: bool) -> Result<bool> {
        self.with(|c| c.execute("UPDATE bots SET disabled = $1 WHERE id = $2", &[&disabled, &id]))
            .map(|n| n > 0)
    }

    fn set_bot_published(&self, id: i64, published: bool) -> Result<bool> {
        self.with(|c| c.execute("UPDATE bots SET published = $1 WHERE id = $2", &[&published, &id]))
            .map(|n| n > 0)
    }

    fn create_token(&self, user: i64, label: &str) -> Result<String> {
        let token = secret();
        self.with(|c| {
            c.execute(
                "INSERT INTO tokens (hash, user_id, label, created) VALUES ($1, $2, $3, $4)",
                &[&content_hash(token.as_bytes()), &user, &label, &now()],
            )
        })?;
        Ok(token)
    }

    fn tokens(&self, user: i64) -> Result<Vec<TokenRow>> {
        self.with(|c| {
            let rows = c.query(
                "SELECT id, label FROM tokens WHERE user_id = $1 ORDER BY created DESC, id DESC",
                &[&user],
            )?;
            Ok(rows.iter().map(|r| TokenRow { id: r.get(0), label: r.get(1) }).collect())
        })
    }

    fn revoke_token(&self, user: i64, id: i64) -> Result<bool> {
        self.with(|c| c.execute("DELETE FROM tokens WHERE id = $1 AND user_id = $2", &[&id, &user]))
            .map(|n| n > 0)
    }

    fn token_user(&self, token: &str) -> Result<Option<User>> {
        self.with(|c| {
            Ok(c.query_opt(
                "SELECT u.id, u.name, u.admin, u.disabled FROM tokens t JOIN users u ON u.id = t.user_id
                 WHERE t.hash = $1",
                &[&content_hash(token.as_bytes())],
            )?
            .as_ref()
            .map(user_of))
        })
    }

    fn save_session(&self, id: &str, record: &str, expiry: i64) -> Result<()> {
        self.with(|c| {
            c.execute(
                "INSERT INTO sessions (id, record, expiry) VALUES ($1, $2, $3)
                 ON CONFLICT (id) DO UPDATE SET record = excluded.record, expiry = excluded.expiry",
                &[&id, &record, &expiry],
            )
        })
        .map(drop)
    }

    fn load_session(&self, id: &str) -> Result<Option<String>> {
        self.with(|c| {
            Ok(c.query_opt("SELECT record FROM sessions WHERE id = $1 AND expiry > $2", &[&id, &now()])?
                .map(|r| r.get(0)))
        })
    }

    fn delete_session(&self, id: &str) -> Result<()> {
        self.with(|c| c.execute("DELETE FROM sessions WHERE id = $1 OR expiry <= $2", &[&id, &now()]))
            .map(drop)
    }

    fn upload(
        &self,
        owner: i64,
        game: &str,
        name: &str,
        lang: &str,
        bytes: &[u8],
    ) -> std::result::Result<(BotRow, Version), UploadRefused> {
        let hash = content_hash(bytes);
        let key = name_key(name);
        let stored = self.locked(|tx| {
            let same = tx.query_opt(
                "SELECT b.name, v.number FROM versions v JOIN bots b ON b.id = v.bot
                 WHERE v.hash = $1 AND b.game = $2 ORDER BY v.id LIMIT 1",
                &[&hash, &game],
            )?;
            if let Some(r) = same {
                let (bot, number): (String, i64) = (r.get(0), r.get(1));
                return Ok(Err(UploadRefused::Identical(format!("{bot} v{number}"))));
            }
            // A name of another form (case, Unicode compatibility) is the same bot.
            let existing = tx.query_opt(
                "SELECT id, owner, disabled FROM bots WHERE game = $1 AND (name = $2 OR name_key = $3)
                 ORDER BY name = $2 DESC, id LIMIT 1",
                &[&game, &name, &key],
            )?;
            let bot: i64 = match existing.map(|r| (r.get::<_, i64>(0), r.get::<_, i64>(1), r.get::<_, bool>(2))) {
                Some((_, o, _)) if o != owner => {
                    return Ok(Err(UploadRefused::NameTaken(name.to_string(), game.to_string())))
                }
                Some((_, _, true)) => return Ok(Err(UploadRefused::Disabled(name.to_string()))),
                Some((id, _, false)) => id,
                None => tx
                    .query_one(
                        "INSERT INTO bots (owner, game, name, name_key) VALUES ($1, $2, $3, $4) RETURNING id",
                        &[&owner, &game, &name, &key],
                    )?
                    .get(0),
            };
            tx.execute(
                "INSERT INTO files (hash, bytes) VALUES ($1, $2) ON CONFLICT (hash) DO NOTHING",
                &[&hash, &bytes],
            )?;
            let number: i64 = tx
                .query_one("SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE bot = $1", &[&bot])?
                .get(0);
            let version: i64 = tx
                .query_one(
                    "INSERT INTO versions (bot, number, hash, lang, created) VALUES ($1, $2, $3, $4, $5) RETURNING id",
                    &[&bot, &number, &hash, &lang, &now()],
                )?
                .get(0);
            Ok(Ok((bot, version)))
        })??;
        let (bot, version) = stored;
        let bot = self.bot(bot)?.expect("the bot just written");
        let version = self.version(version)?.expect("the version just written");
        Ok((bot, version))
    }

    fn bot(&self, id: i64) -> Result<Option<BotRow>> {
        self.with(|c| Ok(c.query_opt(&format!("{BOT_SELECT} WHERE b.id = $1"), &[&id])?.as_ref().map(bot_of)))
    }

    #[cfg(test)]
    fn bot_named(&self, game: &str, name: &str) -> Result<Option<BotRow>> {
        self.with(|c| {
            Ok(c.query_opt(&format!("{BOT_SELECT} WHERE b.game = $1 AND b.name = $2"), &[&game, &name])?
                .as_ref()
                .map(bot_of))
        })
    }

    fn bots(&self) -> Result<Vec<BotRow>> {
        self.with(|c| {
            Ok(c.query(&format!("{BOT_SELECT} ORDER BY b.game, b.name"), &[])?.iter().map(bot_of).collect())
        })
    }

    fn version(&self, id: i64) -> Result<Option<Version>> {
        self.with(|c| {
            Ok(c.query_opt(&format!("{VERSION_SELECT} WHERE id = $1"), &[&id])?.as_ref().map(version_of))
        })
    }

    fn versions(&self, bot: i64) -> Result<Vec<Version>> {
        self.with(|c| {
            Ok(c.query(&format!("{VERSION_SELECT} WHERE bot = $1 ORDER BY number DESC"), &[&bot])?
                .iter()
                .map(version_of)
                .collect())
        })
    }

    fn players(&self, game: &str) -> Result<Vec<(BotRow, Version)>> {
        self.with(|c| {
            let bots: Vec<BotRow> = c
                .query(
                    &format!(
                        "{BOT_SELECT} WHERE b.game = $1 AND NOT b.disabled AND NOT u.disabled ORDER BY b.id"
                    ),
                    &[&game],
                )?
                .iter()
                .map(bot_of)
                .collect();
            let mut out = Vec::new();
            for b in bots {
                let newest = c
                    .query_opt(
                        &format!("{VERSION_SELECT} WHERE bot = $1 ORDER BY number DESC LIMIT 1"),
                        &[&b.id],
                    )?
                    .as_ref()
                    .map(version_of);
                if let Some(v) = newest.filter(|v| v.state == "ready") {
                    out.push((b, v));
                }
            }
            Ok(out)
        })
    }

    fn file(&self, hash: &str) -> Result<Option<Vec<u8>>> {
        self.with(|c| Ok(c.query_opt("SELECT bytes FROM files WHERE hash = $1", &[&hash])?.map(|r| r.get(0))))
    }

    fn set_validation(&self, version: i64, ready: bool, verdicts: &str) -> Result<()> {
        let state = if ready { "ready" } else { "failed" };
        self.with(|c| {
            c.execute(
                "UPDATE versions SET state = $1, verdicts = $2 WHERE id = $3",
                &[&state, &verdicts, &version],
            )
        })
        .map(drop)
    }

    fn take_in(&self, taken: &[Taken<'_>]) -> Result<()> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            let insert = tx.prepare(
                "INSERT INTO matches (key, game, variant, seed, seats, summary, replay, tick)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8) ON CONFLICT (key) DO NOTHING",
            )?;
            let forget = tx.prepare("DELETE FROM pending WHERE key = $1")?;
            for Taken { job: p, played } in taken {
                if let Some((summary, replay)) = played {
                    let seats = serde_json::to_string(&p.seats).expect("ids serialize");
                    tx.execute(
                        &insert,
                        &[&p.key, &p.game, &p.variant, &(p.seed as i64), &seats, summary, replay, &p.tick],
                    )?;
                }
                tx.execute(&forget, &[&p.key])?;
            }
            tx.commit()
        })
    }

    fn add_pending(&self, jobs: &[Pending]) -> Result<()> {
        self.with(|c| {
            let mut tx = c.transaction()?;
            let insert = tx.prepare(
                "INSERT INTO pending (key, version, game, variant, seed, seats, tick)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (key) DO NOTHING",
            )?;
            for p in jobs {
                let seats = serde_json::to_string(&p.seats).expect("ids serialize");
                tx.execute(
                    &insert,
                    &[&p.key, &p.version, &p.game, &p.variant, &(p.seed as i64), &seats, &p.tick],
                )?;
            }
            tx.commit()
        })
    }

    fn pending(&self) -> Result<Vec<Pending>> {
        self.with(|c| {
            let rows = c.query(
                "SELECT key, version, game, variant, seed, seats, tick FROM pending ORDER BY id",
                &[],
            )?;
            Ok(rows
                .iter()
                .map(|r| {
                    let seats: String = r.get(5);
                    Pending {
                        key: r.get(0),
                        version: r.get(1),
                        game: r.get(2),
                        variant: r.get(3),
                        seed: r.get::<_, i64>(4) as u64,
                        seats: serde_json::from_str(&seats).unwrap_or_default(),
                        tick: r.get(6),
                    }
                })
                .collect())
        })
    }

    fn remove_pending(&self, key: &str) -> Result<()> {
        self.with(|c| c.execute("DELETE FROM pending WHERE key = $1", &[&key])).map(drop)
    }

    fn board_matches(&self, game: &str, variant: &str) -> Result<Vec<MatchRow>> {
        self.with(|c| {
            Ok(c.query(
                &format!("{MATCH_SELECT} WHERE game = $1 AND variant = $2 ORDER BY id"),
                &[&game, &variant],
            )?
            .iter()
            .map(match_of)
            .collect())
        })
    }

    fn matches_of(&self, versions: &[i64], limit: usize) -> Result<Vec<MatchRow>> {
        let versions = versions.to_vec();
        self.with(|c| {
            Ok(c.query(
                &format!(
                    "{MATCH_SELECT} WHERE EXISTS (SELECT 1 FROM jsonb_array_elements_text(seats::jsonb) AS s(v)
                       WHERE s.v::bigint = ANY($1))
                     ORDER BY id DESC LIMIT $2"
                ),
                &[&versions, &(limit as i64)],
            )?
            .iter()
            .map(match_of)
            .collect())
        })
    }

    fn match_row(&self, id: i64) -> Result<Option<(MatchRow, Vec<u8>)>> {
        self.with(|c| {
            Ok(c.query_opt(
                "SELECT id, key, game, variant, seed, seats, summary, tick, replay FROM matches WHERE id = $1",
                &[&id],
            )?
            .map(|r| (match_of(&r), r.get(8))))
        })
    }

    fn next_tick(&self) -> Result<i64> {
        self.with(|c| {
            Ok(c.query_one(
                "INSERT INTO counters (name, value) VALUES ('tick', 1)
                 ON CONFLICT (name) DO UPDATE SET value = counters.value + 1 RETURNING value",
                &[],
            )?
            .get(0))
        })
    }
}
