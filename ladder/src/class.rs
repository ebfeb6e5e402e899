//! Class mode: an admin creates an event (game, variant, deals, reference bots, a submission
//! deadline); players upload as usual until the deadline; at the deadline the server's tick
//! freezes the newest ready version of every bot of the game uploaded before it (version ids
//! and content hashes are recorded) and queues the grade's matches, against the reference bots
//! and a round robin of the frozen bots on the same duplicate deals, as jobs on the ladder's
//! queue, played by the worker processes. When every job is in, the event is graded by
//! [`cardarena::tournament::grade`], the computation `arena grade` uses: the results page shows
//! its table and the CSV download has exactly `arena grade`'s columns.
//!
//! The deadline is wall time (checked by the tick); the matches are deterministic: the deal
//! seed is derived from the ladder's seed and the event's id. The event's state lives in the
//! database and its jobs in the queue, so a restarted server carries on where it stopped.

use std::collections::BTreeMap;

use axum::extract::{Path, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::Form;
use minijinja::context;
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use tower_sessions::Session;

use super::db::{BotRow, Db, DbError, Version};
use super::jobs::{label, JobError, GROUP};
use super::server::{check_csrf, page, require_admin, ser, AppError, Ladder, Page};
use cardarena::bots::bot::{builtin_hash, is_builtin_name, BUILTIN_BOTS};
use cardarena::games::rng::derive_seed;
use cardarena::play::games::GameId;
use cardarena::play::runner::BotEntry;
use cardarena::play::with_game;
use cardarena::tournament::grade::{self, grade_csv, grade_table, GradeRow, GradeSetup, Played};
use cardarena::tournament::queue::{JobSpec, NewJob, SeatSpec};

/// The routes of class mode.
pub fn routes() -> axum::Router<Ladder> {
    axum::Router::new()
        .route("/admin/class", axum::routing::get(admin_page).post(create))
        .route("/class", axum::routing::get(list))
        .route("/class/{id}", axum::routing::get(event_page))
        .route("/class/{id}/grades.csv", axum::routing::get(csv))
}

/// The most deals an event may ask for (every deal is a match per seat rotation, per pairing).
pub const MAX_DEALS: u32 = 1000;

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
    /// The game.
    pub game: GameId,
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

/// A row of the results page.
#[derive(Clone, Debug, Serialize, Deserialize)]
struct ResultRow {
    file: String,
    owner: String,
    hash: String,
    matches: u64,
    points: String,
    wdl: String,
    score: String,
    rating: String,
    faults: String,
    rr_wdl: String,
    rr_score: String,
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
enum Frozen {
    /// Versions uploaded before the deadline are still being validated: wait for them.
    Validating(usize),
    /// The newest ready version of every bot, uploaded before the deadline.
    Ready(Vec<(BotRow, Version)>),
}

impl Db {
    /// Creates an event; its seed is derived from `ladder_seed` and its id.
    ///
    /// # Errors
    /// Database errors.
    pub fn create_class_event(&self, event: &NewEvent, by: i64, ladder_seed: u64) -> Result<i64, DbError> {
        let mut conn = self.conn();
        let run = |c: &mut rusqlite::Connection| -> rusqlite::Result<i64> {
            let tx = c.transaction_with_behavior(rusqlite::TransactionBehavior::Immediate)?;
            tx.execute(
                "INSERT INTO class_events (name, game, variant, deals, against, deadline, created_by, created)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
                params![
                    event.name,
                    event.game.name(),
                    event.variant,
                    event.deals,
                    event.against.join(","),
                    event.deadline,
                    by,
                    super::db::now()
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

    /// Every event, newest first.
    ///
    /// # Errors
    /// Database errors.
    pub fn class_events(&self) -> Result<Vec<Event>, DbError> {
        self.with(|c| {
            let mut s = c.prepare(&format!("{EVENT_SELECT} ORDER BY id DESC"))?;
            let rows = s.query_map([], event_of)?.collect();
            rows
        })
    }

    /// An event by id.
    ///
    /// # Errors
    /// Database errors.
    pub fn class_event(&self, id: i64) -> Result<Option<Event>, DbError> {
        self.with(|c| c.query_row(&format!("{EVENT_SELECT} WHERE id = ?1"), params![id], event_of).optional())
    }

    /// An event's frozen entrants, in the grade's order.
    ///
    /// # Errors
    /// Database errors.
    pub fn class_entries(&self, event: i64) -> Result<Vec<Entry>, DbError> {
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

    /// The queue keys of an event's matches, in plan order.
    ///
    /// # Errors
    /// Database errors.
    pub fn class_match_keys(&self, event: i64) -> Result<Vec<String>, DbError> {
        self.with(|c| {
            let mut s = c.prepare("SELECT key FROM class_matches WHERE event = ?1 ORDER BY position")?;
            let rows = s.query_map(params![event], |r| r.get(0))?.collect();
            rows
        })
    }

    /// The bots of `game` as they stood at `deadline`: the newest ready version of every
    /// enabled bot of an enabled owner among the versions uploaded by then; or, while a version
    /// uploaded by then is still being validated, how many are.
    fn frozen_at(&self, game: &str, deadline: i64) -> Result<Frozen, DbError> {
        let validating: i64 = self.with(|c| {
            c.query_row(
                "SELECT COUNT(*) FROM versions v JOIN bots b ON b.id = v.bot
                 WHERE b.game = ?1 AND v.created <= ?2 AND v.state = 'pending'",
                params![game, deadline],
                |r| r.get(0),
            )
        })?;
        if validating > 0 {
            return Ok(Frozen::Validating(validating as usize));
        }
        let mut out = Vec::new();
        for bot in self.bots()?.into_iter().filter(|b| b.game == game && !b.disabled) {
            if self.user(bot.owner)?.is_none_or(|u| u.disabled) {
                continue;
            }
            let newest =
                self.versions(bot.id)?.into_iter().find(|v| v.created <= deadline && v.state == "ready");
            if let Some(v) = newest {
                out.push((bot, v));
            }
        }
        Ok(Frozen::Ready(out))
    }

    /// Records an event's frozen entrants and its queued matches: it is running.
    fn freeze_class_event(
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

    fn set_class_state(&self, event: i64, state: &str, message: &str) -> Result<(), DbError> {
        self.with(|c| {
            c.execute(
                "UPDATE class_events SET state = ?1, message = ?2 WHERE id = ?3",
                params![state, message, event],
            )
        })
        .map(drop)
    }

    fn set_class_done(&self, event: i64, done: usize) -> Result<(), DbError> {
        self.with(|c| {
            c.execute("UPDATE class_events SET done = ?1 WHERE id = ?2", params![done as i64, event])
        })
        .map(drop)
    }

    fn finish_class_event(
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

    /// A graded event's CSV, table (as `arena grade` prints it) and results rows (JSON).
    ///
    /// # Errors
    /// Database errors.
    pub fn class_results(&self, event: i64) -> Result<Option<(String, String, String)>, DbError> {
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

/// What the grade of `event` with `graded` frozen bots plays.
fn setup(event: &Event, game: GameId) -> GradeSetup {
    GradeSetup {
        game: game.name().to_string(),
        variant: event.variant.clone(),
        players: game.players(),
        against: event.against.clone(),
        deals: event.deals,
        seed: event.seed,
        round_robin: true,
    }
}

/// The server's class-mode tick: freezes every open event whose deadline (`now`, seconds since
/// 1970) has passed and queues its matches; grades every running event whose matches are all
/// in. Returns how many events changed state.
///
/// # Errors
/// The database or the queue failed (a bot's failure is a verdict in its matches).
pub fn tick(ladder: &Ladder, now: i64) -> Result<usize, JobError> {
    let (db, _, _) = ladder.parts();
    let mut changed = 0;
    for event in db.class_events()? {
        match event.state.as_str() {
            "open" if event.deadline <= now => changed += usize::from(freeze(ladder, &event)?),
            "running" => changed += usize::from(collect(ladder, &event)?),
            _ => {}
        }
    }
    Ok(changed)
}

fn game_of(event: &Event) -> Result<GameId, JobError> {
    event.game.parse().map_err(|e: cardarena::play::games::UnknownGame| JobError::Missing(e.to_string()))
}

/// Freezes `event` and queues its matches (or ends it with fewer than two bots). `false`
/// while uploads of before the deadline are still being validated.
fn freeze(ladder: &Ladder, event: &Event) -> Result<bool, JobError> {
    let (db, config, jobs) = ladder.parts();
    let game = game_of(event)?;
    let bots = match db.frozen_at(&event.game, event.deadline)? {
        Frozen::Validating(n) => {
            let message =
                format!("the deadline has passed; waiting for {n} upload(s) of before it to be validated");
            if event.message != message {
                db.set_class_state(event.id, "open", &message)?;
            }
            return Ok(false);
        }
        Frozen::Ready(bots) => bots,
    };
    if bots.len() < 2 {
        let message = format!(
            "only {} bot(s) of {} had a ready version at the deadline; a class event needs at least 2, so nothing was played",
            bots.len(),
            event.game
        );
        db.set_class_state(event.id, "ended", &message)?;
        return Ok(true);
    }
    // The grade's order: by file name, as `arena grade` reads a folder.
    let mut seats: Vec<(String, SeatSpec, Vec<u8>, Version)> = Vec::new();
    for (bot, v) in bots {
        let (seat, _, bytes) = jobs.seat(db, v.id)?;
        seats.push((label(&bot.name, &v), seat, bytes, v));
    }
    seats.sort_by(|a, b| a.0.cmp(&b.0));
    let setup = setup(event, game);
    let (plans, _) = setup.plans(seats.len());
    let specs: Vec<SeatSpec> =
        seats.iter().map(|s| s.1.clone()).chain(event.against.iter().map(|r| SeatSpec::builtin(r))).collect();
    let new: Vec<NewJob> = plans
        .iter()
        .map(|p| {
            NewJob::new(
                GROUP,
                JobSpec {
                    game: game.name().to_string(),
                    variant: event.variant.clone(),
                    seed: p.seed,
                    seats: p.seats.iter().map(|&e| specs[e].clone()).collect(),
                    limits: config.limits.clone(),
                },
            )
        })
        .collect();
    let keys: Vec<String> = new.iter().map(|j| j.key.clone()).collect();
    {
        let mut q = jobs.queue();
        q.put_bots(&seats.iter().map(|s| (s.1.hash.clone(), s.2.clone())).collect::<Vec<_>>())?;
        q.enqueue(&new)?;
    }
    let entries: Vec<(i64, String, String)> =
        seats.iter().map(|s| (s.3.id, s.0.clone(), s.3.hash.clone())).collect();
    db.freeze_class_event(event.id, &entries, &keys)?;
    Ok(true)
}

/// Grades `event` once every match is in; `false` while some are still to play.
fn collect(ladder: &Ladder, event: &Event) -> Result<bool, JobError> {
    let (db, _, jobs) = ladder.parts();
    let game = game_of(event)?;
    let keys = db.class_match_keys(event.id)?;
    let entries = db.class_entries(event.id)?;
    let mut q = jobs.queue();
    let results = q.results(&keys)?;
    if results.len() < keys.len() {
        let states = q.states(&keys)?;
        if let Some((key, (_, error))) = states.iter().find(|(_, (s, _))| s == "failed") {
            let message = format!(
                "a match could not be played by the workers (job {}): {}; nothing was graded",
                &key[..12],
                error.clone().unwrap_or_default()
            );
            db.set_class_state(event.id, "ended", &message)?;
            return Ok(true);
        }
        if results.len() as i64 != event.done {
            db.set_class_done(event.id, results.len())?;
        }
        return Ok(false);
    }
    let setup = setup(event, game);
    let (plans, against_refs) = setup.plans(entries.len());
    if plans.len() != keys.len() {
        return Err(JobError::Missing(format!(
            "class event {}: {} matches queued but {} planned",
            event.id,
            keys.len(),
            plans.len()
        )));
    }
    let mut played = Vec::with_capacity(plans.len());
    for (plan, key) in plans.iter().zip(&keys) {
        let blob = q.replay(key)?.ok_or_else(|| JobError::Missing(format!("no replay of job {key}")))?;
        let replay = cardarena::tournament::store::unpack(&blob)
            .map_err(|e| e.to_string())
            .and_then(|text| serde_json::from_str::<cardarena::Replay>(&text).map_err(|e| e.to_string()))
            .map_err(|e| JobError::Missing(format!("the replay of job {key} cannot be read: {e}")))?;
        played.push(Played::of(plan, &replay, Vec::new(), Vec::new()));
    }
    drop(q);
    let rows: Vec<GradeRow> =
        entries.iter().map(|e| GradeRow::new(e.file.clone(), e.hash.clone(), None)).collect();
    let row_entrant: Vec<Option<usize>> = (0..entries.len()).map(Some).collect();
    let bot_entries: Vec<BotEntry> = entries
        .iter()
        .map(|e| BotEntry { name: e.file.clone(), hash: e.hash.clone() })
        .chain(event.against.iter().map(|r| BotEntry { name: r.clone(), hash: builtin_hash(r) }))
        .collect();
    let grades = grade::grade(&setup, rows, &row_entrant, &bot_entries, &played, against_refs, "");
    let csv = grade_csv(&grades.rows, &event.against, true);
    let report = grade_table(&setup, &event.name, &grades);
    let owners: BTreeMap<&String, &String> = entries.iter().map(|e| (&e.file, &e.owner)).collect();
    let shown: Vec<ResultRow> = grades
        .rows
        .iter()
        .map(|r| {
            let s = &r.stats;
            let (score, lo, hi) = s.score();
            let (rating, rlo, rhi) = r.rating.unwrap_or((0.0, 0.0, 0.0));
            let (rs, rslo, rshi) = r.rr.score();
            ResultRow {
                file: r.file.clone(),
                owner: owners.get(&r.file).map_or_else(String::new, |o| o.to_string()),
                hash: r.hash[..12].to_string(),
                matches: s.matches,
                points: format!("{:.1}", s.points),
                wdl: format!("{}-{}-{}", s.wins, s.draws, s.losses),
                score: format!("{score:.3} ({lo:.3}–{hi:.3})"),
                rating: format!("{rating:.0} ({rlo:.0}–{rhi:.0})"),
                faults: grade::faults_text(s),
                rr_wdl: format!("{}-{}-{}", r.rr.wins, r.rr.draws, r.rr.losses),
                rr_score: format!("{rs:.3} ({rslo:.3}–{rshi:.3})"),
            }
        })
        .collect();
    let shown = serde_json::to_string(&shown).expect("rows serialize");
    db.finish_class_event(event.id, &csv, &report, &shown, keys.len())?;
    Ok(true)
}

// ---- time ------------------------------------------------------------------------------------

/// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// The date of a day since 1970-01-01 (`civil_from_days`).
pub(super) fn civil_from_days(z: i64) -> (i64, i64, i64) {
    let z = z + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    (yoe + era * 400 + i64::from(m <= 2), m, d)
}

/// Seconds since 1970 of `YYYY-MM-DDTHH:MM` (an HTML `datetime-local` value; a space instead
/// of the `T` and `:SS` are accepted), read as UTC.
fn parse_utc(text: &str) -> Option<i64> {
    let text = text.trim();
    let (date, time) = text.split_once(['T', ' '])?;
    let mut d = date.split('-').map(|p| p.parse::<i64>().ok());
    let (y, mo, da) = (d.next()??, d.next()??, d.next()??);
    let mut t = time.split(':').map(|p| p.parse::<i64>().ok());
    let (h, mi) = (t.next()??, t.next()??);
    let s = t.next().unwrap_or(Some(0))?;
    if d.next().is_some() || t.next().is_some() {
        return None;
    }
    let days_in = [
        31,
        if (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 { 29 } else { 28 },
        31,
        30,
        31,
        30,
        31,
        31,
        30,
        31,
        30,
        31,
    ];
    let valid = (1970..=9999).contains(&y)
        && (1..=12).contains(&mo)
        && (1..=days_in[(mo - 1) as usize]).contains(&da)
        && (0..24).contains(&h)
        && (0..60).contains(&mi)
        && (0..60).contains(&s);
    valid.then(|| days_from_civil(y, mo, da) * 86_400 + h * 3600 + mi * 60 + s)
}

/// `YYYY-MM-DD HH:MM UTC`.
fn utc_text(t: i64) -> String {
    let (y, m, d) = civil_from_days(t.div_euclid(86_400));
    let s = t.rem_euclid(86_400);
    format!("{y:04}-{m:02}-{d:02} {:02}:{:02} UTC", s / 3600, (s % 3600) / 60)
}

// ---- pages -----------------------------------------------------------------------------------

/// `GET /class`: every event.
pub async fn list(State(ladder): State<Ladder>, session: Session) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    let events = ladder.run(|db| db.class_events()).await?;
    ladder.render(&page, "class_list.html", context! { events => ser(&events) })
}

async fn admin_with(
    ladder: &Ladder,
    page: &Page,
    message: Option<String>,
    status: StatusCode,
) -> Result<Response, AppError> {
    let events = ladder.run(|db| db.class_events()).await?;
    let boards: Vec<String> =
        ladder.parts().1.boards.iter().map(|b| format!("{} {}", b.game.name(), b.variant)).collect();
    let html = ladder.render(
        page,
        "class_admin.html",
        context! { events => ser(&events), boards, message, max_deals => MAX_DEALS, builtins => BUILTIN_BOTS.join(", ") },
    )?;
    Ok((status, html).into_response())
}

/// `GET /admin/class`: the admin's events and the form that creates one.
pub async fn admin_page(State(ladder): State<Ladder>, session: Session) -> Result<Response, AppError> {
    let me = require_admin(&ladder, &session).await?;
    let page = Page { me: Some(me), csrf: page(&ladder, &session).await?.csrf };
    admin_with(&ladder, &page, None, StatusCode::OK).await
}

/// The event form.
#[derive(Deserialize)]
pub struct EventForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    name: String,
    /// `game variant`, one of the ladder's boards.
    #[serde(default)]
    board: String,
    #[serde(default)]
    deals: String,
    #[serde(default)]
    against: String,
    /// `YYYY-MM-DDTHH:MM`, UTC.
    #[serde(default)]
    deadline: String,
}

/// What is wrong with an event form, or the event it asks for.
fn check_event(ladder: &Ladder, form: &EventForm, now: i64) -> Result<NewEvent, String> {
    let name: String = form.name.trim().to_string();
    if name.is_empty() || name.chars().count() > 80 || name.chars().any(char::is_control) {
        return Err("name the event (1 to 80 characters, no control characters)".into());
    }
    let (game, variant) = form.board.trim().split_once(' ').ok_or("choose one of the ladder's boards")?;
    let board = game
        .parse::<GameId>()
        .ok()
        .and_then(|g| ladder.parts().1.boards_of(g).find(|b| b.variant == variant))
        .ok_or_else(|| format!("{:?} is not a board of this ladder; choose one of the list", form.board))?;
    let deals: u32 =
        form.deals.trim().parse().ok().filter(|d| (1..=MAX_DEALS).contains(d)).ok_or_else(|| {
            format!("deals must be a whole number from 1 to {MAX_DEALS}, not {:?}", form.deals)
        })?;
    let against: Vec<String> =
        form.against.split(',').map(str::trim).filter(|s| !s.is_empty()).map(str::to_string).collect();
    if against.is_empty() {
        return Err(format!("name at least one reference bot (built-ins: {})", BUILTIN_BOTS.join(", ")));
    }
    for r in &against {
        let plays = is_builtin_name(r)
            && with_game!(board.game, G => cardarena::bots::bot::builtin::<G>(r, 0, 0).is_ok());
        if !plays {
            return Err(format!(
                "{r:?} is not a built-in bot of {} (built-ins: {})",
                board.game.name(),
                BUILTIN_BOTS.join(", ")
            ));
        }
    }
    let deadline = parse_utc(&form.deadline).ok_or_else(|| {
        format!("the deadline must be a date and time like 2026-12-01T17:00 (UTC), not {:?}", form.deadline)
    })?;
    if deadline <= now {
        return Err(format!("the deadline {} has passed already; choose a later one", utc_text(deadline)));
    }
    Ok(NewEvent { name, game: board.game, variant: board.variant.clone(), deals, against, deadline })
}

/// `POST /admin/class`: creates an event.
pub async fn create(
    State(ladder): State<Ladder>,
    session: Session,
    Form(form): Form<EventForm>,
) -> Result<Response, AppError> {
    check_csrf(&session, &form.csrf).await?;
    let me = require_admin(&ladder, &session).await?;
    let event = match check_event(&ladder, &form, super::db::now()) {
        Ok(e) => e,
        Err(message) => {
            let page = Page { me: Some(me), csrf: form.csrf.clone() };
            return admin_with(&ladder, &page, Some(message), StatusCode::UNPROCESSABLE_ENTITY).await;
        }
    };
    let seed = ladder.parts().1.seed;
    let id = ladder.run(move |db| db.create_class_event(&event, me.id, seed)).await?;
    Ok(Redirect::to(&format!("/class/{id}")).into_response())
}

/// `GET /class/{id}`: an event: its state, the frozen bots, the results.
pub async fn event_page(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    let (event, entries, results, total) = ladder
        .run(move |db| {
            let event = db.class_event(id)?;
            let entries = db.class_entries(id)?;
            let results = db.class_results(id)?;
            let total = db.class_match_keys(id)?.len();
            Ok((event, entries, results, total))
        })
        .await?;
    let event = event.ok_or_else(|| AppError::not_found("class event"))?;
    let (report, rows) = match results {
        Some((_, report, rows)) => {
            (Some(report), serde_json::from_str::<Vec<ResultRow>>(&rows).unwrap_or_default())
        }
        None => (None, Vec::new()),
    };
    ladder.render(
        &page,
        "class_event.html",
        context! { event => ser(&event), entries => ser(&entries), rows => ser(&rows), report, total },
    )
}

/// `GET /class/{id}/grades.csv`: the grades, in `arena grade`'s CSV columns.
pub async fn csv(State(ladder): State<Ladder>, Path(id): Path<i64>) -> Result<Response, AppError> {
    let (event, results) = ladder.run(move |db| Ok((db.class_event(id)?, db.class_results(id)?))).await?;
    let event = event.ok_or_else(|| AppError::not_found("class event"))?;
    let Some((csv, _, _)) = results else {
        return Err(AppError::new(
            StatusCode::CONFLICT,
            format!("the event {:?} is {}: its grades are not ready", event.name, event.state),
        ));
    };
    let disposition = format!("attachment; filename=\"class-{id}-grades.csv\"");
    Ok((
        [
            (header::CONTENT_TYPE, "text/csv; charset=utf-8".to_string()),
            (header::CONTENT_DISPOSITION, disposition),
        ],
        csv,
    )
        .into_response())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn deadlines_read_as_utc_and_print_back() {
        assert_eq!(parse_utc("1970-01-01T00:00"), Some(0));
        assert_eq!(parse_utc("2026-11-27T09:30"), Some(1_795_771_800));
        assert_eq!(parse_utc("2024-02-29 23:59:59"), Some(1_709_251_199));
        assert_eq!(utc_text(1_795_771_800), "2026-11-27 09:30 UTC");
        for bad in ["", "2026-11-27", "2026-13-01T00:00", "2025-02-29T00:00", "2026-11-27T24:00", "x-y-zT1:2"]
        {
            assert_eq!(parse_utc(bad), None, "{bad}");
        }
    }
}
