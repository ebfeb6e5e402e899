//! The ladder on the open internet: security headers on every answer, the CSRF check before a
//! form is read, and error pages in the ladder's layout for every error status (the router's own
//! refusals too: no such page, a bad number in a path, a form that does not parse).

use std::sync::Arc;

use axum::body::{Body, Bytes};
use axum::extract::{FromRequest, Multipart, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use axum::{Form, Json};
use base64::Engine;
use minijinja::context;
use serde::de::DeserializeOwned;
use serde::Deserialize;
use sha2::{Digest, Sha256};
use tower_sessions::Session;

use super::app::Ladder;
use super::error::{AppError, ErrorMessage};
use super::extract::{page_of, Page};
use super::server::{too_large, FORM_OVERHEAD};

/// The Content-Security-Policy of every answer: nothing from elsewhere, no inline script but the
/// replay viewer's (allowed by its hash: it is the same on every match page), no inline style,
/// no framing (no clickjacking), forms post only here.
pub fn content_security_policy() -> String {
    let viewer = Sha256::digest(cardarena::replay::viewer::mount_script().as_bytes());
    let viewer = base64::engine::general_purpose::STANDARD.encode(viewer);
    format!(
        "default-src 'self'; script-src 'self' 'sha256-{viewer}'; style-src 'self'; img-src 'self' data:; \
         connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
    )
}

/// Adds the security headers to every answer: the policy above, `nosniff` (a bot's source or a
/// replay is never run as a script or page), and no full addresses in `Referer` to other sites.
pub async fn security_headers(State(csp): State<Arc<HeaderValue>>, req: Request, next: Next) -> Response {
    let mut r = next.run(req).await;
    let h = r.headers_mut();
    h.insert(header::CONTENT_SECURITY_POLICY, (*csp).clone());
    h.insert(header::X_CONTENT_TYPE_OPTIONS, HeaderValue::from_static("nosniff"));
    h.insert(header::REFERRER_POLICY, HeaderValue::from_static("strict-origin-when-cross-origin"));
    h.insert(header::X_FRAME_OPTIONS, HeaderValue::from_static("DENY"));
    r
}

/// A form body's fields as `T` (its missing fields defaulted); a body that is not a form gives
/// `T::default()`.
pub(super) async fn read_form<T: DeserializeOwned + Default>(bytes: &Bytes) -> T {
    let form = Request::builder()
        .method(Method::POST)
        .header(header::CONTENT_TYPE, "application/x-www-form-urlencoded")
        .body(Body::from(bytes.clone()))
        .expect("a valid request");
    Form::<T>::from_request(form, &()).await.map_or_else(|_| T::default(), |Form(t)| t)
}

#[derive(Default, Deserialize)]
struct CsrfOnly {
    #[serde(default)]
    csrf: String,
}

/// The `csrf` field of a multipart form (`parts` are the request's, `bytes` its whole body);
/// empty when there is none or the form does not parse.
async fn multipart_csrf(parts: &Parts, bytes: &Bytes) -> String {
    let mut form = Request::new(Body::from(bytes.clone()));
    *form.headers_mut() = parts.headers.clone();
    // (The body is read already, within its limit: `DefaultBodyLimit::disable()` around this layer.)
    *form.extensions_mut() = parts.extensions.clone();
    let Ok(mut multipart) = Multipart::from_request(form, &()).await else { return String::new() };
    while let Ok(Some(field)) = multipart.next_field().await {
        if field.name() == Some("csrf") {
            return field.text().await.unwrap_or_default();
        }
    }
    String::new()
}

/// Refuses a form whose CSRF token is not the session's.
fn check_csrf(expected: Option<&str>, given: &str) -> Result<(), AppError> {
    match expected {
        Some(t) if !given.is_empty() && t == given => Ok(()),
        _ => Err(AppError::forbidden(
            "the form's security token is missing or out of date; reload the page and submit it again",
        )),
    }
}

/// The one CSRF check: every `POST` outside the API is refused (403) unless its form, URL
/// encoded or multipart (the upload), carries the session's token; before any handler reads
/// the form, so that a request without one is refused as such whatever its body (none,
/// another type, a form missing fields). The body is read here within the route's limit
/// (`max_bytes` and the form's fields for the upload); a larger one is refused as too large.
pub async fn csrf_first(State(ladder): State<Ladder>, req: Request, next: Next) -> Response {
    if req.method() != Method::POST || req.uri().path().starts_with("/api/") {
        return next.run(req).await;
    }
    let Some(session) = req.extensions().get::<Session>().cloned() else {
        return AppError::internal("no session layer").into_response();
    };
    let multipart = req
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|t| t.starts_with("multipart/form-data"));
    let upload = req.uri().path() == "/upload";
    let code = super::garage::takes_code(req.uri().path());
    let limit = if upload {
        ladder.0.config.max_bytes + FORM_OVERHEAD
    } else if code {
        super::garage::form_limit(ladder.0.config.max_bytes)
    } else {
        FORM_OVERHEAD
    };
    let (parts, body) = req.into_parts();
    let Ok(bytes) = axum::body::to_bytes(body, limit).await else {
        return if upload || code {
            too_large(ladder.0.config.max_bytes).into_response()
        } else {
            AppError::new(StatusCode::PAYLOAD_TOO_LARGE, "the form is too large").into_response()
        };
    };
    let given = if multipart {
        multipart_csrf(&parts, &bytes).await
    } else {
        read_form::<CsrfOnly>(&bytes).await.csrf
    };
    let expected = match session.get::<String>("csrf").await {
        Ok(t) => t,
        Err(e) => return AppError::from(e).into_response(),
    };
    if let Err(e) = check_csrf(expected.as_deref(), &given) {
        return e.into_response();
    }
    next.run(Request::from_parts(parts, Body::from(bytes))).await
}

