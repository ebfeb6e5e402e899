//! The tables of the garage (`crate::garage`): each player's draft per game, their tries (a try
//! is a queue job; its result is read from the queue by its key), and the analyses of tries.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::{now, DbError, SqliteStore};

type Result<T> = std::result::Result<T, DbError>;

/// The garage's tables in SQLite (PostgreSQL's are in `postgres.rs`'s schema, the same columns).
pub(super) const SCHEMA: &str = "
CREATE TABLE IF NOT EXISTS garage_drafts (
    user INTEGER NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    lang TEXT NOT NULL,
    code TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    updated INTEGER NOT NULL,
    PRIMARY KEY (user, game)
);
CREATE TABLE IF NOT EXISTS garage_tries (
    id INTEGER PRIMARY KEY,
    user INTEGER NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    lang TEXT NOT NULL,
    opponent TEXT NOT NULL,
    seat INTEGER NOT NULL,
    key TEXT NOT NULL,
    created INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS garage_tries_user ON garage_tries(user, game);
CREATE TABLE IF NOT EXISTS garage_analyses (
    try_id INTEGER PRIMARY KEY REFERENCES garage_tries(id),
    result TEXT NOT NULL
);
";

/// A player's draft of a bot for one game: never on the ladder, private to them (and readable
/// by an admin).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Draft {
    /// The player's user id.
    pub user: i64,
    /// The game.
    pub game: String,
    /// `lua`, `python`, `javascript` or `wat`.
    pub lang: String,
    /// The source.
    pub code: String,
    /// The bot name it is published under.
    pub name: String,
    /// When it was last saved (Unix seconds).
    pub updated: i64,
}

/// A try: one match of a draft against an opponent, played by a worker in the priority lane.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Try {
    /// Row id.
    pub id: i64,
    /// The player's user id.
    pub user: i64,
    /// Game.
    pub game: String,
    /// Variant.
    pub variant: String,
    /// The draft's language.
    pub lang: String,
    /// The opponent as the form named it (a built-in, or `v<ID>` for a ladder version).
    pub opponent: String,
    /// The draft's seat.
    pub seat: i64,
    /// The queue job's key.
    pub key: String,
    /// When it was made (Unix seconds).
    pub created: i64,
}

/// A try to record ([`super::Store::add_garage_try`]).
pub struct NewTry<'a> {
    /// The player's user id.
    pub user: i64,
    /// Game.
    pub game: &'a str,
    /// Variant.
    pub variant: &'a str,
    /// The draft's language.
    pub lang: &'a str,
    /// The opponent as the form named it.
    pub opponent: &'a str,
    /// The draft's seat.
    pub seat: usize,
    /// The queue job's key.
    pub key: &'a str,
}

const TRY_SELECT: &str =
    "SELECT id, user, game, variant, lang, opponent, seat, key, created FROM garage_tries";

fn try_of(r: &rusqlite::Row) -> rusqlite::Result<Try> {
    Ok(Try {
        id: r.get(0)?,
        user: r.get(1)?,
        game: r.get(2)?,
        variant: r.get(3)?,
        lang: r.get(4)?,
        opponent: r.get(5)?,
        seat: r.get(6)?,
        key: r.get(7)?,
        created: r.get(8)?,
    })
}

fn draft_of(r: &rusqlite::Row) -> rusqlite::Result<Draft> {
    Ok(Draft {
        user: r.get(0)?,
        game: r.get(1)?,
        lang: r.get(2)?,
        code: r.get(3)?,
        name: r.get(4)?,
        updated: r.get(5)?,
    })
}

impl SqliteStore {
    pub(super) fn garage_draft(&self, user: i64, game: &str) -> Result<Option<Draft>> {
        self.with(|c| {
            c.query_row(
                "SELECT user, game, lang, code, name, updated FROM garage_drafts WHERE user = ?1 AND game = ?2",
                params![user, game],
                draft_of,
            )
            .optional()
        })
    }

