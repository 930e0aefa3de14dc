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

/// An error with every source after it, as `a: b: c`: the engine's one
/// line, as the CLI prints it.
pub use gammon_engine::api::error_chain as chain;

/// The most characters of the client's input an error message quotes.
pub const QUOTE_CHARS: usize = 80;

/// The longest reason sent (the longest written here is about 250
/// characters): the last guard against echoing a large input.
const REASON_CHARS: usize = 600;

/// `text` quoted for an error message, cut after [`QUOTE_CHARS`]
/// characters: `"abc…" (900000 characters)`.
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(QUOTE_CHARS) {
        None => format!("\"{}\"", escaped(text)),
        Some((cut, _)) => format!("\"{}…\" ({} characters)", escaped(&text[..cut]), text.chars().count()),
    }
}

/// Control characters as escapes, so that a quote stays on one line.
fn escaped(text: &str) -> String {
    text.chars().flat_map(|c| if c.is_control() || c == '"' { c.escape_default().collect() } else { vec![c] }).collect()
}

/// `text` cut after `limit` characters with an ellipsis (on a character
/// boundary).
fn cut(text: &str, limit: usize) -> std::borrow::Cow<'_, str> {
    match text.char_indices().nth(limit) {
        None => text.into(),
        Some((at, _)) => format!("{}…", &text[..at]).into(),
    }
}

/// `reason` with every quoted stretch (between `"` or backquotes, as the
/// parsers' and serde's messages quote the input) cut after
/// [`QUOTE_CHARS`] characters, and the whole cut after `REASON_CHARS`:
/// messages written by other crates quote the input whole.
pub fn shorten_quotes(reason: &str) -> String {
    let mut out = String::new();
    let mut rest = reason;
    while let Some(open) = rest.find(['"', '`']) {
        let mark = rest[open..].chars().next().unwrap_or('"');
        out.push_str(&rest[..=open]);
        let inside = &rest[open + 1..];
        let close = closing(inside, mark).unwrap_or(inside.len());
        out.push_str(&cut(&inside[..close], QUOTE_CHARS));
        rest = &inside[close..];
        if let Some(after) = rest.strip_prefix(mark) {
            out.push(mark);
            rest = after;
        }
    }
    out.push_str(rest);
    cut(&out, REASON_CHARS).into_owned()
}

/// Where `mark` closes a quote in `text`, past `\"` escapes.
fn closing(text: &str, mark: char) -> Option<usize> {
    let mut escaped = false;
    for (i, c) in text.char_indices() {
        if c == mark && !escaped {
            return Some(i);
        }
        escaped = c == '\\' && mark == '"' && !escaped;
    }
    None
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
        let field = self.field.as_deref().map(|f| cut(f, QUOTE_CHARS));
        let reason = shorten_quotes(&self.reason);
        let body = ErrorBody { error: ErrorJson { field: field.as_deref(), reason: &reason } };
        (self.status, Json(gammon_engine::api::json::document(body))).into_response()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_quote_is_cut_on_a_character_boundary_with_an_ellipsis() {
        // Two-byte characters: a cut by bytes would split one.
        let long = "é".repeat(200);
        let quoted = quote(&long);
        assert_eq!(quoted, format!("\"{}…\" (200 characters)", "é".repeat(QUOTE_CHARS)));
        assert_eq!(quote("31"), "\"31\"");
        assert_eq!(quote("a\"b\nc"), "\"a\\\"b\\nc\"");
    }

    #[test]
    fn quotes_in_other_crates_messages_are_cut_and_the_rest_kept() {
        let input = "ü".repeat(1_000);
        let reason = format!("cannot read {input:?}: field `{input}` at line 1, then \"short\"");
        let cut_input = format!("{}…", "ü".repeat(QUOTE_CHARS));
        assert_eq!(
            shorten_quotes(&reason),
            format!("cannot read \"{cut_input}\": field `{cut_input}` at line 1, then \"short\"")
        );
        // An escaped quote does not end the quote; an unclosed one is cut too.
        let escaped = format!("{:?}", format!("\"{}", "x".repeat(100)));
        assert_eq!(shorten_quotes(&escaped), format!("\"\\\"{}…\"", "x".repeat(QUOTE_CHARS - 2)));
        assert_eq!(shorten_quotes(&format!("open \"{}", "y".repeat(500))), format!("open \"{}…", "y".repeat(80)));
        // No quotes, but long: cut as a whole.
        assert_eq!(shorten_quotes(&"z".repeat(5_000)).chars().count(), REASON_CHARS + 1);
    }
}
