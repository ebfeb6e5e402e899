//! The ladder's HTTP side: the router (pages rendered on the server, the upload API), sessions,
//! CSRF, rate limits. Matches never run here: jobs go to the queue ([`JobSink`]) and worker
//! processes play them.

use std::collections::BTreeMap;
use std::sync::Arc;

use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, Multipart, Path, Query, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{Html, IntoResponse, Redirect, Response};
use axum::routing::{get, post};
use axum::{Form, Json, Router};
use minijinja::{context, Environment, Value};
use serde::Deserialize;
use tower_sessions::cookie::time::Duration as CookieDuration;
use tower_sessions::cookie::SameSite;
use tower_sessions::{Expiry, Session, SessionManagerLayer};

use super::auth::{self, SqliteSessions};
use super::board;
use super::config::{Board, LadderConfig, Register};
use super::db::{BotRow, Db, DbError, UploadRefused, User, Version};
use super::jobs::{Check, Job, Jobs};
use cardarena::bots::bot::content_hash;
use cardarena::play::games::GameId;
use cardarena::tournament::{fault_site, MatchResult, MatchSummary};

pub(super) struct Inner {
    pub(super) db: Arc<Db>,
    pub(super) config: LadderConfig,
    env: Environment<'static>,
    decoy: String,
    pub(super) jobs: Arc<Jobs>,
    pub(super) url: String,
}

/// The server's shared state.
#[derive(Clone)]
pub struct Ladder(pub(super) Arc<Inner>);

const TEMPLATES: [(&str, &str); 16] = [
    ("base.html", include_str!("templates/base.html")),
    ("error.html", include_str!("templates/error.html")),
    ("index.html", include_str!("templates/index.html")),
    ("login.html", include_str!("templates/login.html")),
    ("register.html", include_str!("templates/register.html")),
    ("account.html", include_str!("templates/account.html")),
    ("upload.html", include_str!("templates/upload.html")),
    ("board.html", include_str!("templates/board.html")),
    ("bot.html", include_str!("templates/bot.html")),
    ("match.html", include_str!("templates/match.html")),
    ("admin.html", include_str!("templates/admin.html")),
    ("play.html", include_str!("templates/play.html")),
    ("play_game.html", include_str!("templates/play_game.html")),
    ("class_admin.html", include_str!("templates/class_admin.html")),
    ("class_list.html", include_str!("templates/class_list.html")),
    ("class_event.html", include_str!("templates/class_event.html")),
];

const STYLE: &str = include_str!("static/style.css");

/// Room for a multipart form's fields and boundaries around the bot file.
pub(super) const FORM_OVERHEAD: usize = 64 * 1024;

impl Ladder {
    /// The state of a ladder on `db` with `config`, sending jobs to `jobs`; `url` is how people
    /// reach it (for invite links and the `arena submit` hint).
    pub fn new(db: Arc<Db>, config: LadderConfig, jobs: Arc<Jobs>, url: &str) -> Ladder {
        let mut env = Environment::new();
        for (name, text) in TEMPLATES {
            env.add_template(name, text).expect("the ladder's templates parse");
        }
        // Checked against at a login for an unknown name (no enumeration by timing).
        let decoy = auth::hash_password(&auth::secret());
        Ladder(Arc::new(Inner { db, config, env, decoy, jobs, url: url.trim_end_matches('/').to_string() }))
    }

    /// Queues a job (matchmaking's, or a validation).
    ///
    /// # Errors
    /// The queue cannot be written.
    pub fn enqueue(&self, jobs: &[Job]) -> Result<(), String> {
        self.0.jobs.enqueue(&self.0.db, jobs).map_err(|e| e.to_string())
    }

    /// Takes in the finished jobs (see [`Jobs::collect`]).
    ///
    /// # Errors
    /// The queue or the database failed.
    pub fn collect(&self) -> Result<usize, String> {
        self.0.jobs.collect(&self.0.db).map_err(|e| e.to_string())
    }