    pub(super) fn garage_drafts_of(&self, user: i64) -> Result<Vec<Draft>> {
        self.with(|c| {
            let mut s = c.prepare(
                "SELECT user, game, lang, code, name, updated FROM garage_drafts WHERE user = ?1 ORDER BY game",
            )?;
            let rows = s.query_map(params![user], draft_of)?.collect();
            rows
        })
    }

    pub(super) fn save_garage_draft(&self, d: &Draft) -> Result<()> {
        self.with(|c| {
            c.execute(
                "INSERT INTO garage_drafts (user, game, lang, code, name, updated) VALUES (?1, ?2, ?3, ?4, ?5, ?6)
                 ON CONFLICT (user, game) DO UPDATE SET lang = ?3, code = ?4, name = ?5, updated = ?6",
                params![d.user, d.game, d.lang, d.code, d.name, now()],
            )
        })
        .map(drop)
    }

    pub(super) fn add_garage_try(&self, t: &NewTry<'_>) -> Result<i64> {
        self.with(|c| {
            c.execute(
                "INSERT INTO garage_tries (user, game, variant, lang, opponent, seat, key, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![t.user, t.game, t.variant, t.lang, t.opponent, t.seat as i64, t.key, now()],
            )?;
            Ok(c.last_insert_rowid())
        })
    }

    pub(super) fn garage_try(&self, id: i64) -> Result<Option<Try>> {
        self.with(|c| c.query_row(&format!("{TRY_SELECT} WHERE id = ?1"), params![id], try_of).optional())
    }

    pub(super) fn garage_analysis(&self, try_id: i64) -> Result<Option<String>> {
        self.with(|c| {
            c.query_row("SELECT result FROM garage_analyses WHERE try_id = ?1", params![try_id], |r| r.get(0))
                .optional()
        })
    }

    pub(super) fn save_garage_analysis(&self, try_id: i64, result: &str) -> Result<()> {
        self.with(|c| {
            c.execute(
                "INSERT OR IGNORE INTO garage_analyses (try_id, result) VALUES (?1, ?2)",
                params![try_id, result],
            )
        })
        .map(drop)
    }

    pub(super) fn garage_tries_of(&self, user: i64, game: &str) -> Result<Vec<Try>> {
        self.with(|c| {
            let mut s =
                c.prepare(&format!("{TRY_SELECT} WHERE user = ?1 AND game = ?2 ORDER BY id DESC LIMIT 10"))?;
            let rows = s.query_map(params![user, game], try_of)?.collect();
            rows
        })
    }
}

#[cfg(feature = "postgres")]
pub(super) mod pg {
    //! The same in PostgreSQL (`PgStore` calls these with its client).

    use postgres::{Client, Row};

    use super::{Draft, NewTry, Try};

    pub(in crate::db) const SCHEMA: &str = r#"
CREATE TABLE IF NOT EXISTS garage_drafts (
    "user" BIGINT NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    lang TEXT NOT NULL,
    code TEXT NOT NULL,
    name TEXT NOT NULL DEFAULT '',
    updated BIGINT NOT NULL,
    PRIMARY KEY ("user", game)
);
CREATE TABLE IF NOT EXISTS garage_tries (
    id BIGSERIAL PRIMARY KEY,
    "user" BIGINT NOT NULL REFERENCES users(id),
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    lang TEXT NOT NULL,
    opponent TEXT NOT NULL,
    seat BIGINT NOT NULL,
    key TEXT NOT NULL,
    created BIGINT NOT NULL
);
CREATE INDEX IF NOT EXISTS garage_tries_user ON garage_tries("user", game);
CREATE TABLE IF NOT EXISTS garage_analyses (
    try_id BIGINT PRIMARY KEY REFERENCES garage_tries(id),
    result TEXT NOT NULL
);
"#;

