//! The `--json` printers. The engine's answers serialize to the JSON each
//! command prints ([`gammon_engine::api::json`]); this module adds the
//! shapes of `eval`, of `analyse` without dice and of the notes of
//! `analyse` with dice, which frame them.

use gammon_engine::api::json::EvaluationJson;
use gammon_engine::api::{CubeReport, CubefulRollAnalysis, Evaluation};
use gammon_eval::evaluated_by;
use serde::Serialize;
use std::io::Write;

/// Writes `value` as pretty JSON and a newline.
pub fn write(out: &mut impl Write, value: &impl Serialize) -> anyhow::Result<()> {
    let text = serde_json::to_string_pretty(value)?;
    writeln!(out, "{text}")?;
    Ok(())
}

/// `gammon eval --json`: the position, which part of the evaluator
/// answered, the probabilities and the equity.
#[derive(Serialize)]
pub struct EvalJson {
    position: String,
    evaluator: String,
    #[serde(flatten)]
    evaluation: EvaluationJson,
}

impl From<&Evaluation> for EvalJson {
    fn from(e: &Evaluation) -> Self {
        EvalJson {
            position: e.position.to_position_id(),
            evaluator: evaluated_by(e.class).to_string(),
            evaluation: e.probabilities.into(),
        }
    }
}

/// `gammon analyse --json` without dice: the evaluation and the cube
/// decision at the same depth, or why there is none.
#[derive(Serialize)]
pub struct PositionAnalysisJson<'a> {
    #[serde(flatten)]
    evaluation: &'a Evaluation,
    /// The cube decision of the player on roll at the same depth (`null`
    /// when there is none, see `cube_error`).
    cube: Option<&'a CubeReport>,
    /// Why there is no cube decision (a finished game, a score the match
    /// equity table does not cover).
    #[serde(skip_serializing_if = "Option::is_none")]
    cube_error: Option<&'a str>,
}

impl<'a> PositionAnalysisJson<'a> {
    /// The evaluation with its cube decision or the reason it has none.
    pub fn new(evaluation: &'a Evaluation, cube: &'a Result<CubeReport, String>) -> Self {
        let (cube, cube_error) = match cube {
            Ok(d) => (Some(d), None),
            Err(e) => (None, Some(e.as_str())),
        };
        PositionAnalysisJson { evaluation, cube, cube_error }
    }
}

/// `gammon analyse --json` with dice: the cubeful analysis and the notes on
/// its context (what of the position the options kept), when there are any.
#[derive(Serialize)]
pub struct CubefulAnalysisJson<'a> {
    #[serde(flatten)]
    analysis: &'a CubefulRollAnalysis,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    notes: &'a [String],
}

impl<'a> CubefulAnalysisJson<'a> {
    /// The analysis with its notes.
    pub fn new(analysis: &'a CubefulRollAnalysis, notes: &'a [String]) -> Self {
        CubefulAnalysisJson { analysis, notes }
    }
}
