//! The ladder's HTTP side: the router (pages rendered on the server, the upload API), sessions,
//! CSRF, rate limits. Matches never run here: jobs go to the queue ([`JobSink`]) and worker
//! processes play them.

use std::collections::BTreeMap;
use std::sync::LazyLock;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Multipart, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use minijinja::context;
use serde::{Deserialize, Serialize};
use tower_sessions::cookie::time::Duration as CookieDuration;
use tower_sessions::cookie::SameSite;
use tower_sessions::{Expiry, Session, SessionManagerLayer};

use super::app::ser;
pub use super::app::{Ladder, Page};
use super::auth::{self, DbSessions};
use super::config::Register;
use super::db::replay_of;
use super::db::{BotRow, TokenRow, User, Version};
pub use super::error::AppError;
use super::error::ErrorMessage;
pub(crate) use super::extract::bearer;
use super::extract::{page_of, session_user, sign_in_first, Admin, ApiUser, CurrentUser};
use super::jobs::Job;
use super::views::{self, can_read};
use cardarena::bots::bot::content_hash;
use cardarena::play::games::GameId;

const STYLE: &str = include_str!("static/style.css");

/// The code editor (CodeMirror and its glue, built by scripts/build-editor.sh from ladder/editor):
/// pages load it with `<script src="/static/vendor/editor.js">` and mark the textareas it upgrades
/// with `data-editor`.
const EDITOR_JS: &str = include_str!("static/vendor/editor.js");

/// The editor's script with its ETag; too large to send again on every page, so a browser that
/// has it asks with `If-None-Match` and gets 304 Not Modified until the file changes.
async fn editor_js(headers: HeaderMap) -> Response {
    static ETAG: LazyLock<String> = LazyLock::new(|| format!("\"{}\"", content_hash(EDITOR_JS.as_bytes())));
    let etag = ETAG.as_str();
    let cached = headers
        .get_all(header::IF_NONE_MATCH)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .any(|v| v.split(',').map(str::trim).any(|t| t == "*" || t.trim_start_matches("W/") == etag));
    let headers = [(header::ETAG, etag), (header::CACHE_CONTROL, "no-cache")];
    if cached {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    (headers, [(header::CONTENT_TYPE, "text/javascript")], EDITOR_JS).into_response()
}

/// Room for a multipart form's fields and boundaries around the bot file.
pub(super) const FORM_OVERHEAD: usize = 64 * 1024;

/// Rate-limit key of a caller who is not (or not yet) known as an account: the API token, else
/// the browser session's cookie; so a class behind one address is limited person by person, not
/// as one.
pub(super) fn person_key(headers: &HeaderMap) -> String {
    if let Some(token) = bearer(headers) {
        return format!("token:{}", content_hash(token.as_bytes()));
    }
    let cookie = headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|c| c.trim().strip_prefix("id="));
    cookie.map_or_else(|| "anonymous".to_string(), |c| format!("session:{c}"))
}

/// The routes of the ladder's own pages and its upload API;
/// `super::router` adds the other modules' routes and the layers around them all.
pub(super) fn routes(ladder: &Ladder) -> Router<Ladder> {
    let config = &ladder.0.config;
    // (Uploads are rate-limited per account in `rate`.)
    let uploads = Router::new()
        .route("/upload", post(upload_form))
        .route("/api/bots", post(upload_api))
        .layer(DefaultBodyLimit::max(config.max_bytes + FORM_OVERHEAD));
    Router::new()
        .route("/", get(index))
        .route("/static/style.css", get(|| async { ([(header::CONTENT_TYPE, "text/css")], STYLE) }))
        .route("/static/vendor/editor.js", get(editor_js))
        .route(
            "/static/viewer.css",
            get(|| async { ([(header::CONTENT_TYPE, "text/css")], cardarena::replay::viewer::VIEWER_CSS) }),
        )
        .route("/login", get(login_page).post(login))
        .route("/logout", post(logout))
        .route("/register", get(register_page).post(register))
        .route("/account", get(account))
        .route("/account/tokens", post(create_token))
        .route("/account/tokens/{id}/revoke", post(revoke_token))
        .route("/account/password", post(change_password))
        .route("/upload", get(upload_page))
        .route("/board/{game}/{variant}", get(board_page))
        .route("/bots/{id}", get(bot_page))
        .route("/bots/{id}/publish", post(publish))
        .route("/bots/{id}/v/{number}/source", get(source))
        .route("/matches/{id}", get(match_page))
        .route("/matches/{id}/replay.json", get(replay_json))
        .route("/matches/{id}/capsule/{seat}", get(capsule))
        .route("/admin", get(admin))
        .route("/admin/invites", post(create_invite))
        .route("/admin/users/{id}/disable", post(disable_user))
        .route("/admin/bots/{id}/disable", post(disable_bot))
        .merge(uploads)
}

