//! Query parameters and JSON bodies read into typed requests, every refusal
//! naming its field. Each endpoint lists the parameters it takes; any other
//! is refused, so a misspelt `dice` is not silently ignored.

use crate::body_field::field_at_fault;
use crate::error::ApiError;
use axum::body::Body;
use axum::http::StatusCode;
use gammon_engine::api::Request;
use gammon_rules::Dice;
use serde::de::DeserializeOwned;
use std::time::Duration;

/// The deepest search a request may ask for: the engine's limit.
pub use gammon_engine::api::MAX_PLY;

/// The largest request body: a match file of a long session is well under
/// this (a 25-point match is about 20 KB).
pub const MAX_BODY_BYTES: usize = 1024 * 1024;

/// How much of an oversized body is still read (and dropped) before the
/// refusal: a client that is still sending when the server answers and
/// closes gets a broken pipe instead of the 413 and its reason, so bodies up
/// to this size are read to their end; beyond it the connection is cut.
pub const DRAIN_BODY_BYTES: usize = 8 * MAX_BODY_BYTES;

/// The parameters of one query string, checked against what an endpoint
/// takes.
#[derive(Debug)]
pub struct Query {
    pairs: Vec<(String, String)>,
}

impl Query {
    /// Reads `raw` (the text after `?`), refusing parameters not in
    /// `allowed` and parameters given twice.
    pub fn parse(raw: Option<&str>, allowed: &[&str]) -> Result<Self, ApiError> {
        let pairs: Vec<(String, String)> = serde_urlencoded::from_str(raw.unwrap_or(""))
            .map_err(|e| ApiError::request(StatusCode::BAD_REQUEST, format!("malformed query string: {e}")))?;
        for (i, (key, _)) in pairs.iter().enumerate() {
            if !allowed.contains(&key.as_str()) {
                return Err(ApiError::bad(
                    key,
                    format!("unknown parameter (this endpoint takes {})", allowed.join(", ")),
                ));
            }
            if pairs[..i].iter().any(|(k, _)| k == key) {
                return Err(ApiError::bad(key, "given more than once"));
            }
        }
        Ok(Query { pairs })
    }

    /// The value of `key`, if given.
    pub fn get(&self, key: &str) -> Option<&str> {
        self.pairs.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The value of `key`, which must be given.
    pub fn required(&self, key: &str) -> Result<&str, ApiError> {
        self.get(key).ok_or_else(|| ApiError::bad(key, "missing"))
    }

    /// `ply`: 0 to [`MAX_PLY`], `default` when absent.
    pub fn ply(&self, default: u8) -> Result<u8, ApiError> {
        self.get("ply").map_or(Ok(default), parse_ply)
    }

    /// A whole number `key`, if given.
    pub fn number(&self, key: &str) -> Result<Option<u32>, ApiError> {
        self.get(key)
            .map(|t| t.parse().map_err(|_| ApiError::bad(key, format!("{t:?} is not a whole number"))))
            .transpose()
    }

    /// A boolean flag: `true`, `false`, `1` or `0`; false when absent.
    pub fn flag(&self, key: &str) -> Result<bool, ApiError> {
        match self.get(key) {
            None | Some("false" | "0") => Ok(false),
            Some("true" | "1" | "") => Ok(true),
            Some(other) => Err(ApiError::bad(key, format!("{other:?} is not true or false"))),
        }
    }

    /// The position of `position` (and `match_id`) with the dice of `dice`.
    pub fn request(&self) -> Result<Request, ApiError> {
        Ok(Request::read(self.required("position")?, self.get("match_id"), self.get("dice"))?)
    }
}

/// `ply` text: 0 to [`MAX_PLY`].
pub fn parse_ply(text: &str) -> Result<u8, ApiError> {
    match text.parse::<u8>() {
        Ok(p) if p <= MAX_PLY => Ok(p),
        _ => Err(ApiError::bad("ply", format!("{text:?} is not a depth from 0 to {MAX_PLY}"))),
    }
}

/// The dice of `request`, which the endpoint needs.
pub fn dice_required(request: &Request) -> Result<Dice, ApiError> {
    request.dice.ok_or_else(|| ApiError::bad("dice", "missing (write them like 31)"))
}

/// `dice` text like `31`.
pub fn parse_dice(text: &str) -> Result<Dice, ApiError> {
    text.parse::<Dice>().map_err(|e| ApiError::bad("dice", format!("cannot read {text:?} (write them like 31): {e}")))
}

/// A JSON body of at most [`MAX_BODY_BYTES`], read into `T` (whose fields
/// refuse unknown names); a refusal names the field at fault
/// (`field_at_fault`) with serde_json's reason. The
/// body must arrive whole within `timeout` (408 otherwise: a client that
/// sends slowly does not hold the connection).
pub async fn json_body<T: DeserializeOwned>(body: Body, timeout: Duration) -> Result<T, ApiError> {
    let read = tokio::time::timeout(timeout, read_body(body, MAX_BODY_BYTES)).await.map_err(|_| {
        ApiError::request(
            StatusCode::REQUEST_TIMEOUT,
            format!("the body did not arrive within {} s", timeout.as_secs_f64()),
        )
    })?;
    let (bytes, total) = read?;
    if total > MAX_BODY_BYTES {
        return Err(ApiError::request(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("the body is larger than {MAX_BODY_BYTES} bytes"),
        ));
    }
    // serde would name the Rust type it expected ("struct PlayRequest").
    if bytes.trim_ascii_start().first().is_some_and(|&b| b != b'{') {
        return Err(ApiError::request(StatusCode::BAD_REQUEST, "bad JSON body: not an object ({\"field\": value, …})"));
    }
    serde_json::from_slice(&bytes).map_err(|e| ApiError {
        status: StatusCode::BAD_REQUEST,
        field: field_at_fault::<T>(&bytes),
        reason: format!("bad JSON body: {e}"),
    })
}

/// Reads `body` to its end (at most [`DRAIN_BODY_BYTES`]; beyond, the
/// connection is cut), keeping its first `keep` bytes; returns them and
/// the number of bytes read.
async fn read_body(mut body: Body, keep: usize) -> Result<(Vec<u8>, usize), ApiError> {
    use http_body_util::BodyExt;
    let mut bytes = Vec::new();
    let mut total = 0usize;
    while let Some(frame) = body.frame().await {
        let frame =
            frame.map_err(|e| ApiError::request(StatusCode::BAD_REQUEST, format!("cannot read the body: {e}")))?;
        let Ok(data) = frame.into_data() else { continue };
        total = total.saturating_add(data.len());
        if total <= keep {
            bytes.extend_from_slice(&data);
        } else if total > DRAIN_BODY_BYTES {
            break;
        }
    }
    Ok((bytes, total))
}

/// Reads and drops `body` (up to [`DRAIN_BODY_BYTES`], for at most
/// `timeout`), so that its connection closes without unread data.
pub async fn drain_body(body: Body, timeout: Duration) {
    let _ = tokio::time::timeout(timeout, read_body(body, 0)).await;
}
