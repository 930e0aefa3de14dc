//! JSON shapes shared by several commands.

use gammon_eval::Probabilities;
use serde::Serialize;

/// The five cumulative probabilities of one side, with the losing chance
/// written out, as every `--json` output prints them.
#[derive(Debug, Serialize)]
pub struct ProbabilitiesJson {
    win: f32,
    win_gammon: f32,
    win_backgammon: f32,
    lose: f32,
    lose_gammon: f32,
    lose_backgammon: f32,
}

impl From<Probabilities> for ProbabilitiesJson {
    fn from(p: Probabilities) -> Self {
        ProbabilitiesJson {
            win: p.win,
            win_gammon: p.win_gammon,
            win_backgammon: p.win_backgammon,
            lose: 1.0 - p.win,
            lose_gammon: p.lose_gammon,
            lose_backgammon: p.lose_backgammon,
        }
    }
}

/// The probabilities followed by the cubeless equity.
#[derive(Debug, Serialize)]
pub struct EvaluationJson {
    #[serde(flatten)]
    probabilities: ProbabilitiesJson,
    equity: f32,
}

impl From<Probabilities> for EvaluationJson {
    fn from(p: Probabilities) -> Self {
        EvaluationJson { probabilities: p.into(), equity: p.equity() }
    }
}