/// The sessions of every route (HttpOnly, SameSite=Lax cookies kept in the ladder database;
/// Secure when the ladder's address is https).
pub(super) fn sessions(ladder: &Ladder) -> SessionManagerLayer<DbSessions> {
    SessionManagerLayer::new(DbSessions::new(ladder.0.db.clone()))
        .with_secure(ladder.0.url.starts_with("https://"))
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_expiry(Expiry::OnInactivity(CookieDuration::days(7)))
}

async fn index(State(ladder): State<Ladder>, page: Page) -> Result<Html<String>, AppError> {
    let boards = ladder.0.config.boards.clone();
    let view = ladder.run(move |db| views::index(db, &boards)).await?;
    ladder.render(&page, "index.html", ser(&view))
}

#[derive(Deserialize)]
struct LoginForm {
    name: String,
    password: String,
}

async fn login_page(State(ladder): State<Ladder>, page: Page) -> Result<Html<String>, AppError> {
    ladder.render(&page, "login.html", context! {})
}

async fn login(
    State(ladder): State<Ladder>,
    session: Session,
    Form(form): Form<LoginForm>,
) -> Result<Response, AppError> {
    let name = form.name.clone();
    let row = ladder.run(move |db| db.login_row(&name)).await?;
    let decoy = ladder.0.decoy.clone();
    let password = form.password;
    // Unknown names, wrong passwords and disabled accounts get one answer, in the same time.
    let user = tokio::task::spawn_blocking(move || match row {
        Some((user, hash)) => (auth::verify_password(&password, &hash) && !user.disabled).then_some(user),
        None => {
            auth::verify_password(&password, &decoy);
            None
        }
    })
    .await?;
    let Some(user) = user else {
        let page = page_of(&ladder, &session).await?;
        let html = ladder.render(&page, "login.html", context! { message => "wrong name or password" })?;
        return Ok((StatusCode::UNAUTHORIZED, html).into_response());
    };
    sign_in(&ladder, &session, &user).await?;
    Ok(Redirect::to("/account").into_response())
}

async fn sign_in(ladder: &Ladder, session: &Session, user: &User) -> Result<(), AppError> {
    let id = user.id;
    let epoch = ladder.run(move |db| db.user_epoch(id)).await?.map_or(0, |(_, epoch)| epoch);
    // A new session id at sign-in (no fixation), and a new CSRF token with it.
    session.cycle_id().await?;
    session.insert("user", user.id).await?;
    session.insert("epoch", epoch).await?;
    session.insert("csrf", auth::secret()).await?;
    Ok(())
}

async fn logout(session: Session) -> Result<Redirect, AppError> {
    session.flush().await?;
    Ok(Redirect::to("/"))
}

#[derive(Deserialize)]
struct InviteQuery {
    invite: Option<String>,
}

async fn register_page(
    State(ladder): State<Ladder>,
    page: Page,
    Query(q): Query<InviteQuery>,
) -> Result<Html<String>, AppError> {
    ladder.render(&page, "register.html", context! { invite => q.invite })
}

#[derive(Deserialize)]
struct RegisterForm {
    #[serde(default)]
    invite: String,
    name: String,
    password: String,
}

