//! Rate limits of sign-ins, uploads and the API, keyed by person rather than by address (a
//! class shares one address): a sign-in or registration by the name it tries and by the browser
//! session it comes from (`[login] per_minute` in ladder.toml); an upload (`[upload]
//! per_minute`), an API call (`[api] per_minute`) and a request for a match's analysis
//! (`[analysis] per_minute`) by the account, whichever of its tokens or browser sessions it
//! comes from (a caller that is not signed in: by its token or session); a garage try by the
//! account (`[garage] per_minute`) and for all accounts together (`[garage] class_per_minute`),
//! so that a class cannot flood the workers.
//!
//! A name's limit holds for any name, taken or not, with the same answer, so it tells nobody
//! which names exist.

use std::num::NonZeroU32;
use std::sync::Arc;
use std::time::Duration;

use axum::body::Body;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::Deserialize;

use super::config::LadderConfig;
use super::db::Db;
use super::server::{bearer, person_key, AppError};

/// Keys kept before the limiters forget the ones whose buckets are full again.
const KEYS: usize = 10_000;

/// The sign-in, upload and API limiters of one server, and the database that says whose a
/// token or session is.
pub struct RateLimits {
    sign_in: DefaultKeyedRateLimiter<String>,
    uploads: DefaultKeyedRateLimiter<String>,
    api: DefaultKeyedRateLimiter<String>,
    tries: DefaultKeyedRateLimiter<String>,
    class_tries: DefaultKeyedRateLimiter<String>,
    analyses: DefaultKeyedRateLimiter<String>,
    db: Arc<Db>,
}

/// What the sign-in limit reads from a login or registration form.
#[derive(Default, Deserialize)]
struct Tried {
    #[serde(default)]
    name: String,
}

impl RateLimits {
    /// The limiters of `config`: `login_per_minute` tries per name and per session,
    /// `uploads_per_minute` uploads and `api_per_minute` calls per account.
    pub fn new(config: &LadderConfig, db: Arc<Db>) -> Arc<RateLimits> {
        let quota = |n: u32| Quota::per_minute(NonZeroU32::new(n.max(1)).expect("at least 1"));
        Arc::new(RateLimits {
            sign_in: RateLimiter::keyed(quota(config.login_per_minute)),
            uploads: RateLimiter::keyed(quota(config.uploads_per_minute)),
            api: RateLimiter::keyed(quota(config.api_per_minute)),
            tries: RateLimiter::keyed(quota(config.tries_per_minute)),
            class_tries: RateLimiter::keyed(quota(config.class_tries_per_minute)),
            analyses: RateLimiter::keyed(quota(config.analyses_per_minute)),
            db,
        })
    }

    /// Whose request this is: `user:ID` for a valid token or a signed-in session, else the
    /// token or session itself ([`person_key`]). (The future holds what it read, not the request.)
    fn account_key(&self, req: &Request) -> impl std::future::Future<Output = String> + Send + 'static {
        let fallback = person_key(req.headers());
        let token = bearer(req.headers()).map(str::to_string);
        let session = fallback.strip_prefix("session:").map(str::to_string);
        let db = self.db.clone();
        async move {
            let user = tokio::task::spawn_blocking(move || -> Option<i64> {
                if let Some(token) = token {
                    return db.token_user(&token).ok().flatten().map(|u| u.id);
                }
                let record = db.load_session(&session?).ok()??;
                serde_json::from_str::<serde_json::Value>(&record).ok()?["data"]["user"].as_i64()
            })
            .await
            .ok()
            .flatten();
            user.map_or(fallback, |id| format!("user:{id}"))
        }
    }
}

/// Whole seconds to wait, rounded up (never 0: a client told 0 would try again at once).
fn whole_seconds(wait: Duration) -> u64 {
    (wait.as_secs() + u64::from(wait.subsec_nanos() > 0)).max(1)
}

