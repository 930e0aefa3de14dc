//! The web page, built into the binary: no files to install, nothing
//! fetched at run time (the Content-Security-Policy allows only this server).

use crate::error::ApiError;
use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX_HTML: &str = include_str!("../assets/index.html");
/// The page's script: ES modules, loaded by `main.mjs` (tests `*.test.mjs`
/// beside them are not served).
const MODULES: [(&str, &str); 13] = [
    ("analysis.mjs", include_str!("../assets/analysis.mjs")),
    ("api.mjs", include_str!("../assets/api.mjs")),
    ("board.mjs", include_str!("../assets/board.mjs")),
    ("clicks.mjs", include_str!("../assets/clicks.mjs")),
    ("edit.mjs", include_str!("../assets/edit.mjs")),
    ("format.mjs", include_str!("../assets/format.mjs")),
    ("ids.mjs", include_str!("../assets/ids.mjs")),
    ("main.mjs", include_str!("../assets/main.mjs")),
    ("matrix.mjs", include_str!("../assets/matrix.mjs")),
    ("play.mjs", include_str!("../assets/play.mjs")),
    ("review.mjs", include_str!("../assets/review.mjs")),
    ("rollout.mjs", include_str!("../assets/rollout.mjs")),
    ("state.mjs", include_str!("../assets/state.mjs")),
];
const STYLE_CSS: &str = include_str!("../assets/style.css");

/// Only this server: no CDN, no other site.
const CSP: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'";

fn asset(content_type: &'static str, body: &'static str) -> Response {
    ([(header::CONTENT_TYPE, content_type), (header::CONTENT_SECURITY_POLICY, CSP)], body).into_response()
}

/// `GET /`: the page (the position and dice come in its query string, which
/// the page reads itself).
pub async fn index() -> Response {
    asset("text/html; charset=utf-8", INDEX_HTML)
}

/// `GET /assets/{name}`: the script's modules and the style sheet.
pub async fn file(Path(name): Path<String>) -> Result<Response, ApiError> {
    if name == "style.css" {
        return Ok(asset("text/css; charset=utf-8", STYLE_CSS));
    }
    match MODULES.iter().find(|(module, _)| *module == name) {
        // Browsers run a module only with a JavaScript type.
        Some((_, body)) => Ok(asset("text/javascript; charset=utf-8", body)),
        None => Err(ApiError::not_found(format!("no such file: /assets/{name}"))),
    }
}
