//! The garage: a signed-in player writes a bot in the browser (a `<textarea>` the page's editor
//! script upgrades, and that works as it is with scripts off), tries it against a built-in or a
//! ready ladder bot, and publishes it as a new version of one of their bots.
//!
//! - A **draft** per player and game (`garage_drafts`), saved by every save, try and publish;
//!   never on the ladder, private to its owner (an admin may read a player's garage).
//! - A **try** is one match, queued in the queue's priority lane ([`PRIORITY_LANE`]): workers
//!   take it before any ladder match, and it never reaches a board (the ladder's `pending`
//!   table never hears of it; its result is read from the queue by its key). A file that does
//!   not load is answered at once, before anything is queued, by the same loader a worker uses.
//! - A **check** is what `arena check` runs, on a small sample: the draft against the game's
//!   `random` and `greedy` on [`CHECK_DEALS`] duplicate deals, every seat rotation, planned by
//!   `tournament::grade::plans_against` and summed up by its `Stats` (score with its interval,
//!   W-D-L, faults, fuel per decision), each match a job of the priority lane (no match runs in
//!   the server). It is recorded as a try whose opponent is `check:DEALS:SEED:OPPONENTS` and
//!   whose key is its jobs' keys, in plan order.
//! - A finished try's draft seat is **analysed** on request (`arena analyse`'s analysis, at the
//!   ladder's `[analysis] budget`), once: it is kept in `garage_analyses` and drawn as the replay
//!   viewer's strip. The server computes it on a blocking thread (one seat of one match, about a
//!   second); it counts as a try for the rate limits.
//! - **Publish** is an upload (`server::accept_upload`: the same checks, content hash and 409).

use axum::extract::{DefaultBodyLimit, Path, Query, State};
use axum::http::{header, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Router};
use serde::{Deserialize, Serialize};

use super::app::{ser, Ladder, Page};
use super::db::garage::{Draft, NewTry, Try};
use super::db::{Db, User};
use super::error::AppError;
use super::extract::CurrentUser;
use super::jobs::{Jobs, GROUP};
use super::server::{too_large, FORM_OVERHEAD};
use cardarena::games::rng::derive_seed;
use cardarena::play::games::GameId;
use cardarena::play::registry::{BotSource, Loader};
use cardarena::play::runner::Replay;
use cardarena::tournament::grade::{faults_text, plans_against, Played as GradePlayed, Stats};
use cardarena::tournament::queue::{JobSpec, NewJob, SeatSpec, PRIORITY_LANE};
use cardarena::tournament::MatchSummary;

/// The garage page's autosave script (a file, not inline: the ladder's Content-Security-Policy).
const GARAGE_JS: &str = include_str!("static/garage.js");

/// The languages of the editor: the picker's value, the file extension, the name shown.
const LANGS: [(&str, &str, &str); 4] = [
    ("lua", "lua", "Lua"),
    ("python", "py", "Python"),
    ("javascript", "js", "JavaScript"),
    ("wat", "wat", "WebAssembly text"),
];

/// What a new draft starts with, per language: a bot that plays a legal move.
fn starter(lang: &str) -> &'static str {
    match lang {
        "python" => "import random\n\n\ndef act(obs):\n    return random.choice(obs[\"legal\"])\n",
        "javascript" => {
            "function act(obs) {\n  return obs.legal[Math.floor(Math.random() * obs.legal.length)];\n}\n"
        }
        "wat" => include_str!("../../example_bots/wat/first_legal.wat"),
        _ => "function act(obs)\n  return obs.legal[math.random(#obs.legal)]\nend\n",
    }
}

/// The file extension of a language of the picker.
fn extension(lang: &str) -> Option<&'static str> {
    LANGS.iter().find(|(l, _, _)| *l == lang).map(|(_, e, _)| *e)
}

/// The body limit of a garage form: the code, URL-encoded (at most three bytes a byte), and the
/// other fields.
pub(super) fn form_limit(max_bytes: usize) -> usize {
    3 * max_bytes + FORM_OVERHEAD
}

/// Whether `path` is a garage form that carries code (its body limit is [`form_limit`]).
pub(super) fn takes_code(path: &str) -> bool {
    path.starts_with("/garage/")
        && ["/save", "/try", "/check", "/publish"].iter().any(|end| path.ends_with(end))
}

/// Whether `path` is a try, a check or a try's analysis (rate-limited per account and for the whole class,
/// `rate`).
pub(super) fn is_try(path: &str) -> bool {
    path.starts_with("/garage/")
        && (path.ends_with("/try") || path.ends_with("/check") || path.ends_with("/analyse"))
}

/// Duplicate deals per opponent of a check (each played in every seat rotation).
pub const CHECK_DEALS: u32 = 10;

/// The reference bots of a check, those the game has.
fn check_opponents(game: GameId) -> Vec<String> {
    ["random", "greedy"].iter().filter(|b| game.has_builtin(b)).map(|b| b.to_string()).collect()
}