async fn register(
    State(ladder): State<Ladder>,
    session: Session,
    Form(form): Form<RegisterForm>,
) -> Result<Response, AppError> {
    let again = |message: String| {
        let ladder = ladder.clone();
        let session = session.clone();
        let invite = form.invite.clone();
        async move {
            let page = page_of(&ladder, &session).await?;
            let html = ladder.render(&page, "register.html", context! { message, invite })?;
            Ok::<_, AppError>((StatusCode::UNPROCESSABLE_ENTITY, html).into_response())
        }
    };
    if let Err(e) = auth::check_name("the name", &form.name) {
        return again(e.to_string()).await;
    }
    if form.password.chars().count() < 8 || form.password.len() > 1024 {
        return again("the password must have 8 to 1024 characters".into()).await;
    }
    let invite = (!form.invite.trim().is_empty()).then(|| form.invite.trim().to_string());
    if invite.is_none() && ladder.0.config.register == Register::Invite {
        return again("this ladder needs an invite code; ask its organiser for an invite link".into()).await;
    }
    let password = form.password.clone();
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password)).await?;
    let name = form.name.clone();
    let user = ladder.run(move |db| db.register(&name, &hash, invite.as_deref())).await?;
    let Some(user) = user else {
        return again(
            "that invite code is not valid (it may have been used already) or the name is taken".into(),
        )
        .await;
    };
    sign_in(&ladder, &session, &user).await?;
    Ok(Redirect::to("/account").into_response())
}

async fn account(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    page: Page,
) -> Result<Html<String>, AppError> {
    account_page(&ladder, &me, &page, AccountNote::default()).await
}

/// What the account page says after a form: a token just made, the password form's answer.
#[derive(Default, Serialize)]
struct AccountNote {
    new_token: Option<String>,
    password_message: Option<String>,
}

/// The account page (`account.html`).
#[derive(Serialize)]
struct AccountPage {
    bots: Vec<BotRow>,
    tokens: Vec<TokenRow>,
    #[serde(flatten)]
    note: AccountNote,
}

/// The account page of `me`, with `note`.
async fn account_page(
    ladder: &Ladder,
    me: &User,
    page: &Page,
    note: AccountNote,
) -> Result<Html<String>, AppError> {
    let id = me.id;
    let (bots, tokens) = ladder
        .run(move |db| {
            let bots: Vec<BotRow> = db.bots()?.into_iter().filter(|b| b.owner == id).collect();
            Ok((bots, db.tokens(id)?))
        })
        .await?;
    ladder.render(page, "account.html", ser(&AccountPage { bots, tokens, note }))
}

/// `POST /account/tokens/{id}/revoke`: the token is deleted, so the next API call with it is
/// refused.
async fn revoke_token(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    Path(id): Path<i64>,
) -> Result<Redirect, AppError> {
    if !ladder.run(move |db| db.revoke_token(me.id, id)).await? {
        return Err(AppError::not_found("token of yours"));
    }
    Ok(Redirect::to("/account"))
}

#[derive(Deserialize)]
struct PasswordForm {
    #[serde(default)]
    current: String,
    #[serde(default)]
    password: String,
}

/// `POST /account/password`: with the current password, sets a new one and ends every other
/// session of the account (this one goes on, with a new id).
async fn change_password(
    State(ladder): State<Ladder>,
    session: Session,
    CurrentUser(me): CurrentUser,
    page: Page,
    Form(form): Form<PasswordForm>,
) -> Result<Response, AppError> {
    let again = |message: &str| {
        let (ladder, me, message) = (ladder.clone(), me.clone(), message.to_string());
        let page = &page;
        async move {
            let html = account_page(
                &ladder,
                &me,
                page,
                AccountNote { password_message: Some(message), ..Default::default() },
            )
            .await?;
            Ok::<_, AppError>((StatusCode::UNPROCESSABLE_ENTITY, html).into_response())
        }
    };
    if form.password.chars().count() < 8 || form.password.len() > 1024 {
        return again("the new password must have 8 to 1024 characters").await;
    }
    let id = me.id;
    let hash = ladder.run(move |db| db.password_hash(id)).await?.unwrap_or_default();
    let (current, new) = (form.current, form.password);
    let new_hash = tokio::task::spawn_blocking(move || {
        auth::verify_password(&current, &hash).then(|| auth::hash_password(&new))
    })
    .await?;
    let Some(new_hash) = new_hash else {
        return again("the current password is wrong").await;
    };
    ladder.run(move |db| db.set_password(id, &new_hash)).await?;
    sign_in(&ladder, &session, &me).await?;
    Ok(Redirect::to("/account").into_response())
}

#[derive(Deserialize)]
struct TokenForm {
    #[serde(default)]
    label: String,
}

