//! Who is asking, as handler arguments: [`Page`] (the signed-in account, if any, and the
//! session's CSRF token for the page's forms), [`CurrentUser`] (refuses with 401 unless signed
//! in), [`Admin`] (403 unless an admin), [`ApiUser`] (an API token's account, or a JSON 401).
//! The session's account is looked up once per request, however many of them a handler takes.

use axum::extract::FromRequestParts;
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, StatusCode};
use tower_sessions::Session;

use crate::app::Ladder;
pub use crate::app::Page;
use crate::auth;
use crate::db::User;
use crate::error::AppError;

/// The signed-in account (else 401: sign in first).
pub struct CurrentUser(pub User);

/// The signed-in account of an admin (else 401, or 403 for a player).
pub struct Admin(pub User);

/// The account of the request's API token (else a JSON 401 saying how to send one).
pub struct ApiUser(pub User);

/// The request's session (the session layer is around every route).
async fn session(parts: &mut Parts, ladder: &Ladder) -> Result<Session, AppError> {
    Session::from_request_parts(parts, ladder).await.map_err(|(_, m)| AppError::internal(m))
}

/// The session's account, remembered in the request for the next extractor.
#[derive(Clone)]
struct Known(Option<User>);

async fn known_user(parts: &mut Parts, ladder: &Ladder) -> Result<Option<User>, AppError> {
    if let Some(Known(u)) = parts.extensions.get::<Known>() {
        return Ok(u.clone());
    }
    let session = session(parts, ladder).await?;
    let user = session_user(ladder, &session).await?;
    parts.extensions.insert(Known(user.clone()));
    Ok(user)
}

/// The session's account, unless it is disabled or its sessions were ended since this one
/// began (the session's epoch is older than the account's; sessions of older versions have none,
/// which is 0).
///
/// # Errors
/// The database or the session store failed.
pub async fn session_user(ladder: &Ladder, session: &Session) -> Result<Option<User>, AppError> {
    let Some(id) = session.get::<i64>("user").await? else {
        return Ok(None);
    };
    let epoch = session.get::<i64>("epoch").await?.unwrap_or(0);
    let found = ladder.run(move |db| db.user_epoch(id)).await?;
    Ok(found.filter(|(u, now)| !u.disabled && *now == epoch).map(|(u, _)| u))
}

/// The session's CSRF token (made on first use).
///
/// # Errors
/// The session store failed.
pub async fn csrf_token(session: &Session) -> Result<String, AppError> {
    if let Some(t) = session.get::<String>("csrf").await? {
        return Ok(t);
    }
    let t = auth::secret();
    session.insert("csrf", &t).await?;
    Ok(t)
}

/// The page's [`Page`] for `session` (error pages build it outside a handler).
///
/// # Errors
/// The database or the session store failed.
pub async fn page_of(ladder: &Ladder, session: &Session) -> Result<Page, AppError> {
    Ok(Page { me: session_user(ladder, session).await?, csrf: csrf_token(session).await? })
}

impl FromRequestParts<Ladder> for Page {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, ladder: &Ladder) -> Result<Page, AppError> {
        let me = known_user(parts, ladder).await?;
        let csrf = csrf_token(&session(parts, ladder).await?).await?;
        Ok(Page { me, csrf })
    }
}

/// 401: the request needs a signed-in account.
pub fn sign_in_first() -> AppError {
    AppError::new(StatusCode::UNAUTHORIZED, "sign in first (the Sign in link at the top)")
}

impl FromRequestParts<Ladder> for CurrentUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, ladder: &Ladder) -> Result<CurrentUser, AppError> {
        known_user(parts, ladder).await?.map(CurrentUser).ok_or_else(sign_in_first)
    }
}

impl FromRequestParts<Ladder> for Admin {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, ladder: &Ladder) -> Result<Admin, AppError> {
        let CurrentUser(me) = CurrentUser::from_request_parts(parts, ladder).await?;
        if me.admin {
            Ok(Admin(me))
        } else {
            Err(AppError::forbidden("only an admin may do this"))
        }
    }
}

/// The request's `Authorization: Bearer` token.
pub fn bearer(headers: &HeaderMap) -> Option<&str> {
    headers.get(header::AUTHORIZATION)?.to_str().ok()?.strip_prefix("Bearer ").map(str::trim)
}

impl FromRequestParts<Ladder> for ApiUser {
    type Rejection = AppError;

    async fn from_request_parts(parts: &mut Parts, ladder: &Ladder) -> Result<ApiUser, AppError> {
        let unauthorized = || {
            AppError::new(
                StatusCode::UNAUTHORIZED,
                "no valid API token: make one on your account page and send it as `Authorization: Bearer TOKEN` (arena submit reads ARENA_TOKEN)",
            )
            .json()
        };
        let token = bearer(&parts.headers).ok_or_else(unauthorized)?.to_string();
        let user = ladder.run(move |db| db.token_user(&token)).await.map_err(AppError::json)?;
        user.filter(|u| !u.disabled).map(ApiUser).ok_or_else(unauthorized)
    }
}
