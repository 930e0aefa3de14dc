//! The `--json` printers. The engine's answers serialize to the JSON each
//! command prints ([`gammon_engine::api::json`], which also frames the shapes
//! of `eval`, of `analyse` without dice and of the notes of `analyse` with
//! dice, so that the HTTP API sends the same).

pub use gammon_engine::api::json::{CubefulAnalysisJson, EvalJson, PositionAnalysisJson};
use serde::Serialize;
use std::io::Write;

/// Writes `value` as pretty JSON and a newline.
pub fn write(out: &mut impl Write, value: &impl Serialize) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    writeln!(out, "{text}")?;
    Ok(())
}