async fn create_token(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    page: Page,
    Form(form): Form<TokenForm>,
) -> Result<Html<String>, AppError> {
    let label: String = form.label.chars().filter(|c| !c.is_control()).take(40).collect();
    let label = if label.trim().is_empty() { "token".to_string() } else { label };
    let id = me.id;
    let token = ladder.run(move |db| db.create_token(id, &label)).await?;
    account_page(&ladder, &me, &page, AccountNote { new_token: Some(token), ..Default::default() }).await
}

async fn upload_page(
    State(ladder): State<Ladder>,
    _: CurrentUser,
    page: Page,
) -> Result<Html<String>, AppError> {
    upload_form_page(&ladder, &page, None, &Filled::default())
}

/// What the upload form had filled in (to fill it in again when the upload is refused).
#[derive(Default)]
struct Filled {
    game: String,
    name: String,
}

/// The upload form; after a refused upload, with the reason and the fields as they were.
fn upload_form_page(
    ladder: &Ladder,
    page: &Page,
    refused: Option<&str>,
    filled: &Filled,
) -> Result<Html<String>, AppError> {
    let config = &ladder.0.config;
    let mut games: Vec<&str> = config.boards.iter().map(|b| b.game.name()).collect();
    games.dedup();
    let view = UploadPage {
        games,
        max_bytes: config.max_bytes,
        per_minute: config.uploads_per_minute.max(1),
        message: refused,
        game: &filled.game,
        name: &filled.name,
    };
    ladder.render(page, "upload.html", ser(&view))
}

/// The upload form (`upload.html`).
#[derive(Serialize)]
struct UploadPage<'a> {
    /// The games of the ladder's boards.
    games: Vec<&'a str>,
    max_bytes: usize,
    per_minute: u32,
    /// Why the last upload was refused.
    message: Option<&'a str>,
    /// The fields as they were filled in.
    game: &'a str,
    name: &'a str,
}

/// A form upload that was refused: the form again, in the ladder's layout, with the reason (and
/// the refusal's status). Errors that are not the upload's (not signed in, the server failing)
/// stay error pages.
async fn refused_upload(
    ladder: &Ladder,
    session: &Session,
    error: AppError,
    filled: &Filled,
) -> Result<Response, AppError> {
    if !error.status.is_client_error() {
        return Err(error);
    }
    if session_user(ladder, session).await?.is_none() {
        return Err(error);
    }
    let page = page_of(ladder, session).await?;
    let html = upload_form_page(ladder, &page, Some(&error.message), filled)?;
    Ok((error.status, html).into_response())
}

/// The checks every upload passes, whichever way it came: size, game, name, language; then
/// the database (new version, or 409) and the validation job.
pub(super) async fn accept_upload(
    ladder: &Ladder,
    owner: &User,
    game: &str,
    name: &str,
    file_name: &str,
    bytes: Bytes,
) -> Result<(BotRow, Version), AppError> {
    let max = ladder.0.config.max_bytes;
    if bytes.len() > max {
        return Err(too_large(max));
    }
    if bytes.is_empty() {
        return Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "the bot file is empty; choose a .lua, .js, .py, .wasm or .wat file",
        ));
    }
    let game_id: GameId = ladder
        .0
        .config
        .game(game)
        .map_err(|e: cardarena::play::games::UnknownGame| AppError::unprocessable(e.to_string()))?;
    if !ladder.0.config.has_game(game_id) {
        let on: Vec<&str> = ladder.0.config.boards.iter().map(|b| b.game.name()).collect();
        return Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{game} is not played on this ladder (it plays: {})", on.join(", ")),
        ));
    }
    auth::check_name("the bot name", name).map_err(|e| AppError::unprocessable(e.to_string()))?;
    let lang = language(file_name, &bytes).map_err(AppError::unprocessable)?;
    let (owner_id, game, name) = (owner.id, game_id.name().to_string(), name.to_string());
    let db = ladder.0.db.clone();
    let (bot, version) =
        tokio::task::spawn_blocking(move || db.upload(owner_id, &game, &name, lang, &bytes)).await??;
    let (queued, id) = (ladder.clone(), version.id);
    tokio::task::spawn_blocking(move || queued.enqueue(&[Job::Validate { version: id }])).await?.map_err(
        |e| {
            AppError::internal(format!(
                "the upload is stored as v{} but its validation could not be queued: {e}",
                version.number
            ))
        },
    )?;
    Ok((bot, version))
}

