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
use serde::{Deserialize, Serialize};

use super::app::{ser, Ladder};
use super::db::class::Frozen;
pub use super::db::class::{Entry, Event, NewEvent};
use super::db::Version;
use super::error::AppError;
use super::extract::{Admin, Page};
use super::jobs::{label, JobError, GROUP};
use super::time::{parse_utc, utc_text};
use cardarena::bots::bot::{builtin_hash, is_builtin_name, BUILTIN_BOTS};
use cardarena::play::games::GameId;
use cardarena::play::runner::BotEntry;
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

/// What the grade of `event` with `graded` frozen bots plays.
fn setup(event: &Event, game: GameId) -> GradeSetup {
    GradeSetup {
        game,
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

fn game_of(config: &crate::LadderConfig, event: &Event) -> Result<GameId, JobError> {
    config
        .game(&event.game)
        .map_err(|e: cardarena::play::games::UnknownGame| JobError::Missing(e.to_string()))
}

/// Freezes `event` and queues its matches (or ends it with fewer than two bots). `false`
/// while uploads of before the deadline are still being validated.
fn freeze(ladder: &Ladder, event: &Event) -> Result<bool, JobError> {
    let (db, config, jobs) = ladder.parts();
    let game = game_of(config, event)?;
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
        let (seat, _, bytes) = jobs.seat(&**db, v.id)?;
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
    let (db, config, jobs) = ladder.parts();
    let game = game_of(config, event)?;
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

// ---- pages -----------------------------------------------------------------------------------

/// `GET /class`: every event.
pub async fn list(State(ladder): State<Ladder>, page: Page) -> Result<Html<String>, AppError> {
    let events = ladder.run(|db| db.class_events()).await?;
    ladder.render(&page, "class_list.html", ser(&Events { events }))
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
    let view = AdminPage { events, boards, message, max_deals: MAX_DEALS, builtins: BUILTIN_BOTS.join(", ") };
    let html = ladder.render(page, "class_admin.html", ser(&view))?;
    Ok((status, html).into_response())
}

/// The list of events (`class_list.html`).
#[derive(Serialize)]
struct Events {
    events: Vec<Event>,
}

/// The admin's events and the form that creates one (`class_admin.html`).
#[derive(Serialize)]
struct AdminPage {
    events: Vec<Event>,
    /// `game variant` of each board.
    boards: Vec<String>,
    /// Why the form was refused.
    message: Option<String>,
    max_deals: u32,
    /// The built-in bots, as text.
    builtins: String,
}

/// An event's page (`class_event.html`).
#[derive(Serialize)]
struct EventPage {
    event: Event,
    entries: Vec<Entry>,
    rows: Vec<ResultRow>,
    /// The grade's table, as `arena grade` prints it.
    report: Option<String>,
    /// Its matches.
    total: usize,
}

/// `GET /admin/class`: the admin's events and the form that creates one.
pub async fn admin_page(State(ladder): State<Ladder>, _: Admin, page: Page) -> Result<Response, AppError> {
    admin_with(&ladder, &page, None, StatusCode::OK).await
}

/// The event form.
#[derive(Deserialize)]
pub struct EventForm {
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
    let board = ladder
        .parts()
        .1
        .game(game)
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
        let plays = is_builtin_name(r) && board.game.has_builtin(r);
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
    Ok(NewEvent {
        name,
        game: board.game.name().to_string(),
        variant: board.variant.clone(),
        deals,
        against,
        deadline,
    })
}

/// `POST /admin/class`: creates an event.
pub async fn create(
    State(ladder): State<Ladder>,
    Admin(me): Admin,
    page: Page,
    Form(form): Form<EventForm>,
) -> Result<Response, AppError> {
    let event = match check_event(&ladder, &form, super::db::now()) {
        Ok(e) => e,
        Err(message) => {
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
    page: Page,
    Path(id): Path<i64>,
) -> Result<Html<String>, AppError> {
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
    ladder.render(&page, "class_event.html", ser(&EventPage { event, entries, rows, report, total }))
}

/// `GET /class/{id}/grades.csv`: the grades, in `arena grade`'s CSV columns.
pub async fn csv(State(ladder): State<Ladder>, Path(id): Path<i64>) -> Result<Response, AppError> {
    let (event, results) = ladder.run(move |db| Ok((db.class_event(id)?, db.class_results(id)?))).await?;
    let event = event.ok_or_else(|| AppError::not_found("class event"))?;
    let Some((csv, _, _)) = results else {
        return Err(AppError::conflict(format!(
            "the event {:?} is {}: its grades are not ready",
            event.name, event.state
        )));
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
