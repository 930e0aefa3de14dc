//! The `--json` printers. The engine's answers serialize to the JSON each
//! command prints ([`gammon_engine::api::json`], which also frames the shapes
//! of `eval`, of `analyse` without dice and of the notes of `analyse` with
//! dice, so that the HTTP API sends the same).

use gammon_engine::api::json::document;
pub use gammon_engine::api::json::EvalJson;
use serde::Serialize;
use std::io::Write;

/// Writes `value` as a pretty JSON document (its keys after a leading
/// `schema_version`) and a newline.
pub fn write(out: &mut impl Write, value: &impl Serialize) -> anyhow::Result<()> {
    let text = pretty(value)?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// `value` as a pretty JSON document, its keys after a leading `schema_version`.
pub fn pretty(value: &impl Serialize) -> serde_json::Result<String> {
    serde_json::to_string_pretty(&document(value))
}

/// `value` as a one-line JSON document (a line of JSON Lines).
pub fn line(value: &impl Serialize) -> serde_json::Result<String> {
    serde_json::to_string(&document(value))
}
