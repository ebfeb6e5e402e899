//! The match page's analyses: a signed-in visitor asks for the analysis of one seat of a match
//! ("Analyse seat N", `POST /matches/{id}/analyse`); the request is a row of the `analyses`
//! table (`db/analysis.rs`), one per match and seat, so a second request is answered from it
//! and an analysis is never computed twice. A worker process (`arena worker --group ladder`, as
//! `arena serve` starts them) computes it between its matches with `cardarena::analyse` from the
//! stored replay (deterministic: the seat's observations only, at `[analysis] budget`, by
//! default the game's) on one thread, and stores its JSON; the match page then draws it as the replay viewer's
//! analysis strip.
//!
//! Ladder matches go first: a worker takes an analysis when the queue has no match for it, and
//! a busy worker takes one only once it has waited [`PATIENCE`], at most a tenth of its time
//! ([`SHARE`]). No account has more than [`MAX_WAITING`] analyses waiting, and requests are
//! rate-limited per account (`[analysis] per_minute`, `rate.rs`).

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::response::Redirect;
use axum::routing::post;
use axum::{Form, Router};
use serde::{Deserialize, Serialize};

use super::app::Ladder;
use super::db::analysis::{AnalysisRow, ClaimedAnalysis};
use super::db::{now, replay_of, Db, DbError};
use super::error::AppError;
use super::extract::CurrentUser;
use cardarena::analyse::Analysis;
use cardarena::tournament::queue::worker::SideWork;

/// Analyses one account may have waiting at once.
pub const MAX_WAITING: i64 = 3;

/// How long a busy worker leaves a request to idle workers before it takes it itself.
pub const PATIENCE: Duration = Duration::from_secs(30);

/// A busy worker spends at most one part in `SHARE` of its time on analyses.
pub const SHARE: u32 = 10;

/// How long a worker's claim on an analysis lasts (an analysis takes a few seconds); a
/// worker that stops meanwhile leaves it to another once it expires.
const LEASE_SECONDS: i64 = 600;

/// Claims of one analysis before it fails for good.
const MAX_ATTEMPTS: i64 = 3;

/// The routes of this module.
pub fn routes() -> Router<Ladder> {
    Router::new().route("/matches/{id}/analyse", post(request))
}

#[derive(Deserialize)]
struct AnalyseForm {
    #[serde(default)]
    seat: String,
}

/// `POST /matches/{id}/analyse` (`seat`): queues the analysis of that seat (or finds it queued
/// or done) and shows the match page with it.
async fn request(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    Path(id): Path<i64>,
    Form(form): Form<AnalyseForm>,
) -> Result<Redirect, AppError> {
    let (m, _) = ladder.run(move |db| db.match_row(id)).await?.ok_or_else(|| AppError::not_found("match"))?;
    let (_, config, _) = ladder.parts();
    let game = config.games.get(&m.game).map_err(|e| AppError::unprocessable(e.to_string()))?;
    if !game.has_analysis() {
        return Err(AppError::unprocessable(unavailable(&m.game)));
    }
    let seat = seat_of(&form.seat, game.id().players()).map_err(AppError::unprocessable)?;
    let budget = config.analysis_budget;
    let row = ladder.run(move |db| db.request_analysis(id, seat as i64, me.id, budget, MAX_WAITING)).await?;
    if row.is_none() {
        return Err(AppError::new(
            axum::http::StatusCode::TOO_MANY_REQUESTS,
            format!("you have {MAX_WAITING} analyses waiting already; ask again once one of them is done"),
        ));
    }
    Ok(Redirect::to(&format!("/matches/{id}?analysis={seat}#analysis")))
}

/// Seat `text` of a match of `players` seats, or what is wrong with it.
pub fn seat_of(text: &str, players: usize) -> Result<usize, String> {
    if players == 0 {
        return Err("this match's game is not one of this ladder's".to_string());
    }
    text.trim()
        .parse::<usize>()
        .ok()
        .filter(|&s| s < players)
        .ok_or_else(|| format!("{text:?} is not a seat of this match: its seats are 0 to {}", players - 1))
}

/// Whether `game` is one of `games` and has an analysis.
pub fn available(games: &cardarena::Games, game: &str) -> bool {
    games.get(game).is_ok_and(cardarena::HostedGame::has_analysis)
}

/// What the match page says of a game without analysis.
pub fn unavailable(game: &str) -> String {
    format!("analysis is not available for {game} (the game does not implement it)")
}

/// One seat's line in the match page's analysis section.
#[derive(Serialize)]
pub struct SeatAnalysis {
    /// The seat.
    pub seat: usize,
    /// The bot's name in the replay.
    pub name: String,
    /// `queued`, `running`, `done`, `failed`, or none: not asked for.
    pub state: Option<String>,
    /// Why it failed.
    pub error: Option<String>,
}

/// The match page's analysis section.
#[derive(Serialize)]
pub struct AnalysisPart {
    /// Whether the game has an analysis.
    pub available: bool,
    /// Why not, when it has none.
    pub unavailable: String,
    /// Each seat's analysis as asked for.
    pub seats: Vec<SeatAnalysis>,
    /// The seat whose analysis the page shows (`?analysis=N`).
    pub shown: Option<usize>,
    /// Its state (`waiting`: queued or running).
    pub shown_state: Option<String>,
}

