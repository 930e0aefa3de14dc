//! The web page, built into the binary: no files to install, nothing
//! fetched at run time (the Content-Security-Policy allows only this server).

use crate::error::ApiError;
use axum::extract::Path;
use axum::http::header;
use axum::response::{IntoResponse, Response};

const INDEX_HTML: &str = include_str!("../assets/index.html");
const APP_JS: &str = include_str!("../assets/app.js");
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

/// `GET /assets/{name}`: the script and the style sheet.
pub async fn file(Path(name): Path<String>) -> Result<Response, ApiError> {
    match name.as_str() {
        "app.js" => Ok(asset("text/javascript; charset=utf-8", APP_JS)),
        "style.css" => Ok(asset("text/css; charset=utf-8", STYLE_CSS)),
        _ => Err(ApiError::not_found(format!("no such file: /assets/{name}"))),
    }
}