/// Takes one try of every key from `limiter`; the seconds to wait when a key has none left.
fn take(limiter: &DefaultKeyedRateLimiter<String>, keys: &[String]) -> Result<(), u64> {
    if limiter.len() > KEYS {
        limiter.retain_recent();
    }
    let now = DefaultClock::default().now();
    let mut wait = None;
    for key in keys {
        if let Err(not_until) = limiter.check_key(key) {
            let secs = whole_seconds(not_until.wait_time_from(now));
            wait = Some(wait.map_or(secs, |w: u64| w.max(secs)));
        }
    }
    wait.map_or(Ok(()), Err)
}

fn too_many(wait: u64, message: String, json: bool) -> Response {
    let error = AppError::new(StatusCode::TOO_MANY_REQUESTS, message);
    let mut r = if json { error.json() } else { error }.into_response();
    r.headers_mut().insert(header::RETRY_AFTER, HeaderValue::from(wait));
    r
}

/// The middleware: `POST /login` and `POST /register` count against the name tried and the
/// session; an upload (`POST /upload`, `POST /api/bots`), any `/api/` route and a request for
/// an analysis (`POST /matches/{id}/analyse`) against the caller's account. Other requests pass.
pub async fn limit(State(limits): State<Arc<RateLimits>>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    if req.method() == Method::POST && path.starts_with("/matches/") && path.ends_with("/analyse") {
        let key = limits.account_key(&req).await;
        if let Err(wait) = take(&limits.analyses, &[key]) {
            let message = format!(
                "too many analyses asked for; try again in {wait} s (the ladder's [analysis] per_minute)"
            );
            return too_many(wait, message, false);
        }
        return next.run(req).await;
    }
    let api = path.starts_with("/api/");
    let upload = req.method() == Method::POST && (path == "/upload" || path == "/api/bots");
    if req.method() == Method::POST && super::garage::is_try(path) {
        let key = limits.account_key(&req).await;
        if let Err(wait) = take(&limits.tries, &[key]) {
            let message = format!("too many tries; try again in {wait} s (the ladder's [garage] per_minute)");
            return too_many(wait, message, false);
        }
        if let Err(wait) = take(&limits.class_tries, &["class".to_string()]) {
            let message = format!(
                "the whole class is trying many bots at once; try again in {wait} s (the ladder's [garage] class_per_minute)"
            );
            return too_many(wait, message, false);
        }
        return next.run(req).await;
    }
    if api || upload {
        let key = limits.account_key(&req).await;
        if upload {
            if let Err(wait) = take(&limits.uploads, std::slice::from_ref(&key)) {
                let message =
                    format!("too many uploads; try again in {wait} s (the ladder's [upload] per_minute)");
                return too_many(wait, message, api);
            }
        }
        if api {
            if let Err(wait) = take(&limits.api, &[key]) {
                let message = format!(
                    "too many API calls from this account; try again in {wait} s (the ladder's [api] per_minute)"
                );
                return too_many(wait, message, true);
            }
        }
        return next.run(req).await;
    }
    if req.method() != Method::POST || !(path == "/login" || path == "/register") {
        return next.run(req).await;
    }
    let session = person_key(req.headers());
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, super::server::FORM_OVERHEAD).await else {
        return AppError::new(StatusCode::PAYLOAD_TOO_LARGE, "the form is too large").into_response();
    };
    // The name as the handler will read it (a form that does not parse is the handler's to refuse).
    let tried: Tried = super::harden::read_form(&bytes).await;
    let name = super::db::name_key(tried.name.trim());
    let what = parts.uri.path().trim_start_matches('/').to_string();
    let keys = [format!("{what}:{session}"), format!("{what}-name:{name}")];
    if let Err(wait) = take(&limits.sign_in, &keys) {
        let message = format!(
            "too many tries for this name or from this browser; try again in {wait} s (the ladder's [login] per_minute)"
        );
        return too_many(wait, message, false);
    }
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}
