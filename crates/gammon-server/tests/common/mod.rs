//! A server's state for the tests, and a request sent to its router.
#![allow(clippy::unwrap_used, dead_code)]

use axum::body::Body;
use axum::http::{Request, Response};
use gammon_eval::NetEvaluator;
use gammon_server::{AppState, JobLimits};
use serde_json::Value;
use std::sync::Arc;
use tower::ServiceExt;

/// A state with the shipped net on one thread.
pub fn state() -> AppState {
    let pool = Arc::new(rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap());
    gammon_server::state(NetEvaluator::shipped().unwrap(), pool, JobLimits::default())
}

/// `request` answered by the router of `state`: the status, the content
/// type and the body as JSON (`Value::Null` when it is not JSON).
pub async fn ask(state: &AppState, request: Request<Body>) -> (u16, String, Value) {
    let response: Response<Body> = gammon_server::router(state.clone()).oneshot(request).await.unwrap();
    let status = response.status().as_u16();
    let content_type =
        response.headers().get("content-type").map(|v| v.to_str().unwrap().to_string()).unwrap_or_default();
    let bytes = axum::body::to_bytes(response.into_body(), usize::MAX).await.unwrap();
    (status, content_type, serde_json::from_slice(&bytes).unwrap_or(Value::Null))
}

/// A POST of the JSON `body` to `path`.
pub async fn post(state: &AppState, path: &str, body: &str) -> (u16, Value) {
    let request = Request::post(path).header("content-type", "application/json").body(Body::from(body.to_string()));
    let (status, _, json) = ask(state, request.unwrap()).await;
    (status, json)
}

/// A request of `method` to `path` with no body.
pub async fn call(state: &AppState, method: &str, path: &str) -> (u16, String, Value) {
    ask(state, Request::builder().method(method).uri(path).body(Body::empty()).unwrap()).await
}
