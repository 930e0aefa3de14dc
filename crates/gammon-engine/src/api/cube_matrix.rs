//! The cube decision of a position at every score of a match where both
//! sides need 2 points or more (`gammon cube --matrix N`): one cubeful
//! search for all the scores, since the tree of positions and its cubeless
//! probabilities do not depend on the score; only the cube and match
//! arithmetic along it does ([`analyse_states_nply`]).

use super::use_cases::check_depth;
use super::{CubeOptions, CubeQuestion, CubeReport, Engine, EngineError, Request};
use crate::cube::{analyse_states_nply, CubeError, CubeState};
use gammon_eval::{Evaluator, PositionClass};
use gammon_rules::{CubeOwner, GameContext};
use std::time::{Duration, Instant};
use thiserror::Error;

/// A score matrix that cannot be made.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MatrixError {
    /// A match too short to have a score where both sides need 2 or more.
    #[error("a score matrix needs a match of 2 points or more (both sides need 2 to N points), not {0}")]
    TooShort(u32),
    /// The matrix shows the doubles of the player on roll, who cannot double.
    #[error(
        "the player on roll cannot double: the opponent owns the {0}-cube (give the position with the opponent on roll)"
    )]
    OpponentOwnsCube(u32),
}

/// The cube decisions of one position at every score of a `length`-point
/// match where both sides need 2 to `length` points, from
/// [`Engine::cube_matrix`]. Each entry is the [`CubeReport`] that
/// [`Engine::cube`] gives at its score.
#[derive(Debug, Clone, PartialEq)]
pub struct CubeMatrix {
    /// The match length.
    pub length: u32,
    /// The depth of the search.
    pub plies: u8,
    /// One report a score, row by row: the away of the player on roll from
    /// 2 to `length`, and in each row the opponent's from 2 to `length`.
    pub entries: Vec<CubeReport>,
    /// The time the matrix took.
    pub elapsed: Duration,
}

impl CubeMatrix {
    /// The aways of a row or column: 2 to the length.
    pub fn aways(&self) -> std::ops::RangeInclusive<u32> {
        2..=self.length
    }

    /// The report where the player on roll needs `away.0` points and the
    /// opponent `away.1`.
    pub fn at(&self, away: (u32, u32)) -> Option<&CubeReport> {
        let side = self.length.checked_sub(1)? as usize;
        let (r, c) = (away.0.checked_sub(2)? as usize, away.1.checked_sub(2)? as usize);
        (r < side && c < side).then(|| self.entries.get(r * side + c)).flatten()
    }
}

impl<E: Evaluator> Engine<E> {
    /// The cube decision of the request's position, with its cube (value,
    /// owner, maximum), at every score of a `length`-point match where both
    /// sides need 2 points or more (no Crawford game there). Each entry is
    /// [`cube`](Self::cube) at its score, bit for bit; the search is made
    /// once for all of them.
    ///
    /// # Errors
    /// [`EngineError::TooDeep`], [`EngineError::GameOver`],
    /// [`EngineError::Matrix`] for a match shorter than 2 points or a cube
    /// the opponent owns, [`EngineError::Cube`] for a match longer than the
    /// table or a cube that breaks the rules.
    pub fn cube_matrix(
        &self,
        request: &Request,
        options: &CubeOptions,
        length: u32,
    ) -> Result<CubeMatrix, EngineError> {
        check_depth(options.ply)?;
        if length < 2 {
            return Err(MatrixError::TooShort(length).into());
        }
        if length > self.met().max_away() {
            return Err(CubeError::MatchTooLong { length, max: self.met().max_away() }.into());
        }
        if request.game_over() {
            return Err(EngineError::GameOver);
        }
        let base = request.context;
        if base.cube_owner == CubeOwner::Opponent {
            return Err(MatrixError::OpponentOwnsCube(base.cube_value).into());
        }
        let start = Instant::now();
        let questions = (2..=length)
            .flat_map(|a| (2..=length).map(move |b| (a, b)))
            .map(|(a, b)| {
                let context = GameContext {
                    match_length: length,
                    score: (length - a, length - b),
                    crawford: false,
                    jacoby: false,
                    beaver: false,
                    ..base
                };
                CubeQuestion::new(request.position, context, self.met())
            })
            .collect::<Result<Vec<_>, _>>()?;
        let states: Vec<CubeState> = questions.iter().map(|q| *q.state()).collect();
        let analyses = analyse_states_nply(self.search(), &request.position, &states, self.met(), options.ply)?;
        let class = PositionClass::of(&request.position);
        let entries = questions
            .into_iter()
            .zip(analyses)
            .map(|(q, analysis)| CubeReport {
                position: request.position,
                context: *q.context(),
                plies: options.ply,
                class,
                analysis,
                notes: q.notes().to_vec(),
                met: self.met().name().to_string(),
            })
            .collect();
        Ok(CubeMatrix { length, plies: options.ply, entries, elapsed: start.elapsed() })
    }
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::*;
    use crate::api::MAX_PLY;
    use gammon_eval::NetEvaluator;

