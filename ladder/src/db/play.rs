//! The tables of play in the browser (`crate::play`): a person's game against a bot, and each
//! decision put to them.

use rusqlite::{params, OptionalExtension};
use serde::Serialize;

use super::{now, DbError, SqliteStore};
use cardarena::replay::viewer::frames::CardSpan;

type Result<T> = std::result::Result<T, DbError>;

/// A person's game against a bot.
#[derive(Clone, Debug, Serialize)]
pub struct Game {
    /// Row id.
    pub id: i64,
    /// The person's user id.
    pub user: i64,
    /// The bot's version id.
    pub version: i64,
    /// Game and variant.
    pub game: String,
    /// Variant.
    pub variant: String,
    /// The person's seat.
    pub seat: i64,
    /// The deal seed.
    pub seed: String,
    /// The job's key.
    pub key: String,
    /// Seconds the bot waits for each move.
    pub move_seconds: i64,
    /// `queued` (no worker yet), `playing`, `resigned` (the worker has not seen it yet),
    /// `done`, `failed` (the worker could not play the job).
    pub state: String,
    /// Why it failed.
    pub error: Option<String>,
    /// The match summary, once done.
    pub summary: Option<String>,
}

impl Game {
    /// Whether the game is still on (queued, playing, or resigned but not yet seen so by
    /// the worker).
    pub fn live(&self) -> bool {
        matches!(self.state.as_str(), "queued" | "playing" | "resigned")
    }
}

/// A decision put to the person.
#[derive(Clone, Debug, Serialize)]
pub struct Turn {
    /// How many decisions of the person's seat came before it.
    pub n: i64,
    /// What the seat sees.
    pub view: String,
    /// The legal moves.
    pub legal: Vec<String>,
    /// The move made, if made.
    pub action: Option<String>,
    /// The seat's observation (JSON), as the bot would receive it.
    #[serde(skip)]
    pub observation: String,
    /// The seat's hand, as the replay viewer draws cards ([`Turn::draw`]).
    pub hand: Vec<CardSpan>,
    /// The legal moves as the viewer would draw them as cards.
    pub moves: Vec<CardSpan>,
}

/// A game to start ([`Store::start_play_game`]).
pub struct NewPlayGame<'a> {
    /// The person's user id.
    pub user: i64,
    /// The bot's version id.
    pub version: i64,
    /// Game.
    pub game: &'a str,
    /// Variant.
    pub variant: &'a str,
    /// The person's seat.
    pub seat: usize,
    /// The deal seed.
    pub seed: u64,
    /// The job's key.
    pub key: &'a str,
    /// Seconds the bot waits for each move.
    pub move_seconds: u64,
}

const GAME_SELECT: &str =
    "SELECT id, user, version, game, variant, seat, seed, key, move_seconds, state, error, summary FROM play_games";

fn game_of(r: &rusqlite::Row) -> rusqlite::Result<Game> {
    Ok(Game {
        id: r.get(0)?,
        user: r.get(1)?,
        version: r.get(2)?,
        game: r.get(3)?,
        variant: r.get(4)?,
        seat: r.get(5)?,
        seed: (r.get::<_, i64>(6)? as u64).to_string(),
        key: r.get(7)?,
        move_seconds: r.get(8)?,
        state: r.get(9)?,
        error: r.get(10)?,
        summary: r.get(11)?,
    })
}

fn turn_of(r: &rusqlite::Row) -> rusqlite::Result<Turn> {
    let legal: String = r.get(2)?;
    Ok(Turn {
        n: r.get(0)?,
        view: r.get(1)?,
        legal: serde_json::from_str(&legal).unwrap_or_default(),
        action: r.get(3)?,
        observation: r.get(4)?,
        hand: Vec::new(),
        moves: Vec::new(),
    })
}

impl SqliteStore {
    pub(super) fn play_game(&self, id: i64) -> Result<Option<Game>> {
        self.with(|c| c.query_row(&format!("{GAME_SELECT} WHERE id = ?1"), params![id], game_of).optional())
    }

    pub(super) fn play_game_by_key(&self, key: &str) -> Result<Option<Game>> {
        self.with(|c| c.query_row(&format!("{GAME_SELECT} WHERE key = ?1"), params![key], game_of).optional())
    }

