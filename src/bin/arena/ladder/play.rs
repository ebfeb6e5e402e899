//! Play in the browser: a signed-in person plays a match against a ready bot of a board.
//!
//! The match is one job on the ladder's queue (group `ladder`) with the person's seat named
//! `human:<user>` (`cardarena::play::person`). A worker process claims it and plays it through
//! the library's `Match` like any other; the person's seat is a [`WebPerson`]: at each of its
//! decisions it writes what the seat sees (`View::render_observation`, the viewer's seat frame)
//! and the legal moves to `play_turns`, then waits for the person's move in that row (the
//! worker's heartbeat keeps the job's lease meanwhile). A person who makes no move for
//! `[play] move_seconds`, or resigns, forfeits: the seat's decision faults with the verdict
//! `invalid` ("the player left ..." / "the player resigned"), as when a person leaves
//! `arena play`. The page shows the open decision, posts the move (buttons, or keys 1-9) and
//! polls `/play/{id}/state`; once the job is done the result is taken in and the page becomes
//! the match page (the replay viewer, the replay, the command that verifies it).
//!
//! Games against people are kept off the leaderboards (docs/ladder.md, "Play in the browser").

use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use minijinja::{context, Value};
use rusqlite::{params, OptionalExtension};
use serde::{Deserialize, Serialize};
use tower_sessions::Session;

use super::db::{now, secret, Db, DbError};
use super::jobs::{Jobs, GROUP};
use super::server::{check_csrf, page, require_user, ser, AppError, Ladder};
use cardarena::bots::bot::{Fault, Verdict};
use cardarena::play::games::GameId;
use cardarena::play::person::{Person, Prompt};
use cardarena::replay::viewer::frames::{live_cards, CardSpan};
use cardarena::tournament::queue::worker::People;
use cardarena::tournament::queue::{JobSpec, NewJob, SeatSpec};
use cardarena::tournament::MatchSummary;

/// The routes of this module.
pub fn routes() -> Router<Ladder> {
    Router::new()
        .route("/play", get(play_page).post(start))
        .route("/play/{id}", get(game_page))
        .route("/play/{id}/state", get(state))
        .route("/play/{id}/move", post(make_move))
        .route("/play/{id}/resign", post(resign))
        .route("/play/{id}/replay.json", get(replay_json))
        .route("/static/play.js", get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], PLAY_JS) }))
}