/// The garage's routes.
pub(super) fn routes(ladder: &Ladder) -> Router<Ladder> {
    let limit = form_limit(ladder.parts().1.max_bytes);
    let forms = Router::new()
        .route("/garage/{game}/save", post(save))
        .route("/garage/{game}/try", post(try_it))
        .route("/garage/{game}/check", post(check))
        .route("/garage/{game}/publish", post(publish))
        .layer(DefaultBodyLimit::max(limit));
    Router::new()
        .route("/garage", get(index))
        .route("/garage/{game}", get(garage_page))
        .route("/garage/{game}/tries/{id}", get(try_page))
        .route("/garage/{game}/tries/{id}/replay.json", get(try_replay))
        .route("/garage/{game}/tries/{id}/analyse", post(analyse_try))
        .route(
            "/static/garage.js",
            get(|| async { ([(header::CONTENT_TYPE, "text/javascript")], GARAGE_JS) }),
        )
        .merge(forms)
}

async fn blocking<T: Send + 'static>(
    ladder: &Ladder,
    f: impl FnOnce(&Db, &Jobs) -> Result<T, AppError> + Send + 'static,
) -> Result<T, AppError> {
    let (db, _, jobs) = ladder.parts();
    let (db, jobs) = (db.clone(), jobs.clone());
    tokio::task::spawn_blocking(move || f(&*db, &jobs)).await?
}

/// The games of the ladder's boards, each once.
fn games_of(ladder: &Ladder) -> Vec<GameId> {
    let mut games: Vec<GameId> = Vec::new();
    for b in &ladder.parts().1.boards {
        if !games.iter().any(|g| g.name() == b.game.name()) {
            games.push(b.game);
        }
    }
    games
}

/// The game `name` if the ladder has a board of it (else 404).
fn game_of(ladder: &Ladder, name: &str) -> Result<GameId, AppError> {
    games_of(ladder).into_iter().find(|g| g.name() == name).ok_or_else(|| AppError::not_found("game"))
}

/// `/garage`: the ladder's games, with the player's drafts.
#[derive(Serialize)]
struct IndexPage {
    games: Vec<GameLine>,
    /// The player whose garage an admin reads (`?user=ID`).
    whose: Option<(i64, String)>,
}

#[derive(Serialize)]
struct GameLine {
    game: String,
    about: String,
    draft: Option<Draft>,
}

async fn index(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    page: Page,
    Query(q): Query<WhoseQuery>,
) -> Result<Html<String>, AppError> {
    let games = games_of(&ladder);
    let whose = whose_garage(&ladder, me, q.user).await?;
    let id = whose.id;
    let drafts = ladder.run(move |db| db.garage_drafts_of(id)).await?;
    let me_id = page.me.as_ref().map_or(0, |u| u.id);
    let whose = (whose.id != me_id).then_some((whose.id, whose.name));
    let games = games
        .into_iter()
        .map(|g| GameLine {
            game: g.name().to_string(),
            about: g.about().to_string(),
            draft: drafts.iter().find(|d| d.game == g.name()).cloned(),
        })
        .collect();
    ladder.render(&page, "garage_index.html", ser(&IndexPage { games, whose }))
}

/// Whose garage a page shows: `me`'s own, or (`?user=ID`) a player's, for an admin only (403).
async fn whose_garage(ladder: &Ladder, me: User, user: Option<i64>) -> Result<User, AppError> {
    match user {
        Some(id) if id != me.id => {
            if !me.admin {
                return Err(AppError::forbidden("a player's garage is private: only an admin may read it"));
            }
            ladder.run(move |db| db.user(id)).await?.ok_or_else(|| AppError::not_found("user"))
        }
        _ => Ok(me),
    }
}

#[derive(Deserialize)]
struct WhoseQuery {
    /// An admin reading a player's garage.
    user: Option<i64>,
}

/// A verdict of the garage: what failed, where, and the code around the line.
#[derive(Clone, Debug, Default, Serialize)]
struct Verdict {
    /// `load`, `crash`, `fuel`...
    verdict: String,
    message: String,
    /// The source line it names, if any (1 = the first).
    line: Option<usize>,
    /// The numbered lines around it: (number, right-aligned, text, whether it is the line).
    listing: Vec<(String, String, bool)>,
    /// The did-you-mean of a read of a field the observation does not have.
    hint: Option<String>,
}

/// The garage page of a game (`garage.html`).
#[derive(Serialize)]
struct GaragePage {
    game: String,
    draft: Draft,
    /// Whose garage it is, when an admin reads another player's (read-only).
    owner: Option<String>,
    langs: Vec<(&'static str, &'static str)>,
    /// The observation's documentation in the draft's language (as `arena schema` prints it).
    schema: String,
    schema_command: String,
    opponents: Vec<(String, String)>,
    tries: Vec<Try>,
    max_bytes: usize,
    message: Option<String>,
    verdict: Option<Verdict>,
    /// The bots of the player in this game (publish adds a version to one, or makes one).
    bots: Vec<String>,
    /// When the draft was last saved.
    saved: Option<String>,
}

