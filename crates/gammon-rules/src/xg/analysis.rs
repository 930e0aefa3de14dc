//! XG's stored analysis in gammon's conventions ([`StoredAnalysis`]).
//!
//! What XG stores, and how it is read (checked on the real files):
//! - equities are cubeful and already normalised: money equities per unit
//!   of the cube (the same range with the cube at 1 or 2), match equities
//!   as EMG, a double/pass being exactly +1 for the doubler. They are kept
//!   as they are, so no match equity table is needed; XG's match winning
//!   chances are not in the record;
//! - probabilities are seven numbers `[lose bg, lose gammon, lose, win, win
//!   gammon, win bg, equity]`, the win and lose totals summing to 1 and each
//!   backgammon counted in its gammon (cumulative, as gnubg's import of XG
//!   files reads them); gammon's order is `[win, win gammon, win bg, lose
//!   gammon, lose bg]`;
//! - a cube record's values are the decider's (he may double before his
//!   roll); a move's candidates are the mover's, in XG's order: XG values
//!   its first candidates deeper than the rest, so the first is the best
//!   of the deepest, not always the highest number of the list;
//! - the depth of each value is XG's level code (its `PLAYERLEVEL` table).
//!
//! [`StoredAnalysis`]: crate::StoredAnalysis

use super::records::{Candidate, CubeEval, XgBoard};
use crate::{
    parse_move, MatAction, MatchRecord, Position, StoredAnalysis, StoredCandidate, StoredCube, StoredMove, StoredRecord,
};

/// The program, as [`StoredAnalysis::program`] names it.
pub(super) const PROGRAM: &str = "eXtreme Gammon";

/// What XG stored for one written action, before the replay says which
/// candidate was played.
pub(super) struct Pending {
    pub cube: Option<StoredCube>,
    pub candidates: Option<Vec<StoredCandidate>>,
    /// XG's error of the played move (the unit tests check the loss against it).
    #[cfg_attr(not(test), allow(dead_code))]
    pub error: Option<f64>,
}

/// XG's depth as XG names it.
pub(super) fn depth_name(level: i32) -> String {
    match level {
        0..=6 => format!("{}-ply", level + 1),
        12 => "3-ply red".into(),
        100 => "rollout".into(),
        998 | 999 => "book".into(),
        1000 => "XG Roller".into(),
        1001 => "XG Roller+".into(),
        1002 => "XG Roller++".into(),
        n => format!("level {n}"),
    }
}

/// XG's seven numbers as gammon's five cumulative probabilities; `None`
/// when XG wrote none (all zero), or one that is not a probability.
fn probabilities(eval: &[f32; 7]) -> Option<[f64; 5]> {
    let [lose_bg, lose_gammon, _lose, win, win_gammon, win_bg, _equity] = eval.map(f64::from);
    let p = [win, win_gammon, win_bg, lose_gammon, lose_bg];
    // XG rounds: a certain result may be stored a hair above 1.
    let valid = p.iter().all(|x| (-1e-3..=1.0 + 1e-3).contains(x));
    (valid && p.iter().any(|&x| x != 0.0)).then_some(p)
}

pub(super) fn stored_cube(e: &CubeEval) -> StoredCube {
    StoredCube {
        no_double: f64::from(e.no_double),
        double_take: f64::from(e.double_take),
        double_pass: f64::from(e.double_pass),
        probabilities: probabilities(&e.eval),
        depth: depth_name(e.level),
    }
}

/// The candidates whose position is a position and equity a number (a
/// corrupt one is left out).
pub(super) fn stored_candidates(candidates: &[Candidate]) -> Vec<StoredCandidate> {
    candidates
        .iter()
        .filter_map(|c| {
            let equity = f64::from(c.eval[6]);
            Some(StoredCandidate {
                after: position(&c.after)?,
                equity: equity.is_finite().then_some(equity)?,
                probabilities: probabilities(&c.eval),
                depth: depth_name(c.level),
            })
        })
        .collect()
}

/// An XG board seen by its side as a gammon position seen by the same
/// side: XG's point `p` of the opponent (negative) is his point `25 - p`.
fn position(b: &XgBoard) -> Option<Position> {
    let mut mine = [0u8; 25];
    let mut theirs = [0u8; 25];
    for (p, &n) in b.iter().enumerate() {
        let count = u8::try_from(i16::from(n).unsigned_abs()).ok()?;
        match (p, n.signum()) {
            (_, 0) => {}
            (25, 1) => mine[24] = count,
            (0, -1) => theirs[24] = count,
            (1..=24, 1) => mine[p - 1] = count,
            (1..=24, -1) => theirs[24 - p] = count,
            _ => return None,
        }
    }
    Position::from_boards(&mine, &theirs).ok()
}

/// The stored analysis of a replayed match: each action's stored values on
/// its record (the replay writes one record per action until a game's
/// result), the played candidate found by its position.
pub(super) fn attach(record: &MatchRecord, pending: Vec<Vec<Option<Pending>>>) -> Option<StoredAnalysis> {
    let mut analysis = StoredAnalysis { program: PROGRAM.to_string(), records: Default::default() };
    for (g, (game, pending)) in record.games.iter().zip(pending).enumerate() {
        for (r, (entry, pending)) in game.records.iter().zip(pending).enumerate() {
            let Some(p) = pending else { continue };
            let chequer = match (&entry.action, p.candidates) {
                (MatAction::Move { dice, text, .. }, Some(candidates)) => {
                    let played_after = parse_move(&entry.position, *dice, text).ok().map(|(_, after)| after.switched());
                    let played = candidates.iter().position(|c| Some(c.after) == played_after);
                    Some(StoredMove { candidates, played })
                }
                _ => None,
            };
            if p.cube.is_some() || chequer.is_some() {
                analysis.records.insert((g, r), StoredRecord { cube: p.cube, chequer });
            }
        }
    }
    (!analysis.records.is_empty()).then_some(analysis)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_that_are_not_values_are_left_out() {
        // Found by the fuzzer: a NaN made a record unequal to itself.
        let nan = f32::NAN;
        assert_eq!(probabilities(&[0.0, 0.1, 0.5, 0.5, nan, 0.0, 0.0]), None);
        assert_eq!(probabilities(&[0.0, 0.1, 0.5, 0.5, 7.0, 0.0, 0.0]), None);
        assert_eq!(probabilities(&[0.0; 7]), None);
        assert_eq!(
            probabilities(&[0.01, 0.1, 0.5, 0.5, 0.2, 0.02, 0.1]),
            Some([0.5, 0.2, 0.02, 0.1, 0.01].map(|x: f32| f64::from(x)))
        );
        let start: XgBoard = [0, -2, 0, 0, 0, 0, 5, 0, 3, 0, 0, 0, -5, 5, 0, 0, 0, -3, 0, -5, 0, 0, 0, 0, 2, 0];
        assert_eq!(position(&start), Some(Position::STARTING));
        let c = |equity: f32| Candidate { after: start, level: 1, eval: [0.0, 0.1, 0.5, 0.5, 0.2, 0.0, equity] };
        let kept = stored_candidates(&[c(nan), c(f32::INFINITY), c(0.25)]);
        assert_eq!(kept.len(), 1);
        assert_eq!((kept[0].equity, kept[0].depth.as_str()), (0.25, "2-ply"));
        // A board with 16 checkers is no position.
        let mut sixteen = start;
        sixteen[6] = 6;
        assert_eq!(position(&sixteen), None);
    }
}
