//! The ladder's storage: accounts, invites, API tokens, sessions, bot files (by content hash),
//! bots and their versions, and the matches they played, behind the trait [`Store`].
//! [`SqliteStore`] keeps them in one SQLite file: one connection behind a mutex, one writer, in
//! WAL mode so that readers (the worker processes, `--backup`) do not wait. `postgres::PgStore`
//! (feature `postgres`) keeps the same tables in PostgreSQL.

use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};
use std::time::{SystemTime, UNIX_EPOCH};

pub mod analysis;
pub mod class;
pub mod garage;
pub mod play;
#[cfg(feature = "postgres")]
pub mod postgres;

use analysis::{AnalysisRow, ClaimedAnalysis};
use class::{Entry, Event, Frozen, NewEvent};
use garage::{Draft, NewTry, Try};
use play::{Game, NewPlayGame, Turn};

use rusqlite::{params, Connection, OptionalExtension};
use serde::Serialize;

use cardarena::bots::bot::content_hash;

/// 64 hex digits from 32 random bytes of the operating system (hashed, which keeps their 256
/// bits): invite codes, API tokens, CSRF tokens.
pub fn secret() -> String {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).expect("the operating system's random source");
    content_hash(&bytes)
}

/// A storage failure, whichever [`Store`] failed; the message names where the data is and
/// what to do.
#[derive(Debug, thiserror::Error)]
#[error("ladder database {path}: {source} ({})", hint(.path))]
pub struct DbError {
    path: String,
    #[source]
    source: Box<dyn std::error::Error + Send + Sync>,
}

/// What to check when the storage at `location` fails.
fn hint(location: &str) -> &'static str {
    if is_postgres(location) {
        "check that the PostgreSQL server is running and reachable, and the database is the ladder's"
    } else {
        "check that the file is a ladder database and the disk is not full"
    }
}

impl DbError {
    /// `source`, a failure of the storage at `location`.
    pub fn new(
        location: impl Into<String>,
        source: impl Into<Box<dyn std::error::Error + Send + Sync>>,
    ) -> DbError {
        DbError { path: location.into(), source: source.into() }
    }
}

type Result<T, E = DbError> = std::result::Result<T, E>;

