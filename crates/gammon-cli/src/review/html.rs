//! The review as one self-contained HTML page.

use gammon_engine::review::MatchReview;
use gammon_rules::MatchRecord;

/// The page.
pub fn page(r: &MatchReview, record: &MatchRecord) -> String {
    let mut text = Vec::new();
    let _ = super::text::report(&mut text, r, record);
    let body = String::from_utf8_lossy(&text).replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    format!("<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"><title>Review</title></head><body><pre>{body}</pre></body></html>\n")
}