/// The observation's documentation for bots in `lang`, and the command that prints it.
fn schema_for(game: GameId, lang: &str) -> (String, String) {
    let name = game.name();
    match lang {
        "python" => (cardarena::schema::python_stubs(game), format!("arena schema --game {name} --python")),
        "javascript" => {
            (cardarena::schema::ts_declarations(game), format!("arena schema --game {name} --ts"))
        }
        "wat" => (cardarena::schema::observation_schema_text(game), format!("arena schema --game {name}")),
        _ => (cardarena::schema::lua_annotations(game), format!("arena schema --game {name} --lua")),
    }
}

/// The opponents a try may have: the game's built-ins, then every ready bot on its boards, as
/// (form value, label).
fn opponents(db: &Db, game: GameId) -> Result<Vec<(String, String)>, AppError> {
    let mut out: Vec<(String, String)> = Vec::new();
    for name in game.builtin_bots() {
        if game.has_builtin(&name) {
            out.push((name.clone(), name));
        } else if name.starts_with("strong:") && game.has_builtin("strong") {
            out.push(("strong".into(), "strong".into()));
        }
    }
    for (bot, v) in db.players(game.name())? {
        out.push((
            format!("v{}", v.id),
            format!("{} (by {})", super::jobs::label(&bot.name, &v), bot.owner_name),
        ));
    }
    Ok(out)
}

/// What the page shows after a form.
#[derive(Default)]
struct Note {
    message: Option<String>,
    verdict: Option<Verdict>,
}

/// The garage page of `game` for `whose` draft (`me`'s own, or, for an admin, a player's).
async fn render_garage(
    ladder: &Ladder,
    page: &Page,
    game: GameId,
    whose: User,
    draft: Option<Draft>,
    note: Note,
) -> Result<Html<String>, AppError> {
    let me_id = page.me.as_ref().map_or(0, |u| u.id);
    let (user, name) = (whose.id, game.name().to_string());
    let (stored, opponents, tries, bots) = blocking(ladder, move |db, _| {
        let stored = db.garage_draft(user, &name)?;
        let opponents = opponents(db, game)?;
        let tries = db.garage_tries_of(user, &name)?;
        let bots =
            db.bots()?.into_iter().filter(|b| b.owner == user && b.game == name).map(|b| b.name).collect();
        Ok((stored, opponents, tries, bots))
    })
    .await?;
    let draft = draft.or(stored).unwrap_or_else(|| Draft {
        user,
        game: game.name().to_string(),
        lang: "lua".into(),
        code: starter("lua").to_string(),
        name: String::new(),
        updated: 0,
    });
    let (schema, schema_command) = schema_for(game, &draft.lang);
    let view = GaragePage {
        game: game.name().to_string(),
        owner: (whose.id != me_id).then(|| whose.name.clone()),
        langs: LANGS.iter().map(|(l, _, n)| (*l, *n)).collect(),
        schema,
        schema_command,
        opponents,
        tries,
        max_bytes: ladder.parts().1.max_bytes,
        message: note.message,
        verdict: note.verdict,
        bots,
        saved: (draft.updated > 0).then(|| super::time::utc_text(draft.updated)),
        draft,
    };
    ladder.render(page, "garage.html", ser(&view))
}

/// `GET /garage/{game}`: the player's own garage, or (`?user=ID`, admins only) a player's,
/// read-only.
async fn garage_page(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    page: Page,
    Path(game): Path<String>,
    Query(q): Query<WhoseQuery>,
) -> Result<Html<String>, AppError> {
    let game = game_of(&ladder, &game)?;
    let whose = whose_garage(&ladder, me, q.user).await?;
    render_garage(&ladder, &page, game, whose, None, Note::default()).await
}

#[derive(Deserialize)]
struct CodeForm {
    #[serde(default)]
    code: String,
    #[serde(default)]
    lang: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    opponent: String,
}

/// The form's draft of `me` for `game`, checked: a language of the picker, the size cap.
fn draft_of(ladder: &Ladder, me: &User, game: GameId, form: &CodeForm) -> Result<Draft, AppError> {
    let max = ladder.parts().1.max_bytes;
    if form.code.len() > max {
        return Err(too_large(max));
    }
    if extension(&form.lang).is_none() {
        return Err(AppError::unprocessable(format!(
            "the language {:?} is not one of the garage's (lua, python, javascript, wat)",
            form.lang
        )));
    }
    // Browsers send a textarea's lines with CR LF. An empty editor starts again from the
    // language's starter bot (how a new language is picked with scripts off).
    let code = form.code.replace("\r\n", "\n");
    let code = if code.trim().is_empty() { starter(&form.lang).to_string() } else { code };
    let name: String = form.name.chars().filter(|c| !c.is_control()).take(64).collect();
    Ok(Draft { user: me.id, game: game.name().to_string(), lang: form.lang.clone(), code, name, updated: 0 })
}

async fn save_draft(ladder: &Ladder, draft: &Draft) -> Result<(), AppError> {
    let d = draft.clone();
    ladder.run(move |db| db.save_garage_draft(&d)).await
}