pub(super) fn too_large(max: usize) -> AppError {
    AppError::new(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the bot file is larger than this ladder's limit of {max} bytes ([upload] max_bytes in ladder.toml)"),
    )
}

/// The bot's language: WASM by its magic bytes (`\0asm`), WASM text by the `.wat` extension
/// (kept as text: the sandbox compiles it when it loads, as it does for `arena check` and
/// `arena play`), JavaScript by `.js`, Lua by the `.lua` extension (or, with no extension, text). Anything else is
/// refused with what is accepted.
fn language(file_name: &str, bytes: &[u8]) -> Result<&'static str, String> {
    let ext =
        std::path::Path::new(file_name).extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    if bytes.starts_with(b"\0asm") {
        return match ext.as_deref() {
            None | Some("wasm") => Ok("wasm"),
            Some(other) => Err(format!("the file is a WASM module but is named .{other}; name it .wasm")),
        };
    }
    match ext.as_deref() {
        Some("wasm") => Err(
            "the .wasm file is not a WASM module (it does not start with \\0asm); upload the compiled module"
                .into(),
        ),
        Some("wat") if std::str::from_utf8(bytes).is_ok() => Ok("wat"),
        Some("wat") => Err("the .wat file is not UTF-8 text; save it as UTF-8".into()),
        Some("js") if std::str::from_utf8(bytes).is_ok() => Ok("js"),
        Some("js") => Err("the JavaScript file is not UTF-8 text; save it as UTF-8".into()),
        Some("py") if std::str::from_utf8(bytes).is_ok() => Ok("py"),
        Some("py") => Err("the Python file is not UTF-8 text; save it as UTF-8".into()),
        Some("lua") | None if std::str::from_utf8(bytes).is_ok() => Ok("lua"),
        Some("lua") | None => Err("the Lua file is not UTF-8 text; save it as UTF-8".into()),
        Some(other) => Err(format!(
            "a bot is a .lua, .js or .py script, a .wasm module or a .wat (WebAssembly text) module, not .{other}"
        )),
    }
}

fn multipart_error(e: axum::extract::multipart::MultipartError, max: usize) -> AppError {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        too_large(max)
    } else {
        AppError::new(
            StatusCode::BAD_REQUEST,
            format!("the upload form could not be read: {}", e.body_text()),
        )
    }
}

async fn upload_form(
    State(ladder): State<Ladder>,
    session: Session,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
) -> Result<Response, AppError> {
    let mut filled = Filled::default();
    match take_upload_form(&ladder, &session, multipart, &mut filled).await {
        Ok(bot) => Ok(Redirect::to(&format!("/bots/{}", bot.id)).into_response()),
        Err(e) => refused_upload(&ladder, &session, e, &filled).await,
    }
}

/// The upload form's answer when a layer inside this one refuses the upload before its
/// handler reads it (the rate limit, `rate::limit`; the CSRF check or the body limit,
/// `harden::csrf_first`): the form again with the refusal's message (and `Retry-After`).
pub(super) async fn form_refused_early(
    State(ladder): State<Ladder>,
    session: Session,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let form = req.method() == axum::http::Method::POST && req.uri().path() == "/upload";
    let answer = next.run(req).await;
    // An error answer (the handler's own refusals are the form page already).
    let refused = answer.status().is_client_error() && answer.extensions().get::<ErrorMessage>().is_some();
    if !form || !refused {
        return answer;
    }
    let retry = answer.headers().get(header::RETRY_AFTER).cloned();
    let message = answer
        .extensions()
        .get::<ErrorMessage>()
        .map_or_else(|| "too many uploads; try again in a minute".to_string(), |m| m.0.clone());
    let error = AppError::new(answer.status(), message);
    let mut page = match refused_upload(&ladder, &session, error, &Filled::default()).await {
        Ok(page) => page,
        Err(e) => e.into_response(),
    };
    if let Some(retry) = retry {
        page.headers_mut().insert(header::RETRY_AFTER, retry);
    }
    page
}