    /// Runs a database call off the async threads.
    pub(super) async fn run<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Db) -> Result<T, DbError> + Send + 'static,
    ) -> Result<T, AppError> {
        let db = self.0.db.clone();
        tokio::task::spawn_blocking(move || f(&db))
            .await
            .map_err(|e| AppError::internal(e.to_string()))?
            .map_err(|e| AppError::internal(e.to_string()))
    }

    pub(super) fn render(&self, page: &Page, name: &str, ctx: Value) -> Result<Html<String>, AppError> {
        let site = context! {
            title => &self.0.config.title,
            version => env!("CARGO_PKG_VERSION"),
            open => self.0.config.register == Register::Open,
            url => &self.0.url,
        };
        let base = context! { site, me => ser(&page.me), csrf => &page.csrf };
        let template = self.0.env.get_template(name).map_err(|e| AppError::internal(e.to_string()))?;
        template
            .render(context! { ..ctx, ..base })
            .map(Html)
            .map_err(|e| AppError::internal(format!("{e:#}")))
    }

    /// The ladder's database, configuration and jobs (for the pages of sibling modules).
    pub(super) fn parts(&self) -> (&Arc<Db>, &LadderConfig, &Arc<Jobs>) {
        (&self.0.db, &self.0.config, &self.0.jobs)
    }

    pub(super) fn board(&self, game: &str, variant: &str) -> Option<Board> {
        let game: GameId = game.parse().ok()?;
        self.0.config.boards_of(game).find(|b| b.variant == variant).cloned()
    }
}

/// A serializable value for a template.
pub(super) fn ser<T: serde::Serialize>(value: &T) -> Value {
    Value::from(minijinja::value::Serde(value))
}

/// An error answer: its status and a message that says what to do. API routes answer JSON
/// (`{"error": ...}`), pages a small HTML page.
#[derive(Debug)]
pub struct AppError {
    status: StatusCode,
    message: String,
    json: bool,
}

impl AppError {
    pub(super) fn new(status: StatusCode, message: impl Into<String>) -> AppError {
        AppError { status, message: message.into(), json: false }
    }

    pub(super) fn internal(message: String) -> AppError {
        AppError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the server failed: {message}"))
    }

    pub(super) fn json(mut self) -> AppError {
        self.json = true;
        self
    }

    pub(super) fn not_found(what: &str) -> AppError {
        AppError::new(StatusCode::NOT_FOUND, format!("no such {what}"))
    }
}

impl IntoResponse for AppError {
    fn into_response(self) -> Response {
        if self.json {
            return (self.status, Json(serde_json::json!({ "error": self.message }))).into_response();
        }
        let escaped = minijinja::HtmlEscape(&self.message).to_string();
        let message = ErrorMessage(self.message);
        let body = format!(
            "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\"><title>{0}</title>\
             <link rel=\"icon\" href=\"data:,\"><link rel=\"stylesheet\" href=\"/static/style.css\"></head><body><main><h1>{0}</h1>\
             <p class=\"error\">{escaped}</p><p><a href=\"/\">Back to the ladder</a></p></main></body></html>",
            self.status
        );
        // `harden::error_pages` shows the message in the ladder's layout.
        (self.status, axum::Extension(message), Html(body)).into_response()
    }
}

/// The message of an error page, for `harden::error_pages` to show in the ladder's layout.
#[derive(Clone, Debug)]
pub(super) struct ErrorMessage(pub(super) String);

/// Who is asking, and the session's CSRF token for the page's forms.
pub(super) struct Page {
    pub(super) me: Option<User>,
    pub(super) csrf: String,
}

/// The session's CSRF token (made on first use).
async fn csrf_token(session: &Session) -> Result<String, AppError> {
    if let Some(t) = session.get::<String>("csrf").await.map_err(|e| AppError::internal(e.to_string()))? {
        return Ok(t);
    }
    let t = auth::secret();
    session.insert("csrf", &t).await.map_err(|e| AppError::internal(e.to_string()))?;
    Ok(t)
}

/// Refuses a form whose CSRF token is not the session's.
pub(super) async fn check_csrf(session: &Session, given: &str) -> Result<(), AppError> {
    let expected = session.get::<String>("csrf").await.map_err(|e| AppError::internal(e.to_string()))?;
    match expected {
        Some(t) if !given.is_empty() && t == given => Ok(()),
        _ => Err(AppError::new(
            StatusCode::FORBIDDEN,
            "the form's security token is missing or out of date; reload the page and submit it again",
        )),
    }
}

pub(super) async fn page(ladder: &Ladder, session: &Session) -> Result<Page, AppError> {
    let me = session_user(ladder, session).await?;
    Ok(Page { me, csrf: csrf_token(session).await? })
}

/// The session's account, unless it is disabled or its sessions were ended since this one
/// began (the session's epoch is older than the account's; sessions of older versions have none,
/// which is 0).
async fn session_user(ladder: &Ladder, session: &Session) -> Result<Option<User>, AppError> {
    let e = |e: tower_sessions::session::Error| AppError::internal(e.to_string());
    let Some(id) = session.get::<i64>("user").await.map_err(e)? else {
        return Ok(None);
    };
    let epoch = session.get::<i64>("epoch").await.map_err(e)?.unwrap_or(0);
    let found = ladder.run(move |db| db.user_epoch(id)).await?;
    Ok(found.filter(|(u, now)| !u.disabled && *now == epoch).map(|(u, _)| u))
}

