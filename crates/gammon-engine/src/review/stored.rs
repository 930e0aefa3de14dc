//! gammon's own review as a [`StoredAnalysis`]: what a match file writer
//! (SGF, OGXM) stores so that other programs show gammon's verdicts.

use super::report::MatchReview;
use crate::api::CubefulMove;
use gammon_eval::Probabilities;
use gammon_rules::{StoredAnalysis, StoredCandidate, StoredCube, StoredMove, StoredRecord};

/// The five cubeless probabilities in the stored order.
fn five(p: &Probabilities) -> [f64; 5] {
    [p.win, p.win_gammon, p.win_backgammon, p.lose_gammon, p.lose_backgammon].map(f64::from)
}

fn candidate(m: &CubefulMove) -> StoredCandidate {
    StoredCandidate {
        // The review keeps the result as the opponent sees it.
        after: m.result.switched(),
        equity: m.equity,
        probabilities: Some(five(&m.probabilities)),
        depth: format!("{}-ply", m.plies),
    }
}

impl MatchReview {
    /// The review's verdicts as a stored analysis by `program` (for
    /// example `"gammon 0.1.0"`): for every reviewed move its candidates
    /// (the move played appended when it is not among them), for every cube
    /// decision the doubler's three values.
    pub fn to_stored(&self, program: &str) -> StoredAnalysis {
        let mut stored = StoredAnalysis { program: program.to_string(), ..StoredAnalysis::default() };
        for (g, game) in self.games.iter().enumerate() {
            for (i, r) in game.records.iter().enumerate() {
                let chequer = r.chequer.as_ref().map(|c| {
                    let mut candidates: Vec<StoredCandidate> = c.candidates.iter().map(candidate).collect();
                    let played = match c.candidates.iter().position(|m| m.result == c.played.result) {
                        Some(k) => k,
                        None => {
                            candidates.push(candidate(&c.played));
                            candidates.len() - 1
                        }
                    };
                    StoredMove { candidates, played: Some(played) }
                });
                let cube = r.cube.as_ref().map(|c| StoredCube {
                    no_double: c.analysis.no_double,
                    double_take: c.analysis.double_take,
                    double_pass: c.analysis.double_pass,
                    probabilities: Some(five(&c.analysis.probabilities)),
                    depth: format!("{}-ply", self.settings.cube_plies),
                });
                if chequer.is_some() || cube.is_some() {
                    stored.records.insert((g, i), StoredRecord { cube, chequer });
                }
            }
        }
        stored
    }
}