/// The tables of class mode (`class.rs`).
const CLASS_SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS class_events (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    deals INTEGER NOT NULL,
    against TEXT NOT NULL,
    deadline INTEGER NOT NULL,
    seed INTEGER NOT NULL DEFAULT 0,
    state TEXT NOT NULL DEFAULT 'open',
    message TEXT NOT NULL DEFAULT '',
    done INTEGER NOT NULL DEFAULT 0,
    csv TEXT,
    report TEXT,
    rows TEXT,
    created_by INTEGER NOT NULL REFERENCES users(id),
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS class_entries (
    event INTEGER NOT NULL REFERENCES class_events(id),
    position INTEGER NOT NULL,
    version INTEGER NOT NULL REFERENCES versions(id),
    file TEXT NOT NULL,
    hash TEXT NOT NULL,
    PRIMARY KEY (event, position)
);
CREATE TABLE IF NOT EXISTS class_matches (
    event INTEGER NOT NULL REFERENCES class_events(id),
    position INTEGER NOT NULL,
    key TEXT NOT NULL,
    PRIMARY KEY (event, position)
);
";

const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS users (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    pw_hash TEXT NOT NULL,
    admin INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS invites (
    code_hash TEXT PRIMARY KEY,
    admin INTEGER NOT NULL,
    made_by INTEGER REFERENCES users(id),
    used_by INTEGER REFERENCES users(id),
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS tokens (
    hash TEXT PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    label TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS sessions (
    id TEXT PRIMARY KEY,
    record TEXT NOT NULL,
    expiry INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS files (
    hash TEXT PRIMARY KEY,
    bytes BLOB NOT NULL
);
CREATE TABLE IF NOT EXISTS bots (
    id INTEGER PRIMARY KEY,
    owner INTEGER NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    name TEXT NOT NULL,
    published INTEGER NOT NULL DEFAULT 0,
    disabled INTEGER NOT NULL DEFAULT 0,
    UNIQUE (game, name)
);
CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY,
    bot INTEGER NOT NULL REFERENCES bots(id),
    number INTEGER NOT NULL,
    hash TEXT NOT NULL REFERENCES files(hash),
    lang TEXT NOT NULL,
    state TEXT NOT NULL DEFAULT 'pending',
    verdicts TEXT NOT NULL DEFAULT '[]',
    created INTEGER NOT NULL,
    UNIQUE (bot, number)
);
CREATE INDEX IF NOT EXISTS versions_hash ON versions(hash);
CREATE TABLE IF NOT EXISTS matches (
    id INTEGER PRIMARY KEY,
    key TEXT NOT NULL UNIQUE,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    summary TEXT NOT NULL,
    replay BLOB NOT NULL,
    tick INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS matches_board ON matches(game, variant);
CREATE TABLE IF NOT EXISTS pending (
    key TEXT PRIMARY KEY,
    version INTEGER,
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    seed INTEGER NOT NULL,
    seats TEXT NOT NULL,
    tick INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS counters (
    name TEXT PRIMARY KEY,
    value INTEGER NOT NULL
);
-- Play in the browser (ladder::play): a person's game against a bot, and each decision put to
-- them (what their seat sees, the legal moves, their move once made).
CREATE TABLE IF NOT EXISTS play_games (
    id INTEGER PRIMARY KEY,
    user INTEGER NOT NULL REFERENCES users(id),
    version INTEGER NOT NULL REFERENCES versions(id),
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    seat INTEGER NOT NULL,
    seed INTEGER NOT NULL,
    key TEXT NOT NULL UNIQUE,
    move_seconds INTEGER NOT NULL,
    state TEXT NOT NULL,
    error TEXT,
    summary TEXT,
    replay BLOB,
    created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS play_games_user ON play_games(user);
CREATE TABLE IF NOT EXISTS play_turns (
    game INTEGER NOT NULL REFERENCES play_games(id),
    n INTEGER NOT NULL,
    view TEXT NOT NULL,
    observation TEXT NOT NULL,
    legal TEXT NOT NULL,
    action TEXT,
    PRIMARY KEY (game, n)
);
";

/// Seconds since 1970 (account and upload times; never part of a match).
pub fn now() -> i64 {
    SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs() as i64)
}

/// A user account.
#[derive(Clone, Debug, Serialize)]
pub struct User {
    /// Row id.
    pub id: i64,
    /// Login name (public).
    pub name: String,
    /// An admin (teacher, organiser).
    pub admin: bool,
    /// Disabled by an admin: cannot sign in, upload, and their bots do not play.
    pub disabled: bool,
}

/// An API token as its owner's account page lists it (the token itself is never stored).
#[derive(Clone, Debug, Serialize)]
pub struct TokenRow {
    /// Row id (what revoking names).
    pub id: i64,
    /// The label given when it was made.
    pub label: String,
}

/// The key that makes names unique (of users, and of bots in a game): NFKC, then lower case,
/// so that `alice`, `ALICE` and `ａｌｉｃｅ` (full width) are one name.
pub fn name_key(name: &str) -> String {
    use unicode_normalization::UnicodeNormalization;
    let folded: String = name.nfkc().collect::<String>().to_lowercase();
    folded.nfkc().collect()
}

/// Brings an older database up to this version's schema (a fresh one too: its tables are
/// made by [`SCHEMA`] first). Adds `users.session_epoch` and the `name_key` columns of users
/// and bots with their UNIQUE indexes. Names that already collide (`alice` and `Alice`, made
/// before the check): the oldest account (or bot) keeps the key; each later one gets
/// `KEY~ID`, which no name can produce, so it keeps its name, still signs in (or plays) by
/// it exactly, and no new account or bot can take any form of it.
fn migrate(conn: &mut Connection) -> rusqlite::Result<()> {
    // One writer at a time (a worker process may open the file while the server does).
    let tx = conn.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
    let c: &Connection = &tx;
    let has = |table: &str, column: &str| -> rusqlite::Result<bool> {
        c.query_row(
            &format!("SELECT COUNT(*) > 0 FROM pragma_table_info('{table}') WHERE name = ?1"),
            params![column],
            |r| r.get(0),
        )
    };
    if !has("users", "session_epoch")? {
        c.execute_batch("ALTER TABLE users ADD COLUMN session_epoch INTEGER NOT NULL DEFAULT 0")?;
    }
    for (table, scope) in [("users", "''"), ("bots", "game")] {
        if !has(table, "name_key")? {
            c.execute_batch(&format!("ALTER TABLE {table} ADD COLUMN name_key TEXT"))?;
        }
        let rows: Vec<(i64, String, String)> = {
            let mut s = c.prepare(&format!(
                "SELECT id, {scope}, name FROM {table} WHERE name_key IS NULL ORDER BY id"
            ))?;
            let rows = s
                .query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
                .collect::<rusqlite::Result<_>>()?;
            rows
        };
        for (id, within, name) in rows {
            let key = name_key(&name);
            let taken: bool = c.query_row(
                &format!("SELECT COUNT(*) > 0 FROM {table} WHERE {scope} = ?1 AND name_key = ?2"),
                params![within, key],
                |r| r.get(0),
            )?;
            let key = if taken { format!("{key}~{id}") } else { key };
            c.execute(&format!("UPDATE {table} SET name_key = ?1 WHERE id = ?2"), params![key, id])?;
        }
    }
    c.execute_batch(
        "CREATE UNIQUE INDEX IF NOT EXISTS users_name_key ON users(name_key);
         CREATE UNIQUE INDEX IF NOT EXISTS bots_name_key ON bots(game, name_key);",
    )?;
    tx.commit()
}

/// A named bot of one owner in one game.
#[derive(Clone, Debug, Serialize)]
pub struct BotRow {
    /// Row id.
    pub id: i64,
    /// The owner's user id.
    pub owner: i64,
    /// The owner's name.
    pub owner_name: String,
    /// The game's contract name.
    pub game: String,
    /// The bot's name (unique in the game).
    pub name: String,
    /// Whether others may read its source.
    pub published: bool,
    /// Disabled by an admin: it plays no more matches.
    pub disabled: bool,
}

/// One uploaded version of a bot.
#[derive(Clone, Debug, Serialize)]
pub struct Version {
    /// Row id.
    pub id: i64,
    /// The bot's id.
    pub bot: i64,
    /// 1 for the first upload, then 2, 3, ...
    pub number: i64,
    /// SHA-256 of the file.
    pub hash: String,
    /// `lua`, `wasm` or `wat` (WebAssembly text, compiled when loaded).
    pub lang: String,
    /// `pending` (not yet validated), `ready` or `failed`.
    pub state: String,
    /// The validation verdicts (JSON list of [`super::work::Check`]).
    pub verdicts: String,
    /// Upload time (seconds since 1970).
    pub created: i64,
}

/// A stored ladder match, without its replay.
#[derive(Clone, Debug, Serialize)]
pub struct MatchRow {
    /// Row id (the match page's number).
    pub id: i64,
    /// The match key (what decided it).
    pub key: String,
    /// Game.
    pub game: String,
    /// Variant.
    pub variant: String,
    /// Deal seed.
    pub seed: u64,
    /// The version id in each seat.
    pub seats: Vec<i64>,
    /// The summary (JSON of `tournament::MatchSummary`).
    pub summary: String,
    /// The matchmaking tick that queued it.
    pub tick: i64,
}

/// A queued job the ladder waits for: a match of a duplicate set (`version` is `None`, `seats`
/// the version ids in seat order) or a validation's smoke match (`version` is the version
/// checked, `seats` its seat alone).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pending {
    /// The queue's job key.
    pub key: String,
    /// The version a smoke match validates.
    pub version: Option<i64>,
    /// Game.
    pub game: String,
    /// Variant.
    pub variant: String,
    /// Deal seed.
    pub seed: u64,
    /// Version ids in seat order (a smoke match: the checked version's seat).
    pub seats: Vec<i64>,
    /// The matchmaking tick that made it.
    pub tick: i64,
}

/// A finished job the ladder takes in ([`Store::take_in`]).
pub struct Taken<'a> {
    /// The job.
    pub job: &'a Pending,
    /// Its match, when it was played: the summary JSON and the compressed replay (`None`: the
    /// job failed).
    pub played: Option<(&'a str, Vec<u8>)>,
}

/// Why an upload was refused (the HTTP status follows from the variant).
#[derive(Debug, thiserror::Error)]
pub enum UploadRefused {
    /// The same bytes are already a version (409).
    #[error("this file is identical to {0}; change the bot before uploading it again")]
    Identical(String),
    /// Another player owns a bot of this name in this game (409).
    #[error("another player already has a bot named {0:?} in {1}; choose another name")]
    NameTaken(String, String),
    /// The bot was disabled by an admin (403).
    #[error("the bot {0:?} was disabled by an admin; ask them, or upload under another name")]
    Disabled(String),
    /// The database failed.
    #[error(transparent)]
    Db(#[from] DbError),
}

/// The ladder's storage: every query and change the ladder makes, whatever keeps them
/// ([`SqliteStore`], the default: one SQLite file; `postgres::PgStore` with the feature
/// `postgres`). The ladder holds it as [`Db`].
pub trait Store: Send + Sync {
    /// Where the data is (a file, a server), for messages.
    fn location(&self) -> String;

    /// Creates an event; its seed is derived from `ladder_seed` and its id.
    ///
    /// # Errors
    /// Database errors.
    fn create_class_event(&self, event: &NewEvent, by: i64, ladder_seed: u64) -> Result<i64, DbError>;

    /// Every event, newest first.
    ///
    /// # Errors
    /// Database errors.
    fn class_events(&self) -> Result<Vec<Event>, DbError>;

    /// An event by id.
    ///
    /// # Errors
    /// Database errors.
    fn class_event(&self, id: i64) -> Result<Option<Event>, DbError>;

    /// An event's frozen entrants, in the grade's order.
    ///
    /// # Errors
    /// Database errors.
    fn class_entries(&self, event: i64) -> Result<Vec<Entry>, DbError>;

    /// The queue keys of an event's matches, in plan order.
    ///
    /// # Errors
    /// Database errors.
    fn class_match_keys(&self, event: i64) -> Result<Vec<String>, DbError>;

    /// The bots of `game` as they stood at `deadline`: the newest ready version of every
    /// enabled bot of an enabled owner among the versions uploaded by then; or, while a version
    /// uploaded by then is still being validated, how many are.
    fn frozen_at(&self, game: &str, deadline: i64) -> Result<Frozen, DbError>;

    /// Records an event's frozen entrants and its queued matches: it is running.
    fn freeze_class_event(
        &self,
        event: i64,
        entries: &[(i64, String, String)],
        keys: &[String],
    ) -> Result<(), DbError>;

    fn set_class_state(&self, event: i64, state: &str, message: &str) -> Result<(), DbError>;

    fn set_class_done(&self, event: i64, done: usize) -> Result<(), DbError>;

    fn finish_class_event(
        &self,
        event: i64,
        csv: &str,
        report: &str,
        rows: &str,
        done: usize,
    ) -> Result<(), DbError>;

    /// A graded event's CSV, table (as `arena grade` prints it) and results rows (JSON).
    ///
    /// # Errors
    /// Database errors.
    fn class_results(&self, event: i64) -> Result<Option<(String, String, String)>, DbError>;

    /// Game `id`.
    ///
    /// # Errors
    /// Database errors.
    fn play_game(&self, id: i64) -> Result<Option<Game>>;

    /// The game of a queue job key.
    ///
    /// # Errors
    /// Database errors.
    fn play_game_by_key(&self, key: &str) -> Result<Option<Game>>;

    /// A person's 20 newest games, newest first.
    ///
    /// # Errors
    /// Database errors.
    fn play_games_of(&self, user: i64) -> Result<Vec<Game>>;

    /// The newest decision of game `id` (open when it has no action).
    ///
    /// # Errors
    /// Database errors.
    fn last_play_turn(&self, id: i64) -> Result<Option<Turn>>;

    /// Moves game `id` from any state of `from` to `to`; whether it was in one of them.
    ///
    /// # Errors
    /// Database errors.
    fn set_play_state(&self, id: i64, from: &[&str], to: &str) -> Result<bool>;

    /// Decision `n` of game `game` as the worker waits on it: the move made (if made) and the
    /// game's state.
    ///
    /// # Errors
    /// Database errors.
    fn play_turn_answer(&self, game: i64, n: i64) -> Result<(Option<String>, String)>;

    /// Puts decision `n` to the person of game `game` (kept as it is when already put: a job
    /// played again puts the same decisions), and marks a queued game as playing.
    ///
    /// # Errors
    /// Database errors.
    fn put_play_turn(&self, game: i64, n: i64, view: &str, observation: &str, legal: &str) -> Result<()>;

    /// Records the person's move at decision `n` of game `game`, unless one is made already;
    /// whether it was recorded.
    ///
    /// # Errors
    /// Database errors.
    fn set_play_action(&self, game: i64, n: i64, action: &str) -> Result<bool>;

    /// Game `id` is over: its summary and compressed replay.
    ///
    /// # Errors
    /// Database errors.
    fn finish_play_game(&self, id: i64, summary: &str, replay: &[u8]) -> Result<()>;

    /// Game `id` could not be played, for `error`.
    ///
    /// # Errors
    /// Database errors.
    fn fail_play_game(&self, id: i64, error: &str) -> Result<()>;

    /// Starts a game, unless the person has one in play (one statement, so that two starts at
    /// once make one game): its id, or `None`.
    ///
    /// # Errors
    /// Database errors.
    fn start_play_game(&self, g: &NewPlayGame<'_>) -> Result<Option<i64>>;

    /// The compressed replay of a finished game.
    ///
    /// # Errors
    /// Database errors.
    fn play_replay(&self, id: i64) -> Result<Option<Vec<u8>>>;

    /// `user`'s draft for `game`.
    ///
    /// # Errors
    /// Database errors.
    fn garage_draft(&self, user: i64, game: &str) -> Result<Option<Draft>>;

    /// `user`'s drafts, by game.
    ///
    /// # Errors
    /// Database errors.
    fn garage_drafts_of(&self, user: i64) -> Result<Vec<Draft>>;

    /// Saves a draft (one per user and game; its time is now).
    ///
    /// # Errors
    /// Database errors.
    fn save_garage_draft(&self, draft: &Draft) -> Result<()>;

    /// Records a try; its id.
    ///
    /// # Errors
    /// Database errors.
    fn add_garage_try(&self, t: &NewTry<'_>) -> Result<i64>;

    /// Try `id`.
    ///
    /// # Errors
    /// Database errors.
    fn garage_try(&self, id: i64) -> Result<Option<Try>>;

    /// `user`'s ten newest tries in `game`, newest first.
    ///
    /// # Errors
    /// Database errors.
    fn garage_tries_of(&self, user: i64, game: &str) -> Result<Vec<Try>>;

    /// The analysis (JSON, as `arena analyse --json` prints it) of try `try_id`'s draft seat,
    /// once made.
    ///
    /// # Errors
    /// Database errors.
    fn garage_analysis(&self, try_id: i64) -> Result<Option<String>>;

    /// Keeps the analysis of try `try_id` (the first one stored stays).
    ///
    /// # Errors
    /// Database errors.
    fn save_garage_analysis(&self, try_id: i64, result: &str) -> Result<()>;
    /// Asks for the analysis of `seat` in match `match_id` for account `user`: the row as it is
    /// (done, waiting or failed), else a new queued one with `budget` samples per decision
    /// (`None`: the game's default), unless `user` has `max_waiting` analyses waiting already
    /// (`None`).
    ///
    /// # Errors
    /// Database errors (a match that is not there among them).
    fn request_analysis(
        &self,
        match_id: i64,
        seat: i64,
        user: i64,
        budget: Option<u32>,
        max_waiting: i64,
    ) -> Result<Option<AnalysisRow>>;

    /// The analysis of `seat` in match `match_id`, if asked for.
    ///
    /// # Errors
    /// Database errors.
    fn analysis(&self, match_id: i64, seat: i64) -> Result<Option<AnalysisRow>>;

    /// The analyses asked for in match `match_id`, by seat, without their results.
    ///
    /// # Errors
    /// Database errors.
    fn analyses_of(&self, match_id: i64) -> Result<Vec<AnalysisRow>>;

    /// Leases to `worker` for `lease_seconds` the oldest analysis asked for at or before
    /// `asked_before` that is queued, or running with an expired lease; one whose lease expired
    /// after `max_attempts` claims fails instead.
    ///
    /// # Errors
    /// Database errors.
    fn claim_analysis(
        &self,
        worker: &str,
        lease_seconds: i64,
        asked_before: i64,
        max_attempts: i64,
    ) -> Result<Option<ClaimedAnalysis>>;

    /// Stores an analysis' JSON (`Ok`) or why it could not be made (`Err`); one done is kept.
    ///
    /// # Errors
    /// Database errors.
    fn finish_analysis(
        &self,
        match_id: i64,
        seat: i64,
        outcome: std::result::Result<&str, &str>,
    ) -> Result<()>;

    /// On a database without users: a fresh one-time admin invite code (older unused admin
    /// invites are dropped, since their codes were only ever printed). `None` once a user exists.
    ///
    /// # Errors
    /// Database errors.
    fn first_admin_invite(&self) -> Result<Option<String>>;

    /// A new invite code made by admin `by`.
    ///
    /// # Errors
    /// Database errors.
    fn create_invite(&self, by: i64, admin: bool) -> Result<String>;

    /// Creates an account. With `invite`, the code must be unused (it is then used up, in the
    /// same transaction); the account is an admin if the invite says so. Without, an open
    /// registration: a player. `Ok(None)`: the invite is not valid or the name is taken (one
    /// answer for both, so that the form reveals nothing).
    ///
    /// # Errors
    /// Database errors.
    fn register(&self, name: &str, pw_hash: &str, invite: Option<&str>) -> Result<Option<User>>;

    /// The account `name` (as typed, or any form with the same [`name_key`]) with its password
    /// hash. An account whose name is exactly `name` comes first (two older accounts may share a
    /// key: see [`migrate`]).
    ///
    /// # Errors
    /// Database errors.
    fn login_row(&self, name: &str) -> Result<Option<(User, String)>>;

    /// The account with id `id`.
    ///
    /// # Errors
    /// Database errors.
    fn user(&self, id: i64) -> Result<Option<User>>;

    /// Every account, by name.
    ///
    /// # Errors
    /// Database errors.
    fn users(&self) -> Result<Vec<User>>;

    /// Disables (or enables again) an account. Disabling ends its sessions for good
    /// ([`Store::end_sessions`]): enabling it again brings none back.
    ///
    /// # Errors
    /// Database errors.
    fn set_user_disabled(&self, id: i64, disabled: bool) -> Result<bool>;

    /// Ends every browser session of `user`: their rows go, and the account's session epoch
    /// moves on, so that a session saved with an older epoch (say, by a request that was under
    /// way) is refused too. Returns the new epoch.
    ///
    /// # Errors
    /// Database errors.
    fn end_sessions(&self, user: i64) -> Result<i64>;

    /// The account with id `id` and its session epoch (a session holds the epoch it was made in).
    ///
    /// # Errors
    /// Database errors.
    fn user_epoch(&self, id: i64) -> Result<Option<(User, i64)>>;

    /// The password hash of account `id`.
    ///
    /// # Errors
    /// Database errors.
    fn password_hash(&self, id: i64) -> Result<Option<String>>;

    /// Sets account `id`'s password hash and ends its sessions ([`Store::end_sessions`]); the new
    /// session epoch.
    ///
    /// # Errors
    /// Database errors.
    fn set_password(&self, id: i64, pw_hash: &str) -> Result<i64>;

    /// Disables (or enables again) a bot.
    ///
    /// # Errors
    /// Database errors.
    fn set_bot_disabled(&self, id: i64, disabled: bool) -> Result<bool>;

    /// Publishes (or hides again) a bot's source.
    ///
    /// # Errors
    /// Database errors.
    fn set_bot_published(&self, id: i64, published: bool) -> Result<bool>;

    /// A new API token for `user`, returned once; only its hash is stored.
    ///
    /// # Errors
    /// Database errors.
    fn create_token(&self, user: i64, label: &str) -> Result<String>;

    /// `user`'s tokens (id and label), newest first.
    ///
    /// # Errors
    /// Database errors.
    fn tokens(&self, user: i64) -> Result<Vec<TokenRow>>;

    /// Deletes `user`'s token `id` (any later call with it is refused); whether it was theirs.
    ///
    /// # Errors
    /// Database errors.
    fn revoke_token(&self, user: i64, id: i64) -> Result<bool>;

    /// The account an API token belongs to.
    ///
    /// # Errors
    /// Database errors.
    fn token_user(&self, token: &str) -> Result<Option<User>>;

    /// Stores a session record (JSON) until `expiry`.
    ///
    /// # Errors
    /// Database errors.
    fn save_session(&self, id: &str, record: &str, expiry: i64) -> Result<()>;

    /// A session record that has not expired.
    ///
    /// # Errors
    /// Database errors.
    fn load_session(&self, id: &str) -> Result<Option<String>>;

    /// Deletes a session (and every expired one).
    ///
    /// # Errors
    /// Database errors.
    fn delete_session(&self, id: &str) -> Result<()>;

    /// Stores an upload as the next version of `owner`'s bot `name` in `game` (creating the
    /// bot on its first upload). The file is stored once under its content hash.
    ///
    /// # Errors
    /// [`UploadRefused`]: identical content, a name another player owns, a disabled bot.
    fn upload(
        &self,
        owner: i64,
        game: &str,
        name: &str,
        lang: &str,
        bytes: &[u8],
    ) -> std::result::Result<(BotRow, Version), UploadRefused>;

    /// A bot by id.
    ///
    /// # Errors
    /// Database errors.
    fn bot(&self, id: i64) -> Result<Option<BotRow>>;

    /// A bot by game and name.
    ///
    /// # Errors
    /// Database errors.
    #[cfg(test)]
    fn bot_named(&self, game: &str, name: &str) -> Result<Option<BotRow>>;

    /// Every bot, by game and name.
    ///
    /// # Errors
    /// Database errors.
    fn bots(&self) -> Result<Vec<BotRow>>;

    /// A version by id.
    ///
    /// # Errors
    /// Database errors.
    fn version(&self, id: i64) -> Result<Option<Version>>;

    /// A bot's versions, newest first.
    ///
    /// # Errors
    /// Database errors.
    fn versions(&self, bot: i64) -> Result<Vec<Version>>;

    /// The players of a game: the newest version of every enabled bot of an enabled owner, if
    /// that version is ready (a bot whose newest upload is pending or failed sits out).
    ///
    /// # Errors
    /// Database errors.
    fn players(&self, game: &str) -> Result<Vec<(BotRow, Version)>>;

    /// The bytes stored under a content hash.
    ///
    /// # Errors
    /// Database errors.
    fn file(&self, hash: &str) -> Result<Option<Vec<u8>>>;

    /// Records a version's validation: `ready` or `failed`, with its checks as JSON.
    ///
    /// # Errors
    /// Database errors.
    fn set_validation(&self, version: i64, ready: bool, verdicts: &str) -> Result<()>;

    /// Takes finished jobs in, in one transaction: each played match (its summary JSON and
    /// compressed replay) is stored unless its key already is (a job run twice stores its match
    /// once), and each job, played or failed, is forgotten from `pending`. One transaction a
    /// collection rather than two a match keeps the database's single writer free for the
    /// workers' claims and results.
    ///
    /// # Errors
    /// Database errors (nothing is taken in then).
    fn take_in(&self, taken: &[Taken<'_>]) -> Result<()>;

    /// Remembers queued jobs (a key already remembered is left as it is).
    ///
    /// # Errors
    /// Database errors.
    fn add_pending(&self, jobs: &[Pending]) -> Result<()>;

    /// The jobs the ladder waits for, oldest first.
    ///
    /// # Errors
    /// Database errors.
    fn pending(&self) -> Result<Vec<Pending>>;

    /// Forgets a job taken in.
    ///
    /// # Errors
    /// Database errors.
    fn remove_pending(&self, key: &str) -> Result<()>;

    /// Every match of a board, in the order stored.
    ///
    /// # Errors
    /// Database errors.
    fn board_matches(&self, game: &str, variant: &str) -> Result<Vec<MatchRow>>;

    /// The newest `limit` matches in which any of `versions` sat.
    ///
    /// # Errors
    /// Database errors.
    fn matches_of(&self, versions: &[i64], limit: usize) -> Result<Vec<MatchRow>>;

    /// A match by id, with its compressed replay.
    ///
    /// # Errors
    /// Database errors.
    fn match_row(&self, id: i64) -> Result<Option<(MatchRow, Vec<u8>)>>;

    /// The next matchmaking tick's number (1, 2, ...; kept across restarts).
    ///
    /// # Errors
    /// Database errors.
    fn next_tick(&self) -> Result<i64>;
}

/// The ladder's storage as the ladder holds it.
pub type Db = dyn Store;

/// Whether `db` names a PostgreSQL database (`postgres://…` or `postgresql://…`) rather than
/// a SQLite file.
pub fn is_postgres(db: &str) -> bool {
    db.starts_with("postgres://") || db.starts_with("postgresql://")
}

/// Opens the ladder's storage at `db`: a PostgreSQL URL (in a build with the feature
/// `postgres`), else the path of a SQLite file (created if needed).
///
/// # Errors
/// The database cannot be opened, or the URL names a backend this build lacks.
pub fn open(db: &str) -> Result<std::sync::Arc<Db>> {
    if is_postgres(db) {
        #[cfg(feature = "postgres")]
        return Ok(std::sync::Arc::new(postgres::PgStore::connect(db)?));
        #[cfg(not(feature = "postgres"))]
        return Err(DbError::new(
            cardarena::tournament::queue::redact(db),
            "this arena was built without PostgreSQL; build it with `--features postgres`, or give a SQLite file",
        ));
    }
    Ok(std::sync::Arc::new(SqliteStore::open(Path::new(db))?))
}

/// The ladder database in one SQLite file.
pub struct SqliteStore {
    conn: Mutex<Connection>,
    path: PathBuf,
}

impl SqliteStore {
    /// Opens (creating if needed) the ladder database at `path`, in WAL mode.
    ///
    /// # Errors
    /// The file cannot be opened or is not a ladder database.
    pub fn open(path: &Path) -> Result<SqliteStore> {
        let err = |source: rusqlite::Error| DbError::new(path.display().to_string(), source);
        let mut conn = Connection::open(path).map_err(err)?;
        cardarena::tournament::store::set_up::<10_000>(&conn)
            .and_then(|_| conn.pragma_update(None, "foreign_keys", "ON"))
            .and_then(|_| conn.execute_batch(SCHEMA))
            .and_then(|_| conn.execute_batch(CLASS_SCHEMA))
            .and_then(|_| conn.execute_batch(garage::SCHEMA))
            .and_then(|_| conn.execute_batch(analysis::SCHEMA))
            .and_then(|_| migrate(&mut conn))
            .map_err(err)?;
        Ok(SqliteStore { conn: Mutex::new(conn), path: path.to_path_buf() })
    }

    /// The database file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn conn(&self) -> MutexGuard<'_, Connection> {
        // A panic while holding the lock leaves SQLite consistent (statements are atomic).
        self.conn.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    fn err(&self, source: rusqlite::Error) -> DbError {
        DbError::new(self.path.display().to_string(), source)
    }

    /// Runs `f` on the connection, mapping its errors to [`DbError`].
    fn with<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T> {
        f(&self.conn()).map_err(|e| self.err(e))
    }

    /// Runs SQL of the tests' own (to look inside, or to set up what the pages cannot).
    #[cfg(test)]
    pub(crate) fn raw<T>(&self, f: impl FnOnce(&Connection) -> rusqlite::Result<T>) -> Result<T> {
        self.with(f)
    }

    /// Copies the database, while it is in use, to `to` (SQLite's online backup).
    ///
    /// # Errors
    /// Database or file errors.
    pub fn backup(&self, to: &Path) -> Result<()> {
        let conn = self.conn();
        let mut dest = Connection::open(to).map_err(|e| DbError::new(to.display().to_string(), e))?;
        let backup = rusqlite::backup::Backup::new(&conn, &mut dest).map_err(|e| self.err(e))?;
        // Every page in one step: one read transaction, hence one snapshot, however busy the
        // workers are (in steps, each write by another connection would restart the copy).
        backup.run_to_completion(i32::MAX, std::time::Duration::from_millis(5), None).map_err(|e| self.err(e))
    }
}

impl Store for SqliteStore {
    fn location(&self) -> String {
        self.path.display().to_string()
    }

    fn create_class_event(&self, event: &NewEvent, by: i64, ladder_seed: u64) -> Result<i64, DbError> {
        SqliteStore::create_class_event(self, event, by, ladder_seed)
    }

    fn class_events(&self) -> Result<Vec<Event>, DbError> {
        SqliteStore::class_events(self)
    }

    fn class_event(&self, id: i64) -> Result<Option<Event>, DbError> {
        SqliteStore::class_event(self, id)
    }

    fn class_entries(&self, event: i64) -> Result<Vec<Entry>, DbError> {
        SqliteStore::class_entries(self, event)
    }

    fn class_match_keys(&self, event: i64) -> Result<Vec<String>, DbError> {
        SqliteStore::class_match_keys(self, event)
    }

    fn frozen_at(&self, game: &str, deadline: i64) -> Result<Frozen, DbError> {
        SqliteStore::frozen_at(self, game, deadline)
    }

    fn freeze_class_event(
        &self,
        event: i64,
        entries: &[(i64, String, String)],
        keys: &[String],
    ) -> Result<(), DbError> {
        SqliteStore::freeze_class_event(self, event, entries, keys)
    }

    fn set_class_state(&self, event: i64, state: &str, message: &str) -> Result<(), DbError> {
        SqliteStore::set_class_state(self, event, state, message)
    }

    fn set_class_done(&self, event: i64, done: usize) -> Result<(), DbError> {
        SqliteStore::set_class_done(self, event, done)
    }

    fn finish_class_event(
        &self,
        event: i64,
        csv: &str,
        report: &str,
        rows: &str,
        done: usize,
    ) -> Result<(), DbError> {
        SqliteStore::finish_class_event(self, event, csv, report, rows, done)
    }

    fn class_results(&self, event: i64) -> Result<Option<(String, String, String)>, DbError> {
        SqliteStore::class_results(self, event)
    }

    fn garage_draft(&self, user: i64, game: &str) -> Result<Option<Draft>> {
        SqliteStore::garage_draft(self, user, game)
    }

    fn garage_drafts_of(&self, user: i64) -> Result<Vec<Draft>> {
        SqliteStore::garage_drafts_of(self, user)
    }

    fn save_garage_draft(&self, draft: &Draft) -> Result<()> {
        SqliteStore::save_garage_draft(self, draft)
    }

    fn add_garage_try(&self, t: &NewTry<'_>) -> Result<i64> {
        SqliteStore::add_garage_try(self, t)
    }

    fn garage_try(&self, id: i64) -> Result<Option<Try>> {
        SqliteStore::garage_try(self, id)
    }

    fn garage_tries_of(&self, user: i64, game: &str) -> Result<Vec<Try>> {
        SqliteStore::garage_tries_of(self, user, game)
    }

    fn garage_analysis(&self, try_id: i64) -> Result<Option<String>> {
        SqliteStore::garage_analysis(self, try_id)
    }

    fn save_garage_analysis(&self, try_id: i64, result: &str) -> Result<()> {
        SqliteStore::save_garage_analysis(self, try_id, result)
    }

    fn play_game(&self, id: i64) -> Result<Option<Game>> {
        SqliteStore::play_game(self, id)
    }

    fn play_game_by_key(&self, key: &str) -> Result<Option<Game>> {
        SqliteStore::play_game_by_key(self, key)
    }

    fn play_games_of(&self, user: i64) -> Result<Vec<Game>> {
        SqliteStore::play_games_of(self, user)
    }

    fn last_play_turn(&self, id: i64) -> Result<Option<Turn>> {
        SqliteStore::last_play_turn(self, id)
    }

    fn set_play_state(&self, id: i64, from: &[&str], to: &str) -> Result<bool> {
        SqliteStore::set_play_state(self, id, from, to)
    }

    fn play_turn_answer(&self, game: i64, n: i64) -> Result<(Option<String>, String)> {
        SqliteStore::play_turn_answer(self, game, n)
    }

    fn put_play_turn(&self, game: i64, n: i64, view: &str, observation: &str, legal: &str) -> Result<()> {
        SqliteStore::put_play_turn(self, game, n, view, observation, legal)
    }

    fn set_play_action(&self, game: i64, n: i64, action: &str) -> Result<bool> {
        SqliteStore::set_play_action(self, game, n, action)
    }

    fn finish_play_game(&self, id: i64, summary: &str, replay: &[u8]) -> Result<()> {
        SqliteStore::finish_play_game(self, id, summary, replay)
    }

    fn fail_play_game(&self, id: i64, error: &str) -> Result<()> {
        SqliteStore::fail_play_game(self, id, error)
    }

    fn start_play_game(&self, g: &NewPlayGame<'_>) -> Result<Option<i64>> {
        SqliteStore::start_play_game(self, g)
    }

    fn play_replay(&self, id: i64) -> Result<Option<Vec<u8>>> {
        SqliteStore::play_replay(self, id)
    }

    fn request_analysis(
        &self,
        match_id: i64,
        seat: i64,
        user: i64,
        budget: Option<u32>,
        max_waiting: i64,
    ) -> Result<Option<AnalysisRow>> {
        SqliteStore::request_analysis(self, match_id, seat, user, budget, max_waiting)
    }

    fn analysis(&self, match_id: i64, seat: i64) -> Result<Option<AnalysisRow>> {
        SqliteStore::analysis(self, match_id, seat)
    }

    fn analyses_of(&self, match_id: i64) -> Result<Vec<AnalysisRow>> {
        SqliteStore::analyses_of(self, match_id)
    }

    fn claim_analysis(
        &self,
        worker: &str,
        lease_seconds: i64,
        asked_before: i64,
        max_attempts: i64,
    ) -> Result<Option<ClaimedAnalysis>> {
        SqliteStore::claim_analysis(self, worker, lease_seconds, asked_before, max_attempts)
    }

    fn finish_analysis(
        &self,
        match_id: i64,
        seat: i64,
        outcome: std::result::Result<&str, &str>,
    ) -> Result<()> {
        SqliteStore::finish_analysis(self, match_id, seat, outcome)
    }

    fn first_admin_invite(&self) -> Result<Option<String>> {
        self.with(|c| {
            let users: i64 = c.query_row("SELECT COUNT(*) FROM users", [], |r| r.get(0))?;
            if users > 0 {
                return Ok(None);
            }
            c.execute("DELETE FROM invites WHERE admin = 1 AND used_by IS NULL", [])?;
            let code = secret();
            c.execute(
                "INSERT INTO invites (code_hash, admin, made_by, created) VALUES (?1, 1, NULL, ?2)",
                params![content_hash(code.as_bytes()), now()],
            )?;
            Ok(Some(code))
        })
    }

    fn create_invite(&self, by: i64, admin: bool) -> Result<String> {
        let code = secret();
        self.with(|c| {
            c.execute(
                "INSERT INTO invites (code_hash, admin, made_by, created) VALUES (?1, ?2, ?3, ?4)",
                params![content_hash(code.as_bytes()), admin, by, now()],
            )
        })?;
        Ok(code)
    }

    fn register(&self, name: &str, pw_hash: &str, invite: Option<&str>) -> Result<Option<User>> {
        let mut conn = self.conn();
        let run = |c: &mut Connection| -> rusqlite::Result<Option<User>> {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let admin = match invite {
                Some(code) => {
                    let row: Option<bool> = tx
                        .query_row(
                            "SELECT admin FROM invites WHERE code_hash = ?1 AND used_by IS NULL",
                            params![content_hash(code.as_bytes())],
                            |r| r.get(0),
                        )
                        .optional()?;
                    match row {
                        Some(admin) => admin,
                        None => return Ok(None),
                    }
                }
                None => false,
            };
            let key = name_key(name);
            let taken: bool = tx.query_row(
                "SELECT COUNT(*) > 0 FROM users WHERE name = ?1 OR name_key = ?2",
                params![name, key],
                |r| r.get(0),
            )?;
            if taken {
                return Ok(None);
            }
            tx.execute(
                "INSERT INTO users (name, name_key, pw_hash, admin, created) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![name, key, pw_hash, admin, now()],
            )?;
            let id = tx.last_insert_rowid();
            if let Some(code) = invite {
                tx.execute(
                    "UPDATE invites SET used_by = ?1 WHERE code_hash = ?2",
                    params![id, content_hash(code.as_bytes())],
                )?;
            }
            tx.commit()?;
            Ok(Some(User { id, name: name.to_string(), admin, disabled: false }))
        };
        run(&mut conn).map_err(|e| self.err(e))
    }

    fn login_row(&self, name: &str) -> Result<Option<(User, String)>> {
        self.with(|c| {
            c.query_row(
                "SELECT id, name, admin, disabled, pw_hash FROM users WHERE name = ?1 OR name_key = ?2
                 ORDER BY name = ?1 DESC, id LIMIT 1",
                params![name, name_key(name)],
                |r| Ok((user_of(r)?, r.get(4)?)),
            )
            .optional()
        })
    }

    fn user(&self, id: i64) -> Result<Option<User>> {
        self.with(|c| {
            c.query_row("SELECT id, name, admin, disabled FROM users WHERE id = ?1", params![id], user_of)
                .optional()
        })
    }

    fn users(&self) -> Result<Vec<User>> {
        self.with(|c| {
            let mut s = c.prepare("SELECT id, name, admin, disabled FROM users ORDER BY name")?;
            let rows = s.query_map([], user_of)?.collect();
            rows
        })
    }

    fn set_user_disabled(&self, id: i64, disabled: bool) -> Result<bool> {
        let found = self
            .with(|c| c.execute("UPDATE users SET disabled = ?1 WHERE id = ?2", params![disabled, id]))
            .map(|n| n > 0)?;
        if found && disabled {
            self.end_sessions(id)?;
        }
        Ok(found)
    }

    fn end_sessions(&self, user: i64) -> Result<i64> {
        self.with(|c| {
            c.execute("UPDATE users SET session_epoch = session_epoch + 1 WHERE id = ?1", params![user])?;
            c.execute("DELETE FROM sessions WHERE json_extract(record, '$.data.user') = ?1", params![user])?;
            c.query_row("SELECT session_epoch FROM users WHERE id = ?1", params![user], |r| r.get(0))
        })
    }

    fn user_epoch(&self, id: i64) -> Result<Option<(User, i64)>> {
        self.with(|c| {
            c.query_row(
                "SELECT id, name, admin, disabled, session_epoch FROM users WHERE id = ?1",
                params![id],
                |r| Ok((user_of(r)?, r.get(4)?)),
            )
            .optional()
        })
    }

    fn password_hash(&self, id: i64) -> Result<Option<String>> {
        self.with(|c| {
            c.query_row("SELECT pw_hash FROM users WHERE id = ?1", params![id], |r| r.get(0)).optional()
        })
    }

    fn set_password(&self, id: i64, pw_hash: &str) -> Result<i64> {
        self.with(|c| c.execute("UPDATE users SET pw_hash = ?1 WHERE id = ?2", params![pw_hash, id]))?;
        self.end_sessions(id)
    }

    fn set_bot_disabled(&self, id: i64, disabled: bool) -> Result<bool> {
        self.with(|c| c.execute("UPDATE bots SET disabled = ?1 WHERE id = ?2", params![disabled, id]))
            .map(|n| n > 0)
    }

    fn set_bot_published(&self, id: i64, published: bool) -> Result<bool> {
        self.with(|c| c.execute("UPDATE bots SET published = ?1 WHERE id = ?2", params![published, id]))
            .map(|n| n > 0)
    }

    fn create_token(&self, user: i64, label: &str) -> Result<String> {
        let token = secret();
        self.with(|c| {
            c.execute(
                "INSERT INTO tokens (hash, user_id, label, created) VALUES (?1, ?2, ?3, ?4)",
                params![content_hash(token.as_bytes()), user, label, now()],
            )
        })?;
        Ok(token)
    }

    fn tokens(&self, user: i64) -> Result<Vec<TokenRow>> {
        self.with(|c| {
            let mut s = c.prepare(
                "SELECT rowid, label FROM tokens WHERE user_id = ?1 ORDER BY created DESC, rowid DESC",
            )?;
            let rows =
                s.query_map(params![user], |r| Ok(TokenRow { id: r.get(0)?, label: r.get(1)? }))?.collect();
            rows
        })
    }

    fn revoke_token(&self, user: i64, id: i64) -> Result<bool> {
        self.with(|c| c.execute("DELETE FROM tokens WHERE rowid = ?1 AND user_id = ?2", params![id, user]))
            .map(|n| n > 0)
    }

    fn token_user(&self, token: &str) -> Result<Option<User>> {
        self.with(|c| {
            c.query_row(
                "SELECT u.id, u.name, u.admin, u.disabled FROM tokens t JOIN users u ON u.id = t.user_id
                 WHERE t.hash = ?1",
                params![content_hash(token.as_bytes())],
                user_of,
            )
            .optional()
        })
    }

    fn save_session(&self, id: &str, record: &str, expiry: i64) -> Result<()> {
        self.with(|c| {
            c.execute(
                "INSERT INTO sessions (id, record, expiry) VALUES (?1, ?2, ?3)
                 ON CONFLICT(id) DO UPDATE SET record = excluded.record, expiry = excluded.expiry",
                params![id, record, expiry],
            )
        })
        .map(drop)
    }

    fn load_session(&self, id: &str) -> Result<Option<String>> {
        self.with(|c| {
            c.query_row(
                "SELECT record FROM sessions WHERE id = ?1 AND expiry > ?2",
                params![id, now()],
                |r| r.get(0),
            )
            .optional()
        })
    }

    fn delete_session(&self, id: &str) -> Result<()> {
        self.with(|c| c.execute("DELETE FROM sessions WHERE id = ?1 OR expiry <= ?2", params![id, now()]))
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
        let mut conn = self.conn();
        let tx = conn
            .transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)
            .map_err(|e| self.err(e))?;
        let q = |e| self.err(e);
        let same: Option<(String, i64)> = tx
            .query_row(
                "SELECT b.name, v.number FROM versions v JOIN bots b ON b.id = v.bot
                 WHERE v.hash = ?1 AND b.game = ?2 ORDER BY v.id LIMIT 1",
                params![hash, game],
                |r| Ok((r.get(0)?, r.get(1)?)),
            )
            .optional()
            .map_err(q)?;
        if let Some((bot, number)) = same {
            return Err(UploadRefused::Identical(format!("{bot} v{number}")));
        }
        // A name of another form (case, Unicode compatibility) is the same bot.
        let key = name_key(name);
        let existing: Option<(i64, i64, bool)> = tx
            .query_row(
                "SELECT id, owner, disabled FROM bots WHERE game = ?1 AND (name = ?2 OR name_key = ?3)
                 ORDER BY name = ?2 DESC, id LIMIT 1",
                params![game, name, key],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
            )
            .optional()
            .map_err(q)?;
        let bot = match existing {
            Some((_, o, _)) if o != owner => {
                return Err(UploadRefused::NameTaken(name.to_string(), game.to_string()))
            }
            Some((_, _, true)) => return Err(UploadRefused::Disabled(name.to_string())),
            Some((id, _, false)) => id,
            None => {
                tx.execute(
                    "INSERT INTO bots (owner, game, name, name_key) VALUES (?1, ?2, ?3, ?4)",
                    params![owner, game, name, key],
                )
                .map_err(q)?;
                tx.last_insert_rowid()
            }
        };
        tx.execute("INSERT OR IGNORE INTO files (hash, bytes) VALUES (?1, ?2)", params![hash, bytes])
            .map_err(q)?;
        let number: i64 = tx
            .query_row(
                "SELECT COALESCE(MAX(number), 0) + 1 FROM versions WHERE bot = ?1",
                params![bot],
                |r| r.get(0),
            )
            .map_err(q)?;
        tx.execute(
            "INSERT INTO versions (bot, number, hash, lang, created) VALUES (?1, ?2, ?3, ?4, ?5)",
            params![bot, number, hash, lang, now()],
        )
        .map_err(q)?;
        let version = tx.last_insert_rowid();
        tx.commit().map_err(q)?;
        drop(conn);
        let bot = self.bot(bot)?.expect("the bot just written");
        let version = self.version(version)?.expect("the version just written");
        Ok((bot, version))
    }

    fn bot(&self, id: i64) -> Result<Option<BotRow>> {
        self.with(|c| c.query_row(&format!("{BOT_SELECT} WHERE b.id = ?1"), params![id], bot_of).optional())
    }

    #[cfg(test)]
    fn bot_named(&self, game: &str, name: &str) -> Result<Option<BotRow>> {
        self.with(|c| {
            c.query_row(
                &format!("{BOT_SELECT} WHERE b.game = ?1 AND b.name = ?2"),
                params![game, name],
                bot_of,
            )
            .optional()
        })
    }

    fn bots(&self) -> Result<Vec<BotRow>> {
        self.with(|c| {
            let mut s = c.prepare(&format!("{BOT_SELECT} ORDER BY b.game, b.name"))?;
            let rows = s.query_map([], bot_of)?.collect();
            rows
        })
    }

    fn version(&self, id: i64) -> Result<Option<Version>> {
        self.with(|c| {
            c.query_row(&format!("{VERSION_SELECT} WHERE id = ?1"), params![id], version_of).optional()
        })
    }

    fn versions(&self, bot: i64) -> Result<Vec<Version>> {
        self.with(|c| {
            let mut s = c.prepare(&format!("{VERSION_SELECT} WHERE bot = ?1 ORDER BY number DESC"))?;
            let rows = s.query_map(params![bot], version_of)?.collect();
            rows
        })
    }

    fn players(&self, game: &str) -> Result<Vec<(BotRow, Version)>> {
        self.with(|c| {
            let mut s = c.prepare(&format!(
                "{BOT_SELECT} WHERE b.game = ?1 AND b.disabled = 0 AND u.disabled = 0 ORDER BY b.id"
            ))?;
            let bots: Vec<BotRow> = s.query_map(params![game], bot_of)?.collect::<rusqlite::Result<_>>()?;
            let mut out = Vec::new();
            for b in bots {
                let newest = c
                    .query_row(
                        &format!("{VERSION_SELECT} WHERE bot = ?1 ORDER BY number DESC LIMIT 1"),
                        params![b.id],
                        version_of,
                    )
                    .optional()?;
                if let Some(v) = newest.filter(|v| v.state == "ready") {
                    out.push((b, v));
                }
            }
            Ok(out)
        })
    }

    fn file(&self, hash: &str) -> Result<Option<Vec<u8>>> {
        self.with(|c| {
            c.query_row("SELECT bytes FROM files WHERE hash = ?1", params![hash], |r| r.get(0)).optional()
        })
    }

    fn set_validation(&self, version: i64, ready: bool, verdicts: &str) -> Result<()> {
        let state = if ready { "ready" } else { "failed" };
        self.with(|c| {
            c.execute(
                "UPDATE versions SET state = ?1, verdicts = ?2 WHERE id = ?3",
                params![state, verdicts, version],
            )
        })
        .map(drop)
    }

    fn take_in(&self, taken: &[Taken<'_>]) -> Result<()> {
        let mut conn = self.conn();
        let run = |c: &mut Connection| -> rusqlite::Result<()> {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            {
                let mut insert = tx.prepare_cached(
                    "INSERT OR IGNORE INTO matches (key, game, variant, seed, seats, summary, replay, tick)
                     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                )?;
                let mut forget = tx.prepare_cached("DELETE FROM pending WHERE key = ?1")?;
                for Taken { job: p, played } in taken {
                    if let Some((summary, replay)) = played {
                        let seats = serde_json::to_string(&p.seats).expect("ids serialize");
                        insert.execute(params![
                            p.key,
                            p.game,
                            p.variant,
                            p.seed as i64,
                            seats,
                            summary,
                            replay,
                            p.tick
                        ])?;
                    }
                    forget.execute(params![p.key])?;
                }
            }
            tx.commit()
        };
        run(&mut conn).map_err(|e| self.err(e))
    }

    fn add_pending(&self, jobs: &[Pending]) -> Result<()> {
        let mut conn = self.conn();
        let run = |c: &mut Connection| -> rusqlite::Result<()> {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            let mut insert = tx.prepare_cached(
                "INSERT OR IGNORE INTO pending (key, version, game, variant, seed, seats, tick)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
            )?;
            for p in jobs {
                insert.execute(params![
                    p.key,
                    p.version,
                    p.game,
                    p.variant,
                    p.seed as i64,
                    serde_json::to_string(&p.seats).expect("ids serialize"),
                    p.tick
                ])?;
            }
            drop(insert);
            tx.commit()
        };
        run(&mut conn).map_err(|e| self.err(e))
    }

    fn pending(&self) -> Result<Vec<Pending>> {
        self.with(|c| {
            let mut s = c.prepare(
                "SELECT key, version, game, variant, seed, seats, tick FROM pending ORDER BY rowid",
            )?;
            let rows = s
                .query_map([], |r| {
                    let seed: i64 = r.get(4)?;
                    let seats: String = r.get(5)?;
                    Ok(Pending {
                        key: r.get(0)?,
                        version: r.get(1)?,
                        game: r.get(2)?,
                        variant: r.get(3)?,
                        seed: seed as u64,
                        seats: serde_json::from_str(&seats).unwrap_or_default(),
                        tick: r.get(6)?,
                    })
                })?
                .collect();
            rows
        })
    }

    fn remove_pending(&self, key: &str) -> Result<()> {
        self.with(|c| c.execute("DELETE FROM pending WHERE key = ?1", params![key])).map(drop)
    }

    fn board_matches(&self, game: &str, variant: &str) -> Result<Vec<MatchRow>> {
        self.with(|c| {
            let mut s = c.prepare(&format!("{MATCH_SELECT} WHERE game = ?1 AND variant = ?2 ORDER BY id"))?;
            let rows = s.query_map(params![game, variant], match_of)?.collect();
            rows
        })
    }

    fn matches_of(&self, versions: &[i64], limit: usize) -> Result<Vec<MatchRow>> {
        self.with(|c| {
            let ids = serde_json::to_string(versions).expect("ids serialize");
            let mut s = c.prepare(&format!(
                "{MATCH_SELECT} WHERE EXISTS (SELECT 1 FROM json_each(matches.seats) s
                   WHERE s.value IN (SELECT value FROM json_each(?1)))
                 ORDER BY id DESC LIMIT ?2"
            ))?;
            let rows = s.query_map(params![ids, limit as i64], match_of)?.collect();
            rows
        })
    }

    fn match_row(&self, id: i64) -> Result<Option<(MatchRow, Vec<u8>)>> {
        self.with(|c| {
            c.query_row(&format!("{MATCH_COLUMNS}, replay FROM matches WHERE id = ?1"), params![id], |r| {
                Ok((match_of(r)?, r.get(8)?))
            })
            .optional()
        })
    }

    fn next_tick(&self) -> Result<i64> {
        self.with(|c| {
            c.query_row(
                "INSERT INTO counters (name, value) VALUES ('tick', 1)
                 ON CONFLICT(name) DO UPDATE SET value = value + 1 RETURNING value",
                [],
                |r| r.get(0),
            )
        })
    }
}

const BOT_SELECT: &str = "SELECT b.id, b.owner, u.name, b.game, b.name, b.published, b.disabled
    FROM bots b JOIN users u ON u.id = b.owner";
const VERSION_SELECT: &str = "SELECT id, bot, number, hash, lang, state, verdicts, created FROM versions";
const MATCH_COLUMNS: &str = "SELECT id, key, game, variant, seed, seats, summary, tick";
const MATCH_SELECT: &str = "SELECT id, key, game, variant, seed, seats, summary, tick FROM matches";

fn user_of(r: &rusqlite::Row) -> rusqlite::Result<User> {
    Ok(User { id: r.get(0)?, name: r.get(1)?, admin: r.get(2)?, disabled: r.get(3)? })
}

fn bot_of(r: &rusqlite::Row) -> rusqlite::Result<BotRow> {
    Ok(BotRow {
        id: r.get(0)?,
        owner: r.get(1)?,
        owner_name: r.get(2)?,
        game: r.get(3)?,
        name: r.get(4)?,
        published: r.get(5)?,
        disabled: r.get(6)?,
    })
}

fn version_of(r: &rusqlite::Row) -> rusqlite::Result<Version> {
    Ok(Version {
        id: r.get(0)?,
        bot: r.get(1)?,
        number: r.get(2)?,
        hash: r.get(3)?,
        lang: r.get(4)?,
        state: r.get(5)?,
        verdicts: r.get(6)?,
        created: r.get(7)?,
    })
}

fn match_of(r: &rusqlite::Row) -> rusqlite::Result<MatchRow> {
    let seats: String = r.get(5)?;
    let seed: i64 = r.get(4)?;
    Ok(MatchRow {
        id: r.get(0)?,
        key: r.get(1)?,
        game: r.get(2)?,
        variant: r.get(3)?,
        seed: seed as u64,
        seats: serde_json::from_str(&seats).unwrap_or_default(),
        summary: r.get(6)?,
        tick: r.get(7)?,
    })
}

/// A stored (compressed) replay, read back; `None` when damaged.
pub fn replay_of(blob: &[u8]) -> Option<cardarena::play::runner::Replay> {
    let text = cardarena::tournament::store::unpack(blob).ok()?;
    serde_json::from_str(&text).ok()
}
