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

use serde::{Deserialize, Serialize};

use super::app::{ser, Ladder};
use super::db::play::NewPlayGame;
pub use super::db::play::{Game, Turn};
use super::db::User;
use super::db::{secret, Db};
use super::error::AppError;
use super::extract::{CurrentUser, Page};
use super::jobs::{Jobs, GROUP};
use super::views;
use cardarena::bots::bot::{Fault, Verdict};
use cardarena::play::games::GameId;
use cardarena::play::person::{Person, Prompt};
use cardarena::replay::viewer::frames::live_cards;
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

impl Turn {
    /// Fills in the hand and moves as card spans (`game`'s card colours).
    fn draw(mut self, game: Option<GameId>) -> Turn {
        if let Some(id) = game {
            if let Ok((hand, moves)) = live_cards(id, &self.observation, &self.legal) {
                (self.hand, self.moves) = (hand, moves);
            }
        }
        self
    }
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

impl Person for WebPerson {
    fn act(&mut self, prompt: &Prompt) -> Result<String, Fault> {
        if let Some(f) = &self.gone {
            return Err(f.clone());
        }
        let n = prompt.decision as i64;
        let legal = serde_json::to_string(&prompt.legal).expect("strings serialize");
        // A move already made is taken at once: the job is being played again after its
        // worker stopped, and the same deal and bots put the same decisions.
        let _ = self.db.put_play_turn(self.game, n, &prompt.view, &prompt.observation, &legal);
        let asked = Instant::now();
        loop {
            // A database that fails now and then (busy) is asked again until the time is up.
            match self.db.play_turn_answer(self.game, n) {
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
        let g = db
            .play_game_by_key(key)?
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
    tokio::task::spawn_blocking(move || f(&*db, &jobs)).await?
}

/// Takes in game `g`'s result if its job is done (or failed). Returns the game as it is now.
fn take_in(db: &Db, jobs: &Jobs, g: Game) -> Result<Game, AppError> {
    if !g.live() {
        return Ok(g);
    }
    let keys = vec![g.key.clone()];
    let found = jobs.with_queue(|q| -> Result<_, cardarena::tournament::queue::QueueError> {
        if let Some(r) = q.results(&keys)?.remove(&g.key) {
            return Ok(Some((Some((r.summary, q.replay(&g.key)?.unwrap_or_default())), None)));
        }
        Ok(match q.states(&keys)?.remove(&g.key) {
            Some((state, error)) if state == "failed" => Some((None, error)),
            _ => None,
        })
    })?;
    match found {
        Some((Some((summary, replay)), _)) => db.finish_play_game(g.id, &summary, &replay)?,
        Some((None, error)) => {
            db.fail_play_game(g.id, &error.unwrap_or_else(|| "the worker could not play it".into()))?
        }
        None => return Ok(g),
    };
    db.play_game(g.id)?.ok_or_else(|| AppError::not_found("game"))
}

/// The game `id` if `me` may see it: their own, or anyone's once it is over (a finished match
/// is public like every ladder match; a live one shows the person's hidden cards).
fn visible(db: &Db, jobs: &Jobs, id: i64, me: Option<i64>) -> Result<Game, AppError> {
    let g = db.play_game(id)?.ok_or_else(|| AppError::not_found("game"))?;
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

async fn play_page(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    page: Page,
) -> Result<Html<String>, AppError> {
    let config = ladder.parts().1.clone();
    let view = blocking(&ladder, move |db, jobs| {
        let mut options = Vec::new();
        let mut four = false;
        for b in &config.boards {
            for (bot, v) in db.players(b.game.name())? {
                four |= b.game.players() > 2;
                options.push(Opponent {
                    value: format!("{}/{}", v.id, b.variant),
                    game: b.game.name().to_string(),
                    variant: b.variant.clone(),
                    label: super::jobs::label(&bot.name, &v),
                    owner: bot.owner_name.clone(),
                });
            }
        }
        let mut games = Vec::new();
        for g in db.play_games_of(me.id)? {
            let g = take_in(db, jobs, g)?;
            let opponent = opponent_label(db, &g)?;
            let mine = g
                .summary
                .as_deref()
                .and_then(|s| serde_json::from_str::<MatchSummary>(s).ok())
                .map(|s| (s.points[g.seat as usize], s.ranks[g.seat as usize]));
            games.push(GameLine { g, opponent, points: mine.map(|m| m.0), rank: mine.map(|m| m.1) });
        }
        Ok(PlayPage { options, four, games, move_seconds: config.move_seconds })
    })
    .await?;
    ladder.render(&page, "play.html", ser(&view))
}

fn opponent_label(db: &Db, g: &Game) -> Result<String, AppError> {
    let v = db.version(g.version)?;
    let b = match &v {
        Some(v) => db.bot(v.bot)?,
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
    opponent: String,
    #[serde(default)]
    seat: String,
}

async fn start(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    Form(form): Form<StartForm>,
) -> Result<Redirect, AppError> {
    let unprocessable = AppError::unprocessable;
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
        let v = db.version(version)?.ok_or_else(not_ready)?;
        let bot = db.bot(v.bot)?.ok_or_else(not_ready)?;
        let game: GameId = config.game(&bot.game).map_err(|_| not_ready())?;
        if !config.boards_of(game).any(|b| b.variant == variant) {
            return Err(unprocessable(format!("{} has no board of the variant {variant:?}", game.name())));
        }
        let players = db.players(game.name())?;
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
        for g in db.play_games_of(me.id)?.into_iter().filter(Game::live) {
            // (a game that ended since it was last looked at is taken in first)
            if take_in(db, jobs, g)?.live() {
                return Err(busy());
            }
        }
        let seed = u64::from_str_radix(&secret()[..16], 16).unwrap_or(0);
        let (bot_seat, _, bytes) = jobs.seat(db, version)?;
        let seats = (0..n).map(|s| if s == seat { SeatSpec::person(&me.name) } else { bot_seat.clone() }).collect();
        let spec = JobSpec { game: game.name().to_string(), variant: variant.clone(), seed, seats, limits: config.limits.clone() };
        let job = NewJob::new(GROUP, spec);
        // The game's row first: the worker that claims the job finds its person by the key.
        // One statement, so that two starts at once make one game.
        let made = db
            .start_play_game(&NewPlayGame {
                user: me.id,
                version,
                game: game.name(),
                variant: &variant,
                seat,
                seed,
                key: &job.key,
                move_seconds: config.move_seconds,
            })
            ?;
        let id = made.ok_or_else(busy)?;
        jobs.with_queue(|q| {
            q.put_bots(&[(bot_seat.hash.clone(), bytes)])?;
            q.enqueue(&[job])
        })?;
        Ok(id)
    })
    .await?;
    Ok(Redirect::to(&format!("/play/{id}")))
}

async fn game_page(
    State(ladder): State<Ladder>,
    page: Page,
    Path(id): Path<i64>,
) -> Result<Html<String>, AppError> {
    let me = page.me.as_ref().map(|u| u.id);
    let games = ladder.0.config.games.clone();
    let view = blocking(&ladder, move |db, jobs| {
        let g = visible(db, jobs, id, me)?;
        let opponent = opponent_label(db, &g)?;
        let bot_id = db.version(g.version)?.map(|v| v.bot);
        let player = db.user(g.user)?.map(|u| u.name).unwrap_or_default();
        let turn = if g.live() {
            db.last_play_turn(g.id)?
                .filter(|t| t.action.is_none())
                .map(|t| t.draw(games.get(&g.game).ok().map(cardarena::HostedGame::id)))
        } else {
            None
        };
        let mut seats = Vec::new();
        let mut viewer = None;
        if let Some(s) = g.summary.as_deref().and_then(|s| serde_json::from_str::<MatchSummary>(s).ok()) {
            for (k, entry) in s.bots.iter().enumerate() {
                let faults: Vec<&str> = s.faults[k].iter().map(|v| v.name()).collect();
                seats.push(PlayedSeat {
                    name: entry.name.clone(),
                    hash: entry.hash.clone(),
                    points: s.points[k],
                    rank: s.ranks[k],
                    faults: faults.join(", "),
                });
            }
            viewer = stored_replay(db, id)?.and_then(|r| {
                views::viewer(&games, &r, &format!("play-{id}.json"), &format!("/play/{id}"), None)
            });
        }
        Ok(GamePage { live: g.live(), g, opponent, bot_id, player, turn, seats, viewer })
    })
    .await?;
    ladder.render(&page, "play_game.html", ser(&view))
}

fn stored_replay(db: &Db, id: i64) -> Result<Option<cardarena::play::runner::Replay>, AppError> {
    Ok(db.play_replay(id)?.as_deref().and_then(super::db::replay_of))
}

/// A bot a person may play, in the Play page's list.
#[derive(Serialize)]
struct Opponent {
    /// `VERSION/VARIANT`, what the form sends.
    value: String,
    game: String,
    variant: String,
    label: String,
    owner: String,
}

/// A person's game in the Play page's list.
#[derive(Serialize)]
struct GameLine {
    g: Game,
    opponent: String,
    points: Option<i64>,
    rank: Option<u32>,
}

/// The Play page (`play.html`).
#[derive(Serialize)]
struct PlayPage {
    options: Vec<Opponent>,
    /// Some board is of more than two players (the seat list says so).
    four: bool,
    games: Vec<GameLine>,
    move_seconds: u64,
}

/// A seat of a finished game.
#[derive(Serialize)]
struct PlayedSeat {
    name: String,
    hash: String,
    points: i64,
    rank: u32,
    faults: String,
}

/// A game's page (`play_game.html`): the open decision while it is on, the match once over.
#[derive(Serialize)]
struct GamePage {
    g: Game,
    live: bool,
    opponent: String,
    /// The bot's page.
    bot_id: Option<i64>,
    /// The person's name.
    player: String,
    turn: Option<Turn>,
    seats: Vec<PlayedSeat>,
    /// The replay viewer (HTML), once over.
    viewer: Option<String>,
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
    page: Result<Page, AppError>,
    Path(id): Path<i64>,
) -> Result<Json<StateAnswer>, AppError> {
    let me = page.map_err(AppError::json)?.me.map(|u| u.id);
    let games = ladder.0.config.games.clone();
    blocking(&ladder, move |db, jobs| {
        let g = visible(db, jobs, id, me)?;
        let turn = if g.live() { db.last_play_turn(g.id)? } else { None };
        let open = turn
            .filter(|t| t.action.is_none())
            .map(|t| t.draw(games.get(&g.game).ok().map(cardarena::HostedGame::id)));
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
    n: String,
    #[serde(default)]
    action: String,
}

/// The person's game `id`, refusing anyone else and a game that is over.
async fn own_live_game(ladder: &Ladder, me: &User, id: i64) -> Result<Game, AppError> {
    let g = blocking(ladder, move |db, jobs| {
        let g = db.play_game(id)?.ok_or_else(|| AppError::not_found("game"))?;
        take_in(db, jobs, g)
    })
    .await?;
    if g.user != me.id {
        return Err(AppError::forbidden("this is another player's game; you cannot move in it"));
    }
    if !g.live() {
        return Err(AppError::conflict("this game is over"));
    }
    Ok(g)
}

async fn make_move(
    State(ladder): State<Ladder>,
    me: Result<CurrentUser, AppError>,
    headers: HeaderMap,
    Path(id): Path<i64>,
    Form(form): Form<MoveForm>,
) -> Result<Response, AppError> {
    let json = wants_json(&headers);
    let wrap = |e: AppError| if json { e.json() } else { e };
    let CurrentUser(me) = me.map_err(wrap)?;
    let g = own_live_game(&ladder, &me, id).await.map_err(wrap)?;
    let n: i64 =
        form.n.parse().map_err(|_| wrap(AppError::unprocessable("the move names no decision (n)")))?;
    let action = form.action.clone();
    blocking(&ladder, move |db, _| {
        let turn = db.last_play_turn(g.id)?.filter(|t| t.action.is_none() && t.n == n).ok_or_else(|| {
            AppError::conflict("that decision is not open (already made, or not yet asked): reload the page")
        })?;
        if !turn.legal.contains(&action) {
            let shown: String = action.chars().take(40).collect();
            return Err(AppError::unprocessable(format!(
                "{shown:?} is not a legal move now; the legal moves are {}",
                turn.legal.join(", ")
            )));
        }
        let set = db.set_play_action(g.id, n, &action)?;
        if !set {
            return Err(AppError::conflict("that decision was already made"));
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

async fn resign(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Redirect, AppError> {
    let g = own_live_game(&ladder, &me, id).await?;
    blocking(&ladder, move |db, _| Ok(db.set_play_state(g.id, &["queued", "playing"], "resigned")?)).await?;
    Ok(Redirect::to(&format!("/play/{id}")))
}

async fn replay_json(
    State(ladder): State<Ladder>,
    Page { me, .. }: Page,
    Path(id): Path<i64>,
) -> Result<Response, AppError> {
    let me = me.map(|u| u.id);
    let replay = blocking(&ladder, move |db, jobs| {
        let g = visible(db, jobs, id, me)?;
        if g.live() {
            return Err(AppError::conflict("the game is not over yet"));
        }
        stored_replay(db, id)?.ok_or_else(|| AppError::not_found("replay (the game failed)"))
    })
    .await?;
    let text = serde_json::to_string_pretty(&replay)? + "\n";
    let disposition = format!("attachment; filename=\"play-{id}.json\"");
    Ok((
        [(header::CONTENT_TYPE, "application/json".to_string()), (header::CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response())
}