    const DRAFT_SELECT: &str = r#"SELECT "user", game, lang, code, name, updated FROM garage_drafts"#;
    const TRY_SELECT: &str =
        r#"SELECT id, "user", game, variant, lang, opponent, seat, key, created FROM garage_tries"#;

    fn draft_of(r: &Row) -> Draft {
        Draft {
            user: r.get(0),
            game: r.get(1),
            lang: r.get(2),
            code: r.get(3),
            name: r.get(4),
            updated: r.get(5),
        }
    }

    fn try_of(r: &Row) -> Try {
        Try {
            id: r.get(0),
            user: r.get(1),
            game: r.get(2),
            variant: r.get(3),
            lang: r.get(4),
            opponent: r.get(5),
            seat: r.get(6),
            key: r.get(7),
            created: r.get(8),
        }
    }

    pub(in crate::db) fn draft(
        c: &mut Client,
        user: i64,
        game: &str,
    ) -> Result<Option<Draft>, postgres::Error> {
        Ok(c.query_opt(&format!(r#"{DRAFT_SELECT} WHERE "user" = $1 AND game = $2"#), &[&user, &game])?
            .as_ref()
            .map(draft_of))
    }

    pub(in crate::db) fn drafts_of(c: &mut Client, user: i64) -> Result<Vec<Draft>, postgres::Error> {
        Ok(c.query(&format!(r#"{DRAFT_SELECT} WHERE "user" = $1 ORDER BY game"#), &[&user])?
            .iter()
            .map(draft_of)
            .collect())
    }

    pub(in crate::db) fn save_draft(c: &mut Client, d: &Draft, now: i64) -> Result<(), postgres::Error> {
        c.execute(
            r#"INSERT INTO garage_drafts ("user", game, lang, code, name, updated) VALUES ($1, $2, $3, $4, $5, $6)
               ON CONFLICT ("user", game) DO UPDATE SET lang = $3, code = $4, name = $5, updated = $6"#,
            &[&d.user, &d.game, &d.lang, &d.code, &d.name, &now],
        )
        .map(drop)
    }

    pub(in crate::db) fn add_try(c: &mut Client, t: &NewTry<'_>, now: i64) -> Result<i64, postgres::Error> {
        let seat = t.seat as i64;
        Ok(c.query_one(
            r#"INSERT INTO garage_tries ("user", game, variant, lang, opponent, seat, key, created)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id"#,
            &[&t.user, &t.game, &t.variant, &t.lang, &t.opponent, &seat, &t.key, &now],
        )?
        .get(0))
    }

    pub(in crate::db) fn get_try(c: &mut Client, id: i64) -> Result<Option<Try>, postgres::Error> {
        Ok(c.query_opt(&format!("{TRY_SELECT} WHERE id = $1"), &[&id])?.as_ref().map(try_of))
    }

    pub(in crate::db) fn analysis(c: &mut Client, try_id: i64) -> Result<Option<String>, postgres::Error> {
        Ok(c.query_opt("SELECT result FROM garage_analyses WHERE try_id = $1", &[&try_id])?.map(|r| r.get(0)))
    }

    pub(in crate::db) fn save_analysis(
        c: &mut Client,
        try_id: i64,
        result: &str,
    ) -> Result<(), postgres::Error> {
        c.execute(
            "INSERT INTO garage_analyses (try_id, result) VALUES ($1, $2) ON CONFLICT (try_id) DO NOTHING",
            &[&try_id, &result],
        )
        .map(drop)
    }

    pub(in crate::db) fn tries_of(
        c: &mut Client,
        user: i64,
        game: &str,
    ) -> Result<Vec<Try>, postgres::Error> {
        Ok(c.query(
            &format!(r#"{TRY_SELECT} WHERE "user" = $1 AND game = $2 ORDER BY id DESC LIMIT 10"#),
            &[&user, &game],
        )?
        .iter()
        .map(try_of)
        .collect())
    }
}
