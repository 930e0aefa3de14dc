//! `gammon serve`: gammon's HTTP JSON API and its web page.
//!
//! The server translates HTTP to calls of the engine API
//! ([`gammon_engine::api::Engine`]) and back, and holds no game logic. Every
//! search runs on a rayon pool, never on the async threads; long work
//! (rollouts, match reviews) runs as jobs ([`jobs`]). The endpoints are
//! documented in `docs/openapi.json` (served at `/api/openapi.json`) and
//! `docs/server.md`.

pub mod api;
mod app;
mod body_field;
pub mod error;
pub mod jobs;
pub mod library_errors;
pub mod listen;
mod page;
pub mod params;
pub mod play;
mod refusals;
pub mod request_log;
pub mod seal;
mod wildbg;
mod work;

pub use app::{state, state_with_met, AppState};
pub use error::ApiError;
pub use jobs::{JobLimits, Jobs};
pub use listen::{serve, ConnectionLimits};

use axum::extract::DefaultBodyLimit;
use axum::http::{header, StatusCode};
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

/// The OpenAPI description of every endpoint.
pub const OPENAPI: &str = include_str!("../../../docs/openapi.json");

/// Every route: the page, its assets and the API.
pub fn router(state: AppState) -> Router {
    let routes = Router::new()
        .route("/", get(page::index))
        .route("/assets/{name}", get(page::file))
        .route("/api/openapi.json", get(openapi))
        .route("/api/position", get(api::position))
        .route("/api/moves", get(api::moves))
        .route("/api/eval", get(api::eval))
        .route("/api/analyse", get(api::analyse))
        .route("/api/cube", get(api::cube))
        .route("/api/rollouts", axum::routing::post(api::start_rollout))
        .route("/api/rollouts/{id}", get(api::rollout_job).delete(api::cancel_rollout))
        .route("/api/reviews", axum::routing::post(api::start_review))
        .route("/api/reviews/{id}", get(api::review_job).delete(api::cancel_review))
        .route("/api/play", axum::routing::post(play::play))
        .route("/move", get(wildbg::get_move))
        .fallback(not_found)
        // The bodies are read with their own limit and a JSON error
        // (`params::json_body`).
        .layer(DefaultBodyLimit::disable())
        .layer(axum::middleware::from_fn_with_state(state.clone(), refusals::refuse_declared_oversize))
        .with_state(state);
    // Around the whole router, not each route: a route's layers run before
    // axum adds the `Allow` of a 405, which the JSON refusal names.
    Router::new()
        .fallback_service(routes)
        // Every refusal is JSON, the router's own too.
        .layer(axum::middleware::from_fn(refusals::json_refusals))
        // Outermost, so that a line has the status the client gets.
        .layer(axum::middleware::from_fn(request_log::log_request))
}

async fn openapi() -> impl IntoResponse {
    ([(header::CONTENT_TYPE, "application/json")], OPENAPI)
}

async fn not_found(uri: axum::http::Uri) -> ApiError {
    ApiError::request(StatusCode::NOT_FOUND, format!("no such endpoint: {} (see /api/openapi.json)", uri.path()))
}