/// `POST /garage/{game}/save`.
async fn save(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    Path(game): Path<String>,
    Form(form): Form<CodeForm>,
) -> Result<Redirect, AppError> {
    let game = game_of(&ladder, &game)?;
    let draft = draft_of(&ladder, &me, game, &form)?;
    save_draft(&ladder, &draft).await?;
    Ok(Redirect::to(&format!("/garage/{}", game.name())))
}

/// The file name a draft plays under (its extension says its kind).
fn file_name(lang: &str) -> String {
    format!("draft.{}", extension(lang).unwrap_or("lua"))
}

/// The first source line a message names: `file:N` (Lua, JavaScript, WAT), `"file", line N`
/// (Python tracebacks: the last one, the innermost frame) or `line N`.
pub(super) fn line_of(message: &str, file: &str) -> Option<usize> {
    let number = |s: &str| -> Option<usize> {
        let digits: String = s.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok().filter(|&n| n > 0)
    };
    let quoted = format!("\"{file}\", line ");
    if let Some(n) = message.rmatch_indices(&quoted).find_map(|(at, _)| number(&message[at + quoted.len()..]))
    {
        return Some(n);
    }
    let plain = format!("{file}:");
    if let Some(n) = message.match_indices(&plain).find_map(|(at, _)| number(&message[at + plain.len()..])) {
        return Some(n);
    }
    message.match_indices("line ").find_map(|(at, _)| number(&message[at + 5..]))
}

/// The field a Lua or Python message says was read and missing (`field 'legl'`, `KeyError:
/// 'legl'`), when the observation has no such field: with the did-you-mean of `arena check`.
fn field_hint(game: GameId, message: &str) -> Option<String> {
    let (_, known) = cardarena::schema::observation_fields(game);
    for marker in ["field '", "KeyError: '", "property '", "reading '"] {
        for (at, _) in message.match_indices(marker) {
            let rest = &message[at + marker.len()..];
            let Some(key) = rest.split('\'').next() else { continue };
            if key.is_empty() || known.contains(key) {
                continue;
            }
            let hint = cardarena::schema::closest_field(&known, key)
                .map(|k| format!("; did you mean `{k}`?"))
                .unwrap_or_default();
            return Some(format!("the observation has no field `{key}`{hint}"));
        }
    }
    None
}

/// A verdict on `code` with its line and the code around it.
fn verdict_on(game: GameId, verdict: &str, message: &str, code: &str, file: &str) -> Verdict {
    let line = line_of(message, file);
    let lines: Vec<&str> = code.lines().collect();
    let listing = match line {
        Some(n) if n <= lines.len() => {
            let (from, to) = (n.saturating_sub(3).max(1), (n + 2).min(lines.len()));
            (from..=to).map(|k| (format!("{k:4}"), lines[k - 1].to_string(), k == n)).collect()
        }
        _ => Vec::new(),
    };
    Verdict {
        verdict: verdict.to_string(),
        message: message.to_string(),
        line,
        listing,
        hint: field_hint(game, message),
    }
}

/// Loads `code` as a worker would (the same loader); the error of a file that does not load.
async fn load_error(
    ladder: &Ladder,
    game: GameId,
    lang: &str,
    code: &str,
) -> Result<Option<String>, AppError> {
    let hosted = *ladder.parts().1.games.get(game.name()).map_err(|e| AppError::internal(e.to_string()))?;
    let (file, bytes) = (file_name(lang), code.as_bytes().to_vec());
    let loaded = tokio::task::spawn_blocking(move || hosted.load(&Loader::new(), &file, &bytes)).await??;
    Ok(match loaded {
        BotSource::Failed { error, .. } => Some(error),
        _ => None,
    })
}

/// Saves the posted draft (a try and a check both do); a draft that does not load is answered
/// at once, `Err`, with its verdict on the garage page (422), and nothing is played.
async fn saved_draft_that_loads(
    ladder: &Ladder,
    page: &Page,
    me: &User,
    game: GameId,
    form: &CodeForm,
) -> Result<Result<Draft, Response>, AppError> {
    let draft = draft_of(ladder, me, game, form)?;
    save_draft(ladder, &draft).await?;
    let Some(error) = load_error(ladder, game, &draft.lang, &draft.code).await? else { return Ok(Ok(draft)) };
    let verdict = verdict_on(game, "load", &error, &draft.code, &file_name(&draft.lang));
    let note =
        Note { message: Some("the draft does not load: nothing was played".into()), verdict: Some(verdict) };
    let html = render_garage(ladder, page, game, me.clone(), Some(draft), note).await?;
    Ok(Err((StatusCode::UNPROCESSABLE_ENTITY, html).into_response()))
}

/// The variant of the ladder's board of `game` (a try and a check play it).
fn board_variant(config: &super::config::LadderConfig, game: GameId) -> Result<String, AppError> {
    config.boards_of(game).next().map(|b| b.variant.clone()).ok_or_else(|| AppError::not_found("board"))
}

/// A new seed for a try or a check, from the ladder's randomness.
fn fresh_seed() -> u64 {
    derive_seed(&[u64::from_str_radix(&super::db::secret()[..16], 16).unwrap_or(0)])
}