/// What an error answer made by the router or an extractor (plain text, or nothing) means, for
/// a person: the status to give and the message.
fn explain(status: StatusCode, text: &str, method: &Method, path: &str) -> (StatusCode, String) {
    let text = text.trim();
    match status {
        StatusCode::NOT_FOUND => (status, format!("there is no page at {path}")),
        // A path parameter that is not a number (`/bots/abc`): no such page either.
        StatusCode::BAD_REQUEST if text.starts_with("Invalid URL") => {
            (StatusCode::NOT_FOUND, format!("there is no page at {path}"))
        }
        StatusCode::METHOD_NOT_ALLOWED => (status, format!("{path} does not take {method} requests")),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            (status, "send the form as application/x-www-form-urlencoded, as the page's own form does".into())
        }
        StatusCode::UNPROCESSABLE_ENTITY | StatusCode::BAD_REQUEST => {
            let why = text.split_once(": ").map_or(text, |(_, why)| why);
            if text.contains("form body") {
                (status, format!("the form could not be read ({why}); reload the page and submit it again"))
            } else {
                (status, format!("the request could not be read ({why})"))
            }
        }
        StatusCode::PAYLOAD_TOO_LARGE => (status, "the request is too large".into()),
        _ if text.is_empty() => (status, status.canonical_reason().unwrap_or("error").to_lowercase()),
        _ => (status, text.to_string()),
    }
}

/// Shows every error answer in the ladder's layout (`error.html`, with the header of whoever is
/// signed in), or as `{"error": ...}` under `/api/`; answers that are already a page or JSON
/// stay as they are. Headers such as `Retry-After` are kept.
pub async fn error_pages(State(ladder): State<Ladder>, req: Request, next: Next) -> Response {
    let session = req.extensions().get::<Session>().cloned();
    let (method, path) = (req.method().clone(), req.uri().path().to_string());
    let r = next.run(req).await;
    let status = r.status();
    if !(status.is_client_error() || status.is_server_error()) {
        return r;
    }
    let kind = r.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
    let given = r.extensions().get::<ErrorMessage>().map(|m| m.0.clone());
    if kind.starts_with("application/json") || (given.is_none() && kind.starts_with("text/html")) {
        return r;
    }
    let (mut parts, body) = r.into_parts();
    let (status, message) = match given {
        Some(message) => (status, message),
        None => {
            let bytes = axum::body::to_bytes(body, 64 * 1024).await.unwrap_or_default();
            explain(status, &String::from_utf8_lossy(&bytes), &method, &path)
        }
    };
    parts.status = status;
    parts.headers.remove(header::CONTENT_LENGTH);
    if path.starts_with("/api/") {
        parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
        let body = Json(serde_json::json!({ "error": message })).into_response().into_body();
        return Response::from_parts(parts, body);
    }
    let page = match &session {
        Some(s) => page_of(&ladder, s).await.unwrap_or(Page { me: None, csrf: String::new() }),
        None => Page { me: None, csrf: String::new() },
    };
    let title = format!("{} {}", status.as_u16(), status.canonical_reason().unwrap_or(""));
    match ladder.render(&page, "error.html", context! { status => title.trim(), message }) {
        Ok(html) => {
            parts.headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("text/html; charset=utf-8"));
            Response::from_parts(parts, Body::from(html.0))
        }
        Err(e) => e.into_response(),
    }
}