    pub(super) fn play_games_of(&self, user: i64) -> Result<Vec<Game>> {
        self.with(|c| {
            let mut s = c.prepare(&format!("{GAME_SELECT} WHERE user = ?1 ORDER BY id DESC LIMIT 20"))?;
            let rows = s.query_map(params![user], game_of)?.collect();
            rows
        })
    }

    pub(super) fn last_play_turn(&self, id: i64) -> Result<Option<Turn>> {
        self.with(|c| {
            c.query_row(
                "SELECT n, view, legal, action, observation FROM play_turns WHERE game = ?1 ORDER BY n DESC LIMIT 1",
                params![id],
                turn_of,
            )
            .optional()
        })
    }

    pub(super) fn set_play_state(&self, id: i64, from: &[&str], to: &str) -> Result<bool> {
        self.with(|c| {
            let mut n = 0;
            for f in from {
                n += c.execute(
                    "UPDATE play_games SET state = ?1 WHERE id = ?2 AND state = ?3",
                    params![to, id, f],
                )?;
            }
            Ok(n > 0)
        })
    }

    pub(super) fn play_turn_answer(&self, game: i64, n: i64) -> Result<(Option<String>, String)> {
        self.with(|c| {
            let action: Option<String> = c
                .query_row(
                    "SELECT action FROM play_turns WHERE game = ?1 AND n = ?2",
                    params![game, n],
                    |r| r.get(0),
                )
                .optional()?
                .flatten();
            let state: String =
                c.query_row("SELECT state FROM play_games WHERE id = ?1", params![game], |r| r.get(0))?;
            Ok((action, state))
        })
    }

    pub(super) fn put_play_turn(
        &self,
        game: i64,
        n: i64,
        view: &str,
        observation: &str,
        legal: &str,
    ) -> Result<()> {
        self.with(|c| {
            c.execute(
                "INSERT OR IGNORE INTO play_turns (game, n, view, observation, legal) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![game, n, view, observation, legal],
            )?;
            c.execute("UPDATE play_games SET state = 'playing' WHERE id = ?1 AND state = 'queued'", params![game])
        })
        .map(drop)
    }

    pub(super) fn set_play_action(&self, game: i64, n: i64, action: &str) -> Result<bool> {
        self.with(|c| {
            c.execute(
                "UPDATE play_turns SET action = ?1 WHERE game = ?2 AND n = ?3 AND action IS NULL",
                params![action, game, n],
            )
        })
        .map(|n| n > 0)
    }

    pub(super) fn finish_play_game(&self, id: i64, summary: &str, replay: &[u8]) -> Result<()> {
        self.with(|c| {
            c.execute(
                "UPDATE play_games SET state = 'done', summary = ?1, replay = ?2 WHERE id = ?3",
                params![summary, replay, id],
            )
        })
        .map(drop)
    }

    pub(super) fn fail_play_game(&self, id: i64, error: &str) -> Result<()> {
        self.with(|c| {
            c.execute("UPDATE play_games SET state = 'failed', error = ?1 WHERE id = ?2", params![error, id])
        })
        .map(drop)
    }

    pub(super) fn start_play_game(&self, g: &NewPlayGame<'_>) -> Result<Option<i64>> {
        self.with(|c| {
            c.execute(
                "INSERT INTO play_games (user, version, game, variant, seat, seed, key, move_seconds, state, created)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'queued', ?9
                 WHERE NOT EXISTS (SELECT 1 FROM play_games WHERE user = ?1 AND state IN ('queued', 'playing', 'resigned'))",
                params![
                    g.user,
                    g.version,
                    g.game,
                    g.variant,
                    g.seat as i64,
                    g.seed as i64,
                    g.key,
                    g.move_seconds as i64,
                    now()
                ],
            )?;
            Ok((c.changes() > 0).then(|| c.last_insert_rowid()))
        })
    }

    pub(super) fn play_replay(&self, id: i64) -> Result<Option<Vec<u8>>> {
        self.with(|c| {
            c.query_row("SELECT replay FROM play_games WHERE id = ?1", params![id], |r| r.get(0)).optional()
        })
        .map(Option::flatten)
    }
}