/// Reads the upload form (noting its fields in `filled` as they come) and takes the upload in.
async fn take_upload_form(
    ladder: &Ladder,
    session: &Session,
    multipart: Result<Multipart, axum::extract::multipart::MultipartRejection>,
    filled: &mut Filled,
) -> Result<BotRow, AppError> {
    let max = ladder.0.config.max_bytes;
    let mut multipart = multipart.map_err(|e| {
        AppError::new(e.status(), format!("send the upload form as multipart/form-data: {}", e.body_text()))
    })?;
    let mut fields: BTreeMap<String, String> = BTreeMap::new();
    let mut file: Option<(String, Bytes)> = None;
    while let Some(field) = multipart.next_field().await.map_err(|e| multipart_error(e, max))? {
        let name = field.name().unwrap_or_default().to_string();
        if name == "file" {
            let file_name = field.file_name().unwrap_or_default().to_string();
            let bytes = field.bytes().await.map_err(|e| multipart_error(e, max))?;
            file = Some((file_name, bytes));
        } else {
            let text = field.text().await.map_err(|e| multipart_error(e, max))?;
            match name.as_str() {
                "game" => filled.game.clone_from(&text),
                "name" => filled.name.clone_from(&text),
                _ => {}
            }
            fields.insert(name, text);
        }
    }
    let me = session_user(ladder, session).await?.ok_or_else(sign_in_first)?;
    let (file_name, bytes) = file.ok_or_else(|| {
        AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "the form has no file; choose a .lua, .js, .py, .wasm or .wat file",
        )
    })?;
    let (bot, _) = accept_upload(ladder, &me, &filled.game, &filled.name, &file_name, bytes).await?;
    Ok(bot)
}

#[derive(Deserialize)]
struct ApiUpload {
    game: String,
    name: Option<String>,
    file: Option<String>,
}

/// `POST /api/bots?game=G&name=N&file=F` with the file as the body and a Bearer token: what
/// `arena submit` sends. Answers JSON.
async fn upload_api(
    State(ladder): State<Ladder>,
    ApiUser(me): ApiUser,
    query: Result<Query<ApiUpload>, axum::extract::rejection::QueryRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, AppError> {
    let max = ladder.0.config.max_bytes;
    let Query(q) = query.map_err(|e| {
        AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{}; send ?game=GAME&name=NAME&file=FILE", e.body_text()),
        )
        .json()
    })?;
    let bytes = body.map_err(|e| {
        if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
            too_large(max).json()
        } else {
            AppError::new(e.status(), e.body_text()).json()
        }
    })?;
    let file = q.file.unwrap_or_default();
    let name = q.name.unwrap_or_else(|| {
        std::path::Path::new(&file).file_stem().and_then(|s| s.to_str()).unwrap_or_default().to_string()
    });
    let (bot, version) =
        accept_upload(&ladder, &me, &q.game, &name, &file, bytes).await.map_err(AppError::json)?;
    let body = serde_json::json!({
        "bot": bot.name,
        "game": bot.game,
        "version": version.number,
        "hash": version.hash,
        "state": version.state,
        "page": format!("{}/bots/{}", ladder.0.url, bot.id),
    });
    Ok((StatusCode::CREATED, Json(body)).into_response())
}

async fn board_page(
    State(ladder): State<Ladder>,
    page: Page,
    Path((game, variant)): Path<(String, String)>,
) -> Result<Html<String>, AppError> {
    let board = ladder.board(&game, &variant).ok_or_else(|| AppError::not_found("leaderboard"))?;
    let jobs = ladder.0.jobs.clone();
    let view = ladder.run(move |db| views::board_page(db, &jobs, &board)).await?;
    ladder.render(&page, "board.html", ser(&view))
}

async fn bot_page(
    State(ladder): State<Ladder>,
    page: Page,
    Path(id): Path<i64>,
) -> Result<Html<String>, AppError> {
    let (me, boards, jobs) = (page.me.clone(), ladder.0.config.boards.clone(), ladder.0.jobs.clone());
    let view = ladder
        .run(move |db| views::bot_page(db, &jobs, &boards, id, me.as_ref()))
        .await?
        .ok_or_else(|| AppError::not_found("bot"))?;
    ladder.render(&page, "bot.html", ser(&view))
}

#[derive(Deserialize)]
struct FlagForm {
    #[serde(default)]
    published: bool,
    #[serde(default)]
    disabled: bool,
}

async fn publish(
    State(ladder): State<Ladder>,
    CurrentUser(me): CurrentUser,
    Path(id): Path<i64>,
    Form(form): Form<FlagForm>,
) -> Result<Redirect, AppError> {
    let bot = ladder.run(move |db| db.bot(id)).await?.ok_or_else(|| AppError::not_found("bot"))?;
    if bot.owner != me.id {
        return Err(AppError::forbidden("only the bot's owner may publish or hide its source"));
    }
    ladder.run(move |db| db.set_bot_published(id, form.published)).await?;
    Ok(Redirect::to(&format!("/bots/{id}")))
}

