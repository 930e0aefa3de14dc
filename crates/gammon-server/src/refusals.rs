//! Refusals made around the handlers, in the handlers' JSON: the router's
//! and extractors' own answers (an empty 405, a text 400) are rewritten as
//! [`ApiError`]s, and a body declared too large is refused before it is
//! read.

use crate::error::ApiError;
use crate::params::{drain_body, MAX_BODY_BYTES};
use crate::AppState;
use axum::extract::{Request, State};
use axum::http::{header, HeaderValue, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

/// The most of a non-JSON refusal's text that is read to become its
/// reason (axum's rejections are a line).
const TEXT_LIMIT: usize = 4096;

/// Rewrites every 4xx or 5xx answer that is not JSON as `{"error": …}`,
/// keeping its status and headers (`Allow` of a 405).
pub async fn json_refusals(request: Request, next: Next) -> Response {
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let response = next.run(request).await;
    let status = response.status();
    let is_json = response
        .headers()
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json"));
    if !(status.is_client_error() || status.is_server_error()) || is_json {
        return response;
    }
    let (mut parts, body) = response.into_parts();
    let text = axum::body::to_bytes(body, TEXT_LIMIT).await.unwrap_or_default();
    let text = String::from_utf8_lossy(&text).trim().to_string();
    let reason = if status == StatusCode::METHOD_NOT_ALLOWED {
        let allowed = parts.headers.get(header::ALLOW).and_then(|v| v.to_str().ok()).unwrap_or("other methods");
        format!("{method} is not allowed on {path} (it takes {allowed})")
    } else if text.is_empty() {
        status.canonical_reason().unwrap_or("refused").to_lowercase()
    } else {
        text
    };
    let mut answer = ApiError::request(status, reason).into_response();
    parts.headers.remove(header::CONTENT_TYPE);
    parts.headers.remove(header::CONTENT_LENGTH);
    answer.headers_mut().extend(parts.headers);
    answer
}

/// Answers 413 at once to a request whose `Content-Length` is over
/// [`MAX_BODY_BYTES`], without waiting for the body. The body is still read
/// and dropped in the background (within the body timeout and the drain
/// limit): a socket closed with unread data is reset, and the client would
/// lose the answer.
pub async fn refuse_declared_oversize(State(state): State<AppState>, request: Request, next: Next) -> Response {
    let declared = request
        .headers()
        .get(header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<u64>().ok());
    let Some(length) = declared.filter(|&n| n > MAX_BODY_BYTES as u64) else {
        return next.run(request).await;
    };
    tokio::spawn(drain_body(request.into_body(), state.connections.body_timeout));
    let mut answer = ApiError::request(
        StatusCode::PAYLOAD_TOO_LARGE,
        format!("the body is declared as {length} bytes, more than the limit of {MAX_BODY_BYTES}"),
    )
    .into_response();
    answer.headers_mut().insert(header::CONNECTION, HeaderValue::from_static("close"));
    answer
}