pub(super) fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ").map(str::trim)
}

async fn token_user(ladder: &Ladder, headers: &HeaderMap) -> Result<User, AppError> {
    let unauthorized = || {
        AppError::new(
            StatusCode::UNAUTHORIZED,
            "no valid API token: make one on your account page and send it as `Authorization: Bearer TOKEN` (arena submit reads ARENA_TOKEN)",
        )
        .json()
    };
    let token = bearer(headers).ok_or_else(unauthorized)?.to_string();
    ladder.run(move |db| db.token_user(&token)).await?.filter(|u| !u.disabled).ok_or_else(unauthorized)
}

pub(super) async fn require_user(ladder: &Ladder, session: &Session) -> Result<User, AppError> {
    session_user(ladder, session)
        .await?
        .ok_or_else(|| AppError::new(StatusCode::UNAUTHORIZED, "sign in first (the Sign in link at the top)"))
}

pub(super) async fn require_admin(ladder: &Ladder, session: &Session) -> Result<User, AppError> {
    let me = require_user(ladder, session).await?;
    if me.admin {
        Ok(me)
    } else {
        Err(AppError::new(StatusCode::FORBIDDEN, "only an admin may do this"))
    }
}

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
pub(super) fn sessions(ladder: &Ladder) -> SessionManagerLayer<SqliteSessions> {
    SessionManagerLayer::new(SqliteSessions::new(ladder.0.db.clone()))
        .with_secure(ladder.0.url.starts_with("https://"))
        .with_http_only(true)
        .with_same_site(SameSite::Lax)
        .with_expiry(Expiry::OnInactivity(CookieDuration::days(7)))
}

async fn index(State(ladder): State<Ladder>, session: Session) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    let boards = ladder.0.config.boards.clone();
    let rows = ladder
        .run(move |db| {
            boards
                .iter()
                .map(|b| {
                    let matches = db.board_matches(b.game.name(), &b.variant)?.len();
                    let bots = db.players(b.game.name())?.len();
                    Ok(context! { game => b.game.name(), variant => &b.variant, matches, bots })
                })
                .collect::<Result<Vec<_>, DbError>>()
        })
        .await?;
    ladder.render(&page, "index.html", context! { boards => rows })
}

#[derive(Deserialize)]
struct LoginForm {
    #[serde(default)]
    csrf: String,
    name: String,
    password: String,
}

async fn login_page(State(ladder): State<Ladder>, session: Session) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    ladder.render(&page, "login.html", context! {})
}

async fn login(
    State(ladder): State<Ladder>,
    session: Session,
    Form(form): Form<LoginForm>,
) -> Result<Response, AppError> {
    check_csrf(&session, &form.csrf).await?;
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
    .await
    .map_err(|e| AppError::internal(e.to_string()))?;
    let Some(user) = user else {
        let page = page(&ladder, &session).await?;
        let html = ladder.render(&page, "login.html", context! { message => "wrong name or password" })?;
        return Ok((StatusCode::UNAUTHORIZED, html).into_response());
    };
    sign_in(&ladder, &session, &user).await?;
    Ok(Redirect::to("/account").into_response())
}

async fn sign_in(ladder: &Ladder, session: &Session, user: &User) -> Result<(), AppError> {
    let e = |e: tower_sessions::session::Error| AppError::internal(e.to_string());
    let id = user.id;
    let epoch = ladder.run(move |db| db.user_epoch(id)).await?.map_or(0, |(_, epoch)| epoch);
    // A new session id at sign-in (no fixation), and a new CSRF token with it.
    session.cycle_id().await.map_err(e)?;
    session.insert("user", user.id).await.map_err(e)?;
    session.insert("epoch", epoch).await.map_err(e)?;
    session.insert("csrf", auth::secret()).await.map_err(e)?;
    Ok(())
}

#[derive(Deserialize)]
struct CsrfForm {
    #[serde(default)]
    csrf: String,
}

async fn logout(session: Session, Form(form): Form<CsrfForm>) -> Result<Redirect, AppError> {
    check_csrf(&session, &form.csrf).await?;
    session.flush().await.map_err(|e| AppError::internal(e.to_string()))?;
    Ok(Redirect::to("/"))
}