/// `POST /garage/{game}/try`: saves the draft; a draft that does not load gets its verdict at
/// once (422), else one match against the opponent is queued in the priority lane.
async fn try_it(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    page: Page,
    Path(game): Path<String>,
    Form(form): Form<CodeForm>,
) -> Result<Response, AppError> {
    let game = game_of(&ladder, &game)?;
    let draft = match saved_draft_that_loads(&ladder, &page, &me, game, &form).await? {
        Ok(draft) => draft,
        Err(refused) => return Ok(refused),
    };
    let config = ladder.parts().1.clone();
    let opponent = form.opponent.trim().to_string();
    let id = blocking(&ladder, move |db, jobs| {
        let variant = board_variant(&config, game)?;
        let choose =
            || AppError::unprocessable("choose an opponent from the list (a built-in or a ready ladder bot)");
        let (seat_spec, extra) = if let Some(v) = opponent.strip_prefix('v') {
            let v: i64 = v.parse().map_err(|_| choose())?;
            if !db.players(game.name())?.iter().any(|(_, p)| p.id == v) {
                return Err(choose());
            }
            let (spec, _, bytes) = jobs.seat(db, v).map_err(|e| AppError::internal(e.to_string()))?;
            let extra = vec![(spec.hash.clone(), bytes)];
            (spec, extra)
        } else if game.has_builtin(&opponent) {
            (SeatSpec::builtin(&opponent), Vec::new())
        } else {
            return Err(choose());
        };
        let bytes = draft.code.as_bytes().to_vec();
        let mine = SeatSpec::program(&file_name(&draft.lang), &bytes);
        let seed = fresh_seed();
        let n = game.players();
        let seat = (seed % n as u64) as usize;
        let seats = (0..n).map(|k| if k == seat { mine.clone() } else { seat_spec.clone() }).collect();
        let spec = JobSpec {
            game: game.name().to_string(),
            variant: variant.clone(),
            seed,
            seats,
            limits: config.limits.clone(),
        };
        let job = NewJob::new(GROUP, spec).in_lane(PRIORITY_LANE);
        let mut bots = extra;
        bots.push((mine.hash.clone(), bytes));
        jobs.with_queue(|q| -> Result<(), AppError> {
            q.put_bots(&bots)?;
            q.enqueue(std::slice::from_ref(&job))?;
            Ok(())
        })?;
        Ok(db.add_garage_try(&NewTry {
            user: me.id,
            game: game.name(),
            variant: &variant,
            lang: &draft.lang,
            opponent: &opponent,
            seat,
            key: &job.key,
        })?)
    })
    .await?;
    Ok(Redirect::to(&format!("/garage/{}/tries/{id}", game.name())).into_response())
}

/// `POST /garage/{game}/check`: saves the draft; a draft that does not load gets its verdict
/// at once, else the check's matches are queued in the priority lane.
async fn check(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    page: Page,
    Path(game): Path<String>,
    Form(form): Form<CodeForm>,
) -> Result<Response, AppError> {
    let game = game_of(&ladder, &game)?;
    let draft = match saved_draft_that_loads(&ladder, &page, &me, game, &form).await? {
        Ok(draft) => draft,
        Err(refused) => return Ok(refused),
    };
    let config = ladder.parts().1.clone();
    let id = blocking(&ladder, move |db, jobs| {
        let variant = board_variant(&config, game)?;
        let opponents = check_opponents(game);
        let seed = fresh_seed();
        let bytes = draft.code.as_bytes().to_vec();
        let mine = SeatSpec::program(&file_name(&draft.lang), &bytes);
        let mut entrants = vec![mine.clone()];
        entrants.extend(opponents.iter().map(|o| SeatSpec::builtin(o)));
        let plans =
            plans_against(&[0], &(1..entrants.len()).collect::<Vec<_>>(), game.players(), CHECK_DEALS, seed);
        let new: Vec<NewJob> = plans
            .iter()
            .map(|p| {
                let seats = p.seats.iter().map(|&e| entrants[e].clone()).collect();
                let spec = JobSpec {
                    game: game.name().to_string(),
                    variant: variant.clone(),
                    seed: p.seed,
                    seats,
                    limits: config.limits.clone(),
                };
                NewJob::new(GROUP, spec).in_lane(PRIORITY_LANE)
            })
            .collect();
        jobs.with_queue(|q| -> Result<(), AppError> {
            q.put_bots(&[(mine.hash.clone(), bytes)])?;
            q.enqueue(&new)?;
            Ok(())
        })?;
        let keys: Vec<&str> = new.iter().map(|j| j.key.as_str()).collect();
        Ok(db.add_garage_try(&NewTry {
            user: me.id,
            game: game.name(),
            variant: &variant,
            lang: &draft.lang,
            opponent: &format!("check:{CHECK_DEALS}:{seed}:{}", opponents.join(",")),
            seat: 0,
            key: &keys.join(" "),
        })?)
    })
    .await?;
    Ok(Redirect::to(&format!("/garage/{}/tries/{id}", game.name())).into_response())
}