/// The game page's script (a file, not inline: the ladder's Content-Security-Policy).
const PLAY_JS: &str = include_str!("static/play.js");

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
    fn live(&self) -> bool {
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

impl Turn {
    /// Fills in the hand and moves as card spans (`game`'s card colours).
    fn draw(mut self, game: &str) -> Turn {
        if let Ok(id) = game.parse::<GameId>() {
            if let Ok((hand, moves)) = live_cards(id, &self.observation, &self.legal) {
                (self.hand, self.moves) = (hand, moves);
            }
        }
        self
    }
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

/// Game `id`.
///
/// # Errors
/// Database errors.
pub fn game(db: &Db, id: i64) -> Result<Option<Game>, DbError> {
    db.with(|c| c.query_row(&format!("{GAME_SELECT} WHERE id = ?1"), params![id], game_of).optional())
}

fn game_by_key(db: &Db, key: &str) -> Result<Option<Game>, DbError> {
    db.with(|c| c.query_row(&format!("{GAME_SELECT} WHERE key = ?1"), params![key], game_of).optional())
}

fn games_of(db: &Db, user: i64) -> Result<Vec<Game>, DbError> {
    db.with(|c| {
        let mut s = c.prepare(&format!("{GAME_SELECT} WHERE user = ?1 ORDER BY id DESC LIMIT 20"))?;
        let rows = s.query_map(params![user], game_of)?.collect();
        rows
    })
}

/// The newest decision of game `id` (open when it has no action).
fn last_turn(db: &Db, id: i64) -> Result<Option<Turn>, DbError> {
    db.with(|c| {
        c.query_row(
            "SELECT n, view, legal, action, observation FROM play_turns WHERE game = ?1 ORDER BY n DESC LIMIT 1",
            params![id],
            turn_of,
        )
        .optional()
    })
}

fn set_state(db: &Db, id: i64, from: &[&str], to: &str) -> Result<bool, DbError> {
    db.with(|c| {
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

// ---------------------------------------------------------------------------------------------
// The worker's side

/// The person of a ladder game, as the worker's seat sees them: decisions go to `play_turns`,
/// moves come back from it.
pub struct WebPerson {
    db: Arc<Db>,
    game: i64,
    wait: Duration,
    /// Set once they left or resigned: every later decision faults the same way.
    gone: Option<Fault>,
}

/// How often the worker looks for the person's move.
const POLL: Duration = Duration::from_millis(100);

impl WebPerson {
    fn stored(&self, n: i64) -> Result<(Option<String>, String), DbError> {
        self.db.with(|c| {
            let action: Option<String> = c
                .query_row(
                    "SELECT action FROM play_turns WHERE game = ?1 AND n = ?2",
                    params![self.game, n],
                    |r| r.get(0),
                )
                .optional()?
                .flatten();
            let state: String =
                c.query_row("SELECT state FROM play_games WHERE id = ?1", params![self.game], |r| r.get(0))?;
            Ok((action, state))
        })
    }
}

impl Person for WebPerson {
    fn act(&mut self, prompt: &Prompt) -> Result<String, Fault> {
        if let Some(f) = &self.gone {
            return Err(f.clone());
        }
        let n = prompt.decision as i64;
        let legal = serde_json::to_string(&prompt.legal).expect("strings serialize");
        // A move already made is taken at once: the job is being played again after its
        // worker stopped, and the same deal and bots put the same decisions.
        let _ = self.db.with(|c| {
            c.execute(
                "INSERT OR IGNORE INTO play_turns (game, n, view, observation, legal) VALUES (?1, ?2, ?3, ?4, ?5)",
                params![self.game, n, prompt.view, prompt.observation, legal],
            )?;
            c.execute("UPDATE play_games SET state = 'playing' WHERE id = ?1 AND state = 'queued'", params![self.game])
        });
        let asked = Instant::now();
        loop {
            // A database that fails now and then (busy) is asked again until the time is up.
            match self.stored(n) {
                Ok((Some(action), _)) => return Ok(action),
                Ok((None, state)) if state == "resigned" => {
                    let f = Fault::new(Verdict::Invalid, "the player resigned");
                    self.gone = Some(f.clone());
                    return Err(f);
                }
                _ => {}
            }
            if asked.elapsed() >= self.wait {
                let f = Fault::new(
                    Verdict::Invalid,
                    format!("the player left the match: no move in {} s", self.wait.as_secs()),
                );
                self.gone = Some(f.clone());
                return Err(f);
            }
            std::thread::sleep(POLL);
        }
    }
}

/// The people of a ladder's games, for `arena worker --group ladder` on the ladder's database.
pub fn people(db: Arc<Db>) -> People {
    People(Arc::new(move |key: &str, _seat: usize| {
        let g = game_by_key(&db, key)
            .map_err(|e| e.to_string())?
            .ok_or_else(|| format!("no game in the ladder database has the job key {key}"))?;
        Ok(Box::new(WebPerson {
            db: db.clone(),
            game: g.id,
            wait: Duration::from_secs(g.move_seconds.max(1) as u64),
            gone: None,
        }) as Box<dyn Person>)
    }))
}

// ---------------------------------------------------------------------------------------------
// The server's side

/// Runs a blocking call on the database and the queue off the async threads.
async fn blocking<T: Send + 'static>(
    ladder: &Ladder,
    f: impl FnOnce(&Db, &Jobs) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    let (db, _, jobs) = ladder.parts();
    let (db, jobs) = (db.clone(), jobs.clone());
    tokio::task::spawn_blocking(move || f(&db, &jobs)).await.map_err(|e| AppError::internal(e.to_string()))?
}

fn db_err(e: DbError) -> AppError {
    AppError::internal(e.to_string())
}

/// Takes in game `g`'s result if its job is done (or failed). Returns the game as it is now.
fn take_in(db: &Db, jobs: &Jobs, g: Game) -> Result<Game, AppError> {
    if !g.live() {
        return Ok(g);
    }
    let keys = vec![g.key.clone()];
    let found = jobs
        .with_queue(|q| -> Result<_, cardarena::tournament::queue::QueueError> {
            if let Some(r) = q.results(&keys)?.remove(&g.key) {
                return Ok(Some((Some((r.summary, q.replay(&g.key)?.unwrap_or_default())), None)));
            }
            Ok(match q.states(&keys)?.remove(&g.key) {
                Some((state, error)) if state == "failed" => Some((None, error)),
                _ => None,
            })
        })
        .map_err(|e| AppError::internal(e.to_string()))?;
    match found {
        Some((Some((summary, replay)), _)) => db
            .with(|c| {
                c.execute(
                    "UPDATE play_games SET state = 'done', summary = ?1, replay = ?2 WHERE id = ?3",
                    params![summary, replay, g.id],
                )
            })
            .map_err(db_err)?,
        Some((None, error)) => db
            .with(|c| {
                c.execute(
                    "UPDATE play_games SET state = 'failed', error = ?1 WHERE id = ?2",
                    params![error.unwrap_or_else(|| "the worker could not play it".into()), g.id],
                )
            })
            .map_err(db_err)?,
        None => return Ok(g),
    };
    game(db, g.id).map_err(db_err)?.ok_or_else(|| AppError::not_found("game"))
}

/// The game `id` if `me` may see it: their own, or anyone's once it is over (a finished match
/// is public like every ladder match; a live one shows the person's hidden cards).
fn visible(db: &Db, jobs: &Jobs, id: i64, me: Option<i64>) -> Result<Game, AppError> {
    let g = game(db, id).map_err(db_err)?.ok_or_else(|| AppError::not_found("game"))?;
    let g = take_in(db, jobs, g)?;
    if g.live() && me != Some(g.user) {
        return Err(AppError::new(
            StatusCode::FORBIDDEN,
            "this game is another player's; it is shown to everyone once it ends",
        ));
    }
    Ok(g)
}

fn wants_json(headers: &HeaderMap) -> bool {
    headers.get(header::ACCEPT).and_then(|v| v.to_str().ok()).is_some_and(|v| v.contains("application/json"))
}

async fn play_page(State(ladder): State<Ladder>, session: Session) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    let me = page.me.clone().ok_or_else(|| {
        AppError::new(StatusCode::UNAUTHORIZED, "sign in first (the Sign in link at the top)")
    })?;
    let config = ladder.parts().1.clone();
    let ctx = blocking(&ladder, move |db, jobs| {
        let mut options = Vec::new();
        let mut four = false;
        for b in &config.boards {
            for (bot, v) in db.players(b.game.name()).map_err(db_err)? {
                four |= b.game.players() > 2;
                options.push(context! {
                    value => format!("{}/{}", v.id, b.variant),
                    game => b.game.name(),
                    variant => &b.variant,
                    label => super::jobs::label(&bot.name, &v),
                    owner => &bot.owner_name,
                });
            }
        }
        let mut games = Vec::new();
        for g in games_of(db, me.id).map_err(db_err)? {
            let g = take_in(db, jobs, g)?;
            let opponent = opponent_label(db, &g)?;
            let mine = g
                .summary
                .as_deref()
                .and_then(|s| serde_json::from_str::<MatchSummary>(s).ok())
                .map(|s| (s.points[g.seat as usize], s.ranks[g.seat as usize]));
            games.push(
                context! { g => ser(&g), opponent, points => mine.map(|m| m.0), rank => mine.map(|m| m.1) },
            );
        }
        Ok(context! { options, four, games, move_seconds => config.move_seconds })
    })
    .await?;
    ladder.render(&page, "play.html", ctx)
}

fn opponent_label(db: &Db, g: &Game) -> Result<String, AppError> {
    let v = db.version(g.version).map_err(db_err)?;
    let b = match &v {
        Some(v) => db.bot(v.bot).map_err(db_err)?,
        None => None,
    };
    Ok(match (b, v) {
        (Some(b), Some(v)) => super::jobs::label(&b.name, &v),
        _ => format!("version {}", g.version),
    })
}

#[derive(Deserialize)]
struct StartForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    opponent: String,
    #[serde(default)]
    seat: String,
}

async fn start(
    State(ladder): State<Ladder>,
    session: Session,
    Form(form): Form<StartForm>,
) -> Result<Redirect, AppError> {
    let me = require_user(&ladder, &session).await?;
    check_csrf(&session, &form.csrf).await?;
    let unprocessable = |m: String| AppError::new(StatusCode::UNPROCESSABLE_ENTITY, m);
    let (version, variant) = form
        .opponent
        .split_once('/')
        .and_then(|(v, var)| Some((v.parse::<i64>().ok()?, var.to_string())))
        .ok_or_else(|| unprocessable("choose an opponent from the list (a bot and its board)".into()))?;
    let config = ladder.parts().1.clone();
    let seat_field = form.seat.clone();
    let id = blocking(&ladder, move |db, jobs| {
        let not_ready = || {
            unprocessable(format!(
                "version {version} is not a ready bot on a board: choose an opponent from the list on the Play page"
            ))
        };
        let v = db.version(version).map_err(db_err)?.ok_or_else(not_ready)?;
        let bot = db.bot(v.bot).map_err(db_err)?.ok_or_else(not_ready)?;
        let game: GameId = bot.game.parse().map_err(|_| not_ready())?;
        if !config.boards_of(game).any(|b| b.variant == variant) {
            return Err(unprocessable(format!("{} has no board of the variant {variant:?}", game.name())));
        }
        let players = db.players(game.name()).map_err(db_err)?;
        if !players.iter().any(|(_, p)| p.id == version) {
            return Err(not_ready());
        }
        let n = game.players();
        let seat = match seat_field.as_str() {
            "" | "any" => (u64::from_str_radix(&secret()[..8], 16).unwrap_or(0) % n as u64) as usize,
            s => match s.parse::<usize>() {
                Ok(k) if k < n => k,
                _ => return Err(unprocessable(format!("the seat must be 0 to {} in {}, or any", n - 1, game.name()))),
            },
        };
        let busy = || {
            AppError::new(
                StatusCode::CONFLICT,
                "you have a game in play: finish or resign it first (the Play page lists it)",
            )
        };
        for g in games_of(db, me.id).map_err(db_err)?.into_iter().filter(Game::live) {
            // (a game that ended since it was last looked at is taken in first)
            if take_in(db, jobs, g)?.live() {
                return Err(busy());
            }
        }
        let seed = u64::from_str_radix(&secret()[..16], 16).unwrap_or(0);
        let (bot_seat, _, bytes) = jobs.seat(db, version).map_err(|e| AppError::internal(e.to_string()))?;
        let seats = (0..n).map(|s| if s == seat { SeatSpec::person(&me.name) } else { bot_seat.clone() }).collect();
        let spec = JobSpec { game: game.name().to_string(), variant: variant.clone(), seed, seats, limits: config.limits.clone() };
        let job = NewJob::new(GROUP, spec);
        // The game's row first: the worker that claims the job finds its person by the key.
        // One statement, so that two starts at once make one game.
        let made = db
            .with(|c| {
                c.execute(
                    "INSERT INTO play_games (user, version, game, variant, seat, seed, key, move_seconds, state, created)
                     SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, 'queued', ?9
                     WHERE NOT EXISTS (SELECT 1 FROM play_games WHERE user = ?1 AND state IN ('queued', 'playing', 'resigned'))",
                    params![me.id, version, game.name(), variant, seat as i64, seed as i64, job.key, config.move_seconds as i64, now()],
                )?;
                Ok(c.changes() > 0).map(|made| made.then(|| c.last_insert_rowid()))
            })
            .map_err(db_err)?;
        let id = made.ok_or_else(busy)?;
        jobs.with_queue(|q| {
            q.put_bots(&[(bot_seat.hash.clone(), bytes)])?;
            q.enqueue(&[job])
        })
        .map_err(|e| AppError::internal(e.to_string()))?;
        Ok(id)
    })
    .await?;
    Ok(Redirect::to(&format!("/play/{id}")))
}

async fn game_page(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    let me = page.me.as_ref().map(|u| u.id);
    let ctx = blocking(&ladder, move |db, jobs| {
        let g = visible(db, jobs, id, me)?;
        let opponent = opponent_label(db, &g)?;
        let bot_id = db.version(g.version).map_err(db_err)?.map(|v| v.bot);
        let player = db.user(g.user).map_err(db_err)?.map(|u| u.name).unwrap_or_default();
        let turn = if g.live() {
            last_turn(db, g.id).map_err(db_err)?.filter(|t| t.action.is_none()).map(|t| t.draw(&g.game))
        } else {
            None
        };
        let mut seats = Vec::new();
        let mut viewer = None;
        if let Some(s) = g.summary.as_deref().and_then(|s| serde_json::from_str::<MatchSummary>(s).ok()) {
            for (k, entry) in s.bots.iter().enumerate() {
                let faults: Vec<&str> = s.faults[k].iter().map(|v| v.name()).collect();
                seats.push(context! { name => &entry.name, hash => &entry.hash, points => s.points[k], rank => s.ranks[k], faults => faults.join(", ") });
            }
            let name = format!("play-{id}.json");
            viewer = stored_replay(db, id)?
                .and_then(|r| cardarena::replay::viewer::frames(&r, &name).ok())
                .map(|f| {
                    let options = cardarena::replay::viewer::ViewerOptions {
                        replay_text: None,
                        replay_url: Some(format!("/play/{id}/replay.json")),
                        verify_command: Some(format!("arena replay {name} --verify")),
                        replay_name: Some(name.clone()),
                        analysis: None,
                    };
                    Value::from_safe_string(cardarena::replay::viewer::fragment(&f, &options))
                });
        }
        Ok(context! { g => ser(&g), live => g.live(), opponent, bot_id, player, turn => ser(&turn), seats, viewer })
    })
    .await?;
    ladder.render(&page, "play_game.html", ctx)
}

fn stored_replay(db: &Db, id: i64) -> Result<Option<cardarena::play::runner::Replay>, AppError> {
    let blob: Option<Vec<u8>> = db
        .with(|c| {
            c.query_row("SELECT replay FROM play_games WHERE id = ?1", params![id], |r| r.get(0)).optional()
        })
        .map_err(db_err)?
        .flatten();
    Ok(blob
        .and_then(|b| cardarena::tournament::store::unpack(&b).ok())
        .and_then(|t| serde_json::from_str(&t).ok()))
}

/// What the page polls: the game's state and the open decision, if any.
#[derive(Serialize)]
struct StateAnswer {
    state: String,
    /// `worker` (the match has not started), `you` (a decision is open), `bot` (the bot is
    /// deciding), `over`.
    waiting: &'static str,
    turn: Option<Turn>,
}

async fn state(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Json<StateAnswer>, AppError> {
    let me = page(&ladder, &session).await.map_err(AppError::json)?.me.map(|u| u.id);
    blocking(&ladder, move |db, jobs| {
        let g = visible(db, jobs, id, me)?;
        let turn = if g.live() { last_turn(db, g.id).map_err(db_err)? } else { None };
        let open = turn.filter(|t| t.action.is_none()).map(|t| t.draw(&g.game));
        let waiting = match (g.state.as_str(), &open) {
            ("queued", _) => "worker",
            (_, Some(_)) if g.live() => "you",
            _ if g.live() => "bot",
            _ => "over",
        };
        Ok(Json(StateAnswer { state: g.state, waiting, turn: open }))
    })
    .await
    .map_err(AppError::json)
}

#[derive(Deserialize)]
struct MoveForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    n: String,
    #[serde(default)]
    action: String,
}

/// The person's game `id`, refusing anyone else and a game that is over.
async fn own_live_game(ladder: &Ladder, session: &Session, id: i64, csrf: &str) -> Result<Game, AppError> {
    let me = require_user(ladder, session).await?;
    check_csrf(session, csrf).await?;
    let g = blocking(ladder, move |db, jobs| {
        let g = game(db, id).map_err(db_err)?.ok_or_else(|| AppError::not_found("game"))?;
        take_in(db, jobs, g)
    })
    .await?;
    if g.user != me.id {
        return Err(AppError::new(
            StatusCode::FORBIDDEN,
            "this is another player's game; you cannot move in it",
        ));
    }
    if !g.live() {
        return Err(AppError::new(StatusCode::CONFLICT, "this game is over"));
    }
    Ok(g)
}

async fn make_move(
    State(ladder): State<Ladder>,
    session: Session,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(form): Form<MoveForm>,
) -> Result<Response, AppError> {
    let json = wants_json(&headers);
    let wrap = |e: AppError| if json { e.json() } else { e };
    let g = own_live_game(&ladder, &session, id, &form.csrf).await.map_err(wrap)?;
    let n: i64 = form.n.parse().map_err(|_| {
        wrap(AppError::new(StatusCode::UNPROCESSABLE_ENTITY, "the move names no decision (n)"))
    })?;
    let action = form.action.clone();
    blocking(&ladder, move |db, _| {
        let turn = last_turn(db, g.id)
            .map_err(db_err)?
            .filter(|t| t.action.is_none() && t.n == n)
            .ok_or_else(|| {
                AppError::new(
                    StatusCode::CONFLICT,
                    "that decision is not open (already made, or not yet asked): reload the page",
                )
            })?;
        if !turn.legal.contains(&action) {
            let shown: String = action.chars().take(40).collect();
            return Err(AppError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("{shown:?} is not a legal move now; the legal moves are {}", turn.legal.join(", ")),
            ));
        }
        let set = db
            .with(|c| {
                c.execute(
                    "UPDATE play_turns SET action = ?1 WHERE game = ?2 AND n = ?3 AND action IS NULL",
                    params![action, g.id, n],
                )
            })
            .map_err(db_err)?;
        if set == 0 {
            return Err(AppError::new(StatusCode::CONFLICT, "that decision was already made"));
        }
        Ok(())
    })
    .await
    .map_err(wrap)?;
    Ok(if json {
        Json(serde_json::json!({ "ok": true })).into_response()
    } else {
        Redirect::to(&format!("/play/{id}")).into_response()
    })
}

#[derive(Deserialize)]
struct CsrfOnly {
    #[serde(default)]
    csrf: String,
}

async fn resign(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
    Form(form): Form<CsrfOnly>,
) -> Result<Redirect, AppError> {
    let g = own_live_game(&ladder, &session, id, &form.csrf).await?;
    blocking(&ladder, move |db, _| set_state(db, g.id, &["queued", "playing"], "resigned").map_err(db_err))
        .await?;
    Ok(Redirect::to(&format!("/play/{id}")))
}

async fn replay_json(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let me = page(&ladder, &session).await?.me.map(|u| u.id);
    let replay = blocking(&ladder, move |db, jobs| {
        let g = visible(db, jobs, id, me)?;
        if g.live() {
            return Err(AppError::new(StatusCode::CONFLICT, "the game is not over yet"));
        }
        stored_replay(db, id)?.ok_or_else(|| AppError::not_found("replay (the game failed)"))
    })
    .await?;
    let text = serde_json::to_string_pretty(&replay).map_err(|e| AppError::internal(e.to_string()))? + "\n";
    let disposition = format!("attachment; filename=\"play-{id}.json\"");
    Ok((
        [(header::CONTENT_TYPE, "application/json".to_string()), (header::CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response())
}