    fn engine() -> Engine<NetEvaluator> {
        Engine::new(NetEvaluator::shipped().unwrap())
    }

    /// X to move in a contact middle game, X owning a 2-cube.
    fn request() -> Request {
        Request::read("XGID=-b----E-C---eE---c-e----B-:1:1:1:00:0:0:0:0:10", None, None).unwrap()
    }

    #[test]
    fn the_matrix_is_the_cube_decision_score_by_score() {
        let e = engine();
        let (req, options) = (request(), CubeOptions { ply: 2 });
        let m = e.cube_matrix(&req, &options, 4).unwrap();
        assert_eq!((m.length, m.plies, m.entries.len(), m.aways()), (4, 2, 9, 2..=4));
        e.clear_caches();
        for a in 2..=4 {
            for b in 2..=4 {
                let ctx = GameContext { match_length: 4, score: (4 - a, 4 - b), ..req.context };
                let one = e.cube(&Request { context: ctx, ..req }, &options).unwrap();
                assert_eq!(m.at((a, b)), Some(&one), "{a}-away {b}-away");
            }
        }
        assert_eq!((m.at((1, 2)), m.at((2, 5)), m.at((5, 2))), (None, None, None));
        // The cube is the position's: X owns a 2-cube everywhere.
        assert!(m.entries.iter().all(|r| (r.context.cube_value, r.context.cube_owner) == (2, CubeOwner::OnRoll)));
    }

    #[test]
    fn matrices_the_engine_cannot_make() {
        let e = engine();
        let o = CubeOptions::default();
        assert_eq!(e.cube_matrix(&request(), &o, 1), Err(EngineError::Matrix(MatrixError::TooShort(1))));
        let long = e.cube_matrix(&request(), &o, 26).unwrap_err();
        assert_eq!(long, EngineError::Cube(CubeError::MatchTooLong { length: 26, max: 25 }));
        let theirs =
            Request { context: GameContext { cube_owner: CubeOwner::Opponent, ..request().context }, ..request() };
        assert_eq!(e.cube_matrix(&theirs, &o, 5), Err(EngineError::Matrix(MatrixError::OpponentOwnsCube(2))));
        let deep = e.cube_matrix(&request(), &CubeOptions { ply: 4 }, 5);
        assert_eq!(deep, Err(EngineError::TooDeep { ply: 4, max: MAX_PLY }));
        let over = Request::read("AAAAAAAA/38AAA", None, None).unwrap();
        assert_eq!(e.cube_matrix(&over, &o, 5), Err(EngineError::GameOver));
    }

    #[test]
    fn the_json_is_one_cube_report_a_score() {
        let m = engine().cube_matrix(&request(), &CubeOptions { ply: 0 }, 3).unwrap();
        let v = serde_json::to_value(super::super::json::document(&m)).unwrap();
        assert_eq!((v["match_length"].as_u64(), v["ply"].as_u64()), (Some(3), Some(0)));
        assert_eq!(v["met"], "Kazaross XG2 25 point MET");
        let entries = v["matrix"].as_array().unwrap();
        assert_eq!(entries.len(), 4);
        assert_eq!(entries[1]["settings"]["away"], serde_json::json!([2, 3]));
        assert_eq!(entries[1]["settings"]["met"], "Kazaross XG2 25 point MET");
        assert_eq!(entries[1], serde_json::to_value(&m.entries[1]).unwrap());
    }
}