/// The analysis section of match `id` of `game` (seats named `names`), showing seat `shown`,
/// and that seat's analysis if done (for the viewer).
///
/// # Errors
/// Database errors.
pub fn part(
    db: &Db,
    games: &cardarena::Games,
    id: i64,
    game: &str,
    names: &[String],
    shown: Option<usize>,
) -> Result<(AnalysisPart, Option<Analysis>), DbError> {
    let available = available(games, game);
    let rows = if available { db.analyses_of(id)? } else { Vec::new() };
    let seats = names
        .iter()
        .enumerate()
        .map(|(seat, name)| {
            let row = rows.iter().find(|r| r.seat == seat as i64);
            SeatAnalysis {
                seat,
                name: name.clone(),
                state: row.map(|r| r.state.clone()),
                error: row.and_then(|r| r.error.clone()),
            }
        })
        .collect();
    let mut analysis = None;
    let mut shown_state = None;
    if let Some(seat) = shown.filter(|_| available) {
        if let Some(row) = db.analysis(id, seat as i64)? {
            shown_state = Some(if row.waiting() { "waiting".to_string() } else { row.state.clone() });
            analysis = read(&row);
            if row.state == "done" && analysis.is_none() {
                shown_state = Some("damaged".to_string());
            }
        }
    }
    let part = AnalysisPart { available, unavailable: unavailable(game), seats, shown, shown_state };
    Ok((part, analysis))
}

/// Computes one claimed analysis and stores it (or why it failed).
///
/// # Errors
/// Database errors (the analysis stays claimed; another worker takes it once the claim expires).
fn compute(db: &Db, games: &cardarena::Games, c: ClaimedAnalysis) -> Result<(), DbError> {
    let outcome = match db.match_row(c.match_id)? {
        Some((_, blob)) => analysis_json(&blob, games, c.match_id, c.seat, c.budget),
        None => Err(format!("no match {} in the ladder", c.match_id)),
    };
    db.finish_analysis(c.match_id, c.seat, outcome.as_deref().map_err(String::as_str))
}

/// The JSON of the analysis of `seat` in match `id` (its stored replay `blob`), or why it
/// cannot be made.
fn analysis_json(
    blob: &[u8],
    games: &cardarena::Games,
    id: i64,
    seat: i64,
    budget: Option<u32>,
) -> Result<String, String> {
    let replay = replay_of(blob).ok_or_else(|| format!("match {id}: the stored replay is damaged"))?;
    let seat = usize::try_from(seat).map_err(|_| format!("seat {seat} is not a seat"))?;
    analyse(&replay, games, &format!("match-{id}.json"), seat, budget)
}

/// The JSON of the analysis of `seat` in `replay` (saved as `name`), on one thread, at
/// `budget` samples per decision, or why it cannot be made (never a panic of the caller: an
/// analysis that panics is a failed analysis). The garage analyses its tries with it too.
pub fn analyse(
    replay: &cardarena::play::runner::Replay,
    games: &cardarena::Games,
    name: &str,
    seat: usize,
    budget: Option<u32>,
) -> Result<String, String> {
    let game = games.get(&replay.game).map_err(|e| e.to_string())?;
    let run = || {
        cardarena::analyse::on_one_thread(|| game.analyse(replay, name, seat, budget))
            .and_then(|a| a)
            .map(|a| a.to_json())
            .map_err(|e| e.chain())
    };
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(run))
        .unwrap_or_else(|_| Err("the analysis failed (a bug of the arena)".to_string()))
}

/// Takes and computes the oldest analysis asked for at or before `asked_before` (seconds since
/// 1970), as worker `worker`. Returns whether there was one.
///
/// # Errors
/// Database errors.
pub fn run_one(db: &Db, games: &cardarena::Games, worker: &str, asked_before: i64) -> Result<bool, DbError> {
    let Some(claimed) = db.claim_analysis(worker, LEASE_SECONDS, asked_before, MAX_ATTEMPTS)? else {
        return Ok(false);
    };
    compute(db, games, claimed)?;
    Ok(true)
}

/// The analyses as a queue worker's side work (`WorkerOptions::side_work`) on the ladder's
/// database: an idle worker takes any waiting analysis; a busy one only one that has waited
/// [`PATIENCE`], and then not again before it has played matches for `SHARE - 1` times as
/// long as that analysis took.
pub fn side_work(db: Arc<Db>, games: cardarena::Games, worker: &str) -> SideWork {
    let worker = worker.to_string();
    let busy_again: Mutex<Option<Instant>> = Mutex::new(None);
    // (Locked only to read and set: the worker's other threads go on while one analyses.)
    fn next(m: &Mutex<Option<Instant>>) -> std::sync::MutexGuard<'_, Option<Instant>> {
        m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
    SideWork(Arc::new(move |idle: bool| {
        if !idle && next(&busy_again).is_some_and(|t| Instant::now() < t) {
            return false;
        }
        let asked_before = if idle { now() } else { now() - PATIENCE.as_secs() as i64 };
        let started = Instant::now();
        match run_one(&*db, &games, &worker, asked_before) {
            Ok(true) => {
                *next(&busy_again) = Some(Instant::now() + started.elapsed() * (SHARE - 1));
                true
            }
            Ok(false) => false,
            Err(e) => {
                eprintln!("worker {worker}: the ladder's analyses: {e}");
                false
            }
        }
    }))
}

/// A stored analysis read back (`None`: not done, or damaged).
fn read(row: &AnalysisRow) -> Option<Analysis> {
    parse(row.result.as_deref()?)
}

/// An analysis' stored JSON read back (`None`: damaged).
pub fn parse(json: &str) -> Option<Analysis> {
    serde_json::from_str(json).ok()
}
