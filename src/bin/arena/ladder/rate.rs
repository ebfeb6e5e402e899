//! Rate limits of sign-ins and the API, keyed by person rather than by address (a class shares
//! one address): a sign-in or registration by the name it tries and by the browser session it
//! comes from; an API call by its token (`[login] per_minute`, `[api] per_minute` in
//! ladder.toml). Uploads have their own, stricter limit (`[upload] per_minute`, in `server`).
//!
//! A name's limit holds for any name, taken or not, with the same answer, so it tells nobody
//! which names exist.

use std::num::NonZeroU32;
use std::sync::Arc;

use axum::body::Body;
use axum::extract::{FromRequest, Request, State};
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::Form;
use governor::clock::{Clock, DefaultClock};
use governor::{DefaultKeyedRateLimiter, Quota, RateLimiter};
use serde::Deserialize;
use tower_governor::key_extractor::KeyExtractor;

use super::config::LadderConfig;
use super::server::{AppError, PersonKey};

/// Keys kept before the limiters forget the ones whose buckets are full again.
const KEYS: usize = 10_000;

/// The sign-in and API limiters of one server.
pub struct RateLimits {
    sign_in: DefaultKeyedRateLimiter<String>,
    api: DefaultKeyedRateLimiter<String>,
}

/// What the sign-in limit reads from a login or registration form.
#[derive(Deserialize)]
struct Tried {
    #[serde(default)]
    name: String,
}

impl RateLimits {
    /// The limiters of `config`: `login_per_minute` tries per name and per session,
    /// `api_per_minute` calls per token.
    pub fn new(config: &LadderConfig) -> Arc<RateLimits> {
        let quota = |n: u32| Quota::per_minute(NonZeroU32::new(n.max(1)).expect("at least 1"));
        Arc::new(RateLimits {
            sign_in: RateLimiter::keyed(quota(config.login_per_minute)),
            api: RateLimiter::keyed(quota(config.api_per_minute)),
        })
    }
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
            let secs = not_until.wait_time_from(now).as_secs().max(1);
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
/// session; any `/api/` route against the caller's token (else session). Other requests pass.
pub async fn limit(State(limits): State<Arc<RateLimits>>, req: Request, next: Next) -> Response {
    let path = req.uri().path();
    if path.starts_with("/api/") {
        let key = PersonKey.extract(&req).unwrap_or_else(|_| "anonymous".into());
        if let Err(wait) = take(&limits.api, &[key]) {
            let message = format!(
                "too many API calls with this token; try again in {wait} s (the ladder's [api] per_minute)"
            );
            return too_many(wait, message, true);
        }
        return next.run(req).await;
    }
    if req.method() != Method::POST || !(path == "/login" || path == "/register") {
        return next.run(req).await;
    }
    let session = PersonKey.extract(&req).unwrap_or_else(|_| "anonymous".into());
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, super::server::FORM_OVERHEAD).await else {
        return AppError::new(StatusCode::PAYLOAD_TOO_LARGE, "the form is too large").into_response();
    };
    // The name as the handler will read it (a form that does not parse is the handler's to refuse).
    let form = Request::builder()
        .method(Method::POST)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(bytes.clone()))
        .expect("a valid request");
    let name = match Form::<Tried>::from_request(form, &()).await {
        Ok(Form(t)) => t.name.trim().to_lowercase(),
        Err(_) => String::new(),
    };
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
