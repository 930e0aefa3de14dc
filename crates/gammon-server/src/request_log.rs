//! One line per request (method, path, status, duration), emitted with
//! `tracing` at INFO under the target [`TARGET`]. The server prints nothing
//! itself: the front end decides whether the lines go anywhere (`gammon
//! serve --log` writes them to standard error; without a subscriber they
//! cost one check per request).

use axum::extract::Request;
use axum::middleware::Next;
use axum::response::Response;
use std::time::Instant;

/// The `tracing` target of the request lines.
pub const TARGET: &str = "gammon_server::requests";

/// Logs `request` once its answer's status is known. The duration runs to
/// the answer's head (a job's work is not in it: a POST answers at once),
/// and the path is logged without its query string.
pub async fn log_request(request: Request, next: Next) -> Response {
    if !tracing::enabled!(target: TARGET, tracing::Level::INFO) {
        return next.run(request).await;
    }
    let (method, path) = (request.method().clone(), request.uri().path().to_string());
    let began = Instant::now();
    let response = next.run(request).await;
    let ms = began.elapsed().as_secs_f64() * 1000.0;
    tracing::info!(target: TARGET, "{method} {path} {} {ms:.3} ms", response.status().as_u16());
    response
}