#[derive(Deserialize)]
struct InviteQuery {
    invite: Option<String>,
}

async fn register_page(
    State(ladder): State<Ladder>,
    session: Session,
    Query(q): Query<InviteQuery>,
) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    ladder.render(&page, "register.html", context! { invite => q.invite })
}

#[derive(Deserialize)]
struct RegisterForm {
    #[serde(default)]
    csrf: String,
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
    check_csrf(&session, &form.csrf).await?;
    let again = |message: String| {
        let ladder = ladder.clone();
        let session = session.clone();
        let invite = form.invite.clone();
        async move {
            let page = page(&ladder, &session).await?;
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
    let hash = tokio::task::spawn_blocking(move || auth::hash_password(&password))
        .await
        .map_err(|e| AppError::internal(e.to_string()))?;
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

async fn account(State(ladder): State<Ladder>, session: Session) -> Result<Html<String>, AppError> {
    account_with(&ladder, &session, None).await
}

async fn account_with(
    ladder: &Ladder,
    session: &Session,
    new_token: Option<String>,
) -> Result<Html<String>, AppError> {
    account_page(ladder, session, context! { new_token }).await
}

/// The account page with `extra` in its context (a new token, the password form's answer).
async fn account_page(ladder: &Ladder, session: &Session, extra: Value) -> Result<Html<String>, AppError> {
    let me = require_user(ladder, session).await?;
    let page = Page { me: Some(me.clone()), csrf: csrf_token(session).await? };
    let id = me.id;
    let (bots, tokens) = ladder
        .run(move |db| {
            let bots: Vec<BotRow> = db.bots()?.into_iter().filter(|b| b.owner == id).collect();
            Ok((bots, db.tokens(id)?))
        })
        .await?;
    ladder.render(&page, "account.html", context! { bots => ser(&bots), tokens => ser(&tokens), ..extra })
}

#[derive(Deserialize)]
struct RevokeForm {
    #[serde(default)]
    csrf: String,
}

/// `POST /account/tokens/{id}/revoke`: the token is deleted, so the next API call with it is
/// refused.
async fn revoke_token(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
    Form(form): Form<RevokeForm>,
) -> Result<Redirect, AppError> {
    check_csrf(&session, &form.csrf).await?;
    let me = require_user(&ladder, &session).await?;
    if !ladder.run(move |db| db.revoke_token(me.id, id)).await? {
        return Err(AppError::not_found("token of yours"));
    }
    Ok(Redirect::to("/account"))
}

#[derive(Deserialize)]
struct PasswordForm {
    #[serde(default)]
    csrf: String,
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
    Form(form): Form<PasswordForm>,
) -> Result<Response, AppError> {
    check_csrf(&session, &form.csrf).await?;
    let me = require_user(&ladder, &session).await?;
    let again = |message: &str| {
        let (ladder, session, message) = (ladder.clone(), session.clone(), message.to_string());
        async move {
            let html = account_page(&ladder, &session, context! { password_message => message }).await?;
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
    .await
    .map_err(|e| AppError::internal(e.to_string()))?;
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
    csrf: String,
    #[serde(default)]
    label: String,
}

async fn create_token(
    State(ladder): State<Ladder>,
    session: Session,
    Form(form): Form<TokenForm>,
) -> Result<Html<String>, AppError> {
    check_csrf(&session, &form.csrf).await?;
    let me = require_user(&ladder, &session).await?;
    let label: String = form.label.chars().filter(|c| !c.is_control()).take(40).collect();
    let label = if label.trim().is_empty() { "token".to_string() } else { label };
    let token = ladder.run(move |db| db.create_token(me.id, &label)).await?;
    account_with(&ladder, &session, Some(token)).await
}

async fn upload_page(State(ladder): State<Ladder>, session: Session) -> Result<Html<String>, AppError> {
    let me = require_user(&ladder, &session).await?;
    let page = Page { me: Some(me), csrf: csrf_token(&session).await? };
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
    ladder.render(
        page,
        "upload.html",
        context! {
            games,
            max_bytes => config.max_bytes,
            per_minute => config.uploads_per_minute.max(1),
            message => refused,
            game => &filled.game,
            name => &filled.name,
        },
    )
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
    let Some(me) = session_user(ladder, session).await? else { return Err(error) };
    let page = Page { me: Some(me), csrf: csrf_token(session).await? };
    let html = upload_form_page(ladder, &page, Some(&error.message), filled)?;
    Ok((error.status, html).into_response())
}

/// The checks every upload passes, whichever way it came: size, game, name, language; then
/// the database (new version, or 409) and the validation job.
async fn accept_upload(
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
    let game_id: GameId = game.parse().map_err(|e: cardarena::play::games::UnknownGame| {
        AppError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string())
    })?;
    if !ladder.0.config.has_game(game_id) {
        let on: Vec<&str> = ladder.0.config.boards.iter().map(|b| b.game.name()).collect();
        return Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            format!("{game} is not played on this ladder (it plays: {})", on.join(", ")),
        ));
    }
    auth::check_name("the bot name", name)
        .map_err(|e| AppError::new(StatusCode::UNPROCESSABLE_ENTITY, e.to_string()))?;
    let lang = language(file_name, &bytes).map_err(|m| AppError::new(StatusCode::UNPROCESSABLE_ENTITY, m))?;
    let (owner_id, game, name) = (owner.id, game_id.name().to_string(), name.to_string());
    let db = ladder.0.db.clone();
    let stored = tokio::task::spawn_blocking(move || db.upload(owner_id, &game, &name, lang, &bytes))
        .await
        .map_err(|e| AppError::internal(e.to_string()))?;
    let (bot, version) = stored.map_err(|e| match e {
        UploadRefused::Identical(_) | UploadRefused::NameTaken(..) => {
            AppError::new(StatusCode::CONFLICT, e.to_string())
        }
        UploadRefused::Disabled(_) => AppError::new(StatusCode::FORBIDDEN, e.to_string()),
        UploadRefused::Db(e) => AppError::internal(e.to_string()),
    })?;
    let (queued, id) = (ladder.clone(), version.id);
    tokio::task::spawn_blocking(move || queued.enqueue(&[Job::Validate { version: id }]))
        .await
        .map_err(|e| AppError::internal(e.to_string()))?
        .map_err(|e| {
            AppError::internal(format!(
                "the upload is stored as v{} but its validation could not be queued: {e}",
                version.number
            ))
        })?;
    Ok((bot, version))
}

fn too_large(max: usize) -> AppError {
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

/// The upload form's answer when the upload limit (`rate::limit`, the layer inside this one)
/// holds it back: the form again with the limiter's message and `Retry-After`.
pub(super) async fn form_over_the_limit(
    State(ladder): State<Ladder>,
    session: Session,
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> Response {
    let form = req.method() == axum::http::Method::POST && req.uri().path() == "/upload";
    let answer = next.run(req).await;
    if !form || answer.status() != StatusCode::TOO_MANY_REQUESTS {
        return answer;
    }
    let retry = answer.headers().get(header::RETRY_AFTER).cloned();
    let message = answer
        .extensions()
        .get::<ErrorMessage>()
        .map_or_else(|| "too many uploads; try again in a minute".to_string(), |m| m.0.clone());
    let error = AppError::new(StatusCode::TOO_MANY_REQUESTS, message);
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
    check_csrf(session, fields.get("csrf").map_or("", String::as_str)).await?;
    let me = require_user(ladder, session).await?;
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
    headers: HeaderMap,
    query: Result<Query<ApiUpload>, axum::extract::rejection::QueryRejection>,
    body: Result<Bytes, axum::extract::rejection::BytesRejection>,
) -> Result<Response, AppError> {
    let me = token_user(&ladder, &headers).await?;
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
    session: Session,
    Path((game, variant)): Path<(String, String)>,
) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    let board = ladder.board(&game, &variant).ok_or_else(|| AppError::not_found("leaderboard"))?;
    let jobs = ladder.0.jobs.clone();
    let ctx = ladder
        .run(move |db| {
            let summed = jobs.boards().get(db, &board)?;
            let s = &summed.standings;
            let current: Vec<i64> = db.players(board.game.name())?.iter().map(|(_, v)| v.id).collect();
            let mut rows = Vec::new();
            for r in &s.event.standings {
                let Some(&vid) = s.versions.get(&r.bot) else { continue };
                let Some(v) = db.version(vid)? else { continue };
                let Some(bot) = db.bot(v.bot)? else { continue };
                rows.push(context! {
                    rank => r.rank,
                    label => &r.bot,
                    bot_id => bot.id,
                    owner => bot.owner_name,
                    current => current.contains(&vid),
                    rating => format!("{:.0}", r.rating),
                    low => format!("{:.0}", r.ci_low),
                    high => format!("{:.0}", r.ci_high),
                    matches => r.matches,
                    wins => r.wins,
                    draws => r.draws,
                    losses => r.losses,
                    fault_rate => if r.matches == 0 { "–".to_string() } else { format!("{:.1}%", 100.0 * r.faulted_matches as f64 / r.matches as f64) },
                });
            }
            Ok(context! {
                game => board.game.name(),
                variant => &board.variant,
                matches => s.event.matches,
                ranked_by => cardarena::tournament::standings::RANKED_BY,
                rows,
                matrix => &summed.matrix,
            })
        })
        .await?;
    ladder.render(&page, "board.html", ctx)
}

fn can_read(me: Option<&User>, bot: &BotRow) -> bool {
    bot.published || me.is_some_and(|u| u.admin || u.id == bot.owner)
}

async fn bot_page(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    let me = page.me.clone();
    let boards = ladder.0.config.boards.clone();
    let jobs = ladder.0.jobs.clone();
    let ctx = ladder
        .run(move |db| {
            let Some(bot) = db.bot(id)? else { return Ok(None) };
            let versions = db.versions(id)?;
            let ids: Vec<i64> = versions.iter().map(|v| v.id).collect();
            let labels: BTreeMap<i64, String> =
                versions.iter().map(|v| (v.id, super::jobs::label(&bot.name, v))).collect();
            let version_rows: Vec<Value> = versions
                .iter()
                .map(|v| {
                    let checks: Vec<Check> = serde_json::from_str(&v.verdicts).unwrap_or_default();
                    context! { number => v.number, lang => &v.lang, state => &v.state, hash => &v.hash, checks => ser(&checks) }
                })
                .collect();
            let mut histories = Vec::new();
            if let Some(newest) = versions.first() {
                for b in boards.iter().filter(|b| b.game.name() == bot.game) {
                    let h = jobs.boards().get(db, b)?.history(db, b, &labels[&newest.id], 12)?;
                    if !h.is_empty() {
                        histories.push(context! { variant => &b.variant, svg => board::history_svg(&h) });
                    }
                }
            }
            let recent = db.matches_of(&ids, 30)?;
            let mut lines = Vec::new();
            let mut faults: Vec<(String, String, u64, i64, usize, String)> = Vec::new();
            let mut usage: BTreeMap<i64, (u64, u64, u64, u64, u64)> = BTreeMap::new();
            for m in &recent {
                if let Ok(s) = serde_json::from_str::<MatchSummary>(&m.summary) {
                    lines.push(recent_match(m, &s, &ids));
                }
                let Some((_, blob)) = db.match_row(m.id)? else { continue };
                let Some(replay) = replay_of(&blob) else { continue };
                for (seat, vid) in m.seats.iter().enumerate() {
                    if !ids.contains(vid) {
                        continue;
                    }
                    let u = usage.entry(*vid).or_insert((0, 0, 0, 0, 0));
                    for d in replay.decisions.iter().filter(|d| d.seat == seat) {
                        if let Some(f) = d.fuel {
                            u.0 += 1;
                            u.1 += f;
                            u.2 = u.2.max(f);
                        }
                    }
                    if let Some(Some(l)) = replay.limits.get(seat) {
                        u.3 = l.fuel_per_decision;
                        u.4 = l.memory_bytes;
                    }
                    for f in replay.faults.get(seat).into_iter().flatten() {
                        let site = fault_site(&f.message, f.trace.as_deref());
                        let verdict = f.verdict.name().to_string();
                        match faults.iter_mut().find(|g| g.0 == verdict && g.1 == site) {
                            Some(g) => g.2 += 1,
                            None => faults.push((verdict, site, 1, m.id, seat, f.message.clone())),
                        }
                    }
                }
            }
            let lang = versions.first().map_or("lua".to_string(), |v| v.lang.clone());
            let faults: Vec<Value> = faults
                .into_iter()
                .map(|(verdict, site, count, match_id, seat, message)| {
                    context! { verdict, site, count, match_id, seat, message, lang => &lang,
                               capsule_name => format!("match-{match_id}-seat{seat}.json") }
                })
                .collect();
            let usage: Vec<Value> = usage
                .iter()
                .map(|(vid, (n, sum, max, fuel_limit, mem))| {
                    context! {
                        label => &labels[vid],
                        decisions => n,
                        mean_fuel => if *n == 0 { 0 } else { sum / n },
                        max_fuel => max,
                        fuel_limit => fuel_limit,
                        memory_limit => format!("{} MiB", mem >> 20),
                    }
                })
                .collect();
            Ok(Some((bot, version_rows, histories, lines, faults, usage)))
        })
        .await?;
    let (bot, versions, histories, matches, faults, usage) = ctx.ok_or_else(|| AppError::not_found("bot"))?;
    let owner = me.as_ref().is_some_and(|u| u.id == bot.owner);
    let can_read = can_read(me.as_ref(), &bot);
    let leaderboards = leaderboards_of(&ladder.0.config, &bot.game);
    ladder.render(
        &page,
        "bot.html",
        context! { bot => ser(&bot), owner, can_read, leaderboards, versions, histories, matches, faults, usage },
    )
}

/// The leaderboards a bot of `game` plays on (the bot page links back to them).
fn leaderboards_of(config: &LadderConfig, game: &str) -> Vec<Value> {
    config
        .boards
        .iter()
        .filter(|b| b.game.name() == game)
        .map(|b| context! { game => b.game.name(), variant => &b.variant })
        .collect()
}

/// A line of a bot page's recent matches: the seats with their points, and the match's result
/// for the bot (its versions `ids`) as the leaderboard counts it (`win`, `draw`, `loss`).
fn recent_match(m: &super::db::MatchRow, s: &MatchSummary, ids: &[i64]) -> Value {
    let names: Vec<String> = s.bots.iter().zip(&s.points).map(|(b, p)| format!("{} {p}", b.name)).collect();
    let result = m
        .seats
        .iter()
        .position(|v| ids.contains(v))
        .filter(|&seat| seat < s.ranks.len())
        .map(|seat| MatchResult::of(&s.ranks, seat).name());
    context! { id => m.id, line => names.join(" · "), result, board => format!("{} · {}", m.game, m.variant) }
}

fn replay_of(blob: &[u8]) -> Option<cardarena::play::runner::Replay> {
    let text = cardarena::tournament::store::unpack(blob).ok()?;
    serde_json::from_str(&text).ok()
}

#[derive(Deserialize)]
struct FlagForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    published: bool,
    #[serde(default)]
    disabled: bool,
}

async fn publish(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
    Form(form): Form<FlagForm>,
) -> Result<Redirect, AppError> {
    check_csrf(&session, &form.csrf).await?;
    let me = require_user(&ladder, &session).await?;
    let bot = ladder.run(move |db| db.bot(id)).await?.ok_or_else(|| AppError::not_found("bot"))?;
    if bot.owner != me.id {
        return Err(AppError::new(
            StatusCode::FORBIDDEN,
            "only the bot's owner may publish or hide its source",
        ));
    }
    ladder.run(move |db| db.set_bot_published(id, form.published)).await?;
    Ok(Redirect::to(&format!("/bots/{id}")))
}

async fn source(
    State(ladder): State<Ladder>,
    session: Session,
    Path((id, number)): Path<(i64, i64)>,
) -> Result<Response, AppError> {
    let me = session_user(&ladder, &session).await?;
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
        return Err(AppError::new(
            StatusCode::FORBIDDEN,
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

async fn match_page(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
) -> Result<Html<String>, AppError> {
    let page = page(&ladder, &session).await?;
    let me = page.me.clone();
    let ctx = ladder
        .run(move |db| {
            let Some((m, blob)) = db.match_row(id)? else { return Ok(None) };
            let name = format!("match-{id}.json");
            let viewer = replay_of(&blob).and_then(|r| cardarena::replay::viewer::frames(&r, &name).ok()).map(|f| {
                let options = cardarena::replay::viewer::ViewerOptions {
                    replay_text: None,
                    replay_url: Some(format!("/matches/{id}/replay.json")),
                    verify_command: Some(format!("arena replay {name} --verify")),
                    replay_name: Some(name.clone()),
                };
                Value::from_safe_string(cardarena::replay::viewer::fragment(&f, &options))
            });
            let summary: Option<MatchSummary> = serde_json::from_str(&m.summary).ok();
            let mut seats = Vec::new();
            if let Some(s) = summary {
                for (k, entry) in s.bots.iter().enumerate() {
                    let version = match m.seats.get(k) {
                        Some(&v) => db.version(v)?,
                        None => None,
                    };
                    let bot = match &version {
                        Some(v) => db.bot(v.bot)?,
                        None => None,
                    };
                    // The file that played, where its owner published it (or to them and admins),
                    // under the name the replay gives it.
                    let file = match (&version, &bot) {
                        (Some(v), Some(b)) if can_read(me.as_ref(), b) => {
                            Some(format!("/bots/{}/v/{}/source", b.id, v.number))
                        }
                        _ => None,
                    };
                    let faults: Vec<&str> = s.faults[k].iter().map(|v| v.name()).collect();
                    seats.push(context! { name => &entry.name, hash => &entry.hash, bot_id => bot.as_ref().map(|b| b.id), file, points => s.points[k], rank => s.ranks[k], faults => faults.join(", ") });
                }
            }
            Ok(Some(context! { m => ser(&m), seats, viewer }))
        })
        .await?
        .ok_or_else(|| AppError::not_found("match"))?;
    ladder.render(&page, "match.html", ctx)
}

async fn stored_replay(ladder: &Ladder, id: i64) -> Result<cardarena::play::runner::Replay, AppError> {
    let (_, blob) =
        ladder.run(move |db| db.match_row(id)).await?.ok_or_else(|| AppError::not_found("match"))?;
    replay_of(&blob).ok_or_else(|| AppError::internal(format!("match {id}: the stored replay is damaged")))
}

async fn replay_json(State(ladder): State<Ladder>, Path(id): Path<i64>) -> Result<Response, AppError> {
    let replay = stored_replay(&ladder, id).await?;
    let text = serde_json::to_string_pretty(&replay).map_err(|e| AppError::internal(e.to_string()))? + "\n";
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
    let game: GameId = replay
        .game
        .parse()
        .map_err(|e: cardarena::play::games::UnknownGame| AppError::internal(e.to_string()))?;
    let capsules = tokio::task::spawn_blocking(
        move || cardarena::with_game!(game, G => cardarena::play::capsule::build::<G>(&replay, None)),
    )
    .await
    .map_err(|e| AppError::internal(e.to_string()))?
    .map_err(|e| AppError::internal(format!("{e:#}")))?;
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

async fn admin(State(ladder): State<Ladder>, session: Session) -> Result<Html<String>, AppError> {
    admin_with(&ladder, &session, None).await
}

async fn admin_with(
    ladder: &Ladder,
    session: &Session,
    invite_link: Option<String>,
) -> Result<Html<String>, AppError> {
    let me = require_admin(ladder, session).await?;
    let page = Page { me: Some(me), csrf: csrf_token(session).await? };
    let (users, bots) = ladder.run(|db| Ok((db.users()?, db.bots()?))).await?;
    ladder.render(&page, "admin.html", context! { users => ser(&users), bots => ser(&bots), invite_link })
}

#[derive(Deserialize)]
struct InviteForm {
    #[serde(default)]
    csrf: String,
    #[serde(default)]
    admin: bool,
}

async fn create_invite(
    State(ladder): State<Ladder>,
    session: Session,
    Form(form): Form<InviteForm>,
) -> Result<Html<String>, AppError> {
    check_csrf(&session, &form.csrf).await?;
    let me = require_admin(&ladder, &session).await?;
    let code = ladder.run(move |db| db.create_invite(me.id, form.admin)).await?;
    let link = invite_link(&ladder.0.url, &code);
    admin_with(&ladder, &session, Some(link)).await
}

/// The register page's address with an invite code filled in.
pub fn invite_link(url: &str, code: &str) -> String {
    format!("{}/register?invite={code}", url.trim_end_matches('/'))
}

async fn disable_user(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
    Form(form): Form<FlagForm>,
) -> Result<Redirect, AppError> {
    check_csrf(&session, &form.csrf).await?;
    let me = require_admin(&ladder, &session).await?;
    if me.id == id {
        return Err(AppError::new(
            StatusCode::UNPROCESSABLE_ENTITY,
            "an admin cannot disable their own account",
        ));
    }
    if !ladder.run(move |db| db.set_user_disabled(id, form.disabled)).await? {
        return Err(AppError::not_found("user"));
    }
    Ok(Redirect::to("/admin"))
}

async fn disable_bot(
    State(ladder): State<Ladder>,
    session: Session,
    Path(id): Path<i64>,
    Form(form): Form<FlagForm>,
) -> Result<Redirect, AppError> {
    check_csrf(&session, &form.csrf).await?;
    require_admin(&ladder, &session).await?;
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
        assert!(language("bot.py", b"print(1)").unwrap_err().contains("not .py"));
        assert!(language("bot.lua", b"\xff\xfe").unwrap_err().contains("UTF-8"));
        assert_eq!(language("bot.wat", b"(module)"), Ok("wat"));
        assert_eq!(language("bot.WAT", b"(module)"), Ok("wat"));
        assert!(language("bot.wat", b"\0asm\x01\0\0\0").unwrap_err().contains("name it .wasm"));
        assert!(language("bot.wat", b"\xff\xfe").unwrap_err().contains("UTF-8"));
    }
}
