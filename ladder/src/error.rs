//! The ladder's error answer: a status and a message that says what to do. Handlers return
//! `Result<_, AppError>` and use `?`: the database, the queue, templates, sessions and the
//! arena library convert into it (as the server's own failure, 500), and an upload refused by
//! the database into its status (409, 403).

use std::fmt::Display;

use axum::http::StatusCode;
use axum::response::{Html, IntoResponse, Response};
use axum::Json;

use crate::db::{DbError, UploadRefused};
use crate::jobs::JobError;

/// An error answer: its status and a message that says what to do. API routes answer JSON
/// (`{"error": ...}`), pages a small HTML page (which `harden::error_pages` shows in the
/// ladder's layout).
#[derive(Debug)]
pub struct AppError {
    pub(crate) status: StatusCode,
    pub(crate) message: String,
    json: bool,
}

impl AppError {
    /// An answer of `status` saying `message`.
    pub fn new(status: StatusCode, message: impl Into<String>) -> AppError {
        AppError { status, message: message.into(), json: false }
    }

    /// The server's own failure (500), with its reason.
    pub fn internal(reason: impl Display) -> AppError {
        AppError::new(StatusCode::INTERNAL_SERVER_ERROR, format!("the server failed: {reason:#}"))
    }

    /// The same error, answered as JSON.
    pub fn json(mut self) -> AppError {
        self.json = true;
        self
    }

    /// 404: no such `what`.
    pub fn not_found(what: &str) -> AppError {
        AppError::new(StatusCode::NOT_FOUND, format!("no such {what}"))
    }

    /// 422, saying what is wrong with the request.
    pub fn unprocessable(message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::UNPROCESSABLE_ENTITY, message)
    }

    /// 403, saying who may.
    pub fn forbidden(message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::FORBIDDEN, message)
    }

    /// 409, saying what stands in the way.
    pub fn conflict(message: impl Into<String>) -> AppError {
        AppError::new(StatusCode::CONFLICT, message)
    }
}

/// The server's own failures: each converts into a 500 naming its reason.
macro_rules! internal_from {
    ($($t:ty),* $(,)?) => {
        $(impl From<$t> for AppError {
            fn from(e: $t) -> AppError {
                AppError::internal(e)
            }
        })*
    };
}

internal_from!(
    DbError,
    JobError,
    cardarena::tournament::queue::QueueError,
    cardarena::HostError,
    minijinja::Error,
    tower_sessions::session::Error,
    tokio::task::JoinError,
    serde_json::Error,
    std::io::Error,
);

impl From<UploadRefused> for AppError {
    fn from(e: UploadRefused) -> AppError {
        match e {
            UploadRefused::Identical(_) | UploadRefused::NameTaken(..) => AppError::conflict(e.to_string()),
            UploadRefused::Disabled(_) => AppError::forbidden(e.to_string()),
            UploadRefused::Db(e) => e.into(),
        }
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
pub(crate) struct ErrorMessage(pub(crate) String);