/// A check's (deals, seed, opponents), from its try's opponent field.
fn check_of(t: &Try) -> Option<(u32, u64, Vec<String>)> {
    let mut parts = t.opponent.strip_prefix("check:")?.splitn(3, ':');
    let deals = parts.next()?.parse().ok()?;
    let seed = parts.next()?.parse().ok()?;
    let opponents = parts.next()?.split(',').map(str::to_string).collect();
    Some((deals, seed, opponents))
}

/// One row of a check's report.
#[derive(Serialize)]
struct CheckRow {
    opponent: String,
    matches: u64,
    wdl: String,
    points: String,
    score: String,
    faults: String,
}

/// A check's report, as `arena check` prints it (on a smaller sample).
#[derive(Serialize)]
struct CheckReport {
    deals: u32,
    seed: u64,
    rows: Vec<CheckRow>,
    points_heading: &'static str,
    fuel: String,
    /// The draft's peak memory against its limit.
    memory: String,
    /// The first fault, with its line.
    first: Option<Verdict>,
    /// Matches played of all, while it runs.
    done: usize,
    total: usize,
}

fn stats_row(opponent: &str, s: &Stats) -> CheckRow {
    let (score, lo, hi) = s.score();
    CheckRow {
        opponent: opponent.to_string(),
        matches: s.matches,
        wdl: format!("{}-{}-{}", s.wins, s.draws, s.losses),
        points: format!("{:.1}", s.points),
        score: format!("{score:.3} ({lo:.3}..{hi:.3})"),
        faults: faults_text(s),
    }
}

/// The report of check `t` as far as its matches are played (`done` of `total`).
fn check_report(jobs: &Jobs, game: GameId, t: &Try) -> Result<Option<CheckReport>, AppError> {
    let Some((deals, seed, opponents)) = check_of(t) else { return Ok(None) };
    let keys: Vec<String> = t.key.split(' ').map(str::to_string).collect();
    let mut names = vec![file_name(&t.lang)];
    names.extend(opponents.iter().cloned());
    let plans = plans_against(&[0], &(1..names.len()).collect::<Vec<_>>(), game.players(), deals, seed);
    let mut per_opp = vec![Stats::default(); names.len()];
    let mut first: Option<Verdict> = None;
    let mut done = 0;
    let mut code: Option<String> = None;
    let mut limits: Option<cardarena::Limits> = None;
    let results = jobs.with_queue(|q| q.results(&keys))?;
    for (plan, key) in plans.iter().zip(&keys) {
        let Some(blob) = jobs.with_queue(|q| q.replay(key))? else { continue };
        let Some(replay) = super::db::replay_of(&blob) else { continue };
        done += 1;
        // The worker's summary has the seats' peak memory (the replay does not).
        let memory = results
            .get(key)
            .and_then(|r| serde_json::from_str::<MatchSummary>(&r.summary).ok())
            .map(|s| s.memory_peak)
            .filter(|m| m.len() == plan.seats.len())
            .unwrap_or_else(|| vec![None; plan.seats.len()]);
        let played = GradePlayed::of(plan, &replay, memory, Vec::new());
        let seat = plan.seats.iter().position(|&e| e == 0).expect("the draft sits at every table");
        let opp = plan.seats.iter().copied().find(|&e| e != 0).expect("an opponent");
        per_opp[opp].add(game, &played, seat, &names);
        if limits.is_none() {
            limits = replay.limits.get(seat).cloned().flatten();
        }
        if first.is_none() {
            if let Some(f) = replay.faults.get(seat).and_then(|f| f.first()) {
                let code = match &code {
                    Some(c) => c.clone(),
                    None => {
                        let hash = replay.bots[seat].hash.clone();
                        let bytes = jobs.with_queue(|q| q.bot(&hash))?.unwrap_or_default();
                        let c = String::from_utf8_lossy(&bytes).into_owned();
                        code = Some(c.clone());
                        c
                    }
                };
                let mut v = verdict_on(game, f.verdict.name(), &f.message, &code, &names[0]);
                v.message = format!("seed {}, seat {seat}: {}", plan.seed, f.message);
                first = Some(v);
            }
        }
    }
    let mut all = Stats::default();
    let mut rows = Vec::new();
    for (k, s) in per_opp.iter().enumerate().skip(1) {
        all.merge(s);
        rows.push(stats_row(&names[k], s));
    }
    rows.push(stats_row("all", &all));
    let fuel = match (all.fuel_stats(), &limits) {
        (Some((mean, p99, max)), Some(l)) => format!(
            "fuel per decision: mean {mean:.0}, p99 {p99}, max {max} of {}{}; per match: max {} of {}",
            l.fuel_per_decision,
            if max >= l.fuel_per_decision { " (ran out: the limit was reached)" } else { "" },
            all.fuel_match_max,
            l.fuel_per_match
        ),
        (Some((mean, p99, max)), None) => {
            format!(
                "fuel per decision: mean {mean:.0}, p99 {p99}, max {max}; per match: max {}",
                all.fuel_match_max
            )
        }
        (None, _) => "fuel per decision: no decision was metered".into(),
    };
    let memory = all.memory_text(limits.map(|l| l.memory_bytes));
    Ok(Some(CheckReport {
        deals,
        seed,
        rows,
        points_heading: game.points_heading(),
        fuel,
        memory,
        first,
        done,
        total: plans.len(),
    }))
}

