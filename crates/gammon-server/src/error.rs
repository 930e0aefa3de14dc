//! The one error answer of the API: a status and, as JSON, the field at
//! fault (if one is) and the reason.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Serialize;

/// A refused or failed request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// 4xx for the client's mistakes, 5xx for the server's.
    pub status: StatusCode,
    /// The query parameter or body field at fault.
    pub field: Option<String>,
    /// Why, in words.
    pub reason: String,
}

impl ApiError {
    /// 400: `field` is wrong for `reason`.
    pub fn bad(field: &str, reason: impl Into<String>) -> Self {
        ApiError { status: StatusCode::BAD_REQUEST, field: Some(field.to_string()), reason: reason.into() }
    }

    /// 400 (or another 4xx) not tied to one field.
    pub fn request(status: StatusCode, reason: impl Into<String>) -> Self {
        ApiError { status, field: None, reason: reason.into() }
    }

    /// 404: no such job or page.
    pub fn not_found(reason: impl Into<String>) -> Self {
        Self::request(StatusCode::NOT_FOUND, reason)
    }

    /// 500: the server failed (a bug: reported, never hidden).
    pub fn internal(reason: impl Into<String>) -> Self {
        Self::request(StatusCode::INTERNAL_SERVER_ERROR, reason)
    }
}

/// `reason` with every source of `error` after it, as `a: b: c`.
pub fn chain(error: &dyn std::error::Error) -> String {
    let mut text = error.to_string();
    let mut source = error.source();
    while let Some(e) = source {
        text.push_str(": ");
        text.push_str(&e.to_string());
        source = e.source();
    }
    text
}

#[derive(Serialize)]
struct ErrorBody<'a> {
    error: ErrorJson<'a>,
}

#[derive(Serialize)]
struct ErrorJson<'a> {
    field: Option<&'a str>,
    reason: &'a str,
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let body = ErrorBody { error: ErrorJson { field: self.field.as_deref(), reason: &self.reason } };
        (self.status, Json(body)).into_response()
    }
}