async fn source(
    State(ladder): State<Ladder>,
    Page { me, .. }: Page,
    Path((id, number)): Path<(i64, i64)>,
) -> Result<Response, AppError> {
    let found = ladder
        .run(move |db| {
            let Some(bot) = db.bot(id)? else { return Ok(None) };
            let Some(v) = db.versions(id)?.into_iter().find(|v| v.number == number) else { return Ok(None) };
            let bytes = db.file(&v.hash)?;
            Ok(bytes.map(|b| (bot, v, b)))
        })
        .await?;
    let (bot, v, bytes) = found.ok_or_else(|| AppError::not_found("bot version"))?;
    if !can_read(me.as_ref(), &bot) {
        return Err(AppError::forbidden(
            "this bot's source is private: only its owner may read it, unless they publish it",
        ));
    }
    let kind = if v.lang == "wasm" { "application/wasm" } else { "text/plain; charset=utf-8" };
    // Named as the replays name it (`<bot>@v<N>.<lang>`): saved beside a match's replay, the
    // file is found by `arena replay --verify` as it is.
    let disposition = format!("inline; filename=\"{}\"", super::jobs::label(&bot.name, &v));
    Ok(([(header::CONTENT_TYPE, kind.to_string()), (header::CONTENT_DISPOSITION, disposition)], bytes)
        .into_response())
}

#[derive(Deserialize)]
struct MatchQuery {
    /// The seat whose analysis to show.
    analysis: Option<String>,
}

/// `GET /matches/{id}[?analysis=SEAT]`: the match, with that seat's analysis (or that it is
/// pending).
async fn match_page(
    State(ladder): State<Ladder>,
    page: Page,
    Path(id): Path<i64>,
    Query(q): Query<MatchQuery>,
) -> Result<Html<String>, AppError> {
    let me = page.me.clone();
    let games = ladder.0.config.games.clone();
    let players = |game: &str| games.get(game).map_or(0, |g| g.id().players());
    let shown = match q.analysis.as_deref() {
        None => None,
        Some(text) => {
            let (m, _) =
                ladder.run(move |db| db.match_row(id)).await?.ok_or_else(|| AppError::not_found("match"))?;
            let seat = super::analysis::seat_of(text, players(&m.game))
                .map_err(|e| AppError::new(StatusCode::NOT_FOUND, e))?;
            Some(seat)
        }
    };
    let games = ladder.0.config.games.clone();
    let view = ladder
        .run(move |db| views::match_page(db, &games, id, me.as_ref(), shown))
        .await?
        .ok_or_else(|| AppError::not_found("match"))?;
    ladder.render(&page, "match.html", ser(&view))
}

async fn stored_replay(ladder: &Ladder, id: i64) -> Result<cardarena::play::runner::Replay, AppError> {
    let (_, blob) =
        ladder.run(move |db| db.match_row(id)).await?.ok_or_else(|| AppError::not_found("match"))?;
    replay_of(&blob).ok_or_else(|| AppError::internal(format!("match {id}: the stored replay is damaged")))
}