/// Try `id` of `game`, if `me` may read it (its owner, or an admin): else 404, as if there
/// were none.
async fn readable_try(ladder: &Ladder, me: &User, game: &str, id: i64) -> Result<Try, AppError> {
    let t = ladder.run(move |db| db.garage_try(id)).await?;
    t.filter(|t| t.game == game && (t.user == me.id || me.admin)).ok_or_else(|| AppError::not_found("try"))
}

/// Where a try's job is: its replay when it was played.
enum Played {
    Waiting(String),
    Failed(String),
    Done(Box<Replay>, Vec<u8>),
}

fn played(jobs: &Jobs, t: &Try) -> Result<Played, AppError> {
    jobs.with_queue(|q| -> Result<Played, AppError> {
        let keys = [t.key.clone()];
        if q.results(&keys)?.contains_key(&t.key) {
            let blob = q.replay(&t.key)?.unwrap_or_default();
            let replay = super::db::replay_of(&blob)
                .ok_or_else(|| AppError::internal(format!("try {}: the stored replay is damaged", t.id)))?;
            let hash = replay.bots.get(t.seat as usize).map(|b| b.hash.clone()).unwrap_or_default();
            let code = q.bot(&hash)?.unwrap_or_default();
            return Ok(Played::Done(Box::new(replay), code));
        }
        Ok(match q.states(&keys)?.remove(&t.key) {
            Some((state, error)) if state == "failed" => Played::Failed(error.unwrap_or_default()),
            Some((state, _)) => Played::Waiting(state),
            None => Played::Failed("the try's job is not in the queue".into()),
        })
    })
}

/// A try's result page (`garage_try.html`).
#[derive(Serialize)]
struct TryPage {
    game: String,
    t: Try,
    /// `queued`, `running`, `failed` or `done`.
    state: String,
    error: Option<String>,
    /// The draft's place and points, and everyone's, once done.
    outcome: Option<String>,
    verdicts: Vec<Verdict>,
    /// The draft's log: (decision number of the match, line).
    log: Vec<(usize, String)>,
    viewer: Option<String>,
    /// A check's report.
    check: Option<CheckReport>,
    /// The analysis of the draft's seat: `none` (the game has none), `ask` (not made yet),
    /// `shown` (in the viewer's strip), `damaged`.
    analysis: &'static str,
    /// Why there is none, when the game has none.
    unavailable: String,
    /// Whether the visitor owns the try (an admin reads it without its forms).
    mine: bool,
}

/// `GET /garage/{game}/tries/{id}`: the try's result (the page reloads itself each second while
/// the try waits for a worker, without script).
async fn try_page(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    page: Page,
    Path((game, id)): Path<(String, i64)>,
) -> Result<Html<String>, AppError> {
    let game = game_of(&ladder, &game)?;
    let t = readable_try(&ladder, &me, game.name(), id).await?;
    let games = ladder.parts().1.games.clone();
    let mine = t.user == me.id;
    let has_analysis = super::analysis::available(&games, game.name());
    let unavailable = super::analysis::unavailable(game.name());
    let view = blocking(&ladder, move |db, jobs| {
        let mut view = TryPage {
            game: game.name().to_string(),
            t: t.clone(),
            state: String::new(),
            error: None,
            outcome: None,
            verdicts: Vec::new(),
            log: Vec::new(),
            viewer: None,
            check: None,
            analysis: "none",
            unavailable,
            mine,
        };
        if let Some(report) = check_report(jobs, game, &t)? {
            view.state = if report.done == report.total { "done" } else { "running" }.into();
            view.check = Some(report);
            return Ok(view);
        }
        match played(jobs, &t)? {
            Played::Waiting(state) => view.state = state,
            Played::Failed(error) => {
                view.state = "failed".into();
                view.error = Some(error);
            }
            Played::Done(replay, code) => {
                view.state = "done".into();
                let seat = t.seat as usize;
                let code = String::from_utf8_lossy(&code).into_owned();
                let file = file_name(&t.lang);
                let summary = MatchSummary::of(&replay);
                view.outcome = Some(outcome_text(game, &summary, seat));
                for f in replay.faults.get(seat).into_iter().flatten() {
                    let at = f
                        .decision
                        .map_or_else(|| "at the start".to_string(), |d| format!("at decision #{d}"));
                    let mut v = verdict_on(game, f.verdict.name(), &f.message, &code, &file);
                    v.message = format!("{at}: {}", f.message);
                    view.verdicts.push(v);
                }
                for (k, d) in replay.decisions.iter().enumerate().filter(|(_, d)| d.seat == seat) {
                    view.log.extend(d.log.iter().map(|l| (k, l.clone())));
                }
                let at = format!("/garage/{}/tries/{}", game.name(), t.id);
                let mut analysis = None;
                if has_analysis {
                    view.analysis = match db.garage_analysis(t.id)? {
                        None => "ask",
                        Some(json) => {
                            analysis = super::analysis::parse(&json);
                            if analysis.is_some() {
                                "shown"
                            } else {
                                "damaged"
                            }
                        }
                    };
                }
                view.viewer =
                    super::views::viewer(&games, &replay, &format!("try-{}.json", t.id), &at, analysis);
            }
        }
        Ok(view)
    })
    .await?;
    ladder.render(&page, "garage_try.html", ser(&view))
}

/// `POST /garage/{game}/tries/{id}/analyse`: analyses the draft's seat of the player's finished
/// try (once: a second request finds it kept) and shows the try with the analysis strip.
async fn analyse_try(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    Path((game, id)): Path<(String, i64)>,
) -> Result<Redirect, AppError> {
    let game = game_of(&ladder, &game)?;
    let config = ladder.parts().1.clone();
    if !super::analysis::available(&config.games, game.name()) {
        return Err(AppError::unprocessable(super::analysis::unavailable(game.name())));
    }
    let t = readable_try(&ladder, &me, game.name(), id).await?;
    if t.user != me.id {
        return Err(AppError::forbidden("only the try's owner analyses it (an admin reads it as it is)"));
    }
    if check_of(&t).is_some() {
        return Err(AppError::unprocessable("a check is many matches: analyse one try instead"));
    }
    blocking(&ladder, move |db, jobs| {
        if db.garage_analysis(t.id)?.is_some() {
            return Ok(());
        }
        let Played::Done(replay, _) = played(jobs, &t)? else {
            return Err(AppError::unprocessable(
                "the try has not been played yet: analyse it once it is done",
            ));
        };
        let name = format!("try-{}.json", t.id);
        let json =
            super::analysis::analyse(&replay, &config.games, &name, t.seat as usize, config.analysis_budget)
                .map_err(|e| AppError::unprocessable(format!("the analysis could not be made: {e}")))?;
        db.save_garage_analysis(t.id, &json)?;
        Ok(())
    })
    .await?;
    Ok(Redirect::to(&format!("/garage/{}/tries/{id}#replay", game.name())))
}

/// The draft's place and points, and every seat's.
fn outcome_text(game: GameId, s: &MatchSummary, seat: usize) -> String {
    let places: Vec<String> = s
        .bots
        .iter()
        .enumerate()
        .map(|(k, b)| {
            let who = if k == seat { "your draft".to_string() } else { b.name.clone() };
            format!("{who}: {} {}, place {}", s.points[k], game.points_word(), s.ranks[k])
        })
        .collect();
    let mine = s.ranks[seat];
    let word = if mine == 1 && s.ranks.iter().filter(|&&r| r == 1).count() == 1 {
        "won"
    } else if mine == 1 {
        "tied first"
    } else {
        "lost"
    };
    format!("Your draft {word} (seat {seat}). {}", places.join("; "))
}

/// `GET /garage/{game}/tries/{id}/replay.json`: the try's replay, for the viewer's download.
async fn try_replay(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    Path((game, id)): Path<(String, i64)>,
) -> Result<Response, AppError> {
    let game = game_of(&ladder, &game)?;
    let t = readable_try(&ladder, &me, game.name(), id).await?;
    let replay = blocking(&ladder, move |_, jobs| match played(jobs, &t)? {
        Played::Done(replay, _) => Ok(replay),
        _ => Err(AppError::not_found("replay of a finished try")),
    })
    .await?;
    let text = serde_json::to_string_pretty(&*replay)? + "\n";
    let disposition = format!("attachment; filename=\"try-{id}.json\"");
    Ok((
        [(header::CONTENT_TYPE, "application/json".to_string()), (header::CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response())
}

/// `POST /garage/{game}/publish`: saves the draft and uploads it as the next version of the
/// player's bot `name` (made on its first publish), exactly as an upload.
async fn publish(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    page: Page,
    Path(game): Path<String>,
    Form(form): Form<CodeForm>,
) -> Result<Response, AppError> {
    let game = game_of(&ladder, &game)?;
    let draft = draft_of(&ladder, &me, game, &form)?;
    save_draft(&ladder, &draft).await?;
    let bytes = axum::body::Bytes::from(draft.code.clone().into_bytes());
    let file = file_name(&draft.lang);
    match super::server::accept_upload(&ladder, &me, game.name(), draft.name.trim(), &file, bytes).await {
        Ok((bot, _)) => Ok(Redirect::to(&format!("/bots/{}", bot.id)).into_response()),
        Err(e) if e.status.is_client_error() => {
            let status = e.status;
            let note = Note { message: Some(format!("not published: {}", e.message)), verdict: None };
            let html = render_garage(&ladder, &page, game, me, Some(draft), note).await?;
            Ok((status, html).into_response())
        }
        Err(e) => Err(e),
    }
}