async fn replay_json(State(ladder): State<Ladder>, Path(id): Path<i64>) -> Result<Response, AppError> {
    let replay = stored_replay(&ladder, id).await?;
    let text = serde_json::to_string_pretty(&replay)? + "\n";
    let disposition = format!("attachment; filename=\"match-{id}.json\"");
    Ok((
        [(header::CONTENT_TYPE, "application/json".to_string()), (header::CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response())
}

async fn capsule(
    State(ladder): State<Ladder>,
    Path((id, seat)): Path<(i64, usize)>,
) -> Result<Response, AppError> {
    let replay = stored_replay(&ladder, id).await?;
    let games = ladder.0.config.games.clone();
    let capsules =
        tokio::task::spawn_blocking(move || games.get(&replay.game)?.capsules(&replay, None)).await??;
    let c = capsules
        .into_iter()
        .find(|c| c.seat == seat)
        .ok_or_else(|| AppError::not_found("fault at that seat"))?;
    let (text, _) = cardarena::play::capsule::encode(&c);
    let disposition = format!("attachment; filename=\"match-{id}-seat{seat}.json\"");
    Ok((
        [(header::CONTENT_TYPE, "application/json".to_string()), (header::CONTENT_DISPOSITION, disposition)],
        text,
    )
        .into_response())
}

async fn admin(State(ladder): State<Ladder>, _: Admin, page: Page) -> Result<Html<String>, AppError> {
    admin_with(&ladder, &page, None).await
}

async fn admin_with(
    ladder: &Ladder,
    page: &Page,
    invite_link: Option<String>,
) -> Result<Html<String>, AppError> {
    let (users, bots) = ladder.run(|db| Ok((db.users()?, db.bots()?))).await?;
    ladder.render(page, "admin.html", ser(&AdminPage { users, bots, invite_link }))
}

/// The admin page (`admin.html`): every account and bot, and an invite just made.
#[derive(Serialize)]
struct AdminPage {
    users: Vec<User>,
    bots: Vec<BotRow>,
    invite_link: Option<String>,
}

#[derive(Deserialize)]
struct InviteForm {
    #[serde(default)]
    admin: bool,
}

async fn create_invite(
    State(ladder): State<Ladder>,
    Admin(me): Admin,
    page: Page,
    Form(form): Form<InviteForm>,
) -> Result<Html<String>, AppError> {
    let code = ladder.run(move |db| db.create_invite(me.id, form.admin)).await?;
    let link = invite_link(&ladder.0.url, &code);
    admin_with(&ladder, &page, Some(link)).await
}

/// The register page's address with an invite code filled in.
pub fn invite_link(url: &str, code: &str) -> String {
    format!("{}/register?invite={code}", url.trim_end_matches('/'))
}

async fn disable_user(
    State(ladder): State<Ladder>,
    Admin(me): Admin,
    Path(id): Path<i64>,
    Form(form): Form<FlagForm>,
) -> Result<Redirect, AppError> {
    if me.id == id {
        return Err(AppError::unprocessable("an admin cannot disable their own account"));
    }
    if !ladder.run(move |db| db.set_user_disabled(id, form.disabled)).await? {
        return Err(AppError::not_found("user"));
    }
    Ok(Redirect::to("/admin"))
}

async fn disable_bot(
    State(ladder): State<Ladder>,
    _: Admin,
    Path(id): Path<i64>,
    Form(form): Form<FlagForm>,
) -> Result<Redirect, AppError> {
    if !ladder.run(move |db| db.set_bot_disabled(id, form.disabled)).await? {
        return Err(AppError::not_found("bot"));
    }
    Ok(Redirect::to("/admin"))
}

#[cfg(test)]
mod tests {
    use super::language;

    #[test]
    fn language_from_magic_bytes_and_extension() {
        assert_eq!(language("bot.wasm", b"\0asm\x01\0\0\0"), Ok("wasm"));
        assert_eq!(language("bot", b"\0asm\x01\0\0\0"), Ok("wasm"));
        assert_eq!(language("bot.lua", b"function act(o) end"), Ok("lua"));
        assert_eq!(language("", b"function act(o) end"), Ok("lua"));
        assert_eq!(language("bot.js", b"function act(o) { return o.legal[0]; }"), Ok("js"));
        assert_eq!(language("bot.py", b"def act(obs):\n    return obs['legal'][0]\n"), Ok("py"));
        assert!(language("bot.js", b"\xff\xfe").unwrap_err().contains("UTF-8"));
        assert!(language("bot.wasm", b"function act(o) end").unwrap_err().contains("not a WASM module"));
        assert!(language("bot.lua", b"\0asm\x01\0\0\0").unwrap_err().contains("name it .wasm"));
        assert!(language("bot.rb", b"puts 1").unwrap_err().contains("not .rb"));
        assert!(language("bot.lua", b"\xff\xfe").unwrap_err().contains("UTF-8"));
        assert_eq!(language("bot.wat", b"(module)"), Ok("wat"));
        assert_eq!(language("bot.WAT", b"(module)"), Ok("wat"));
        assert!(language("bot.wat", b"\0asm\x01\0\0\0").unwrap_err().contains("name it .wasm"));
        assert!(language("bot.wat", b"\xff\xfe").unwrap_err().contains("UTF-8"));
    }
}
